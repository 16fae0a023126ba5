//! What a contest's host does besides judging, for the API and the web page alike:
//! rejudging (a submission, a problem's, a team's or a verdict's submissions: queued
//! again, the new judgement replacing the old one on the board and in the feed while the
//! old one stays for admins; each rejudging recorded with its audit line, so the jury's
//! page shows what it changed), clarifications (a team asks, the jury answers one team or everyone, as
//! CLICS `clarifications`), and awards (CLICS `awards`: the winner, the first to solve
//! each problem, and medals by the contest's counts, from the board the caller may see).

use chrono::Utc;
use http::StatusCode;
use leaderboard::clics::{Award, Clarification, RowScore, Scoreboard};
use serde::Deserialize;

use crate::clics;
use crate::contest::{Contest, reltime, time};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{ClarificationRow, NewEvent, RejudgeFilter, RejudgeRecord};
use crate::viewer::Viewer;

/// A rejudging request (`POST /api/contests/{cid}/rejudgings`): the done submissions
/// matching every field given (at least one).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RejudgeRequest {
    /// One submission.
    #[serde(default)]
    pub submission_id: Option<String>,
    /// A problem's submissions.
    #[serde(default)]
    pub problem_id: Option<String>,
    /// A team's submissions.
    #[serde(default)]
    pub team_id: Option<String>,
    /// The submissions whose counting judgement has this verdict (a CLICS judgement
    /// type id: `WA`, `TLE`, ...).
    #[serde(default)]
    pub judgement_type_id: Option<String>,
}

impl RejudgeRequest {
    /// What it asks for, in words (`problem sum, verdict WA`).
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            ("submission", &self.submission_id),
            ("problem", &self.problem_id),
            ("team", &self.team_id),
            ("verdict", &self.judgement_type_id),
        ]
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name} {v}")))
        .collect();
        parts.join(", ")
    }
}

/// A rejudging done: its id (`None` when nothing matched) and the submissions taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejudging {
    /// The rejudging's id, which its page and the audit log name.
    pub id: Option<i64>,
    /// The submissions queued again, in order.
    pub submission_ids: Vec<String>,
}

/// Queues again what `request` selects (admins only), recorded as a rejudging by
/// `actor` with its audit line; returns it. Each submission gets a `submissions` event
/// (so the board shows it pending at once) and the workers are woken.
pub async fn rejudge(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    actor: &str,
    request: RejudgeRequest,
) -> Result<Rejudging, ApiError> {
    if *who != Viewer::Admin {
        return Err(ApiError::forbidden("only an admin may rejudge"));
    }
    let what = request.describe();
    let RejudgeRequest {
        submission_id,
        problem_id,
        team_id,
        judgement_type_id,
    } = request;
    if what.is_empty() {
        return Err(ApiError::bad_request(
            "rejudging: give submission_id, problem_id, team_id or judgement_type_id",
        ));
    }
    if let Some(p) = problem_id.as_deref()
        && contest.problem(p).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "problem_id: no problem `{p}`"
        )));
    }
    if let Some(t) = team_id.as_deref()
        && !contest.teams().iter().any(|team| team.id == t)
    {
        return Err(ApiError::bad_request(format!("team_id: no team `{t}`")));
    }
    if let Some(v) = judgement_type_id.as_deref()
        && !clics::judgement_types().iter().any(|j| j.id == v)
    {
        return Err(ApiError::bad_request(format!(
            "judgement_type_id: no judgement type `{v}`"
        )));
    }
    let filter = RejudgeFilter {
        submission_id: submission_id.clone(),
        problem_id,
        team_id,
        verdict: judgement_type_id,
    };
    let record = RejudgeRecord {
        actor: actor.to_owned(),
        what,
        time_ms: Utc::now().timestamp_millis(),
    };
    let (id, rows) = state
        .store
        .rejudge(&contest.spec.id, &filter, &record, |row| NewEvent {
            kind: "submissions".into(),
            obj_id: Some(row.id.clone()),
            team_id: Some(row.team_id.clone()),
            data: Some(clics::to_value(&clics::submission(contest, row))),
        })
        .await?;
    if let Some(id) = submission_id
        && rows.is_empty()
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("submission `{id}` is not judged yet (or does not exist)"),
        ));
    }
    state.queue_changed.notify_waiters();
    Ok(Rejudging {
        id,
        submission_ids: rows.into_iter().map(|r| r.id).collect(),
    })
}

/// A clarification posted (`POST /api/contests/{cid}/clarifications`), CLICS fields.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostClarification {
    /// Ids are the server's; present only to be refused with a clear message.
    #[serde(default)]
    pub id: Option<String>,
    /// The asking team (a team may name only itself; the jury none).
    #[serde(default)]
    pub from_team_id: Option<String>,
    /// The team the jury writes to (`null`: everyone); teams write to the jury only.
    #[serde(default)]
    pub to_team_id: Option<String>,
    /// The clarification it answers.
    #[serde(default)]
    pub reply_to_id: Option<String>,
    /// Its problem (`null`: general).
    #[serde(default)]
    pub problem_id: Option<String>,
    /// The text.
    pub text: String,
    /// Ignored (the server's clock decides), as for submissions.
    #[serde(default)]
    pub time: Option<String>,
    /// Ignored, as `time`.
    #[serde(default)]
    pub contest_time: Option<String>,
}

/// The CLICS object of a stored clarification.
pub fn clarification(row: &ClarificationRow) -> Clarification {
    let at = chrono::DateTime::from_timestamp_millis(row.time_ms).unwrap_or_default();
    Clarification {
        id: row.id.clone(),
        from_team_id: row.from_team_id.clone(),
        to_team_id: row.to_team_id.clone(),
        reply_to_id: row.reply_to_id.clone(),
        problem_id: row.problem_id.clone(),
        text: row.text.clone(),
        time: time(at),
        contest_time: reltime(chrono::Duration::milliseconds(row.contest_time_ms)),
    }
}

/// Who may read a clarification's event: the asking team's question is its own; a
/// jury message to one team is that team's; a jury message to everyone is public.
fn audience(row: &ClarificationRow) -> Option<String> {
    row.from_team_id.clone().or_else(|| row.to_team_id.clone())
}

/// Stores a clarification from `who` (a team asks the jury; the jury answers one team or
/// everyone) with its event. Teams write between the start and the end.
pub async fn clarify(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    post: PostClarification,
) -> Result<Clarification, ApiError> {
    if post.id.is_some() {
        return Err(ApiError::bad_request(
            "id: the server assigns clarification ids",
        ));
    }
    let text = post.text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request("text: empty"));
    }
    if text.len() > 10_000 {
        return Err(ApiError::bad_request("text: longer than 10000 bytes"));
    }
    if let Some(p) = post.problem_id.as_deref()
        && contest.problem(p).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "problem_id: no problem `{p}`"
        )));
    }
    let now = Utc::now();
    let (from, to) = match who {
        Viewer::Public => {
            return Err(ApiError::unauthorized(
                "clarifications are asked by teams and answered by the jury",
            ));
        }
        Viewer::Team(team) => {
            if post.from_team_id.as_deref().is_some_and(|f| f != team) {
                return Err(ApiError::forbidden(format!(
                    "from_team_id: team `{team}` may ask only as itself"
                )));
            }
            if post.to_team_id.is_some() {
                return Err(ApiError::forbidden("to_team_id: teams write to the jury"));
            }
            if now < contest.start_time() || now >= contest.end_time() {
                return Err(ApiError::forbidden(
                    "clarifications are asked while the contest runs",
                ));
            }
            (Some(team.clone()), None)
        }
        Viewer::Admin => {
            if post.from_team_id.is_some() {
                return Err(ApiError::bad_request(
                    "from_team_id: the jury writes as itself",
                ));
            }
            if let Some(t) = post.to_team_id.as_deref()
                && !contest.teams().iter().any(|team| team.id == t)
            {
                return Err(ApiError::bad_request(format!("to_team_id: no team `{t}`")));
            }
            (None, post.to_team_id.clone())
        }
    };
    if let Some(reply) = post.reply_to_id.as_deref() {
        let visible = state.store.clarifications(&contest.spec.id, who).await?;
        if !visible.iter().any(|c| c.id == reply) {
            return Err(ApiError::bad_request(format!(
                "reply_to_id: no clarification `{reply}`"
            )));
        }
    }
    let row = ClarificationRow {
        seq: 0,
        id: String::new(),
        from_team_id: from,
        to_team_id: to,
        reply_to_id: post.reply_to_id,
        problem_id: post.problem_id,
        text: text.to_owned(),
        time_ms: now.timestamp_millis(),
        contest_time_ms: (now - contest.start_time()).num_milliseconds(),
    };
    let stored = state
        .store
        .insert_clarification(&contest.spec.id, row, |row| NewEvent {
            kind: "clarifications".into(),
            obj_id: Some(row.id.clone()),
            team_id: audience(row),
            data: Some(clics::to_value(&clarification(row))),
        })
        .await?;
    Ok(clarification(&stored))
}

/// Whether a row has any score (a team that solved nothing gets no award).
fn scored(score: &RowScore) -> bool {
    match score {
        RowScore::PassFail { num_solved, .. } => *num_solved > 0,
        RowScore::Score { score, .. } => *score > 0.0,
    }
}

/// The CLICS awards of `board` (the full board, in rank order): `winner` (every team at
/// rank 1), `gold-medal`, `silver-medal`, `bronze-medal` (by `medals`, counting places
/// from the top: the next medal starts after the teams already given one), and
/// `first-to-solve-<problem>` for each solved problem. Teams that scored nothing get
/// none. The medal counts are the contest's ([`Contest::medals`]).
pub fn awards(contest: &Contest, board: &Scoreboard) -> Vec<Award> {
    let medals = contest.medals();
    let rows: Vec<_> = board.rows.iter().filter(|r| scored(&r.score)).collect();
    let mut awards = Vec::new();
    let winners: Vec<String> = rows
        .iter()
        .filter(|r| r.rank == 1)
        .map(|r| r.team_id.clone())
        .collect();
    if !winners.is_empty() {
        awards.push(Award {
            id: "winner".into(),
            citation: "Contest winner".into(),
            team_ids: winners,
        });
    }
    let mut given = 0usize;
    for (id, citation, count) in [
        ("gold-medal", "Gold medal winner", medals.gold),
        ("silver-medal", "Silver medal winner", medals.silver),
        ("bronze-medal", "Bronze medal winner", medals.bronze),
    ] {
        let start = given;
        let mut end = (given + count as usize).min(rows.len());
        // A tie at the last place of a medal gets the medal too.
        while end > start && end < rows.len() && rows[end].rank == rows[end - 1].rank {
            end += 1;
        }
        given = end;
        let team_ids: Vec<String> = rows[start..end].iter().map(|r| r.team_id.clone()).collect();
        if !team_ids.is_empty() {
            awards.push(Award {
                id: id.into(),
                citation: citation.into(),
                team_ids,
            });
        }
    }
    for problem in &contest.problems {
        let team_ids: Vec<String> = rows
            .iter()
            .filter(|r| {
                r.problems
                    .iter()
                    .any(|p| p.problem_id == problem.id && p.first_to_solve == Some(true))
            })
            .map(|r| r.team_id.clone())
            .collect();
        if !team_ids.is_empty() {
            awards.push(Award {
                id: format!("first-to-solve-{}", problem.id),
                citation: format!("First to solve problem {}", problem.label),
                team_ids,
            });
        }
    }
    awards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::ContestSpec;

    /// A contest without problems whose file says `medals` (a YAML line, or nothing).
    fn contest(medals: &str) -> Contest {
        let yaml = format!(
            "id: c\nname: C\nstart_time: 2026-01-01T10:00:00Z\nduration: 300\n{medals}\nproblems: []\nteams: []\n"
        );
        let spec: ContestSpec = serde_yaml::from_str(&yaml).expect("contest spec");
        Contest {
            spec,
            problems: Vec::new(),
            jury: crate::contest::JuryCell::default(),
            file_problems: Vec::new(),
            jury_problems: Vec::new(),
        }
    }

    /// Teams `a`..`e` ranked 1, 2, 2, 4, 5; `e` solved nothing.
    fn board() -> Scoreboard {
        let row = |rank: u32, team: &str, solved: u32| {
            serde_json::json!({
                "rank": rank,
                "team_id": team,
                "score": {"num_solved": solved, "total_time": 100},
                "problems": [],
            })
        };
        serde_json::from_value(serde_json::json!({
            "event_id": "1",
            "time": "2026-01-01T15:00:00.000Z",
            "contest_time": "5:00:00.000",
            "state": {},
            "rows": [row(1, "a", 3), row(2, "b", 2), row(2, "c", 2), row(4, "d", 1), row(5, "e", 0)],
        }))
        .expect("scoreboard")
    }

    #[test]
    fn medals_follow_the_contests_counts_and_ties() {
        let table: [(&str, [&[&str]; 3]); 4] = [
            // Four of each by default: the tie at rank 2 is inside gold.
            ("", [&["a", "b", "c", "d"], &[], &[]]),
            (
                "medals: {gold: 1, silver: 1, bronze: 1}",
                [&["a"], &["b", "c"], &["d"]],
            ),
            // A tie at the last silver place takes both; `e` scored nothing.
            (
                "medals: {gold: 0, silver: 2, bronze: 9}",
                [&[], &["a", "b", "c"], &["d"]],
            ),
            ("medals: {gold: 0, silver: 0, bronze: 0}", [&[], &[], &[]]),
        ];
        for (medals, [gold, silver, bronze]) in table {
            let awards = awards(&contest(medals), &board());
            let of = |id: &str| -> Vec<String> {
                awards
                    .iter()
                    .find(|a| a.id == id)
                    .map(|a| a.team_ids.clone())
                    .unwrap_or_default()
            };
            assert_eq!(of("winner"), ["a"], "{medals}");
            assert_eq!(of("gold-medal"), gold, "{medals}: gold");
            assert_eq!(of("silver-medal"), silver, "{medals}: silver");
            assert_eq!(of("bronze-medal"), bronze, "{medals}: bronze");
        }
    }
}
