//! `algorithm: rft`, rejection-sampling fine-tuning (keep the positives), the stage after
//! the supervised warm start (`super::sft`).
//!
//! Round R (from 1) samples `rft.samples` programs for each training problem (all, or
//! `rft.problems` of them chosen by the seed and the round) through the agent's loop
//! ([`Rollouts`]: the pipeline, the in-process policy, the bubblewrap sandbox and the
//! local judge), with the last round's model (round 1: `--model`, the warm start's
//! checkpoint). Every program the judge accepted is kept (with `keep: samples_passed`,
//! also every program that passed the samples), once per problem and source, in
//! `OUT/rft-kept.jsonl`. Then the round trains from the starting weights (`--model`) on
//! every program kept so far, with the warm start's loss, schedule and settings (`sft`;
//! `super::sft::Data::Programs`), into `OUT/round-R/`, a run folder of its own (metrics,
//! `sft-data.jsonl`, checkpoints). `OUT/latest` names the last round's checkpoint.
//! Each round's figures (problems sampled, episodes, judge errors, problems with at least
//! one accepted program, programs kept) go to stderr and `OUT/rft-rounds.jsonl`.
//!
//! Data: only the training list is sampled, the warm start refuses a held-out name and
//! runs its leak check on what each round feeds, and its validation loss stays the
//! held-aside problems' reference solutions', comparable across rounds and with the warm
//! start's.
//! Resume (`--resume`): a round whose sampling is in `rft-rounds.jsonl` is not sampled
//! again, and its training resumes from its own last checkpoint.
//! The time budget (`time_budget_minutes`) covers the whole run: each round's training
//! gets what is left, and no new round starts once it is spent.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use agent::task::Task;
use tch::{Device, Kind};

use super::config::{Algorithm, Keep, TrainConfig};
use super::eval::episode_seed;
use super::problems::{chosen_training, load_problems};
use super::rollout::{Event, Hook, Left, Rollouts, pipeline};
use super::run::RunPaths;
use super::sft::{Data, Kept, Warmstart};
use crate::batching::OnWeights;
use crate::checkpoint;
use crate::model::Model;
use crate::policy::LocalPolicy;
use crate::rng::{mix, permutation};
use crate::tokenizer::ChatTokenizer;

/// One round's sampling, as `rft-rounds.jsonl` records it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoundReport {
    /// The round (from 1).
    pub round: u32,
    /// The model that sampled.
    pub sampler: PathBuf,
    /// Training problems sampled.
    pub problems: usize,
    /// Episodes run.
    pub episodes: usize,
    /// Episodes that left on a judge or sandbox error (nothing kept from them).
    pub judge_errors: usize,
    /// Episodes whose program the judge accepted.
    pub accepted: usize,
    /// Problems with at least one accepted program this round.
    pub solved_problems: usize,
    /// Programs kept this round that were not kept before.
    pub kept_new: usize,
    /// Programs kept so far, this round's included.
    pub kept_total: usize,
    /// Seconds the sampling took.
    pub seconds: f64,
}

/// An episode's outcome as rejection sampling reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// The problem.
    pub problem: String,
    /// The sample's index.
    pub sample: usize,
    /// The judge accepted its last program.
    pub accepted: bool,
    /// Its program passed every sample test.
    pub samples_passed: bool,
    /// It left on a judge or sandbox error.
    pub judge_error: bool,
    /// The last program the loop held.
    pub source: Option<String>,
}

/// The training problems round `round` samples: every one when `count` is 0 or covers
/// them all, else `count` of them, a seeded choice that changes with the round (in the
/// list's order).
pub fn round_problems(total: usize, count: usize, seed: u64, round: u32) -> Vec<usize> {
    if count == 0 || count >= total {
        return (0..total).collect();
    }
    let mut chosen =
        permutation(total, mix(seed ^ mix(u64::from(round) ^ 0x2F7)))[..count].to_vec();
    chosen.sort_unstable();
    chosen
}

/// The programs of `sampled` to keep under `keep`, labelled `round-R/sample-K`, each
/// problem's source once (compared without surrounding white space) and none already in
/// `before`.
pub fn keep_programs(sampled: &[Sampled], keep: Keep, round: u32, before: &[Kept]) -> Vec<Kept> {
    let mut seen: BTreeSet<(String, String)> = before
        .iter()
        .map(|k| (k.problem.clone(), k.source.trim().to_owned()))
        .collect();
    let mut out = Vec::new();
    for s in sampled {
        let wanted =
            !s.judge_error && (s.accepted || (keep == Keep::SamplesPassed && s.samples_passed));
        let Some(source) = s.source.as_ref().filter(|_| wanted) else {
            continue;
        };
        if seen.insert((s.problem.clone(), source.trim().to_owned())) {
            out.push(Kept {
                problem: s.problem.clone(),
                label: format!("round-{round}/sample-{}", s.sample),
                source: source.clone(),
            });
        }
    }
    out
}

/// Runs `samples` episodes of each task together with `rollouts` and returns how each
/// went, in the order (task, sample).
pub fn sample(
    rollouts: &Rollouts,
    tasks: &[Arc<Task>],
    samples: usize,
    seed: u64,
    config: &TrainConfig,
) -> anyhow::Result<Vec<Sampled>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut handles = Vec::new();
    let mut plan = Vec::new();
    for task in tasks {
        for k in 0..samples {
            let slot = plan.len();
            let hook = Arc::new(Hook::new(
                rollouts.policy.clone(),
                slot,
                k,
                config.rewards,
                tx.clone(),
                None,
            ));
            let episode = episode_seed(seed, &task.id, k);
            handles.push(rollouts.spawn(hook, task.clone(), episode, "rft"));
            plan.push((task.id.clone(), k));
        }
    }
    drop(tx);
    let outcomes = rollouts.outcomes(handles)?;
    let mut samples_passed = vec![false; plan.len()];
    let mut judge_error = vec![false; plan.len()];
    for event in rx.try_iter() {
        if let Event::End { group, end, .. } = event {
            samples_passed[group] = end.ladder.samples;
            judge_error[group] = end.reward == Err(Left::JudgeError);
        }
    }
    Ok(plan
        .into_iter()
        .zip(outcomes)
        .enumerate()
        .map(|(i, ((problem, sample), outcome))| Sampled {
            problem,
            sample,
            accepted: outcome.solved,
            samples_passed: samples_passed[i],
            judge_error: judge_error[i],
            source: outcome.program.map(|p| p.source),
        })
        .collect())
}

/// Appends one JSON line per value to `path`.
fn append<T: serde::Serialize>(path: &Path, values: &[T]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut text = String::new();
    for v in values {
        text.push_str(&serde_json::to_string(v)?);
        text.push('\n');
    }
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// The JSON lines of `path` (none when it does not exist); a file that cannot be read or
/// a line that does not parse is an error naming it.
fn read_lines<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// What a whole rejection-sampling run did.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Each round's sampling.
    pub rounds: Vec<RoundReport>,
    /// The last round's checkpoint (`OUT/latest` names it).
    pub checkpoint: PathBuf,
    /// Whether the time budget stopped the run before its last round.
    pub budget_spent: bool,
}

/// One round's sampling with `sampler`'s weights.
fn sample_round(
    config: &TrainConfig,
    sampler: &Path,
    tasks: &[Arc<Task>],
    device: Device,
    compute: Kind,
    round: u32,
) -> anyhow::Result<Vec<Sampled>> {
    let model = Model::load_as(sampler, device, compute)
        .map_err(|e| anyhow::anyhow!("model {}: {e}", sampler.display()))?;
    let tokenizer_dir = checkpoint::tokenizer_dir(sampler)?;
    let tokenizer = ChatTokenizer::load(&tokenizer_dir)
        .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?;
    let policy = Arc::new(LocalPolicy::new(
        format!("rft-round-{round}"),
        model,
        tokenizer,
        config.max_batch,
        OnWeights::Drain,
        0,
    ));
    let rollouts = Rollouts::new(pipeline(config)?, policy)?;
    sample(
        &rollouts,
        tasks,
        config.rft.samples,
        mix(config.seed ^ mix(u64::from(round))),
        config,
    )
}

/// `trainer train` with `algorithm: rft`: every round, sampled then trained, from
/// `paths.model` (the warm start's checkpoint) into `paths.out`; `until` bounds each
/// round's updates (`--stop-after`).
pub fn run(
    config: &TrainConfig,
    paths: &RunPaths,
    device: Device,
    compute: Kind,
    resume: bool,
    until: Option<u64>,
) -> anyhow::Result<Summary> {
    let started = Instant::now();
    config.validate()?;
    if config.algorithm != Algorithm::Rft {
        anyhow::bail!(
            "rejection sampling runs algorithm rft, not {:?}",
            config.algorithm
        );
    }
    let out = &paths.out;
    let rounds_path = out.join("rft-rounds.jsonl");
    let kept_path = out.join("rft-kept.jsonl");
    if !resume && (rounds_path.exists() || out.join("latest").exists()) {
        anyhow::bail!(
            "{} already holds a run: pass --resume or another --out",
            out.display()
        );
    }
    std::fs::create_dir_all(out)?;
    let problems = load_problems(&paths.problems)?;
    let training = chosen_training(&problems, config)?;
    if training.is_empty() {
        anyhow::bail!("rft: no training problems in {}", paths.problems.display());
    }
    let mut reports: Vec<RoundReport> = read_lines(&rounds_path)?;
    let mut kept: Vec<Kept> = read_lines(&kept_path)?;
    let mut last = None;
    let mut budget_spent = false;
    for round in 1..=config.rft.rounds {
        let round_dir = out.join(format!("round-{round}"));
        if !reports.iter().any(|r| r.round == round) {
            let sampler = if round == 1 {
                paths.model.clone()
            } else {
                checkpoint::latest(&out.join(format!("round-{}", round - 1)))?
                    .ok_or_else(|| anyhow::anyhow!("rft: round {} left no checkpoint", round - 1))?
            };
            let chosen = round_problems(training.len(), config.rft.problems, config.seed, round);
            let tasks: Vec<Arc<Task>> = chosen.iter().map(|i| training[*i].clone()).collect();
            let began = Instant::now();
            let sampled = sample_round(config, &sampler, &tasks, device, compute, round)?;
            let new = keep_programs(&sampled, config.rft.keep, round, &kept);
            let solved: BTreeSet<&str> = sampled
                .iter()
                .filter(|s| s.accepted && !s.judge_error)
                .map(|s| s.problem.as_str())
                .collect();
            let report = RoundReport {
                round,
                sampler,
                problems: tasks.len(),
                episodes: sampled.len(),
                judge_errors: sampled.iter().filter(|s| s.judge_error).count(),
                accepted: sampled
                    .iter()
                    .filter(|s| s.accepted && !s.judge_error)
                    .count(),
                solved_problems: solved.len(),
                kept_new: new.len(),
                kept_total: kept.len() + new.len(),
                seconds: began.elapsed().as_secs_f64(),
            };
            append(&kept_path, &new)?;
            append(&rounds_path, std::slice::from_ref(&report))?;
            kept.extend(new);
            reports.push(report);
        }
        let report = reports
            .iter()
            .find(|r| r.round == round)
            .expect("invariant: the round was just sampled or read");
        eprintln!(
            "rft round {round}: {} of {} problems had at least one accepted program ({} of {} episodes accepted, {} judge errors); {} programs kept ({} new), sampled in {:.0}s",
            report.solved_problems,
            report.problems,
            report.accepted,
            report.episodes,
            report.judge_errors,
            report.kept_total,
            report.kept_new,
            report.seconds
        );
        let mut round_config = config.clone();
        if let Some(minutes) = config.time_budget_minutes {
            let left = minutes - started.elapsed().as_secs_f64() / 60.0;
            round_config.time_budget_minutes = Some(left.max(1.0 / 60.0));
        }
        let round_paths = RunPaths {
            problems: paths.problems.clone(),
            model: paths.model.clone(),
            out: round_dir.clone(),
        };
        let resume_round = checkpoint::latest(&round_dir)?.is_some();
        let mut w = Warmstart::start(
            round_config,
            round_paths,
            device,
            compute,
            resume_round,
            Data::Programs(&kept),
        )?;
        w.run(until.map(|n| w.step() + n))?;
        last = checkpoint::latest(&round_dir)?;
        if config.budget_spent(started.elapsed()) && round < config.rft.rounds {
            eprintln!(
                "time budget of {} min spent: no round after round {round}",
                config.time_budget_minutes.unwrap_or_default()
            );
            budget_spent = true;
            break;
        }
    }
    let checkpoint = last.ok_or_else(|| anyhow::anyhow!("rft: no round left a checkpoint"))?;
    let relative = checkpoint.strip_prefix(out).unwrap_or(&checkpoint);
    std::fs::write(out.join("latest"), format!("{}\n", relative.display()))?;
    Ok(Summary {
        rounds: reports,
        checkpoint,
        budget_spent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampled(
        problem: &str,
        sample: usize,
        accepted: bool,
        samples: bool,
        source: &str,
    ) -> Sampled {
        Sampled {
            problem: problem.to_owned(),
            sample,
            accepted,
            samples_passed: samples,
            judge_error: false,
            source: Some(source.to_owned()),
        }
    }

    #[test]
    fn only_accepted_programs_are_kept_once_per_problem_and_source() {
        let s = vec![
            sampled("a", 0, true, true, "print(1)\n"),
            sampled("a", 1, true, true, "print(1)"),
            sampled("a", 2, false, true, "print(2)"),
            sampled("b", 0, true, true, "print(1)"),
            sampled("b", 1, false, false, "x"),
        ];
        let kept = keep_programs(&s, Keep::Accepted, 1, &[]);
        let names: Vec<(&str, &str)> = kept
            .iter()
            .map(|k| (k.problem.as_str(), k.label.as_str()))
            .collect();
        assert_eq!(
            names,
            [("a", "round-1/sample-0"), ("b", "round-1/sample-0")]
        );
        // With samples_passed, the program that passed the samples joins; a later round
        // does not keep again what an earlier one kept.
        let more = keep_programs(&s, Keep::SamplesPassed, 2, &kept);
        assert_eq!(more.len(), 1);
        assert_eq!(
            (more[0].problem.as_str(), more[0].label.as_str()),
            ("a", "round-2/sample-2")
        );
    }

    #[test]
    fn a_judge_error_or_a_missing_program_is_never_kept() {
        let mut s = vec![sampled("a", 0, true, true, "print(1)")];
        s[0].judge_error = true;
        s.push(Sampled {
            source: None,
            ..sampled("a", 1, true, true, "")
        });
        assert!(keep_programs(&s, Keep::SamplesPassed, 1, &[]).is_empty());
    }

    #[test]
    fn a_round_samples_every_problem_or_a_seeded_choice_that_changes_with_the_round() {
        assert_eq!(round_problems(5, 0, 1, 1), vec![0, 1, 2, 3, 4]);
        assert_eq!(round_problems(5, 9, 1, 1), vec![0, 1, 2, 3, 4]);
        let a = round_problems(50, 10, 1, 1);
        assert_eq!(a.len(), 10);
        assert!(
            a.windows(2).all(|w| w[0] < w[1]),
            "in list order, no repeats"
        );
        assert_eq!(a, round_problems(50, 10, 1, 1), "the seed decides");
        assert_ne!(
            a,
            round_problems(50, 10, 1, 2),
            "another round, another choice"
        );
    }

    #[test]
    fn the_records_round_trip_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("kept.jsonl");
        let k = Kept {
            problem: "a".into(),
            label: "round-1/sample-0".into(),
            source: "print(1)".into(),
        };
        append(&path, std::slice::from_ref(&k)).expect("append");
        append(&path, std::slice::from_ref(&k)).expect("append again");
        assert_eq!(read_lines::<Kept>(&path).expect("read"), vec![k.clone(), k]);
        assert!(
            read_lines::<Kept>(&dir.path().join("none.jsonl"))
                .expect("absent")
                .is_empty()
        );
        // A folder where the file should be is an error, not an empty record.
        let err = read_lines::<Kept>(dir.path()).unwrap_err().to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        std::fs::write(&path, "{\"problem\": 1}\n").expect("write");
        let err = read_lines::<Kept>(&path).unwrap_err().to_string();
        assert!(err.contains("kept.jsonl line 1"), "{err}");
    }
}
