//! The model configuration: `config.json` with Hugging Face's field names, as published
//! checkpoints (transformers 4: top-level `rope_theta`/`rope_scaling`) and transformers 5
//! (`rope_parameters`) write it, and the [`Arch`] that a family's file
//! (`crate::family::{llama, qwen2, qwen3}`) derives from it: the decoder's knobs with no
//! family names, which `crate::model` builds from. This module is the vocabulary; the
//! checks are the families'.
//!
//! Every field that changes the forward pass is read; a value the decoder does not
//! implement (an architecture, a rope type, a sliding window, dropout) is refused with an
//! error naming the field and the value. Fields that change nothing here (token ids,
//! `torch_dtype`, `use_cache`, ...) are passed over.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::{Error, Result};

/// A decoder's `config.json`, as written (see [`Config::arch`] for what it means).
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    /// `llama`, `qwen2` or `qwen3`.
    pub model_type: String,
    /// The model classes the checkpoint names (`LlamaForCausalLM`, ...).
    #[serde(default)]
    pub architectures: Option<Vec<String>>,
    /// Vocabulary size (rows of the embedding).
    pub vocab_size: usize,
    /// Width of the residual stream.
    pub hidden_size: usize,
    /// Width of the MLP.
    pub intermediate_size: usize,
    /// Number of decoder layers.
    pub num_hidden_layers: usize,
    /// Query heads.
    pub num_attention_heads: usize,
    /// Key/value heads (grouped-query attention).
    pub num_key_value_heads: Option<usize>,
    /// Per-head width (the family decides its default).
    pub head_dim: Option<usize>,
    /// RMSNorm epsilon.
    pub rms_norm_eps: f64,
    /// The rotary base (transformers 4 layout).
    pub rope_theta: Option<f64>,
    /// The rotary scaling (transformers 4 layout): null or `{rope_type | type, factor, ...}`.
    pub rope_scaling: Option<Value>,
    /// The rotary base and scaling together (transformers 5 layout).
    pub rope_parameters: Option<Value>,
    /// Share of each head that rotates (only 1 is supported).
    pub partial_rotary_factor: Option<f64>,
    /// Longest context.
    pub max_position_embeddings: usize,
    /// Whether the LM head shares the embedding matrix.
    #[serde(default)]
    pub tie_word_embeddings: bool,
    /// Bias on the attention projections (Llama, Qwen3: q, k, v and o).
    #[serde(default)]
    pub attention_bias: bool,
    /// Bias on the MLP projections (Llama).
    #[serde(default)]
    pub mlp_bias: bool,
    /// The activation: only `silu`.
    #[serde(default = "silu")]
    pub hidden_act: String,
    /// Attention dropout while training (only 0 is supported).
    pub attention_dropout: Option<f64>,
    /// Qwen's sliding-window switch (only false is supported).
    pub use_sliding_window: Option<bool>,
    /// The window's width (read only where the family applies it).
    pub sliding_window: Option<Value>,
    /// transformers 5's per-layer attention kinds (only `full_attention`).
    pub layer_types: Option<Vec<String>>,
    /// End-of-sequence token id(s).
    pub eos_token_id: Option<Value>,
}

fn silu() -> String {
    "silu".to_owned()
}

/// The rotary embedding's frequencies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rope {
    /// The base θ.
    pub theta: f64,
    /// How the frequencies are rescaled for long contexts.
    pub scaling: RopeScaling,
}

/// A rope type of transformers' `modeling_rope_utils` that the decoder implements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RopeScaling {
    /// `default`: θ^(−2j/d).
    Default,
    /// `linear`: every frequency divided by `factor`.
    Linear {
        /// The divisor.
        factor: f64,
    },
    /// `llama3`: low frequencies divided by `factor`, high ones kept, a smooth ramp between.
    Llama3 {
        /// The divisor of the low frequencies.
        factor: f64,
        /// Wavelengths above `original / low_freq_factor` are divided.
        low_freq_factor: f64,
        /// Wavelengths below `original / high_freq_factor` are kept.
        high_freq_factor: f64,
        /// The pre-training context.
        original_max_position_embeddings: f64,
    },
}

/// Which file of `crate::family` made an [`Arch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `LlamaForCausalLM`.
    Llama,
    /// `Qwen2ForCausalLM`.
    Qwen2,
    /// `Qwen3ForCausalLM` (dense).
    Qwen3,
}

/// The decoder's knobs, with no family names: what `crate::model` builds.
#[derive(Debug, Clone, PartialEq)]
pub struct Arch {
    /// The family it came from (for messages).
    pub family: Family,
    /// Vocabulary size.
    pub vocab: usize,
    /// Width of the residual stream.
    pub hidden: usize,
    /// Width of the MLP.
    pub intermediate: usize,
    /// Decoder layers.
    pub layers: usize,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads.
    pub kv_heads: usize,
    /// Per-head width (scores are scaled by `head_dim^-0.5`).
    pub head_dim: usize,
    /// RMSNorm epsilon.
    pub eps: f64,
    /// Bias on q, k and v.
    pub qkv_bias: bool,
    /// Bias on o.
    pub o_bias: bool,
    /// Bias on gate, up and down.
    pub mlp_bias: bool,
    /// Per-head RMSNorm of q and k before the rotation (`q_norm`, `k_norm`).
    pub qk_norm: bool,
    /// The rotary embedding.
    pub rope: Rope,
    /// The LM head is the embedding matrix.
    pub tie: bool,
}

impl Config {
    /// Reads `config.json` as written (`crate::family::load` also checks that its family
    /// supports it).
    pub fn read(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text)
            .map_err(|err| Error::Config(format!("{}: {err}", path.display())))
    }
}

/// `field` `value` is not supported (`supported`): the refusal every check words alike.
pub(crate) fn unsupported(field: &str, value: impl std::fmt::Display, supported: &str) -> Error {
    Error::Config(format!("{field} `{value}` is not supported ({supported})"))
}
