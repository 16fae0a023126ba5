//! `trainer gpu-check`: the trainer on a CUDA device, checked against the CPU with nothing
//! downloaded: a small Llama with random weights built on the spot (SmolLM2's shapes:
//! 576 wide, 30 layers, 9 heads over 3 key-value heads, a 49,152-token vocabulary), the
//! log-probabilities of a fixed batch on the CPU and on CUDA in float32 and bf16 (with bf16's
//! own error against float32 on each device, the scale to read the gap on), GRPO updates
//! of 8 and 64 rows (the 64 also in micro-batches of 16 and 32 rows, sizes for a card
//! rather than a CPU), and tokens per second and update seconds; then a random model of
//! Qwen2.5-0.5B's shape: GRPO updates, update time and device memory at micro-batches of
//! 8 and 32 rows (with and without activation checkpointing), generation at batch 1 and
//! 64.
//! Without a CUDA device it says so and succeeds: it is a check to run where a GPU is
//! at hand (`ci/gpu-check`), not a test.

use std::time::Instant;

use tch::{Device, Kind, Tensor};

use crate::bench::precision::{computed_tokens, generation, shared_prompt_batch, time_update};
use crate::config::Config;
use crate::grpo::logprob::sequence_logprobs;
use crate::model::Model;
use crate::{Error, Result};

/// The random model's configuration: SmolLM2-135M's shapes.
pub fn smollm2_shapes() -> Config {
    serde_json::from_value(serde_json::json!({
        "model_type": "llama", "vocab_size": 49152, "hidden_size": 576,
        "intermediate_size": 1536, "num_hidden_layers": 30, "num_attention_heads": 9,
        "num_key_value_heads": 3, "rms_norm_eps": 1e-5, "rope_theta": 100000.0,
        "max_position_embeddings": 8192, "tie_word_embeddings": true
    }))
    .expect("invariant: a valid configuration")
}

/// Writes the check's report to `r`, one finding per line as it is measured (so that a
/// run the card stops, by its memory say, keeps the lines before); `false` when no CUDA
/// device is available.
pub fn check(r: &mut dyn std::io::Write) -> Result<bool> {
    if !tch::Cuda::is_available() {
        return Ok(false);
    }
    let gpu = Device::Cuda(0);
    let _ = writeln!(
        r,
        "CUDA devices: {}; cuDNN: {}",
        tch::Cuda::device_count(),
        tch::Cuda::cudnn_is_available()
    );
    tch::manual_seed(0);
    let config = smollm2_shapes();
    let mut cpu = Model::new(config.clone(), Device::Cpu);
    let mut cuda = Model::new(config.clone(), gpu);
    cuda.vs.copy(&cpu.vs)?;
    // A fixed batch: 4 rows of 256 random tokens.
    let ids = Tensor::randint(
        config.vocab_size as i64,
        [4, 256],
        (Kind::Int64, Device::Cpu),
    );
    let seqs: Vec<Vec<i64>> = (0..4)
        .map(|i| Vec::<i64>::try_from(ids.get(i)).map_err(Error::from))
        .collect::<Result<_>>()?;
    // Each device's log-probabilities in each precision; bf16's own error on this random
    // model (bf16 against float32 on one device) is the scale the CPU-CUDA gap is read on.
    let mut logprobs = Vec::new();
    for kind in [Kind::Float, Kind::BFloat16] {
        cpu.set_compute(kind);
        cuda.set_compute(kind);
        let a = tch::no_grad(|| sequence_logprobs(&cpu, &seqs)).map_err(Error::Optimize)?;
        let b = tch::no_grad(|| sequence_logprobs(&cuda, &seqs)).map_err(Error::Optimize)?;
        logprobs.push((kind, a, b.to_device(Device::Cpu)));
    }
    let gap = |x: &Tensor, y: &Tensor| {
        let d = (x - y).abs();
        format!(
            "mean |diff| {:.2e}, max {:.2e}",
            d.mean(Kind::Double).double_value(&[]),
            d.max().double_value(&[])
        )
    };
    for (kind, a, b) in &logprobs {
        let _ = writeln!(
            r,
            "log-probabilities CPU against CUDA, {}: {} (4 rows x 256 tokens)",
            crate::precision::kind_name(*kind),
            gap(a, b)
        );
    }
    let (f32s, bf16s) = (&logprobs[0], &logprobs[1]);
    let _ = writeln!(
        r,
        "log-probabilities bf16 against f32, on the CPU: {}; on CUDA: {}",
        gap(&f32s.1, &bf16s.1),
        gap(&f32s.2, &bf16s.2)
    );
    drop(cpu);
    for kind in [Kind::Float, Kind::BFloat16] {
        cuda.set_compute(kind);
        let step = crate::train::TrainConfig::default().step();
        // The 64-row batch is kept for the wider micro-batches below.
        let mut rows = Vec::new();
        for n in [8, 64] {
            rows = shared_prompt_batch(&cuda, n, 700, 400)?;
            let start = Instant::now();
            let seconds = time_update(&cuda, &rows, &step, 3)?;
            let tokens = computed_tokens(&rows);
            let _ = writeln!(
                r,
                "GRPO update, {}: {seconds:.3} s per update ({n} rows sharing a 700-token prompt, {tokens} tokens, {:.0} tokens/s; median of 3 after a warm-up; {:.1} s in all)",
                crate::precision::kind_name(kind),
                tokens as f64 / seconds,
                start.elapsed().as_secs_f64()
            );
        }
        // What the card wants: the same 64 rows in fewer, larger micro-batches (the CPU's 4
        // is a CPU choice; the 700-token prompt is computed once per micro-batch). All 64 at
        // once ran out of an 80 GB card's memory in float32 (the vocabulary's logits).
        let tokens = computed_tokens(&rows);
        for micro_batch in [16, 32] {
            let wide = crate::grpo::step::StepConfig {
                micro_batch,
                micro_batch_tokens: usize::MAX,
                ..step
            };
            let seconds = time_update(&cuda, &rows, &wide, 3)?;
            let _ = writeln!(
                r,
                "GRPO update, {}: {seconds:.3} s per update (64 rows in micro-batches of {micro_batch}, {:.0} tokens/s; median of 3 after a warm-up)",
                crate::precision::kind_name(kind),
                tokens as f64 / seconds
            );
        }
        let mut sampler = Model::new(config.clone(), gpu);
        sampler.vs.copy(&cuda.vs)?;
        sampler.hold_in(kind);
        for (batch, tps) in generation(&sampler, 64, &[1, 16, 64], 3)? {
            let _ = writeln!(
                r,
                "generate, {}: {tps:.1} tokens/s at batch {batch} (greedy, 64 new tokens)",
                crate::precision::kind_name(kind)
            );
        }
    }
    drop(cuda);
    qwen_shape(r, gpu)?;
    Ok(true)
}

/// The device's memory in use in MiB as `nvidia-smi` reports it (after a measurement:
/// the caching allocator's reserve, which holds the peak it reached), or `None` without
/// the tool.
fn device_memory_mib() -> Option<f64> {
    let out = std::process::Command::new("nvidia-smi")
        .args([
            "--query-gpu=memory.used",
            "--format=csv,noheader,nounits",
            "-i",
            "0",
        ])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// `f`'s line, or the failure (a CUDA error, such as running out of memory, is a panic
/// in tch) as the line: one setting's failure does not hide the next.
fn line_or_failure(what: &str, f: impl FnOnce() -> Result<String>) -> String {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(line)) => line,
        Ok(Err(err)) => format!("{what}: failed: {err}"),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            let first = message.lines().next().unwrap_or_default();
            format!("{what}: failed: {first}")
        }
    }
}

/// A random model of Qwen2.5-0.5B's shape on the card, float32: 3 GRPO updates of 8
/// rows, the update's time and the device memory at micro-batches of 8 and 32 rows (32
/// also with activation checkpointing), and greedy generation at batch 1 and 64.
fn qwen_shape(r: &mut dyn std::io::Write, gpu: Device) -> Result<()> {
    let config = crate::bench::memory::qwen25_05b_shape();
    let _ = writeln!(
        r,
        "Qwen2.5-0.5B's shape (random, float32): 24 layers of 896, 14 heads over 2, vocabulary 151,936, tied"
    );
    let mut model = Model::new(config, gpu);
    let step = crate::train::TrainConfig::default().step();
    let line = line_or_failure("3 GRPO updates", || {
        let rows = shared_prompt_batch(&model, 8, 512, 512)?;
        let seconds = time_update(&model, &rows, &step, 3)?;
        Ok(format!(
            "GRPO update: {seconds:.3} s (8 rows sharing a 512-token prompt, replies up to 512, {} tokens; median of 3 after a warm-up)",
            computed_tokens(&rows)
        ))
    });
    let _ = writeln!(r, "{line}");
    for (micro_batch, checkpointing) in [(8, false), (32, false), (32, true)] {
        model.set_checkpointing(checkpointing);
        let what = format!("micro-batch {micro_batch}, checkpointing {checkpointing}");
        let line = line_or_failure(&what, || {
            let rows = shared_prompt_batch(&model, micro_batch, 256, 256)?;
            let wide = crate::grpo::step::StepConfig {
                micro_batch,
                micro_batch_tokens: usize::MAX,
                ..step
            };
            let seconds = time_update(&model, &rows, &wide, 2)?;
            tch::Cuda::synchronize(0);
            Ok(format!(
                "GRPO update, {what}: {seconds:.3} s ({micro_batch} rows sharing a 256-token prompt, replies up to 256, {} tokens); device memory in use after: {} MiB",
                computed_tokens(&rows),
                device_memory_mib()
                    .map_or("unknown (no nvidia-smi)".to_owned(), |m| format!("{m:.0}"))
            ))
        });
        let _ = writeln!(r, "{line}");
    }
    model.set_checkpointing(false);
    let line = line_or_failure("generation", || {
        let figures = generation(&model, 64, &[1, 64], 3)?;
        Ok(figures
            .iter()
            .map(|(batch, tps)| {
                format!("generate: {tps:.1} tokens/s at batch {batch} (greedy, 64 new tokens)")
            })
            .collect::<Vec<_>>()
            .join("\n"))
    });
    let _ = writeln!(r, "{line}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_model_has_smollm2s_shapes() {
        let c = smollm2_shapes();
        assert_eq!((c.hidden_size, c.num_hidden_layers), (576, 30));
        assert_eq!(crate::family::arch(&c).expect("supported").kv_heads, 3);
    }

    #[test]
    fn without_cuda_the_check_reports_nothing_to_check() {
        if tch::Cuda::is_available() {
            return;
        }
        let mut report = Vec::new();
        assert!(!check(&mut report).expect("no error"));
        assert!(report.is_empty());
    }
}
