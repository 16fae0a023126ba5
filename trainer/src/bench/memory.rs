//! `trainer bench-memory`: the peak memory of one GRPO update on a random model of a
//! published shape (Qwen2.5-0.5B by default), nothing downloaded: full fine-tuning or LoRA,
//! with or without activation checkpointing (`Model::forward_checkpointed`). One rollout of
//! `tokens` tokens (half prompt, half completion) in one micro-batch, float32 weights
//! with AdamW's float32 moments (the matrix products in float32 or, with `--dtype bf16`,
//! in bf16 by `crate::precision`'s rule). Run each setting in its own process: the figure is the
//! process's peak resident set (`VmHWM`; host memory, so a CPU figure).

use std::time::Instant;

use tch::{Device, Kind, Tensor};

use crate::Result;
use crate::bench::precision::peak_rss_mib;
use crate::config::Config;
use crate::grpo::logprob::sequence_logprobs;
use crate::grpo::step::{Rollout, StepConfig, optimizer_step};
use crate::lora::LoraConfig;
use crate::model::Model;
use crate::optim::{AdamW, OptimConfig};

/// Qwen2.5-0.5B's `config.json` fields (tied, 24 layers of 896, 14 heads over 2).
pub fn qwen25_05b_shape() -> Config {
    serde_json::from_value(serde_json::json!({
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
        "vocab_size": 151936, "hidden_size": 896, "intermediate_size": 4864,
        "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
        "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "max_position_embeddings": 32768,
        "tie_word_embeddings": true, "use_sliding_window": false, "sliding_window": null
    }))
    .expect("invariant: a valid configuration")
}

/// What one update cost.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MemoryFigures {
    /// The model's parameters.
    pub parameters: i64,
    /// The parameters the optimizer trains.
    pub trainable: i64,
    /// Peak resident MiB once the model was built (weights only).
    pub weights_peak_mib: f64,
    /// Peak resident MiB after the update.
    pub update_peak_mib: f64,
    /// Seconds of the update (forward, backward, AdamW).
    pub update_seconds: f64,
    /// The update's loss (finite: the update ran).
    pub loss: f64,
}

/// One update of `config`'s random model on `device` over a rollout of `tokens` tokens,
/// the matrix products in `compute` (`crate::precision`: float32 masters either way).
pub fn measure(
    config: Config,
    device: Device,
    compute: Kind,
    tokens: usize,
    lora: bool,
    checkpointing: bool,
) -> Result<MemoryFigures> {
    tch::manual_seed(0);
    let vocab = config.vocab_size as i64;
    let mut model = Model::try_new(config, device)?;
    let parameters: i64 = model
        .vs
        .variables()
        .values()
        .map(Tensor::numel)
        .sum::<usize>() as i64;
    if lora {
        model.attach_lora(&LoraConfig::default(), 1);
    }
    model.set_checkpointing(checkpointing);
    model.set_compute(compute);
    let trainable: i64 = model
        .trainable()
        .trainable_variables()
        .iter()
        .map(Tensor::numel)
        .sum::<usize>() as i64;
    let weights_peak_mib = peak_rss_mib();
    let seq: Vec<i64> = Vec::try_from(Tensor::randint(
        vocab,
        [tokens as i64],
        (Kind::Int64, Device::Cpu),
    ))?;
    let logp = tch::no_grad(|| sequence_logprobs(&model, std::slice::from_ref(&seq)))
        .map_err(crate::Error::Optimize)?;
    let action: Vec<bool> = (0..tokens).map(|k| k >= tokens / 2).collect();
    let rows = vec![Rollout::fixed(seq, action, 1.0, &logp, 0)];
    drop(logp);
    let mut optimizer =
        AdamW::new(model.trainable(), OptimConfig::default()).map_err(crate::Error::Optimize)?;
    let step = StepConfig {
        micro_batch: 1,
        ..StepConfig::default()
    };
    let start = Instant::now();
    let report = optimizer_step(&model, None, &mut optimizer, &rows, &step, None)
        .map_err(crate::Error::Optimize)?;
    if let Device::Cuda(_) = device {
        tch::Cuda::synchronize(0);
    }
    Ok(MemoryFigures {
        parameters,
        trainable,
        weights_peak_mib,
        update_peak_mib: peak_rss_mib(),
        update_seconds: start.elapsed().as_secs_f64(),
        loss: report.loss,
    })
}
