//! The GitHub Actions workflows under `.github/workflows/`, which cannot run here, checked
//! by actionlint (installed by `ci/setup` in the checkers venv, from
//! `ci/checkers/requirements.txt`) with shellcheck (apt) on their `run:` scripts: any
//! complaint fails the test with actionlint's output. pyflakes is off (no `run:` script is
//! Python), so the result does not depend on what else is on `PATH`.
//!
//! A deliberately broken workflow in a temporary folder must be flagged on each of its
//! three defects (a job without `runs-on`, an undefined context property, an unquoted
//! variable that only shellcheck reports), so a linter that checks nothing cannot pass.
//! The training workflow is also read as YAML for what the README promises of it.
//!
//! Under `CI=true` a missing actionlint or shellcheck fails the test; elsewhere the test
//! says what is missing and returns.

use std::path::{Path, PathBuf};
use std::process::Command;

/// actionlint's binary, when it and shellcheck are here.
fn actionlint() -> Option<PathBuf> {
    let bin = judge::cache_dir().join("checkers/bin/actionlint");
    let shellcheck = Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    let mut missing = Vec::new();
    if !bin.is_file() {
        missing.push(format!("no {}", bin.display()));
    }
    if !shellcheck {
        missing.push("no shellcheck on PATH".to_owned());
    }
    let missing = (!missing.is_empty()).then(|| missing.join(", "));
    ci::require::present(
        "actionlint and shellcheck (ci/setup installs them)",
        missing.as_deref(),
    )
    .then_some(bin)
}

/// actionlint's exit code and its output (stdout, then stderr) on `files`.
fn lint(actionlint: &Path, files: &[PathBuf]) -> (Option<i32>, String) {
    let out = Command::new(actionlint)
        .args(["-oneline", "-no-color", "-pyflakes="])
        .args(files)
        .current_dir(ci::workspace_root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", actionlint.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// The workflow files, sorted.
fn workflows() -> Vec<PathBuf> {
    let dir = ci::workspace_root().join(".github/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_workflow_passes_actionlint() {
    let files = workflows();
    let names: Vec<String> = files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for expected in ["test.yml", "train.yml"] {
        assert!(
            names.iter().any(|n| n == expected),
            ".github/workflows/{expected} is missing (found {names:?})"
        );
    }
    let Some(actionlint) = actionlint() else {
        return;
    };
    let (code, output) = lint(&actionlint, &files);
    assert_eq!(
        (code, output.trim()),
        (Some(0), ""),
        "actionlint complains about {names:?}:\n{output}"
    );
}

#[test]
fn actionlint_flags_a_broken_workflow() {
    let Some(actionlint) = actionlint() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let broken = dir.path().join("broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  broken:\n    steps:\n      - run: echo \"${{ github.nope }}\"\n      - run: cat $FILE_NAME\n",
    )
    .expect("the broken workflow is written");
    let (code, output) = lint(&actionlint, &[broken]);
    assert_eq!(
        code,
        Some(1),
        "actionlint's exit code on a broken workflow:\n{output}"
    );
    for defect in [
        "\"runs-on\" section is missing",
        "property \"nope\" is not defined",
        "SC2086",
    ] {
        assert!(
            output.contains(defect),
            "actionlint did not report `{defect}` in the broken workflow:\n{output}"
        );
    }
}

/// A YAML value's field, or a panic naming the path.
fn field<'a>(value: &'a serde_yaml::Value, path: &[&str]) -> &'a serde_yaml::Value {
    path.iter().fold(value, |v, key| {
        v.get(key)
            .unwrap_or_else(|| panic!("train.yml: no `{}`", path.join(".")))
    })
}

#[test]
fn the_training_workflow_runs_ci_train_in_debian_12_and_keeps_its_results() {
    let path = ci::workspace_root().join(".github/workflows/train.yml");
    let text = std::fs::read_to_string(&path).expect("train.yml is readable");
    let yaml: serde_yaml::Value = serde_yaml::from_str(&text).expect("train.yml is YAML");
    // serde_yaml reads the key `on` as a string (YAML 1.2), not a boolean.
    let on = field(&yaml, &["on"]);
    assert!(on.get("workflow_dispatch").is_some() && on.get("schedule").is_some());
    let job = field(&yaml, &["jobs", "train"]);
    assert_eq!(
        field(job, &["container", "image"]).as_str(),
        Some("debian:12")
    );
    let steps = field(job, &["steps"]).as_sequence().expect("a step list");
    let runs: Vec<&str> = steps
        .iter()
        .filter_map(|s| s.get("run").and_then(|r| r.as_str()))
        .collect();
    assert!(
        runs.iter().any(|r| r.contains("bash ci/train")),
        "no step runs ci/train: {runs:?}"
    );
    let uploads: Vec<&str> = steps
        .iter()
        .filter(|s| {
            s.get("uses")
                .and_then(|u| u.as_str())
                .is_some_and(|u| u.starts_with("actions/upload-artifact@"))
        })
        .map(|s| field(s, &["with", "path"]).as_str().expect("a path list"))
        .collect();
    for kept in ["train-out/report/", "steps.checkpoint.outputs.dir"] {
        assert!(
            uploads.iter().any(|p| p.contains(kept)),
            "no artifact keeps {kept}: {uploads:?}"
        );
    }
    let cached = steps
        .iter()
        .filter_map(|s| s.get("with").and_then(|w| w.get("path")))
        .filter_map(|p| p.as_str())
        .any(|p| p.contains("~/.cache/arena"));
    assert!(cached, "no step caches ~/.cache/arena");
}
