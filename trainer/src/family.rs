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

use std::path::Path;

use serde_json::Value;

use crate::config::{Arch, Config, Family, Rope, RopeScaling, unsupported};
use crate::{Error, Result};

/// The families by `model_type`.
pub const MODEL_TYPES: &str = "llama, qwen2, qwen3";

/// Reads `config.json` at `path` and derives its [`Arch`]: an unsupported field or value
/// is an error naming the file, the field and the value.
pub fn load(path: &Path) -> Result<(Config, Arch)> {
    let config = Config::read(path)?;
    let arch = arch(&config).map_err(|err| match err {
        Error::Config(message) => Error::Config(format!("{}: {message}", path.display())),
        other => other,
    })?;
    Ok((config, arch))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: Value) -> Config {
        serde_json::from_value(json).expect("config parses")
    }

    fn base(model_type: &str) -> Value {
        serde_json::json!({
            "model_type": model_type, "vocab_size": 64, "hidden_size": 32,
            "intermediate_size": 48, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "rms_norm_eps": 1e-5, "max_position_embeddings": 128
        })
    }

    fn refusal(json: Value) -> String {
        arch(&parse(json)).expect_err("refused").to_string()
    }

    #[test]
    fn llama3_scaling_reads_alike_in_both_layouts() {
        let scaling = serde_json::json!({
            "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192
        });
        let mut v4 = base("llama");
        v4["rope_theta"] = serde_json::json!(500000);
        let mut s = scaling.clone();
        s["rope_type"] = "llama3".into();
        v4["rope_scaling"] = s;
        let mut v5 = base("llama");
        let mut p = scaling.clone();
        p["rope_type"] = "llama3".into();
        p["rope_theta"] = serde_json::json!(500000.0);
        v5["rope_parameters"] = p;
        let want = Rope {
            theta: 500000.0,
            scaling: RopeScaling::Llama3 {
                factor: 32.0,
                low_freq_factor: 1.0,
                high_freq_factor: 4.0,
                original_max_position_embeddings: 8192.0,
            },
        };
        assert_eq!(arch(&parse(v4)).expect("v4").rope, want);
        assert_eq!(arch(&parse(v5)).expect("v5").rope, want);
        // The legacy key `type`, and `linear`.
        let mut legacy = base("llama");
        legacy["rope_scaling"] = serde_json::json!({"type": "linear", "factor": 2.0});
        let linear = arch(&parse(legacy)).expect("linear");
        assert_eq!(
            linear.rope,
            Rope {
                theta: 10000.0,
                scaling: RopeScaling::Linear { factor: 2.0 }
            }
        );
        // llama3 without original_max_position_embeddings takes max_position_embeddings.
        let mut short = base("llama");
        short["rope_scaling"] = serde_json::json!({
            "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0
        });
        match arch(&parse(short)).expect("llama3").rope.scaling {
            RopeScaling::Llama3 {
                original_max_position_embeddings,
                ..
            } => assert_eq!(original_max_position_embeddings, 128.0),
            other => panic!("{other:?}"),
        }
        // `default` and null are the plain rope.
        let mut plain = base("qwen2");
        plain["rope_parameters"] = serde_json::json!({"rope_type": "default", "rope_theta": 1e6});
        plain["rope_scaling"] = Value::Null;
        let plain = arch(&parse(plain)).expect("default");
        assert_eq!(plain.rope.theta, 1e6);
        assert_eq!(plain.rope.scaling, RopeScaling::Default);
    }

    #[test]
    fn each_family_sets_its_own_knobs() {
        let mut llama = base("llama");
        llama["architectures"] = serde_json::json!(["LlamaForCausalLM"]);
        llama["attention_bias"] = true.into();
        llama["mlp_bias"] = true.into();
        llama["tie_word_embeddings"] = true.into();
        let a = arch(&parse(llama)).expect("llama");
        assert_eq!(a.family, Family::Llama);
        assert!(a.qkv_bias && a.o_bias && a.mlp_bias && !a.qk_norm && a.tie);
        assert_eq!((a.heads, a.kv_heads, a.head_dim), (4, 2, 8));

        let a = arch(&parse(base("qwen2"))).expect("qwen2");
        assert_eq!(a.family, Family::Qwen2);
        assert!(a.qkv_bias && !a.o_bias && !a.mlp_bias && !a.qk_norm && !a.tie);

        let mut qwen3 = base("qwen3");
        qwen3["head_dim"] = 16.into();
        qwen3["use_sliding_window"] = false.into();
        qwen3["sliding_window"] = Value::Null;
        qwen3["layer_types"] = serde_json::json!(["full_attention", "full_attention"]);
        let a = arch(&parse(qwen3)).expect("qwen3");
        assert_eq!(a.family, Family::Qwen3);
        assert!(!a.qkv_bias && !a.o_bias && a.qk_norm);
        assert_eq!(a.head_dim, 16, "explicit, not hidden / heads");
        // Qwen3's class default head_dim is 128, not hidden / heads.
        assert_eq!(arch(&parse(base("qwen3"))).expect("qwen3").head_dim, 128);
    }

    #[test]
    fn unsupported_fields_and_values_are_refused_by_name() {
        let cases: Vec<(Value, &str)> = vec![
            (
                base("gpt2"),
                "model_type `gpt2` is not supported (llama, qwen2, qwen3)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["architectures"] = serde_json::json!(["LlamaForSequenceClassification"]);
                    c
                },
                "architectures `LlamaForSequenceClassification` is not supported (LlamaForCausalLM)",
            ),
            (
                {
                    let mut c = base("qwen2");
                    c["rope_scaling"] = serde_json::json!({"rope_type": "yarn", "factor": 4.0});
                    c
                },
                "rope_scaling.rope_type `yarn` is not supported (default, linear, llama3)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["rope_parameters"] =
                        serde_json::json!({"rope_type": "dynamic", "factor": 2.0});
                    c
                },
                "rope_parameters.rope_type `dynamic` is not supported (default, linear, llama3)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["rope_scaling"] = serde_json::json!({"rope_type": "llama3", "factor": 8.0});
                    c
                },
                "rope_scaling.low_freq_factor `missing` is not supported (a number)",
            ),
            (
                {
                    let mut c = base("qwen2");
                    c["use_sliding_window"] = true.into();
                    c["sliding_window"] = 4096.into();
                    c
                },
                "use_sliding_window `true` is not supported (false: sliding windows are not implemented)",
            ),
            (
                {
                    let mut c = base("qwen3");
                    c["layer_types"] = serde_json::json!(["full_attention", "sliding_attention"]);
                    c
                },
                "layer_types[1] `sliding_attention` is not supported (full_attention)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["hidden_act"] = "gelu".into();
                    c
                },
                "hidden_act `gelu` is not supported (silu)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["partial_rotary_factor"] = 0.5.into();
                    c
                },
                "partial_rotary_factor `0.5` is not supported (1)",
            ),
            (
                {
                    let mut c = base("qwen2");
                    c["attention_dropout"] = 0.1.into();
                    c
                },
                "attention_dropout `0.1` is not supported (0)",
            ),
            (
                {
                    let mut c = base("llama");
                    c["num_key_value_heads"] = 3.into();
                    c
                },
                "num_key_value_heads `3` is not supported (a divisor of num_attention_heads 4)",
            ),
            (
                {
                    let mut c = base("qwen3");
                    c.as_object_mut()
                        .expect("object")
                        .remove("num_key_value_heads");
                    c
                },
                "num_key_value_heads `missing` is not supported (a number",
            ),
        ];
        for (json, want) in cases {
            let got = refusal(json.clone());
            assert!(got.contains(want), "{json}\n got: {got}\nwant: {want}");
        }
    }

    #[test]
    fn load_names_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("config.json");
        let mut c = base("qwen2");
        c["rope_scaling"] = serde_json::json!({"type": "longrope"});
        std::fs::write(&path, c.to_string()).expect("write");
        let err = load(&path).expect_err("refused").to_string();
        assert!(
            err.contains(&format!(
                "{}: rope_scaling.rope_type `longrope` is not supported",
                path.display()
            )),
            "{err}"
        );
    }
}
