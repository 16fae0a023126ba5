//! `trainer train` under each algorithm on a tiny random model with SmolLM2's tokenizer
//! (`ARENA_MODEL_DIR`) and the bubblewrap sandbox, one step on `sum`: the plumbing of
//! each update schedule (outcome: one update per group; process: one; agentic: one per
//! turn the group played plus the correction), the KL reference included. The tiny
//! model's replies hold no code, so every reward is 0; `drop_uniform: false` makes the
//! updates run anyway. Under `CI=true` a missing model or bubblewrap fails the test.

mod support;

use std::path::Path;
use std::process::Command;

#[test]
fn every_algorithm_makes_its_updates() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let tiny = tmp.path().join("tiny");
    support::tiny_model(&base, &tiny, 5, 2048);
    let sum = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
    for algorithm in ["outcome", "process", "agentic"] {
        let config = tmp.path().join(format!("{algorithm}.yaml"));
        std::fs::write(
            &config,
            format!(
                "algorithm: {algorithm}\ngroup_size: 2\nproblems_per_step: 1\nsteps: 1\n\
                 max_tokens: 16\nmodel_calls: 2\ndrop_uniform: false\nkl_beta: 0.01\n"
            ),
        )
        .expect("config");
        let out = tmp.path().join(algorithm);
        let res = Command::new(env!("CARGO_BIN_EXE_trainer"))
            .arg("train")
            .arg("--problems")
            .arg(&sum)
            .arg("--model")
            .arg(&tiny)
            .arg("--out")
            .arg(&out)
            .arg("--config")
            .arg(&config)
            .output()
            .expect("trainer runs");
        let stderr = String::from_utf8_lossy(&res.stderr);
        assert!(res.status.success(), "{algorithm}: {stderr}");
        let text = std::fs::read_to_string(out.join("metrics.jsonl")).expect("metrics");
        let m: serde_json::Value = serde_json::from_str(text.trim()).expect("one line");
        let rollouts =
            std::fs::read_to_string(out.join("rollouts/step-000001.jsonl")).expect("rollouts");
        let turns = rollouts
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).expect("record")["levels"]
                    .as_array()
                    .map_or(0, Vec::len)
            })
            .max()
            .expect("episodes");
        assert!(turns >= 1, "{algorithm}: no turn played");
        let expected = match algorithm {
            "agentic" => turns + 1,
            _ => 1,
        };
        assert_eq!(m["updates"], expected, "{algorithm}: {m}");
        assert_eq!(m["version"], expected, "{algorithm}: {m}");
        assert!(m["kl"].is_number(), "{algorithm}: {m}");
    }
}
