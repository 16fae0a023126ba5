//! The easy set (`problems/easy/`): regenerating it with `make-easy` changes nothing, byte
//! for byte, and every package loads without an error or a warning.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use problems::Severity;

/// Every regular file under `root`, by path relative to it, with its bytes.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a readable entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("inside").to_path_buf();
                let bytes = std::fs::read(&path).expect("a readable file");
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The package folders of the easy set.
fn packages() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(problems::easy::dir())
        .expect("problems/easy is readable")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    found.sort();
    found
}

#[test]
fn regenerating_the_easy_set_changes_nothing() {
    let out = tempfile::tempdir().expect("a temporary folder");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_make-easy"))
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("make-easy runs");
    assert!(status.success(), "make-easy failed: {status}");
    let generated = files(out.path());
    let committed: BTreeMap<PathBuf, Vec<u8>> = packages()
        .iter()
        .flat_map(|dir| {
            let name = PathBuf::from(dir.file_name().expect("a name"));
            files(dir)
                .into_iter()
                .map(move |(rel, bytes)| (name.join(rel), bytes))
        })
        .collect();
    let only_generated: Vec<_> = generated
        .keys()
        .filter(|k| !committed.contains_key(*k))
        .collect();
    let only_committed: Vec<_> = committed
        .keys()
        .filter(|k| !generated.contains_key(*k))
        .collect();
    assert!(
        only_generated.is_empty() && only_committed.is_empty(),
        "not committed: {only_generated:?}; not generated: {only_committed:?}"
    );
    let differing: Vec<_> = generated
        .iter()
        .filter(|(path, bytes)| committed[*path] != **bytes)
        .map(|(path, _)| path)
        .collect();
    assert!(
        differing.is_empty(),
        "regenerated differently: {differing:?}"
    );
    assert!(generated.len() > 40 * 20, "{} files", generated.len());
}

#[test]
fn every_easy_package_loads_cleanly() {
    let dirs = packages();
    assert!(dirs.len() >= 40, "{} packages", dirs.len());
    for dir in dirs {
        let (problem, diagnostics) =
            problems::load(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let serious: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error || d.severity == Severity::Warning)
            .collect();
        assert!(serious.is_empty(), "{}: {serious:?}", dir.display());
        assert_eq!(
            problem.limits.time,
            std::time::Duration::from_secs(1),
            "{}",
            dir.display()
        );
        assert!(problem.submissions.len() >= 3, "{}", dir.display());
    }
}
