//! Loads every bundled package under `problems/packages/` and checks it is complete.

use std::path::{Path, PathBuf};

use problems::{Severity, Verdict};

fn packages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("packages")
}

/// Every folder under `packages/`, by name.
fn bundled() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = std::fs::read_dir(packages_dir())
        .expect("packages folder")
        .map(|it| it.expect("entry").path())
        .filter(|it| it.is_dir())
        .collect();
    res.sort();
    res
}

#[test]
fn every_bundled_package_loads_without_errors() {
    for dir in bundled() {
        let (problem, diagnostics) = match problems::load(&dir) {
            Ok(it) => it,
            Err(err) => panic!("{}: {err}", dir.display()),
        };
        let errors: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
        assert!(
            diagnostics.is_empty(),
            "{}: warnings {diagnostics:?}",
            dir.display()
        );
        let cases = problem.test_cases();
        let samples = cases.iter().filter(|c| c.is_sample).count();
        let secret = cases.len() - samples;
        assert!(
            (1..=3).contains(&samples),
            "{}: {samples} samples",
            dir.display()
        );
        assert!(
            (3..=8).contains(&secret),
            "{}: {secret} secret tests",
            dir.display()
        );
        assert!(
            problem.statement.is_some(),
            "{}: no statement",
            dir.display()
        );
        let accepted: Vec<_> = problem
            .submissions
            .iter()
            .filter(|s| s.expected == [Verdict::AC])
            .collect();
        let languages: std::collections::BTreeSet<_> = accepted
            .iter()
            .filter_map(|s| s.path.extension())
            .map(|e| e.to_string_lossy().into_owned())
            .collect();
        assert!(
            languages.len() >= 2,
            "{}: accepted in {languages:?}",
            dir.display()
        );
        assert!(
            problem.submissions.iter().any(|s| s.folder != "accepted"),
            "{}: no rejected submission",
            dir.display()
        );
        let size: u64 = walk(&dir)
            .iter()
            .map(|p| p.metadata().expect("metadata").len())
            .sum();
        assert!(size < 10 << 20, "{}: {size} bytes", dir.display());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut res = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            res.extend(walk(&path));
        } else {
            res.push(path);
        }
    }
    res
}
