//! The CLICS Contest API, 2023-06 (icpc/ccs-specs): its objects, typed once
//! ([`objects`]), its times ([`time`]), the event feed in every form in use ([`feed`]),
//! the ICPC board folded from the objects ([`board`]), which the contest server and
//! the feed reader share, and a contest package as final standings ([`package`]).
//!
//! The crate stays pure: the server serializes these types, the feed reader
//! deserializes them; neither needs anything from the other.

pub mod board;
pub mod feed;
pub mod objects;
pub mod package;
pub mod time;

use serde_json::Value;

pub use board::{Board, BoardRow, Cell, IcpcInput, counting_judgements, icpc};
pub use feed::{Event, EventType, Feed, Form, Object, parse_line, read_feed};
pub use objects::{
    Award, Clarification, Command, Contest, FileRef, Group, Judgement, JudgementType, Language,
    Location, Organization, Problem, RowScore, Run, Scoreboard, ScoreboardProblem, ScoreboardRow,
    ScoreboardType, Seat, State, Submission, Team,
};
pub use package::{Package, PackageRow, Standings, StandingsRow, read_package};
pub use time::{RelTime, Seconds, Time};

use crate::standings::Score;
use crate::{Error, Result};

/// Reads a CLICS `scoreboard` object's rows (`{"rows": [{"team_id", "rank", "score"}]}`),
/// with `total_time` and `time` as integer minutes (2023-06) or RELTIMEs (2026-01);
/// returns (team id, rank, score) in the file's order.
pub fn read_scoreboard(value: &Value, what: &str) -> Result<Vec<(String, usize, Score)>> {
    let rows = value["rows"]
        .as_array()
        .ok_or_else(|| Error::file(what, "no `rows` array"))?;
    rows.iter()
        .enumerate()
        .map(|(idx, row)| {
            let at = |field, message: &str| Error::row(what, idx + 1, field, message);
            let team = row["team_id"]
                .as_str()
                .ok_or_else(|| at("team_id", "missing or not a string"))?
                .to_owned();
            let rank = row["rank"]
                .as_u64()
                .ok_or_else(|| at("rank", "missing or not a count"))?
                as usize;
            let score = &row["score"];
            let points = score["num_solved"]
                .as_f64()
                .or_else(|| score["score"].as_f64())
                .ok_or_else(|| at("score", "has neither num_solved nor score"))?;
            let minutes = |value: &Value| -> Option<f64> {
                match value {
                    Value::String(text) => {
                        RelTime::parse(text).map(|t| t.millis() as f64 / 60_000.0)
                    }
                    other => other.as_f64(),
                }
            };
            let penalty = match &score["total_time"] {
                Value::Null => 0.0,
                time => {
                    minutes(time).ok_or_else(|| at("total_time", "not minutes nor a RELTIME"))?
                }
            };
            let last_accept = minutes(&score["time"]).unwrap_or(0.0);
            Ok((
                team,
                rank,
                Score {
                    points,
                    penalty,
                    last_accept,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scoreboard_objects_in_both_time_forms() {
        let board = json!({"rows": [
            {"rank": 1, "team_id": "7", "score": {"num_solved": 3, "total_time": 200}},
            {"rank": 2, "team_id": "3", "score": {"num_solved": 3, "total_time": "3:40:00.000", "time": "2:00:00"}}
        ]});
        let rows = read_scoreboard(&board, "scoreboard.json").expect("reads");
        let score = |points, penalty, last_accept| Score {
            points,
            penalty,
            last_accept,
        };
        assert_eq!(rows[0], ("7".to_owned(), 1, score(3.0, 200.0, 0.0)));
        assert_eq!(rows[1].2, score(3.0, 220.0, 120.0));
        let err = read_scoreboard(&json!({"rows": [{"rank": 1}]}), "s.json").expect_err("bad");
        assert_eq!(
            err.to_string(),
            "s.json: row 1, `team_id`: missing or not a string"
        );
    }

    fn time(text: &str) -> Time {
        Time::parse(text).expect("a TIME")
    }

    /// Each object written as 2023-06 requires: its required properties, their JSON
    /// types, TIME and RELTIME strings, integer minutes, seconds in milliseconds.
    ///
    /// It is long because it is a table: one object of each type and the JSON that
    /// 2023-06 requires of it.
    #[test]
    fn objects_serialize_to_2023_06() {
        let contest = Contest {
            id: "c".into(),
            name: "C".into(),
            start_time: Some(time("2025-03-02T09:30:00Z")),
            duration: RelTime::from_minutes(300),
            scoreboard_freeze_duration: Some(RelTime::from_minutes(60)),
            scoreboard_type: Some(ScoreboardType::PassFail),
            penalty_time: Some(20),
            ..Contest::default()
        };
        assert_eq!(
            serde_json::to_value(&contest).expect("writes"),
            json!({"id": "c", "name": "C", "start_time": "2025-03-02T09:30:00.000Z",
                "duration": "5:00:00.000", "scoreboard_freeze_duration": "1:00:00.000",
                "scoreboard_type": "pass-fail", "penalty_time": 20})
        );
        let state = State {
            started: Some(time("2025-03-02T09:30:00Z")),
            ..State::default()
        };
        assert_eq!(
            serde_json::to_value(&state).expect("writes"),
            json!({"started": "2025-03-02T09:30:00.000Z", "frozen": null, "ended": null,
                "thawed": null, "finalized": null, "end_of_updates": null})
        );
        assert_eq!(
            serde_json::to_value(JudgementType::new("CE", "compile error", false)).expect("writes"),
            json!({"id": "CE", "name": "compile error", "penalty": false, "solved": false})
        );
        let language = Language {
            id: "cpp".into(),
            name: "C++".into(),
            extensions: vec!["cpp".into()],
            ..Language::default()
        };
        assert_eq!(
            serde_json::to_value(&language).expect("writes"),
            json!({"id": "cpp", "name": "C++", "entry_point_required": false, "extensions": ["cpp"]})
        );
        let problem = Problem {
            id: "sum".into(),
            label: "A".into(),
            name: "Sum".into(),
            time_limit: Some(Seconds::from_millis(1500)),
            test_data_count: 3,
            statement: Some(vec![FileRef::new(
                "contests/c/problems/sum/statement",
                "statement.html",
                "text/html",
            )]),
            attachments: Some(vec![FileRef::new(
                "contests/c/problems/sum/attachments/1.in",
                "1.in",
                "text/plain",
            )]),
            ..Problem::default()
        };
        assert_eq!(
            serde_json::to_value(&problem).expect("writes"),
            json!({"id": "sum", "label": "A", "name": "Sum", "ordinal": 0, "time_limit": 1.5,
                "test_data_count": 3,
                "statement": [{"href": "contests/c/problems/sum/statement", "filename": "statement.html", "mime": "text/html"}],
                "attachments": [{"href": "contests/c/problems/sum/attachments/1.in", "filename": "1.in", "mime": "text/plain"}]})
        );
        let group = Group {
            id: "g".into(),
            name: "G".into(),
            kind: Some("site".into()),
            ..Group::default()
        };
        assert_eq!(
            serde_json::to_value(&group).expect("writes"),
            json!({"id": "g", "name": "G", "type": "site"})
        );
        let organization = Organization {
            id: "o".into(),
            name: "O".into(),
            country: Some("POL".into()),
            ..Organization::default()
        };
        assert_eq!(
            serde_json::to_value(&organization).expect("writes"),
            json!({"id": "o", "name": "O", "country": "POL"})
        );
        let mut team = Team::new("t", "T");
        team.organization_id = Some("o".into());
        assert_eq!(
            serde_json::to_value(&team).expect("writes"),
            json!({"id": "t", "name": "T", "organization_id": "o"})
        );
        let submission = Submission {
            id: "s".into(),
            language_id: "cpp".into(),
            problem_id: "sum".into(),
            team_id: "t".into(),
            time: time("2025-03-02T09:35:00.5Z"),
            contest_time: RelTime::from_millis(300_500),
            entry_point: None,
            files: vec![FileRef::new(
                "contests/c/submissions/s/files",
                "files.zip",
                "application/zip",
            )],
            reaction: None,
        };
        assert_eq!(
            serde_json::to_value(&submission).expect("writes"),
            json!({"id": "s", "language_id": "cpp", "problem_id": "sum", "team_id": "t",
                "time": "2025-03-02T09:35:00.500Z", "contest_time": "0:05:00.500", "entry_point": null,
                "files": [{"href": "contests/c/submissions/s/files", "filename": "files.zip", "mime": "application/zip"}]})
        );
        let judgement = Judgement {
            id: "j".into(),
            submission_id: "s".into(),
            judgement_type_id: None,
            start_time: time("2025-03-02T09:35:01Z"),
            start_contest_time: RelTime::from_millis(301_000),
            end_time: None,
            end_contest_time: None,
            max_run_time: None,
            score: None,
        };
        assert_eq!(
            serde_json::to_value(&judgement).expect("writes"),
            json!({"id": "j", "submission_id": "s", "judgement_type_id": null,
                "start_time": "2025-03-02T09:35:01.000Z", "start_contest_time": "0:05:01.000",
                "end_time": null, "end_contest_time": null})
        );
        let run = Run {
            id: "r".into(),
            judgement_id: "j".into(),
            ordinal: 1,
            judgement_type_id: "AC".into(),
            time: time("2025-03-02T09:35:02Z"),
            contest_time: RelTime::from_millis(302_000),
            run_time: Some(Seconds::from_millis(12)),
        };
        assert_eq!(
            serde_json::to_value(&run).expect("writes"),
            json!({"id": "r", "judgement_id": "j", "ordinal": 1, "judgement_type_id": "AC",
                "time": "2025-03-02T09:35:02.000Z", "contest_time": "0:05:02.000", "run_time": 0.012})
        );
        let clarification = Clarification {
            id: "q".into(),
            from_team_id: Some("t".into()),
            to_team_id: None,
            reply_to_id: None,
            problem_id: None,
            text: "?".into(),
            time: time("2025-03-02T09:40:00Z"),
            contest_time: RelTime::from_minutes(10),
        };
        assert_eq!(
            serde_json::to_value(&clarification).expect("writes"),
            json!({"id": "q", "from_team_id": "t", "to_team_id": null, "reply_to_id": null,
                "problem_id": null, "text": "?", "time": "2025-03-02T09:40:00.000Z",
                "contest_time": "0:10:00.000"})
        );
        let award = Award {
            id: "first-to-solve-sum".into(),
            citation: "First to solve Sum".into(),
            team_ids: vec!["t".into()],
        };
        assert_eq!(
            serde_json::to_value(&award).expect("writes"),
            json!({"id": "first-to-solve-sum", "citation": "First to solve Sum", "team_ids": ["t"]})
        );
        // Each reads back as itself.
        let back: Submission =
            serde_json::from_value(serde_json::to_value(&submission).expect("writes"))
                .expect("reads");
        assert_eq!(back, submission);
        let back: Contest =
            serde_json::from_value(serde_json::to_value(&contest).expect("writes")).expect("reads");
        assert_eq!(back, contest);
    }
}
