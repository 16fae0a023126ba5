//! End-to-end: a package with a time multiplier and no time limit gets its limit derived
//! from its accepted submissions by `judge run`, kept in the cache under `$ARENA_CACHE`
//! (`timelimits/<sha256>-<python>.json`) and reused by the next run; its Python submission
//! is measured with PyPy (a legacy package, problemtools' convention) unless `--python`
//! names CPython, which is another cached value. Only properties are checked (a whole
//! number of seconds, at least 1, the provenance), never a measured value.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{available, copy_tree, write};

/// Copies the bundled `sum` package to `to`, without its time limit, with
/// `time_multiplier: 5` (legacy), and without its Java submission (to keep it short).
fn sum_without_time_limit(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages/sum");
    copy_tree(&from, to);
    write(
        to,
        "problem.yaml",
        "name: Sum of Numbers\nlimits:\n  time_multiplier: 5\n  memory: 256\n",
    );
    std::fs::remove_file(to.join("submissions/accepted/Sum.java")).expect("rm");
}

fn run(package: &Path, source: &Path, json: bool, python: Option<&str>) -> Output {
    let mut args = vec!["run", "--backend", "bwrap", "--problem"];
    args.push(package.to_str().expect("utf-8"));
    if json {
        args.push("--json");
    }
    if let Some(python) = python {
        args.extend(["--python", python]);
    }
    args.push(source.to_str().expect("utf-8"));
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(&args)
        .output()
        .expect("the judge binary runs")
}

#[test]
fn a_missing_time_limit_is_derived_once_and_reused() {
    if !available("bwrap") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let package = dir.path().join("sum");
    sum_without_time_limit(&package);
    // A package of its own identity, so that this run measures and no other run's value
    // is found in the shared cache.
    let nonce = format!("{}-{:?}", std::process::id(), std::time::SystemTime::now());
    write(&package, "nonce.txt", &nonce);
    let cached = cache_file(&package, "pypy3");
    let cpython_cached = cache_file(&package, "python3");
    let _remove = (Remove(cached.clone()), Remove(cpython_cached.clone()));
    let source = package.join("submissions/accepted/sum.py");

    let out = run(&package, &source, true, None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("report");
    let limit = &report["time_limit"];
    assert_eq!(limit["source"], "derived", "{limit}");
    let seconds = limit["seconds"].as_f64().expect("seconds");
    assert!(seconds >= 1.0 && seconds.fract() == 0.0, "{limit}");
    assert_eq!(limit["derivation"]["time_limit_s"], seconds, "{limit}");
    assert_eq!(limit["derivation"]["ac_to_time_limit"], 5.0, "{limit}");
    assert_eq!(limit["derivation"]["python"], "pypy3", "{limit}");
    let slowest = limit["derivation"]["slowest"].as_str().expect("slowest");
    assert!(slowest.starts_with("submissions/accepted/"), "{limit}");
    assert!(limit.get("cached").is_none(), "{limit}");
    assert!(cached.is_file(), "{}", cached.display());
    assert!(!cpython_cached.exists(), "{}", cpython_cached.display());

    // The second run reads the cache, and the human output says where the limit came from.
    let out = run(&package, &source, false, None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("time limit "))
        .unwrap_or_else(|| panic!("no time limit line in:\n{stdout}"));
    assert!(
        line.starts_with(&format!(
            "time limit {seconds} s (derived: slowest accepted "
        )),
        "{line}"
    );
    assert!(line.ends_with(", cached)"), "{line}");

    // Measured with CPython, it is another value, derived and cached on its own.
    let out = run(&package, &source, true, Some("python3"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("report");
    let limit = &report["time_limit"];
    assert_eq!(limit["source"], "derived", "{limit}");
    assert_eq!(limit["derivation"]["python"], "python3", "{limit}");
    assert!(limit.get("cached").is_none(), "{limit}");
    assert!(cpython_cached.is_file(), "{}", cpython_cached.display());
}

/// The cache file of `package` measured with `python`: named by its identity and the
/// interpreter under the cache folder's `timelimits`.
fn cache_file(package: &Path, python: &str) -> PathBuf {
    let sha = judge::problems::package::content_sha256(package).expect("hashes");
    judge::cache_dir().join(format!("timelimits/{sha}-{python}.json"))
}

/// Removes its file when dropped.
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
