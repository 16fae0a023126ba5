//! The judge's hostile corpus (`judge/cli/tests/common/hostile.rs`, shared with `judge
//! run`'s test) through the reward service's APIs, on both backends: each program alone
//! through `/run_code` and all of them in one `/v1/evaluate` request, on the add problem
//! (two numbers, their sum; 1 s, 64 MiB; compiles limited to 20 s and 256 MiB). Each gets
//! a verdict its entry allows, no process of the sandbox user is left running (in this
//! test's bubblewrap sandboxes or in a Docker container), and the server still answers.

mod common;

#[path = "../../cli/tests/common/hostile.rs"]
mod hostile;

use judge::sandbox::BackendKind;
use serde_json::{Value, json};

const INPUT: &str = "2 40\n";
const ANSWER: &str = "42\n";

/// The language of a corpus file, by its extension.
fn language(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("c") => "c",
        Some("cpp") => "cpp",
        _ => "python",
    }
}

/// The verdict a `/run_code` answer amounts to on the add problem.
fn verdict_of(answer: &Value) -> String {
    if answer["status"] == "SandboxError" {
        return "JE".to_owned();
    }
    let compile = &answer["compile_result"];
    if !compile.is_null() && compile["return_code"] != 0 {
        return "CE".to_owned();
    }
    let run = &answer["run_result"];
    match run["verdict"].as_str() {
        Some("OK") if run["stdout"] == ANSWER => "AC".to_owned(),
        Some("OK") => "WA".to_owned(),
        Some(other) => other.to_owned(),
        None => "none".to_owned(),
    }
}

/// The sandbox user's processes (uid 65534) that this test may have left: those that
/// descend from this process (bubblewrap's sandboxes) or run in a Docker container.
/// Other work on the machine may run sandboxes too, so a process counts as left over
/// only when it stays through ten seconds of looking: a program of this test's that
/// escaped its sandbox's end runs on (the corpus's background sleeper, a fork bomb),
/// while another judgement's runs end within their limits.
async fn left_running() -> Vec<String> {
    let mut left: Option<Vec<(u32, String)>> = None;
    for _ in 0..50 {
        let now = candidates();
        let kept: Vec<(u32, String)> = match left {
            None => now,
            Some(before) => before
                .into_iter()
                .filter(|(pid, _)| now.iter().any(|(p, _)| p == pid))
                .collect(),
        };
        if kept.is_empty() {
            return Vec::new();
        }
        left = Some(kept);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    left.unwrap_or_default()
        .into_iter()
        .map(|(pid, cmd)| format!("{pid} {cmd}"))
        .collect()
}

/// The sandbox user's processes now that descend from this process or run in a Docker
/// container, with their command lines.
fn candidates() -> Vec<(u32, String)> {
    let me = std::process::id();
    let mut res = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return res;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if status_field(pid, "Uid:").and_then(|v| v.split_whitespace().next().map(str::to_owned))
            != Some("65534".to_owned())
        {
            continue;
        }
        let in_container = std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
            .is_ok_and(|c| c.contains("docker"));
        if in_container || descends_from(pid, me) {
            let cmd = std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
                .unwrap_or_default()
                .replace('\0', " ");
            res.push((pid, cmd));
        }
    }
    res
}

/// A field of `/proc/PID/status`.
fn status_field(pid: u32, field: &str) -> Option<String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .map(|v| v.trim().to_owned())
}

/// Whether `pid` descends from `ancestor`.
fn descends_from(mut pid: u32, ancestor: u32) -> bool {
    for _ in 0..64 {
        let Some(parent) = status_field(pid, "PPid:").and_then(|p| p.parse::<u32>().ok()) else {
            return false;
        };
        if parent == ancestor {
            return true;
        }
        if parent <= 1 {
            return false;
        }
        pid = parent;
    }
    false
}

/// The verdicts a corpus entry may get through `/run_code`: its own, but for `fill.c`,
/// which may also be MLE there: `/run_code` runs as SandboxFusion's does, in a work
/// folder the program may write (the judge's test runs make it read-only), a tmpfs whose
/// pages count towards the memory limit, so filling it is a memory limit.
fn allowed_on_run_code(name: &str, allowed: &'static str) -> &'static str {
    if name == "fill.c" { "AC|MLE" } else { allowed }
}

async fn corpus_on(backend: BackendKind) -> Vec<String> {
    let server = common::start(backend, |opts| {
        opts.limits.compile_time_s = 20.0;
        opts.limits.compile_memory_mb = 256.0;
    })
    .await;
    let mut failures = Vec::new();
    for (name, allowed, source) in hostile::HOSTILE {
        let answer = server
            .run_code(&json!({
                "code": source,
                "language": language(name),
                "stdin": INPUT,
                "run_timeout": 1,
                "memory_limit_MB": 64,
            }))
            .await;
        let got = verdict_of(&answer);
        let allowed = allowed_on_run_code(name, allowed);
        if !allowed.split('|').any(|a| a == got) {
            failures.push(format!(
                "{backend:?} /run_code {name}: expected {allowed}, got {got}: {answer}"
            ));
        }
    }
    let programs: Vec<Value> = hostile::HOSTILE
        .iter()
        .map(|(name, _, source)| json!({"language": language(name), "source": source}))
        .collect();
    let answer = server
        .evaluate(&json!({
            "tests": [{"input": INPUT, "output": ANSWER}],
            "limits": {"time_s": 1, "memory_mb": 64},
            "programs": programs,
        }))
        .await;
    for (idx, (name, allowed, _)) in hostile::HOSTILE.iter().enumerate() {
        let it = &answer["results"][idx];
        let got = it["verdict"].as_str().unwrap_or("none");
        if it["status"] != "judged" || !allowed.split('|').any(|a| a == got) {
            failures.push(format!(
                "{backend:?} /v1/evaluate {name}: expected {allowed}, got {got}: {it}"
            ));
        }
    }
    let left = left_running().await;
    if !left.is_empty() {
        failures.push(format!(
            "{backend:?}: processes of the sandbox user are still running: {}",
            left.join("; ")
        ));
    }
    let ping = server.get("/v1/ping").await;
    if ping.status != 200 {
        failures.push(format!("{backend:?}: /v1/ping answered {}", ping.status));
    }
    let honest = server
        .run_code(&json!({"code": "print(sum(map(int, input().split())))", "stdin": INPUT}))
        .await;
    if verdict_of(&honest) != "AC" {
        failures.push(format!(
            "{backend:?}: an honest program afterwards: {honest}"
        ));
    }
    failures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hostile_corpus_through_the_apis() {
    let mut failures = Vec::new();
    for backend in common::backends() {
        failures.extend(corpus_on(backend).await);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
