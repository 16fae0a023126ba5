//! The evaluation's key, and the cache of finished evaluations under it.
//!
//! An evaluation is a function of what [`KeyParts`] holds: the model (a SHA-256 over its
//! weights, `config.json` and tokenizer files, [`model_digest`]), the precision, the split
//! and its problems (each one's name and package hash), the agent's pipeline with its
//! sampling and budget, the samples per problem and the seed. [`EvalKey::id`] is the
//! first 16 hex digits of a SHA-256 over those parts; it names the evaluation's file in
//! the cache (`$ARENA_CACHE/evals/<id>.json` by default) and marks every per-episode
//! record ([`super::episode`]).
//!
//! `trainer eval` reuses a cached evaluation whose key matches in full, so the base
//! model's evaluation is computed once and a training job evaluates only the trained
//! model. The key leaves out the code: a change to the agent, the judge or the measures
//! that changes what an evaluation means must raise [`KEY_VERSION`].

use std::io::Read as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Raised when a change to the code changes what an evaluation measures or records.
pub const KEY_VERSION: u32 = 1;

/// What an evaluation depends on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KeyParts {
    /// [`KEY_VERSION`] when the key was made.
    pub version: u32,
    /// [`model_digest`] of the model folder.
    pub model: String,
    /// The weights' and matrix products' format (`f32`, `bf16`, `f16`).
    pub dtype: String,
    /// `held-out`, `training` or `all`.
    pub split: String,
    /// The problems evaluated ([`problems_digest`]).
    pub problems: String,
    /// How many.
    pub problem_count: usize,
    /// The agent's pipeline as the configuration set it (stages, sampling, budget).
    pub sampling: serde_json::Value,
    /// Episodes per problem.
    pub samples: usize,
    /// The evaluation's seed.
    pub seed: u64,
}

/// An evaluation's key: its parts and their hash.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvalKey {
    /// The first 16 hex digits of the SHA-256 of the parts' JSON.
    pub id: String,
    /// The parts.
    #[serde(flatten)]
    pub parts: KeyParts,
}

impl EvalKey {
    /// The key of `parts`.
    pub fn new(parts: KeyParts) -> EvalKey {
        let json = serde_json::to_string(&parts).expect("invariant: the key's parts serialize");
        let mut id = hex(&Sha256::digest(json.as_bytes()));
        id.truncate(16);
        EvalKey { id, parts }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The model files a digest covers, besides the `.safetensors` weights.
const MODEL_FILES: [&str; 2] = ["config.json", "model.safetensors.index.json"];

/// The tokenizer files a digest covers.
const TOKENIZER_FILES: [&str; 4] = [
    "tokenizer.json",
    "tokenizer_config.json",
    "chat_template.jinja",
    "special_tokens_map.json",
];

/// A SHA-256 over the model's weights (every `.safetensors` file of `model` but a
/// checkpoint's optimizer state), its configuration files and the tokenizer files of
/// `tokenizer` (a checkpoint may take its tokenizer from its starting model): each file's
/// name, length and bytes, in name order.
pub fn model_digest(model: &Path, tokenizer: &Path) -> anyhow::Result<String> {
    let io = |path: &Path, e: std::io::Error| anyhow::format_err!("{}: {e}", path.display());
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(model).map_err(|e| io(model, e))? {
        let path = entry.map_err(|e| io(model, e))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else {
            continue;
        };
        let weights = name.ends_with(".safetensors") && name != "optimizer.safetensors";
        if path.is_file() && (weights || MODEL_FILES.contains(&name.as_str())) {
            files.push((format!("model/{name}"), path));
        }
    }
    if !files.iter().any(|(name, _)| name.ends_with(".safetensors")) {
        anyhow::bail!("{}: no .safetensors weights to key", model.display());
    }
    for name in TOKENIZER_FILES {
        let path = tokenizer.join(name);
        if path.is_file() {
            files.push((format!("tokenizer/{name}"), path));
        }
    }
    files.sort();
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    for (name, path) in files {
        let mut file = std::fs::File::open(&path).map_err(|e| io(&path, e))?;
        let len = file.metadata().map_err(|e| io(&path, e))?.len();
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(len.to_le_bytes());
        loop {
            let n = file.read(&mut buffer).map_err(|e| io(&path, e))?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// A SHA-256 over the problems' names and package hashes, in order.
pub fn problems_digest<'a>(problems: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut hasher = Sha256::new();
    for (name, sha256) in problems {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(sha256.as_bytes());
        hasher.update([0]);
    }
    hex(&hasher.finalize())
}

/// The cache file of `key` under `dir`.
pub fn path(dir: &Path, key: &EvalKey) -> PathBuf {
    dir.join(format!("{}.json", key.id))
}

/// The cached value of `key` under `dir` (`None`: none, or a file that does not parse as
/// `T`, which the next [`save`] replaces).
pub fn load<T: serde::de::DeserializeOwned>(dir: &Path, key: &EvalKey) -> Option<T> {
    let text = std::fs::read_to_string(path(dir, key)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Keeps `value` under `key` in `dir` (written whole through a temporary file).
pub fn save<T: serde::Serialize>(dir: &Path, key: &EvalKey, value: &T) -> anyhow::Result<PathBuf> {
    let target = path(dir, key);
    let io = |path: &Path, e: std::io::Error| anyhow::format_err!("{}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let tmp = dir.join(format!(".{}.json.tmp", key.id));
    std::fs::write(&tmp, serde_json::to_string_pretty(value)? + "\n").map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, &target).map_err(|e| io(&target, e))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> KeyParts {
        KeyParts {
            version: KEY_VERSION,
            model: "ab".repeat(32),
            dtype: "f32".to_owned(),
            split: "held-out".to_owned(),
            problems: problems_digest([("gcd", "11"), ("hms", "22")]),
            problem_count: 2,
            sampling: serde_json::json!({"sampling": {"temperature": 0.7, "max_tokens": 384}}),
            samples: 8,
            seed: 1,
        }
    }

    #[test]
    fn the_key_changes_with_every_part_and_only_with_them() {
        let key = EvalKey::new(parts());
        assert_eq!(key.id.len(), 16);
        assert_eq!(key, EvalKey::new(parts()), "a function of its parts");
        let changes: [fn(&mut KeyParts); 9] = [
            |p| p.version += 1,
            |p| p.model = "cd".repeat(32),
            |p| p.dtype = "bf16".to_owned(),
            |p| p.split = "training".to_owned(),
            |p| p.problems = problems_digest([("gcd", "11"), ("hms", "23")]),
            |p| p.problem_count = 3,
            |p| p.sampling["sampling"]["temperature"] = 1.0.into(),
            |p| p.samples = 16,
            |p| p.seed = 2,
        ];
        let mut ids = vec![key.id.clone()];
        for change in changes {
            let mut p = parts();
            change(&mut p);
            ids.push(EvalKey::new(p).id);
        }
        let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
        // The problems' order is part of the key, as the report lists them in order.
        assert_ne!(
            problems_digest([("gcd", "11"), ("hms", "22")]),
            problems_digest([("hms", "22"), ("gcd", "11")])
        );
        // The key's JSON holds the id beside the parts, and reads back.
        let json = serde_json::to_value(&key).expect("json");
        assert_eq!(json["id"], key.id.as_str());
        assert_eq!(json["seed"], 1);
        assert_eq!(serde_json::from_value::<EvalKey>(json).expect("reads"), key);
    }

    #[test]
    fn the_model_digest_covers_weights_config_and_tokenizer_but_not_optimizer_state() {
        let tmp = tempfile::tempdir().expect("tmp");
        let (model, tokenizer) = (tmp.path().join("model"), tmp.path().join("base"));
        std::fs::create_dir_all(&model).expect("mkdir");
        std::fs::create_dir_all(&tokenizer).expect("mkdir");
        let err = model_digest(&model, &tokenizer).expect_err("no weights");
        assert!(err.to_string().contains("no .safetensors"), "{err}");
        std::fs::write(model.join("model.safetensors"), b"weights").expect("write");
        std::fs::write(model.join("config.json"), b"{}").expect("write");
        std::fs::write(tokenizer.join("tokenizer.json"), b"vocab").expect("write");
        let first = model_digest(&model, &tokenizer).expect("digest");
        assert_eq!(first.len(), 64);
        std::fs::write(model.join("optimizer.safetensors"), b"moments").expect("write");
        std::fs::write(model.join("trainer_state.json"), b"{\"step\":1}").expect("write");
        assert_eq!(model_digest(&model, &tokenizer).expect("digest"), first);
        std::fs::write(model.join("model.safetensors"), b"weightz").expect("write");
        let second = model_digest(&model, &tokenizer).expect("digest");
        assert_ne!(second, first, "the weights");
        std::fs::write(tokenizer.join("tokenizer.json"), b"vocab2").expect("write");
        assert_ne!(model_digest(&model, &tokenizer).expect("digest"), second);
    }

    #[test]
    fn the_cache_keeps_a_value_under_its_key() {
        let tmp = tempfile::tempdir().expect("tmp");
        let dir = tmp.path().join("evals");
        let key = EvalKey::new(parts());
        assert_eq!(load::<serde_json::Value>(&dir, &key), None);
        let value = serde_json::json!({"pass_at_1": 0.5});
        let file = save(&dir, &key, &value).expect("save");
        assert_eq!(file, dir.join(format!("{}.json", key.id)));
        assert_eq!(load::<serde_json::Value>(&dir, &key), Some(value));
        std::fs::write(&file, "{ torn").expect("write");
        assert_eq!(load::<serde_json::Value>(&dir, &key), None);
    }
}
