//! The test data under `data/`: the walk over `data/sample/` and `data/secret/` with their
//! nested groups, and each folder's group config (`testdata.yaml` in legacy,
//! `test_group.yaml` in 2025-09) with its score, aggregation and output validator
//! arguments.
//!
//! Input validator arguments (2025-09 `input_validator_args`, legacy
//! `input_validator_flags`) are found per test case by [`Problem::input_validator_args`]:
//! the nearest config that gives them wins, a case's own `<case>.yaml` (2025-09) first,
//! then the group configs of its folder and of each folder above it up to `data/`. A
//! config gives one list for every input validator (a sequence, or legacy's string of
//! words) or a map from validator names to lists, where a validator it does not name gets
//! none. Their shape is checked when the package loads.

use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::diagnostics::Ctx;
use super::{Aggregation, LoadMode, Problem, TestCase, TestGroup, folder, yaml};

/// Keys of a test group's config (`testdata.yaml` in legacy, `test_group.yaml` in 2025-09).
const GROUP_KEYS: &[&str] = &[
    // legacy
    "on_reject",
    "grading",
    "grader_flags",
    "input_validator_flags",
    "output_validator_flags",
    "accept_score",
    "reject_score",
    "range",
    // 2023-07 and 2025-09
    "args",
    "input_validator_args",
    "output_validator_args",
    "test_case_visualizer_args",
    "output_visualizer_args",
    "input_visualizer_args",
    "full_feedback",
    "max_score",
    "score_aggregation",
    "require_pass",
    "static_validation_score",
    "scoring",
    "score",
];

/// The names of a group config, read in this order (the later one wins).
const CONFIG_NAMES: [&str; 2] = ["testdata.yaml", "test_group.yaml"];

/// The keys that give input validator arguments: 2025-09's, then legacy's.
const INPUT_ARGS_KEYS: [&str; 2] = ["input_validator_args", "input_validator_flags"];

/// Keys of a test case's own config `<case>.yaml` (2025-09).
const CASE_KEYS: &[&str] = &[
    "args",
    "input_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
    "hint",
    "description",
];

/// Input validator arguments as one config gives them.
#[derive(Debug, Clone, PartialEq)]
enum InputArgs {
    /// The same arguments for every input validator.
    All(Vec<String>),
    /// Arguments per validator name; a validator not named gets none.
    Each(Vec<(String, Vec<String>)>),
}

impl InputArgs {
    /// Reads the value of `input_validator_args` (a sequence of strings, or a map from
    /// validator names to sequences) or legacy `input_validator_flags` (a string of words,
    /// or a map from names to strings); `Err` says what is wrong.
    fn parse(key: &str, value: &Value) -> Result<InputArgs, String> {
        let list = |value: &Value| match value {
            Value::String(_) | Value::Number(_) => Some(yaml::words(value)),
            Value::Sequence(items) => items
                .iter()
                .all(|it| matches!(it, Value::String(_) | Value::Number(_)))
                .then(|| yaml::words(value)),
            _ => None,
        };
        match value {
            Value::Mapping(map) => map
                .iter()
                .map(|(name, args)| {
                    let name = name.as_str().ok_or_else(|| {
                        format!("`{key}`: the key {name:?} must be an input validator's name")
                    })?;
                    let args = list(args).ok_or_else(|| {
                        format!(
                            "`{key}.{name}` must be a list of strings, found {}",
                            yaml::shown(args)
                        )
                    })?;
                    Ok((name.to_owned(), args))
                })
                .collect::<Result<_, _>>()
                .map(InputArgs::Each),
            Value::Null => Ok(InputArgs::All(Vec::new())),
            other => list(other).map(InputArgs::All).ok_or_else(|| {
                format!(
                    "`{key}` must be a list of strings or a map from input validator names to \
                     lists, found {}",
                    yaml::shown(other)
                )
            }),
        }
    }

    /// The arguments of the validator whose names (its file name, and its stem) are
    /// `names`.
    fn of(&self, names: &[&str]) -> Vec<String> {
        match self {
            InputArgs::All(args) => args.clone(),
            InputArgs::Each(map) => map
                .iter()
                .find(|(name, _)| names.contains(&name.as_str()))
                .map(|(_, args)| args.clone())
                .unwrap_or_default(),
        }
    }
}

/// The input validator arguments `value` (a config) gives, when it gives some.
fn input_args_in(value: &Value) -> Option<Result<InputArgs, String>> {
    INPUT_ARGS_KEYS
        .iter()
        .find_map(|key| value.get(key).map(|v| InputArgs::parse(key, v)))
}

/// Reports input validator arguments of the wrong shape in the config `value` at `path`.
fn check_input_args(ctx: &mut Ctx, path: &Path, value: &Value) {
    if let Some(Err(why)) = input_args_in(value) {
        ctx.error(path, why);
    }
}

impl Problem {
    /// The arguments the input validator at `validator` (an entry of `input_validators/`)
    /// gets on `case`: from the nearest config that gives input validator arguments (see
    /// the module's documentation), none when no config does.
    pub fn input_validator_args(&self, case: &TestCase, validator: &Path) -> Vec<String> {
        let file_name = folder::file_name(validator);
        let stem = file_name
            .rsplit_once('.')
            .map_or(file_name.as_str(), |(stem, _)| stem);
        let names = [file_name.as_str(), stem];
        let data = self.root.join("data");
        let mut configs = Vec::new();
        let case_file = folder::file_name(&case.input);
        if let Some(stem) = case_file.strip_suffix(".in") {
            configs.push(case.input.with_file_name(format!("{stem}.yaml")));
        }
        let mut dir = case.input.parent();
        while let Some(here) = dir {
            // The later name wins, as when the group configs are read.
            configs.extend(CONFIG_NAMES.iter().rev().map(|name| here.join(name)));
            if here == data || !here.starts_with(&data) {
                break;
            }
            dir = here.parent();
        }
        configs
            .iter()
            .filter(|path| path.is_file())
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .filter_map(|text| serde_yaml::from_str::<Value>(&text).ok())
            .find_map(|value| input_args_in(&value))
            .and_then(Result::ok)
            .map(|args| args.of(&names))
            .unwrap_or_default()
    }
}

/// Output validator arguments with the config file that gives them.
pub(super) type ArgsSource = (PathBuf, Vec<String>);

/// What `data/` holds.
pub(super) struct TestData {
    /// `data/sample`.
    pub(super) sample: TestGroup,
    /// `data/secret`.
    pub(super) secret: TestGroup,
    /// The arguments the config in `data/` itself gives the whole problem, when it gives
    /// some.
    pub(super) problem_args: Option<ArgsSource>,
    /// Each group config that sets arguments, with the full arguments it gives.
    pub(super) group_args: Vec<ArgsSource>,
}

/// Reads `data/`. `base_flags` (legacy `validator_flags`) come before the arguments of
/// every config; the config in `data/` itself gives the problem's arguments, and a
/// group's arguments replace those of the groups above it for its cases and subgroups.
pub(super) fn read(ctx: &mut Ctx, data: &Path, base_flags: &[String]) -> TestData {
    let root = data.parent().unwrap_or(data);
    let mut walk = Walk {
        ctx,
        base_flags,
        group_args: Vec::new(),
        root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()),
    };
    // Only its arguments count: a score or aggregation there belongs to no group.
    let problem_args = walk.read_configs(data, &mut TestGroup::default()).pop();
    let sample = walk.read_group(&data.join("sample"), "sample", true, false, None);
    let secret_dir = data.join("secret");
    let secret = walk.read_group(&secret_dir, "secret", false, false, None);
    if secret.cases.is_empty() && secret.groups.is_empty() {
        report_no_secret_cases(walk.ctx, &secret_dir, &sample);
    }
    TestData {
        sample,
        secret,
        problem_args,
        group_args: walk.group_args,
    }
}

/// `data/secret` is missing or has no case: an error, except when judging a package
/// with samples, which are then its only tests (a warning).
fn report_no_secret_cases(ctx: &mut Ctx, secret_dir: &Path, sample: &TestGroup) {
    let what = if secret_dir.is_dir() {
        "has no test cases"
    } else {
        "missing: every package needs secret test data"
    };
    let has_samples = !sample.cases.is_empty() || !sample.groups.is_empty();
    if ctx.mode() == LoadMode::Judge && has_samples {
        ctx.warning(secret_dir, format!("{what}; judging uses the samples only"));
    } else {
        ctx.error(secret_dir, what);
    }
}

/// Whether `group` or a group below it declares a score.
pub(super) fn any_score(group: &TestGroup) -> bool {
    group.score.is_some() || group.groups.iter().any(any_score)
}

/// Linux's errno for too many levels of symbolic links (the crate links no libc).
const ELOOP: i32 = 40;

/// The state of the walk over `data/`.
struct Walk<'a> {
    ctx: &'a mut Ctx,
    /// Legacy `validator_flags`, which come before a group's own arguments.
    base_flags: &'a [String],
    /// Each group config that sets arguments, with the full arguments it gives.
    group_args: Vec<ArgsSource>,
    /// The package's folder, with its links resolved: no link may lead out of it.
    root: PathBuf,
}

impl Walk<'_> {
    /// Where the test data file or folder `path` really is: itself when it is no symbolic
    /// link, else its target with every link resolved, which must be inside the package
    /// (the spec allows links within the package tree only). A link that leads out of
    /// the package, to nothing, or round a loop is an error naming it, and gives `None`:
    /// it is never followed.
    fn resolve(&mut self, path: &Path) -> Option<PathBuf> {
        let is_link = path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Some(path.to_path_buf());
        }
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        match path.canonicalize() {
            Ok(real) if real.starts_with(&self.root) => Some(real),
            Ok(_) => {
                self.ctx.error(
                    path,
                    format!(
                        "is a symbolic link to `{target}`, outside the package: links must \
                         stay inside the package, so it is not followed"
                    ),
                );
                None
            }
            Err(err) if err.raw_os_error() == Some(ELOOP) => {
                self.ctx.error(
                    path,
                    format!("is a symbolic link to `{target}` that leads round a loop"),
                );
                None
            }
            Err(err) => {
                self.ctx.error(
                    path,
                    format!("is a symbolic link to `{target}`, which cannot be read: {err}"),
                );
                None
            }
        }
    }

    fn read_group(
        &mut self,
        dir: &Path,
        name: &str,
        is_sample: bool,
        required: bool,
        inherited_args: Option<Vec<String>>,
    ) -> TestGroup {
        let mut group = TestGroup {
            name: name.to_owned(),
            output_validator_args: inherited_args,
            ..TestGroup::default()
        };
        let entries = match folder::sorted_entries(dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                if required {
                    self.ctx
                        .error(dir, "missing: every package needs secret test data");
                }
                return group;
            }
            Err(err) => {
                self.ctx
                    .error(dir, format!("cannot read test data folder: {err}"));
                return group;
            }
        };
        let configs = self.read_configs(dir, &mut group);
        if let Some((_, args)) = configs.last() {
            group.output_validator_args = Some(args.clone());
        }
        self.group_args.extend(configs);
        for path in entries {
            let file_name = folder::file_name(&path);
            if path.is_dir() {
                if let Some(sub) = self.read_subgroup(&path, &file_name, &group, is_sample) {
                    group.groups.push(sub);
                }
            } else if let Some(stem) = file_name.strip_suffix(".in") {
                if let Some(case) = self.read_case(&path, stem, &group, is_sample) {
                    group.cases.push(case);
                }
            } else if let Some(stem) = file_name.strip_suffix(".ans")
                && path
                    .with_file_name(format!("{stem}.in"))
                    .symlink_metadata()
                    .is_err()
            {
                self.ctx.warning(
                    &path,
                    format!("answer file without an input file {stem}.in"),
                );
            }
        }
        group
    }

    /// The group in the subfolder `dir` of `parent`; `None` for a `.files` folder and for
    /// a symbolic link (an error).
    fn read_subgroup(
        &mut self,
        dir: &Path,
        file_name: &str,
        parent: &TestGroup,
        is_sample: bool,
    ) -> Option<TestGroup> {
        if file_name.ends_with(".files") {
            return None;
        }
        // A linked folder is read where it is linked (its cases are named by the link),
        // but it must not lead back to a folder above itself (`link -> ..`): the walk
        // would go round the loop.
        let real = self.resolve(dir)?;
        if real != dir
            && let Ok(parent) = dir.parent().unwrap_or(dir).canonicalize()
            && parent.starts_with(&real)
        {
            self.ctx.error(
                dir,
                "is a symbolic link to a folder that holds it: the test data would loop",
            );
            return None;
        }
        Some(self.read_group(
            dir,
            &format!("{}/{file_name}", parent.name),
            is_sample,
            false,
            parent.output_validator_args.clone(),
        ))
    }

    /// The case of the input file `input` (named `<stem>.in`) in `group`; `None`, with an
    /// error, when it has no answer file.
    fn read_case(
        &mut self,
        input: &Path,
        stem: &str,
        group: &TestGroup,
        is_sample: bool,
    ) -> Option<TestCase> {
        let answer = input.with_file_name(format!("{stem}.ans"));
        if !answer.is_file() && answer.symlink_metadata().is_err() {
            self.ctx
                .error(input, format!("test case has no answer file {stem}.ans"));
            return None;
        }
        self.read_case_config(&input.with_file_name(format!("{stem}.yaml")));
        // Linked files are judged by their targets, which stay inside the package.
        let (input, answer) = (self.resolve(input)?, self.resolve(&answer)?);
        Some(TestCase {
            name: format!("{}/{stem}", group.name),
            input,
            answer,
            is_sample,
            output_validator_args: group.output_validator_args.clone(),
        })
    }

    /// Checks a test case's own config `<case>.yaml` (2025-09), when it has one: its
    /// input validator arguments apply ([`Problem::input_validator_args`]); unknown keys
    /// are warnings.
    fn read_case_config(&mut self, path: &Path) {
        let name = folder::file_name(path);
        if !path.is_file() || CONFIG_NAMES.contains(&name.as_str()) {
            return;
        }
        let Some(value) = yaml::read(self.ctx, path) else {
            return;
        };
        for key in yaml::unknown_keys(&value, CASE_KEYS) {
            self.ctx
                .warning(path, format!("unknown test case key `{key}`"));
        }
        check_input_args(self.ctx, path, &value);
    }

    /// Reads the group configs in `dir` into `group`; returns each one that sets output
    /// validator arguments, with the full arguments it gives (legacy `validator_flags`
    /// first), in the order they were read.
    fn read_configs(&mut self, dir: &Path, group: &mut TestGroup) -> Vec<ArgsSource> {
        let mut res = Vec::new();
        for name in CONFIG_NAMES {
            let path = dir.join(name);
            if path.is_file()
                && let Some(args) = read_config(self.ctx, &path, group)
            {
                res.push((path, [self.base_flags.to_vec(), args].concat()));
            }
        }
        res
    }
}

/// Reads one group config into `group`; returns the arguments it sets.
fn read_config(ctx: &mut Ctx, path: &Path, group: &mut TestGroup) -> Option<Vec<String>> {
    let value = yaml::read(ctx, path)?;
    for key in yaml::unknown_keys(&value, GROUP_KEYS) {
        ctx.warning(path, format!("unknown test group key `{key}`"));
    }
    if let Some(points) = read_score(ctx, path, &value) {
        group.score = Some(points);
    }
    if let Some(aggregation) = read_aggregation(ctx, path, &value) {
        group.aggregation = Some(aggregation);
    }
    check_input_args(ctx, path, &value);
    value
        .get("output_validator_args")
        .or_else(|| value.get("output_validator_flags"))
        .map(yaml::words)
}

/// The group's points: `max_score` (2025-09), `score`, or `scoring.score` (2023-07); an
/// error unless a non-negative number.
fn read_score(ctx: &mut Ctx, path: &Path, value: &Value) -> Option<f64> {
    let score = value
        .get("max_score")
        .or_else(|| value.get("score"))
        .or_else(|| value.get("scoring").and_then(|it| it.get("score")))?;
    match score.as_f64() {
        Some(points) if points.is_finite() && points >= 0.0 => Some(points),
        _ => {
            ctx.error(
                path,
                format!("the group score must be a non-negative number, found {score:?}"),
            );
            None
        }
    }
}

/// How the group's results combine: `score_aggregation` (2025-09), `scoring.aggregation`
/// (2023-07), or the aggregation word among legacy `grader_flags`.
fn read_aggregation(ctx: &mut Ctx, path: &Path, value: &Value) -> Option<Aggregation> {
    let words = if let Some(value) = value
        .get("score_aggregation")
        .or_else(|| value.get("scoring").and_then(|it| it.get("aggregation")))
    {
        let words = yaml::words(value);
        if words.len() != 1 {
            ctx.error(
                path,
                format!("`score_aggregation` must be one word, found {value:?}"),
            );
        }
        words
    } else if let Some(value) = value.get("grader_flags") {
        // Legacy grader flags mix the aggregation with verdict rules: keep the aggregation.
        yaml::words(value)
            .into_iter()
            .filter(|w| Aggregation::from_word(w).is_some())
            .collect()
    } else {
        Vec::new()
    };
    let mut res = None;
    for word in words {
        match Aggregation::from_word(&word) {
            Some(it) => res = Some(it),
            None => ctx.error(
                path,
                format!("unknown score aggregation `{word}` (pass-fail, sum, min, max or avg)"),
            ),
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{errors, good_package, write};
    use crate::load;
    use std::path::Path;

    /// The arguments of the validator `validator` on each case of the package at `root`.
    fn args_of(root: &Path, validator: &str) -> Vec<(String, String)> {
        let (problem, _) = load(root).expect("loads");
        let validator = root.join("input_validators").join(validator);
        problem
            .test_cases()
            .into_iter()
            .map(|case| {
                let args = problem.input_validator_args(case, &validator).join(" ");
                (case.name.clone(), args)
            })
            .collect()
    }

    fn table(rows: &[(&str, &str)]) -> Vec<(String, String)> {
        rows.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn input_validator_args_come_from_the_nearest_config() {
        let dir = good_package();
        let root = dir.path();
        // None anywhere: no arguments.
        assert_eq!(
            args_of(root, "check.py"),
            table(&[
                ("sample/1", ""),
                ("secret/a", ""),
                ("secret/b", ""),
                ("secret/group1/x", "")
            ])
        );
        // 2025-09: secret's list for every validator; group1's map names this one by its
        // stem; a case's own config wins over its group's.
        write(
            root,
            "data/secret/test_group.yaml",
            "input_validator_args: [--max, 100]\n",
        );
        write(
            root,
            "data/secret/group1/test_group.yaml",
            "input_validator_args:\n  check: [--small]\n  other: [--x]\n",
        );
        write(root, "data/secret/b.yaml", "input_validator_args: [--b]\n");
        // A case whose name has a dot: its config is `c.big.yaml`.
        write(root, "data/secret/c.big.in", "1 1\n");
        write(root, "data/secret/c.big.ans", "2\n");
        write(
            root,
            "data/secret/c.big.yaml",
            "input_validator_args: [--c]\n",
        );
        assert_eq!(
            args_of(root, "check.py"),
            table(&[
                ("sample/1", ""),
                ("secret/a", "--max 100"),
                ("secret/b", "--b"),
                ("secret/c.big", "--c"),
                ("secret/group1/x", "--small")
            ])
        );
        // A validator the map does not name gets none there.
        assert_eq!(
            args_of(root, "another.py")[4],
            table(&[("secret/group1/x", "")])[0]
        );
        // Legacy: `input_validator_flags`, a string of words, in testdata.yaml (also in
        // `data/` itself, for every group that gives none).
        write(root, "data/testdata.yaml", "input_validator_flags: n 5\n");
        std::fs::remove_file(root.join("data/secret/test_group.yaml")).expect("rm");
        for case in ["b.yaml", "c.big.yaml", "c.big.in", "c.big.ans"] {
            std::fs::remove_file(root.join("data/secret").join(case)).expect("rm");
        }
        write(
            root,
            "data/secret/group1/test_group.yaml",
            "input_validator_flags:\n  check.py: big\n",
        );
        assert_eq!(
            args_of(root, "check.py"),
            table(&[
                ("sample/1", "n 5"),
                ("secret/a", "n 5"),
                ("secret/b", "n 5"),
                ("secret/group1/x", "big")
            ])
        );
    }

    #[test]
    fn input_validator_args_of_the_wrong_shape_are_errors() {
        let dir = good_package();
        let root = dir.path();
        write(
            root,
            "data/secret/test_group.yaml",
            "input_validator_args:\n  check: {deep: map}\n",
        );
        write(
            root,
            "data/secret/a.yaml",
            "input_validator_args: 3.5\nhint: small\ncolour: red\n",
        );
        let shown = errors(root);
        for expected in [
            "warning: data/secret/a.yaml: unknown test case key `colour`",
            "error: data/secret/test_group.yaml: `input_validator_args.check` must be a list of strings, found deep: map",
        ] {
            assert!(
                shown.iter().any(|d| d.ends_with(expected)),
                "{expected}: {shown:#?}"
            );
        }
    }

    #[test]
    fn linked_test_files_resolve_inside_the_package_only() {
        use std::os::unix::fs::symlink;
        let dir = good_package();
        let root = dir.path();
        let secret = root.join("data/secret");
        // A case linked to another case, and a group linked to another group.
        symlink("a.in", secret.join("c.in")).expect("link");
        symlink("a.ans", secret.join("c.ans")).expect("link");
        symlink("group1", secret.join("group2")).expect("link");
        let (problem, diagnostics) = load(root).expect("loads");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let real = |p: &str| root.join(p).canonicalize().expect("real");
        let cases: Vec<_> = problem
            .test_cases()
            .into_iter()
            .map(|c| (c.name.clone(), c.input.clone(), c.answer.clone()))
            .collect();
        let case = |name: &str| {
            cases
                .iter()
                .find(|c| c.0 == name)
                .unwrap_or_else(|| panic!("{name} in {cases:?}"))
        };
        assert_eq!(case("secret/c").1, real("data/secret/a.in"));
        assert_eq!(case("secret/c").2, real("data/secret/a.ans"));
        // A linked group's files are read through the link, to the same files.
        let linked = &case("secret/group2/x").1;
        assert_eq!(linked, &root.join("data/secret/group2/x.in"));
        assert_eq!(
            linked.canonicalize().expect("real"),
            real("data/secret/group1/x.in")
        );

        // Out of the package, round a loop, to a folder above: errors naming the link.
        let outside = tempfile::tempdir().expect("tempdir");
        write(outside.path(), "o.in", "1 1\n");
        symlink(outside.path().join("o.in"), secret.join("d.in")).expect("link");
        symlink("a.ans", secret.join("d.ans")).expect("link");
        symlink("e.in", secret.join("e.in")).expect("link");
        write(root, "data/secret/e.ans", "2\n");
        symlink("..", secret.join("up")).expect("link");
        let shown = errors(root);
        let target = outside.path().join("o.in");
        assert_eq!(
            shown,
            [
                format!(
                    "error: data/secret/d.in: is a symbolic link to `{}`, outside the package: links must stay inside the package, so it is not followed",
                    target.display()
                ),
                "error: data/secret/e.in: is a symbolic link to `e.in` that leads round a loop"
                    .to_owned(),
                "error: data/secret/up: is a symbolic link to a folder that holds it: the test data would loop"
                    .to_owned(),
            ],
            "{shown:#?}"
        );
    }
}
