//! `trainer train` with hindsight self-distillation (`algorithm: hindsight`, the
//! `distill:` block) on a tiny random model with SmolLM2's tokenizer (`ARENA_MODEL_DIR`)
//! and the bubblewrap sandbox, one step on `sum`:
//!
//! - the tiny model's replies hold no program, so every reward is 0 and the group is
//!   uniform; its update still runs (the teacher's signal does not need the rewards to
//!   vary), and the teacher, who reads `sum`'s reference solution, differs from the
//!   student: the reported reverse KL is not zero;
//! - `algorithm: agentic` with a `distill` block trains too, with the KL reported;
//! - with `teacher_url`, a second `trainer serve` (the same tiny model) is the teacher:
//!   the step runs and reports a reverse KL;
//! - bad input is refused before anything trains, naming it: an unknown `distill`
//!   option, a training problem without a reference solution when the context asks for
//!   one, a `distill` block on the warm start, a teacher URL whose answers have no
//!   log-probabilities or another tokenizer's tokens (a stand-in server here).
//!
//! Under `CI=true` a missing model or bubblewrap fails the test.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A one-layer random model with SmolLM2's tokenizer, written under `dir`.
fn tiny(base: &Path, dir: &Path) -> PathBuf {
    let tiny = dir.join("tiny");
    support::tiny_model(base, &tiny, 7, 4096);
    tiny
}

fn train(problems: &Path, model: &Path, out: &Path, config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .arg("train")
        .arg("--problems")
        .arg(problems)
        .arg("--model")
        .arg(model)
        .arg("--out")
        .arg(out)
        .arg("--config")
        .arg(config)
        .output()
        .expect("trainer runs")
}

fn sum() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum")
}

/// The easy set's pipeline (language python3), relative to the test's working folder.
const CONFIG: &str = "algorithm: hindsight\npipeline: ../problems/easy/pipeline.yaml\n\
    group_size: 2\nproblems_per_step: 1\nsteps: 1\nmax_tokens: 16\nmodel_calls: 1\n";

#[test]
fn a_hindsight_step_updates_a_uniform_group_with_the_teacher_signal() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let model = tiny(&base, tmp.path());
    let config = tmp.path().join("hindsight.yaml");
    std::fs::write(&config, CONFIG).expect("config");
    let out = tmp.path().join("run");
    let res = train(&sum(), &model, &out, &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{stderr}");
    let text = std::fs::read_to_string(out.join("metrics.jsonl")).expect("metrics");
    let m: serde_json::Value = serde_json::from_str(text.trim()).expect("one line");
    assert_eq!(m["final_reward"], 0.0, "{m}");
    assert_eq!(m["updates"], 1, "{m}");
    assert_eq!(m["updates_skipped"], 0, "{m}");
    let kl = m["distill_kl"].as_f64().expect("distill_kl");
    assert!(kl.is_finite() && kl != 0.0, "{m}");
    // Agentic GRPO carries the block too (the KL joins each turn's provisional update).
    std::fs::write(
        &config,
        CONFIG.replace("algorithm: hindsight", "algorithm: agentic") + "distill: {weight: 0.5}\n",
    )
    .expect("config");
    let out = tmp.path().join("agentic");
    let res = train(&sum(), &model, &out, &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{stderr}");
    let text = std::fs::read_to_string(out.join("metrics.jsonl")).expect("metrics");
    let m: serde_json::Value = serde_json::from_str(text.trim()).expect("one line");
    assert_eq!(m["updates_skipped"], 0, "{m}");
    assert!(m["updates"].as_u64().expect("updates") >= 1, "{m}");
    let kl = m["distill_kl"].as_f64().expect("distill_kl");
    assert!(kl.is_finite() && kl != 0.0, "{m}");
}

#[test]
fn bad_input_is_refused_before_anything_trains() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let model = tiny(&base, tmp.path());
    let config = tmp.path().join("bad.yaml");
    let refused = |name: &str, text: &str, problems: &Path| -> String {
        std::fs::write(&config, text).expect("config");
        let out = tmp.path().join(name);
        let res = train(problems, &model, &out, &config);
        let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
        assert!(!res.status.success(), "{name}: {stderr}");
        assert!(
            !out.join("latest").exists(),
            "{name}: a checkpoint was written"
        );
        stderr
    };
    let err = refused(
        "unknown",
        &format!("{CONFIG}distill:\n  tempreature: 2.0\n"),
        &sum(),
    );
    assert!(err.contains("tempreature"), "{err}");
    let err = refused(
        "sft",
        "algorithm: sft\npipeline: ../problems/easy/pipeline.yaml\ndistill: {weight: 0.5}\n",
        &sum(),
    );
    assert!(err.contains("training config distill:"), "{err}");
    // `sum` without its Python solution: the teacher has no reference to read.
    let folder = tmp.path().join("problems/sum");
    copy_dir(&sum(), &folder);
    std::fs::remove_file(folder.join("submissions/accepted/sum.py")).expect("rm");
    let err = refused("no-reference", CONFIG, &folder);
    assert!(
        err.contains(
            "distill.context reference: problem sum: no accepted reference solution in python3"
        ),
        "{err}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// A `trainer serve` of `model` on a free port, stopped when dropped.
struct Served {
    child: Child,
    base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(model: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["serve", "--listen", "127.0.0.1:0", "--model"])
        .arg(model)
        .stdout(Stdio::piped())
        .spawn()
        .expect("trainer serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .expect("the bound address")
        .to_owned();
    Served { child, base }
}

#[test]
fn a_teacher_at_another_trainer_serve_scores_the_student_tokens() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let model = tiny(&base, tmp.path());
    let teacher = serve(&model);
    let config = tmp.path().join("remote.yaml");
    std::fs::write(
        &config,
        format!(
            "{CONFIG}distill:\n  teacher_url: {}/v1\n  context: [compile_error, failing_sample, verdict, reference]\n",
            teacher.base
        ),
    )
    .expect("config");
    let out = tmp.path().join("run");
    let res = train(&sum(), &model, &out, &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{stderr}");
    let text = std::fs::read_to_string(out.join("metrics.jsonl")).expect("metrics");
    let m: serde_json::Value = serde_json::from_str(text.trim()).expect("one line");
    assert_eq!(m["updates"], 1, "{m}");
    let kl = m["distill_kl"].as_f64().expect("distill_kl");
    assert!(kl.is_finite() && kl != 0.0, "{m}");
}

/// A stand-in teacher that answers every request with `answer(prompt ids)`.
fn stand_in(answer: fn(&[i64]) -> serde_json::Value) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let ids: Vec<i64> = request["prompt"]
                .as_array()
                .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
                .unwrap_or_default();
            let text = answer(&ids).to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
        }
    });
    format!("http://{addr}/v1")
}

#[test]
fn a_teacher_without_logprobs_or_with_another_tokenizer_is_refused_before_training() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let model = tiny(&base, tmp.path());
    let config = tmp.path().join("remote.yaml");
    let refused = |name: &str, url: &str| -> String {
        std::fs::write(&config, format!("{CONFIG}distill:\n  teacher_url: {url}\n"))
            .expect("config");
        let out = tmp.path().join(name);
        let res = train(&sum(), &model, &out, &config);
        let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
        assert!(!res.status.success(), "{name}: {stderr}");
        assert!(
            !out.join("latest").exists(),
            "{name}: a checkpoint was written"
        );
        assert!(
            stderr.contains(&format!("distill.teacher_url {url}")),
            "{name}: {stderr}"
        );
        stderr
    };
    let url = stand_in(|_| serde_json::json!({"choices": [{"index": 0, "text": "x"}]}));
    let err = refused("no-logprobs", &url);
    assert!(err.contains("no log-probabilities"), "{err}");
    // The right number of tokens with log-probabilities, but other tokens' texts.
    let url = stand_in(|ids| {
        let tokens: Vec<String> = ids.iter().map(|id| format!("<{id}>")).collect();
        let mut logprobs = vec![serde_json::Value::Null];
        logprobs.extend(ids.iter().skip(1).map(|_| serde_json::json!(-1.0)));
        serde_json::json!({"choices": [{"index": 0, "text": tokens.concat(),
            "logprobs": {"tokens": tokens, "token_logprobs": logprobs}}]})
    });
    let err = refused("other-tokenizer", &url);
    assert!(
        err.contains("the teacher's tokenizer is not the student's"),
        "{err}"
    );
    // Nothing listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    refused("nobody", &format!("http://127.0.0.1:{port}/v1"));
}
