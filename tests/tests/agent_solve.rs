//! `agent solve` end to end: the real `agent` binary on the bundled `sum` package with
//! the real sandbox (bubblewrap), against
//! - the real `trainer serve` with SmolLM2 (short pipeline, small replies): the model is
//!   tiny and rarely solves anything, so this asserts the mechanics and the records
//!   (manifest, every stage of the pipeline recorded, real sandbox results, token ids
//!   and logprobs in the replies, `agent report`), not the score;
//! - a scripted OpenAI-compatible stand-in (`common::stand_in`, a small HTTP server in
//!   this test) that answers with the package's own reference solution, `sum.py`: a solving "model",
//!   so the solved path is checked (AC on every hidden test) and starting the run again
//!   skips the finished problem; with the test's own generator and brute force when
//!   asked for them, the full pipeline's stress testing through the package's input
//!   validator; and a copy of `sum` without samples;
//! - a model server that is not there (a clear error, exit 2).
//!
//! The binaries are the ones `cargo test --workspace` builds beside this test's folder
//! (`target/<profile>/agent`, `trainer`). Under `CI=true` a missing binary, model or
//! bubblewrap fails the test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

mod common;
use common::{STAND_IN, binary, bubblewrap};

fn sum_package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum")
}

fn solve(agent: &Path, base: &str, model: &str, out: &Path, extra: &[&str]) -> Output {
    let out = Command::new(agent)
        .args(["solve", "--problem"])
        .arg(sum_package())
        .args(["--model-url", base, "--model-name", model, "--out"])
        .arg(out)
        .args(["--backend", "bwrap", "--seed", "7"])
        .args(extra)
        .output()
        .expect("agent runs");
    assert!(
        out.status.success(),
        "agent solve failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Every line of a trajectory file, parsed.
fn lines(out: &Path, problem: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("trajectories").join(format!("{problem}.jsonl")))
        .expect("a trajectory file");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn steps(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|l| l["type"] == "step").collect()
}

fn report(agent: &Path, out: &Path, args: &[&str]) -> String {
    let res = Command::new(agent)
        .arg("report")
        .arg(out)
        .args(args)
        .output()
        .expect("agent report runs");
    assert!(res.status.success(), "{res:?}");
    String::from_utf8(res.stdout).expect("utf-8")
}

#[test]
fn solve_against_trainer_serve_records_every_stage() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let (Some(agent), Some(trainer)) = (binary("agent"), binary("trainer")) else {
        return;
    };
    if !bubblewrap() {
        return;
    }
    let server = common::start_trainer(&trainer, &model);
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("run");
    solve(
        &agent,
        &server.base,
        "SmolLM2-135M-Instruct",
        &out,
        &[
            "--pipeline",
            "short",
            "--language",
            "python3",
            "--max-tokens",
            "96",
            // Two model calls in all keep the test short; the program in hand is still
            // submitted when they are spent.
            "--run-model-calls",
            "2",
        ],
    );

    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    assert_eq!(manifest["model"]["name"], "SmolLM2-135M-Instruct");
    assert_eq!(manifest["pipeline"]["name"], "short");
    assert_eq!(manifest["pipeline"]["sampling"]["max_tokens"], 96);
    assert_eq!(manifest["seed"], 7);
    assert_eq!(manifest["backend"], "bwrap");
    assert_eq!(manifest["problems"][0]["id"], "sum");
    assert!(
        !manifest.to_string().contains("sk-"),
        "no key in the manifest"
    );

    let lines = lines(&out, "sum");
    let steps = steps(&lines);
    let last = lines.last().expect("lines");
    assert_eq!(last["type"], "outcome", "the outcome is the last line");
    assert_eq!(last["steps"].as_u64(), Some(steps.len() as u64));
    // Every stage of the short pipeline is recorded.
    for stage in ["code", "check", "submit"] {
        assert!(
            steps.iter().any(|s| s["stage"] == stage),
            "no {stage} step in {:#?}",
            steps
                .iter()
                .map(|s| (&s["stage"], &s["action"], &s["note"]))
                .collect::<Vec<_>>()
        );
    }
    // Model calls carry the server's token ids and logprobs.
    let calls: Vec<&Value> = steps.iter().filter_map(|s| s.get("call")).collect();
    assert!(
        (1..=2).contains(&calls.len()),
        "the run's budget of 2 model calls holds: {}",
        calls.len()
    );
    assert_eq!(manifest["run_budget"]["model_calls"], 2);
    for call in &calls {
        let reply = &call["reply"];
        let tokens = reply["completions"][0]["tokens"]
            .as_array()
            .expect("tokens");
        assert!(!tokens.is_empty() && tokens.len() <= 96);
        assert!(
            tokens
                .iter()
                .all(|t| t["id"].is_u64() && t["logprob"].as_f64().is_some_and(|l| l <= 0.0))
        );
        assert!(
            reply["usage"]["completion_tokens"]
                .as_u64()
                .is_some_and(|n| n as usize == tokens.len())
        );
        assert_eq!(
            call["sampling"]["max_tokens"].as_u64().map(|n| n <= 96),
            Some(true)
        );
    }
    // Real sandbox results: a check that compiled the extracted program and ran tests.
    let ran: Vec<&&Value> = steps
        .iter()
        .filter(|s| s["stage"] == "check" && s["action"] == "run")
        .collect();
    assert!(!ran.is_empty(), "no check run: {steps:#?}");
    for step in &ran {
        let compiled = step["signals"]["compiled"]
            .as_bool()
            .expect("compiled signal");
        if compiled {
            let tests = step["tests"].as_array().expect("test results");
            assert_eq!(tests.len(), 2, "both samples ran: {step:#}");
            for t in tests {
                assert_eq!(t["kind"], "case");
                assert!(t["verdict"].is_string() && t["cpu_ms"].is_number());
            }
            assert_eq!(step["signals"]["samples"]["total"], 2);
        } else {
            assert!(step["compile_log"].is_string());
        }
        let timing = &step["timing"];
        assert!(
            timing["judge_ms"].as_f64().is_some_and(|ms| ms > 0.0),
            "{timing}"
        );
    }
    // A submission got a verdict from the local judge, or the record says why not.
    let submit = steps
        .iter()
        .find(|s| s["stage"] == "submit")
        .expect("submit");
    match submit["action"].as_str() {
        Some("submit") => {
            assert!(submit["signals"]["verdict"].is_string());
            assert_eq!(submit["signals"]["hidden"]["total"], 7);
        }
        Some("skip") => assert!(submit["note"].is_string()),
        other => panic!("{other:?}"),
    }

    // The report reads the run.
    let text = report(&agent, &out, &[]);
    assert!(text.contains("per stage:"), "{text}");
    assert!(text.contains("sum"), "{text}");
    let json: Value = serde_json::from_str(&report(&agent, &out, &["--json"])).expect("json");
    assert_eq!(json["problems"], 1);
    assert_eq!(json["finished"], 1);
    assert!(
        json["stages"]["code"]["timing"]["model_ms"]
            .as_f64()
            .is_some_and(|ms| ms > 0.0)
    );
    let one = report(&agent, &out, &["--problem", "sum"]);
    assert!(one.contains("code/ask"), "{one}");
}

/// A stand-in model server (see `common::stand_in`) whose reply is `answer(the
/// request's last message)`.
fn stand_in(answer: fn(&str) -> String) -> String {
    common::stand_in(move |messages| answer(messages.last().copied().unwrap_or_default()))
}

/// The package's reference solution, `sum.py`, in a Python block.
fn reference_reply() -> String {
    let reference = std::fs::read_to_string(sum_package().join("submissions/accepted/sum.py"))
        .expect("the reference solution");
    format!("Here is the program:\n```python\n{reference}```\n")
}

/// A generator for sum written for this test: small inputs, or the largest with `max`.
const GENERATOR: &str = "Generator:\n```python\nimport random, sys\nrandom.seed(int(sys.argv[1]))\nif len(sys.argv) > 2 and sys.argv[2] == 'max':\n    n = 200000\n    print(n)\n    print(' '.join(['1000000000'] * n))\nelse:\n    n = random.randint(1, 5)\n    print(n)\n    print(' '.join(str(random.randint(-10, 10)) for _ in range(n)))\n```\n";

/// A brute force for sum written for this test: one number at a time.
const BRUTE: &str = "Brute force:\n```python\nimport sys\nwords = sys.stdin.read().split()\ntotal = 0\nfor i in range(int(words[0])):\n    total = total + int(words[1 + i])\nprint(total)\n```\n";

/// Answers each stage of the full pipeline: words for the restatement and approaches,
/// this test's generator and brute force when asked for them, and the reference
/// solution when asked for the program.
fn full_pipeline_reply(last: &str) -> String {
    if last.contains("prints one random valid input") {
        GENERATOR.to_owned()
    } else if last.contains("brute-force solution") {
        BRUTE.to_owned()
    } else if last.contains("Write the complete solution") {
        reference_reply()
    } else {
        "Add the n numbers in one pass with 64-bit integers: O(n).".to_owned()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_full_pipeline_with_a_scripted_stand_in_stress_tests_in_the_sandbox() {
    let Some(agent) = binary("agent") else { return };
    if !bubblewrap() {
        return;
    }
    let base = stand_in(full_pipeline_reply);
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("run");
    let done = tokio::task::spawn_blocking({
        let out = out.clone();
        move || solve(&agent, &base, STAND_IN, &out, &["--pipeline", "full"])
    })
    .await
    .expect("joins");
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(stdout.contains("solved: 1"), "{stdout}");
    let lines = lines(&out, "sum");
    let steps = steps(&lines);
    let actions: Vec<String> = steps
        .iter()
        .map(|s| {
            format!(
                "{}:{}",
                s["stage"].as_str().unwrap_or(""),
                s["action"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        actions,
        [
            "restate:ask",
            "approaches:ask",
            "code:ask",
            "tests:generator",
            "tests:brute",
            "tests:generate",
            "check:run",
            "submit:submit"
        ]
    );
    // The brute force passes both samples, so its answers are trusted.
    assert_eq!(
        steps[4]["signals"]["brute_samples"],
        json!({"passed": 2, "total": 2})
    );
    // 20 small inputs and 2 maximum-size ones, all accepted by the package's validator.
    assert_eq!(
        steps[5]["signals"]["valid_inputs"],
        json!({"passed": 22, "total": 22})
    );
    let check = &steps[6]["signals"];
    assert_eq!(check["samples"], json!({"passed": 2, "total": 2}));
    assert_eq!(check["own_tests"], json!({"passed": 20, "total": 20}));
    assert_eq!(check["stress"], check["own_tests"]);
    assert_eq!(check["max_inputs"], json!({"passed": 2, "total": 2}));
    assert_eq!(steps[7]["signals"]["verdict"], "AC");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stand_in_answering_with_the_reference_solution_solves_sum() {
    let Some(agent) = binary("agent") else { return };
    if !bubblewrap() {
        return;
    }
    let base = stand_in(|_| reference_reply());
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("run");
    let run = |out: PathBuf, base: String, agent: PathBuf| {
        tokio::task::spawn_blocking(move || {
            solve(
                &agent,
                &base,
                STAND_IN,
                &out,
                &["--pipeline", "short", "--language", "python3"],
            )
        })
    };
    let first = run(out.clone(), base.clone(), agent.clone())
        .await
        .expect("joins");
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("solved: 1"), "{stdout}");

    let lines = lines(&out, "sum");
    let steps = steps(&lines);
    let actions: Vec<String> = steps
        .iter()
        .map(|s| {
            format!(
                "{}:{}",
                s["stage"].as_str().unwrap_or(""),
                s["action"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(actions, ["code:ask", "check:run", "submit:submit"]);
    assert_eq!(steps[0]["extraction"]["rule"], "tagged");
    assert_eq!(
        steps[1]["signals"]["samples"],
        json!({"passed": 2, "total": 2})
    );
    assert_eq!(steps[2]["signals"]["verdict"], "AC");
    assert_eq!(
        steps[2]["signals"]["hidden"],
        json!({"passed": 7, "total": 7})
    );
    let outcome = lines.last().expect("outcome");
    assert_eq!(outcome["solved"], true);
    assert_eq!(outcome["end"]["kind"], "solved");
    assert_eq!(outcome["usage"]["prompt_tokens"], 100);

    // Started again with the same folder: the finished problem is skipped, nothing added.
    let second = run(out.clone(), base, agent.clone()).await.expect("joins");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("sum finished in an earlier start of this run (solved): skipped"),
        "{stderr}"
    );
    assert_eq!(self::lines(&out, "sum").len(), lines.len());
}

/// Copy a folder tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_problem_without_samples_is_said_and_solved_all_the_same() {
    let Some(agent) = binary("agent") else { return };
    if !bubblewrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let package = tmp.path().join("sum");
    copy_tree(&sum_package(), &package);
    std::fs::remove_dir_all(package.join("data/sample")).expect("no samples");
    let base = stand_in(|_| reference_reply());
    let out = tmp.path().join("run");
    let done = tokio::task::spawn_blocking({
        let out = out.clone();
        move || {
            Command::new(&agent)
                .args(["solve", "--problem"])
                .arg(&package)
                .args(["--model-url", &base, "--model-name", STAND_IN, "--out"])
                .arg(&out)
                .args(["--backend", "bwrap", "--pipeline", "short"])
                .output()
                .expect("agent runs")
        }
    })
    .await
    .expect("joins");
    assert!(done.status.success(), "{done:?}");
    let lines = lines(&out, "sum");
    let steps = steps(&lines);
    assert_eq!(steps[0]["action"], "skip");
    assert!(
        steps[0]["note"]
            .as_str()
            .is_some_and(|n| n.contains("no samples")),
        "{:#}",
        steps[0]
    );
    let asked = steps[1]["call"]["messages"][1]["content"]
        .as_str()
        .expect("prompt");
    assert!(
        asked.contains("This problem has no sample tests."),
        "{asked}"
    );
    let check = steps.iter().find(|s| s["stage"] == "check").expect("check");
    assert_eq!(
        check["signals"]["samples"],
        json!({"passed": 0, "total": 0})
    );
    let outcome = lines.last().expect("outcome");
    assert_eq!(outcome["solved"], true, "{outcome:#}");
    assert_eq!(outcome["hidden"], json!({"passed": 5, "total": 5}));
}

#[test]
fn an_unreachable_model_server_is_a_clear_error() {
    let Some(agent) = binary("agent") else { return };
    // A port nobody listens on: bind one and drop it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = Command::new(agent)
        .args(["solve", "--problem"])
        .arg(sum_package())
        .args([
            "--model-url",
            &format!("http://127.0.0.1:{port}"),
            "--model-name",
            "m",
            "--out",
        ])
        .arg(tmp.path().join("run"))
        .output()
        .expect("agent runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("does not answer its health check"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
