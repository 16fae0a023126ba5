//! `Qwen2ForCausalLM` (Qwen2, Qwen2.5 and their Coder variants): Llama with a bias on q, k
//! and v always and on o never (hard-coded in transformers; `attention_bias` is not
//! read), no MLP bias, and a sliding window that must be off.

use crate::Result;
use crate::config::{Arch, Config, Family};

/// The [`Arch`] of a Qwen2 `config.json`.
pub fn arch(config: &Config) -> Result<Arch> {
    super::no_sliding_window(config)?;
    let kv_heads = super::required_kv_heads(config)?;
    let head_dim = config
        .head_dim
        .unwrap_or(config.hidden_size / config.num_attention_heads.max(1));
    let mut arch = super::common(
        config,
        Family::Qwen2,
        "Qwen2ForCausalLM",
        kv_heads,
        head_dim,
    )?;
    arch.qkv_bias = true;
    Ok(arch)
}
