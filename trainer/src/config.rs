//! The model configuration: `config.json` with Hugging Face's field names, as published
//! checkpoints (transformers 4: top-level `rope_theta`/`rope_scaling`) and transformers 5
//! (`rope_parameters`) write it, and the [`Arch`] that a family's file
//! (`crate::family::{llama, qwen2, qwen3}`) derives from it: the decoder's knobs with no
//! family names, which `crate::model` builds from.
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
    /// Reads `config.json` and checks that its family supports it ([`Config::arch`]).
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let config: Config = serde_json::from_str(&text)
            .map_err(|err| Error::Config(format!("{}: {err}", path.display())))?;
        config
            .arch()
            .map_err(|err| Error::Config(format!("{}: {}", path.display(), unwrap_config(err))))?;
        Ok(config)
    }

    /// The decoder this configuration describes, from its family's file; an unsupported
    /// field or value is an error naming it.
    pub fn arch(&self) -> Result<Arch> {
        crate::family::arch(self)
    }
}

fn unwrap_config(err: Error) -> String {
    match err {
        Error::Config(message) => message,
        other => other.to_string(),
    }
}

/// `field` `value` is not supported (`supported`): the refusal every check words alike.
pub(crate) fn unsupported(field: &str, value: impl std::fmt::Display, supported: &str) -> Error {
    Error::Config(format!("{field} `{value}` is not supported ({supported})"))
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
        parse(json).arch().expect_err("refused").to_string()
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
        assert_eq!(parse(v4).arch().expect("v4").rope, want);
        assert_eq!(parse(v5).arch().expect("v5").rope, want);
        // The legacy key `type`, and `linear`.
        let mut legacy = base("llama");
        legacy["rope_scaling"] = serde_json::json!({"type": "linear", "factor": 2.0});
        let arch = parse(legacy).arch().expect("linear");
        assert_eq!(
            arch.rope,
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
        match parse(short).arch().expect("llama3").rope.scaling {
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
        let arch = parse(plain).arch().expect("default");
        assert_eq!(arch.rope.theta, 1e6);
        assert_eq!(arch.rope.scaling, RopeScaling::Default);
    }

    #[test]
    fn each_family_sets_its_own_knobs() {
        let mut llama = base("llama");
        llama["architectures"] = serde_json::json!(["LlamaForCausalLM"]);
        llama["attention_bias"] = true.into();
        llama["mlp_bias"] = true.into();
        llama["tie_word_embeddings"] = true.into();
        let a = parse(llama).arch().expect("llama");
        assert_eq!(a.family, Family::Llama);
        assert!(a.qkv_bias && a.o_bias && a.mlp_bias && !a.qk_norm && a.tie);
        assert_eq!((a.heads, a.kv_heads, a.head_dim), (4, 2, 8));

        let a = parse(base("qwen2")).arch().expect("qwen2");
        assert_eq!(a.family, Family::Qwen2);
        assert!(a.qkv_bias && !a.o_bias && !a.mlp_bias && !a.qk_norm && !a.tie);

        let mut qwen3 = base("qwen3");
        qwen3["head_dim"] = 16.into();
        qwen3["use_sliding_window"] = false.into();
        qwen3["sliding_window"] = Value::Null;
        qwen3["layer_types"] = serde_json::json!(["full_attention", "full_attention"]);
        let a = parse(qwen3).arch().expect("qwen3");
        assert_eq!(a.family, Family::Qwen3);
        assert!(!a.qkv_bias && !a.o_bias && a.qk_norm);
        assert_eq!(a.head_dim, 16, "explicit, not hidden / heads");
        // Qwen3's class default head_dim is 128, not hidden / heads.
        assert_eq!(parse(base("qwen3")).arch().expect("qwen3").head_dim, 128);
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
        let err = Config::load(&path).expect_err("refused").to_string();
        assert!(
            err.contains(&format!(
                "{}: rope_scaling.rope_type `longrope` is not supported",
                path.display()
            )),
            "{err}"
        );
    }
}
