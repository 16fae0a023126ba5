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
//!
//! `trainer eval` reports, per problem and over problems (all, in-family, out-of-family),
//! pass@1, pass@k for k = 1, 2, 4, 8, the fraction of hidden tests passed and the share
//! of programs that compile, each with its 95% interval ([`super::measure`] defines them
//! and their intervals). It writes each finished episode to a records file beside its
//! output and resumes from it after an interruption ([`super::episode`]), and keeps every
//! complete evaluation without judge errors in a cache under its key, which a later
//! `trainer eval` of the same model, precision, problems, sampling, samples and seed
//! reuses instead of running ([`super::cache`]). An evaluation of a grown split takes the
//! results of its unchanged problems from cached evaluations of the same model, precision,
//! sampling, samples and seed, and runs only the new problems ([`reusable`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::cache::{self, EvalKey, KeyParts};
use super::config::TrainConfig;
use super::episode::{self, EpisodeRecord};
use super::measure::{self, ProblemMeasures, ProblemValues, Summary};
use super::problems::{Problem, load_problems};
use super::rollout::{Event, Hook, Left, Rollouts, pipeline, tier_names};
use crate::batching::OnWeights;
use crate::checkpoint;
use crate::grpo::reward::RewardWeights;
use crate::model::Model;
use crate::policy::LocalPolicy;
use crate::rng::mix;
use crate::tokenizer::ChatTokenizer;

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
    /// The mean over the scored episodes of the fraction of hidden tests the last
    /// submission passed (`None`: no scored episode, or a file written before it was
    /// recorded).
    #[serde(default)]
    pub tests_passed: Option<f64>,
    /// Whether its family occurs among the training problems' families ([`in_family`];
    /// `None`: unknown, e.g. no `split.yaml`, or a file written before it was recorded).
    #[serde(default)]
    pub in_family: Option<bool>,
    /// Its measures with their intervals (`None`: no scored episode, or an older file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measures: Option<ProblemMeasures>,
}

impl ProblemResult {
    /// The solved fraction of the scored episodes (`None`: none was scored).
    pub fn rate(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.passed as f64 / self.samples as f64)
    }

    /// What the measures over problems take from it.
    pub fn values(&self) -> ProblemValues {
        ProblemValues {
            samples: self.samples,
            passed: self.passed,
            compiled: self.compiled,
            tests_passed: self.tests_passed,
        }
    }
}

/// Whether a problem of `family` is in-family: its family occurs among the training
/// problems' `training_families` (`None` without a family).
// FIXME(issue 28): `problems::easy::Split::in_family` replaces this once it lands.
pub fn in_family(family: Option<&str>, training_families: &BTreeSet<String>) -> Option<bool> {
    family.map(|f| training_families.contains(f))
}

/// The families of the committed easy set's training problems (for evaluation files
/// written before `in_family` was recorded).
pub fn easy_training_families() -> BTreeSet<String> {
    problems::easy::split()
        .map(|s| s.training.into_iter().map(|e| e.family).collect())
        .unwrap_or_default()
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
    /// Its record.
    pub record: &'a EpisodeRecord,
    /// Episodes finished so far (resumed ones included), and in all.
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
    let names: Vec<&str> = problems.iter().map(|p| p.task.id.as_str()).collect();
    let plan = episode::missing(&names, samples, &[]);
    let episodes = Episodes {
        problems,
        seed,
        weights,
        key: "",
        done: 0,
        total: plan.len(),
    };
    let records = run_episodes(rollouts, &episodes, &plan, &mut |done| {
        progress(done);
        Ok(())
    })?;
    Ok(results_of(problems, &records, &BTreeSet::new()))
}

/// What [`run_episodes`] runs.
struct Episodes<'a> {
    problems: &'a [Problem],
    seed: u64,
    weights: RewardWeights,
    /// The evaluation's key, written into each record.
    key: &'a str,
    /// Episodes already done (resumed), and all of the evaluation's.
    done: usize,
    total: usize,
}

/// Runs the episodes `plan` (problem index, sample) together and returns their records
/// in the order they finished; `each` hears of each one as it finishes (an error stops
/// the evaluation).
fn run_episodes(
    rollouts: &Rollouts,
    episodes: &Episodes<'_>,
    plan: &[(usize, usize)],
    each: &mut dyn FnMut(&EpisodeDone<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<EpisodeRecord>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut handles = Vec::new();
    for (slot, &(i, k)) in plan.iter().enumerate() {
        let problem = &episodes.problems[i];
        // The hook's group is the plan's slot: its events name the episode.
        let hook = Arc::new(Hook::new(
            rollouts.policy.clone(),
            slot,
            k,
            episodes.weights,
            tx.clone(),
            None,
        ));
        let seed = episode_seed(episodes.seed, &problem.task.id, k);
        handles.push(rollouts.spawn(hook, problem.task.clone(), seed, "eval"));
    }
    drop(tx);
    let mut tokens = vec![0u64; plan.len()];
    let mut records = Vec::with_capacity(plan.len());
    while let Ok(event) = rx.recv() {
        match event {
            Event::Turn { group, turn, .. } => tokens[group] += turn.generated() as u64,
            Event::End { group, end, .. } => {
                let (i, k) = plan[group];
                if end.reward == Err(Left::JudgeError) {
                    // Not scored, so say why: a judge error is the harness's fault.
                    eprintln!(
                        "eval: {} #{k}: judge error: {}",
                        episodes.problems[i].task.id, end.end
                    );
                }
                let record = EpisodeRecord {
                    key: episodes.key.to_owned(),
                    problem: episodes.problems[i].task.id.clone(),
                    sample: k,
                    judge_error: end.reward == Err(Left::JudgeError),
                    solved: end.solved,
                    compiled: end.ladder.compiled,
                    samples_passed: end.ladder.samples,
                    hidden: end.hidden,
                    tokens: tokens[group],
                    tiers: tier_names(&end.ladder),
                };
                records.push(record);
                each(&EpisodeDone {
                    record: records.last().expect("invariant: just pushed"),
                    finished: episodes.done + records.len(),
                    total: episodes.total,
                })?;
            }
        }
    }
    rollouts.join(handles)?;
    Ok(records)
}

/// Each problem's result from the records of its episodes (in the order of `problems`;
/// a record of another problem is ignored). A problem is in-family when its family is in
/// `training_families` (an empty set: unknown).
pub fn results_of(
    problems: &[Problem],
    records: &[EpisodeRecord],
    training_families: &BTreeSet<String>,
) -> Vec<ProblemResult> {
    problems
        .iter()
        .map(|p| {
            let mine: Vec<&EpisodeRecord> =
                records.iter().filter(|r| r.problem == p.task.id).collect();
            let scored: Vec<&&EpisodeRecord> = mine.iter().filter(|r| !r.judge_error).collect();
            let count = |f: fn(&EpisodeRecord) -> bool| scored.iter().filter(|r| f(r)).count();
            let tests: Vec<f64> = scored.iter().map(|r| r.tests_fraction()).collect();
            let (passed, compiled) = (count(|r| r.solved), count(|r| r.compiled));
            ProblemResult {
                name: p.task.id.clone(),
                family: p.family.clone(),
                samples: scored.len(),
                passed,
                compiled,
                samples_passed: count(|r| r.samples_passed),
                judge_errors: mine.len() - scored.len(),
                tokens: mine.iter().map(|r| r.tokens).sum(),
                tests_passed: (!tests.is_empty())
                    .then(|| tests.iter().sum::<f64>() / tests.len() as f64),
                in_family: if training_families.is_empty() {
                    None
                } else {
                    in_family(p.family.as_deref(), training_families)
                },
                measures: measure::problem_measures(passed, compiled, &tests),
            }
        })
        .collect()
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
    /// The measures over problems with their intervals (`None` in older files).
    #[serde(default)]
    pub measures: Option<Summary>,
    /// What the evaluation depends on, and its cache key (`None` in older files).
    #[serde(default)]
    pub key: Option<EvalKey>,
    /// Episodes taken from the records of an interrupted run rather than run.
    #[serde(default)]
    pub resumed_episodes: usize,
    /// Problems whose results were taken from cached evaluations rather than run
    /// ([`reusable`]: a grown split runs only its new problems).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reused: Vec<Reused>,
}

/// Problems of an evaluation taken from a cached one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reused {
    /// The cached evaluation's key (its file in the cache).
    pub key: String,
    /// The problems taken from it, in its order.
    pub problems: Vec<String>,
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

/// An evaluation in which every episode left on a judge error measured the harness, not
/// the model: the reason, so that it fails instead of reporting zeros.
fn broken_harness(totals: &Totals) -> Option<String> {
    (totals.samples == 0 && totals.judge_errors > 0).then(|| {
        format!(
            "every one of the {} episodes left on a judge error (each one's reason is above): the sandbox or the judge is broken, so there is nothing to report",
            totals.judge_errors
        )
    })
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
    /// The report's file: the records file goes beside it ([`episode::records_path`]).
    pub out: PathBuf,
    /// The cache folder of finished evaluations (`None`: neither read nor written).
    pub cache: Option<PathBuf>,
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

/// `trainer eval`: loads the problems, reuses a cached evaluation of the same key, or
/// else resumes from the records beside `out`, loads the model and runs the missing
/// episodes (a line per finished episode on stderr), and returns the report.
pub fn run(args: &EvalArgs) -> anyhow::Result<EvalReport> {
    let started = Instant::now();
    if args.samples == 0 {
        anyhow::bail!("--samples must be at least 1");
    }
    args.config.validate()?;
    let set = load_problems(&args.problems)?;
    let training_families: BTreeSet<String> = if set.split {
        set.training
            .iter()
            .filter_map(|p| p.family.clone())
            .collect()
    } else {
        BTreeSet::new()
    };
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
    let seed = args.seed.unwrap_or(args.config.seed);
    let precision = crate::precision::kind_name(args.compute).to_owned();
    let tokenizer_dir = checkpoint::tokenizer_dir(&args.model)?;
    let hashes = package_hashes(&problems);
    let key = eval_key(
        args,
        &tokenizer_dir,
        &hashes,
        &split,
        &precision,
        &pipeline,
        seed,
    )?;
    if let Some(dir) = &args.cache
        && let Some(report) = cache::load::<EvalReport>(dir, &key)
        && report.key.as_ref() == Some(&key)
    {
        eprintln!(
            "eval: reusing the cached evaluation {} (key {}): same model, precision, problems, sampling, samples and seed",
            cache::path(dir, &key).display(),
            key.id
        );
        return Ok(report);
    }

    let (taken, reused) = match &args.cache {
        Some(dir) => reusable(dir, &key, &hashes),
        None => (BTreeMap::new(), Vec::new()),
    };
    if !taken.is_empty() {
        let from: Vec<&str> = reused.iter().map(|r| r.key.as_str()).collect();
        eprintln!(
            "eval: {} of {} problems' results taken from the cached evaluation(s) {} (same model, precision, sampling, samples and seed; their packages unchanged); running the other {}",
            taken.len(),
            problems.len(),
            from.join(", "),
            problems.len() - taken.len()
        );
    }
    let names: Vec<&str> = problems.iter().map(|p| p.task.id.as_str()).collect();
    let to_run: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !taken.contains_key(*n))
        .collect();
    let records_path = episode::records_path(&args.out);
    let (found, unparsed) = episode::read(&records_path)?;
    let mut records = episode::keep(found, &key.id, &to_run, args.samples);
    let plan: Vec<(usize, usize)> = episode::missing(&names, args.samples, &records)
        .into_iter()
        .filter(|(i, _)| !taken.contains_key(names[*i]))
        .collect();
    let resumed = records.len();
    if resumed > 0 || unparsed > 0 {
        eprintln!(
            "eval: resuming from {}: {resumed} of {} episodes done, {} to run{}",
            records_path.display(),
            to_run.len() * args.samples,
            plan.len(),
            if unparsed > 0 {
                format!(" ({unparsed} unreadable lines dropped)")
            } else {
                String::new()
            }
        );
    }
    let mut writer = episode::Writer::start(&records_path, &records)?;
    if !plan.is_empty() {
        let model = Model::load_as(&args.model, args.device, args.compute)
            .map_err(|e| anyhow::anyhow!("model {}: {e}", args.model.display()))?;
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
        let began = Instant::now();
        let episodes = Episodes {
            problems: &problems,
            seed,
            weights: args.config.rewards,
            key: &key.id,
            done: resumed,
            total: to_run.len() * args.samples,
        };
        let new = run_episodes(&rollouts, &episodes, &plan, &mut |done| {
            writer.append(done.record)?;
            let r = done.record;
            eprintln!(
                "eval {}/{} {:.0}s: {} #{} {} [{}] {} tokens",
                done.finished,
                done.total,
                began.elapsed().as_secs_f64(),
                r.problem,
                r.sample,
                if r.judge_error {
                    "judge error"
                } else if r.solved {
                    "passed"
                } else {
                    "failed"
                },
                r.tiers.join(" "),
                r.tokens
            );
            Ok(())
        })?;
        records.extend(new);
    }
    let results: Vec<ProblemResult> = results_of(&problems, &records, &training_families)
        .into_iter()
        .map(|fresh| match taken.get(&fresh.name) {
            // The family and whether it is in-family are today's split's.
            Some(old) => ProblemResult {
                family: fresh.family.clone(),
                in_family: fresh.in_family,
                ..old.clone()
            },
            None => fresh,
        })
        .collect();
    let values: Vec<(ProblemValues, Option<bool>)> =
        results.iter().map(|r| (r.values(), r.in_family)).collect();
    let report = EvalReport {
        model: args.model.clone(),
        problems_dir: args.problems.clone(),
        split,
        config: args.config_path.clone(),
        sampling,
        seed,
        samples_per_problem: args.samples,
        totals: totals(&results),
        pass_at_1: pass_at_1(&results),
        measures: Some(measure::summary(&values)),
        problems: results,
        wall_s: started.elapsed().as_secs_f64(),
        precision,
        key: Some(key),
        resumed_episodes: resumed,
        reused,
    };
    if let Some(why) = broken_harness(&report.totals) {
        anyhow::bail!("{why}");
    }
    if let (Some(dir), Some(key)) = (&args.cache, &report.key) {
        if report.totals.judge_errors == 0 {
            let path = cache::save(dir, key, &report)?;
            eprintln!("eval: kept in the cache as {}", path.display());
        } else {
            eprintln!(
                "eval: not cached: {} episodes left on a judge error",
                report.totals.judge_errors
            );
        }
    }
    Ok(report)
}

/// The key of the evaluation `args` asks for.
fn eval_key(
    args: &EvalArgs,
    tokenizer_dir: &Path,
    hashes: &[(&str, &str)],
    split: &str,
    precision: &str,
    pipeline: &agent::pipeline::Pipeline,
    seed: u64,
) -> anyhow::Result<EvalKey> {
    // The pipeline's content, not the file it was read from.
    let mut pipeline = pipeline.clone();
    pipeline.name.clear();
    Ok(EvalKey::new(KeyParts {
        version: cache::KEY_VERSION,
        model: cache::model_digest(&args.model, tokenizer_dir)?,
        dtype: precision.to_owned(),
        split: split.to_owned(),
        problems: cache::problems_digest(hashes.iter().copied()),
        problem_count: hashes.len(),
        sampling: serde_json::to_value(&pipeline)?,
        samples: args.samples,
        seed,
    }))
}

/// Each problem's name and its package's SHA-256 (empty without a package), in order.
fn package_hashes(problems: &[Problem]) -> Vec<(&str, &str)> {
    problems
        .iter()
        .map(|p| {
            let sha = p
                .task
                .package
                .as_ref()
                .map_or("", |pkg| pkg.sha256.as_str());
            (p.task.id.as_str(), sha)
        })
        .collect()
}

/// The results, by problem, that the cached evaluations under `dir` already hold for the
/// evaluation keyed `key` over `hashes` (name, package hash), and where each came from.
/// A cached evaluation lends its problems when its key has the same version, model,
/// precision, sampling, samples and seed, and every one of its problems is one of
/// `hashes` with the same package: its problems' digest, recomputed from today's package
/// hashes, is the one in its key. Each episode's seed depends on the evaluation's seed,
/// the problem's name and the sample only ([`episode_seed`]), so such a problem's
/// episodes are the ones this evaluation would run, and a grown split runs only its new
/// problems. A problem is taken from the first lender in file-name order; a file that
/// does not parse, or has no key, lends nothing.
fn reusable(
    dir: &Path,
    key: &EvalKey,
    hashes: &[(&str, &str)],
) -> (BTreeMap<String, ProblemResult>, Vec<Reused>) {
    let (mut taken, mut reused) = (BTreeMap::new(), Vec::new());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (taken, reused);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let sha: BTreeMap<&str, &str> = hashes.iter().copied().collect();
    let ours = &key.parts;
    for file in files {
        let Some(report) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|text| serde_json::from_str::<EvalReport>(&text).ok())
        else {
            continue;
        };
        let Some(theirs) = &report.key else { continue };
        let p = &theirs.parts;
        let same_run = theirs.id != key.id
            && p.version == ours.version
            && p.model == ours.model
            && p.dtype == ours.dtype
            && p.sampling == ours.sampling
            && p.samples == ours.samples
            && p.seed == ours.seed
            && report.totals.judge_errors == 0;
        if !same_run {
            continue;
        }
        let names: Option<Vec<(&str, &str)>> = report
            .problems
            .iter()
            .map(|r| sha.get(r.name.as_str()).map(|s| (r.name.as_str(), *s)))
            .collect();
        let Some(names) = names else { continue };
        if p.problem_count != names.len() || cache::problems_digest(names) != p.problems {
            continue;
        }
        let mut lent = Vec::new();
        for result in &report.problems {
            if !taken.contains_key(&result.name) {
                taken.insert(result.name.clone(), result.clone());
                lent.push(result.name.clone());
            }
        }
        if !lent.is_empty() {
            reused.push(Reused {
                key: theirs.id.clone(),
                problems: lent,
            });
        }
    }
    (taken, reused)
}

#[cfg(test)]
mod tests {
    use agent::task::Task;

    use super::*;

    #[test]
    fn an_evaluation_of_judge_errors_only_is_refused_one_with_a_scored_episode_is_not() {
        let broken = Totals {
            problems: 2,
            judge_errors: 16,
            ..Totals::default()
        };
        let why = broken_harness(&broken).expect("refused");
        assert!(why.contains("every one of the 16 episodes"), "{why}");
        let some = Totals {
            samples: 1,
            ..broken.clone()
        };
        assert_eq!(broken_harness(&some), None);
        assert_eq!(broken_harness(&Totals::default()), None);
    }

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
            tests_passed: None,
            in_family: None,
            measures: None,
        }
    }

    /// A cached evaluation of `names` (name, package hash) under `dir`, seeded `seed`,
    /// with one solved episode of 8 per problem; its key.
    fn cache_one(dir: &Path, names: &[(&str, &str)], seed: u64) -> EvalKey {
        let key = EvalKey::new(KeyParts {
            version: cache::KEY_VERSION,
            model: "m".repeat(64),
            dtype: "bf16".to_owned(),
            split: "held-out".to_owned(),
            problems: cache::problems_digest(names.iter().copied()),
            problem_count: names.len(),
            sampling: serde_json::json!({"sampling": {"temperature": 0.7}}),
            samples: 8,
            seed,
        });
        let problems: Vec<ProblemResult> =
            names.iter().map(|(name, _)| result(name, 8, 1)).collect();
        let report = EvalReport {
            model: PathBuf::from("m"),
            problems_dir: PathBuf::from("p"),
            split: "held-out".to_owned(),
            config: None,
            sampling: serde_json::Value::Null,
            seed,
            samples_per_problem: 8,
            totals: totals(&problems),
            pass_at_1: pass_at_1(&problems),
            problems,
            wall_s: 1.0,
            precision: "bf16".to_owned(),
            measures: None,
            key: Some(key.clone()),
            resumed_episodes: 0,
            reused: Vec::new(),
        };
        cache::save(dir, &key, &report).expect("cached");
        key
    }

    #[test]
    fn a_grown_split_takes_the_unchanged_problems_of_cached_evaluations_of_the_same_run() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let lender = cache_one(dir.path(), &[("a", "1"), ("b", "2")], 1);
        // c's package changed since; d was evaluated with another seed; e is not asked.
        cache_one(dir.path(), &[("c", "3")], 1);
        cache_one(dir.path(), &[("d", "4")], 2);
        let mixed = cache_one(dir.path(), &[("d", "4"), ("e", "5")], 1);
        std::fs::write(dir.path().join("broken.json"), "{").expect("a broken file");
        let now = [("a", "1"), ("b", "2"), ("c", "33"), ("d", "4")];
        let ours = EvalKey::new(KeyParts {
            problems: cache::problems_digest(now.iter().copied()),
            problem_count: now.len(),
            ..lender.parts.clone()
        });
        let (taken, reused) = reusable(dir.path(), &ours, &now);
        assert_eq!(taken.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(taken["a"], result("a", 8, 1));
        assert_eq!(
            reused,
            [Reused {
                key: lender.id.clone(),
                problems: vec!["a".to_owned(), "b".to_owned()]
            }]
        );
        assert_ne!(mixed.id, lender.id);
        // Another model's evaluation lends nothing, nor does the evaluation itself.
        let other = EvalKey::new(KeyParts {
            model: "x".repeat(64),
            ..ours.parts.clone()
        });
        assert!(reusable(dir.path(), &other, &now).0.is_empty());
        assert!(reusable(dir.path(), &lender, &now[..2]).0.is_empty());
        assert!(reusable(&dir.path().join("none"), &ours, &now).0.is_empty());
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

    fn problem(name: &str, family: &str) -> Problem {
        Problem {
            task: Arc::new(Task {
                id: name.to_owned(),
                name: name.to_owned(),
                statement: String::new(),
                statement_format: "none".to_owned(),
                samples: Vec::new(),
                time_limit: std::time::Duration::from_secs(1),
                memory_bytes: 1 << 28,
                package: None,
            }),
            family: Some(family.to_owned()),
        }
    }

    fn record(problem: &str, sample: usize, solved: bool, judge_error: bool) -> EpisodeRecord {
        EpisodeRecord {
            key: "k".to_owned(),
            problem: problem.to_owned(),
            sample,
            judge_error,
            solved,
            compiled: solved || sample.is_multiple_of(2),
            samples_passed: solved,
            hidden: Some(agent::step::Count {
                passed: if solved { 4 } else { sample % 3 },
                total: 4,
            }),
            tokens: 3,
            tiers: Vec::new(),
        }
    }

    #[test]
    fn results_come_from_the_records_in_any_order() {
        let problems = [problem("gcd", "math"), problem("wordle", "games")];
        let records = vec![
            record("gcd", 0, true, false),
            record("gcd", 1, false, false),
            record("gcd", 2, false, true),
            record("wordle", 0, false, false),
            record("wordle", 1, false, false),
            record("lcm", 0, true, false), // not evaluated: ignored
        ];
        let trained: BTreeSet<String> = ["math".to_owned()].into();
        let results = results_of(&problems, &records, &trained);
        let gcd = &results[0];
        assert_eq!(
            (
                gcd.samples,
                gcd.passed,
                gcd.compiled,
                gcd.judge_errors,
                gcd.tokens
            ),
            (2, 1, 1, 1, 9)
        );
        // Hidden tests: 4/4 and 1/4 (the judge error is not scored).
        assert_eq!(gcd.tests_passed, Some(0.625));
        assert_eq!(gcd.in_family, Some(true));
        assert_eq!(results[1].in_family, Some(false));
        let m = gcd.measures.as_ref().expect("scored");
        assert_eq!(m.pass_at_1.estimate, 0.5);
        assert_eq!(m.pass_at_k.keys().copied().collect::<Vec<_>>(), [1, 2]);
        // A resumed evaluation (its records in another order: the kept ones, then the
        // ones run after the restart) reports the same.
        let mut resumed = records.clone();
        resumed.rotate_left(3);
        assert_eq!(results_of(&problems, &resumed, &trained), results);
        // Without a split's families, in-family is unknown.
        assert_eq!(
            results_of(&problems, &records, &BTreeSet::new())[0].in_family,
            None
        );
        assert_eq!(in_family(None, &trained), None);
    }
}
