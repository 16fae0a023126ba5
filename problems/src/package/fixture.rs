//! Packages for the unit tests of [`crate::package`], written into temporary folders, and
//! the diagnostics `load` gives for them.

use std::path::Path;

use crate::load;

/// Writes `text` to `path` below `root`, making its folders.
pub(super) fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A 2025-09 package that loads without a diagnostic: samples, secret cases in and below
/// `data/secret/`, an input validator and two submissions.
pub(super) fn good_package() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Add\nuuid: x\nlimits:\n  time_limit: 2\n  memory: 64\n",
    );
    write(root, "statement/problem.en.md", "# Add\n");
    write(root, "data/sample/1.in", "1 2\n");
    write(root, "data/sample/1.ans", "3\n");
    write(root, "data/secret/b.in", "2 2\n");
    write(root, "data/secret/b.ans", "4\n");
    write(root, "data/secret/a.in", "1 1\n");
    write(root, "data/secret/a.ans", "2\n");
    write(root, "data/secret/group1/x.in", "0 0\n");
    write(root, "data/secret/group1/x.ans", "0\n");
    write(root, "input_validators/check.py", "exit(42)\n");
    write(
        root,
        "submissions/accepted/a.py",
        "print(sum(map(int, input().split())))\n",
    );
    write(
        root,
        "submissions/run_time_error/crash.py",
        "raise SystemExit(1)\n",
    );
    dir
}

/// `good_package` with `text` as its problem.yaml.
pub(super) fn with_problem_yaml(text: &str) -> tempfile::TempDir {
    let dir = good_package();
    write(dir.path(), "problem.yaml", text);
    dir
}

/// `good_package` turned into a legacy custom-validation package with `extra` lines in
/// problem.yaml and no validator yet.
pub(super) fn custom_legacy(extra: &str) -> tempfile::TempDir {
    with_problem_yaml(&format!(
        "name: Any\nvalidation: custom\nlimits:\n  time_limit: 1\n{extra}"
    ))
}

/// Every diagnostic `load` gives for the package in `dir`, loaded or not, as text.
pub(super) fn errors(dir: &Path) -> Vec<String> {
    match load(dir) {
        Ok((_, diagnostics)) => diagnostics.iter().map(ToString::to_string).collect(),
        Err(crate::Error::Invalid { diagnostics, .. }) => {
            diagnostics.iter().map(ToString::to_string).collect()
        }
        Err(err) => vec![err.to_string()],
    }
}
