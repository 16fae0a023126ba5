//! `algorithm: sft`, the supervised warm start: the training problems' accepted reference
//! solutions in the pipeline's language, each rendered as the reply to exactly the request
//! the agent sends at the code stage (`agent::solve::first_code_request`: the system
//! message, the worked example when the pipeline has one, the statement and the stage's
//! instruction, through the chat template as the sampler sees it, [`prompt_ids`]), the
//! reply a fenced block that the agent's extractor accepts, then the end-of-turn token.
//! The loss is the mean negative log-likelihood of the reply's tokens only (the prompt
//! conditions, it is not learned).
//!
//! Data: only the training list (`split.yaml`'s `training`, narrowed by
//! `training_problems`) is read; a held-out name is refused ([`SftError::HeldOut`]) and a
//! problem without an accepted solution in the language is an error naming it, both
//! before anything trains. `held_aside` training problems (chosen by the seed) are not
//! trained on: their examples' loss is the validation loss, logged every
//! `validate_every` updates. Everything fed to the model is written to
//! `OUT/sft-data.jsonl` (problem, solution file, the decoded prompt and target), so a
//! test can check what training saw.
//!
//! The schedule: `epochs` passes, each a seeded permutation of the examples, cut into
//! updates of at least `batch_tokens` tokens (prompt and reply); an update's examples go
//! through the model in micro-batches (`micro_batch` rows, `micro_batch_tokens` padded
//! tokens), gradients accumulating, the loss normalised by the update's reply tokens.
//! Rows share the conversation's common beginning (system message and worked example)
//! in one forward pass (`grpo::logprob`). Checkpoints, metrics, resume and the time
//! budget are `trainer train`'s: a checkpoint's `step` counts updates.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use agent::pipeline::Pipeline;
use agent::task::Task;
use tch::{Device, Kind, Tensor};

use super::config::{Algorithm, TrainConfig};
use super::leak::check as check_leaks;
pub use super::problems::reference_solutions;
use super::problems::{Problem, ReferenceError, chosen_training, load_problems};
use super::rollout::pipeline;
use super::run::{RunPaths, start_or_resume};
use crate::checkpoint::{self, TrainerState};
use crate::grpo::logprob::training_logprobs;
use crate::grpo::step::ranges_by_length;
use crate::metrics::{Metrics, plot};
use crate::model::{Model, Recompute};
use crate::optim::AdamW;
use crate::policy::prompt_ids;
use crate::rng::{mix, permutation};
use crate::tokenizer::ChatTokenizer;

/// Why examples cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SftError {
    /// The pipeline names no language, so no reference solution is the one to learn.
    #[error(
        "algorithm sft needs the pipeline's language (`language:` in {pipeline}): the reference solutions are chosen by it"
    )]
    NoLanguage {
        /// The pipeline.
        pipeline: String,
    },
    /// A training problem has no accepted solution in the language, or it cannot be
    /// read.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A held-out problem reached the training data's builder.
    #[error("problem {problem} is held out (split.yaml): it is never trained on")]
    HeldOut {
        /// The package.
        problem: String,
    },
    /// A problem's example cannot be rendered.
    #[error("problem {problem}: {message}")]
    Render {
        /// The package.
        problem: String,
        /// What failed.
        message: String,
    },
}

/// One training example: a reference solution as the reply to the code request.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The package.
    pub problem: String,
    /// The reference solution's file.
    pub source: PathBuf,
    /// The request's token ids (the chat template with the assistant's turn opened).
    pub prompt: Vec<i64>,
    /// The reply's token ids, the end-of-turn token last.
    pub target: Vec<i64>,
}

impl Example {
    /// Prompt and reply together.
    pub fn tokens(&self) -> Vec<i64> {
        let mut t = self.prompt.clone();
        t.extend_from_slice(&self.target);
        t
    }

    /// How many tokens the example computes.
    pub fn len(&self) -> usize {
        self.prompt.len() + self.target.len()
    }

    /// Whether it has no tokens at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The reply the agent's extractor takes `source` from: one fenced block with the
/// language's tag. Checked: the extractor gives back the source.
pub fn reply(problem: &str, language: &str, source: &str) -> Result<String, SftError> {
    let (_, tag) = agent::prompt::language_words(Some(language));
    let text = format!("```{tag}\n{}\n```", source.trim_end());
    match agent::extract::extract(&text, Some(language)).code() {
        Some((_, code)) if code.trim() == source.trim() => Ok(text),
        _ => Err(SftError::Render {
            problem: problem.to_owned(),
            message: "the agent's extractor does not give back the reference solution from its fenced reply".to_owned(),
        }),
    }
}

/// The examples of the training problems: every accepted solution in the pipeline's
/// language as the reply to the problem's code request. `held_out` names the problems
/// that must never be trained on: one of them among `training` is an error.
pub fn examples(
    tokenizer: &ChatTokenizer,
    training: &[Arc<Task>],
    held_out: &BTreeSet<String>,
    pipeline: &Pipeline,
) -> Result<Vec<Example>, SftError> {
    examples_with(
        tokenizer,
        training,
        held_out,
        pipeline,
        &mut |task, language| Ok(reference_solutions(task, language)?),
    )
}

/// A program kept by rejection sampling (`super::rft`), a training example's reply.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Kept {
    /// The training problem it solves.
    pub problem: String,
    /// Where it came from (`round-R/sample-K`), the example's `source` in
    /// `sft-data.jsonl`.
    pub label: String,
    /// The program.
    pub source: String,
}

/// Where the training examples come from.
#[derive(Debug, Clone, Copy)]
pub enum Data<'a> {
    /// The training problems' accepted reference solutions (`algorithm: sft`).
    References,
    /// Programs kept by rejection sampling (`algorithm: rft`); a problem with none is
    /// not trained on, and the validation loss stays the held-aside problems' reference
    /// solutions'.
    Programs(&'a [Kept]),
}

/// The kept programs of `task` whose fenced reply the agent's extractor gives back.
fn kept_of(kept: &[Kept], task: &Task, language: &str) -> Vec<(PathBuf, String)> {
    kept.iter()
        .filter(|k| k.problem == task.id && reply(&task.id, language, &k.source).is_ok())
        .map(|k| (PathBuf::from(&k.label), k.source.clone()))
        .collect()
}

/// Each problem's solutions in a language: (file or label, source).
type Solutions<'a> = dyn FnMut(&Task, &str) -> Result<Vec<(PathBuf, String)>, SftError> + 'a;

/// [`examples`] with the solutions of each problem from `solutions` (task, language).
fn examples_with(
    tokenizer: &ChatTokenizer,
    training: &[Arc<Task>],
    held_out: &BTreeSet<String>,
    pipeline: &Pipeline,
    solutions: &mut Solutions<'_>,
) -> Result<Vec<Example>, SftError> {
    let language = pipeline
        .language
        .clone()
        .ok_or_else(|| SftError::NoLanguage {
            pipeline: pipeline.name.clone(),
        })?;
    let eos = *tokenizer.eos_ids.first().ok_or_else(|| SftError::Render {
        problem: String::new(),
        message: "the tokenizer has no end-of-turn token".to_owned(),
    })?;
    let mut out = Vec::new();
    for task in training {
        if held_out.contains(&task.id) {
            return Err(SftError::HeldOut {
                problem: task.id.clone(),
            });
        }
        let render = |e: &dyn std::fmt::Display| SftError::Render {
            problem: task.id.clone(),
            message: e.to_string(),
        };
        let messages = agent::solve::first_code_request(task, pipeline).map_err(|e| render(&e))?;
        let prompt = prompt_ids(tokenizer, &messages).map_err(|e| render(&e))?;
        for (path, source) in solutions(task, &language)? {
            let text = reply(&task.id, &language, &source)?;
            let mut target = tokenizer.encode(&text).map_err(|e| render(&e))?;
            target.push(eos);
            out.push(Example {
                problem: task.id.clone(),
                source: path,
                prompt: prompt.clone(),
                target,
            });
        }
    }
    Ok(out)
}

/// Consecutive examples in micro-batches of at most `rows` rows and `tokens` padded
/// tokens (`grpo::step::ranges_by_length`).
fn micro_batches(batch: &[&Example], rows: usize, tokens: usize) -> Vec<std::ops::Range<usize>> {
    ranges_by_length(batch.iter().map(|e| e.len()), rows, tokens)
}

/// The summed negative log-likelihood of the examples' reply tokens (with gradient unless
/// under `no_grad`), how many reply tokens there are, per example, and with activation
/// checkpointing the layers' pass to run after the loss's `backward`.
fn reply_nll<'a>(
    model: &'a Model,
    batch: &[&Example],
) -> anyhow::Result<(Tensor, Vec<usize>, Option<Recompute<'a>>)> {
    let seqs: Vec<Vec<i64>> = batch.iter().map(|e| e.tokens()).collect();
    let (logp, recompute) = training_logprobs(model, &seqs)?;
    let width = logp.size()[1] as usize;
    let mut mask = vec![0f32; batch.len() * width];
    for (i, e) in batch.iter().enumerate() {
        // Position k - 1 scores token k; the reply's tokens are prompt.len() .. len().
        for k in e.prompt.len()..e.len() {
            mask[i * width + k - 1] = 1.0;
        }
    }
    let mask = Tensor::from_slice(&mask)
        .view([batch.len() as i64, width as i64])
        .to_device(logp.device());
    let per_row =
        -(logp.to_kind(Kind::Float) * mask).sum_dim_intlist([1i64].as_slice(), false, Kind::Float);
    Ok((
        per_row,
        batch.iter().map(|e| e.target.len()).collect(),
        recompute,
    ))
}

/// Each example's mean negative log-likelihood per reply token under `model` (no
/// gradient), in micro-batches: the validation loss, and the held-out reference
/// solutions' measure.
pub fn mean_nll(
    model: &Model,
    examples: &[Example],
    rows: usize,
    tokens: usize,
) -> anyhow::Result<Vec<f64>> {
    let refs: Vec<&Example> = examples.iter().collect();
    let mut out = Vec::with_capacity(examples.len());
    tch::no_grad(|| -> anyhow::Result<()> {
        for range in micro_batches(&refs, rows, tokens) {
            let (sums, counts, _) = reply_nll(model, &refs[range])?;
            for (i, n) in counts.iter().enumerate() {
                out.push(sums.double_value(&[i as i64]) / (*n).max(1) as f64);
            }
        }
        Ok(())
    })?;
    Ok(out)
}

/// Token-weighted mean of per-example means (the loss over every reply token).
fn token_mean(examples: &[Example], means: &[f64]) -> f64 {
    let tokens: usize = examples.iter().map(|e| e.target.len()).sum();
    let sum: f64 = examples
        .iter()
        .zip(means)
        .map(|(e, m)| m * e.target.len() as f64)
        .sum();
    sum / tokens.max(1) as f64
}

/// The schedule's length for a run that stops on its time budget
/// (`fit_schedule_to_budget`): the `done` updates so far and as many more as fit, at this
/// invocation's mean time per update (`measured` updates in `measured_s` seconds), in
/// what the budget has left (`budget_s` less `elapsed_s`), the last one rounded up because
/// the run stops after the update during which the budget ran out. At most `planned`, at
/// least one more than `done`; `planned` until an update has been timed.
pub fn fitted_updates(
    planned: u64,
    done: u64,
    measured: u64,
    measured_s: f64,
    elapsed_s: f64,
    budget_s: f64,
) -> u64 {
    if measured == 0 || measured_s.is_nan() || measured_s <= 0.0 {
        return planned;
    }
    let per_update = measured_s / measured as f64;
    let more = ((budget_s - elapsed_s).max(0.0) / per_update).ceil();
    // `more` is finite and non-negative; a count past u64's range saturates.
    let total = done.saturating_add(more as u64);
    total.max(done + 1).min(planned)
}

/// The updates of the whole run: per epoch a seeded permutation of the examples, cut
/// where an update's tokens reach `batch_tokens` (the epoch's last update may be smaller).
pub fn plan(lengths: &[usize], epochs: u64, batch_tokens: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut updates = Vec::new();
    for epoch in 0..epochs {
        let order = permutation(lengths.len(), mix(seed ^ mix(epoch ^ 0x5F7)));
        let mut current = Vec::new();
        let mut tokens = 0;
        for i in order {
            current.push(i);
            tokens += lengths[i];
            if tokens >= batch_tokens {
                updates.push(std::mem::take(&mut current));
                tokens = 0;
            }
        }
        if !current.is_empty() {
            updates.push(current);
        }
    }
    updates
}

/// The training problems held aside for the validation loss: `count` of them, chosen
/// by the seed (never all: at least one stays to train on).
fn aside(names: &[String], count: usize, seed: u64) -> BTreeSet<String> {
    let count = count.min(names.len().saturating_sub(1));
    let order = permutation(names.len(), mix(seed ^ 0xA51DE));
    order[..count].iter().map(|i| names[*i].clone()).collect()
}

/// A supervised warm start in progress.
pub struct Warmstart {
    config: TrainConfig,
    paths: RunPaths,
    model: Model,
    optimizer: AdamW,
    train: Vec<Example>,
    validation: Vec<Example>,
    plan: Vec<Vec<usize>>,
    state: TrainerState,
    metrics: Metrics,
    started: Instant,
    /// The schedule's length fitted to the time budget (`fit_schedule_to_budget`), once
    /// an update of this invocation has been timed.
    fitted: Option<u64>,
    budget_spent: bool,
}

impl Warmstart {
    /// Starts the warm start (or resumes the last checkpoint in `paths.out` with
    /// `resume`): the examples are built and checked before the model is loaded.
    pub fn new(
        config: TrainConfig,
        paths: RunPaths,
        device: Device,
        compute: Kind,
        resume: bool,
    ) -> anyhow::Result<Warmstart> {
        Warmstart::start(config, paths, device, compute, resume, Data::References)
    }

    /// [`Warmstart::new`] on `data`: the reference solutions (`algorithm: sft`) or the
    /// programs rejection sampling kept (`algorithm: rft`, which may have none yet: the
    /// run then makes no update and its checkpoint is the starting model).
    pub fn start(
        config: TrainConfig,
        paths: RunPaths,
        device: Device,
        compute: Kind,
        resume: bool,
        data: Data<'_>,
    ) -> anyhow::Result<Warmstart> {
        let started = Instant::now();
        config.validate()?;
        match (config.algorithm, data) {
            (Algorithm::Sft, Data::References) | (Algorithm::Rft, Data::Programs(_)) => {}
            (algorithm, _) => anyhow::bail!(
                "the warm start's training runs algorithm sft on reference solutions or rft on kept programs, not {algorithm:?} on these data"
            ),
        }
        let pipeline = pipeline(&config)?;
        let problems = load_problems(&paths.problems)?;
        let held_out: BTreeSet<String> = problems
            .held_out
            .iter()
            .chain(&problems.validation)
            .map(|p| p.task.id.clone())
            .collect();
        let training = chosen_training(&problems, &config)?;
        std::fs::create_dir_all(&paths.out)?;
        let (model_dir, state) = start_or_resume(&config, &paths, resume)?;
        let tokenizer_dir = checkpoint::tokenizer_dir(&model_dir)?;
        let tokenizer = ChatTokenizer::load(&tokenizer_dir)
            .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?;
        let names: Vec<String> = training.iter().map(|t| t.id.clone()).collect();
        let set_aside = aside(&names, config.sft.held_aside, config.seed);
        let (validation, train): (Vec<Example>, Vec<Example>) = match data {
            Data::References => examples(&tokenizer, &training, &held_out, &pipeline)?
                .into_iter()
                .partition(|e| set_aside.contains(&e.problem)),
            Data::Programs(kept) => {
                let (aside_tasks, rest): (Vec<Arc<Task>>, Vec<Arc<Task>>) = training
                    .iter()
                    .cloned()
                    .partition(|t| set_aside.contains(&t.id));
                let validation = examples(&tokenizer, &aside_tasks, &held_out, &pipeline)?;
                let train = examples_with(
                    &tokenizer,
                    &rest,
                    &held_out,
                    &pipeline,
                    &mut |task, language| Ok(kept_of(kept, task, language)),
                )?;
                (validation, train)
            }
        };
        let fed = write_data(
            &paths.out.join("sft-data.jsonl"),
            &tokenizer,
            &train,
            &validation,
        )?;
        // Neither a held-out nor a validation problem may be fed.
        let kept_out: Vec<Problem> = problems
            .held_out
            .iter()
            .chain(&problems.validation)
            .cloned()
            .collect();
        let every: Vec<Problem> = problems.training.iter().chain(&kept_out).cloned().collect();
        check_leaks(&fed, &kept_out, &every)?;
        let lengths: Vec<usize> = train.iter().map(Example::len).collect();
        let plan = plan(
            &lengths,
            config.sft.epochs,
            config.sft.batch_tokens,
            config.seed,
        );
        if plan.is_empty() && matches!(data, Data::References) {
            anyhow::bail!(
                "the warm start has no examples to train on (epochs: {})",
                config.sft.epochs
            );
        }
        let mut model = learner(&config, &model_dir, &state, device)?;
        model.set_compute(compute);
        model.set_checkpointing(config.activation_checkpointing);
        let mut optimizer = AdamW::new(model.trainable(), config.optim(plan.len() as u64))?;
        if state.step > 0 {
            checkpoint::load_optimizer(&model_dir, &mut optimizer)?;
        }
        let metrics = Metrics::open(&paths.out.join("metrics.jsonl"), state.step)?;
        eprintln!(
            "warm start: {} examples of {} problems ({} tokens), {} held aside for validation; {} epochs, {} updates",
            train.len(),
            names.len() - set_aside.len(),
            lengths.iter().sum::<usize>(),
            validation.len(),
            config.sft.epochs,
            plan.len()
        );
        Ok(Warmstart {
            config,
            paths,
            model,
            optimizer,
            train,
            validation,
            plan,
            state,
            metrics,
            started,
            fitted: None,
            budget_spent: false,
        })
    }

    /// Updates done.
    pub fn step(&self) -> u64 {
        self.state.step
    }

    /// Updates the run makes in all.
    pub fn updates(&self) -> u64 {
        self.plan.len() as u64
    }

    /// Whether the time budget stopped the run.
    pub fn budget_spent(&self) -> bool {
        self.budget_spent
    }

    /// The validation loss (mean per reply token over the held-aside examples).
    pub fn validation_loss(&self) -> anyhow::Result<Option<f64>> {
        if self.validation.is_empty() {
            return Ok(None);
        }
        let means = mean_nll(
            &self.model,
            &self.validation,
            self.config.micro_batch,
            self.config.micro_batch_tokens,
        )?;
        Ok(Some(token_mean(&self.validation, &means)))
    }

    /// Runs the plan's updates (up to `until` updates done, if given), stopping after the
    /// update during which the time budget ran out; a checkpoint every `checkpoint_every`
    /// updates and after the last.
    pub fn run(&mut self, until: Option<u64>) -> anyhow::Result<()> {
        let last = until.unwrap_or(u64::MAX).min(self.updates());
        if self.state.step == 0 {
            let v = self.validation_loss()?;
            self.metrics
                .write(&serde_json::json!({"step": 0, "val_loss": v}))?;
            eprintln!(
                "update 0: validation loss {}",
                v.map_or("-".to_owned(), |v| format!("{v:.4}"))
            );
        }
        let (loop_started, first) = (Instant::now(), self.state.step);
        while self.state.step < last {
            if let Some(budget) = self.config.time_budget_minutes
                && self.config.fit_schedule_to_budget
                && self.state.step > first
            {
                let total = fitted_updates(
                    self.updates(),
                    self.state.step,
                    self.state.step - first,
                    loop_started.elapsed().as_secs_f64(),
                    self.started.elapsed().as_secs_f64(),
                    budget * 60.0,
                );
                self.optimizer.set_total_steps(total);
                self.fitted = Some(total);
            }
            self.update()?;
            self.budget_spent = self.config.budget_spent(self.started.elapsed());
            if self.budget_spent {
                eprintln!(
                    "time budget of {} min spent: stopping after update {} of {}, with its checkpoint",
                    self.config.time_budget_minutes.unwrap_or_default(),
                    self.state.step,
                    self.updates()
                );
                break;
            }
        }
        // A run with nothing to train on (rejection sampling that kept nothing yet) still
        // leaves a checkpoint: the starting model.
        let nothing = self.plan.is_empty() && checkpoint::latest(&self.paths.out)?.is_none();
        if nothing || !self.state.step.is_multiple_of(self.config.checkpoint_every) {
            self.save()?;
        }
        plot(
            &self.paths.out.join("metrics.jsonl"),
            &self.paths.out.join("metrics.svg"),
        )?;
        Ok(())
    }

    fn save(&mut self) -> anyhow::Result<()> {
        checkpoint::save(
            &self.paths.out,
            &self.model,
            &self.optimizer,
            &self.state,
            &self.state.base_model,
            self.config.keep_checkpoints,
        )?;
        Ok(())
    }

    fn update(&mut self) -> anyhow::Result<()> {
        let began = Instant::now();
        let k = self.state.step as usize;
        let batch: Vec<&Example> = self.plan[k].iter().map(|i| &self.train[*i]).collect();
        let reply_tokens: usize = batch.iter().map(|e| e.target.len()).sum();
        let tokens: usize = batch.iter().map(|e| e.len()).sum();
        let mut loss_sum = 0.0;
        self.optimizer.zero_grad();
        for range in micro_batches(
            &batch,
            self.config.micro_batch,
            self.config.micro_batch_tokens,
        ) {
            let (sums, _, recompute) = reply_nll(&self.model, &batch[range])?;
            let loss = sums.sum(Kind::Float) / reply_tokens.max(1) as f64;
            self.optimizer.backward(&loss);
            if let Some(r) = recompute {
                r.backward();
            }
            loss_sum += loss.double_value(&[]);
        }
        let stats = self.optimizer.step();
        self.state.step += 1;
        self.state.version += 1;
        let step = self.state.step;
        let every = self.config.sft.validate_every;
        let val = if step == self.updates() || (every > 0 && step.is_multiple_of(every)) {
            self.validation_loss()?
        } else {
            None
        };
        let epoch = self.epoch_of(k);
        let wall = began.elapsed().as_secs_f64();
        self.metrics.write(&serde_json::json!({
            "step": step,
            "epoch": epoch,
            "loss": loss_sum,
            "val_loss": val,
            "examples": batch.len(),
            "tokens": tokens,
            "reply_tokens": reply_tokens,
            "lr": stats.lr,
            "grad_norm": stats.grad_norm,
            "clipped": stats.clipped,
            "updates_planned": self.updates(),
            "updates_fitted": self.fitted,
            "wall_s": wall,
            "optimize_s": wall,
            "tokens_per_s": tokens as f64 / wall.max(1e-9),
            "elapsed_s": self.started.elapsed().as_secs_f64(),
        }))?;
        eprintln!(
            "update {step}/{} epoch {epoch}: loss {loss_sum:.4}{} | {} examples {} tokens | lr {:.2e} grad {:.3} | {wall:.1}s",
            self.updates(),
            val.map_or(String::new(), |v| format!(" val {v:.4}")),
            batch.len(),
            tokens,
            stats.lr,
            stats.grad_norm,
        );
        if step.is_multiple_of(self.config.checkpoint_every) {
            self.save()?;
        }
        Ok(())
    }

    /// The epoch (from 1) of update `k` (from 0).
    fn epoch_of(&self, k: usize) -> u64 {
        let per_epoch = self.plan.len() as u64 / self.config.sft.epochs.max(1);
        (k as u64 / per_epoch.max(1) + 1).min(self.config.sft.epochs)
    }
}

/// The model a warm start trains: the checkpoint's (or the starting model's) weights, all
/// of them trained; or, with `lora`, the stage's starting weights frozen under fresh
/// adapters, which a resumed run (`state.step > 0`) takes from its checkpoint
/// (`crate::lora`: the checkpoint's own weights have the adapters merged in).
fn learner(
    config: &TrainConfig,
    model_dir: &std::path::Path,
    state: &TrainerState,
    device: Device,
) -> anyhow::Result<Model> {
    let load = |dir: &std::path::Path| {
        Model::load(dir, device).map_err(|e| anyhow::anyhow!("model {}: {e}", dir.display()))
    };
    let Some(lora) = &config.lora else {
        return load(model_dir);
    };
    if state.step == 0 {
        let mut model = load(model_dir)?;
        model.attach_lora(lora, config.seed);
        return Ok(model);
    }
    let mut model = load(&state.base_model)?;
    model.attach_lora(lora, config.seed);
    let file = model_dir.join(crate::lora::ADAPTER_FILE);
    model
        .load_lora(&file)
        .map_err(|e| anyhow::anyhow!("resuming LoRA adapters from {}: {e}", file.display()))?;
    Ok(model)
}

/// Writes what training is fed: one line per example (the split it is in, the problem,
/// the solution file, the prompt and the target decoded from their token ids). Returns
/// the decoded texts.
fn write_data(
    path: &std::path::Path,
    tokenizer: &ChatTokenizer,
    train: &[Example],
    validation: &[Example],
) -> anyhow::Result<Vec<String>> {
    let mut text = String::new();
    let mut fed = Vec::new();
    for (set, examples) in [("train", train), ("validation", validation)] {
        for e in examples {
            let prompt = tokenizer.decode(&e.prompt)?;
            let target = tokenizer.decode(&e.target)?;
            let line = serde_json::json!({
                "set": set,
                "problem": e.problem,
                "source": e.source,
                "prompt": prompt,
                "target": target,
                "prompt_tokens": e.prompt.len(),
                "target_tokens": e.target.len(),
            });
            text.push_str(&line.to_string());
            text.push('\n');
            fed.push(prompt);
            fed.push(target);
        }
    }
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(fed)
}

/// The held-out problems' reference solutions' mean negative log-likelihood per reply
/// token, each in the agent's own prompt (one forward pass per solution, no sampling):
/// a paired measure of two models on the same problems. Never used to pick a checkpoint.
pub fn reference_nll(
    model: &Model,
    tokenizer: &ChatTokenizer,
    problems: &[Problem],
    pipeline: &Pipeline,
    rows: usize,
    tokens: usize,
) -> anyhow::Result<Vec<(String, f64, usize)>> {
    let tasks: Vec<Arc<Task>> = problems.iter().map(|p| Arc::clone(&p.task)).collect();
    let examples = examples(tokenizer, &tasks, &BTreeSet::new(), pipeline)?;
    let means = mean_nll(model, &examples, rows, tokens)?;
    Ok(examples
        .iter()
        .zip(means)
        .map(|(e, m)| (e.problem.clone(), m, e.target.len()))
        .collect())
}

/// `trainer nll`: the reference solutions' mean negative log-likelihood per reply token
/// of one list of the split (or every package without one), per problem and in total
/// (the mean over problems, and over every reply token), as JSON.
pub fn nll_report(
    model_dir: &std::path::Path,
    problems_dir: &std::path::Path,
    split: super::eval::Split,
    config: &TrainConfig,
    device: Device,
    compute: Kind,
) -> anyhow::Result<serde_json::Value> {
    let started = Instant::now();
    let set = load_problems(problems_dir)?;
    let (problems, name) = match (set.split, split) {
        (false, _) => (set.training, "all"),
        (true, super::eval::Split::HeldOut) => (set.held_out, "held-out"),
        (true, super::eval::Split::Training) => (set.training, "training"),
        (true, super::eval::Split::Validation) => (set.validation, "validation"),
    };
    let pipeline = pipeline(config)?;
    let model = Model::load_as(model_dir, device, compute)
        .map_err(|e| anyhow::anyhow!("model {}: {e}", model_dir.display()))?;
    let tokenizer_dir = checkpoint::tokenizer_dir(model_dir)?;
    let tokenizer = ChatTokenizer::load(&tokenizer_dir)
        .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?;
    let rows = reference_nll(
        &model,
        &tokenizer,
        &problems,
        &pipeline,
        config.micro_batch,
        config.micro_batch_tokens,
    )?;
    let mut per_problem: std::collections::BTreeMap<String, (f64, usize)> = Default::default();
    for (problem, mean, tokens) in &rows {
        let e = per_problem.entry(problem.clone()).or_default();
        e.0 += mean * *tokens as f64;
        e.1 += tokens;
    }
    let means: Vec<f64> = per_problem
        .values()
        .map(|(s, n)| s / (*n).max(1) as f64)
        .collect();
    let tokens: usize = per_problem.values().map(|(_, n)| n).sum();
    let sum: f64 = per_problem.values().map(|(s, _)| s).sum();
    Ok(serde_json::json!({
        "model": model_dir,
        "split": name,
        "pipeline": config.pipeline,
        "precision": crate::precision::kind_name(compute),
        "problems": per_problem.iter().map(|(p, (s, n))| serde_json::json!({
            "problem": p, "nll": s / (*n).max(1) as f64, "tokens": n,
        })).collect::<Vec<_>>(),
        "mean_over_problems": means.iter().sum::<f64>() / means.len().max(1) as f64,
        "mean_over_tokens": sum / tokens.max(1) as f64,
        "wall_s": started.elapsed().as_secs_f64(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fitted_schedule_ends_where_the_budget_stops_the_run() {
        // 10 updates in 300 s, 600 s of 1,500 spent: 900 s left hold 30 more.
        assert_eq!(fitted_updates(90, 10, 10, 300.0, 600.0, 1500.0), 40);
        // 31.5 s an update leaves a part of one: the run starts it and stops after it.
        assert_eq!(fitted_updates(90, 10, 10, 315.0, 600.0, 1500.0), 39);
        // Never past the plan, never before the next update.
        assert_eq!(fitted_updates(20, 10, 10, 300.0, 600.0, 1500.0), 20);
        assert_eq!(fitted_updates(90, 10, 10, 300.0, 1600.0, 1500.0), 11);
        // Nothing timed yet (the first update of an invocation): the plan's length.
        assert_eq!(fitted_updates(90, 10, 0, 0.0, 60.0, 1500.0), 90);
        // A resumed run times only its own updates.
        assert_eq!(fitted_updates(90, 30, 2, 60.0, 120.0, 1500.0), 76);
    }

    #[test]
    fn the_plan_covers_every_example_once_per_epoch_in_updates_of_enough_tokens() {
        let lengths = [300, 500, 200, 700, 100, 400];
        let p = plan(&lengths, 2, 800, 7);
        let mut per_epoch = [Vec::new(), Vec::new()];
        let mut epoch = 0;
        let mut seen = 0;
        for update in &p {
            let tokens: usize = update.iter().map(|i| lengths[*i]).sum();
            seen += update.len();
            per_epoch[epoch].extend(update.iter().copied());
            if seen == lengths.len() {
                epoch += 1;
                seen = 0;
            } else {
                assert!(tokens >= 800, "{update:?} has {tokens} tokens");
            }
        }
        for e in &mut per_epoch {
            e.sort();
            assert_eq!(*e, vec![0, 1, 2, 3, 4, 5]);
        }
        assert_eq!(p, plan(&lengths, 2, 800, 7), "the seed fixes the plan");
        assert_ne!(p, plan(&lengths, 2, 800, 8), "another seed, another order");
    }

    #[test]
    fn held_aside_problems_are_chosen_by_the_seed_and_never_all() {
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let a = aside(&names, 3, 1);
        assert_eq!(a.len(), 3);
        assert_eq!(a, aside(&names, 3, 1));
        assert_eq!(aside(&names[..2], 5, 1).len(), 1);
        assert!(aside(&names, 0, 1).is_empty());
    }

    #[test]
    fn a_reference_solution_becomes_a_fenced_reply_the_extractor_accepts() {
        let source = "a, b = map(int, input().split())\nprint(a + b)\n";
        let r = reply("aplusb", "python3", source).expect("reply");
        assert_eq!(
            r,
            "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
        );
        let cpp = reply("aplusb", "cpp", "int main() {}\n").expect("reply");
        assert!(cpp.starts_with("```cpp\n"));
    }

    #[test]
    fn micro_batches_bound_rows_and_padded_tokens() {
        let e = |n: usize| Example {
            problem: String::new(),
            source: PathBuf::new(),
            prompt: vec![1; n - 1],
            target: vec![2],
        };
        let ex = [e(3), e(4), e(1 + 1), e(5)];
        let refs: Vec<&Example> = ex.iter().collect();
        assert_eq!(micro_batches(&refs, 2, 100), vec![0..2, 2..4]);
        assert_eq!(micro_batches(&refs, 8, 8), vec![0..2, 2..3, 3..4]);
    }
}
