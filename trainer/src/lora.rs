//! LoRA (Hu et al., 2021): low-rank adapters beside the frozen projections of the decoder.
//!
//! A target projection `W` (`[out, in]`) gains `A` (`[rank, in]`, uniform in
//! ±1/sqrt(in), as PEFT's Kaiming-uniform start) and `B` (`[out, rank]`, zeros), and
//! computes `x W^T + (alpha / rank) x A^T B^T`, so an adapter just attached changes
//! nothing. Only `A` and `B` train: the model's own variables are frozen, and the
//! optimizer holds moments for the adapters alone ([`crate::model::Model::trainable`]).
//!
//! Checkpoints hold plain Hugging Face weights with the adapters merged
//! (`W + (alpha / rank) B A`, [`crate::model::Model::merged_variables`]), so
//! `trainer serve --model` and transformers load them as they are; the adapters
//! themselves ([`ADAPTER_FILE`], their optimizer moments in `optimizer.safetensors`) and
//! their settings ([`SETTINGS_FILE`]) lie beside, and a resumed run loads the stage's
//! starting weights and puts the saved adapters back on them. The file names are not
//! PEFT's (`adapter_model.safetensors`, `adapter_config.json`): transformers would take
//! a folder holding those for an adapter to load onto a base model, not a merged model.

use tch::Tensor;

/// The adapters' tensors in a checkpoint, under `<projection>.lora_A` / `.lora_B`.
pub const ADAPTER_FILE: &str = "lora.safetensors";
/// The adapters' settings in a checkpoint (the configuration's `lora` block, as JSON).
pub const SETTINGS_FILE: &str = "lora.json";

/// The projections an adapter may go on, by their Hugging Face names within a layer.
pub const TARGETS: &[&str] = &[
    "q_proj",
    "k_proj",
    "v_proj",
    "o_proj",
    "gate_proj",
    "up_proj",
    "down_proj",
];

/// The `lora:` block of a training configuration.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoraConfig {
    /// The adapters' rank r.
    pub rank: i64,
    /// The scale's numerator: the update is `alpha / rank` times `B A`.
    pub alpha: f64,
    /// The projections that get an adapter, in every layer (names from [`TARGETS`]).
    pub targets: Vec<String>,
}

impl Default for LoraConfig {
    fn default() -> Self {
        LoraConfig {
            rank: 16,
            alpha: 32.0,
            targets: TARGETS.iter().map(|t| (*t).to_owned()).collect(),
        }
    }
}

/// A `lora` block that cannot be used, naming the field.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("lora.{field}: {message}")]
pub struct LoraError {
    /// The field.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl LoraConfig {
    /// Checks the rank, the scale and the targets.
    pub fn validate(&self) -> Result<(), LoraError> {
        let bad = |field, message: String| Err(LoraError { field, message });
        if self.rank < 1 {
            return bad("rank", format!("must be at least 1, not {}", self.rank));
        }
        if !(self.alpha.is_finite() && self.alpha > 0.0) {
            return bad("alpha", format!("must be positive, not {}", self.alpha));
        }
        if self.targets.is_empty() {
            return bad("targets", "names no projection".to_owned());
        }
        let mut seen = std::collections::BTreeSet::new();
        for t in &self.targets {
            if !TARGETS.contains(&t.as_str()) {
                return bad(
                    "targets",
                    format!("{t:?} is not a projection ({})", TARGETS.join(", ")),
                );
            }
            if !seen.insert(t.as_str()) {
                return bad("targets", format!("{t:?} is listed twice"));
            }
        }
        Ok(())
    }

    /// The factor on `B A`: alpha / rank.
    pub fn scale(&self) -> f64 {
        self.alpha / self.rank as f64
    }
}

/// One projection's adapter: views of its two variables (held by the model's adapter
/// `VarStore`) and the scale.
#[derive(Debug)]
pub struct Adapter {
    /// `[rank, in]`.
    pub a: Tensor,
    /// `[out, rank]`.
    pub b: Tensor,
    /// alpha / rank.
    pub scale: f64,
}

impl Adapter {
    /// The adapter's output for `xs` (`[.., in]`), its products taken in `compute`.
    pub fn forward(&self, xs: &Tensor, compute: tch::Kind) -> Tensor {
        xs.to_kind(compute)
            .matmul(&self.a.to_kind(compute).tr())
            .matmul(&self.b.to_kind(compute).tr())
            * self.scale
    }

    /// The weight update it stands for, `scale * B A` (`[out, in]`), in float32 and
    /// outside the graph.
    pub fn delta(&self) -> Tensor {
        tch::no_grad(|| {
            self.b
                .to_kind(tch::Kind::Float)
                .matmul(&self.a.to_kind(tch::Kind::Float))
                * self.scale
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_blocks_are_named() {
        assert!(LoraConfig::default().validate().is_ok());
        let with = |f: fn(&mut LoraConfig)| {
            let mut c = LoraConfig::default();
            f(&mut c);
            c.validate().expect_err("refused").field
        };
        assert_eq!(with(|c| c.rank = 0), "rank");
        assert_eq!(with(|c| c.alpha = 0.0), "alpha");
        assert_eq!(with(|c| c.alpha = f64::NAN), "alpha");
        assert_eq!(with(|c| c.targets.clear()), "targets");
        assert_eq!(with(|c| c.targets = vec!["lm_head".into()]), "targets");
        assert_eq!(
            with(|c| c.targets = vec!["q_proj".into(), "q_proj".into()]),
            "targets"
        );
        let e = LoraConfig {
            targets: vec!["qproj".into()],
            ..LoraConfig::default()
        }
        .validate()
        .expect_err("refused");
        assert!(
            e.to_string().contains("\"qproj\" is not a projection"),
            "{e}"
        );
    }

    #[test]
    fn an_adapter_computes_its_delta() {
        let a = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).view([2, 3]);
        let b = Tensor::from_slice(&[1.0f32, 0.0, 0.5, -1.0]).view([2, 2]);
        let ad = Adapter { a, b, scale: 2.0 };
        let x = Tensor::from_slice(&[1.0f32, -1.0, 0.5]).view([1, 3]);
        let through = ad.forward(&x, tch::Kind::Float);
        let merged = x.matmul(&ad.delta().tr());
        let diff = (through - merged).abs().max().double_value(&[]);
        assert!(diff < 1e-6, "{diff}");
        // B A = [[1, 2, 3], [0.5 - 4, 1 - 5, 1.5 - 6]], times 2.
        let d: Vec<f32> = ad.delta().view([-1]).try_into().expect("floats");
        assert_eq!(d, vec![2.0, 4.0, 6.0, -7.0, -8.0, -9.0]);
    }
}
