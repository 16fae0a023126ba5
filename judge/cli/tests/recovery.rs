//! Recovery of `judge serve` on the Docker backend when the sandbox fails mid-judging:
//! the submission's container is killed, then the Docker daemon itself is killed and
//! started again.
//! The submission must never be lost nor blamed on the contestant: a killed container
//! makes it a judge error (`JE`) that is queued again and then judged normally; across
//! the daemon's death it ends judged normally (with `JE`s first if the judging broke);
//! and the server keeps serving.
//!
//! This test owns the Docker daemon while it runs (it stops and restarts it), so it is
//! the only test in this binary, and cargo runs test binaries one after another.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{available, http_json, start_serve};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ADMIN: &str = "recovery-admin-token";

fn docker_answers() -> bool {
    Command::new("docker")
        .arg("info")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// An admin's request; its JSON answer.
fn http(method: &str, url: &str, body: Option<&Value>) -> Value {
    http_json(method, url, Some(ADMIN), body)
}

fn wait_for(what: &str, secs: u64, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The containers of the sandbox image that are running.
fn sandbox_containers() -> Vec<String> {
    let image = judge::sandbox::SandboxConfig::discover()
        .map(|c| c.image)
        .unwrap_or_default();
    let out = Command::new("docker")
        .args(["ps", "-q", "--filter", &format!("ancestor={image}")])
        .output()
        .expect("docker ps");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

fn restart_dockerd() {
    let logs = std::env::temp_dir().join("arena-recovery-dockerd.log");
    let _ = Command::new("pkill")
        .args(["-TERM", "-x", "dockerd"])
        .status();
    wait_for("dockerd to stop", 60, || {
        !Command::new("pgrep")
            .args(["-x", "dockerd"])
            .status()
            .is_ok_and(|s| s.success())
    });
    // A killed daemon leaves its pid file, which stops the next one from starting.
    let _ = std::fs::remove_file("/var/run/docker.pid");
    // Started detached, as ci/setup does; it outlives this test for the tests after it.
    let log = std::fs::File::create(&logs).expect("log file");
    Command::new("setsid")
        .args(["-f", "dockerd"])
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .stdin(Stdio::null())
        .status()
        .expect("dockerd starts");
    wait_for("dockerd to answer", 90, docker_answers);
}

#[test]
fn a_killed_container_and_a_docker_restart_end_as_judge_errors_and_are_judged_again() {
    if !available("docker") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
    let start = chrono::Utc::now() - chrono::Duration::minutes(5);
    let contest = dir.path().join("contest.yaml");
    std::fs::write(
        &contest,
        format!(
            "id: rec\nname: Recovery\nstart_time: {}\nduration: 120\n\
             problems:\n  - {{id: sum, package: {}}}\nteams:\n  - {{id: t1, name: T1, token: recovery-team-1}}\n",
            start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            packages.join("sum").display()
        ),
    )
    .expect("contest");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--workers",
        "1",
        "--backend",
        "docker",
    ])
    .args(["--max-attempts", "20", "--contest"])
    .arg(&contest)
    .arg("--db")
    .arg(dir.path().join("rec.db"))
    .env("ARENA_ADMIN_TOKEN", ADMIN);
    let (_server, base) = start_serve(cmd);

    // A correct program that takes about half a second per test: killable mid-judging.
    let slow = "import sys, time\nd = sys.stdin.read().split()\ntime.sleep(0.5)\nprint(sum(map(int, d[1:1 + int(d[0])])))\n";
    let submit = || {
        let body =
            json!({"team_id": "t1", "problem_id": "sum", "language_id": "python3", "source": slow});
        http(
            "POST",
            &format!("{base}/api/contests/rec/submissions"),
            Some(&body),
        )["id"]
            .as_str()
            .expect("submission id")
            .to_owned()
    };
    let judgements_of = |id: &str| -> Vec<String> {
        http("GET", &format!("{base}/api/contests/rec/judgements"), None)
            .as_array()
            .expect("judgements")
            .iter()
            .filter(|j| j["submission_id"] == id)
            .map(|j| {
                j["judgement_type_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    };
    let judged = |id: &str| judgements_of(id).last().is_some_and(|v| v != "JE");

    for (what, break_it) in [
        (
            "a killed container",
            Box::new(|| {
                for c in sandbox_containers() {
                    let _ = Command::new("docker").args(["kill", &c]).output();
                }
            }) as Box<dyn Fn()>,
        ),
        ("a Docker daemon restart", Box::new(restart_dockerd)),
    ] {
        // A container started for this submission (the last one's may still be closing).
        let before = sandbox_containers();
        let id = submit();
        wait_for("its container to run", 120, || {
            sandbox_containers().iter().any(|c| !before.contains(c))
        });
        std::thread::sleep(Duration::from_millis(700));
        break_it();
        wait_for("the submission to be judged again", 300, || judged(&id));
        let verdicts = judgements_of(&id);
        let runs = http("GET", &format!("{base}/api/contests/rec/runs"), None);
        assert_eq!(
            verdicts.last().map(String::as_str),
            Some("AC"),
            "{what}: {verdicts:?} {runs}"
        );
        assert!(
            verdicts.iter().rev().skip(1).all(|v| v == "JE"),
            "{what}: {verdicts:?}"
        );
        // A killed container always breaks the running judging; a killed daemon did
        // not in our runs when the exec had started (containerd keeps it running and the
        // judging finished), so there the JE is allowed, not required.
        if what == "a killed container" {
            assert!(
                verdicts.len() >= 2,
                "{what}: recorded as JE first: {verdicts:?}"
            );
        }
        let board = http("GET", &format!("{base}/api/contests/rec/scoreboard"), None);
        assert_eq!(
            board["rows"][0]["problems"][0]["num_judged"], 1,
            "{what}: JE is no try: {board}"
        );
    }
    // Still serving: one more submission is judged normally.
    let id = submit();
    wait_for("a last judgement", 300, || judged(&id));
    assert_eq!(judgements_of(&id), vec!["AC".to_owned()]);
}
