//! The judging queue's workers: each takes the oldest queued submission (or one whose
//! lease expired) from the database, judges it in the sandbox while renewing its lease,
//! and writes the judgement, its runs and their events in one transaction.
//!
//! A judge error (the sandbox failed, Docker restarted, a validator crashed) is recorded
//! as a `JE` judgement and the submission goes back to the queue, up to `max_attempts`
//! takes; after that the `JE` stands. A worker never blames the contestant for the
//! judge's failure, and never stops serving because one submission failed.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use problems::Verdict;

use crate::clics;
use crate::error::{self, ServerError};
use crate::state::AppState;
use crate::store::{Finished, JudgementRow, NewEvent, RunDetail, RunRow, SubmissionRow};
use judge::grade::{Submission, TestResult};

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

/// Judges one claimed submission and records the judgement if this worker still holds
/// it. It is long because it is the one path from a claimed submission to its recorded
/// judgement (lease renewal, judging, the judge-error retry, the one transaction that
/// writes the judgement, its runs and their events), which reads best in that order.
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
        contest.problem(&sub.problem_id).map_or_else(
            || judge::lang::by_id(&sub.language_id),
            |p| {
                judge::lang::by_id(crate::contest::submission_language(
                    contest.spec.languages.as_deref(),
                    &p.problem.root,
                    &sub.language_id,
                ))
            },
        ),
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
            let subtasks = subtask_scores(&p.problem, &report);
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
            let details = report
                .tests
                .iter()
                .map(|t| RunDetail {
                    test_name: t.name.clone(),
                    wall_time: t.wall_ms / 1000.0,
                    memory_kib: i64::try_from(t.peak_kib).unwrap_or(i64::MAX),
                    message: t.message.clone(),
                    output_head: t.output_head.clone(),
                })
                .collect();
            (
                Finished {
                    judgement,
                    runs,
                    details,
                    compile_log: report.compile.log.clone(),
                },
                false,
            )
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
                    details: Vec::new(),
                    compile_log: String::new(),
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
                    data: Some(clics::to_value(&clics::judgement(&contest, j))),
                }];
                events.extend(runs.iter().map(|r| NewEvent {
                    kind: "runs".into(),
                    obj_id: Some(r.id.clone()),
                    team_id: Some(team.clone()),
                    data: Some(clics::to_value(&clics::run(&contest, r))),
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
/// subtasks), as the judge's report carries them; else the whole score as one part.
fn subtask_scores(problem: &problems::Problem, report: &judge::Report) -> Vec<f64> {
    let groups = &problem.secret.groups;
    if report.groups.is_empty() || groups.iter().any(|g| g.score.is_none()) {
        return vec![report.score];
    }
    report.groups.iter().map(|g| g.score).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge::grade::{CompileInfo, GroupScore};

    fn report(score: f64, groups: &[(&str, f64, f64)]) -> judge::Report {
        judge::Report {
            verdict: Verdict::WA,
            score,
            max_score: Some(100.0),
            groups: groups
                .iter()
                .map(|(name, score, max)| GroupScore {
                    name: (*name).to_owned(),
                    score: *score,
                    max: *max,
                })
                .collect(),
            passed: 0,
            total: 0,
            language: "cpp".to_owned(),
            compile: CompileInfo {
                cached: false,
                ok: true,
                log: String::new(),
                cpu_ms: 0.0,
                wall_ms: 0.0,
            },
            tests: Vec::new(),
        }
    }

    fn package(name: &str) -> problems::Problem {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../problems/packages")
            .join(name);
        problems::load(&dir).expect("bundled package loads").0
    }

    #[test]
    fn ioi_subtasks_come_from_the_reports_groups() {
        // pairsums: three secret groups with max_score 20, 30 and 50.
        let problem = package("pairsums");
        let groups = [
            ("secret/1-tiny", 20.0, 20.0),
            ("secret/2-medium", 12.5, 30.0),
            ("secret/3-large", 0.0, 50.0),
        ];
        assert_eq!(
            subtask_scores(&problem, &report(32.5, &groups)),
            vec![20.0, 12.5, 0.0]
        );
    }

    #[test]
    fn a_pass_fail_problem_is_one_part() {
        let problem = package("sum");
        assert_eq!(subtask_scores(&problem, &report(1.0, &[])), vec![1.0]);
    }
}
