//! LoRA adapters (`lora:` in the configuration) through `trainer train`, end to end on a
//! tiny random model with SmolLM2's tokenizer (`ARENA_MODEL_DIR`) and the easy set:
//!
//! - a warm start with adapters trains only them: its checkpoint's `model.safetensors`
//!   holds the model's own names (the adapters merged in, the untouched tensors equal to
//!   the starting model's), `lora.safetensors` and `lora.json` lie beside, and the
//!   training loss falls;
//! - transformers loads that folder as a plain model, with the trainer's
//!   log-probabilities;
//! - a run stopped and resumed ends with the same weights as one that was not;
//! - `lora` with a GRPO algorithm is refused before anything trains.
//!
//! Under `CI=true` a missing model or venv fails the test.

mod support;

use std::collections::HashMap;
use std::path::Path;

use support::{lines, logprob_gap_to_transformers, tiny_model, train, train_with};
use tch::Tensor;

const CONFIG: &str = "algorithm: sft\npipeline: ../problems/easy/pipeline.yaml\nseed: 3\n\
    lr: 1.0e-2\nwarmup_steps: 0\nmax_grad_norm: 1.0\ncheckpoint_every: 100\n\
    training_problems: [aplusb, listsum, reverse]\n\
    sft: {epochs: 3, batch_tokens: 1, held_aside: 1, validate_every: 0}\n\
    lora: {rank: 4, alpha: 8, targets: [q_proj, v_proj, up_proj, down_proj]}\n";

fn weights(path: &Path) -> HashMap<String, Tensor> {
    Tensor::read_safetensors(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .collect()
}

fn max_diff(a: &Tensor, b: &Tensor) -> f64 {
    (a - b).abs().max().double_value(&[])
}

#[test]
fn lora_trains_the_adapters_alone_saves_merged_weights_and_resumes() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let model = tmp.path().join("tiny");
    tiny_model(&base, &model, 11, 2048);
    let config = tmp.path().join("lora.yaml");
    std::fs::write(&config, CONFIG).expect("config");

    let out = tmp.path().join("run");
    let res = train(&model, &out, &config);
    assert!(
        res.status.success(),
        "trainer train failed: {}",
        String::from_utf8_lossy(&res.stderr)
    );
    let metrics = lines(&out.join("metrics.jsonl"));
    let loss = |epoch: u64| -> f64 {
        metrics
            .iter()
            .filter(|m| m["epoch"].as_u64() == Some(epoch))
            .map(|m| m["loss"].as_f64().expect("loss"))
            .sum()
    };
    assert!(loss(3) < loss(1), "epoch 1 {} epoch 3 {}", loss(1), loss(3));

    let ckpt = out.join("checkpoints/step-000006");
    let start = weights(&model.join("model.safetensors"));
    let saved = weights(&ckpt.join("model.safetensors"));
    let mut names: Vec<&String> = saved.keys().collect();
    names.sort();
    let mut expected: Vec<&String> = start.keys().collect();
    expected.sort();
    assert_eq!(names, expected, "the model's own names, nothing else");
    for (name, t) in &saved {
        let d = max_diff(t, &start[name]);
        let targeted = ["q_proj", "v_proj", "up_proj", "down_proj"]
            .iter()
            .any(|p| name.ends_with(&format!("{p}.weight")));
        if targeted {
            assert!(d > 0.0, "{name}: the adapter's update is merged in");
        } else {
            assert_eq!(d, 0.0, "{name} is frozen");
        }
    }
    let adapters = weights(&ckpt.join("lora.safetensors"));
    assert_eq!(adapters.len(), 8, "A and B for 4 projections of one layer");
    let a = &adapters["model.layers.0.self_attn.q_proj.lora_A"];
    assert_eq!(a.size(), [4, 16]);
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ckpt.join("lora.json")).expect("lora.json"))
            .expect("json");
    assert_eq!(settings["rank"], 4);
    // The optimizer holds the adapters' moments only.
    let opt = weights(&ckpt.join("optimizer.safetensors"));
    assert_eq!(opt.len(), 1 + 2 * 8, "{:?}", opt.keys().collect::<Vec<_>>());

    // transformers loads the folder as a plain model, as the trainer does.
    let diff = logprob_gap_to_transformers(&python, &ckpt);
    assert!(diff < 1e-3, "transformers and the trainer differ by {diff}");

    // Stopped after 2 updates and resumed: the same weights and adapters at the end.
    let split = tmp.path().join("split");
    for extra in [["--stop-after", "2"].as_slice(), ["--resume"].as_slice()] {
        let res = train_with(&model, &split, &config, extra);
        assert!(
            res.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&res.stderr)
        );
    }
    let resumed = split.join("checkpoints/step-000006");
    for file in ["model.safetensors", "lora.safetensors"] {
        let (x, y) = (weights(&ckpt.join(file)), weights(&resumed.join(file)));
        for (name, t) in &x {
            let d = max_diff(t, &y[name]);
            assert!(d < 1e-6, "{file} {name}: resumed differs by {d}");
        }
    }
}

#[test]
fn lora_with_a_grpo_algorithm_is_refused() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("grpo.yaml");
    std::fs::write(
        &config,
        "algorithm: outcome\npipeline: ../problems/easy/pipeline.yaml\nlora: {rank: 4}\n",
    )
    .expect("config");
    let out = tmp.path().join("run");
    let res = train(&base, &out, &config);
    assert!(!res.status.success());
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("lora: algorithm Outcome does not train LoRA adapters yet"),
        "{stderr}"
    );
    assert!(!out.join("checkpoints").exists(), "nothing trained");
}
