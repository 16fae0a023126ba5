//! A series of problems in one run folder: each problem's episode with its trajectory
//! writer, finished problems skipped (resuming), unloadable packages recorded as such,
//! `concurrency` episodes at a time drawing on one run budget. `agent solve` is this
//! plus argument parsing.

use std::path::PathBuf;

use futures_util::stream::{self, StreamExt};

use crate::budget::RunLedger;
use crate::error::Result;
use crate::model::{ChatModel, Usage};
use crate::pipeline::Pipeline;
use crate::runner::{Runner, Submitter};
use crate::solve::{Episode, solve};
use crate::step::{End, Fanout, Observer, Outcome, Step, Timing};
use crate::task::Task;
use crate::trajectory::{Progress, RunDir};

/// A problem to run: its id, where it came from, and the task (or why it did not load).
pub struct Item {
    /// The id (the package folder's name).
    pub id: String,
    /// The folder.
    pub source: PathBuf,
    /// The task, or the load error.
    pub task: std::result::Result<Task, String>,
}

impl Item {
    /// Load a package folder.
    pub fn load(dir: PathBuf) -> Item {
        let id = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("problem")
            .to_owned();
        let task = Task::from_package(&dir).map_err(|e| e.to_string());
        let id = task.as_ref().map(|t| t.id.clone()).unwrap_or(id);
        Item {
            id,
            source: dir,
            task,
        }
    }
}

/// What happened to one problem of the run.
#[derive(Debug, Clone, PartialEq)]
pub enum Done {
    /// Finished in an earlier start of the run: skipped.
    Skipped(Box<Outcome>),
    /// Ran now.
    Ran(Box<Outcome>),
}

/// What the batch needs besides the problems.
pub struct Batch<'a> {
    /// The model.
    pub model: &'a dyn ChatModel,
    /// Runs code.
    pub runner: &'a dyn Runner,
    /// Submits.
    pub submitter: &'a dyn Submitter,
    /// The pipeline.
    pub pipeline: &'a Pipeline,
    /// The run's budget.
    pub ledger: &'a RunLedger,
    /// The run folder.
    pub run: &'a RunDir,
    /// The run's id.
    pub run_id: String,
    /// The seed.
    pub seed: u64,
    /// Episodes at a time.
    pub concurrency: usize,
    /// Also receives every step and outcome (progress lines on the terminal).
    pub watcher: Option<&'a dyn Observer>,
}

/// Run every item; results in the items' order.
pub async fn run_all(batch: &Batch<'_>, items: &[Item]) -> Result<Vec<Done>> {
    // Check where every problem stands first: a broken run folder fails before any work.
    let mut plans = Vec::new();
    for item in items {
        plans.push(batch.run.progress(&item.id)?);
    }
    let work = items.iter().zip(plans).map(|(item, progress)| async move {
        let attempt = match progress {
            Progress::Finished(outcome) => return Ok(Done::Skipped(outcome)),
            Progress::New => 1,
            Progress::Unfinished { next_attempt } => next_attempt,
        };
        let writer = batch.run.writer(&item.id)?;
        let mut observers: Vec<&dyn Observer> = vec![&writer];
        if let Some(w) = batch.watcher {
            observers.push(w);
        }
        let observer = Fanout(observers);
        let outcome = match &item.task {
            Ok(task) => {
                solve(Episode {
                    model: batch.model,
                    runner: batch.runner,
                    submitter: batch.submitter,
                    task,
                    pipeline: batch.pipeline,
                    run_ledger: Some(batch.ledger),
                    seed: batch.seed,
                    observer: &observer,
                    run: batch.run_id.clone(),
                    attempt,
                })
                .await
            }
            Err(error) => {
                let outcome = Outcome {
                    run: batch.run_id.clone(),
                    problem: item.id.clone(),
                    attempt,
                    solved: false,
                    verdict: None,
                    hidden: None,
                    end: End::Unloadable {
                        error: error.clone(),
                    },
                    steps: 0,
                    model_calls: 0,
                    submissions: 0,
                    usage: Usage::default(),
                    timing: Timing::default(),
                    wall_ms: 0.0,
                    program: None,
                };
                observer
                    .outcome(&outcome)
                    .map_err(|reason| crate::Error::Format {
                        path: batch.run.trajectory_path(&item.id),
                        reason,
                    })?;
                outcome
            }
        };
        Ok(Done::Ran(Box::new(outcome)))
    });
    let mut results: Vec<(usize, Result<Done>)> = stream::iter(work.enumerate())
        .map(|(i, fut)| async move { (i, fut.await) })
        .buffer_unordered(batch.concurrency.max(1))
        .collect()
        .await;
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// An observer printing one line per step and outcome to standard error.
#[derive(Debug, Default)]
pub struct Progressbar;

impl Observer for Progressbar {
    fn step(&self, step: &Step) -> std::result::Result<(), String> {
        eprintln!(
            "{} #{} {}/{} {}{}",
            step.problem,
            step.step,
            step.stage.name(),
            step.action,
            crate::report::signals_text(step),
            if step.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", crate::prompt::cut(&step.note, 160))
            }
        );
        Ok(())
    }

    fn outcome(&self, o: &Outcome) -> std::result::Result<(), String> {
        eprintln!("{}", outcome_line(o));
        Ok(())
    }
}

/// One line for an outcome.
pub fn outcome_line(o: &Outcome) -> String {
    format!(
        "{}: {} (verdict {}, {}) — {} steps, {} submissions, {} tokens, {:.1} s: model {:.1} s, judge {:.1} s, agent {:.3} s",
        o.problem,
        if o.solved { "solved" } else { "not solved" },
        o.verdict.map(|v| v.clics_id()).unwrap_or("-"),
        crate::report::end_name(&o.end),
        o.steps,
        o.submissions,
        o.usage.prompt_tokens + o.usage.completion_tokens,
        o.wall_ms / 1000.0,
        o.timing.model_ms / 1000.0,
        o.timing.judge_ms / 1000.0,
        o.timing.agent_ms / 1000.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::{FakeJudge, FakeRunner, ScriptedModel};
    use crate::trajectory::Line;

    fn runner() -> FakeRunner {
        FakeRunner::new(|program, input| {
            let sum: i64 = input
                .stdin
                .split_whitespace()
                .skip(1)
                .filter_map(|w| w.parse::<i64>().ok())
                .sum();
            if program.source.contains("RIGHT") {
                (format!("{sum}\n"), problems::Verdict::AC)
            } else {
                ("0\n".into(), problems::Verdict::AC)
            }
        })
    }

    #[tokio::test]
    async fn a_second_start_skips_finished_problems_and_records_broken_ones() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let run = RunDir::create(tmp.path()).expect("run dir");
        let sum = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
        let items = vec![Item::load(sum.clone()), Item::load(tmp.path().join("nope"))];
        assert!(items[1].task.is_err());
        let model = ScriptedModel::replies(["```python\nimport sys\n# RIGHT\nprint(0)\n```"]);
        let runner = runner();
        let judge = FakeJudge {
            runner: &runner,
            hidden: Vec::new(),
        };
        let pipeline = Pipeline::short();
        let ledger = RunLedger::new(Default::default());
        let batch = Batch {
            model: &model,
            runner: &runner,
            submitter: &judge,
            pipeline: &pipeline,
            ledger: &ledger,
            run: &run,
            run_id: "r".into(),
            seed: 3,
            concurrency: 2,
            watcher: None,
        };
        let done = run_all(&batch, &items).await.expect("runs");
        match &done[0] {
            Done::Ran(o) => assert!(o.solved, "{o:?}"),
            other => panic!("{other:?}"),
        }
        match &done[1] {
            Done::Ran(o) => {
                assert!(matches!(&o.end, End::Unloadable { error } if error.contains("nope")))
            }
            other => panic!("{other:?}"),
        }
        let (lines, bad) = run.read("sum").expect("read");
        assert_eq!(bad, 0);
        assert_eq!(lines.len(), 4, "three steps and the outcome");
        assert!(matches!(lines.last(), Some(Line::Outcome(_))));

        // Started again: both are finished, nothing is asked again.
        let again = run_all(&batch, &items).await.expect("runs");
        assert!(again.iter().all(|d| matches!(d, Done::Skipped(_))));
        assert_eq!(model.asked(), 1);
        assert_eq!(
            run.read("sum").expect("read").0.len(),
            4,
            "nothing appended"
        );
    }
}
