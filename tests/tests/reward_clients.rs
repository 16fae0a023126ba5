//! `judge sandbox` as the reward service of code RL, driven by real clients that no one
//! here wrote: the `sandbox-fusion` PyPI client, verl's `compute_score`, the official
//! `judge0` SDK, a TRL `GRPOTrainer` run whose reward is `ci/clients/trl_reward.py`, and
//! nginx from Debian in front of two instances, one killed under load.
//!
//! Each test starts `judge sandbox --listen 127.0.0.1:0` (bubblewrap) and runs a script
//! of `ci/clients/` with the project venv's Python (`ARENA_PYTHON`); the script prints
//! what its client observed as JSON, and the assertions are here. A missing client,
//! model or nginx fails under `CI=true` (`ci/setup clients` installs them) and is
//! skipped with a note elsewhere.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The project venv's Python when it can import `module`; `None` (a failure under CI)
/// otherwise.
fn python_with(module: &str) -> Option<PathBuf> {
    let python = ci::require::env_path("ARENA_PYTHON")?;
    let imports = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let why = (!imports).then(|| {
        format!(
            "{} cannot import {module} (run `ci/setup clients`)",
            python.display()
        )
    });
    ci::require::present(&format!("the Python module {module}"), why.as_deref()).then_some(python)
}

fn clients_dir() -> PathBuf {
    common::workspace().join("ci/clients")
}

fn easy_dir() -> PathBuf {
    common::workspace().join("problems/easy")
}

/// `judge sandbox` on port 0 with the easy set's packages, on bubblewrap.
fn start_sandbox(judge: &Path, extra: &[&str]) -> common::Server {
    let mut cmd = Command::new(judge);
    cmd.args([
        "sandbox",
        "--listen",
        "127.0.0.1:0",
        "--backend",
        "bwrap",
        "--problems",
    ])
    .arg(easy_dir())
    .args(extra);
    common::start_listening(cmd)
}

/// Runs `ci/clients/<script>` with `args`; its standard output's last line as JSON.
fn run_script(python: &Path, script: &str, args: &[&str]) -> Value {
    let out = Command::new(python)
        .arg(clients_dir().join(script))
        .args(args)
        .current_dir(clients_dir())
        .env("PYTHONUNBUFFERED", "1")
        .output()
        .unwrap_or_else(|e| panic!("{script} starts: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{script} failed ({}):\n{stderr}\n{stdout}",
        out.status
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("{script}'s last line is not JSON ({e}): {last}\n{stderr}"))
}

fn judge_binary() -> Option<PathBuf> {
    common::sandboxed(&["judge"]).map(|dir| dir.join("judge"))
}

fn case<'a>(cases: &'a Value, language: &str, name: &str) -> &'a Value {
    cases
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["language"] == language && c["case"] == name)
        .unwrap_or_else(|| panic!("no case {language}/{name}"))
}

#[test]
fn the_sandbox_fusion_client_sees_each_verdict_in_python_cpp_and_java() {
    let Some(python) = python_with("sandbox_fusion") else {
        return;
    };
    let Some(judge) = judge_binary() else { return };
    let server = start_sandbox(&judge, &[]);
    let report = run_script(&python, "sandbox_fusion_cases.py", &[&server.base]);
    let cases = &report["cases"];
    for language in ["python", "cpp", "java"] {
        let seen = |name: &str| case(cases, language, name);
        let context = |name: &str| format!("{language}/{name}: {}", seen(name));
        for name in ["accepted", "wrong", "tle", "ce", "rte", "mle"] {
            assert_eq!(seen(name)["raw_http_status"], 200, "{}", context(name));
            assert!(seen(name)["client_error"].is_null(), "{}", context(name));
        }
        // Accepted and wrong output both run cleanly; the client compares the output.
        for (name, stdout) in [("accepted", "5\n"), ("wrong", "7\n")] {
            assert_eq!(seen(name)["status"], "Success", "{}", context(name));
            assert_eq!(seen(name)["run"]["status"], "Finished", "{}", context(name));
            assert_eq!(seen(name)["run"]["return_code"], 0, "{}", context(name));
            assert_eq!(seen(name)["run"]["stdout"], stdout, "{}", context(name));
        }
        let tle = seen("tle");
        assert_eq!(tle["status"], "Failed", "{}", context("tle"));
        assert_eq!(
            tle["run"]["status"],
            "TimeLimitExceeded",
            "{}",
            context("tle")
        );
        assert!(tle["run"]["return_code"].is_null(), "{}", context("tle"));
        assert_eq!(tle["raw_verdict"], "TLE", "{}", context("tle"));
        let ce = seen("ce");
        assert_eq!(ce["status"], "Failed", "{}", context("ce"));
        if language == "python" {
            // As in SandboxFusion, Python has no compile stage: a syntax error is a run
            // that exits with 1, the message in its standard error.
            assert!(ce["compile"].is_null(), "{}", context("ce"));
            assert_eq!(ce["run"]["return_code"], 1, "{}", context("ce"));
            assert!(
                ce["run"]["stderr"]
                    .as_str()
                    .is_some_and(|s| s.contains("SyntaxError")),
                "{}",
                context("ce")
            );
        } else {
            // The compile stage finished with a non-zero code; nothing ran.
            assert_eq!(ce["compile"]["status"], "Finished", "{}", context("ce"));
            assert_ne!(ce["compile"]["return_code"], 0, "{}", context("ce"));
            assert!(ce["run"].is_null(), "{}", context("ce"));
            assert_eq!(ce["raw_verdict"], "CE", "{}", context("ce"));
        }
        for (name, verdict) in [("rte", "RTE"), ("mle", "MLE")] {
            let it = seen(name);
            assert_eq!(it["status"], "Failed", "{}", context(name));
            assert_eq!(it["run"]["status"], "Finished", "{}", context(name));
            assert_ne!(it["run"]["return_code"], 0, "{}", context(name));
            assert_eq!(it["raw_verdict"], verdict, "{}", context(name));
        }
    }
}

/// Problems of the easy set for verl: `listsum` has 10 tests, the others 11 to 13.
const VERL_PROBLEMS: &[&str] = &["listsum", "aplusb", "acronym", "countvowels"];

#[test]
fn verls_compute_score_equals_evaluate_except_where_its_first_ten_tests_rule_differs() {
    let Some(python) = python_with("verl.utils.reward_score.sandbox_fusion") else {
        return;
    };
    let Some(judge) = judge_binary() else { return };
    let server = start_sandbox(&judge, &[]);
    let easy = easy_dir();
    let mut args = vec![server.base.as_str(), easy.to_str().expect("utf-8 path")];
    args.extend(VERL_PROBLEMS);
    let report = run_script(&python, "verl_cases.py", &args);
    let rows = report["cases"].as_array().expect("cases");
    assert_eq!(rows.len(), VERL_PROBLEMS.len() * 3);
    let mut differing = 0;
    for row in rows {
        let f = |key: &str| {
            row[key]
                .as_f64()
                .unwrap_or_else(|| panic!("{key} in {row}"))
        };
        let n = row["tests"].as_u64().expect("tests");
        // verl's per-test result and the judge's verdict agree test by test.
        let verl: Vec<bool> = row["verl_results"]
            .as_array()
            .expect("verl_results")
            .iter()
            .map(|s| s == "success")
            .collect();
        let judged: Vec<bool> = row["evaluate_verdicts"]
            .as_array()
            .unwrap_or_else(|| panic!("evaluate_verdicts in {row}"))
            .iter()
            .map(|v| v == "AC")
            .collect();
        assert_eq!(verl, judged, "{row}");
        // Over all N tests, verl's score is /v1/evaluate's fraction.
        assert!(
            (f("verl_all") - f("evaluate_fraction")).abs() < 1e-9,
            "{row}"
        );
        // verl's trainer scores only the first min(N, 10) tests: that is /v1/evaluate's
        // fraction over those tests.
        assert!(
            (f("verl_continuous") - f("evaluate_first10_fraction")).abs() < 1e-9,
            "{row}"
        );
        if n <= 10 {
            assert!(
                (f("verl_continuous") - f("evaluate_fraction")).abs() < 1e-9,
                "{row}"
            );
        }
        match row["program"].as_str() {
            Some("accepted") => assert_eq!(f("evaluate_fraction"), 1.0, "{row}"),
            Some("wrong") => assert!(f("evaluate_fraction") < 1.0, "{row}"),
            // Wrong on the last test only: with more than 10 tests verl's trainer never
            // sees it (1.0), the judge counts it ((N-1)/N).
            Some("last_wrong") => {
                let expected = (n - 1) as f64 / n as f64;
                assert!((f("evaluate_fraction") - expected).abs() < 1e-9, "{row}");
                if n > 10 {
                    assert_eq!(f("verl_continuous"), 1.0, "{row}");
                    differing += 1;
                }
            }
            other => panic!("unknown program {other:?}"),
        }
    }
    assert!(
        differing >= 1,
        "no problem with more than 10 tests was tried"
    );
}

#[test]
fn the_judge0_sdk_runs_waits_and_reads_judge0_statuses() {
    let Some(python) = python_with("judge0") else {
        return;
    };
    let Some(judge) = judge_binary() else { return };
    let server = start_sandbox(&judge, &[]);
    let report = run_script(&python, "judge0_cases.py", &[&server.base]);
    let ids: Vec<u64> = report["language_ids"]
        .as_array()
        .expect("ids")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    for id in [50, 54, 62, 71] {
        assert!(ids.contains(&id), "language {id} in {ids:?}");
    }
    assert_eq!(report["about_version"], "1.13.1");
    assert_eq!(report["max_batch"], 20);
    let cases = &report["cases"];
    let status = |name: &str| {
        cases[name]["status_id"]
            .as_u64()
            .unwrap_or_else(|| panic!("{name}: {}", cases[name]))
    };
    for (name, id) in [
        ("accepted_py", 3),
        ("accepted_cpp_54", 3),
        ("accepted_cpp_alias", 3),
        ("wrong_py", 4),
        ("tle_cpp", 5),
        ("ce_cpp", 6),
        ("rte_py", 11),
        ("no_expected_py", 3),
    ] {
        assert_eq!(status(name), id, "{name}: {}", cases[name]);
    }
    // SIGABRT is status 10; Judge0 has no status for an out-of-memory kill: the server
    // gives 12 (Runtime Error (Other)) with the message that says so.
    assert_eq!(status("sigabrt_cpp"), 10, "{}", cases["sigabrt_cpp"]);
    assert_eq!(status("mle_cpp"), 12, "{}", cases["mle_cpp"]);
    assert!(
        cases["mle_cpp"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Memory limit exceeded")),
        "{}",
        cases["mle_cpp"]
    );
    assert_eq!(cases["accepted_py"]["stdout"], "5\n");
    assert_eq!(cases["no_expected_py"]["stdout"], "hello\n");
    assert!(
        cases["ce_cpp"]["compile_output"]
            .as_str()
            .is_some_and(|s| s.contains("undeclared")),
        "{}",
        cases["ce_cpp"]
    );
    // `time` in seconds (a float well under the 1 s limit's order), `memory` in KB.
    let time = cases["accepted_py"]["time"].as_f64().expect("time");
    assert!(time > 0.0 && time < 5.0, "{}", cases["accepted_py"]);
    let memory = cases["accepted_py"]["memory"].as_u64().expect("memory");
    assert!(memory > 100 && memory < 512_000, "{}", cases["accepted_py"]);
    let batch = cases["batch"]
        .as_array()
        .unwrap_or_else(|| panic!("{cases}"));
    let ids: Vec<&Value> = batch.iter().map(|s| &s["status_id"]).collect();
    assert_eq!(ids, [3, 3, 4], "{}", cases["batch"]);
    assert_eq!(
        cases["async_wait"]["status_id"], 3,
        "{}",
        cases["async_wait"]
    );
    assert_eq!(cases["async_wait"]["stdout"], "42\n");
}

/// Easy training problems for the GRPO run.
const TRL_PROBLEMS: &[&str] = &["aplusb", "listsum"];

#[test]
fn a_trl_grpo_run_logs_the_judges_verdicts_as_its_rewards() {
    let Some(python) = python_with("trl") else {
        return;
    };
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(judge) = judge_binary() else { return };
    let server = start_sandbox(&judge, &[]);
    let out = tempfile::tempdir().expect("tempdir");
    let easy = easy_dir();
    let mut args = vec![
        server.base.as_str(),
        model.to_str().expect("utf-8"),
        easy.to_str().expect("utf-8"),
        out.path().to_str().expect("utf-8"),
    ];
    args.extend(TRL_PROBLEMS);
    let report = run_script(&python, "trl_grpo.py", &args);
    assert!(
        report["global_step"].as_u64() >= Some(2),
        "{}",
        report["global_step"]
    );
    let calls = report["calls"].as_array().expect("calls");
    let again = report["evaluated_again"].as_array().expect("again");
    assert!(calls.len() >= 8, "two steps of four completions: {calls:?}");
    // Each reward the function returned is the judge's fraction for that completion.
    for (call, judged) in calls.iter().zip(again) {
        assert!(
            !call["reward"].is_null(),
            "an infrastructure failure: {call}"
        );
        assert_eq!(&call["reward"], judged, "{call}");
    }
    // TRL's logged mean reward of each step is the mean of the judge's rewards.
    let logged: Vec<f64> = report["log_history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|e| e["rewards/judge_reward/mean"].as_f64())
        .collect();
    assert!(logged.len() >= 2, "{}", report["log_history"]);
    for (step, mean) in logged.iter().enumerate() {
        let rewards: Vec<f64> = calls
            .iter()
            .filter(|c| c["step"].as_u64() == Some(step as u64))
            .filter_map(|c| c["reward"].as_f64())
            .collect();
        assert!(!rewards.is_empty(), "no rewards recorded at step {step}");
        let expected = rewards.iter().sum::<f64>() / rewards.len() as f64;
        assert!(
            (mean - expected).abs() < 1e-5,
            "step {step}: {mean} vs {rewards:?}"
        );
    }
}

/// nginx in the foreground with its own prefix, configuration, pid and logs in `dir`,
/// killed when dropped.
struct Nginx(Child);

impl Drop for Nginx {
    /// A fast shutdown (SIGTERM): the master stops its workers, which a SIGKILL of the
    /// master would leave running.
    fn drop(&mut self) {
        let terminated = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if !terminated {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

const NGINX: &str = "/usr/sbin/nginx";

/// A port that was free a moment ago (nginx cannot report a port 0 it bound).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn start_nginx(dir: &Path, port: u16, upstreams: &[&str]) -> Nginx {
    let servers: String = upstreams
        .iter()
        .map(|u| {
            format!(
                "    server {} max_fails=1 fail_timeout=30s;\n",
                u.trim_start_matches("http://")
            )
        })
        .collect();
    // Judging is free of side effects, so a request whose instance failed may be sent to
    // the next one (non_idempotent), as may one that met a full queue (http_503).
    let conf = format!(
        "daemon off;\nuser root;\nworker_processes 1;\npid {dir}/nginx.pid;\nerror_log {dir}/error.log info;\n\
         events {{ worker_connections 1024; }}\n\
         http {{\n  access_log {dir}/access.log;\n  client_body_temp_path {dir}/body;\n\
         proxy_temp_path {dir}/proxy;\n  fastcgi_temp_path {dir}/fastcgi;\n  uwsgi_temp_path {dir}/uwsgi;\n\
         scgi_temp_path {dir}/scgi;\n  client_max_body_size 64m;\n\
         upstream judges {{\n{servers}    keepalive 32;\n  }}\n\
         server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      proxy_pass http://judges;\n\
         proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n      proxy_read_timeout 300s;\n\
         proxy_next_upstream error timeout http_502 http_503 non_idempotent;\n\
         proxy_next_upstream_tries 2;\n    }}\n  }}\n}}\n",
        dir = dir.display()
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).expect("nginx.conf");
    let mut child = Command::new(NGINX)
        .arg("-p")
        .arg(dir)
        .arg("-e")
        .arg(dir.join("startup.log"))
        .arg("-c")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    // nginx says nothing when it is up: wait until its port answers, or it exits.
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Nginx(child);
        }
        if let Ok(Some(status)) = child.try_wait() {
            let log = std::fs::read_to_string(dir.join("startup.log")).unwrap_or_default();
            panic!("nginx exited ({status}): {log}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("nginx does not answer on port {port}");
}

/// The sum of the Prometheus samples of `metric` (every label set).
fn metric_sum(text: &str, metric: &str) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            l.strip_prefix(metric)
                .is_some_and(|rest| rest.starts_with([' ', '{']))
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// The counter of programs judged in `/metrics`.
const PROGRAMS_METRIC: &str = "judge_sandbox_programs_judged_total";

#[test]
fn nginx_spreads_requests_over_two_instances_and_loses_none_when_one_is_killed() {
    let nginx_missing = (!Path::new(NGINX).is_file()).then_some("not installed (ci/setup clients)");
    if !ci::require::present("nginx", nginx_missing) {
        return;
    }
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    let Some(judge) = judge_binary() else { return };
    let a = start_sandbox(&judge, &[]);
    let b = start_sandbox(&judge, &[]);
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let _nginx = start_nginx(dir.path(), port, &[&a.base, &b.base]);
    let front = format!("http://127.0.0.1:{port}");
    let b_pid = b.child.id().to_string();
    const SENT: usize = 160;
    let report = run_script(
        &python,
        "nginx_load.py",
        &[
            &front,
            &a.base,
            &b.base,
            &b_pid,
            &SENT.to_string(),
            "16",
            "40",
        ],
    );
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    // Every request has exactly one outcome that its client saw.
    assert_eq!(outcomes.len(), SENT);
    let mut answered = 0;
    let mut failed = Vec::new();
    for o in outcomes {
        if o["http"] == 200 {
            answered += 1;
            assert_eq!(o["correct"], true, "a wrong verdict: {o}");
        } else {
            assert!(
                o["error"].is_string() || o["http"].as_u64().is_some_and(|s| s >= 500),
                "{o}"
            );
            failed.push(o.clone());
        }
    }
    eprintln!(
        "{answered} of {SENT} answered, {} failed where their client saw it; \
         programs judged before the kill: a {}, b {}",
        failed.len(),
        metric_sum(
            report["metrics_before_kill"]["a"].as_str().unwrap_or(""),
            PROGRAMS_METRIC
        ),
        metric_sum(
            report["metrics_before_kill"]["b"].as_str().unwrap_or(""),
            PROGRAMS_METRIC
        ),
    );
    // nginx sent the requests that met the killed instance to the other one.
    assert!(
        failed.len() <= 2,
        "{} requests failed: {failed:?}",
        failed.len()
    );
    assert!(answered >= SENT - 2);
    let after_kill = outcomes
        .iter()
        .filter(|o| o["after_kill"] == true && o["http"] == 200)
        .count();
    assert!(after_kill > 50, "{after_kill} answered after the kill");
    // Both instances judged before the kill; the survivor judged the rest.
    let before = &report["metrics_before_kill"];
    let a_before = metric_sum(before["a"].as_str().expect("a's metrics"), PROGRAMS_METRIC);
    let b_before = metric_sum(before["b"].as_str().expect("b's metrics"), PROGRAMS_METRIC);
    assert!(a_before > 0.0 && b_before > 0.0, "{a_before} {b_before}");
    let a_after = metric_sum(
        report["metrics_a_after"].as_str().expect("metrics"),
        PROGRAMS_METRIC,
    );
    assert!(
        a_after + b_before >= answered as f64,
        "{a_after} + {b_before} < {answered}"
    );
    drop(a);
}
