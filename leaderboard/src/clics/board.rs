//! The ICPC fold: typed CLICS objects to the board (2023-06 "Scoreboard", with the
//! scoring rules of the CCS requirements), used by the feed reader and the contest
//! server alike.
//!
//! Rules:
//! - a submission's minute is its contest time rounded down to whole minutes (a
//!   negative one counts as minute 0);
//! - a submission's verdict is the newest judgement of it that has a judgement type
//!   (judgements later in the slice are newer: a rejudgement replaces the verdict once
//!   it has one); a submission with none is pending;
//! - a problem is solved at its first accepted submission, in contest-time order (ties
//!   by the slice's order); later submissions of it do not count;
//! - each earlier judged submission whose type is penalised
//!   ([`JudgementType::is_penalised`]: its `penalty`, else everything but accepted,
//!   compile errors and judge errors) costs `penalty_minutes`; unpenalised rejections
//!   (compile and judge errors) neither cost nor count in `num_judged`;
//! - from `freeze_start` on, submissions count as pending, whatever their judgement;
//! - submissions after `end` do not count; teams with `hidden: true` are left out;
//! - rows rank by solved count, then penalty minutes, then the minute of the last
//!   accept (earlier first); teams equal on all three share a rank. Rows of a rank are
//!   ordered by the team's shown name, then its id.
//!
//! First to solve a problem: the team(s) whose accepted submission has the earliest
//! contest time, compared in whole milliseconds; several teams equal to the millisecond
//! all get it. Only what the board shows counts: pending submissions (the freeze) do
//! not.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::objects::{
    Judgement, JudgementType, Problem, RowScore, Scoreboard, ScoreboardProblem, ScoreboardRow,
    State, Submission, Team,
};
use super::time::{RelTime, Time};
use crate::standings::{Place, ProblemResult, Rule, Score, places};
use crate::{Error, Result};

/// What the ICPC fold reads: the contest's objects as the API has them.
#[derive(Debug, Clone, Copy)]
pub struct IcpcInput<'a> {
    /// Minutes per penalised rejection (the contest's `penalty_time`).
    pub penalty_minutes: u32,
    /// The problems, in board order.
    pub problems: &'a [Problem],
    /// The teams; one row each, but for hidden ones.
    pub teams: &'a [Team],
    /// The judgement types the judgements name.
    pub judgement_types: &'a [JudgementType],
    /// The submissions, in any order.
    pub submissions: &'a [Submission],
    /// The judgements, older first.
    pub judgements: &'a [Judgement],
    /// Contest time from which submissions are pending (the freeze), for a frozen board.
    pub freeze_start: Option<RelTime>,
    /// Contest time after which submissions do not count (the contest's end).
    pub end: Option<RelTime>,
}

/// A team's result on one problem.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Cell {
    /// The problem.
    pub problem_id: String,
    /// Solved.
    pub solved: bool,
    /// Penalised rejections before the accept (or in all, when unsolved).
    pub rejected: u32,
    /// Minute of the accept.
    pub accept_minute: Option<u32>,
    /// Contest time of the accept, in milliseconds.
    pub accept_millis: Option<i64>,
    /// Judged submissions that count: the penalised rejections and the accept.
    pub num_judged: u32,
    /// Submissions not judged yet or hidden by the freeze (before an accept).
    pub num_pending: u32,
    /// This team solved it first.
    pub first_to_solve: bool,
}

/// One row of the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardRow {
    /// The team's id.
    pub team_id: String,
    /// The team's shown name.
    pub team: String,
    /// Its place; `lo` is the rank, tied teams share it.
    pub place: Place,
    /// Solved count, penalty minutes and last accept minute.
    pub score: Score,
    /// One cell a problem, in problem order.
    pub problems: Vec<Cell>,
}

/// The board: rows best first, and first to solve each problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// The rows.
    pub rows: Vec<BoardRow>,
    /// By problem id, the teams that solved it first (in id order); problems nobody
    /// solved are absent.
    pub first_to_solve: BTreeMap<String, Vec<String>>,
}

/// Folds the objects into the ICPC board (the rules are in the module's doc).
///
/// Errors: a submission naming a team or problem not in the input, or its judgement
/// naming a judgement type not in the input ([`Error::UnknownReference`]).
pub fn icpc(input: &IcpcInput<'_>) -> Result<Board> {
    let verdicts = counting_judgements(input.judgements);
    let types: HashMap<&str, &JudgementType> = input
        .judgement_types
        .iter()
        .map(|t| (t.id.as_str(), t))
        .collect();
    let problem_idx: HashMap<&str, usize> = input
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let team_idx: HashMap<&str, usize> = input
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let empty_row: Vec<Cell> = input
        .problems
        .iter()
        .map(|p| Cell {
            problem_id: p.id.clone(),
            ..Cell::default()
        })
        .collect();
    let mut cells = vec![empty_row; input.teams.len()];
    let mut subs: Vec<(usize, &Submission)> = input.submissions.iter().enumerate().collect();
    subs.sort_by_key(|(idx, s)| (s.contest_time, *idx));
    for (_, sub) in subs {
        let unknown = |kind, id: &str, field, value: &str| Error::UnknownReference {
            kind,
            id: id.to_owned(),
            field,
            value: value.to_owned(),
        };
        let &team = team_idx
            .get(sub.team_id.as_str())
            .ok_or_else(|| unknown("submission", &sub.id, "team_id", &sub.team_id))?;
        let &problem = problem_idx
            .get(sub.problem_id.as_str())
            .ok_or_else(|| unknown("submission", &sub.id, "problem_id", &sub.problem_id))?;
        if input.teams[team].hidden == Some(true)
            || input.end.is_some_and(|end| sub.contest_time > end)
        {
            continue;
        }
        let cell = &mut cells[team][problem];
        if cell.solved {
            continue;
        }
        let frozen = input
            .freeze_start
            .is_some_and(|from| sub.contest_time >= from);
        let judgement = verdicts.get(sub.id.as_str()).filter(|_| !frozen);
        let Some(judgement) = judgement else {
            cell.num_pending += 1;
            continue;
        };
        let type_id = judgement.judgement_type_id.as_deref().unwrap_or_default();
        let kind = types
            .get(type_id)
            .ok_or_else(|| unknown("judgement", &judgement.id, "judgement_type_id", type_id))?;
        if kind.solved {
            cell.solved = true;
            cell.num_judged += 1;
            cell.accept_minute =
                Some(u32::try_from(sub.contest_time.floor_minutes().max(0)).unwrap_or(u32::MAX));
            cell.accept_millis = Some(sub.contest_time.millis());
        } else if kind.is_penalised() {
            cell.rejected += 1;
            cell.num_judged += 1;
        }
    }
    let first_to_solve = first_to_solve(input, &mut cells);
    let rule = Rule::Icpc {
        penalty_minutes: input.penalty_minutes,
    };
    let shown: Vec<(usize, Vec<Cell>)> = cells
        .into_iter()
        .enumerate()
        .filter(|(idx, _)| input.teams[*idx].hidden != Some(true))
        .collect();
    let scores: Vec<Score> = shown
        .iter()
        .map(|(_, row)| rule.score(&results(row), &[]))
        .collect();
    let places = places(&rule, &scores);
    let mut rows: Vec<BoardRow> = shown
        .into_iter()
        .zip(scores)
        .zip(places)
        .map(|(((idx, problems), score), place)| BoardRow {
            team_id: input.teams[idx].id.clone(),
            team: input.teams[idx].shown_name().to_owned(),
            place,
            score,
            problems,
        })
        .collect();
    rows.sort_by(|a, b| (a.place.lo, &a.team, &a.team_id).cmp(&(b.place.lo, &b.team, &b.team_id)));
    Ok(Board {
        rows,
        first_to_solve,
    })
}

/// The judgement that counts for each submission, by submission id: the newest one
/// that has a judgement type, where `judgements` lists older before newer (the order
/// the CLICS event feed writes them, and the order `judge serve` lists them in).
/// A submission without one is pending and has no entry.
///
/// This is the one rule for "which judgement of a submission counts": the board below,
/// the contest server and the agent's play all use it, so a rejudgement replaces a
/// verdict in the same way everywhere.
pub fn counting_judgements(judgements: &[Judgement]) -> HashMap<&str, &Judgement> {
    let mut res = HashMap::new();
    for judgement in judgements {
        if judgement.judgement_type_id.is_some() {
            res.insert(judgement.submission_id.as_str(), judgement);
        }
    }
    res
}

/// Marks and returns the first solvers of each problem.
fn first_to_solve(input: &IcpcInput<'_>, cells: &mut [Vec<Cell>]) -> BTreeMap<String, Vec<String>> {
    let mut res = BTreeMap::new();
    for (problem_idx, problem) in input.problems.iter().enumerate() {
        let solved = |team: usize| -> Option<i64> {
            (input.teams[team].hidden != Some(true))
                .then_some(cells[team][problem_idx].accept_millis)
                .flatten()
        };
        let Some(earliest) = (0..cells.len()).filter_map(solved).min() else {
            continue;
        };
        let mut teams: Vec<usize> = (0..cells.len())
            .filter(|&team| solved(team) == Some(earliest))
            .collect();
        teams.sort_by_key(|&team| &input.teams[team].id);
        for &team in &teams {
            cells[team][problem_idx].first_to_solve = true;
        }
        res.insert(
            problem.id.clone(),
            teams.iter().map(|&t| input.teams[t].id.clone()).collect(),
        );
    }
    res
}

/// The cells as the standings' results, for [`Rule::score`].
fn results(row: &[Cell]) -> Vec<ProblemResult> {
    row.iter()
        .map(|cell| ProblemResult {
            solved: cell.solved,
            rejected: cell.rejected,
            accept_minute: cell.accept_minute,
            points: None,
        })
        .collect()
}

impl BoardRow {
    /// The row as a 2023-06 scoreboard row (pass-fail score, integer minutes).
    pub fn to_clics(&self) -> ScoreboardRow {
        let num_solved = self.problems.iter().filter(|c| c.solved).count() as u32;
        ScoreboardRow {
            rank: self.place.lo as u32,
            team_id: self.team_id.clone(),
            score: RowScore::PassFail {
                num_solved,
                total_time: self.score.penalty as u32,
                time: (num_solved > 0).then_some(self.score.last_accept as u32),
            },
            problems: self
                .problems
                .iter()
                .map(|cell| ScoreboardProblem {
                    problem_id: cell.problem_id.clone(),
                    num_judged: cell.num_judged,
                    num_pending: cell.num_pending,
                    solved: Some(cell.solved),
                    score: None,
                    time: cell.accept_minute,
                    first_to_solve: cell.solved.then_some(cell.first_to_solve),
                })
                .collect(),
        }
    }
}

impl Board {
    /// The board as the 2023-06 `scoreboard` object, as of the event `event_id`, at
    /// `time` (contest time `contest_time`), in the contest's `state`.
    pub fn to_clics(
        &self,
        event_id: impl Into<String>,
        time: Time,
        contest_time: RelTime,
        state: State,
    ) -> Scoreboard {
        Scoreboard {
            event_id: event_id.into(),
            time,
            contest_time,
            state,
            rows: self.rows.iter().map(BoardRow::to_clics).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clics::read_feed;

    const FEED: &str = r#"{"type":"contest","data":{"id":"c","name":"C","duration":"5:00:00","scoreboard_freeze_duration":"1:00:00","penalty_time":20}}
{"type":"judgement-types","id":"AC","data":{"id":"AC","name":"ok","penalty":false,"solved":true}}
{"type":"judgement-types","id":"WA","data":{"id":"WA","name":"wrong","penalty":true,"solved":false}}
{"type":"judgement-types","id":"CE","data":{"id":"CE","name":"compile","solved":false}}
{"type":"problems","id":"a","data":{"id":"a","label":"A","name":"A","ordinal":0,"test_data_count":1}}
{"type":"problems","id":"b","data":{"id":"b","label":"B","name":"B","ordinal":1,"test_data_count":1}}
{"type":"teams","id":"1","data":{"id":"1","name":"One"}}
{"type":"teams","id":"2","data":{"id":"2","name":"Two"}}
{"type":"submissions","id":"s1","data":{"id":"s1","language_id":"c","team_id":"1","problem_id":"a","time":"2025-03-02T09:40:59.900Z","contest_time":"0:10:59.9"}}
{"type":"judgements","id":"j1","data":{"id":"j1","submission_id":"s1","judgement_type_id":"WA","start_time":"2025-03-02T09:41:00Z","start_contest_time":"0:11:00"}}
{"type":"submissions","id":"s2","data":{"id":"s2","language_id":"c","team_id":"1","problem_id":"a","time":"2025-03-02T10:00:00Z","contest_time":"0:30:00"}}
{"type":"judgements","id":"j2","data":{"id":"j2","submission_id":"s2","judgement_type_id":"AC","start_time":"2025-03-02T10:00:00Z","start_contest_time":"0:30:00"}}
{"type":"submissions","id":"s3","data":{"id":"s3","language_id":"c","team_id":"2","problem_id":"a","time":"2025-03-02T09:50:00Z","contest_time":"0:20:00"}}
{"type":"judgements","id":"j3","data":{"id":"j3","submission_id":"s3","judgement_type_id":"CE","start_time":"2025-03-02T09:50:00Z","start_contest_time":"0:20:00"}}
{"type":"submissions","id":"s4","data":{"id":"s4","language_id":"c","team_id":"2","problem_id":"a","time":"2025-03-02T09:55:00Z","contest_time":"0:25:00"}}
{"type":"judgements","id":"j4","data":{"id":"j4","submission_id":"s4","judgement_type_id":"AC","start_time":"2025-03-02T09:55:00Z","start_contest_time":"0:25:00"}}
{"type":"submissions","id":"s5","data":{"id":"s5","language_id":"c","team_id":"2","problem_id":"b","time":"2025-03-02T14:00:00Z","contest_time":"4:30:00"}}
{"type":"judgements","id":"j5","data":{"id":"j5","submission_id":"s5","judgement_type_id":"WA","start_time":"2025-03-02T14:00:00Z","start_contest_time":"4:30:00"}}
{"type":"judgements","id":"j5","data":{"id":"j5","submission_id":"s5","judgement_type_id":"AC","start_time":"2025-03-02T14:00:00Z","start_contest_time":"4:30:00"}}
"#;

    fn score(points: f64, penalty: f64, last_accept: f64) -> Score {
        Score {
            points,
            penalty,
            last_accept,
        }
    }

    #[test]
    fn penalties_compile_errors_updates_and_the_freeze() {
        let feed = read_feed(FEED, "feed").expect("parses");
        let board = feed.board(false).expect("board");
        // Team 2: a at 25 (CE costs nothing), b at 270 after the update to AC.
        assert_eq!(board.rows[0].team, "Two");
        assert_eq!(board.rows[0].score, score(2.0, 295.0, 270.0));
        assert_eq!(board.rows[0].problems[0].num_judged, 1);
        // Team 1: a at 30 with one WA.
        assert_eq!(board.rows[1].score, score(1.0, 50.0, 30.0));
        assert_eq!(board.rows[1].problems[0].num_judged, 2);
        let frozen = feed.board(true).expect("frozen");
        assert_eq!(frozen.rows[0].team, "Two");
        assert_eq!(frozen.rows[0].score, score(1.0, 25.0, 25.0));
        assert_eq!(frozen.rows[0].problems[1].num_pending, 1);
        assert_eq!(board.first_to_solve["a"], vec!["2".to_owned()]);
        assert_eq!(board.first_to_solve["b"], vec!["2".to_owned()]);
        assert!(!frozen.first_to_solve.contains_key("b"));
        assert!(board.rows[0].problems[0].first_to_solve);
    }

    fn judgement(id: &str, submission: &str, verdict: Option<&str>, start_ms: i64) -> Judgement {
        Judgement {
            id: id.into(),
            submission_id: submission.into(),
            judgement_type_id: verdict.map(str::to_owned),
            start_time: crate::clics::Time::from_unix_millis(start_ms),
            start_contest_time: RelTime::from_millis(start_ms),
            end_time: None,
            end_contest_time: None,
            max_run_time: None,
            score: None,
        }
    }

    #[test]
    fn the_list_order_decides_which_judgement_counts_not_the_start_time() {
        // The rule relies on the list's order (older first), as the feed and `judge
        // serve` give it: j3 is listed after j1 and counts though it says it started
        // earlier; j4 has no verdict yet, so it does not replace j3; s3 is pending.
        let all = [
            judgement("j1", "s1", Some("WA"), 20),
            judgement("j2", "s2", Some("JE"), 11),
            judgement("j3", "s1", Some("AC"), 10),
            judgement("j4", "s1", None, 30),
            judgement("j5", "s3", None, 40),
        ];
        let counting = counting_judgements(&all);
        let ids: BTreeMap<&str, &str> = counting
            .iter()
            .map(|(submission, j)| (*submission, j.id.as_str()))
            .collect();
        assert_eq!(ids, BTreeMap::from([("s1", "j3"), ("s2", "j2")]));
    }

    #[test]
    fn the_newest_judgement_with_a_verdict_wins() {
        // s1 rejudged from WA to AC by a new judgement j9, first pending: while pending
        // the old verdict stands.
        let rejudge = |verdict: &str| {
            format!(
                r#"{{"type":"judgements","id":"j9","data":{{"id":"j9","submission_id":"s1",{verdict}"start_time":"2025-03-02T12:00:00Z","start_contest_time":"2:30:00"}}}}"#
            )
        };
        let pending = format!("{FEED}{}\n", rejudge(""));
        let one = |text: &str| {
            let board = read_feed(text, "feed")
                .expect("parses")
                .board(false)
                .expect("board");
            board
                .rows
                .into_iter()
                .find(|r| r.team_id == "1")
                .expect("team 1")
                .score
        };
        assert_eq!(one(&pending).penalty, 50.0);
        let judged = format!("{pending}{}\n", rejudge(r#""judgement_type_id":"AC","#));
        assert_eq!(one(&judged), score(1.0, 10.0, 10.0));
    }

    #[test]
    fn first_to_solve_ties_to_the_millisecond() {
        let tied = FEED.replace(r#""contest_time":"0:30:00""#, r#""contest_time":"0:25:00""#);
        let board = read_feed(&tied, "feed")
            .expect("parses")
            .board(false)
            .expect("board");
        assert_eq!(
            board.first_to_solve["a"],
            vec!["1".to_owned(), "2".to_owned()]
        );
        let apart = FEED.replace(
            r#""contest_time":"0:30:00""#,
            r#""contest_time":"0:25:00.001""#,
        );
        let board = read_feed(&apart, "feed")
            .expect("parses")
            .board(false)
            .expect("board");
        assert_eq!(board.first_to_solve["a"], vec!["2".to_owned()]);
    }

    #[test]
    fn an_unknown_judgement_type_is_named_with_its_line() {
        let bad = FEED.replace(r#""judgement_type_id":"CE""#, r#""judgement_type_id":"XX""#);
        let err = read_feed(&bad, "feed.ndjson")
            .expect("parses")
            .board(false)
            .expect_err("bad");
        assert_eq!(
            err.to_string(),
            "feed.ndjson: line 14, `judgement_type_id`: judgement j3 names XX, which the feed does not define"
        );
    }

    #[test]
    fn the_clics_scoreboard_has_integer_minutes_and_time_only_when_solved() {
        let feed = read_feed(FEED, "feed").expect("parses");
        let board = feed.board(false).expect("board");
        let clics = board.to_clics(
            "e1",
            Time::from_unix_millis(0),
            RelTime::from_minutes(300),
            State::default(),
        );
        let value = serde_json::to_value(&clics).expect("writes");
        let row = &value["rows"][1];
        assert_eq!(
            row["score"],
            serde_json::json!({"num_solved": 1, "total_time": 50, "time": 30})
        );
        assert_eq!(
            row["problems"][0],
            serde_json::json!({"problem_id": "a", "num_judged": 2, "num_pending": 0, "solved": true, "time": 30, "first_to_solve": false})
        );
        assert_eq!(
            row["problems"][1],
            serde_json::json!({"problem_id": "b", "num_judged": 0, "num_pending": 0, "solved": false})
        );
        assert_eq!(value["contest_time"], "5:00:00.000");
        assert!(value["state"]["started"].is_null());
        let back: Scoreboard = serde_json::from_value(value).expect("reads back");
        assert_eq!(back, clics);
    }
}
