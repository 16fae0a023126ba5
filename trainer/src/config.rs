//! The model configuration, with the field names of Hugging Face `config.json` (Llama and
//! Qwen2 families).

use std::path::Path;

use serde::Deserialize;

use crate::{Error, Result};

/// `rope_parameters` as transformers 5 writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct RopeParameters {
    /// The rotary base.
    pub rope_theta: Option<f64>,
    /// `default` is the only type supported.
    pub rope_type: Option<String>,
}

/// A decoder's `config.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    /// `llama` or `qwen2`.
    pub model_type: String,
    /// Vocabulary size.
    pub vocab_size: usize,
    /// Width of the residual stream.
    pub hidden_size: usize,
    /// Width of the MLP.
    pub intermediate_size: usize,
    /// Number of decoder layers.
    pub num_hidden_layers: usize,
    /// Query heads.
    pub num_attention_heads: usize,
    /// Key/value heads (grouped-query attention); defaults to the query heads.
    pub num_key_value_heads: Option<usize>,
    /// Per-head width; defaults to `hidden_size / num_attention_heads`.
    pub head_dim: Option<usize>,
    /// RMSNorm epsilon.
    pub rms_norm_eps: f64,
    /// The rotary base (transformers 4 layout).
    pub rope_theta: Option<f64>,
    /// The rotary parameters (transformers 5 layout).
    pub rope_parameters: Option<RopeParameters>,
    /// `rope_scaling`: only absent (null) is supported.
    pub rope_scaling: Option<serde_json::Value>,
    /// Longest context.
    pub max_position_embeddings: usize,
    /// Whether the LM head shares the embedding matrix.
    #[serde(default)]
    pub tie_word_embeddings: bool,
    /// Bias on the q, k, v (and o for Llama) projections (Llama's flag).
    #[serde(default)]
    pub attention_bias: bool,
    /// The activation: only `silu`.
    #[serde(default = "silu")]
    pub hidden_act: String,
    /// End-of-sequence token id(s).
    pub eos_token_id: Option<serde_json::Value>,
}

fn silu() -> String {
    "silu".to_owned()
}

impl Config {
    /// Reads and checks `config.json`.
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let config: Config = serde_json::from_str(&text)
            .map_err(|err| Error::Config(format!("{}: {err}", path.display())))?;
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> Result<()> {
        if !matches!(self.model_type.as_str(), "llama" | "qwen2") {
            return Err(Error::Config(format!(
                "model_type `{}` is not supported (llama, qwen2)",
                self.model_type
            )));
        }
        if self.hidden_act != "silu" {
            return Err(Error::Config(format!(
                "hidden_act `{}` is not supported (silu)",
                self.hidden_act
            )));
        }
        if self.rope_scaling.as_ref().is_some_and(|v| !v.is_null()) {
            return Err(Error::Config(
                "rope_scaling is not supported yet".to_owned(),
            ));
        }
        if let Some(kind) = self
            .rope_parameters
            .as_ref()
            .and_then(|p| p.rope_type.as_deref())
            && kind != "default"
        {
            return Err(Error::Config(format!(
                "rope_type `{kind}` is not supported (default)"
            )));
        }
        if !self.num_attention_heads.is_multiple_of(self.kv_heads()) {
            return Err(Error::Config(
                "num_attention_heads must be a multiple of num_key_value_heads".to_owned(),
            ));
        }
        Ok(())
    }

    /// Key/value heads.
    pub fn kv_heads(&self) -> usize {
        self.num_key_value_heads.unwrap_or(self.num_attention_heads)
    }

    /// Per-head width.
    pub fn head_dim(&self) -> usize {
        self.head_dim
            .unwrap_or(self.hidden_size / self.num_attention_heads)
    }

    /// The rotary base.
    pub fn rope_theta(&self) -> f64 {
        self.rope_parameters
            .as_ref()
            .and_then(|p| p.rope_theta)
            .or(self.rope_theta)
            .unwrap_or(10_000.0)
    }

    /// Whether q, k and v carry a bias (always for Qwen2, by flag for Llama).
    pub fn qkv_bias(&self) -> bool {
        self.model_type == "qwen2" || self.attention_bias
    }

    /// Whether the output projection carries a bias (Llama's flag only).
    pub fn o_bias(&self) -> bool {
        self.model_type == "llama" && self.attention_bias
    }
}
