//! Rejection sampling (`algorithm: rft`) end to end on the real SmolLM2
//! (`ARENA_MODEL_DIR`), the easy set's split, the bubblewrap sandbox and the local judge:
//!
//! - one round on two training problems (one held aside for the validation loss), two
//!   programs sampled for each through the agent's loop: the round's record, the kept
//!   programs' file and what the round fed (`round-1/sft-data.jsonl`) agree with each
//!   other, whatever the judge accepted; only training problems are sampled and fed, and
//!   the validation rows are the held-aside problem's reference solution;
//! - `OUT/latest` names a checkpoint the trainer loads (the starting weights trained on
//!   the kept programs, or unchanged when none was kept);
//! - bad settings are refused before anything runs.
//!
//! Under `CI=true` a missing model or sandbox fails the test.

mod support;

use serde_json::Value;
use support::{lines, train};

// One model call of at most 200 tokens per episode keeps the round short.
const CONFIG: &str = "algorithm: rft\npipeline: ../problems/easy/pipeline.yaml\nseed: 3\n\
    model_calls: 1\nmax_tokens: 200\ntemperature: 0.7\n\
    lr: 3.0e-5\nwarmup_steps: 0\ncheckpoint_every: 100\n\
    training_problems: [aplusb, reverse]\n\
    sft: {epochs: 1, batch_tokens: 1, held_aside: 1, validate_every: 0}\n\
    rft: {rounds: 1, samples: 2, keep: samples_passed}\n";

#[test]
fn a_round_samples_judges_keeps_and_trains_on_training_problems_only() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("rft.yaml");
    std::fs::write(&config, CONFIG).expect("config");
    let out = tmp.path().join("run");
    let res = train(&model, &out, &config);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "trainer train failed: {stderr}");
    assert!(stderr.contains("rft round 1: "), "{stderr}");
    assert!(stderr.contains("leak check:"), "{stderr}");

    let rounds = lines(&out.join("rft-rounds.jsonl"));
    assert_eq!(rounds.len(), 1, "{rounds:?}");
    let r = &rounds[0];
    assert_eq!(
        (r["round"].as_u64(), r["problems"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(r["episodes"].as_u64(), Some(4), "{r}");
    let kept = if out.join("rft-kept.jsonl").exists() {
        lines(&out.join("rft-kept.jsonl"))
    } else {
        Vec::new()
    };
    assert_eq!(r["kept_total"].as_u64(), Some(kept.len() as u64), "{r}");
    assert!(r["solved_problems"].as_u64() <= Some(2), "{r}");
    for k in &kept {
        let p = k["problem"].as_str().expect("problem");
        assert!(["aplusb", "reverse"].contains(&p), "{k}");
        assert!(
            k["label"]
                .as_str()
                .is_some_and(|l| l.starts_with("round-1/sample-")),
            "{k}"
        );
    }

    // What the round fed: every training row is a kept program of a problem not held
    // aside, in the agent's fenced reply; the validation rows are the held-aside
    // problem's reference solution.
    let data = lines(&out.join("round-1/sft-data.jsonl"));
    let aside: Vec<&Value> = data.iter().filter(|d| d["set"] == "validation").collect();
    assert_eq!(aside.len(), 1, "{data:?}");
    let aside_problem = aside[0]["problem"].as_str().expect("problem");
    let reference = std::fs::read_to_string(aside[0]["source"].as_str().expect("source"))
        .expect("the reference solution's file");
    assert!(
        aside[0]["target"]
            .as_str()
            .expect("target")
            .contains(reference.trim_end())
    );
    let trained: Vec<&Value> = data.iter().filter(|d| d["set"] == "train").collect();
    let expected: Vec<&Value> = kept
        .iter()
        .filter(|k| k["problem"] != aside_problem)
        .collect();
    assert_eq!(trained.len(), expected.len(), "{data:?} against {kept:?}");
    for (d, k) in trained.iter().zip(&expected) {
        assert_eq!(d["problem"], k["problem"]);
        assert_eq!(d["source"], k["label"]);
        let target = d["target"].as_str().expect("target");
        assert!(target.starts_with("```python\n"), "{target}");
        assert!(
            target.contains(k["source"].as_str().expect("source").trim()),
            "{target}"
        );
    }
    let split = problems::easy::split().expect("split");
    for entry in split.held_out.iter().chain(&split.validation) {
        assert!(
            data.iter().all(|d| d["problem"] != entry.name.as_str()),
            "{} was fed",
            entry.name
        );
    }

    // The run's checkpoint: the round's, which the trainer loads.
    let latest = std::fs::read_to_string(out.join("latest")).expect("OUT/latest");
    assert!(latest.starts_with("round-1/checkpoints/step-"), "{latest}");
    let ckpt = out.join(latest.trim());
    trainer::model::Model::load(&ckpt, tch::Device::Cpu).expect("the trainer loads it");
    let state: Value = serde_json::from_str(
        &std::fs::read_to_string(ckpt.join("trainer_state.json")).expect("state"),
    )
    .expect("json");
    assert_eq!(
        state["step"].as_u64(),
        Some(expected.len() as u64),
        "one update per kept program"
    );
}

#[test]
fn bad_rft_settings_are_refused_before_anything_runs() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("rft.yaml");
    for (bad, named) in [
        (
            "rft: {rounds: 1, samples: 0, keep: accepted}",
            "rft.rounds/rft.samples",
        ),
        ("rft: {rounds: 1, sample: 2}", "unknown field `sample`"),
        ("rft: {keep: everything}", "unknown variant `everything`"),
    ] {
        let text = CONFIG.replace("rft: {rounds: 1, samples: 2, keep: samples_passed}", bad);
        std::fs::write(&config, text).expect("config");
        let out = tmp.path().join("never");
        let res = train(&model, &out, &config);
        let stderr = String::from_utf8_lossy(&res.stderr);
        assert!(!res.status.success(), "{bad}");
        assert!(stderr.contains(named), "{bad}: {stderr}");
        assert!(!out.join("rft-rounds.jsonl").exists(), "{bad}: nothing ran");
    }
}
