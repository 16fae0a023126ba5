//! What the training-stage tests share: the easy set's folder, `trainer train` on it, a
//! run folder's JSON-lines files, a tiny random model with SmolLM2's tokenizer, and the
//! check that transformers loads a checkpoint as the trainer does.

// Each test binary that includes this module uses some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The easy set (`problems/easy`).
pub(crate) fn easy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/easy")
}

/// `trainer train --problems <easy set> --model MODEL --out OUT --config CONFIG`.
pub(crate) fn train(model: &Path, out: &Path, config: &Path) -> Output {
    train_with(model, out, config, &[])
}

/// [`train`] with more arguments (`--stop-after N`, `--resume`).
pub(crate) fn train_with(model: &Path, out: &Path, config: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .arg("train")
        .args(extra)
        .arg("--problems")
        .arg(easy())
        .arg("--model")
        .arg(model)
        .arg("--out")
        .arg(out)
        .arg("--config")
        .arg(config)
        .output()
        .expect("trainer runs")
}

/// The largest difference between the trainer's and transformers' (float32, run by
/// `python`) log-probabilities of a fixed token sequence under the model in `dir`: a
/// checkpoint that both load as the same model gives about 1e-5.
pub(crate) fn logprob_gap_to_transformers(python: &Path, dir: &Path) -> f64 {
    let ids: Vec<i64> = vec![1, 504, 3458, 314, 1789, 28, 16, 23, 29];
    let ours = trainer::model::Model::load(dir, tch::Device::Cpu).expect("trainer loads it");
    let lp = trainer::grpo::logprob::sequence_logprobs(&ours, std::slice::from_ref(&ids))
        .expect("logprobs");
    let ours: Vec<f64> = (0..ids.len() as i64 - 1)
        .map(|k| lp.double_value(&[0, k]))
        .collect();
    let script = format!(
        "import torch, json\nfrom transformers import AutoModelForCausalLM\n\
         m = AutoModelForCausalLM.from_pretrained({:?}, torch_dtype=torch.float32)\n\
         ids = torch.tensor([{:?}])\n\
         lp = torch.log_softmax(m(ids).logits[0, :-1].float(), -1)\n\
         print(json.dumps(lp.gather(1, ids[0, 1:, None])[:, 0].tolist()))\n",
        dir.display().to_string(),
        ids
    );
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The last line: transformers may print warnings before it.
    let theirs: Vec<f64> = serde_json::from_str(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .expect("a line"),
    )
    .expect("logprobs");
    assert_eq!(
        theirs.len(),
        ours.len(),
        "one log-probability per next token"
    );
    ours.iter()
        .zip(&theirs)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// The JSON lines of `path`.
pub(crate) fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Writes at `dir` a one-layer random model (seeded with `seed`, `max_positions` long) with
/// SmolLM2's tokenizer files copied from `base`.
pub(crate) fn tiny_model(base: &Path, dir: &Path, seed: i64, max_positions: u32) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let config = serde_json::json!({
        "model_type": "llama", "vocab_size": 49152, "hidden_size": 16, "intermediate_size": 32,
        "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
        "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": max_positions,
        "tie_word_embeddings": true
    });
    std::fs::write(dir.join("config.json"), config.to_string()).expect("config");
    tch::manual_seed(seed);
    let model = trainer::model::Model::new(
        serde_json::from_value(config).expect("config"),
        tch::Device::Cpu,
    );
    let vars: Vec<(String, tch::Tensor)> = model.vs.variables().into_iter().collect();
    tch::Tensor::write_safetensors(&vars, dir.join("model.safetensors")).expect("weights");
    for f in [
        "tokenizer.json",
        "tokenizer_config.json",
        "chat_template.jinja",
    ] {
        if base.join(f).is_file() {
            std::fs::copy(base.join(f), dir.join(f)).expect("tokenizer files");
        }
    }
}
