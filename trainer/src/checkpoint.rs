//! Checkpoints of a training run: `OUT/checkpoints/step-NNNNNN/` is a Hugging Face folder
//! (`model.safetensors` with the model's own tensor names, `config.json`, the tokenizer
//! files and chat template copied from the starting model) that `trainer serve` and
//! transformers load as they are, plus `optimizer.safetensors` (AdamW's moments and step)
//! and `trainer_state.json` (step, policy version, seed, starting model, best held-out
//! score, the configuration). A run with LoRA adapters (`crate::lora`) saves the weights
//! with the adapters merged, and the adapters beside (`lora.safetensors`, `lora.json`).
//! `OUT/latest` names the newest; `OUT/best` is a copy of the
//! one with the best held-out pass rate. All other randomness of a run (the data order,
//! every episode's sampling seed) is derived from the seed and the step, so the step is
//! the position in the data and the RNG state together.

use std::path::{Path, PathBuf};

use tch::{Kind, Tensor};

use crate::lora;
use crate::model::Model;
use crate::optim::AdamW;

/// The trainer's own state in a checkpoint.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainerState {
    /// Training steps finished.
    pub step: u64,
    /// The policy version (optimizer updates made).
    pub version: u64,
    /// The run's seed.
    pub seed: u64,
    /// The starting model (the KL reference and the tokenizer's source).
    pub base_model: PathBuf,
    /// The best held-out pass rate so far.
    pub best_eval: Option<f64>,
    /// The configuration, as JSON (a resumed run must use the same).
    pub config: serde_json::Value,
}

/// A checkpoint that cannot be written or read, naming the file.
#[derive(Debug, thiserror::Error)]
#[error("checkpoint {path}: {message}")]
pub struct CheckpointError {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

fn err(path: &Path, e: impl std::fmt::Display) -> CheckpointError {
    CheckpointError {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The files copied from the starting model beside the weights.
const SIDE_FILES: &[&str] = &[
    "config.json",
    "generation_config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "chat_template.jinja",
    "vocab.json",
    "merges.txt",
];

/// Writes a checkpoint of `state.step` and points `OUT/latest` at it; only the newest
/// `keep` checkpoints are kept (`OUT/best` is a separate copy). Returns its folder.
pub fn save(
    out: &Path,
    model: &Model,
    optimizer: &AdamW,
    state: &TrainerState,
    base: &Path,
    keep: usize,
) -> Result<PathBuf, CheckpointError> {
    let root = out.join("checkpoints");
    let name = format!("step-{:06}", state.step);
    let dir = root.join(&name);
    let tmp = root.join(format!(".{name}.tmp"));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| err(&tmp, e))?;
    let plain = |vars: Vec<(String, Tensor)>| -> Vec<(String, Tensor)> {
        let mut vars: Vec<(String, Tensor)> = vars
            .into_iter()
            .map(|(n, t)| {
                let t = t.to_kind(Kind::Float).to_device(tch::Device::Cpu);
                (n, t.contiguous())
            })
            .collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        vars
    };
    let weights = tmp.join("model.safetensors");
    Tensor::write_safetensors(&plain(model.merged_variables()), &weights)
        .map_err(|e| err(&weights, e))?;
    if let (Some(adapters), Some(settings)) = (model.lora_tensors(), model.lora()) {
        let file = tmp.join(lora::ADAPTER_FILE);
        Tensor::write_safetensors(&plain(adapters), &file).map_err(|e| err(&file, e))?;
        let file = tmp.join(lora::SETTINGS_FILE);
        let text = serde_json::to_string_pretty(settings).map_err(|e| err(&file, e))?;
        std::fs::write(&file, text).map_err(|e| err(&file, e))?;
    }
    let opt: Vec<(String, Tensor)> = optimizer
        .state_tensors()
        .into_iter()
        .map(|(n, t)| (n, t.to_device(tch::Device::Cpu).contiguous()))
        .collect();
    let opt_path = tmp.join("optimizer.safetensors");
    Tensor::write_safetensors(&opt, &opt_path).map_err(|e| err(&opt_path, e))?;
    for f in SIDE_FILES {
        let from = base.join(f);
        if from.is_file() {
            std::fs::copy(&from, tmp.join(f)).map_err(|e| err(&from, e))?;
        }
    }
    let state_path = tmp.join("trainer_state.json");
    let text = serde_json::to_string_pretty(state).map_err(|e| err(&state_path, e))?;
    std::fs::write(&state_path, text).map_err(|e| err(&state_path, e))?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir).map_err(|e| err(&dir, e))?;
    let latest = out.join("latest");
    let latest_tmp = out.join(".latest.tmp");
    std::fs::write(&latest_tmp, format!("checkpoints/{name}\n"))
        .map_err(|e| err(&latest_tmp, e))?;
    std::fs::rename(&latest_tmp, &latest).map_err(|e| err(&latest, e))?;
    let mut old: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|e| err(&root, e))?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("step-"))
        .map(|e| e.path())
        .collect();
    old.sort();
    let excess = old.len().saturating_sub(keep.max(1));
    for p in old.iter().take(excess) {
        let _ = std::fs::remove_dir_all(p);
    }
    Ok(dir)
}

/// The checkpoint `OUT/latest` names, if any.
pub fn latest(out: &Path) -> Result<Option<PathBuf>, CheckpointError> {
    let path = out.join("latest");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| err(&path, e))?;
    let dir = out.join(text.trim());
    if !dir.join("trainer_state.json").is_file() {
        return Err(err(
            &path,
            format!("names {}, which is not a checkpoint", dir.display()),
        ));
    }
    Ok(Some(dir))
}

/// A checkpoint's trainer state.
pub fn read_state(dir: &Path) -> Result<TrainerState, CheckpointError> {
    let path = dir.join("trainer_state.json");
    let text = std::fs::read_to_string(&path).map_err(|e| err(&path, e))?;
    serde_json::from_str(&text).map_err(|e| err(&path, e))
}

/// The folder to load `dir`'s tokenizer from: `dir` itself when it holds
/// `tokenizer.json`, else, for a checkpoint, its starting model's folder (from
/// `trainer_state.json`). A plain model folder without one is returned as it is, so that
/// loading names the missing file.
pub fn tokenizer_dir(dir: &Path) -> Result<PathBuf, CheckpointError> {
    if dir.join("tokenizer.json").is_file() || !dir.join("trainer_state.json").is_file() {
        return Ok(dir.to_path_buf());
    }
    Ok(read_state(dir)?.base_model)
}

/// Restores the optimizer's state from a checkpoint.
pub fn load_optimizer(dir: &Path, optimizer: &mut AdamW) -> Result<(), CheckpointError> {
    let path = dir.join("optimizer.safetensors");
    let tensors = Tensor::read_safetensors(&path).map_err(|e| err(&path, e))?;
    optimizer
        .load_state_tensors(&tensors)
        .map_err(|e| err(&path, e))
}

/// Copies checkpoint `dir` to `OUT/best`.
pub fn keep_best(out: &Path, dir: &Path) -> Result<(), CheckpointError> {
    let best = out.join("best");
    let tmp = out.join(".best.tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| err(&tmp, e))?;
    for entry in std::fs::read_dir(dir).map_err(|e| err(dir, e))?.flatten() {
        std::fs::copy(entry.path(), tmp.join(entry.file_name()))
            .map_err(|e| err(&entry.path(), e))?;
    }
    let _ = std::fs::remove_dir_all(&best);
    std::fs::rename(&tmp, &best).map_err(|e| err(&best, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::optim::OptimConfig;

    #[test]
    fn a_checkpoint_restores_weights_optimizer_and_state() {
        tch::manual_seed(3);
        let json = serde_json::json!({
            "model_type": "llama", "vocab_size": 32, "hidden_size": 8, "intermediate_size": 16,
            "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": true
        });
        let config: Config = serde_json::from_value(json.clone()).expect("config");
        let base = tempfile::tempdir().expect("tmp");
        std::fs::write(base.path().join("config.json"), json.to_string()).expect("config.json");
        let model = Model::new(config.clone(), tch::Device::Cpu);
        let mut opt = AdamW::new(
            &model.vs,
            OptimConfig {
                lr: 1e-2,
                ..OptimConfig::default()
            },
        )
        .expect("opt");
        let loss = model
            .vs
            .variables()
            .values()
            .map(|t| t.pow_tensor_scalar(2).sum(Kind::Float))
            .fold(Tensor::from(0.0f32), |a, b| a + b);
        loss.backward();
        opt.step();
        let out = tempfile::tempdir().expect("tmp");
        let state = TrainerState {
            step: 3,
            version: 1,
            seed: 9,
            base_model: base.path().to_path_buf(),
            best_eval: Some(0.5),
            config: serde_json::json!({"g": 2}),
        };
        let dir = save(out.path(), &model, &opt, &state, base.path(), 1).expect("save");
        assert_eq!(latest(out.path()).expect("latest"), Some(dir.clone()));
        assert_eq!(read_state(&dir).expect("state"), state);
        let loaded = Model::load(&dir, tch::Device::Cpu).expect("a Hugging Face folder");
        for (name, t) in model.vs.variables() {
            let u = &loaded.vs.variables()[&name];
            assert!(t.equal(u), "{name} differs");
        }
        let mut again = AdamW::new(
            &loaded.vs,
            OptimConfig {
                lr: 1e-2,
                ..OptimConfig::default()
            },
        )
        .expect("opt");
        load_optimizer(&dir, &mut again).expect("optimizer");
        assert_eq!(again.steps(), 1);
        for ((a, x), (b, y)) in opt.state_tensors().iter().zip(again.state_tensors().iter()) {
            assert_eq!(a, b);
            assert!(x.equal(y), "{a} differs");
        }
        // A second save replaces the first.
        let state2 = TrainerState { step: 4, ..state };
        let dir2 = save(out.path(), &model, &opt, &state2, base.path(), 1).expect("save");
        assert!(!dir.exists() && dir2.exists());
        keep_best(out.path(), &dir2).expect("best");
        assert!(out.path().join("best/model.safetensors").is_file());
    }

    #[test]
    fn a_checkpoint_without_a_tokenizer_borrows_its_starting_models() {
        let base = tempfile::tempdir().expect("tmp");
        let ckpt = tempfile::tempdir().expect("tmp");
        let state = TrainerState {
            step: 1,
            version: 1,
            seed: 1,
            base_model: base.path().to_path_buf(),
            best_eval: None,
            config: serde_json::json!({}),
        };
        std::fs::write(
            ckpt.path().join("trainer_state.json"),
            serde_json::to_string(&state).expect("json"),
        )
        .expect("state");
        assert_eq!(tokenizer_dir(ckpt.path()).expect("dir"), base.path());
        std::fs::write(ckpt.path().join("tokenizer.json"), "{}").expect("tokenizer");
        assert_eq!(tokenizer_dir(ckpt.path()).expect("dir"), ckpt.path());
        assert_eq!(tokenizer_dir(base.path()).expect("dir"), base.path());
    }
}
