//! `LlamaForCausalLM` (Llama 3.x as published, and SmolLM2): the base every other family
//! is stated against. No biases unless `attention_bias` (q, k, v and o) or `mlp_bias`;
//! `head_dim` defaults to hidden / heads and `num_key_value_heads` to the heads; the
//! rotary scaling of Llama 3.x is `llama3`.

use crate::Result;
use crate::config::{Arch, Config, Family};

/// The [`Arch`] of a Llama `config.json`.
pub fn arch(config: &Config) -> Result<Arch> {
    let kv_heads = config
        .num_key_value_heads
        .unwrap_or(config.num_attention_heads);
    let head_dim = config
        .head_dim
        .unwrap_or(config.hidden_size / config.num_attention_heads.max(1));
    let mut arch = super::common(
        config,
        Family::Llama,
        "LlamaForCausalLM",
        kv_heads,
        head_dim,
    )?;
    arch.qkv_bias = config.attention_bias;
    arch.o_bias = config.attention_bias;
    arch.mlp_bias = config.mlp_bias;
    Ok(arch)
}
