//! The judging queue's workers: each takes the oldest queued submission (or one whose
//! lease expired) from the database, judges it in the sandbox while renewing its lease,
//! and writes the judgement, its runs and their events in one transaction.
//!
//! A judge error (the sandbox failed, Docker restarted, a validator crashed) is recorded
//! as a `JE` judgement and the submission goes back to the queue, up to `max_attempts`
//! takes; after that the `JE` stands. A worker never blames the contestant for the
//! judge's failure, and never stops serving because one submission failed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use problems::Verdict;

use crate::clics;
use crate::error::{self, ServerError};
use crate::state::AppState;
use crate::store::{Finished, JudgementRow, NewEvent, RunRow, SubmissionRow};
use judge::grade::{Submission, TestResult, group_score};

/// Starts `n` workers on `state`'s queue.
pub fn spawn(state: &Arc<AppState>, n: usize) {
    for index in 0..n {
        let state = Arc::clone(state);
        tokio::spawn(async move { run(state, index).await });
    }
}

async fn run(state: Arc<AppState>, index: usize) {
    let worker = format!("{}/{index}", state.instance);
    loop {
        let now = Utc::now().timestamp_millis();
        let lease = state.lease.as_millis() as i64;
        match state.store.claim(&worker, now, now + lease).await {
            Ok(Some(sub)) => {
                if let Err(err) = judge_one(&state, &worker, sub).await {
                    eprintln!("judge serve: worker {worker}: {}", error::chain(&err));
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                state.events_changed.notify_waiters();
            }
            Ok(None) => {
                // Woken by a new submission, or polling for other hosts' submissions and
                // expired leases.
                let _ = tokio::time::timeout(
                    Duration::from_millis(500),
                    state.queue_changed.notified(),
                )
                .await;
            }
            Err(err) => {
                eprintln!(
                    "judge serve: worker {worker}: cannot take a submission: {}",
                    error::chain(&err)
                );
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

async fn judge_one(
    state: &Arc<AppState>,
    worker: &str,
    sub: SubmissionRow,
) -> Result<(), ServerError> {
    let start_ms = Utc::now().timestamp_millis();
    let Some(contest) = state.contest(&sub.contest_id) else {
        eprintln!(
            "judge serve: submission {} of unknown contest {}",
            sub.id, sub.contest_id
        );
        return Ok(());
    };
    // Keep the lease while judging.
    let renew = {
        let store = state.store.clone();
        let worker = worker.to_owned();
        let lease = state.lease;
        let seq = sub.seq;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(lease / 3).await;
                let until = Utc::now().timestamp_millis() + lease.as_millis() as i64;
                if !matches!(store.renew(seq, &worker, until).await, Ok(true)) {
                    break;
                }
            }
        })
    };
    let outcome = match (
        contest.problem(&sub.problem_id),
        judge::lang::by_id(&sub.language_id),
    ) {
        (Some(p), Ok(language)) => {
            let submission = Submission {
                path: format!("submission {}", sub.id).into(),
                source: sub.source.clone(),
                language,
            };
            let mut finished_at: Vec<i64> = Vec::new();
            let mut on_test = |_: &TestResult| finished_at.push(Utc::now().timestamp_millis());
            let result = judge::grade::judge(
                &p.problem,
                &submission,
                &state.sandbox,
                &state.options,
                &mut on_test,
            )
            .await;
            result.map(|report| (report, finished_at, p))
        }
        (None, _) => Err(judge::Error::Unsupported(format!(
            "unknown problem {}",
            sub.problem_id
        ))),
        (_, Err(err)) => Err(err),
    };
    renew.abort();
    let end_ms = Utc::now().timestamp_millis();
    let (finished, requeue) = match outcome {
        Ok((report, finished_at, p)) => {
            let runs = report
                .tests
                .iter()
                .enumerate()
                .map(|(i, t)| RunRow {
                    id: String::new(),
                    judgement_id: String::new(),
                    ordinal: i as i64 + 1,
                    verdict: t.verdict,
                    time_ms: finished_at.get(i).copied().unwrap_or(end_ms),
                    run_time: t.cpu_ms / 1000.0,
                })
                .collect();
            let subtasks = subtask_scores(&p.problem, &report.tests, report.score);
            let judgement = JudgementRow {
                seq: 0,
                id: String::new(),
                submission_id: sub.id.clone(),
                verdict: report.verdict,
                score: report.score,
                subtask_scores: serde_json::to_string(&subtasks).unwrap_or_else(|_| "[]".into()),
                start_ms,
                end_ms,
                max_run_time: report.tests.iter().map(|t| t.cpu_ms).fold(0.0, f64::max) / 1000.0,
            };
            (Finished { judgement, runs }, false)
        }
        Err(err) => {
            eprintln!(
                "judge serve: submission {} (take {}): judge error: {}",
                sub.id,
                sub.attempts,
                error::chain(&err)
            );
            let judgement = JudgementRow {
                seq: 0,
                id: String::new(),
                submission_id: sub.id.clone(),
                verdict: Verdict::JE,
                score: 0.0,
                subtask_scores: "[]".into(),
                start_ms,
                end_ms,
                max_run_time: 0.0,
            };
            (
                Finished {
                    judgement,
                    runs: Vec::new(),
                },
                sub.attempts < state.max_attempts,
            )
        }
    };
    let team = sub.team_id.clone();
    let written = state
        .store
        .finish(
            &sub.contest_id,
            sub.seq,
            worker,
            finished,
            requeue,
            |j, runs| {
                let mut events = vec![NewEvent {
                    kind: "judgements".into(),
                    obj_id: Some(j.id.clone()),
                    team_id: Some(team.clone()),
                    data: Some(clics::judgement(&contest, j)),
                }];
                events.extend(runs.iter().map(|r| NewEvent {
                    kind: "runs".into(),
                    obj_id: Some(r.id.clone()),
                    team_id: Some(team.clone()),
                    data: Some(clics::run(&contest, r)),
                }));
                events
            },
        )
        .await?;
    if !written {
        eprintln!(
            "judge serve: worker {worker} lost the lease on submission {}; its result is dropped",
            sub.id
        );
    }
    if requeue {
        // Back off, so that another host (whose sandbox may be healthy) takes it first.
        state.queue_changed.notify_waiters();
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    Ok(())
}

/// The points of each top-level secret group when every one declares its score (IOI
/// subtasks), else the whole score as one part.
fn subtask_scores(problem: &problems::Problem, tests: &[TestResult], total: f64) -> Vec<f64> {
    let groups = &problem.secret.groups;
    if groups.is_empty() || groups.iter().any(|g| g.score.is_none()) {
        return vec![total];
    }
    let outcomes: HashMap<&str, (Verdict, f64)> = tests
        .iter()
        .map(|t| (t.name.as_str(), (t.verdict, t.score.unwrap_or(0.0))))
        .collect();
    groups
        .iter()
        .map(|g| group_score(g, &outcomes, 0.0).0)
        .collect()
}
