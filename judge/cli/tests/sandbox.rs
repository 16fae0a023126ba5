//! `judge sandbox`, the real binary: it prints `listening on http://ADDR` once bound on
//! port 0, answers `/v1/ping` without the token it was given and `/run_code` with it, on
//! each backend present (under `CI=true` a missing one fails). The service itself is
//! tested through the library in `judge/sandbox/tests/`.

mod common;

use std::process::Command;

use common::{Killed, available, http};

fn sandbox_command(backend: &str) {
    if !available(backend) {
        return;
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.args([
        "sandbox",
        "--listen",
        "127.0.0.1:0",
        "--backend",
        backend,
        "--token",
        "t0ken",
        "--workers",
        "1",
    ]);
    let (mut server, url): (Killed, String) = common::start_serve(cmd);
    let url = url
        .strip_prefix("http://")
        .map(str::to_owned)
        .unwrap_or(url);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let (status, body) = http("GET", &format!("{url}/v1/ping"), None, None);
    assert_eq!((status, body.as_str()), (200, "\"pong\""));
    let run = r#"{"code": "print(int(input()) + 1)", "language": "python", "stdin": "41"}"#;
    let (status, _) = http("POST", &format!("{url}/run_code"), None, Some(run));
    assert_eq!(status, 401);
    let (status, body) = http("POST", &format!("{url}/run_code"), Some("t0ken"), Some(run));
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["status"], "Success", "{body}");
    assert_eq!(answer["run_result"]["stdout"], "42\n", "{body}");
    server.kill();
}

#[test]
fn judge_sandbox_serves_on_docker() {
    sandbox_command("docker");
}

#[test]
fn judge_sandbox_serves_on_bwrap() {
    sandbox_command("bwrap");
}
