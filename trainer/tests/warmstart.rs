//! The supervised warm start (`algorithm: sft`) end to end on the real SmolLM2
//! (`ARENA_MODEL_DIR`) and the easy set's split:
//!
//! - three training problems, one held aside: a few updates over two epochs lower the
//!   training loss on the same examples, and the validation loss is logged;
//! - what was fed (`sft-data.jsonl`) is the agent's own code request and a fenced
//!   reference solution, and holds no held-out statement or solution, nor a
//!   near-duplicate of one (checked here on the file, not on the trainer's word);
//! - the checkpoint is a Hugging Face folder that transformers loads and that gives the
//!   trainer's log-probabilities;
//! - bad input is refused before anything trains: a held-out training problem, a
//!   pipeline language without reference solutions.
//!
//! Under `CI=true` a missing model or venv fails the test.

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{easy, lines, logprob_gap_to_transformers, train};
use trainer::train::leak;

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

const CONFIG: &str = "algorithm: sft\npipeline: ../problems/easy/pipeline.yaml\nseed: 3\n\
    lr: 5.0e-5\nwarmup_steps: 0\nmax_grad_norm: 1.0\ncheckpoint_every: 100\n\
    training_problems: [aplusb, listsum, reverse]\n\
    sft: {epochs: 3, batch_tokens: 1, held_aside: 1, validate_every: 0}\n";

#[test]
fn the_warm_start_learns_the_reference_solutions_and_feeds_nothing_held_out() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("sft.yaml");
    // The pipeline path is relative to the test's working folder (the crate).
    std::fs::write(&config, CONFIG).expect("config");
    let out = tmp.path().join("run");
    let res = train(&model, &out, &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "trainer train failed: {stderr}");
    assert!(stderr.contains("leak check:"), "{stderr}");

    // Two examples trained (one problem held aside), one per update: 3 epochs, 6 updates.
    let data = lines(&out.join("sft-data.jsonl"));
    let train_rows: Vec<&Value> = data.iter().filter(|d| d["set"] == "train").collect();
    let aside: Vec<&Value> = data.iter().filter(|d| d["set"] == "validation").collect();
    assert_eq!(train_rows.len(), 2, "{data:?}");
    assert_eq!(aside.len(), 1);
    for d in &data {
        let prompt = d["prompt"].as_str().expect("prompt");
        let target = d["target"].as_str().expect("target");
        let name = d["problem"].as_str().expect("problem");
        let statement = std::fs::read_to_string(easy().join(name).join("statement/problem.en.md"))
            .expect("statement");
        let first = statement.lines().next().expect("a first line");
        assert!(prompt.contains(first), "{name}'s statement: {prompt}");
        assert!(prompt.contains("Problem: negatives"), "the worked example");
        assert!(prompt.trim_end().ends_with("assistant"), "{prompt}");
        assert!(
            target.starts_with("```python\n") && target.ends_with("```"),
            "{target}"
        );
        let source =
            std::fs::read_to_string(d["source"].as_str().expect("source")).expect("source");
        assert!(
            target.contains(source.trim_end()),
            "the reference solution itself"
        );
    }
    let metrics = lines(&out.join("metrics.jsonl"));
    let updates: Vec<&Value> = metrics
        .iter()
        .filter(|m| m["step"].as_u64() > Some(0))
        .collect();
    assert_eq!(updates.len(), 6, "{metrics:?}");
    let loss = |epoch: u64| -> f64 {
        updates
            .iter()
            .filter(|m| m["epoch"].as_u64() == Some(epoch))
            .map(|m| m["loss"].as_f64().expect("loss"))
            .sum::<f64>()
    };
    assert!(
        loss(3) < loss(1),
        "the loss on the same examples falls: epoch 1 {} epoch 3 {}",
        loss(1),
        loss(3)
    );
    let val: Vec<f64> = metrics
        .iter()
        .filter_map(|m| m["val_loss"].as_f64())
        .collect();
    assert_eq!(
        val.len(),
        2,
        "before the first and after the last update: {metrics:?}"
    );
    assert!(val.iter().all(|v| v.is_finite() && *v > 0.0), "{val:?}");

    // Nothing held out was fed: no held-out problem's name, statement or solution, nor a
    // near-duplicate of one, in any prompt or target.
    let split = problems::easy::split().expect("split");
    // What the problems of a family share (the template, read from every package's
    // statement and solutions) is not a leak; what makes a held-out text that problem is.
    let mut texts: Vec<(String, String)> = Vec::new();
    for entry in split.training.iter().chain(&split.held_out) {
        let dir = easy().join(&entry.name);
        texts.push((
            entry.name.clone(),
            std::fs::read_to_string(dir.join("statement/problem.en.md")).expect("statement"),
        ));
        for f in std::fs::read_dir(dir.join("submissions/accepted")).expect("accepted") {
            let text = std::fs::read_to_string(f.expect("entry").path()).expect("solution");
            texts.push((entry.name.clone(), text));
        }
    }
    let template = leak::Template::of(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let mut fed = leak::Corpus::default();
    let all_text: String = data
        .iter()
        .map(|d| {
            format!(
                "{}\n{}\n",
                d["prompt"].as_str().unwrap_or(""),
                d["target"].as_str().unwrap_or("")
            )
        })
        .collect();
    fed.add(&all_text);
    for entry in &split.held_out {
        let dir = easy().join(&entry.name);
        assert!(
            data.iter().all(|d| d["problem"] != entry.name.as_str()),
            "{} was fed",
            entry.name
        );
        let statement =
            std::fs::read_to_string(dir.join("statement/problem.en.md")).expect("statement");
        let o = fed.overlap_beyond(&template, &statement);
        assert!(
            o <= leak::THRESHOLD,
            "{}'s statement: overlap {o}",
            entry.name
        );
        for f in std::fs::read_dir(dir.join("submissions/accepted")).expect("accepted") {
            let path = f.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("solution");
            let o = fed.overlap_beyond(&template, &text);
            assert!(o <= leak::THRESHOLD, "{}: overlap {o}", path.display());
        }
    }

    // The checkpoint: transformers loads it, with the trainer's log-probabilities.
    let ckpt = out.join("checkpoints/step-000006");
    assert!(
        ckpt.join("model.safetensors").is_file(),
        "{}",
        ckpt.display()
    );
    let diff = logprob_gap_to_transformers(&python, &ckpt);
    assert!(diff < 1e-3, "transformers and the trainer differ by {diff}");
}

#[test]
fn bad_input_is_refused_before_anything_trains() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("sft.yaml");
    // A held-out problem named for training.
    std::fs::write(&config, CONFIG.replace("reverse]", "gcd]")).expect("config");
    let res = train(&model, &tmp.path().join("a"), &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(!res.status.success());
    assert!(stderr.contains("\"gcd\" is a held-out problem"), "{stderr}");
    // A training problem without an accepted solution in the pipeline's language: a
    // folder of one package whose Python solution is gone.
    let folder = tmp.path().join("problems");
    copy_dir(&easy().join("aplusb"), &folder.join("aplusb"));
    std::fs::remove_file(folder.join("aplusb/submissions/accepted/aplusb.py")).expect("rm");
    std::fs::write(
        &config,
        CONFIG.replace("training_problems: [aplusb, listsum, reverse]\n", ""),
    )
    .expect("config");
    let res = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .arg("train")
        .arg("--problems")
        .arg(&folder)
        .arg("--model")
        .arg(&model)
        .arg("--out")
        .arg(tmp.path().join("b"))
        .arg("--config")
        .arg(&config)
        .output()
        .expect("trainer runs");
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(!res.status.success());
    assert!(
        stderr.contains("problem aplusb: no accepted reference solution in python3"),
        "{stderr}"
    );
    // An unknown key.
    std::fs::write(&config, format!("{CONFIG}sft_epochs: 2\n")).expect("config");
    let res = train(&model, &tmp.path().join("c"), &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(!res.status.success());
    assert!(stderr.contains("sft_epochs"), "{stderr}");
}
