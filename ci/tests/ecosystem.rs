//! The bundled packages checked by the ecosystem's own tools, installed by `ci/setup` in
//! a venv of their own (`$ARENA_CACHE/checkers`, from `ci/checkers/requirements.txt`):
//!
//! - every legacy package (no `problem_format_version`, or `legacy`) by problemtools'
//!   `verifyproblem` (configuration, test data, validators, submissions): no error, no
//!   warning, and every submission gets the verdict its folder names;
//! - every pass-fail 2025-09 package by BAPCtools' `bt validate` (metadata, input
//!   validation of the test data, BAPCtools' generated invalid inputs and outputs) and
//!   `bt run` (every submission against the verdict its folder names, or its
//!   `submissions.yaml` entry for the folders the spec does not define);
//! - every package by the 2025-09 spec's own rules that the tools leave out (package
//!   names, uuids, keys of `problem.yaml`, `test_group.yaml` and `submissions.yaml`,
//!   Markdown statements without the title or the samples). BAPCtools cannot read
//!   `type: scoring`: a scoring package gets these rules here, and its verdicts and
//!   scores are checked by the judge's own `verify` (judge-cli's `tests/cli.rs`).
//!
//! Skipped, with the reason: the statement checks that need LaTeX (problemtools renders
//! the statement to PDF with pdflatex and to HTML with plasTeX, which finds its files
//! through a TeX installation: `-p` leaves out `statement`; BAPCtools reads only LaTeX
//! statements, so its "no `statement/problem.en.tex`" error is expected on the Markdown
//! statements that 2025-09 allows); BAPCtools' warning on every keyword it knows ("found
//! keyword X. Did you mean X?", a tool bug) and on the lack of `answer_validators/` (a
//! BAPCtools folder, not a 2025-09 one); problemtools' note that `generators/` is not a
//! legacy folder. Anything else either tool prints as a warning or an error fails the
//! test.
//!
//! Both tools write build output beside the package, so each runs on a copy in a
//! temporary folder. PyPy runs the Python submissions (both tools' default, as on
//! Kattis); `PYPY_GC_NURSERY` is set because PyPy sizes its nursery from the CPU's cache
//! and this machine reports a 480 MiB last-level cache, which makes PyPy abort at start
//! under the tools' 256 MiB address-space limit. problemtools compiles Java for 17 (this
//! machine's JDK) through `ci/checkers/problemtools/languages.yaml`, copied into a
//! temporary configuration folder.
//!
//! Under `CI=true` a missing tool fails the test; elsewhere the test says what is missing
//! and returns. The packages run one at a time (timing verdicts on two cores).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// What a bundled package still does against its format, each with the reason (none now:
/// `pairsums` got its `[a-z0-9]+` name and `sum`'s compile-error submission moved to a fixture
/// of the judge's tests, since no package format has that verdict).
///
/// (package, what): `name`, or a submissions folder.
const KNOWN_EXCEPTIONS: &[(&str, &str)] = &[];

fn excepted(package: &str, what: &str) -> bool {
    KNOWN_EXCEPTIONS.contains(&(package, what))
}

/// The tools run one package at a time: TLE verdicts need the cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// What PyPy's nursery is on common hardware (see the module doc).
const PYPY_NURSERY: &str = "4MB";

/// A bundled package and what its `problem.yaml` declares.
struct Package {
    dir: PathBuf,
    name: String,
    yaml: serde_yaml::Mapping,
    legacy: bool,
    scoring: bool,
}

fn packages() -> Vec<Package> {
    let root = ci::workspace_root().join("problems/packages");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&root).expect("problems/packages is readable") {
        let dir = entry.expect("a readable entry").path();
        let yaml_path = dir.join("problem.yaml");
        if !yaml_path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&yaml_path).expect("problem.yaml is readable");
        let yaml: serde_yaml::Mapping = serde_yaml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a YAML mapping: {e}", yaml_path.display()));
        let version = yaml
            .get("problem_format_version")
            .and_then(|v| v.as_str())
            .unwrap_or("legacy");
        let scoring = match yaml.get("type") {
            Some(serde_yaml::Value::String(s)) => s == "scoring",
            Some(serde_yaml::Value::Sequence(items)) => {
                items.iter().any(|t| t.as_str() == Some("scoring"))
            }
            _ => false,
        };
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a package folder has a UTF-8 name")
            .to_owned();
        found.push(Package {
            legacy: version == "legacy",
            dir,
            name,
            yaml,
            scoring,
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        found.iter().filter(|p| p.legacy).count() >= 6,
        "expected the six legacy packages under {}",
        root.display()
    );
    assert!(
        found.iter().filter(|p| !p.legacy).count() >= 6,
        "expected the six 2025-09 packages under {}",
        root.display()
    );
    found
}

/// The checkers' `bin` folder, when the tools and the compilers they call are here.
fn checkers() -> Option<PathBuf> {
    let bin = judge::cache_dir().join("checkers/bin");
    let mut missing: Vec<String> = ["verifyproblem", "bt"]
        .iter()
        .filter(|tool| !bin.join(tool).is_file())
        .map(|tool| format!("{}", bin.join(tool).display()))
        .collect();
    missing.extend(
        ["pypy3", "g++", "javac"]
            .iter()
            .filter(|tool| !on_path(tool))
            .map(|tool| format!("{tool} on PATH")),
    );
    let missing = (!missing.is_empty()).then(|| format!("missing {}", missing.join(", ")));
    ci::require::present(
        "problemtools and BAPCtools (ci/setup installs them)",
        missing.as_deref(),
    )
    .then_some(bin)
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// A copy of the package in a fresh temporary folder, under its own name.
fn copy(package: &Package) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let to = tmp.path().join(&package.name);
    for entry in walkdir::WalkDir::new(&package.dir) {
        let entry = entry.expect("a readable package file");
        let rel = entry
            .path()
            .strip_prefix(&package.dir)
            .expect("inside the package");
        let dest = to.join(rel);
        if rel.starts_with("submissions")
            && rel.components().count() >= 2
            && excepted(
                &package.name,
                &file_name(&rel.iter().take(2).collect::<PathBuf>()),
            )
        {
            continue;
        }
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("a folder in the copy");
        } else {
            std::fs::copy(entry.path(), &dest).expect("a file copied");
        }
    }
    (tmp, to)
}

/// The submissions of a package: (folder, path relative to `submissions/`), without the
/// folders of [`KNOWN_EXCEPTIONS`].
fn submissions(dir: &Path) -> Vec<(String, String)> {
    let package = file_name(dir);
    let mut found = Vec::new();
    let Ok(folders) = std::fs::read_dir(dir.join("submissions")) else {
        return found;
    };
    for folder in folders {
        let folder = folder.expect("a readable entry").path();
        if !folder.is_dir() {
            continue;
        }
        let folder_name = file_name(&folder);
        if excepted(&package, &folder_name) {
            continue;
        }
        for program in std::fs::read_dir(&folder).expect("a readable folder") {
            let program = program.expect("a readable entry").path();
            found.push((
                folder_name.clone(),
                format!("{folder_name}/{}", file_name(&program)),
            ));
        }
    }
    found.sort();
    found
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("a UTF-8 file name")
        .to_owned()
}

/// The command's stdout and stderr (stdout first). The tools' configuration folder
/// (`XDG_CONFIG_HOME`) is a fresh temporary one holding our problemtools override:
/// BAPCtools writes there (a registry of the uuids it has seen), never into the repository.
fn run(mut command: Command, bin: &Path) -> (bool, String) {
    let config = tempfile::tempdir().expect("a temporary folder");
    let problemtools = config.path().join("problemtools");
    std::fs::create_dir_all(&problemtools).expect("a configuration folder");
    std::fs::copy(
        ci::workspace_root().join("ci/checkers/problemtools/languages.yaml"),
        problemtools.join("languages.yaml"),
    )
    .expect("ci/checkers/problemtools/languages.yaml is readable");
    // The tools' scratch folders (BAPCtools leaves a `bapctools_*` folder of up to a
    // gigabyte per run in the system's temporary folder) go under this one, removed on drop.
    let scratch = config.path().join("tmp");
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    command
        .env("PATH", std::env::join_paths(dirs).expect("a valid PATH"))
        .env("PYPY_GC_NURSERY", PYPY_NURSERY)
        .env("XDG_CONFIG_HOME", config.path())
        .env("TMPDIR", &scratch);
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// The verdict problemtools must give a submission in a legacy folder.
fn legacy_verdict(folder: &str) -> Option<&'static str> {
    Some(match folder {
        "accepted" => "AC",
        "wrong_answer" => "WA",
        "time_limit_exceeded" => "TLE",
        "run_time_error" => "RTE",
        _ => return None,
    })
}

/// The warnings problemtools may give: `generators/` (how the test data was made, a
/// folder 2025-09 defines) is not one of legacy's folders, which problemtools only notes.
const LEGACY_WARNINGS: &[&str] =
    &["WARNING Directory \"generators\" is not part of format version legacy"];

/// problemtools on one legacy package: what is wrong, one line each.
fn verifyproblem(package: &Package, bin: &Path) -> Vec<String> {
    let (_tmp, copy) = copy(package);
    let mut command = Command::new(bin.join("verifyproblem"));
    command
        .args(["-p", "config", "data", "validators", "submissions", "--"])
        .arg(&copy);
    let (success, out) = run(command, bin);
    let mut wrong = Vec::new();
    let mut verdicts = BTreeMap::new();
    for line in out.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("ERROR") || trimmed.starts_with("WARNING") {
            if !LEGACY_WARNINGS.contains(&trimmed) {
                wrong.push(trimmed.to_owned());
            }
        } else if let Some((program, verdict)) = trimmed.split_once(" OK: ") {
            let program = program.split(' ').next().unwrap_or("").to_owned();
            let verdict = verdict.split([' ', '[']).next().unwrap_or("").to_owned();
            verdicts.insert(program, verdict);
        }
    }
    let summary = format!("{} tested: 0 errors,", package.name);
    if !success || !out.contains(&summary) {
        wrong.push(format!(
            "verifyproblem did not report \"{summary} ...\" and exit 0"
        ));
    }
    for (folder, program) in submissions(&package.dir) {
        match (legacy_verdict(&folder), verdicts.get(&program)) {
            (None, _) => wrong.push(format!("{program}: legacy has no folder {folder}")),
            (Some(want), Some(got)) if got == want => {}
            (Some(want), got) => wrong.push(format!(
                "{program}: verifyproblem says {}, the folder says {want}",
                got.map_or("nothing", String::as_str)
            )),
        }
    }
    if !wrong.is_empty() {
        wrong.push(format!("verifyproblem's output:\n{out}"));
    }
    wrong
}

/// The verdict BAPCtools must give a submission in a 2025-09 folder. The spec knows
/// AC, WA, TLE and RTE only: our `memory_limit_exceeded` folders say in
/// `submissions.yaml` that they are RTE (a crash for want of memory), and
/// `output_limit_exceeded` that they are TLE or RTE (the tools stop a writer that never
/// stops by time or by the output limit).
fn verdicts_2025(folder: &str) -> Option<&'static [&'static str]> {
    Some(match folder {
        "accepted" => &["AC"],
        "wrong_answer" => &["WA"],
        "time_limit_exceeded" => &["TLE"],
        "run_time_error" => &["RTE"],
        "memory_limit_exceeded" => &["RTE"],
        "output_limit_exceeded" => &["TLE", "RTE"],
        _ => return None,
    })
}

/// The messages BAPCtools prints in yellow (warnings) or red (errors).
fn coloured(out: &str) -> Vec<String> {
    let mut found = Vec::new();
    for colour in ["\x1b[33m", "\x1b[31m"] {
        for (at, _) in out.match_indices(colour) {
            let rest = &out[at + colour.len()..];
            let end = rest.find("\x1b[").unwrap_or(rest.len());
            let message = rest[..end].trim();
            if !message.is_empty() {
                found.push(message.to_owned());
            }
        }
    }
    found
}

/// Whether a BAPCtools message is one of the expected ones (see the module doc).
fn expected_bt_message(package: &str, message: &str) -> bool {
    let latex_only = format!(
        "{package}: Found name for language en in problem.yaml, but not statement/problem.en.tex."
    );
    // Answer validators (`answer_validators/`) are BAPCtools' own, not 2025-09's.
    if message == latex_only || message == "WARNING: No dedicated answer validators found." {
        return true;
    }
    message
        .strip_prefix("found keyword ")
        .and_then(|rest| rest.strip_suffix('?'))
        .and_then(|rest| rest.split_once(". Did you mean "))
        .is_some_and(|(keyword, suggestion)| keyword == suggestion)
}

/// `bt validate` and `bt run` on one pass-fail 2025-09 package.
fn bapctools(package: &Package, bin: &Path) -> Vec<String> {
    let (_tmp, copy) = copy(package);
    let mut wrong = Vec::new();
    let mut outputs = String::new();
    let mut verdicts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for action in ["validate", "run"] {
        let mut command = Command::new(bin.join("bt"));
        // BAPCtools colours warnings yellow and errors red only on a terminal; PyCharm's
        // variable makes colorama keep the colours, which is how they are told apart.
        command
            .args([action, "--no-bar"])
            .current_dir(&copy)
            .env("PYCHARM_HOSTED", "1");
        let (_, out) = run(command, bin);
        for message in coloured(&out) {
            if !expected_bt_message(&package.name, &message) {
                wrong.push(format!("bt {action}: {message}"));
            }
        }
        if action == "run" {
            let plain = strip_colours(&out);
            for line in plain.lines() {
                let Some((program, rest)) = line.split_once(':') else {
                    continue;
                };
                let verdict = rest.split_whitespace().next().unwrap_or("");
                if program.contains('/')
                    && !program.contains(' ')
                    && ["AC", "WA", "TLE", "RTE", "JE"].contains(&verdict)
                {
                    verdicts
                        .entry(program.to_owned())
                        .or_default()
                        .push(verdict.to_owned());
                }
            }
        }
        outputs.push_str(&format!("--- bt {action}\n{}", strip_colours(&out)));
    }
    for (folder, program) in submissions(&package.dir) {
        let Some(want) = verdicts_2025(&folder) else {
            wrong.push(format!(
                "{program}: no expected verdict for folder {folder}"
            ));
            continue;
        };
        match verdicts.get(&program) {
            Some(got) if got.iter().all(|v| want.contains(&v.as_str())) => {}
            got => wrong.push(format!(
                "{program}: bt run says {got:?}, the folder says one of {want:?}"
            )),
        }
    }
    if !wrong.is_empty() {
        wrong.push(format!("BAPCtools' output:\n{outputs}"));
    }
    wrong
}

fn strip_colours(out: &str) -> String {
    let mut plain = String::with_capacity(out.len());
    let mut rest = out;
    while let Some(at) = rest.find('\x1b') {
        plain.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(rest.len(), |i| i + 1);
        rest = &rest[end..];
    }
    plain.push_str(rest);
    plain
}

#[test]
fn legacy_packages_pass_problemtools() {
    let Some(bin) = checkers() else { return };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for package in packages().iter().filter(|p| p.legacy) {
        let wrong = verifyproblem(package, &bin);
        if !wrong.is_empty() {
            failures.push(format!("== {}\n{}", package.name, wrong.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn pass_fail_2025_packages_pass_bapctools() {
    let Some(bin) = checkers() else { return };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for package in packages().iter().filter(|p| !p.legacy && !p.scoring) {
        let wrong = bapctools(package, &bin);
        if !wrong.is_empty() {
            failures.push(format!("== {}\n{}", package.name, wrong.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The keys of a 2025-09 `problem.yaml`.
const PROBLEM_KEYS: &[&str] = &[
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
];

/// The keys of a 2025-09 `limits`.
const LIMIT_KEYS: &[&str] = &[
    "time_multipliers",
    "time_limit",
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

/// The keys of a 2025-09 `test_group.yaml`.
const TEST_GROUP_KEYS: &[&str] = &[
    "max_score",
    "score_aggregation",
    "static_validation_score",
    "require_pass",
    "args",
    "input_validator_args",
    "static_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
];

/// The keys of an entry of a 2025-09 `submissions.yaml`.
const SUBMISSION_KEYS: &[&str] = &[
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// The submission folders 2025-09 defines (others need a `submissions.yaml` entry).
const DEFAULT_FOLDERS: &[&str] = &[
    "accepted",
    "rejected",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
    "brute_force",
];

fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && groups
            .iter()
            .all(|g| g.chars().all(|c| c.is_ascii_hexdigit()))
}

fn keys(map: &serde_yaml::Mapping) -> Vec<String> {
    map.keys()
        .map(|k| k.as_str().map_or_else(|| format!("{k:?}"), str::to_owned))
        .collect()
}

/// The 2025-09 rules on one package's `problem.yaml`, test groups, submissions and
/// statements.
fn spec_2025(package: &Package) -> Vec<String> {
    let mut wrong = Vec::new();
    for key in keys(&package.yaml) {
        if !PROBLEM_KEYS.contains(&key.as_str()) {
            wrong.push(format!("problem.yaml: unknown key {key}"));
        }
    }
    match package.yaml.get("uuid").and_then(|u| u.as_str()) {
        Some(uuid) if is_uuid(uuid) => {}
        other => wrong.push(format!("problem.yaml: uuid {other:?} is not a UUID")),
    }
    if let Some(limits) = package.yaml.get("limits").and_then(|l| l.as_mapping()) {
        for key in keys(limits) {
            if !LIMIT_KEYS.contains(&key.as_str()) {
                wrong.push(format!("problem.yaml: unknown key limits.{key}"));
            }
        }
    }
    let name = match package.yaml.get("name") {
        Some(serde_yaml::Value::String(name)) => Some(name.clone()),
        Some(serde_yaml::Value::Mapping(names)) => {
            names.get("en").and_then(|n| n.as_str()).map(str::to_owned)
        }
        _ => None,
    };
    let Some(name) = name else {
        wrong.push("problem.yaml: no English name".to_owned());
        return wrong;
    };
    // Test groups: every test_group.yaml is a mapping of known keys.
    for entry in walkdir::WalkDir::new(package.dir.join("data")) {
        let entry = entry.expect("a readable data file");
        if entry.file_name() != "test_group.yaml" {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&package.dir)
            .expect("inside")
            .display()
            .to_string();
        let text = std::fs::read_to_string(entry.path()).expect("readable");
        match serde_yaml::from_str::<serde_yaml::Value>(&text) {
            Ok(serde_yaml::Value::Mapping(map)) => {
                for key in keys(&map) {
                    if !TEST_GROUP_KEYS.contains(&key.as_str()) {
                        wrong.push(format!("{rel}: unknown key {key}"));
                    }
                }
            }
            Ok(other) => wrong.push(format!("{rel}: not a mapping but {other:?}")),
            Err(e) => wrong.push(format!("{rel}: {e}")),
        }
    }
    // Submissions: folders the spec defines, or ones `submissions.yaml` describes.
    let yaml_path = package.dir.join("submissions/submissions.yaml");
    let described: serde_yaml::Mapping = if yaml_path.is_file() {
        let text = std::fs::read_to_string(&yaml_path).expect("readable");
        match serde_yaml::from_str(&text) {
            Ok(map) => map,
            Err(e) => {
                wrong.push(format!("submissions/submissions.yaml: {e}"));
                serde_yaml::Mapping::new()
            }
        }
    } else {
        serde_yaml::Mapping::new()
    };
    for (pattern, entry) in &described {
        let pattern = pattern.as_str().unwrap_or("<not a string>");
        let Some(entry) = entry.as_mapping() else {
            wrong.push(format!("submissions.yaml: {pattern} is not a mapping"));
            continue;
        };
        for (key, value) in entry {
            let key = key.as_str().unwrap_or("<not a string>");
            let is_group = key == "sample" || key == "secret" || key.starts_with("secret/");
            if !SUBMISSION_KEYS.contains(&key) && !is_group {
                wrong.push(format!("submissions.yaml: unknown key {pattern}.{key}"));
            }
            if key == "permitted" || key == "required" {
                let verdicts = value.as_sequence().cloned().unwrap_or_default();
                for verdict in verdicts {
                    if !["AC", "WA", "TLE", "RTE"].contains(&verdict.as_str().unwrap_or("")) {
                        wrong.push(format!(
                            "submissions.yaml: {pattern}.{key} has {verdict:?}, not one of AC, WA, TLE, RTE"
                        ));
                    }
                }
            }
        }
    }
    let folders: BTreeSet<String> = submissions(&package.dir)
        .into_iter()
        .map(|(folder, _)| folder)
        .collect();
    for folder in folders {
        if !DEFAULT_FOLDERS.contains(&folder.as_str()) && !described.contains_key(folder.as_str()) {
            wrong.push(format!(
                "submissions/{folder}: not a folder of 2025-09 and not in submissions.yaml"
            ));
        }
    }
    // Markdown statements: no title, no samples (the judging system adds both).
    let samples: Vec<String> = std::fs::read_dir(package.dir.join("data/sample"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "in" || e == "ans"))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .map(|s| s.trim().to_owned())
                .filter(|s| s.lines().count() > 1)
                .collect()
        })
        .unwrap_or_default();
    let statements = std::fs::read_dir(package.dir.join("statement"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_else(|_| Vec::new());
    if statements.is_empty() {
        wrong.push("statement/: no statement".to_owned());
    }
    for path in statements
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
    {
        let rel = format!("statement/{}", file_name(path));
        let text = std::fs::read_to_string(path).expect("readable");
        if text
            .lines()
            .any(|line| line.trim_start_matches('#').trim() == name)
        {
            wrong.push(format!("{rel}: repeats the problem name {name:?}"));
        }
        for sample in &samples {
            if text.contains(sample.as_str()) {
                wrong.push(format!(
                    "{rel}: repeats a sample ({:?})",
                    sample.lines().next()
                ));
            }
        }
    }
    wrong
}

#[test]
fn packages_follow_the_spec_rules_the_tools_leave_out() {
    let mut failures = Vec::new();
    // An exception whose reason is gone must go too.
    let root = ci::workspace_root().join("problems/packages");
    for (package, what) in KNOWN_EXCEPTIONS {
        let still = match *what {
            "name" => root.join(package).is_dir(),
            folder => root.join(package).join("submissions").join(folder).is_dir(),
        };
        if !still {
            failures.push(format!(
                "KNOWN_EXCEPTIONS lists ({package}, {what}), which is gone: remove it"
            ));
        }
    }
    for package in packages() {
        let mut wrong = Vec::new();
        let name_ok = !package.name.is_empty()
            && package
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if !name_ok && !excepted(&package.name, "name") {
            wrong.push("the folder's name is not [a-z0-9]+".to_owned());
        }
        if !package.legacy {
            wrong.extend(spec_2025(&package));
        }
        if !wrong.is_empty() {
            failures.push(format!("== {}\n{}", package.name, wrong.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The easy set (`problems/easy/`, written by `make-easy`): five packages of five families
/// and both generators (the others are like them), so the test command stays within a few
/// minutes; `ARENA_EASY_ALL=1` checks all of them.
const EASY_SAMPLE: &[&str] = &[
    "aplusb",      // arithmetic
    "uppercase",   // strings, case-sensitive output validation
    "sumtoncases", // loops, a variant: several test cases, the variants' validator
    "occurrences", // counting
    "powermod",    // math, a Python TLE submission
];

/// BAPCtools messages expected of some easy packages, as (packages, messages): its generic
/// invalidation turns a sample into an input it expects the validators to reject, but the
/// statements of these packages allow it.
const EXPECTED_MESSAGES: &[(&[&str], &[&str])] = &[
    // Input that may start with spaces and hold runs of them (the statement says so).
    (
        &["countwords"],
        &[
            "bt validate: Input starts with whitespace but was accepted!",
            "bt validate: Input contains consecutive whitespace characters but was accepted!",
        ],
    ),
    // A word of either case: BAPCtools' swap_case invalidation makes another valid word.
    (&["countupper", "countuppernumbered"], &[STILL_VALID]),
    // Twelve possible inputs (the months): the secret tests hold every month, so two of
    // them are the samples' inputs.
    (
        &["season"],
        &[
            "bt validate: Duplicate test case: identical to sample/1. If this is intentional use symlinks/count/includes.",
            "bt validate: Duplicate test case: identical to sample/2. If this is intentional use symlinks/count/includes.",
        ],
    ),
];

/// The message of BAPCtools' generic invalidation when a sample with a token appended is
/// still accepted.
const STILL_VALID: &str =
    "bt validate: was not properly rejected by input validation. All validators accepted.";

/// Whether an easy package's input stays valid with one more token, which BAPCtools
/// appends to a sample (`append_token_*` on the last line, `trailing_token_*` on a line of
/// its own): a list on one line without its count (the `bare` layout), the layouts that
/// read to the end of the input (`column`, `eof`: one more line may be one more value or
/// test case), and the tasks whose input is a line of words, in every layout.
fn takes_another_token(package: &str) -> bool {
    ["bare", "column", "eof"]
        .iter()
        .any(|layout| package.ends_with(layout))
        || [
            "uppercase",
            "acronym",
            "capitalize",
            "longestword",
            "countwords",
            "reversewords",
        ]
        .iter()
        .any(|task| package.starts_with(task))
}

/// Whether BAPCtools' `message` on `package` is one of [`EXPECTED_MESSAGES`], or the
/// appended token [`takes_another_token`] allows.
fn expected_message(package: &str, message: &str) -> bool {
    (message == STILL_VALID && takes_another_token(package))
        || EXPECTED_MESSAGES
            .iter()
            .any(|(packages, messages)| packages.contains(&package) && messages.contains(&message))
}

/// The easy package in `dir`.
fn easy_package(dir: PathBuf) -> Package {
    let yaml_path = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml_path)
        .unwrap_or_else(|e| panic!("{}: {e}", yaml_path.display()));
    let yaml: serde_yaml::Mapping = serde_yaml::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a YAML mapping: {e}", yaml_path.display()));
    Package {
        name: file_name(&dir),
        dir,
        yaml,
        legacy: false,
        scoring: false,
    }
}

/// The easy packages to check: the sample, every one with `ARENA_EASY_ALL=1`, or those
/// named in `ARENA_EASY_PACKAGES` (comma-separated; a name without a package fails).
fn easy_packages() -> Vec<Package> {
    let root = ci::workspace_root().join("problems/easy");
    if let Ok(named) = std::env::var("ARENA_EASY_PACKAGES")
        && !named.trim().is_empty()
    {
        return named
            .split(',')
            .map(|name| easy_package(root.join(name.trim())))
            .collect();
    }
    let all = std::env::var("ARENA_EASY_ALL").is_ok_and(|v| v == "1");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&root).expect("problems/easy is readable") {
        let dir = entry.expect("a readable entry").path();
        let name = file_name(&dir);
        if dir.join("problem.yaml").is_file() && (all || EASY_SAMPLE.contains(&name.as_str())) {
            found.push(easy_package(dir));
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    let want = if all { 40 } else { EASY_SAMPLE.len() };
    assert!(
        found.len() >= want,
        "expected at least {want} easy packages under {}, found {}",
        root.display(),
        found.len()
    );
    found
}

#[test]
fn easy_packages_pass_bapctools() {
    let Some(bin) = checkers() else { return };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for package in easy_packages() {
        let mut wrong = spec_2025(&package);
        let tools: Vec<String> = bapctools(&package, &bin)
            .into_iter()
            .filter(|w| !expected_message(&package.name, w))
            .collect();
        // The tools' output is the last entry, there only to explain the others.
        if tools.iter().any(|w| !w.starts_with("BAPCtools' output:")) {
            wrong.extend(tools);
        }
        if !wrong.is_empty() {
            failures.push(format!("== {}\n{}", package.name, wrong.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
