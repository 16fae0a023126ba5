//! `problem.yaml`, the package's header: the format version and the keys each format
//! knows, the name, the problem type (2025-09) or `validation` and `validator_flags`
//! (legacy), the `validator_convention`, and the limits (with the legacy `.timelimit`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_yaml::Value;

use super::diagnostics::Ctx;
use super::{
    DEFAULT_LIMITS, Limits, MIB, TimeLimitSource, TimeMultipliers, ValidatorConvention, yaml,
};

const LEGACY_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "author",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "limits",
    "validation",
    "validator_flags",
    "validator_convention",
    "grading",
    "keywords",
];

const MODERN_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "credits",
    "source",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "keywords",
    "languages",
    "allow_file_writing",
    "constants",
    "validator_convention",
];

const LIMIT_KEYS: &[&str] = &[
    "time_limit",
    "time_multiplier",
    "time_safety_margin",
    "time_multipliers",
    "time_resolution",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
    "validation_passes",
];

/// The problem types of 2025-09.
const PROBLEM_TYPES: &[&str] = &[
    "pass-fail",
    "scoring",
    "interactive",
    "multi-pass",
    "submit-answer",
];

/// What `problem.yaml` says, in our terms.
pub(super) struct Header {
    /// The `problem.yaml` file, which diagnostics about the header name.
    pub(super) path: PathBuf,
    pub(super) name: String,
    pub(super) limits: Limits,
    pub(super) custom: bool,
    pub(super) interactive: bool,
    pub(super) score: bool,
    /// The most passes of a multi-pass problem (`limits.validation_passes`, default 2);
    /// 1 for any other problem.
    pub(super) passes: u32,
    /// Legacy `validator_flags`, which come before every test group's own arguments.
    pub(super) validator_flags: Vec<String>,
    pub(super) convention: ValidatorConvention,
    /// `validator_convention` was in `problem.yaml`.
    pub(super) convention_given: bool,
}

/// Reads `problem.yaml` in the package folder `root`. When it is missing or unreadable,
/// that error alone is reported and every value is the default: the rest would be guesses.
pub(super) fn read(ctx: &mut Ctx, root: &Path, short_name: &str) -> Header {
    let path = root.join("problem.yaml");
    let value = if path.is_file() {
        yaml::read(ctx, &path)
    } else {
        ctx.error(&path, "missing: every package needs a problem.yaml");
        None
    };
    let readable = value.is_some();
    let mark = ctx.mark();
    let header = from_yaml(
        ctx,
        &path,
        &value.unwrap_or_else(yaml::empty_mapping),
        short_name,
    );
    if !readable {
        ctx.discard_since(mark);
    }
    header
}

fn from_yaml(ctx: &mut Ctx, path: &Path, yaml: &Value, short_name: &str) -> Header {
    let (version, modern) = format_version(ctx, path, yaml);
    let known = if modern { MODERN_KEYS } else { LEGACY_KEYS };
    for key in yaml::unknown_keys(yaml, known) {
        ctx.warning(path, format!("unknown key `{key}` for format {version}"));
    }
    let name = read_name(ctx, path, yaml, modern, short_name);
    if modern && yaml.get("uuid").is_none() {
        ctx.warning(path, "no `uuid`: the 2025-09 format requires one");
    }

    let types = read_types(ctx, path, yaml);
    let mut multi_pass = types.iter().any(|t| t == "multi-pass");
    let mut interactive = types.iter().any(|t| t == "interactive");
    let mut score = types.iter().any(|t| t == "scoring");
    let mut custom = modern && (interactive || path.with_file_name("output_validator").exists());
    let mut validator_flags = Vec::new();
    if !modern {
        let legacy = read_legacy_validation(ctx, path, yaml);
        custom = legacy.custom;
        interactive |= legacy.interactive;
        score |= legacy.score;
        multi_pass |= legacy.multi_pass;
        validator_flags = legacy.flags;
    } else if yaml.get("validation").is_some() {
        // 2023-07 drafts kept legacy's `validation: custom multi-pass` spelling.
        let legacy = read_legacy_validation(ctx, path, yaml);
        custom |= legacy.custom;
        interactive |= legacy.interactive;
        multi_pass |= legacy.multi_pass;
    }
    custom |= multi_pass;

    let convention_given = yaml.get("validator_convention").is_some();
    let convention = read_convention(ctx, path, yaml);
    let limits = read_all_limits(ctx, path, yaml, modern);
    let passes = read_validation_passes(ctx, path, yaml, multi_pass);
    Header {
        path: path.to_path_buf(),
        name,
        limits,
        custom,
        interactive,
        score,
        passes,
        validator_flags,
        convention,
        convention_given,
    }
}

/// `problem_format_version` (absent means legacy) and whether it is a 2023-07 or 2025-09
/// format rather than legacy; an unknown version is an error, read as legacy.
fn format_version(ctx: &mut Ctx, path: &Path, yaml: &Value) -> (String, bool) {
    let version = yaml
        .get("problem_format_version")
        .and_then(|v| v.as_str())
        .unwrap_or("legacy")
        .to_owned();
    let modern = match version.as_str() {
        "legacy" | "legacy-icpc" => false,
        "2025-09" | "2023-07-draft" | "2023-07" => true,
        other => {
            ctx.error(
                path,
                format!(
                    "problem_format_version `{other}` is not one of legacy, 2023-07-draft, 2025-09"
                ),
            );
            false
        }
    };
    (version, modern)
}

/// `name`: a string, or a map from language codes (English preferred); the folder name
/// where it is missing (an error in 2025-09, a warning in legacy) or malformed.
fn read_name(ctx: &mut Ctx, path: &Path, yaml: &Value, modern: bool, short_name: &str) -> String {
    match yaml.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(Value::Mapping(map)) => map
            .get("en")
            .or_else(|| map.values().next())
            .and_then(|v| v.as_str())
            .unwrap_or(short_name)
            .to_owned(),
        Some(_) => {
            ctx.error(
                path,
                "`name` must be a string or a map from language codes to strings",
            );
            short_name.to_owned()
        }
        None => {
            if modern {
                ctx.error(path, "`name` is required");
            } else {
                ctx.warning(path, "no `name`: using the folder name");
            }
            short_name.to_owned()
        }
    }
}

/// `type` as words (`pass-fail` when absent); unknown types are errors.
fn read_types(ctx: &mut Ctx, path: &Path, yaml: &Value) -> Vec<String> {
    let types = match yaml.get("type") {
        None => vec!["pass-fail".to_owned()],
        Some(value) => yaml::words(value),
    };
    for kind in &types {
        if !PROBLEM_TYPES.contains(&kind.as_str()) {
            ctx.error(path, format!("unknown problem type `{kind}`"));
        }
    }
    types
}

/// The most passes of a multi-pass problem: `limits.validation_passes` (an integer of at
/// least 2; default 2), or 1 for a problem that is not multi-pass (where the key is a
/// warning: it does nothing).
fn read_validation_passes(ctx: &mut Ctx, path: &Path, yaml: &Value, multi_pass: bool) -> u32 {
    let value = yaml.get("limits").and_then(|l| l.get("validation_passes"));
    match (value, multi_pass) {
        (None, true) => 2,
        (None, false) => 1,
        (Some(_), false) => {
            ctx.warning(
                path,
                "`limits.validation_passes` has no effect on a problem that is not multi-pass",
            );
            1
        }
        (Some(value), true) => match value.as_u64() {
            Some(n @ 2..=1000) => n as u32,
            _ => {
                ctx.error(
                    path,
                    format!(
                        "`limits.validation_passes` must be an integer from 2 to 1000, found {}",
                        yaml::shown(value)
                    ),
                );
                2
            }
        },
    }
}

/// What legacy `validation` and `validator_flags` say.
#[derive(Default)]
struct LegacyValidation {
    custom: bool,
    interactive: bool,
    score: bool,
    multi_pass: bool,
    flags: Vec<String>,
}

/// Legacy `validation` (`default` or `custom`, then the options `interactive`, `score`
/// and `multi-pass`) and `validator_flags`.
fn read_legacy_validation(ctx: &mut Ctx, path: &Path, yaml: &Value) -> LegacyValidation {
    let mut res = LegacyValidation::default();
    if let Some(value) = yaml.get("validation") {
        let words = yaml::words(value);
        match words.first().map(String::as_str) {
            Some("default") | None => {}
            Some("custom") => res.custom = true,
            Some(other) => ctx.error(
                path,
                format!("`validation: {other}` is neither default nor custom"),
            ),
        }
        for word in words.iter().skip(1) {
            match word.as_str() {
                "interactive" => res.interactive = true,
                "score" => res.score = true,
                "multi-pass" | "multi_pass" => res.multi_pass = true,
                other => ctx.error(path, format!("unknown validation option `{other}`")),
            }
        }
    }
    if let Some(value) = yaml.get("validator_flags") {
        res.flags = yaml::words(value);
    }
    res
}

/// `validator_convention`: `kattis` (also when absent) or `testlib`; anything else is an
/// error naming the value, read as `kattis`.
fn read_convention(ctx: &mut Ctx, path: &Path, yaml: &Value) -> ValidatorConvention {
    match yaml.get("validator_convention") {
        None => ValidatorConvention::Kattis,
        Some(Value::String(s)) if s == "kattis" => ValidatorConvention::Kattis,
        Some(Value::String(s)) if s == "testlib" => ValidatorConvention::Testlib,
        Some(other) => {
            ctx.error(
                path,
                format!(
                    "`validator_convention: {}` is neither kattis nor testlib",
                    yaml::shown(other)
                ),
            );
            ValidatorConvention::Kattis
        }
    }
}

/// The limits from `limits`, the time limit from `.timelimit` beside `problem.yaml` when
/// `limits` gives none, and a warning when neither does. `modern`: 2023-07 or 2025-09,
/// whose default time multipliers differ from legacy's.
fn read_all_limits(ctx: &mut Ctx, path: &Path, yaml: &Value, modern: bool) -> Limits {
    let mut limits = read_limits(ctx, path, yaml, modern);
    if limits.time_source == TimeLimitSource::Default
        && let Some(time) = read_timelimit_file(ctx, &path.with_file_name(".timelimit"))
    {
        limits.time = time;
        limits.time_source = TimeLimitSource::TimeLimitFile;
    }
    if limits.time_source == TimeLimitSource::Default {
        ctx.warning(
            path,
            format!(
                "no time limit (limits.time_limit or .timelimit): the judge derives it from \
                 the slowest accepted submission times {}, or uses 1 second without one",
                limits.time_multipliers.ac_to_time_limit
            ),
        );
    }
    limits
}

/// The `limits` mapping over [`DEFAULT_LIMITS`] (with the format's time multipliers).
fn read_limits(ctx: &mut Ctx, path: &Path, yaml: &Value, modern: bool) -> Limits {
    let mut limits = DEFAULT_LIMITS;
    if !modern {
        limits.time_multipliers = TimeMultipliers::LEGACY;
    }
    let Some(value) = yaml.get("limits") else {
        return limits;
    };
    let Some(map) = value.as_mapping() else {
        ctx.error(path, "`limits` must be a mapping");
        return limits;
    };
    for (key, value) in map {
        let key = key.as_str().unwrap_or("<non-string key>");
        if !LIMIT_KEYS.contains(&key) {
            ctx.warning(path, format!("unknown limit `{key}`"));
            continue;
        }
        if key == "time_multipliers" {
            read_time_multipliers(ctx, path, value, &mut limits.time_multipliers);
            continue;
        }
        let Some(number) = positive(value) else {
            ctx.error(
                path,
                format!(
                    "limit `{key}` must be a positive number, found {}",
                    yaml::shown(value)
                ),
            );
            continue;
        };
        set_limit(ctx, path, &mut limits, key, number);
    }
    limits
}

/// A positive finite number, else `None`.
fn positive(value: &Value) -> Option<f64> {
    value.as_f64().filter(|n| n.is_finite() && *n > 0.0)
}

/// `limits.time_multipliers` (2023-07, 2025-09): a mapping with `ac_to_time_limit` and
/// `time_limit_to_tle`, each a positive number.
fn read_time_multipliers(ctx: &mut Ctx, path: &Path, value: &Value, into: &mut TimeMultipliers) {
    let Some(map) = value.as_mapping() else {
        ctx.error(
            path,
            "`limits.time_multipliers` must be a mapping with ac_to_time_limit and time_limit_to_tle",
        );
        return;
    };
    for (key, value) in map {
        let key = key.as_str().unwrap_or("<non-string key>");
        let slot = match key {
            "ac_to_time_limit" => &mut into.ac_to_time_limit,
            "time_limit_to_tle" => &mut into.time_limit_to_tle,
            _ => {
                ctx.warning(path, format!("unknown time multiplier `{key}`"));
                continue;
            }
        };
        match positive(value) {
            Some(number) => {
                *slot = number;
                into.given = true;
            }
            None => ctx.error(
                path,
                format!(
                    "`limits.time_multipliers.{key}` must be a positive number, found {}",
                    yaml::shown(value)
                ),
            ),
        }
    }
}

/// Sets the limit `key` to the positive `number` (seconds, MiB, KiB or a factor). Keys we
/// do not enforce are read and left alone.
fn set_limit(ctx: &mut Ctx, path: &Path, limits: &mut Limits, key: &str, number: f64) {
    let mib = |number: f64| (number * MIB as f64) as u64;
    match key {
        "time_limit" | "compilation_time" => {
            let Ok(duration) = Duration::try_from_secs_f64(number) else {
                ctx.error(
                    path,
                    format!("limit `{key}` is too large: {number} seconds"),
                );
                return;
            };
            if key == "time_limit" {
                limits.time = duration;
                limits.time_source = TimeLimitSource::ProblemYaml;
            } else {
                limits.compilation_time = duration;
            }
        }
        "time_multiplier" => {
            limits.time_multipliers.ac_to_time_limit = number;
            limits.time_multipliers.given = true;
        }
        "time_safety_margin" => {
            limits.time_multipliers.time_limit_to_tle = number;
            limits.time_multipliers.given = true;
        }
        "time_resolution" => limits.time_resolution = number,
        "memory" => limits.memory_bytes = mib(number),
        "output" => limits.output_bytes = mib(number),
        "code" => limits.code_bytes = (number * 1024.0) as u64,
        "compilation_memory" => limits.compilation_memory_bytes = mib(number),
        _ => {}
    }
}

/// The time limit in the legacy `.timelimit` file (seconds) when there is one; an error
/// when it holds anything but a positive number of seconds that fits a duration.
fn read_timelimit_file(ctx: &mut Ctx, file: &Path) -> Option<Duration> {
    if !file.is_file() {
        return None;
    }
    match std::fs::read_to_string(file).map(|t| t.trim().parse::<f64>()) {
        Ok(Ok(seconds)) if seconds.is_finite() && seconds > 0.0 => {
            match Duration::try_from_secs_f64(seconds) {
                Ok(duration) => Some(duration),
                Err(_) => {
                    ctx.error(file, format!("{seconds} seconds is too large"));
                    None
                }
            }
        }
        _ => {
            ctx.error(file, "must hold a positive number of seconds");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use super::super::fixture::{custom_legacy, errors, with_problem_yaml, write};
    use crate::{Validation, ValidatorConvention, load};

    #[test]
    fn validator_convention_in_both_formats() {
        let convention = |dir: &Path| {
            let (problem, diagnostics) = load(dir).expect("loads");
            assert_eq!(diagnostics, vec![]);
            let Validation::Custom { convention, .. } = problem.validation else {
                panic!("custom validation")
            };
            convention
        };
        for (extra, expected) in [
            ("", ValidatorConvention::Kattis),
            (
                "validator_convention: kattis\n",
                ValidatorConvention::Kattis,
            ),
            (
                "validator_convention: testlib\n",
                ValidatorConvention::Testlib,
            ),
        ] {
            let legacy = custom_legacy(extra);
            write(legacy.path(), "output_validators/check/check.cpp", "");
            assert_eq!(convention(legacy.path()), expected, "legacy {extra:?}");

            let modern = with_problem_yaml(&format!(
                "problem_format_version: 2025-09\nname: Any\nuuid: x\n{extra}limits:\n  time_limit: 1\n"
            ));
            write(modern.path(), "output_validator/checker.cpp", "");
            assert_eq!(convention(modern.path()), expected, "2025-09 {extra:?}");
        }
    }

    #[test]
    fn unknown_validator_convention_is_an_error_naming_it() {
        for (value, shown) in [
            ("polygon", "polygon"),
            ("3", "3"),
            ("[testlib]", "- testlib"),
        ] {
            let dir = custom_legacy(&format!("validator_convention: {value}\n"));
            write(dir.path(), "output_validators/check.py", "");
            assert!(load(dir.path()).is_err(), "{value}");
            assert_eq!(
                errors(dir.path()),
                vec![format!(
                    "error: problem.yaml: `validator_convention: {shown}` is neither kattis nor testlib"
                )]
            );
        }
    }

    #[test]
    fn multi_pass_in_every_spelling_with_its_passes() {
        let passes = |yaml: &str, validator: &str| {
            let dir = with_problem_yaml(yaml);
            write(dir.path(), validator, "");
            match load(dir.path()) {
                Ok((problem, diagnostics)) => {
                    let shown: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
                    match problem.validation {
                        Validation::Custom { passes, .. } => Ok((passes, shown)),
                        Validation::Default(_) => Err(vec!["default validation".to_owned()]),
                    }
                }
                Err(_) => Err(errors(dir.path())),
            }
        };
        let modern = "problem_format_version: 2025-09\nname: Add\nuuid: x\n";
        let legacy = "name: Any\nlimits:\n  time_limit: 1\n";
        let cases = [
            // 2025-09: the type, with the default and a given number of passes.
            (
                format!("{modern}type: multi-pass\nlimits:\n  time_limit: 1\n"),
                "output_validator/check.py",
                Ok((2, vec![])),
            ),
            (
                format!(
                    "{modern}type: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 3\n"
                ),
                "output_validator/check.py",
                Ok((3, vec![])),
            ),
            // Legacy `validation: custom multi-pass`, and the underscore spelling.
            (
                format!("{legacy}validation: custom multi-pass\n"),
                "output_validators/check.py",
                Ok((2, vec![])),
            ),
            (
                "name: Any
validation: custom multi_pass
limits:
  time_limit: 1
  validation_passes: 4
".to_owned(),
                "output_validators/check.py",
                Ok((4, vec![])),
            ),
            // Not multi-pass: one pass, and the key does nothing.
            (
                format!("{legacy}validation: custom\n"),
                "output_validators/check.py",
                Ok((1, vec![])),
            ),
            (
                "name: Any
validation: custom
limits:
  time_limit: 1
  validation_passes: 3
".to_owned(),
                "output_validators/check.py",
                Ok((
                    1,
                    vec![
                        "warning: problem.yaml: `limits.validation_passes` has no effect on a problem that is not multi-pass".to_owned(),
                    ],
                )),
            ),
            (
                format!(
                    "{modern}type: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 1\n"
                ),
                "output_validator/check.py",
                Err(vec![
                    "error: problem.yaml: `limits.validation_passes` must be an integer from 2 to 1000, found 1".to_owned(),
                ]),
            ),
        ];
        for (yaml, validator, want) in cases {
            assert_eq!(passes(&yaml, validator), want, "{yaml}");
        }
    }

    #[test]
    fn legacy_flags_and_timelimit_file() {
        let dir = with_problem_yaml(
            "name: Float\nvalidator_flags: float_tolerance 1e-6 case_sensitive\nlimits:\n  memory: 32\n",
        );
        write(dir.path(), ".timelimit", "3\n");
        let (problem, diagnostics) = load(dir.path()).expect("loads");
        assert_eq!(diagnostics, vec![]);
        assert_eq!(problem.limits.time, Duration::from_secs(3));
        let Validation::Default(flags) = problem.validation else {
            panic!("default validation")
        };
        assert!(flags.case_sensitive);
        assert_eq!(flags.float_absolute_tolerance, Some(1e-6));
        assert_eq!(flags.float_relative_tolerance, Some(1e-6));
    }
}

#[cfg(test)]
mod time_tests {
    use std::time::Duration;

    use super::super::fixture::{with_problem_yaml, write};
    use crate::{Limits, TimeLimitSource, TimeMultipliers, load};

    fn limits(yaml: &str) -> Limits {
        let dir = with_problem_yaml(yaml);
        load(dir.path()).expect("loads").0.limits
    }

    #[test]
    fn each_time_limit_says_where_it_came_from() {
        let given = limits("name: A\nlimits:\n  time_limit: 2.5\n");
        assert_eq!(given.time, Duration::from_millis(2500));
        assert_eq!(given.time_source, TimeLimitSource::ProblemYaml);

        let dir = with_problem_yaml("name: A\n");
        write(dir.path(), ".timelimit", "4\n");
        let (problem, _) = load(dir.path()).expect("loads");
        assert_eq!(problem.limits.time, Duration::from_secs(4));
        assert_eq!(problem.limits.time_source, TimeLimitSource::TimeLimitFile);

        let none = limits("name: A\n");
        assert_eq!(none.time, Duration::from_secs(1));
        assert_eq!(none.time_source, TimeLimitSource::Default);
        assert_eq!(none.time_multipliers, TimeMultipliers::LEGACY);
    }

    #[test]
    fn multipliers_in_both_formats() {
        let legacy = limits("name: A\nlimits:\n  time_multiplier: 2.4\n  time_safety_margin: 3\n");
        assert_eq!(legacy.time_source, TimeLimitSource::Default);
        assert_eq!(
            legacy.time_multipliers,
            TimeMultipliers {
                ac_to_time_limit: 2.4,
                time_limit_to_tle: 3.0,
                given: true
            }
        );
        let only_one = limits("name: A\nlimits:\n  time_multiplier: 3\n");
        assert_eq!(only_one.time_multipliers.time_limit_to_tle, 2.0);

        let modern = limits(
            "problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_multipliers:\n    time_limit_to_tle: 4\n  time_resolution: 0.5\n",
        );
        assert_eq!(modern.time_multipliers.ac_to_time_limit, 2.0);
        assert_eq!(modern.time_multipliers.time_limit_to_tle, 4.0);
        assert!(modern.time_multipliers.given);
        assert_eq!(modern.time_resolution, 0.5);
        let defaults =
            limits("problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  memory: 8\n");
        assert_eq!(defaults.time_multipliers, TimeMultipliers::MODERN);
    }

    #[test]
    fn a_bad_multiplier_names_the_key_and_the_value() {
        let dir = with_problem_yaml(
            "problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_multipliers:\n    ac_to_time_limit: -1\n    speed: 2\n",
        );
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(dir.path()) else {
            panic!("must fail")
        };
        let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines[..2],
            [
                "error: problem.yaml: `limits.time_multipliers.ac_to_time_limit` must be a positive number, found -1",
                "warning: problem.yaml: unknown time multiplier `speed`",
            ],
            "{lines:?}"
        );
    }

    /// problemtools' `_compute_time_limit` on fixed timings: slowest × ac_to_time_limit,
    /// rounded up to the resolution, at least one resolution.
    #[test]
    fn the_derived_limit_rounds_up_to_the_resolution() {
        let with = |multiplier: f64, resolution: f64| Limits {
            time_multipliers: TimeMultipliers {
                ac_to_time_limit: multiplier,
                time_limit_to_tle: 2.0,
                given: true,
            },
            time_resolution: resolution,
            ..crate::package::DEFAULT_LIMITS
        };
        let ms = Duration::from_millis;
        for (slowest, multiplier, resolution, expected) in [
            (ms(10), 5.0, 1.0, ms(1000)),  // at least one second
            (ms(0), 2.0, 1.0, ms(1000)),   // even for nothing measured
            (ms(300), 5.0, 1.0, ms(2000)), // 1.5 s rounds up
            (ms(200), 5.0, 1.0, ms(1000)), // exactly 1 s stays
            (ms(600), 5.0, 1.0, ms(3000)), // 3.0000000000000004 is 3 s
            (ms(1234), 2.4, 1.0, ms(3000)),
            (ms(1234), 2.0, 0.5, ms(2500)),
            (ms(100), 2.0, 0.5, ms(500)),
        ] {
            assert_eq!(
                with(multiplier, resolution).derive_time(slowest),
                expected,
                "{slowest:?} × {multiplier} by {resolution}"
            );
        }
        let limits = Limits {
            time: Duration::from_secs(2),
            ..with(5.0, 1.0)
        };
        assert_eq!(limits.tle_bound(), Duration::from_secs(4));
    }
}
