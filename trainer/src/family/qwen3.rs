//! `Qwen3ForCausalLM` (dense Qwen3): Llama with a per-head RMSNorm on q and on k
//! (`q_norm`, `k_norm`: one `[head_dim]` weight each, applied before the rotation), an
//! explicit `head_dim` (class default 128, which may differ from hidden / heads), biases
//! only with `attention_bias` (q, k, v and o), and a sliding window that must be off.

use crate::Result;
use crate::config::{Arch, Config, Family};

/// Qwen3's `head_dim` when the key is absent (its config class's default).
const DEFAULT_HEAD_DIM: usize = 128;

/// The [`Arch`] of a Qwen3 `config.json`.
pub fn arch(config: &Config) -> Result<Arch> {
    super::no_sliding_window(config)?;
    let kv_heads = super::required_kv_heads(config)?;
    let head_dim = config.head_dim.unwrap_or(DEFAULT_HEAD_DIM);
    let mut arch = super::common(
        config,
        Family::Qwen3,
        "Qwen3ForCausalLM",
        kv_heads,
        head_dim,
    )?;
    arch.qkv_bias = config.attention_bias;
    arch.o_bias = config.attention_bias;
    arch.qk_norm = true;
    Ok(arch)
}
