//! The contest scoreboard's rows, computed from the stored submissions and judgements,
//! as CLICS `scoreboard` rows (`leaderboard::clics::ScoreboardRow`).
//!
//! ICPC: the one fold, `leaderboard::clics::icpc`, over the typed objects the API serves
//! (its rules: a problem is solved at its first accepted submission's minute; each
//! judged penalised rejection before it adds the contest's penalty minutes; compile
//! errors and judge errors count neither as a try nor as judged; first to solve: every
//! team at the earliest accept, to the millisecond). A submission still queued or being
//! judged is pending, whatever judgement an earlier take of it left.
//! IOI: the best score of each subtask (top-level secret group) over a team's
//! submissions, summed, with `leaderboard::standings`.
//! Freeze: for teams and the public, a submission made at or after the freeze (and
//! before the thaw) counts as pending, whatever its judgement.

use std::collections::{HashMap, HashSet};

use leaderboard::clics::{
    self as api, BoardRow, IcpcInput, RelTime, RowScore, ScoreboardProblem, ScoreboardRow,
};
use leaderboard::standings::{ProblemResult, Rule, Score, ioi_task_score, places};

use problems::Verdict;

use crate::clics;
use crate::contest::{Contest, Scoring, reltime};
use crate::store::{JudgementRow, QueueState, SubmissionRow};

/// The scoreboard's rows, by rank then team name; `hide_from_ms` is the contest time
/// from which judgements are hidden (the freeze, for teams and the public), `None` for
/// the full board.
pub fn rows(
    contest: &Contest,
    submissions: &[SubmissionRow],
    judgements: &[JudgementRow],
    hide_from_ms: Option<i64>,
) -> Vec<ScoreboardRow> {
    match contest.spec.scoring {
        Scoring::Icpc => icpc(contest, submissions, judgements, hide_from_ms),
        Scoring::Ioi => ioi(contest, submissions, judgements, hide_from_ms)
            .iter()
            .map(|row| row.to_clics(contest))
            .collect(),
    }
}

/// The ICPC rows: the store's rows as the typed objects, folded by
/// `leaderboard::clics::icpc`.
fn icpc(
    contest: &Contest,
    submissions: &[SubmissionRow],
    judgements: &[JudgementRow],
    hide_from_ms: Option<i64>,
) -> Vec<ScoreboardRow> {
    let problems = clics::problems(contest, false);
    let teams: Vec<api::Team> = clics::teams(contest);
    let judgement_types = clics::judgement_types();
    let known_problem: HashSet<&str> = problems.iter().map(|p| p.id.as_str()).collect();
    let known_team: HashSet<&str> = teams.iter().map(|t| t.id.as_str()).collect();
    let counted: Vec<&SubmissionRow> = submissions
        .iter()
        .filter(|s| {
            known_team.contains(s.team_id.as_str()) && known_problem.contains(s.problem_id.as_str())
        })
        .collect();
    // Only a done submission's judgements count: one queued again is pending.
    let done: HashSet<&str> = counted
        .iter()
        .filter(|s| s.state == QueueState::Done)
        .map(|s| s.id.as_str())
        .collect();
    let submissions: Vec<api::Submission> = counted
        .iter()
        .map(|s| clics::scored_submission(contest, s))
        .collect();
    let judgements: Vec<api::Judgement> = judgements
        .iter()
        .filter(|j| done.contains(j.submission_id.as_str()))
        .map(|j| clics::judgement(contest, j))
        .collect();
    let board = api::icpc(&IcpcInput {
        penalty_minutes: contest.spec.penalty_minutes,
        problems: &problems,
        teams: &teams,
        judgement_types: &judgement_types,
        submissions: &submissions,
        judgements: &judgements,
        freeze_start: hide_from_ms.map(RelTime::from_millis),
        end: Some(reltime(contest.end_time() - contest.start_time())),
    })
    .expect("invariant: submissions of the contest's teams and problems, every verdict typed");
    board.rows.iter().map(BoardRow::to_clics).collect()
}

/// One team's result on one problem (IOI).
#[derive(Debug, Clone, Default, PartialEq)]
struct Cell {
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

/// One row of the IOI board.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    /// 1-based rank (tied teams share the best place).
    pub rank: usize,
    /// The team.
    pub team_id: String,
    /// Solved count (ICPC) or points (IOI).
    pub points: f64,
    /// Per problem, in contest order.
    pub cells: Vec<Cell>,
}

/// The IOI board; `hide_from_ms` as for [`rows`].
fn ioi(
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
    // Disabled teams leave the board (their CLICS team is hidden).
    let served = contest.teams();
    let teams: Vec<&crate::contest::TeamSpec> = served.iter().filter(|t| !t.disabled).collect();
    let team_index: HashMap<&str, usize> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut cells = vec![vec![Cell::default(); contest.problems.len()]; teams.len()];
    // Each team's subtask scores per problem, one vector per judged submission.
    let mut subtasks: Vec<Vec<Vec<Vec<f64>>>> =
        vec![vec![Vec::new(); contest.problems.len()]; teams.len()];
    let mut first_solve: Vec<Option<(i64, Vec<usize>)>> = vec![None; contest.problems.len()];

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
            match &mut first_solve[p] {
                Some((time, teams)) if *time == s.contest_time_ms => teams.push(t),
                Some((time, _)) if *time < s.contest_time_ms => {}
                first => *first = Some((s.contest_time_ms, vec![t])),
            }
        }
    }
    // First to solve, as leaderboard::clics's fold has it: every team at the earliest
    // full score, to the millisecond.
    for (p, first) in first_solve.iter().enumerate() {
        for &t in first.iter().flat_map(|(_, teams)| teams) {
            cells[t][p].first_to_solve = true;
        }
    }
    let rule = Rule::Ioi;
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

impl Row {
    /// The row as a CLICS scoreboard row of a scored contest.
    fn to_clics(&self, contest: &Contest) -> ScoreboardRow {
        ScoreboardRow {
            rank: u32::try_from(self.rank).unwrap_or(u32::MAX),
            team_id: self.team_id.clone(),
            score: RowScore::Score {
                score: self.points,
                time: None,
            },
            problems: self
                .cells
                .iter()
                .zip(&contest.problems)
                .map(|(c, p)| ScoreboardProblem {
                    problem_id: p.id.clone(),
                    num_judged: c.num_judged,
                    num_pending: c.num_pending,
                    solved: Some(c.solved),
                    score: Some(c.score),
                    time: c.minute,
                    first_to_solve: c.first_to_solve.then_some(true),
                })
                .collect(),
        }
    }
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
            thaw: crate::control::Thaw::End,
            scoring,
            penalty_minutes: 20,
            submissions_per_minute: 10,
            languages: None,
            cpus: 1,
            medals: None,
            problems: vec![ProblemSpec {
                id: Some("p".into()),
                label: None,
                package: packages.join(package),
                rgb: None,
                derived_time_limit: None,
            }],
            teams: ["a", "b", "c"]
                .iter()
                .map(|t| TeamSpec {
                    id: (*t).into(),
                    name: t.to_uppercase(),
                    token: format!("token-{t}-long"),
                    disabled: false,
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
        let c = contest(Scoring::Ioi, "pairsums");
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
        let rows = ioi(&c, &subs, &js, None);
        let got: Vec<(usize, &str, f64)> = rows
            .iter()
            .map(|r| (r.rank, r.team_id.as_str(), r.points))
            .collect();
        assert_eq!(got, vec![(1, "c", 100.0), (2, "a", 50.0), (3, "b", 20.0)]);
        assert!(rows[0].cells[0].solved && rows[0].cells[0].first_to_solve);
        // Frozen from minute 240: c's full score is hidden and pending.
        let frozen = ioi(&c, &subs, &js, Some(240 * 60_000));
        let got: Vec<(usize, &str, f64, u32)> = frozen
            .iter()
            .map(|r| (r.rank, r.team_id.as_str(), r.points, r.cells[0].num_pending))
            .collect();
        assert_eq!(
            got,
            vec![(1, "a", 50.0, 0), (2, "b", 20.0, 0), (3, "c", 0.0, 1)]
        );
    }

    /// A row's team, solved count, penalty, and its first cell's judged count, minute,
    /// pending count and first-to-solve mark.
    fn icpc_row(r: &ScoreboardRow) -> (&str, u32, u32, u32, Option<u32>, u32, Option<bool>) {
        let RowScore::PassFail {
            num_solved,
            total_time,
            ..
        } = r.score
        else {
            panic!("a pass-fail row: {r:?}")
        };
        let p = &r.problems[0];
        (
            r.team_id.as_str(),
            num_solved,
            total_time,
            p.num_judged,
            p.time,
            p.num_pending,
            p.first_to_solve,
        )
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
        let rows = rows(&c, &subs, &js, None);
        assert_eq!(icpc_row(&rows[0]), ("a", 1, 50, 2, Some(30), 0, Some(true)));
        assert_eq!(icpc_row(&rows[1]), ("b", 0, 0, 1, None, 0, None));
        // Team c made no submission and ranks with b (0 solved, 0 penalty).
        assert_eq!((rows[1].rank, rows[2].rank), (2, 2));
    }

    #[test]
    fn icpc_pending_while_queued_or_frozen_and_first_to_solve_shared_to_the_millisecond() {
        let c = contest(Scoring::Icpc, "sum");
        let mut subs = [sub(1, "a", 10), sub(2, "b", 10), sub(3, "c", 250)];
        let js = [
            judged(1, Verdict::AC, 1.0, "[1]"),
            judged(2, Verdict::AC, 1.0, "[1]"),
            judged(3, Verdict::AC, 1.0, "[1]"),
        ];
        let board = rows(&c, &subs, &js, None);
        let got: Vec<_> = board.iter().map(icpc_row).collect();
        assert_eq!(
            got,
            vec![
                ("a", 1, 10, 1, Some(10), 0, Some(true)),
                ("b", 1, 10, 1, Some(10), 0, Some(true)),
                ("c", 1, 250, 1, Some(250), 0, Some(false)),
            ]
        );
        // Frozen from minute 240: c's accept is pending.
        let frozen = rows(&c, &subs, &js, Some(240 * 60_000));
        assert_eq!(icpc_row(&frozen[2]), ("c", 0, 0, 0, None, 1, None));
        // b's submission taken again (its JE left a judgement): pending, not judged.
        subs[1].state = QueueState::Queued;
        let requeued = rows(&c, &subs, &js, None);
        let b = requeued.iter().find(|r| r.team_id == "b").expect("b's row");
        assert_eq!(icpc_row(b), ("b", 0, 0, 0, None, 1, None));
    }
}
