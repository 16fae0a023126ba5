//! The team's own record, as the server has it: each problem's solve, rejections and
//! pending submissions from the team's submissions and the judgements that count
//! ([`leaderboard::clics::counting_judgements`]), the play's one source of truth.

use std::time::Instant;

use leaderboard::clics::{JudgementType, Submission};
use problems::Verdict;

use super::strategy::ProblemState;
use super::{PlayConfig, Schedule, unix_ms};
use crate::client::contest::{ContestClient, ContestError};

/// A CLICS judgement type id as a verdict: the contest's own types say which solve;
/// the spec's codes map to ours, other rejections count as wrong answers.
pub fn verdict_of(type_id: &str, types: &[JudgementType]) -> Verdict {
    if let Some(known) = Verdict::from_short(type_id) {
        return known;
    }
    if types.iter().any(|t| t.id == type_id && t.solved) {
        return Verdict::AC;
    }
    match type_id {
        "RE" | "RTE" => Verdict::RTE,
        "CTL" => Verdict::CE,
        "TLE" | "TL" => Verdict::TLE,
        "MLE" | "ML" => Verdict::MLE,
        "OLE" | "OL" => Verdict::OLE,
        _ => Verdict::WA,
    }
}

/// The team's own record per problem from its submissions and their judgements.
pub fn record_of(
    problems: &mut [ProblemState],
    submissions: &[Submission],
    judgements: &[leaderboard::clics::Judgement],
    types: &[JudgementType],
) {
    for problem in problems.iter_mut() {
        problem.solved = false;
        problem.rejected = 0;
        problem.free_rejections = 0;
        problem.pending = 0;
    }
    let counting = leaderboard::clics::counting_judgements(judgements);
    let mut ordered: Vec<&Submission> = submissions.iter().collect();
    ordered.sort_by_key(|s| (s.contest_time, s.id.clone()));
    for submission in ordered {
        let Some(problem) = problems.iter_mut().find(|p| p.id == submission.problem_id) else {
            continue;
        };
        let judged = counting
            .get(submission.id.as_str())
            .and_then(|j| j.judgement_type_id.as_deref());
        match judged {
            None => problem.pending += 1,
            Some(_) if problem.solved => {}
            Some(id) => {
                let solved = types
                    .iter()
                    .find(|t| t.id == id)
                    .map_or(id == "AC", |t| t.solved);
                let penalised = types
                    .iter()
                    .find(|t| t.id == id)
                    .map_or(!solved && !matches!(id, "CE" | "JE"), |t| t.is_penalised());
                if solved {
                    problem.solved = true;
                } else if penalised {
                    problem.rejected += 1;
                } else {
                    problem.free_rejections += 1;
                }
            }
        }
    }
}

/// Reads the team's record from the server into `states` (and learns the team's id).
pub(super) async fn refresh(
    client: &ContestClient,
    states: &mut [ProblemState],
    types: &[JudgementType],
    team_id: &mut Option<String>,
) -> Result<(), ContestError> {
    let submissions = client.submissions().await?;
    let judgements = client.judgements().await?;
    if team_id.is_none() {
        *team_id = submissions.first().map(|s| s.team_id.clone());
    }
    record_of(states, &submissions, &judgements, types);
    Ok(())
}

/// Waits (polling) until no submission is pending, the patience is spent or the contest
/// has ended.
pub(super) async fn wait_pending(
    client: &ContestClient,
    config: &PlayConfig,
    states: &mut [ProblemState],
    types: &[JudgementType],
    team_id: &mut Option<String>,
    schedule: &Schedule,
) -> Result<(), ContestError> {
    let deadline = Instant::now() + config.judgement_patience;
    loop {
        refresh(client, states, types, team_id).await?;
        if states.iter().all(|s| s.pending == 0)
            || Instant::now() >= deadline
            || unix_ms() >= schedule.end_ms
        {
            return Ok(());
        }
        tokio::time::sleep(config.poll).await;
    }
}
