//! Evaluation without training: K episodes of each problem through the same machinery
//! as training ([`Rollouts`]: the agent's pipeline, the in-process [`LocalPolicy`] with
//! continuous batching, the bubblewrap sandbox and the local judge), no updates.
//!
//! [`evaluate`] is shared by the training loop's held-out evaluation and `trainer eval`
//! ([`run`]). A problem's rate is its solved fraction over its scored episodes (an episode
//! whose judge or sandbox failed is counted apart, never as a failure); pass@1 is the mean
//! of the rates over the problems with a scored episode. Each episode's sampling seed is a
//! function of the evaluation's seed, the problem's name and the sample's index, so the
//! same seed gives the same draws to two models (common random numbers for before/after).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use agent::task::Task;

use super::config::TrainConfig;
use super::rollout::{Event, Hook, Left, Rollouts, pipeline, tier_names};
use super::run::{load_problems, mix};
use crate::batching::OnWeights;
use crate::checkpoint;
use crate::grpo::reward::RewardWeights;
use crate::model::Model;
use crate::policy::LocalPolicy;
use crate::tokenizer::ChatTokenizer;

/// A problem with its family (from `split.yaml`; none without one).
#[derive(Debug, Clone)]
pub struct Problem {
    /// The loaded package.
    pub task: Arc<Task>,
    /// Its family, e.g. `arithmetic`.
    pub family: Option<String>,
}

/// One problem's evaluation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProblemResult {
    /// The package's name.
    pub name: String,
    /// Its family.
    pub family: Option<String>,
    /// Scored episodes (judge errors excluded).
    pub samples: usize,
    /// Episodes whose last submission passed every hidden test.
    pub passed: usize,
    /// Episodes whose program compiled.
    pub compiled: usize,
    /// Episodes whose program passed every sample.
    pub samples_passed: usize,
    /// Episodes that left on a judge or sandbox error (not in `samples`).
    pub judge_errors: usize,
    /// Reply tokens generated over its episodes.
    pub tokens: u64,
}

impl ProblemResult {
    /// The solved fraction of the scored episodes (`None`: none was scored).
    pub fn rate(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.passed as f64 / self.samples as f64)
    }
}

/// pass@1: the mean over problems of each one's solved fraction (problems without a
/// scored episode left out; 0 when none is left).
pub fn pass_at_1(results: &[ProblemResult]) -> f64 {
    let rates: Vec<f64> = results.iter().filter_map(ProblemResult::rate).collect();
    if rates.is_empty() {
        0.0
    } else {
        rates.iter().sum::<f64>() / rates.len() as f64
    }
}

/// An episode that finished, for progress lines.
#[derive(Debug, Clone)]
pub struct EpisodeDone<'a> {
    /// The problem's name.
    pub problem: &'a str,
    /// The sample's index.
    pub sample: usize,
    /// Solved (every hidden test passed).
    pub solved: bool,
    /// The tiers reached (`compiled`, `samples`, ...).
    pub tiers: Vec<String>,
    /// It left on a judge or sandbox error.
    pub judge_error: bool,
    /// Reply tokens.
    pub tokens: u64,
    /// Episodes finished so far, and in all.
    pub finished: usize,
    /// All episodes of the evaluation.
    pub total: usize,
}

/// A stable 64-bit hash of a name (FNV-1a), so seeds do not depend on list order.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The sampling seed of sample `sample` of problem `name` in an evaluation seeded `seed`.
pub fn episode_seed(seed: u64, name: &str, sample: usize) -> u64 {
    mix(seed ^ mix(name_hash(name) ^ mix(sample as u64)))
}

/// Runs `samples` episodes of every problem together (the decoder batches them as they
/// come), no training; `progress` hears of each episode as it finishes. Results in the
/// order of `problems`.
pub fn evaluate(
    rollouts: &Rollouts,
    problems: &[Problem],
    samples: usize,
    seed: u64,
    weights: RewardWeights,
    progress: &mut dyn FnMut(&EpisodeDone<'_>),
) -> anyhow::Result<Vec<ProblemResult>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut handles = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        for k in 0..samples {
            let hook = Arc::new(Hook::new(
                rollouts.policy.clone(),
                i,
                k,
                weights,
                tx.clone(),
                None,
            ));
            let seed = episode_seed(seed, &problem.task.id, k);
            handles.push(rollouts.spawn(hook, problem.task.clone(), seed, "eval"));
        }
    }
    drop(tx);
    let mut results: Vec<ProblemResult> = problems
        .iter()
        .map(|p| ProblemResult {
            name: p.task.id.clone(),
            family: p.family.clone(),
            samples: 0,
            passed: 0,
            compiled: 0,
            samples_passed: 0,
            judge_errors: 0,
            tokens: 0,
        })
        .collect();
    let mut tokens = vec![vec![0u64; samples]; problems.len()];
    let total = problems.len() * samples;
    let mut finished = 0;
    while let Ok(event) = rx.recv() {
        match event {
            Event::Turn {
                group,
                episode,
                turn,
            } => tokens[group][episode] += turn.generated() as u64,
            Event::End {
                group,
                episode,
                end,
            } => {
                finished += 1;
                let r = &mut results[group];
                let judge_error = end.reward == Err(Left::JudgeError);
                if judge_error {
                    r.judge_errors += 1;
                } else {
                    r.samples += 1;
                    r.passed += usize::from(end.solved);
                    r.compiled += usize::from(end.ladder.compiled);
                    r.samples_passed += usize::from(end.ladder.samples);
                }
                r.tokens += tokens[group][episode];
                progress(&EpisodeDone {
                    problem: &r.name,
                    sample: episode,
                    solved: end.solved,
                    tiers: tier_names(&end.ladder),
                    judge_error,
                    tokens: tokens[group][episode],
                    finished,
                    total,
                });
            }
        }
    }
    rollouts.join(handles)?;
    Ok(results)
}

/// Which list of `split.yaml` `trainer eval` evaluates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Split {
    /// The held-out problems.
    HeldOut,
    /// The validation problems (never trained on; where choices are made).
    Validation,
    /// The training problems.
    Training,
}

/// The figures of every problem together.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Totals {
    /// Problems evaluated.
    pub problems: usize,
    /// Scored episodes.
    pub samples: usize,
    /// Solved episodes.
    pub passed: usize,
    /// Episodes whose program compiled.
    pub compiled: usize,
    /// Episodes whose program passed the samples.
    pub samples_passed: usize,
    /// Episodes that left on a judge or sandbox error.
    pub judge_errors: usize,
    /// Reply tokens.
    pub tokens: u64,
}

/// The file `trainer eval` writes.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvalReport {
    /// The model folder evaluated (a starting model or a checkpoint).
    pub model: PathBuf,
    /// The `--problems` folder.
    pub problems_dir: PathBuf,
    /// `held-out`, `validation` or `training` (`all`: the folder has no `split.yaml`).
    pub split: String,
    /// The configuration file, if one was given.
    pub config: Option<PathBuf>,
    /// The sampling: the pipeline's name, its sampling settings and budget as the
    /// configuration set them.
    pub sampling: serde_json::Value,
    /// The evaluation's seed.
    pub seed: u64,
    /// Episodes run per problem (`--samples`).
    pub samples_per_problem: usize,
    /// Per problem, in the split's order.
    pub problems: Vec<ProblemResult>,
    /// Over all problems.
    pub totals: Totals,
    /// The mean over problems of each one's solved fraction.
    pub pass_at_1: f64,
    /// Wall time of the evaluation (loading included), in seconds.
    pub wall_s: f64,
    /// The matrix products' format: `f32`, `bf16` or `f16` (`crate::precision`).
    /// Evaluations written before mixed precision existed were float32.
    #[serde(default = "float32")]
    pub precision: String,
}

fn float32() -> String {
    "f32".to_owned()
}

/// Adds up the problems' figures.
pub fn totals(results: &[ProblemResult]) -> Totals {
    results.iter().fold(
        Totals {
            problems: results.len(),
            ..Totals::default()
        },
        |mut t, r| {
            t.samples += r.samples;
            t.passed += r.passed;
            t.compiled += r.compiled;
            t.samples_passed += r.samples_passed;
            t.judge_errors += r.judge_errors;
            t.tokens += r.tokens;
            t
        },
    )
}

/// What `trainer eval` was asked.
#[derive(Debug, Clone)]
pub struct EvalArgs {
    /// A Hugging Face folder: a starting model or a checkpoint of `trainer train`.
    pub model: PathBuf,
    /// The problem folder (as `trainer train --problems`).
    pub problems: PathBuf,
    /// The list evaluated when the folder has a `split.yaml`.
    pub split: Split,
    /// Episodes per problem.
    pub samples: usize,
    /// The configuration (pipeline, sampling, `max_batch`, reward weights).
    pub config: TrainConfig,
    /// Its file, recorded in the report.
    pub config_path: Option<PathBuf>,
    /// The seed (the configuration's when not given).
    pub seed: Option<u64>,
    /// Where the model decodes.
    pub device: tch::Device,
    /// The format the weights are held and multiplied in (`crate::precision`).
    pub compute: tch::Kind,
}

/// `trainer eval`: loads the model and the problems, evaluates, prints a line per
/// finished episode on stderr and returns the report.
pub fn run(args: &EvalArgs) -> anyhow::Result<EvalReport> {
    let started = Instant::now();
    if args.samples == 0 {
        anyhow::bail!("--samples must be at least 1");
    }
    args.config.validate()?;
    let set = load_problems(&args.problems)?;
    let (problems, split) = match (set.split, args.split) {
        (false, _) => (set.training, "all".to_owned()),
        (true, Split::HeldOut) => (set.held_out, "held-out".to_owned()),
        (true, Split::Validation) => (set.validation, "validation".to_owned()),
        (true, Split::Training) => (set.training, "training".to_owned()),
    };
    if problems.is_empty() {
        anyhow::bail!(
            "--problems {}: the {split} list is empty",
            args.problems.display()
        );
    }
    let pipeline = pipeline(&args.config)?;
    let sampling = serde_json::json!({
        "pipeline": args.config.pipeline,
        "sampling": pipeline.sampling,
        "budget": pipeline.budget,
    });
    let model = Model::load_as(&args.model, args.device, args.compute)
        .map_err(|e| anyhow::anyhow!("model {}: {e}", args.model.display()))?;
    let tokenizer_dir = checkpoint::tokenizer_dir(&args.model)?;
    let tokenizer = ChatTokenizer::load(&tokenizer_dir)
        .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?;
    let name = args
        .model
        .file_name()
        .map_or("policy".to_owned(), |n| n.to_string_lossy().into_owned());
    let policy = Arc::new(LocalPolicy::new(
        name,
        model,
        tokenizer,
        args.config.max_batch,
        OnWeights::Drain,
        0,
    ));
    let rollouts = Rollouts::new(pipeline, policy)?;
    let seed = args.seed.unwrap_or(args.config.seed);
    let began = Instant::now();
    let results = evaluate(
        &rollouts,
        &problems,
        args.samples,
        seed,
        args.config.rewards,
        &mut |done| {
            eprintln!(
                "eval {}/{} {:.0}s: {} #{} {} [{}] {} tokens",
                done.finished,
                done.total,
                began.elapsed().as_secs_f64(),
                done.problem,
                done.sample,
                if done.judge_error {
                    "judge error"
                } else if done.solved {
                    "passed"
                } else {
                    "failed"
                },
                done.tiers.join(" "),
                done.tokens
            );
        },
    )?;
    Ok(EvalReport {
        model: args.model.clone(),
        problems_dir: args.problems.clone(),
        split,
        config: args.config_path.clone(),
        sampling,
        seed,
        samples_per_problem: args.samples,
        totals: totals(&results),
        pass_at_1: pass_at_1(&results),
        problems: results,
        wall_s: started.elapsed().as_secs_f64(),
        precision: crate::precision::kind_name(args.compute).to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, samples: usize, passed: usize) -> ProblemResult {
        ProblemResult {
            name: name.to_owned(),
            family: None,
            samples,
            passed,
            compiled: samples,
            samples_passed: passed,
            judge_errors: 0,
            tokens: 10,
        }
    }

    #[test]
    fn pass_at_1_is_the_mean_of_the_problems_rates() {
        let results = [result("a", 4, 1), result("b", 2, 2), result("c", 0, 0)];
        // (1/4 + 2/2) / 2: "c" has no scored episode and is left out.
        assert!((pass_at_1(&results) - 0.625).abs() < 1e-12);
        assert_eq!(pass_at_1(&[]), 0.0);
        let t = totals(&results);
        assert_eq!(
            (t.problems, t.samples, t.passed, t.tokens),
            (3, 6, 3, 30),
            "{t:?}"
        );
    }

    #[test]
    fn episode_seeds_depend_on_seed_problem_and_sample_only() {
        assert_eq!(episode_seed(7, "gcd", 1), episode_seed(7, "gcd", 1));
        let seeds = [
            episode_seed(7, "gcd", 0),
            episode_seed(7, "gcd", 1),
            episode_seed(7, "lcm", 0),
            episode_seed(8, "gcd", 0),
        ];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
