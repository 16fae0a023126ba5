//! The supported families, one file each (`llama`, `qwen2`, `qwen3`), over the checks they
//! share here: each file maps a [`Config`] to an [`Arch`] and is the only code that
//! branches on `model_type`, so a family's differences from the others are read in one
//! place (as candle keeps one file per family, and transformers' `modular_*.py` states
//! each family as a diff of Llama's).
//!
//! Shared here: the rotary parameters in both `config.json` layouts, the activation,
//! dropout, sliding windows, the head counts and the architecture name.

pub mod llama;
pub mod qwen2;
pub mod qwen3;

use serde_json::Value;

use crate::Result;
use crate::config::{Arch, Config, Family, Rope, RopeScaling, unsupported};

/// The families by `model_type`.
pub const MODEL_TYPES: &str = "llama, qwen2, qwen3";

/// The [`Arch`] of `config`, from its family's file.
pub fn arch(config: &Config) -> Result<Arch> {
    match config.model_type.as_str() {
        "llama" => llama::arch(config),
        "qwen2" => qwen2::arch(config),
        "qwen3" => qwen3::arch(config),
        other => Err(unsupported("model_type", other, MODEL_TYPES)),
    }
}

/// What every family's `arch` starts from: the fields that mean the same in each, checked.
/// `kv_heads` and `head_dim` are the family's own reading of those fields; the biases,
/// norms and tie are set by the family afterwards (all off here but `tie`).
pub(crate) fn common(
    config: &Config,
    family: Family,
    architecture: &str,
    kv_heads: usize,
    head_dim: usize,
) -> Result<Arch> {
    if let Some(names) = &config.architectures
        && let Some(other) = names.iter().find(|n| *n != architecture)
    {
        return Err(unsupported("architectures", other, architecture));
    }
    if config.hidden_act != "silu" {
        return Err(unsupported("hidden_act", &config.hidden_act, "silu"));
    }
    if let Some(p) = config.attention_dropout
        && p != 0.0
    {
        return Err(unsupported("attention_dropout", p, "0"));
    }
    if let Some(f) = config.partial_rotary_factor
        && f != 1.0
    {
        return Err(unsupported("partial_rotary_factor", f, "1"));
    }
    if let Some(kinds) = &config.layer_types
        && let Some((i, k)) = kinds
            .iter()
            .enumerate()
            .find(|(_, k)| k.as_str() != "full_attention")
    {
        return Err(unsupported(
            &format!("layer_types[{i}]"),
            k,
            "full_attention",
        ));
    }
    if kv_heads == 0 || !config.num_attention_heads.is_multiple_of(kv_heads) {
        return Err(unsupported(
            "num_key_value_heads",
            kv_heads,
            &format!(
                "a divisor of num_attention_heads {}",
                config.num_attention_heads
            ),
        ));
    }
    if head_dim == 0 || !head_dim.is_multiple_of(2) {
        return Err(unsupported("head_dim", head_dim, "an even number"));
    }
    Ok(Arch {
        family,
        vocab: config.vocab_size,
        hidden: config.hidden_size,
        intermediate: config.intermediate_size,
        layers: config.num_hidden_layers,
        heads: config.num_attention_heads,
        kv_heads,
        head_dim,
        eps: config.rms_norm_eps,
        qkv_bias: false,
        o_bias: false,
        mlp_bias: false,
        qk_norm: false,
        rope: rope(config)?,
        tie: config.tie_word_embeddings,
    })
}

/// Qwen's window switch: only off (a window's width alone changes nothing in
/// transformers while `use_sliding_window` is false).
pub(crate) fn no_sliding_window(config: &Config) -> Result<()> {
    if config.use_sliding_window == Some(true) {
        return Err(unsupported(
            "use_sliding_window",
            true,
            "false: sliding windows are not implemented",
        ));
    }
    Ok(())
}

/// `num_key_value_heads`, which Qwen's config classes default to 32 when the key is
/// absent: a missing key is refused rather than guessed.
pub(crate) fn required_kv_heads(config: &Config) -> Result<usize> {
    config.num_key_value_heads.ok_or_else(|| {
        unsupported(
            "num_key_value_heads",
            "missing",
            "a number; the class default of 32 is not assumed",
        )
    })
}

/// The rotary parameters: transformers 5's `rope_parameters` block, else the top-level
/// `rope_theta` and `rope_scaling` (null for none); the type under `rope_type` or the
/// legacy `type`, `default` when neither.
fn rope(config: &Config) -> Result<Rope> {
    let (field, block) = match (&config.rope_parameters, &config.rope_scaling) {
        (Some(p), _) if !p.is_null() => ("rope_parameters", Some(p)),
        (_, Some(s)) if !s.is_null() => ("rope_scaling", Some(s)),
        _ => ("rope_scaling", None),
    };
    let theta = block
        .and_then(|b| b.get("rope_theta"))
        .and_then(Value::as_f64)
        .or(config.rope_theta)
        .unwrap_or(10_000.0);
    let Some(block) = block else {
        return Ok(Rope {
            theta,
            scaling: RopeScaling::Default,
        });
    };
    if !block.is_object() {
        return Err(unsupported(field, block, "an object"));
    }
    let kind = block
        .get("rope_type")
        .or_else(|| block.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("default");
    let number = |key: &str| -> Result<f64> {
        block
            .get(key)
            .and_then(Value::as_f64)
            .ok_or_else(|| unsupported(&format!("{field}.{key}"), "missing", "a number"))
    };
    let scaling = match kind {
        "default" => RopeScaling::Default,
        "linear" => RopeScaling::Linear {
            factor: number("factor")?,
        },
        "llama3" => RopeScaling::Llama3 {
            factor: number("factor")?,
            low_freq_factor: number("low_freq_factor")?,
            high_freq_factor: number("high_freq_factor")?,
            original_max_position_embeddings: block
                .get("original_max_position_embeddings")
                .and_then(Value::as_f64)
                .unwrap_or(config.max_position_embeddings as f64),
        },
        other => {
            return Err(unsupported(
                &format!("{field}.rope_type"),
                other,
                "default, linear, llama3",
            ));
        }
    };
    Ok(Rope { theta, scaling })
}
