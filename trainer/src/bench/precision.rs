//! `trainer bench`: float32 against mixed precision (`crate::precision`), side by side in
//! one run, each path in its own child process so that its peak resident memory is its
//! own, both on the same weights, the same batch and the same thread count.
//!
//! Each path ([`measure_path`]) measures:
//! - the GRPO update on a real step's shape: rows sharing one prompt (computed once, as
//!   training does), replies spread up to a length, the training configuration's default
//!   micro-batching, AdamW; its achieved GFLOP/s counts 6 x parameters x tokens actually
//!   computed (the shared prompt once), attention's own products left out;
//! - the ceiling: matrix products of the model's own shapes (the MLP's two, the LM head)
//!   in the path's format, 1,024 rows, GFLOP/s;
//! - greedy generation tokens per second at each batch size (the model held in the
//!   path's format, as `serve` and the sampler hold it);
//! - optionally one recorded training step's batch (`trainer train --dump-update`)
//!   replayed through the update;
//! - the peak resident set (`VmHWM`), the learner's float32 masters and the sampler's
//!   copy included.
//!
//! [`logprob_gap`] states how far the mixed path's log-probabilities are from float32's
//! on real prompts (the bundled packages' statements with their reference solutions).

use std::path::Path;
use std::time::Instant;

use tch::{Kind, Tensor};

use crate::bench::{PROMPT, shared_prompt_rows};
use crate::generate::{Sampling, sample};
use crate::grpo::logprob::sequence_logprobs;
use crate::grpo::step::{Rollout, StepConfig, optimizer_step};
use crate::model::Model;
use crate::optim::{AdamW, OptimConfig};
use crate::tokenizer::{ChatTokenizer, Message};
use crate::{Error, Result};

/// What one path measures.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Rows of the update (a group's replies to one prompt).
    pub rows: usize,
    /// The shared prompt's tokens.
    pub prompt: usize,
    /// The longest reply (lengths spread up to it).
    pub reply: usize,
    /// Tokens generated per sequence.
    pub new_tokens: usize,
    /// Generation batch sizes.
    pub batches: Vec<usize>,
    /// Timed repeats (the median is reported), after one warm-up.
    pub repeats: usize,
    /// A batch written by `trainer train --dump-update`, replayed through the update.
    pub replay: Option<std::path::PathBuf>,
}

/// One path's figures.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PathFigures {
    /// `f32`, `bf16` or `f16`.
    pub path: String,
    /// torch's threads.
    pub threads: i32,
    /// The model's parameters.
    pub parameters: usize,
    /// Tokens the update computes (the shared prompt once, every reply).
    pub update_tokens: usize,
    /// Median seconds of one update (forward, backward, clipping, AdamW).
    pub update_seconds: f64,
    /// 6 x parameters x update tokens / seconds, in GFLOP/s.
    pub update_gflops: f64,
    /// Where the update's time goes: the log-probabilities' forward pass alone (no
    /// gradient kept), median seconds.
    pub forward_seconds: f64,
    /// AdamW's step alone (clipping and the moments over every parameter), median seconds.
    pub adamw_seconds: f64,
    /// The matrix-product ceiling of the model's shapes in this path's format, GFLOP/s.
    pub ceiling_gflops: f64,
    /// (batch, generated tokens per second).
    pub generate: Vec<(usize, f64)>,
    /// The replayed step: rows, tokens and median seconds, when one was given.
    pub replay: Option<(usize, usize, f64)>,
    /// Peak resident set of the process, MiB.
    pub peak_rss_mib: f64,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The peak resident set of this process in MiB (`VmHWM` of `/proc/self/status`).
pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The model's parameter count.
pub fn parameters(model: &Model) -> usize {
    model
        .vs
        .trainable_variables()
        .iter()
        .map(Tensor::numel)
        .sum()
}

/// GFLOP/s of the model's matrix shapes (`hidden x intermediate`, `intermediate x
/// hidden`, `hidden x vocab`) over `rows` rows in `kind`: the median of `repeats` rounds
/// after a warm-up.
pub fn ceiling(model: &Model, kind: Kind, rows: i64, repeats: usize) -> f64 {
    let c = &model.config;
    let (h, i, v) = (
        c.hidden_size as i64,
        c.intermediate_size as i64,
        c.vocab_size as i64,
    );
    let device = model.vs.device();
    let shapes = [(h, i), (i, h), (h, v)];
    let pairs: Vec<(Tensor, Tensor)> = shapes
        .iter()
        .map(|&(k, n)| {
            (
                Tensor::randn([rows, k], (kind, device)),
                Tensor::randn([k, n], (kind, device)),
            )
        })
        .collect();
    let flops: f64 = shapes
        .iter()
        .map(|&(k, n)| 2.0 * (rows * k * n) as f64)
        .sum();
    let round = || {
        let start = Instant::now();
        for (a, b) in &pairs {
            let _ = a.matmul(b);
        }
        start.elapsed().as_secs_f64()
    };
    round();
    let seconds = median((0..repeats.max(1)).map(|_| round()).collect());
    flops / seconds / 1e9
}

/// The update's batch: `rows` rows of one random `prompt`-token prompt and random
/// replies of lengths spread up to `reply`, behaviour log-probabilities from `model`
/// itself, advantages of alternating sign.
pub fn shared_prompt_batch(
    model: &Model,
    rows: usize,
    prompt: usize,
    reply: usize,
) -> Result<Vec<Rollout>> {
    let seqs = shared_prompt_rows(model, rows, prompt, reply)?;
    let behaviour = tch::no_grad(|| sequence_logprobs(model, &seqs)).map_err(Error::Optimize)?;
    Ok(seqs
        .into_iter()
        .enumerate()
        .map(|(i, tokens)| {
            let n = tokens.len();
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            let action = (0..n).map(|j| j >= prompt).collect();
            Rollout::fixed(tokens, action, sign, &behaviour, i)
        })
        .collect())
}

/// Tokens an update computes over `rollouts`: the rows' common prefix once, the rest of
/// every row.
pub fn computed_tokens(rollouts: &[Rollout]) -> usize {
    let Some(first) = rollouts.first() else {
        return 0;
    };
    let shared = rollouts[1..].iter().fold(first.tokens.len(), |n, r| {
        n.min(
            first
                .tokens
                .iter()
                .zip(&r.tokens)
                .take_while(|(a, b)| a == b)
                .count(),
        )
    });
    let shared = if rollouts.len() >= 2 { shared } else { 0 };
    shared
        + rollouts
            .iter()
            .map(|r| r.tokens.len() - shared)
            .sum::<usize>()
}

/// Median seconds of `repeats` optimizer steps over `rollouts` (after one warm-up), on a
/// fresh AdamW.
pub fn time_update(
    model: &Model,
    rollouts: &[Rollout],
    config: &StepConfig,
    repeats: usize,
) -> Result<f64> {
    let mut optimizer = AdamW::new(&model.vs, OptimConfig::default()).map_err(Error::Optimize)?;
    let mut times = Vec::new();
    for k in 0..=repeats.max(1) {
        let start = Instant::now();
        optimizer_step(model, None, &mut optimizer, rollouts, config, None)
            .map_err(Error::Optimize)?;
        if k > 0 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    Ok(median(times))
}

/// The update's parts, median seconds of `repeats`: the forward pass over `rollouts`
/// without gradient (the micro-batches as one), and AdamW's step over every parameter.
fn profile(model: &Model, rollouts: &[Rollout], repeats: usize) -> Result<(f64, f64)> {
    let seqs: Vec<Vec<i64>> = rollouts.iter().map(|r| r.tokens.clone()).collect();
    let mut forward = Vec::new();
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        let _logp = tch::no_grad(|| sequence_logprobs(model, &seqs)).map_err(Error::Optimize)?;
        forward.push(start.elapsed().as_secs_f64());
    }
    let mut optimizer = AdamW::new(&model.vs, OptimConfig::default()).map_err(Error::Optimize)?;
    let mut adamw = Vec::new();
    for _ in 0..repeats.max(1) {
        optimizer.zero_grad();
        let start = Instant::now();
        let _stats = optimizer.step();
        adamw.push(start.elapsed().as_secs_f64());
    }
    Ok((median(forward), median(adamw)))
}

/// Greedy tokens per second of `model` at each batch size (`new_tokens` per sequence, no
/// stop sequence), the median of `repeats` after a warm-up.
pub fn generation(
    model: &Model,
    new_tokens: usize,
    batches: &[usize],
    repeats: usize,
) -> Result<Vec<(usize, f64)>> {
    let mut out = Vec::new();
    for &batch in batches {
        let prompts = vec![PROMPT.to_vec(); batch];
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
        let mut rates = Vec::new();
        for _ in 0..repeats.max(1) {
            let start = Instant::now();
            let produced = sample(model, &prompts, &params)?;
            let tokens: usize = produced.iter().map(|s| s.tokens.len()).sum();
            rates.push(tokens as f64 / start.elapsed().as_secs_f64());
        }
        out.push((batch, median(rates)));
    }
    Ok(out)
}

/// A batch written by `trainer train --dump-update`.
pub fn read_replay(path: &Path) -> Result<(StepConfig, Vec<Rollout>)> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
    let config = serde_json::from_value(json["step_config"].clone())
        .map_err(|e| Error::Config(format!("{}: step_config: {e}", path.display())))?;
    let rollouts: Vec<Rollout> = serde_json::from_value(json["rollouts"].clone())
        .map_err(|e| Error::Config(format!("{}: rollouts: {e}", path.display())))?;
    if rollouts.is_empty() {
        return Err(Error::Config(format!(
            "{}: the batch holds no rollouts",
            path.display()
        )));
    }
    Ok((config, rollouts))
}

/// Measures one path: the learner (float32 masters, products in `compute`) for the
/// update, the replay and the ceiling; a copy held in `compute` for generation.
pub fn measure_path(model_dir: &Path, compute: Kind, s: &Settings) -> Result<PathFigures> {
    let device = crate::bench::device();
    let mut learner = Model::load(model_dir, device)?;
    learner.set_compute(compute);
    let params = parameters(&learner);
    let rollouts = shared_prompt_batch(&learner, s.rows, s.prompt, s.reply)?;
    let update_tokens = computed_tokens(&rollouts);
    let step = crate::train::TrainConfig::default().step();
    let update_seconds = time_update(&learner, &rollouts, &step, s.repeats)?;
    let (forward_seconds, adamw_seconds) = profile(&learner, &rollouts, s.repeats)?;
    let replay = match &s.replay {
        Some(path) => {
            let (config, rows) = read_replay(path)?;
            let seconds = time_update(&learner, &rows, &config, s.repeats)?;
            Some((rows.len(), computed_tokens(&rows), seconds))
        }
        None => None,
    };
    let ceiling_gflops = ceiling(&learner, compute, 1024, s.repeats.max(3));
    let mut sampler = Model::new(learner.config.clone(), device);
    sampler.vs.copy(&learner.vs)?;
    sampler.hold_in(compute);
    let generate = generation(&sampler, s.new_tokens, &s.batches, s.repeats)?;
    Ok(PathFigures {
        path: crate::precision::kind_name(compute).to_owned(),
        threads: tch::get_num_threads(),
        parameters: params,
        update_tokens,
        update_seconds,
        update_gflops: 6.0 * params as f64 * update_tokens as f64 / update_seconds / 1e9,
        forward_seconds,
        adamw_seconds,
        ceiling_gflops,
        generate,
        replay,
        peak_rss_mib: peak_rss_mib(),
    })
}

/// Real prompts: each package's statement as the user's message and its first accepted
/// Python solution as the reply, in the chat template; at most `limit` packages, in name
/// order. Returns (token ids, the prompt's length).
pub fn real_prompts(
    tok: &ChatTokenizer,
    packages: &Path,
    limit: usize,
) -> Result<Vec<(Vec<i64>, usize)>> {
    let io = |path: &Path, source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut names: Vec<_> = std::fs::read_dir(packages)
        .map_err(|e| io(packages, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for dir in names {
        let statement = dir.join("statement/problem.en.md");
        let accepted = dir.join("submissions/accepted");
        let Ok(text) = std::fs::read_to_string(&statement) else {
            continue;
        };
        let mut solutions: Vec<_> = std::fs::read_dir(&accepted)
            .map_err(|e| io(&accepted, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        solutions.sort();
        let Some(solution) = solutions.first() else {
            continue;
        };
        let code = std::fs::read_to_string(solution).map_err(|e| io(solution, e))?;
        let message = |role: &str, content: String| Message {
            role: role.to_owned(),
            content,
        };
        let mut messages = vec![
            message("system", "You write Python 3 programs.".to_owned()),
            message("user", text),
        ];
        let prompt = tok.encode(&tok.apply_chat_template(&messages, true)?)?;
        messages.push(message("assistant", format!("```python\n{code}```")));
        let ids = tok.encode(&tok.apply_chat_template(&messages, false)?)?;
        if ids.len() <= model_context_guard() {
            out.push((ids, prompt.len()));
        }
        if out.len() == limit {
            break;
        }
    }
    Ok(out)
}

/// The longest real prompt kept (SmolLM2's context is 8,192; the gap is measured on
/// ordinary lengths).
fn model_context_guard() -> usize {
    2048
}

/// The gap between `compute`'s and float32's log-probabilities of `model`'s weights on
/// `prompts` (every token after the first of each): (mean, max) of the absolute
/// difference over the replies' tokens, and the same over every token.
pub fn logprob_gap(
    model: &mut Model,
    compute: Kind,
    prompts: &[(Vec<i64>, usize)],
) -> Result<((f64, f64), (f64, f64))> {
    let (mut reply_sum, mut reply_n, mut reply_max) = (0.0, 0usize, 0f64);
    let (mut all_sum, mut all_n, mut all_max) = (0.0, 0usize, 0f64);
    for (ids, prompt) in prompts {
        let one = std::slice::from_ref(ids);
        model.set_compute(Kind::Float);
        let a = tch::no_grad(|| sequence_logprobs(model, one)).map_err(Error::Optimize)?;
        model.set_compute(compute);
        let b = tch::no_grad(|| sequence_logprobs(model, one)).map_err(Error::Optimize)?;
        let diff = Vec::<f64>::try_from((a - b).abs().view([-1]).to_kind(Kind::Double))?;
        for (k, d) in diff.iter().enumerate() {
            // Position k scores token k + 1.
            all_sum += d;
            all_n += 1;
            all_max = all_max.max(*d);
            if k + 1 >= *prompt {
                reply_sum += d;
                reply_n += 1;
                reply_max = reply_max.max(*d);
            }
        }
    }
    model.set_compute(Kind::Float);
    Ok((
        (reply_sum / reply_n.max(1) as f64, reply_max),
        (all_sum / all_n.max(1) as f64, all_max),
    ))
}

/// `trainer bench`'s arguments.
#[derive(Debug, Clone)]
pub struct Compare {
    /// The trainer binary, run once per path (`trainer bench-path`).
    pub exe: std::path::PathBuf,
    /// The model folder.
    pub model: std::path::PathBuf,
    /// The path compared with float32, as asked.
    pub dtype: crate::precision::Dtype,
    /// What each path measures.
    pub settings: Settings,
    /// Packages for the log-probability gap's real prompts.
    pub prompts: std::path::PathBuf,
    /// A Python with llama-cpp-python, for llama.cpp's figures in the same run.
    pub llama_python: Option<std::path::PathBuf>,
    /// `LABEL=PATH` GGUF files for llama.cpp.
    pub gguf: Vec<String>,
    /// torch's threads in both paths.
    pub threads: Option<i32>,
}

/// Runs one path in a child process and reads its JSON line.
fn child(args: &Compare, dtype: &str) -> Result<PathFigures> {
    let mut command = std::process::Command::new(&args.exe);
    command
        .arg("bench-path")
        .arg("--model")
        .arg(&args.model)
        .args(["--dtype", dtype])
        .args([
            "--device",
            &crate::bench::device_name(crate::bench::device()),
        ])
        .arg("--settings")
        .arg(serde_json::to_string(&args.settings).map_err(|e| Error::Config(e.to_string()))?);
    if let Some(n) = args.threads {
        command.args(["--threads", &n.to_string()]);
    }
    let out = command.output().map_err(|source| Error::Io {
        path: args.exe.clone(),
        source,
    })?;
    if !out.status.success() {
        return Err(Error::Config(format!(
            "trainer bench-path --dtype {dtype} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap_or_default())
        .map_err(|e| Error::Config(format!("trainer bench-path --dtype {dtype}: {e}")))
}

/// llama.cpp's greedy batch-1 tokens per second for each GGUF (`scripts/bench_llama_cpp.py`
/// with `python`): (label, tokens per second).
fn llama_cpp(args: &Compare, python: &Path) -> Result<Vec<(String, f64)>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench_llama_cpp.py");
    let mut out = Vec::new();
    for spec in &args.gguf {
        let (label, path) = spec
            .split_once('=')
            .ok_or_else(|| Error::Config(format!("--gguf `{spec}`: expected LABEL=PATH")))?;
        let mut command = std::process::Command::new(python);
        command
            .arg(&script)
            .arg(path)
            .arg(args.settings.new_tokens.to_string())
            .arg(
                PROMPT
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            )
            .arg(args.settings.repeats.to_string())
            .arg(
                args.threads
                    .unwrap_or_else(tch::get_num_threads)
                    .to_string(),
            );
        let result = command.output().map_err(|source| Error::Io {
            path: python.to_path_buf(),
            source,
        })?;
        if !result.status.success() {
            return Err(Error::Config(format!(
                "bench_llama_cpp.py {path} failed: {}",
                String::from_utf8_lossy(&result.stderr).trim()
            )));
        }
        let text = String::from_utf8_lossy(&result.stdout);
        let json: serde_json::Value = serde_json::from_str(text.lines().last().unwrap_or_default())
            .map_err(|e| Error::Config(format!("bench_llama_cpp.py {path}: {e}")))?;
        out.push((
            label.to_owned(),
            json["tokens_per_second"].as_f64().unwrap_or(f64::NAN),
        ));
    }
    Ok(out)
}

/// `trainer bench`: float32 then the `compute` path, each in its own process; then the
/// log-probability gap in this process and llama.cpp where asked. Returns the report,
/// whose last line is `bf16 over float32: update N.NNx, generate b1 N.NNx, ...`.
pub fn compare(args: &Compare, compute: Kind) -> Result<String> {
    use std::fmt::Write;
    let other = crate::precision::kind_name(compute);
    let base = child(args, "f32")?;
    let mixed = child(args, other)?;
    let s = &args.settings;
    let mut r = String::new();
    let _ = writeln!(
        r,
        "model {}, CPU threads {} in both paths, median of {} after a warm-up",
        args.model.display(),
        base.threads,
        s.repeats
    );
    let _ = writeln!(r, "{:<44} {:>10} {:>10} {:>7}", "", "f32", other, "ratio");
    let mut line = |name: &str, a: f64, b: f64, faster_is_smaller: bool| {
        let ratio = if faster_is_smaller { a / b } else { b / a };
        let _ = writeln!(r, "{name:<44} {a:>10.3} {b:>10.3} {ratio:>6.2}x");
        ratio
    };
    let update = line(
        &format!(
            "update s, {} rows, {}-token prompt once, {} tokens",
            s.rows, s.prompt, base.update_tokens
        ),
        base.update_seconds,
        mixed.update_seconds,
        true,
    );
    line(
        "update GFLOP/s (6 x params x tokens / s)",
        base.update_gflops,
        mixed.update_gflops,
        false,
    );
    line(
        "  of which forward alone s (no gradient)",
        base.forward_seconds,
        mixed.forward_seconds,
        true,
    );
    line(
        "  of which AdamW alone s",
        base.adamw_seconds,
        mixed.adamw_seconds,
        true,
    );
    line(
        "matrix-product ceiling GFLOP/s (own shapes)",
        base.ceiling_gflops,
        mixed.ceiling_gflops,
        false,
    );
    let mut generate = Vec::new();
    for ((batch, a), (_, b)) in base.generate.iter().zip(&mixed.generate) {
        let ratio = line(
            &format!("generate tokens/s, batch {batch}, greedy"),
            *a,
            *b,
            false,
        );
        generate.push((*batch, ratio));
    }
    if let (Some((rows, tokens, a)), Some((_, _, b))) = (base.replay, mixed.replay) {
        line(
            &format!("recorded step replayed s, {rows} rows, {tokens} tokens"),
            a,
            b,
            true,
        );
    }
    line(
        "peak resident MiB (learner + sampler)",
        base.peak_rss_mib,
        mixed.peak_rss_mib,
        true,
    );
    let _ = writeln!(
        r,
        "(ratio: {other} speed over f32 speed, above 1 means {other} is faster; for memory, f32 over {other})"
    );
    let _ = writeln!(
        r,
        "the update reaches {:.0}% of the {other} matrix-product ceiling ({:.0}% in f32)",
        100.0 * mixed.update_gflops / mixed.ceiling_gflops,
        100.0 * base.update_gflops / base.ceiling_gflops
    );
    if let Ok(tok) = ChatTokenizer::load(&args.model) {
        let prompts = real_prompts(&tok, &args.prompts, 8)?;
        if !prompts.is_empty() {
            let mut model = Model::load(&args.model, crate::bench::device())?;
            let ((rm, rx), (am, ax)) = logprob_gap(&mut model, compute, &prompts)?;
            let _ = writeln!(
                r,
                "log-probability gap, {other} against f32, {} real prompts (statement + reference solution): replies mean {rm:.2e} max {rx:.2e}; every token mean {am:.2e} max {ax:.2e}",
                prompts.len()
            );
        }
    }
    if let Some(python) = &args.llama_python {
        let ours = mixed
            .generate
            .iter()
            .find(|(b, _)| *b == 1)
            .map_or(f64::NAN, |(_, t)| *t);
        for (label, tps) in llama_cpp(args, python)? {
            let _ = writeln!(
                r,
                "llama.cpp {label}: {tps:.1} tokens/s at batch 1, greedy, {} new tokens; ours ({other}) {ours:.1}: ours over llama.cpp {:.2}x",
                s.new_tokens,
                ours / tps
            );
        }
    }
    // ci-train-2's steps spent 55 to 68% of their wall time in updates.
    let step = |share: f64| 1.0 / ((1.0 - share) + share / update);
    let _ = writeln!(
        r,
        "a whole step, updates 55-68% of it (ci-train-2) and the rest unchanged: {:.2}x to {:.2}x as fast",
        step(0.55),
        step(0.68)
    );
    let _ = write!(r, "{other} over float32: update {update:.2}x");
    for (k, (batch, ratio)) in generate.iter().enumerate() {
        let head = if k == 0 { "generate " } else { "" };
        let _ = write!(r, ", {head}b{batch} {ratio:.2}x");
    }
    let _ = writeln!(r);
    Ok(r)
}
