//! `trainer bench-transformers`: generation tokens per second at several batch sizes and the time of
//! a forward+backward pass, for our model and for transformers on the same weights, in
//! one run (the transformers side runs `scripts/bench_transformers.py` with the venv).
//!
//! Two measurements of training work on the same model in the same run:
//! - [`rollouts`]: a training step's replies (groups of G, lengths spread as replies are)
//!   decoded three ways: one request at a time, static batches that wait for their
//!   slowest member, and the continuous [`Batcher`].
//! - [`optimization_step`]: one GRPO optimizer step (forward, the loss of
//!   [`crate::grpo::loss`], backward, clipping, AdamW) over a batch of rollouts, written to
//!   a file so that `scripts/grpo_bench.py` times the team's PyTorch step on the same batch.

pub mod gpu;
pub mod memory;
pub mod precision;

use std::path::Path;
use std::time::Instant;

use tch::{Device, Kind, Tensor};

use crate::batching::{Batcher, BatcherStats, OnWeights, Request};
use crate::generate::{Sampling, sample, sample_with};
use crate::grpo::logprob::{pad_right, sequence_logprobs, sequence_logprobs_unshared};
use crate::grpo::step::{Rollout, StepConfig, optimizer_step};
use crate::model::{Cache, Model, causal_mask};
use crate::optim::{AdamW, OptimConfig};
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
    // No stop sequence: every sequence generates all `new_tokens`, as on the Python side.
    let generate = precision::generation(model, new_tokens, batches, 1)?;
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

/// A group's update with and without its shared prompt computed once.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PromptFigures {
    /// Rows (a group's replies to one prompt).
    pub rows: usize,
    /// Prompt tokens, the same in every row.
    pub prompt: usize,
    /// Tokens of all rows (prompt and reply).
    pub tokens: usize,
    /// Median seconds of the log-probabilities' forward and backward, every row in full.
    pub unshared: f64,
    /// The same with the prompt's forward and backward once ([`sequence_logprobs`]).
    pub shared: f64,
    /// The largest difference between the two ways' log-probabilities.
    pub max_abs_diff: f64,
}

/// Forward and backward of the summed log-probabilities of `rows` sequences that share a
/// `prompt`-token prompt (random ids) and have replies of lengths spread up to `reply`:
/// every row in full ([`sequence_logprobs_unshared`]) against the shared prompt
/// ([`sequence_logprobs`]), taking turns (which goes first alternates), after a warm-up
/// of each; the median of `rounds`.
pub fn shared_prompt(
    model: &Model,
    rows: usize,
    prompt: usize,
    reply: usize,
    rounds: usize,
) -> Result<PromptFigures> {
    let seqs = shared_prompt_rows(model, rows, prompt, reply)?;
    let tokens = seqs.iter().map(Vec::len).sum();
    let time = |shared: bool| -> Result<(f64, Tensor)> {
        for mut var in model.vs.trainable_variables() {
            var.zero_grad();
        }
        let start = Instant::now();
        let logp = if shared {
            sequence_logprobs(model, &seqs)
        } else {
            sequence_logprobs_unshared(model, &seqs)
        }
        .map_err(Error::Optimize)?;
        logp.sum(Kind::Float).f_backward()?;
        Ok((start.elapsed().as_secs_f64(), logp.detach()))
    };
    let (_, a) = time(false)?;
    let (_, b) = time(true)?;
    let max_abs_diff = (a - b).abs().max().double_value(&[]);
    let (mut unshared, mut shared) = (Vec::new(), Vec::new());
    for round in 0..rounds.max(1) {
        for way in [round % 2 == 0, round % 2 == 1] {
            let (s, _) = time(way)?;
            if way {
                shared.push(s)
            } else {
                unshared.push(s)
            }
        }
    }
    Ok(PromptFigures {
        rows,
        prompt,
        tokens,
        unshared: median(unshared),
        shared: median(shared),
        max_abs_diff,
    })
}

/// `rows` random sequences (seeded) of one `prompt`-token prompt and replies of lengths
/// spread up to `reply` ([`reply_lengths`]).
pub fn shared_prompt_rows(
    model: &Model,
    rows: usize,
    prompt: usize,
    reply: usize,
) -> Result<Vec<Vec<i64>>> {
    tch::manual_seed(0);
    let vocab = model.config.vocab_size as i64;
    let random = |n: usize| -> Result<Vec<i64>> {
        Vec::<i64>::try_from(Tensor::randint(
            vocab,
            [n as i64],
            (Kind::Int64, Device::Cpu),
        ))
        .map_err(Error::from)
    };
    let head = random(prompt)?;
    reply_lengths(1, rows, reply)
        .into_iter()
        .map(|n| Ok([head.clone(), random(n)?].concat()))
        .collect()
}

/// Each group's reply lengths: `max_tokens * k / group_size` for k = 1..=group_size, in an
/// order that differs between groups (so a static batch holds short and long replies).
pub fn reply_lengths(groups: usize, group_size: usize, max_tokens: usize) -> Vec<usize> {
    let g = group_size.max(1);
    // A stride prime to g visits every k once per group.
    let stride = [3, 5, 7]
        .into_iter()
        .find(|p| !g.is_multiple_of(*p))
        .unwrap_or(1);
    (0..groups)
        .flat_map(|group| {
            (0..g).map(move |i| {
                let k = (i * stride + group) % g + 1;
                (max_tokens * k / g).max(1)
            })
        })
        .collect()
}

/// A training step's rollouts decoded three ways (tokens per second of each, the median
/// over the rounds).
#[derive(Debug, Clone, serde::Serialize)]
pub struct RolloutFigures {
    /// Requests (groups x G).
    pub requests: usize,
    /// Sequences decoded together (the static batch's size and the batcher's slots).
    pub max_batch: usize,
    /// Reply tokens asked for in all.
    pub tokens: usize,
    /// One request at a time.
    pub sequential: f64,
    /// Static batches of `max_batch` requests, each running until its longest reply ends.
    pub static_batch: f64,
    /// The continuous batcher.
    pub continuous: f64,
    /// The batcher's counters.
    pub stats: BatcherStats,
}

fn twin(model: &Model) -> Result<Model> {
    let mut copy = Model::new(model.config.clone(), model.vs.device());
    copy.vs.copy(&model.vs)?;
    Ok(copy)
}

/// Decodes `groups` groups of `group_size` replies (lengths from [`reply_lengths`] with
/// `max_tokens`; temperature 1, each request its own seed, no stop sequence so each reply
/// has its length) one at a time, in static batches of `max_batch`, and with the batcher,
/// `rounds` times.
pub fn rollouts(
    model: &Model,
    groups: usize,
    group_size: usize,
    max_tokens: usize,
    max_batch: usize,
    rounds: usize,
) -> Result<RolloutFigures> {
    let requests: Vec<Request> = reply_lengths(groups, group_size, max_tokens)
        .into_iter()
        .enumerate()
        .map(|(i, length)| Request {
            prompt: PROMPT.to_vec(),
            sampling: Sampling {
                temperature: 1.0,
                top_p: 1.0,
                top_k: 0,
                max_tokens: length,
                stop: vec![],
                seed: i as u64,
                pad_id: 2,
            },
        })
        .collect();
    let tokens: usize = requests.iter().map(|r| r.sampling.max_tokens).sum();
    let max_batch = max_batch.max(1);
    // Warm-up.
    sample(model, &[PROMPT.to_vec()], &requests[0].sampling)?;
    let sampler = twin(model)?;
    // The three ways take turns in each round, so that a change of the machine's load
    // falls on all of them; each way's median over the rounds.
    let (mut sequential, mut static_batch, mut continuous) = (Vec::new(), Vec::new(), Vec::new());
    let mut stats = BatcherStats::default();
    let mut sampler = Some(sampler);
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        for r in &requests {
            sample_with(
                model,
                std::slice::from_ref(&r.prompt),
                &[r.sampling.seed],
                &r.sampling,
                &mut |_, _| {},
            )?;
        }
        sequential.push(tokens as f64 / start.elapsed().as_secs_f64());

        let start = Instant::now();
        for batch in requests.chunks(max_batch) {
            let prompts: Vec<Vec<i64>> = batch.iter().map(|r| r.prompt.clone()).collect();
            let seeds: Vec<u64> = batch.iter().map(|r| r.sampling.seed).collect();
            let longest = batch
                .iter()
                .map(|r| r.sampling.max_tokens)
                .max()
                .unwrap_or(1);
            let sampling = Sampling {
                max_tokens: longest,
                ..batch[0].sampling.clone()
            };
            sample_with(model, &prompts, &seeds, &sampling, &mut |_, _| {})?;
        }
        static_batch.push(tokens as f64 / start.elapsed().as_secs_f64());

        let model = match sampler.take() {
            Some(m) => m,
            None => twin(model)?,
        };
        let mut batcher = Batcher::new(model, max_batch, OnWeights::Drain, 0);
        let start = Instant::now();
        for r in &requests {
            batcher.submit(r.clone())?;
        }
        let outputs = batcher.run_until_idle()?;
        continuous.push(tokens as f64 / start.elapsed().as_secs_f64());
        let decoded: usize = outputs.iter().map(|o| o.tokens.len()).sum();
        if decoded != tokens {
            return Err(Error::Decoder(format!(
                "the batcher decoded {decoded} tokens of the {tokens} asked for"
            )));
        }
        stats = batcher.stats();
    }
    Ok(RolloutFigures {
        requests: requests.len(),
        max_batch,
        tokens,
        sequential: median(sequential),
        static_batch: median(static_batch),
        continuous: median(continuous),
        stats,
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The optimization step's batch and time.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StepFigures {
    /// Rollouts in the batch.
    pub rows: usize,
    /// Tokens of every rollout (prompt and reply; what the forward pass reads).
    pub tokens: usize,
    /// Reply (action) tokens: what the loss trains on.
    pub action_tokens: usize,
    /// The median seconds of one step.
    pub seconds: f64,
}

/// One GRPO optimizer step over `rows` rollouts of a `prompt`-token prompt and a reply
/// (lengths from [`reply_lengths`] with `reply`), random token ids, behaviour logprobs
/// from the model itself and advantages of alternating sign: the default loss (token
/// ratio, clip 0.2, TIS cap 2, token mean, no KL), the whole batch in one micro-batch,
/// AdamW with its defaults. Warm-up, then the median of `repeats` steps. The batch is
/// written to `batch_file` (`ids` [rows, longest] right-padded, `lengths`, and the
/// target-aligned `mask`, `behaviour`, `advantages` [rows, longest - 1]) for the PyTorch
/// side.
pub fn optimization_step(
    model: &Model,
    rows: usize,
    prompt: usize,
    reply: usize,
    repeats: usize,
    batch_file: &Path,
) -> Result<StepFigures> {
    let lengths: Vec<usize> = reply_lengths(1, rows, reply)
        .into_iter()
        .map(|r| prompt + r)
        .collect();
    let longest = lengths.iter().copied().max().unwrap_or(2);
    tch::manual_seed(0);
    let ids = Tensor::randint(
        model.config.vocab_size as i64,
        [rows as i64, longest as i64],
        (Kind::Int64, Device::Cpu),
    );
    let seqs: Vec<Vec<i64>> = lengths
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Vec::<i64>::try_from(ids.get(i as i64).narrow(0, 0, *n as i64)).map_err(Error::from)
        })
        .collect::<Result<_>>()?;
    let behaviour = tch::no_grad(|| sequence_logprobs(model, &seqs)).map_err(Error::Optimize)?;
    let behaviour = behaviour.to_kind(Kind::Double).to_device(Device::Cpu);
    let rollouts: Vec<Rollout> = seqs
        .iter()
        .enumerate()
        .map(|(i, seq)| {
            let n = seq.len();
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            Rollout {
                tokens: seq.clone(),
                action: (0..n).map(|j| j >= prompt).collect(),
                behaviour_logp: (0..n)
                    .map(|j| {
                        if j == 0 {
                            0.0
                        } else {
                            behaviour.double_value(&[i as i64, j as i64 - 1])
                        }
                    })
                    .collect(),
                advantage: vec![sign; n],
                teacher_logp: None,
            }
        })
        .collect();
    // The PyTorch side's inputs, target-aligned as the loss reads them.
    let (padded, _) = pad_right(&seqs, 0, Device::Cpu);
    let width = longest - 1;
    let mut mask = vec![0f32; rows * width];
    let mut adv = vec![0f32; rows * width];
    let mut beh = vec![0f32; rows * width];
    for (i, r) in rollouts.iter().enumerate() {
        for j in 1..r.tokens.len() {
            if r.action[j] {
                let k = i * width + j - 1;
                mask[k] = 1.0;
                adv[k] = r.advantage[j] as f32;
                beh[k] = r.behaviour_logp[j] as f32;
            }
        }
    }
    let shape = [rows as i64, width as i64];
    let lengths_t = Tensor::from_slice(&lengths.iter().map(|n| *n as i64).collect::<Vec<_>>());
    Tensor::write_safetensors(
        &[
            ("ids", padded),
            ("lengths", lengths_t),
            ("mask", Tensor::from_slice(&mask).view(shape)),
            ("advantages", Tensor::from_slice(&adv).view(shape)),
            ("behaviour_logp", Tensor::from_slice(&beh).view(shape)),
        ],
        batch_file,
    )?;
    let config = StepConfig {
        micro_batch: rows,
        micro_batch_tokens: usize::MAX,
        ..StepConfig::default()
    };
    let mut optimizer = AdamW::new(&model.vs, OptimConfig::default()).map_err(Error::Optimize)?;
    let mut times = Vec::new();
    for k in 0..=repeats {
        let start = Instant::now();
        optimizer_step(model, None, &mut optimizer, &rollouts, &config, None)
            .map_err(Error::Optimize)?;
        if k > 0 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    Ok(StepFigures {
        rows,
        tokens: lengths.iter().sum(),
        action_tokens: lengths.iter().map(|n| n - prompt).sum(),
        seconds: median(times),
    })
}

/// Runs a venv script that prints JSON on its last line, and returns that JSON.
fn python_json(python: &Path, args: &[&std::ffi::OsStr]) -> Result<serde_json::Value> {
    let script = args
        .first()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut command = std::process::Command::new(python);
    command.args(args);
    // The same number of torch threads on both sides.
    command.env("OMP_NUM_THREADS", tch::get_num_threads().to_string());
    let out = command.output().map_err(|source| Error::Io {
        path: python.to_path_buf(),
        source,
    })?;
    if !out.status.success() {
        return Err(Error::Config(format!(
            "{script} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last).map_err(|err| Error::Config(format!("{script}: {err}")))
}

/// Times the PyTorch step of `script` (`scripts/grpo_bench.py`) on the batch in
/// `batch_file`: its JSON (`seconds`, the median of `repeats` after a warm-up).
pub fn pytorch_step(
    python: &Path,
    script: &Path,
    model_dir: &Path,
    batch_file: &Path,
    repeats: usize,
) -> Result<serde_json::Value> {
    let repeats = repeats.to_string();
    python_json(
        python,
        &[
            script.as_os_str(),
            model_dir.as_os_str(),
            batch_file.as_os_str(),
            repeats.as_ref(),
        ],
    )
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
    let batches = batches
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let numbers = [
        new_tokens.to_string(),
        batches,
        train_batch.to_string(),
        train_seq.to_string(),
    ];
    let mut args = vec![script.as_os_str(), model_dir.as_os_str()];
    args.extend(numbers.iter().map(|n| std::ffi::OsStr::new(n.as_str())));
    python_json(python, &args)
}

/// The device the benchmarks run on, once [`set_device`] chose it (`--device`).
static DEVICE: std::sync::OnceLock<Device> = std::sync::OnceLock::new();

/// Chooses the benchmarks' device for this process (the first choice stays).
pub fn set_device(device: Device) {
    let _ = DEVICE.set(device);
}

/// The device the benchmark runs on: the one [`set_device`] chose, else the CPU.
pub fn device() -> Device {
    DEVICE.get().copied().unwrap_or(Device::Cpu)
}

/// `device` as `--device` names it (`cpu`, `cuda:N`), for a child process.
pub fn device_name(device: Device) -> String {
    match device {
        Device::Cuda(i) => format!("cuda:{i}"),
        _ => "cpu".to_owned(),
    }
}
