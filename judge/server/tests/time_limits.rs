//! Time limits of a served contest: a package without one gets it derived from its
//! accepted submissions when the contest is loaded (measured on bubblewrap), the CLICS
//! problem objects say where every limit came from (`time_limit_source`: `problem.yaml`,
//! `.timelimit`, `derived`), and the derived value is stored with the contest, so that a
//! second host on the same database judges with that one value without measuring again
//! (its cache entry removed, and not written anew). Only properties of the measured value
//! are checked, never the value itself.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use judge::grade::Options;
use judge::sandbox::BackendKind;
use judge_server::{AppState, ServeOptions};
use serde_json::Value;

const SUM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages/sum");

/// Copies the folder `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A copy of the bundled `sum` at `to` with `problem_yaml` (and without its Java
/// submission, to keep the measurement short).
fn sum_with(to: &Path, problem_yaml: &str) {
    copy_tree(Path::new(SUM), to);
    std::fs::write(to.join("problem.yaml"), problem_yaml).expect("problem.yaml");
    std::fs::remove_file(to.join("submissions/accepted/Sum.java")).expect("rm");
}

fn options(contest: &Path, db: &Path) -> ServeOptions {
    ServeOptions {
        contests: vec![contest.to_path_buf()],
        db: db.display().to_string(),
        listen: "127.0.0.1:0".into(),
        workers: 0,
        judge: Options {
            backend: BackendKind::Bwrap,
            run_all: false,
            cache_dir: None,
        },
        admin_token: "admin-token-long".into(),
        lease: Duration::from_secs(30),
        max_attempts: 3,
        max_body: 1 << 20,
        http_nice: 0,
        secure_cookies: false,
    }
}

/// The problem objects of contest `c`, by id.
async fn problems(state: &std::sync::Arc<AppState>) -> Vec<(String, Value)> {
    let app = judge_server::app(std::sync::Arc::clone(state));
    let (status, _, body) =
        common::get(&app, "/api/contests/c/problems", Some("admin-token-long")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let all: Vec<Value> = serde_json::from_slice(&body).expect("JSON");
    all.into_iter()
        .map(|p| (p["id"].as_str().unwrap_or_default().to_owned(), p))
        .collect()
}

/// The derivation the database stores for problem `id` of contest `c`.
async fn stored(state: &AppState, id: &str) -> Value {
    let (_, spec) = state
        .store
        .contests()
        .await
        .expect("contests")
        .into_iter()
        .find(|(cid, _)| cid == "c")
        .expect("contest c is stored");
    let spec: Value = serde_json::from_str(&spec).expect("stored JSON");
    let problems = spec["problems"].as_array().expect("problems").clone();
    problems
        .into_iter()
        .find(|p| p["id"] == id)
        .map(|p| p["derived_time_limit"].clone())
        .expect("the problem is stored")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_time_limits_are_derived_at_load_and_stored_for_every_host() {
    let Some(sandbox) = common::bwrap_sandbox() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    sum_with(
        &root.join("given"),
        "problem_format_version: 2025-09\nname: Given\nuuid: 9d3c1f6e-2a4b-4c5d-8e6f-7a8b9c0d1e2f\nlimits:\n  time_limit: 2\n  memory: 256\n",
    );
    sum_with(&root.join("file"), "name: File\nlimits:\n  memory: 256\n");
    std::fs::write(root.join("file/.timelimit"), "3\n").expect(".timelimit");
    sum_with(
        &root.join("free"),
        "problem_format_version: 2025-09\nname: Free\nuuid: 0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 3\n  memory: 256\n",
    );
    // A package of its own identity, so that no other run's value is in the shared cache.
    let nonce = format!("{}-{:?}", std::process::id(), std::time::SystemTime::now());
    std::fs::write(root.join("free/nonce.txt"), nonce).expect("nonce");
    let sha = judge::problems::package::content_sha256(&root.join("free")).expect("hashes");
    let cache_entry: PathBuf =
        judge::timelimit::cache_file(&judge::timelimit::default_cache(), &sha, "python3");
    let _remove = Remove(cache_entry.clone());

    let start = (chrono::Utc::now() - chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let contest = root.join("contest.yaml");
    std::fs::write(
        &contest,
        format!(
            "id: c\nname: C\nstart_time: {start}\nduration: '5:00:00'\n\
             problems:\n  - {{id: given, package: given}}\n  - {{id: file, package: file}}\n  - {{id: free, package: free}}\n\
             teams:\n  - {{id: t1, name: Team One, token: token-team-1}}\n"
        ),
    )
    .expect("contest file");
    let db = root.join("db.sqlite");

    // The first host measures `free` (its cache has no entry for this identity).
    let state = AppState::open(&options(&contest, &db), sandbox.clone())
        .await
        .expect("state opens");
    let first = problems(&state).await;
    let sources: Vec<(&str, &Value, &Value)> = first
        .iter()
        .map(|(id, p)| (id.as_str(), &p["time_limit_source"], &p["time_limit"]))
        .collect();
    assert_eq!(
        &sources[..2],
        &[
            ("given", &Value::from("problem.yaml"), &Value::from(2)),
            ("file", &Value::from(".timelimit"), &Value::from(3)),
        ]
    );
    let (id, source, limit) = sources[2];
    assert_eq!((id, source), ("free", &Value::from("derived with python3")));
    let limit = limit.as_f64().expect("a number of seconds");
    // 2025-09: rounded up to the time resolution (1 s by default), at least one step.
    assert!(limit >= 1.0 && limit.fract() == 0.0, "{limit}");
    assert!(cache_entry.is_file(), "{}", cache_entry.display());
    // The database holds the value with the contest; the packages that give a limit have
    // none.
    let derivation = stored(&state, "free").await;
    assert_eq!(derivation["time_limit_s"], limit, "{derivation}");
    assert_eq!(derivation["sha256"], sha.as_str(), "{derivation}");
    assert_eq!(derivation["python"], "python3", "{derivation}");
    assert_eq!(derivation["ac_to_time_limit"], 3.0, "{derivation}");
    assert_eq!(stored(&state, "given").await, Value::Null);
    drop(state);

    // A second host on the same database, without the cache entry, given the same contest
    // file: it judges with the stored value and measures nothing.
    std::fs::remove_file(&cache_entry).expect("rm cache entry");
    let state = AppState::open(&options(&contest, &db), sandbox.clone())
        .await
        .expect("state opens again");
    let second = problems(&state).await;
    assert_eq!(second[2].1["time_limit_source"], "derived with python3");
    assert_eq!(second[2].1["time_limit"], limit);
    assert!(!cache_entry.exists(), "measured again");
    assert_eq!(stored(&state, "free").await, derivation);
    drop(state);

    // A host that serves the stored contest alone (no contest file) does the same.
    let mut alone = options(&contest, &db);
    alone.contests.clear();
    let state = AppState::open(&alone, sandbox)
        .await
        .expect("state opens from the database");
    let third = problems(&state).await;
    assert_eq!(third[2].1["time_limit"], limit);
    assert_eq!(third[2].1["time_limit_source"], "derived with python3");
    assert!(!cache_entry.exists(), "measured again");
}

/// Removes its file when dropped.
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
