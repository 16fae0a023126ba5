//! The contest scoreboard, computed from the stored submissions and judgements with the
//! `leaderboard` crate's rules, as the CLICS `scoreboard` object.
//!
//! ICPC: a problem is solved at its first accepted submission's minute; each judged
//! rejected submission before it adds the contest's penalty minutes; compile errors and
//! judge errors count neither as a try nor as judged. IOI: the best score of each subtask
//! (top-level secret group) over a team's submissions, summed.
//! Freeze: for teams and the public, a submission made at or after the freeze (and
//! before the thaw) counts as pending, whatever its judgement.

use std::collections::HashMap;

use leaderboard::standings::{ProblemResult, Rule, Score, ioi_task_score, places};
use serde_json::{Value, json};

use problems::Verdict;

use crate::contest::{Contest, Scoring};
use crate::store::{JudgementRow, QueueState, SubmissionRow};

/// One team's result on one problem.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    /// Judged submissions that count (CE and JE excluded), up to and including the accept.
    pub num_judged: u32,
    /// Submissions not yet judged (or hidden by the freeze).
    pub num_pending: u32,
    /// Solved (ICPC) or full score (IOI).
    pub solved: bool,
    /// Minute of the accept (ICPC), or of the best score (IOI).
    pub minute: Option<u32>,
    /// Best total (IOI).
    pub score: f64,
    /// First team to solve it.
    pub first_to_solve: bool,
}

/// One row of the scoreboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based rank (tied teams share the best place).
    pub rank: usize,
    /// The team.
    pub team_id: String,
    /// Solved count (ICPC) or points (IOI).
    pub points: f64,
    /// Penalty minutes (ICPC).
    pub penalty: f64,
    /// Per problem, in contest order.
    pub cells: Vec<Cell>,
}

/// Computes the scoreboard; `hide_from_ms` is the contest time from which judgements are
/// hidden (the freeze, for teams and the public), `None` for the full board.
pub fn compute(
    contest: &Contest,
    submissions: &[SubmissionRow],
    judgements: &[JudgementRow],
    hide_from_ms: Option<i64>,
) -> Vec<Row> {
    // The final judgement of each done submission: the newest one.
    let mut last: HashMap<&str, &JudgementRow> = HashMap::new();
    for j in judgements {
        last.insert(j.submission_id.as_str(), j);
    }
    let mut subs: Vec<&SubmissionRow> = submissions.iter().collect();
    subs.sort_by_key(|s| (s.contest_time_ms, s.seq));
    let problem_index: HashMap<&str, usize> = contest
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let teams = &contest.spec.teams;
    let team_index: HashMap<&str, usize> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut cells = vec![vec![Cell::default(); contest.problems.len()]; teams.len()];
    // IOI: each team's subtask scores per problem, one vector per judged submission.
    let mut subtasks: Vec<Vec<Vec<Vec<f64>>>> =
        vec![vec![Vec::new(); contest.problems.len()]; teams.len()];
    let mut first_solve: Vec<Option<(i64, usize)>> = vec![None; contest.problems.len()];

    for s in subs {
        let (Some(&t), Some(&p)) = (
            team_index.get(s.team_id.as_str()),
            problem_index.get(s.problem_id.as_str()),
        ) else {
            continue;
        };
        let cell = &mut cells[t][p];
        let hidden = hide_from_ms.is_some_and(|from| s.contest_time_ms >= from);
        let judgement = if s.state == QueueState::Done {
            last.get(s.id.as_str())
        } else {
            None
        };
        let Some(j) = judgement.filter(|_| !hidden) else {
            if !cell.solved {
                cell.num_pending += 1;
            }
            continue;
        };
        if matches!(j.verdict, Verdict::CE | Verdict::JE) {
            continue;
        }
        let minute = u32::try_from(s.contest_time_ms.max(0) / 60_000).unwrap_or(u32::MAX);
        match contest.spec.scoring {
            Scoring::Icpc => {
                if cell.solved {
                    continue;
                }
                cell.num_judged += 1;
                if j.verdict.is_accepted() {
                    cell.solved = true;
                    cell.minute = Some(minute);
                    if first_solve[p].is_none_or(|(time, _)| s.contest_time_ms < time) {
                        first_solve[p] = Some((s.contest_time_ms, t));
                    }
                }
            }
            Scoring::Ioi => {
                cell.num_judged += 1;
                let parts: Vec<f64> =
                    serde_json::from_str(&j.subtask_scores).unwrap_or_else(|_| vec![j.score]);
                subtasks[t][p].push(parts);
                let best = ioi_task_score(&subtasks[t][p]);
                if best > cell.score {
                    cell.score = best;
                    cell.minute = Some(minute);
                }
                let max = contest.problems[p].max_score;
                if !cell.solved && best >= max - 1e-9 {
                    cell.solved = true;
                    if first_solve[p].is_none_or(|(time, _)| s.contest_time_ms < time) {
                        first_solve[p] = Some((s.contest_time_ms, t));
                    }
                }
            }
        }
    }
    for (p, first) in first_solve.iter().enumerate() {
        if let Some((_, t)) = first {
            cells[*t][p].first_to_solve = true;
        }
    }
    let rule = match contest.spec.scoring {
        Scoring::Icpc => Rule::Icpc {
            penalty_minutes: contest.spec.penalty_minutes,
        },
        Scoring::Ioi => Rule::Ioi,
    };
    let scores: Vec<Score> = cells
        .iter()
        .map(|row| {
            let results: Vec<ProblemResult> = row
                .iter()
                .map(|c| ProblemResult {
                    solved: c.solved,
                    rejected: c.num_judged.saturating_sub(u32::from(c.solved)),
                    accept_minute: if c.solved { c.minute } else { None },
                    points: Some(c.score),
                })
                .collect();
            rule.score(&results, &[])
        })
        .collect();
    let ranks = places(&rule, &scores);
    let mut rows: Vec<Row> = teams
        .iter()
        .enumerate()
        .map(|(i, team)| Row {
            rank: ranks[i].lo,
            team_id: team.id.clone(),
            points: scores[i].points,
            penalty: scores[i].penalty,
            cells: std::mem::take(&mut cells[i]),
        })
        .collect();
    // CLICS: by rank, then by team name within a rank.
    let name: HashMap<&str, &str> = teams
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str()))
        .collect();
    rows.sort_by(|a, b| {
        a.rank
            .cmp(&b.rank)
            .then_with(|| name[a.team_id.as_str()].cmp(name[b.team_id.as_str()]))
            .then_with(|| a.team_id.cmp(&b.team_id))
    });
    rows
}

/// The rows as the CLICS `rows` array.
pub fn to_clics(contest: &Contest, rows: &[Row]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            let score = match contest.spec.scoring {
                Scoring::Icpc => json!({
                    "num_solved": row.points as u64,
                    "total_time": row.penalty as u64,
                }),
                Scoring::Ioi => json!({
                    "num_solved": row.cells.iter().filter(|c| c.solved).count(),
                    "score": row.points,
                }),
            };
            let problems: Vec<Value> = row
                .cells
                .iter()
                .zip(&contest.problems)
                .map(|(c, p)| {
                    let mut cell = json!({
                        "problem_id": p.id,
                        "num_judged": c.num_judged,
                        "num_pending": c.num_pending,
                        "solved": c.solved,
                    });
                    if let Some(minute) = c.minute {
                        cell["time"] = json!(minute);
                    }
                    if contest.spec.scoring == Scoring::Ioi {
                        cell["score"] = json!(c.score);
                    }
                    if c.first_to_solve {
                        cell["first_to_solve"] = json!(true);
                    }
                    cell
                })
                .collect();
            json!({"rank": row.rank, "team_id": row.team_id, "score": score, "problems": problems})
        })
        .collect();
    Value::Array(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{ContestSpec, ProblemSpec, TeamSpec};

    fn contest(scoring: Scoring, package: &str) -> std::sync::Arc<Contest> {
        let packages =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
        let spec = ContestSpec {
            id: "c".into(),
            name: "C".into(),
            start_time: chrono::Utc::now(),
            duration: chrono::Duration::hours(5),
            scoreboard_freeze_duration: chrono::Duration::hours(1),
            scoring,
            penalty_minutes: 20,
            submissions_per_minute: 10,
            languages: None,
            problems: vec![ProblemSpec {
                id: Some("p".into()),
                label: None,
                package: packages.join(package),
                rgb: None,
            }],
            teams: ["a", "b", "c"]
                .iter()
                .map(|t| TeamSpec {
                    id: (*t).into(),
                    name: t.to_uppercase(),
                    token: format!("token-{t}-long"),
                })
                .collect(),
        };
        Contest::load(spec, std::path::Path::new("/"), "test").expect("contest loads")
    }

    fn sub(seq: i64, team: &str, minute: i64) -> SubmissionRow {
        SubmissionRow {
            seq,
            id: seq.to_string(),
            contest_id: "c".into(),
            team_id: team.into(),
            problem_id: "p".into(),
            language_id: "c".into(),
            source: String::new(),
            time_ms: 0,
            contest_time_ms: minute * 60_000,
            state: QueueState::Done,
            attempts: 1,
        }
    }

    fn judged(seq: i64, verdict: Verdict, score: f64, parts: &str) -> JudgementRow {
        JudgementRow {
            seq,
            id: seq.to_string(),
            submission_id: seq.to_string(),
            verdict,
            score,
            subtask_scores: parts.into(),
            start_ms: 0,
            end_ms: 0,
            max_run_time: 0.0,
        }
    }

    #[test]
    fn ioi_takes_the_best_of_each_subtask_over_submissions() {
        let c = contest(Scoring::Ioi, "pair-sums");
        assert_eq!(c.problems[0].max_score, 100.0);
        let subs = [
            sub(1, "a", 10),
            sub(2, "a", 20),
            sub(3, "b", 30),
            sub(4, "c", 290),
        ];
        let js = [
            judged(1, Verdict::WA, 20.0, "[20,0,0]"),
            judged(2, Verdict::WA, 30.0, "[0,30,0]"),
            judged(3, Verdict::WA, 20.0, "[20,0,0]"),
            judged(4, Verdict::AC, 100.0, "[20,30,50]"),
        ];
        let rows = compute(&c, &subs, &js, None);
        let got: Vec<(usize, &str, f64)> = rows
            .iter()
            .map(|r| (r.rank, r.team_id.as_str(), r.points))
            .collect();
        assert_eq!(got, vec![(1, "c", 100.0), (2, "a", 50.0), (3, "b", 20.0)]);
        assert!(rows[0].cells[0].solved && rows[0].cells[0].first_to_solve);
        // Frozen from minute 240: c's full score is hidden and pending.
        let frozen = compute(&c, &subs, &js, Some(240 * 60_000));
        let got: Vec<(usize, &str, f64, u32)> = frozen
            .iter()
            .map(|r| (r.rank, r.team_id.as_str(), r.points, r.cells[0].num_pending))
            .collect();
        assert_eq!(
            got,
            vec![(1, "a", 50.0, 0), (2, "b", 20.0, 0), (3, "c", 0.0, 1)]
        );
    }

    #[test]
    fn icpc_ignores_compile_and_judge_errors_and_everything_after_the_accept() {
        let c = contest(Scoring::Icpc, "sum");
        let subs = [
            sub(1, "a", 5),
            sub(2, "a", 7),
            sub(3, "a", 9),
            sub(4, "a", 30),
            sub(5, "a", 40),
            sub(6, "b", 50),
        ];
        let js = [
            judged(1, Verdict::CE, 0.0, "[0]"),
            judged(2, Verdict::JE, 0.0, "[0]"),
            judged(3, Verdict::WA, 0.0, "[0]"),
            judged(4, Verdict::AC, 1.0, "[1]"),
            judged(5, Verdict::WA, 0.0, "[0]"),
            judged(6, Verdict::TLE, 0.0, "[0]"),
        ];
        let rows = compute(&c, &subs, &js, None);
        assert_eq!(
            (rows[0].team_id.as_str(), rows[0].points, rows[0].penalty),
            ("a", 1.0, 50.0)
        );
        assert_eq!(
            (rows[0].cells[0].num_judged, rows[0].cells[0].minute),
            (2, Some(30))
        );
        assert_eq!(
            (rows[1].team_id.as_str(), rows[1].cells[0].num_judged),
            ("b", 1)
        );
        // Team c made no submission and ranks with b (0 solved, 0 penalty).
        assert_eq!((rows[1].rank, rows[2].rank), (2, 2));
    }
}
