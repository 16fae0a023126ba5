//! `trainer train` end to end on the real SmolLM2 (`ARENA_MODEL_DIR`) and the bubblewrap
//! sandbox, on the bundled `sum` package: Agentic GRPO with G = 2, two model calls per
//! episode, 96 tokens per reply, two steps.
//!
//! - Rewards flow from real judge results into advantages: every turn's recorded level is
//!   the weights of the tiers the judge's results reached, each provisional advantage is
//!   the leave-one-out difference of the levels at that turn, and each final advantage is
//!   the sum of the later turns' terms and the final verdict's (recomputed here).
//! - Checkpoints are Hugging Face folders: transformers (the venv's) loads one as it is
//!   and gives the same log-probabilities as the trainer's own loader.
//! - A stopped run resumed from its step-1 checkpoint continues exactly: the step-2
//!   rollouts are the same and its losses equal the uninterrupted run's within 1e-5
//!   (float tolerance: the decoder batches the episodes' requests as they arrive, so
//!   batch shapes, and so the last bits of a logit, may differ between two runs).
//!   This test runs in float32 (`--dtype f32`): in bf16 the same batch-shape difference
//!   moves a log-probability by up to 2e-2 (`batching::tests`), enough to flip a sampled
//!   token, so two bf16 runs part ways within a step and their losses have no tolerance
//!   to state. What resuming restores (float32 masters, AdamW's moments, the step and the
//!   seeds) is the same in both precisions; bf16 training end to end is
//!   `train_algorithms.rs`, which runs in the default precision.
//!
//! Under `CI=true` a missing model, venv or bubblewrap fails the test.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::logprob_gap_to_transformers;

fn sum_package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum")
}

fn train(model: &Path, out: &Path, config: &Path, resume: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_trainer"));
    cmd.arg("train")
        .arg("--problems")
        .arg(sum_package())
        .arg("--model")
        .arg(model)
        .arg("--out")
        .arg(out)
        .arg("--config")
        .arg(config)
        // float32: see the module doc (bf16 runs are not comparable token for token).
        .args(["--dtype", "f32"]);
    if resume {
        cmd.arg("--resume");
    }
    let res = cmd.output().expect("trainer runs");
    let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
    assert!(res.status.success(), "trainer train failed: {stderr}");
    stderr
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-9, "{what}: {a} != {b}");
}

/// Leave-one-out terms of `values`.
fn loo(values: &[f64]) -> Vec<f64> {
    let total: f64 = values.iter().sum();
    let g = values.len() as f64;
    values.iter().map(|v| v - (total - v) / (g - 1.0)).collect()
}

/// Checks one step's records against the reward weights: levels from tiers, provisional
/// and final advantages recomputed (every episode scored, unscaled credit).
fn check_credit(records: &[Value], horizon: usize) {
    let weight = |tier: &str| match tier {
        "compiled" => 0.05,
        "samples" => 0.1,
        "own_tests" | "stress" => 0.1,
        other => panic!("unknown tier {other}"),
    };
    let levels: Vec<Vec<f64>> = records
        .iter()
        .map(|r| {
            let levels: Vec<f64> = r["levels"]
                .as_array()
                .expect("levels")
                .iter()
                .map(|v| v.as_f64().expect("level"))
                .collect();
            for (t, tiers) in r["tiers"].as_array().expect("tiers").iter().enumerate() {
                let sum: f64 = tiers
                    .as_array()
                    .expect("tiers")
                    .iter()
                    .map(|x| weight(x.as_str().expect("tier")))
                    .sum();
                close(levels[t], sum, "a level is its tiers' weights");
                if sum > 0.0 {
                    assert_eq!(r["judged"][t], true, "a tier without a judge result: {r}");
                }
            }
            levels
        })
        .collect();
    if records.iter().any(|r| r["final_reward"].is_null()) {
        return;
    }
    let at = |e: usize, t: usize| -> f64 {
        levels[e]
            .get(t)
            .copied()
            .unwrap_or_else(|| levels[e].last().copied().unwrap_or(0.0))
    };
    let finals: Vec<f64> = records
        .iter()
        .map(|r| r["final_reward"].as_f64().expect("final"))
        .collect();
    let final_terms = loo(&finals);
    for (e, r) in records.iter().enumerate() {
        for t in 0..levels[e].len() {
            let terms = loo(&(0..records.len()).map(|j| at(j, t)).collect::<Vec<_>>());
            close(
                r["provisional"][t].as_f64().expect("provisional"),
                terms[e],
                "provisional advantage",
            );
            let later: f64 = (t..horizon)
                .map(|u| loo(&(0..records.len()).map(|j| at(j, u)).collect::<Vec<_>>())[e])
                .sum();
            close(
                r["final_advantage"][t].as_f64().expect("final advantage"),
                later + final_terms[e],
                "final advantage",
            );
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn agentic_grpo_trains_through_the_agent_checkpoints_and_resumes() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("train.yaml");
    std::fs::write(
        &config,
        "algorithm: agentic\ngroup_size: 2\nproblems_per_step: 1\nsteps: 2\nseed: 7\n\
         max_tokens: 96\nmodel_calls: 2\nlr: 1.0e-5\nwarmup_steps: 0\nkeep_checkpoints: 2\n",
    )
    .expect("config");
    let a = tmp.path().join("a");
    let stderr = train(&model, &a, &config, false);
    assert!(
        stderr.contains("step 1/2") && stderr.contains("step 2/2"),
        "a status line per step: {stderr}"
    );

    // Metrics, plot and rollouts.
    let metrics = lines(&a.join("metrics.jsonl"));
    assert_eq!(metrics.len(), 2);
    for m in &metrics {
        for key in [
            "tier_compiled",
            "final_reward",
            "pass_rate",
            "kl",
            "clip_high",
            "tis_truncated",
            "ratio_mean",
            "tokens_per_s",
            "generate_s",
            "judge_s",
            "optimize_s",
        ] {
            assert!(m[key].is_number(), "{key} missing: {m}");
        }
        assert_eq!(m["episodes"], 2);
    }
    let svg = std::fs::read_to_string(a.join("metrics.svg")).expect("svg");
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
    let mut judged = false;
    for step in 1..=2 {
        let records = lines(&a.join(format!("rollouts/step-{step:06}.jsonl")));
        assert_eq!(records.len(), 2);
        judged |= records.iter().any(|r| {
            r["judged"]
                .as_array()
                .is_some_and(|j| j.contains(&Value::Bool(true)))
        });
        check_credit(&records, 2);
    }
    assert!(judged, "no episode got a sandbox result in two steps");

    // The checkpoint is a Hugging Face folder transformers loads as it is.
    let ckpt = a.join("checkpoints/step-000002");
    for f in [
        "model.safetensors",
        "config.json",
        "tokenizer.json",
        "optimizer.safetensors",
        "trainer_state.json",
    ] {
        assert!(
            ckpt.join(f).is_file(),
            "{f} missing from {}",
            ckpt.display()
        );
    }
    let diff = logprob_gap_to_transformers(&python, &ckpt);
    assert!(diff < 1e-3, "transformers and the trainer differ by {diff}");

    // Resume: the run as it stood after step 1 (its step-1 checkpoint, moved rather than
    // copied to spare the disk: a checkpoint of SmolLM2 with AdamW's moments is 1.6 GB),
    // continued in another folder.
    let b = tmp.path().join("b");
    std::fs::create_dir_all(b.join("checkpoints")).expect("mkdir");
    std::fs::rename(
        a.join("checkpoints/step-000001"),
        b.join("checkpoints/step-000001"),
    )
    .expect("move the step-1 checkpoint");
    std::fs::remove_dir_all(a.join("checkpoints")).expect("rm");
    copy_dir(&a.join("rollouts"), &b.join("rollouts"));
    std::fs::copy(a.join("metrics.jsonl"), b.join("metrics.jsonl")).expect("copy");
    std::fs::write(b.join("latest"), "checkpoints/step-000001\n").expect("latest");
    let stderr = train(&model, &b, &config, true);
    assert!(
        !stderr.contains("step 1/2") && stderr.contains("step 2/2"),
        "{stderr}"
    );
    let resumed = lines(&b.join("metrics.jsonl"));
    assert_eq!(resumed.len(), 2, "step 1 kept once, step 2 written again");
    let (x, y) = (&metrics[1], &resumed[1]);
    assert_eq!(x["version"], y["version"]);
    assert_eq!(x["updates"], y["updates"]);
    let ra = lines(&a.join("rollouts/step-000002.jsonl"));
    let rb = lines(&b.join("rollouts/step-000002.jsonl"));
    for (p, q) in ra.iter().zip(&rb) {
        for key in [
            "levels",
            "generated",
            "versions",
            "final_reward",
            "provisional",
        ] {
            assert_eq!(p[key], q[key], "step 2 {key} after resuming");
        }
    }
    let la: Vec<f64> = x["losses"]
        .as_array()
        .expect("losses")
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let lb: Vec<f64> = y["losses"]
        .as_array()
        .expect("losses")
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    assert_eq!(la.len(), lb.len());
    let worst = la
        .iter()
        .zip(&lb)
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max);
    eprintln!("step-2 losses: uninterrupted {la:?}, resumed {lb:?}, max abs difference {worst:e}");
    assert!(worst <= 1e-5, "resumed losses differ by {worst}");
}
