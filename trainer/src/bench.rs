//! `trainer bench`: generation tokens per second at several batch sizes and the time of
//! a forward+backward pass, for our model and for transformers on the same weights, in
//! one run (the transformers side runs `scripts/bench_transformers.py` with the venv).

use std::path::Path;
use std::time::Instant;

use tch::{Device, Kind, Tensor};

use crate::generate::{Sampling, sample};
use crate::model::{Cache, Model, causal_mask};
use crate::{Error, Result};

/// The prompt both sides continue (the token ids of a short chat turn for SmolLM2).
pub const PROMPT: [i64; 13] = [
    1, 9690, 198, 2683, 253, 1789, 2429, 28, 2, 198, 1, 4093, 198,
];

/// Our measurements.
#[derive(Debug, Clone)]
pub struct Figures {
    /// (batch, generated tokens per second).
    pub generate: Vec<(usize, f64)>,
    /// Seconds of one forward+backward pass.
    pub train_step_seconds: f64,
}

/// Measures `model`: greedy generation of `new_tokens` at each batch size (after a
/// warm-up), and a forward+backward pass over `train_batch` x `train_seq` random tokens.
pub fn measure(
    model: &Model,
    new_tokens: usize,
    batches: &[usize],
    train_batch: i64,
    train_seq: i64,
) -> Result<Figures> {
    let mut generate = Vec::new();
    for &batch in batches {
        let prompts = vec![PROMPT.to_vec(); batch];
        // No stop sequence: every sequence generates all `new_tokens`, as on the Python side.
        let params = Sampling {
            temperature: 0.0,
            top_p: 1.0,
            top_k: 0,
            max_tokens: new_tokens,
            stop: vec![],
            seed: 0,
            pad_id: 2,
        };
        sample(model, &prompts, &params)?;
        let start = Instant::now();
        let out = sample(model, &prompts, &params)?;
        let elapsed = start.elapsed().as_secs_f64();
        let tokens: usize = out.iter().map(|s| s.tokens.len()).sum();
        generate.push((batch, tokens as f64 / elapsed));
    }
    let device = model.vs.device();
    tch::manual_seed(0);
    let ids = Tensor::randint(
        model.config.vocab_size as i64,
        [train_batch, train_seq],
        (Kind::Int64, device),
    );
    let positions = Tensor::arange(train_seq, (Kind::Int64, device))
        .view([1, train_seq])
        .repeat([train_batch, 1]);
    let mask = causal_mask(
        &Tensor::ones([train_batch, train_seq], (Kind::Int64, device)),
        train_seq,
    );
    let mut train_step_seconds = 0.0;
    for _ in 0..2 {
        let start = Instant::now();
        for mut var in model.vs.trainable_variables() {
            var.zero_grad();
        }
        let loss = model
            .forward(&ids, &positions, &mask, &mut Cache::default())
            .mean(Kind::Float);
        loss.f_backward()?;
        train_step_seconds = start.elapsed().as_secs_f64();
    }
    Ok(Figures {
        generate,
        train_step_seconds,
    })
}

/// Runs the transformers side and returns its JSON.
pub fn transformers(
    python: &Path,
    script: &Path,
    model_dir: &Path,
    new_tokens: usize,
    batches: &[usize],
    train_batch: i64,
    train_seq: i64,
) -> Result<serde_json::Value> {
    let batches: Vec<String> = batches.iter().map(ToString::to_string).collect();
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(model_dir)
        .arg(new_tokens.to_string())
        .arg(batches.join(","))
        .arg(train_batch.to_string())
        .arg(train_seq.to_string())
        .output()
        .map_err(|source| Error::Io {
            path: python.to_path_buf(),
            source,
        })?;
    if !out.status.success() {
        return Err(Error::Config(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last).map_err(|err| Error::Config(format!("{}: {err}", script.display())))
}

/// The device the benchmark runs on.
pub fn device() -> Device {
    Device::Cpu
}
