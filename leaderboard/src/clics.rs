//! The CLICS Contest API: rebuild an ICPC scoreboard from an event feed (NDJSON), with
//! the freeze, and the first-to-solve awards.
//!
//! Rules (CCS requirements): a submission's contest time is rounded down to whole
//! minutes; a problem is solved at its first accepted submission; each earlier rejected
//! submission whose judgement type carries a penalty adds `penalty_time`; the latest
//! judgement of a submission counts (rejudgements replace earlier ones); submissions
//! with no judgement yet are pending. Durations are read both as integer minutes (older
//! feeds) and as CLICS time strings (`"0:20:00.000"`).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use crate::standings::{Place, ProblemResult, Rule, Score, places};
use crate::{Error, Result};

/// Parses a CLICS duration: integer minutes, or `[-]h:mm:ss[.fff]`; returns seconds.
pub fn parse_duration(value: &Value) -> Option<f64> {
    if let Some(minutes) = value.as_f64() {
        return Some(minutes * 60.0);
    }
    let text = value.as_str()?;
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text),
    };
    let parts: Vec<&str> = text.split(':').collect();
    let [h, m, s] = parts.as_slice() else {
        return None;
    };
    Some(
        sign * (h.parse::<f64>().ok()? * 3600.0
            + m.parse::<f64>().ok()? * 60.0
            + s.parse::<f64>().ok()?),
    )
}

/// Everything the scoreboard needs from a feed, after the last update of each object.
#[derive(Debug, Default)]
pub struct Feed {
    /// Where the feed came from (a file name), for error messages.
    pub source_name: String,
    /// Contest length in seconds.
    pub duration: f64,
    /// Freeze length before the end, in seconds.
    pub freeze: f64,
    /// Minutes per penalised rejection.
    pub penalty_minutes: u32,
    /// Problem ids in ordinal order.
    pub problems: Vec<String>,
    /// Problem labels by id.
    pub labels: HashMap<String, String>,
    /// Team names by id.
    pub teams: BTreeMap<String, String>,
    /// Judgement types: id -> (penalty, solved).
    pub judgement_types: HashMap<String, (bool, bool)>,
    /// Submissions: id -> (team, problem, contest seconds).
    pub submissions: HashMap<String, (String, String, f64)>,
    /// Judgements: id -> (submission, judgement type), in feed order of last update.
    pub judgements: Vec<(String, String, Option<String>)>,
    /// Awards: id -> team ids.
    pub awards: BTreeMap<String, Vec<String>>,
}

/// Reads an event feed (one JSON object a line).
pub fn read_feed(text: &str, what: &str) -> Result<Feed> {
    let mut feed = Feed {
        source_name: what.to_owned(),
        penalty_minutes: 20,
        ..Feed::default()
    };
    let mut problems: Vec<(i64, String)> = Vec::new();
    let mut judgement_pos: HashMap<String, usize> = HashMap::new();
    for (idx, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |message: String| Error::line(what, idx + 1, message);
        let event: Value = serde_json::from_str(line).map_err(|err| at(err.to_string()))?;
        let kind = event["type"]
            .as_str()
            .ok_or_else(|| at("no `type`".to_owned()))?;
        let data = &event["data"];
        let id = event["id"]
            .as_str()
            .or_else(|| data["id"].as_str())
            .unwrap_or_default()
            .to_owned();
        let label = format!("{kind} {id}");
        let text = |v: &Value, key: &str| -> Result<String> {
            v[key]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| at(format!("{label}: no `{key}`")))
        };
        match kind {
            "contest" if !data.is_null() => {
                feed.duration = parse_duration(&data["duration"])
                    .ok_or_else(|| at(format!("bad contest duration {}", data["duration"])))?;
                feed.freeze = parse_duration(&data["scoreboard_freeze_duration"]).unwrap_or(0.0);
                if let Some(p) = parse_duration(&data["penalty_time"]) {
                    feed.penalty_minutes = (p / 60.0).round() as u32;
                }
            }
            "judgement-types" if !data.is_null() => {
                feed.judgement_types.insert(
                    id,
                    (
                        data["penalty"].as_bool().unwrap_or(false),
                        data["solved"].as_bool().unwrap_or(false),
                    ),
                );
            }
            "problems" if !data.is_null() => {
                problems.retain(|(_, p)| *p != id);
                problems.push((
                    data["ordinal"].as_i64().unwrap_or(problems.len() as i64),
                    id.clone(),
                ));
                feed.labels
                    .insert(id, data["label"].as_str().unwrap_or_default().to_owned());
            }
            "teams" if !data.is_null() => {
                let name = data["display_name"]
                    .as_str()
                    .or_else(|| data["name"].as_str())
                    .unwrap_or(&id)
                    .to_owned();
                feed.teams.insert(id, name);
            }
            "submissions" if !data.is_null() => {
                let time = parse_duration(&data["contest_time"]).ok_or_else(|| {
                    at(format!(
                        "{label}: bad contest_time {}",
                        data["contest_time"]
                    ))
                })?;
                feed.submissions.insert(
                    id,
                    (text(data, "team_id")?, text(data, "problem_id")?, time),
                );
            }
            "judgements" if !data.is_null() => {
                let entry = (
                    id.clone(),
                    text(data, "submission_id")?,
                    data["judgement_type_id"].as_str().map(str::to_owned),
                );
                match judgement_pos.get(&id) {
                    Some(&pos) => feed.judgements[pos] = entry,
                    None => {
                        judgement_pos.insert(id, feed.judgements.len());
                        feed.judgements.push(entry);
                    }
                }
            }
            "awards" if !data.is_null() => {
                let teams = data["team_ids"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect();
                feed.awards.insert(id, teams);
            }
            _ => {}
        }
    }
    problems.sort();
    feed.problems = problems.into_iter().map(|(_, id)| id).collect();
    Ok(feed)
}

/// One scoreboard row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Team id.
    pub team_id: String,
    /// Team name.
    pub team: String,
    /// Place (ties share `lo`).
    pub place: Place,
    /// Solved count, penalty minutes and last accept minute.
    pub score: Score,
    /// Per-problem results, in problem order.
    pub problems: Vec<ProblemResult>,
}

impl Feed {
    /// The judged verdict of each submission (the latest judgement with a type).
    fn verdicts(&self) -> HashMap<&str, &str> {
        let mut res = HashMap::new();
        for (_, submission, verdict) in &self.judgements {
            if let Some(verdict) = verdict {
                res.insert(submission.as_str(), verdict.as_str());
            }
        }
        res
    }

    /// The ICPC scoreboard counting submissions made before `until` seconds (the whole
    /// contest by default; `duration - freeze` gives the frozen public view).
    pub fn scoreboard(&self, until: Option<f64>) -> Result<Vec<Row>> {
        let until = until.unwrap_or(f64::INFINITY);
        let verdicts = self.verdicts();
        let mut subs: Vec<(&String, &(String, String, f64))> = self.submissions.iter().collect();
        subs.sort_by(|a, b| a.1.2.total_cmp(&b.1.2).then(a.0.cmp(b.0)));
        let problem_idx: HashMap<&str, usize> = self
            .problems
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
        let mut cells: BTreeMap<&str, Vec<ProblemResult>> = self
            .teams
            .keys()
            .map(|t| {
                (
                    t.as_str(),
                    vec![ProblemResult::default(); self.problems.len()],
                )
            })
            .collect();
        for (sub_id, (team, problem, time)) in subs {
            if *time >= until {
                continue;
            }
            let Some(verdict) = verdicts.get(sub_id.as_str()) else {
                continue;
            };
            let unknown = |field, id: &str| Error::UnknownReference {
                source_name: self.source_name.clone(),
                submission: sub_id.clone(),
                field,
                id: id.to_owned(),
            };
            let &(penalty, solved) = self
                .judgement_types
                .get(*verdict)
                .ok_or_else(|| unknown("judgement_type_id", verdict))?;
            let idx = *problem_idx
                .get(problem.as_str())
                .ok_or_else(|| unknown("problem_id", problem))?;
            let row = cells
                .get_mut(team.as_str())
                .ok_or_else(|| unknown("team_id", team))?;
            let cell = &mut row[idx];
            if cell.solved {
                continue;
            }
            if solved {
                cell.solved = true;
                cell.accept_minute = Some((time / 60.0).floor() as u32);
            } else if penalty {
                cell.rejected += 1;
            }
        }
        let rule = Rule::Icpc {
            penalty_minutes: self.penalty_minutes,
        };
        let teams: Vec<(&str, Vec<ProblemResult>)> = cells.into_iter().collect();
        let scores: Vec<Score> = teams.iter().map(|(_, r)| rule.score(r, &[])).collect();
        let places = places(&rule, &scores);
        let mut rows: Vec<Row> = teams
            .into_iter()
            .zip(scores)
            .zip(places)
            .map(|(((team_id, problems), score), place)| Row {
                team_id: team_id.to_owned(),
                team: self.teams.get(team_id).cloned().unwrap_or_default(),
                place,
                score,
                problems,
            })
            .collect();
        rows.sort_by(|a, b| a.place.lo.cmp(&b.place.lo).then(a.team.cmp(&b.team)));
        Ok(rows)
    }

    /// First to solve each problem: the teams whose first accepted submission came
    /// earliest (several when they tie to the second). Keyed by problem id.
    pub fn first_to_solve(&self) -> BTreeMap<String, Vec<String>> {
        let verdicts = self.verdicts();
        let mut best: BTreeMap<String, (f64, Vec<String>)> = BTreeMap::new();
        for (sub_id, (team, problem, time)) in &self.submissions {
            let solved = verdicts
                .get(sub_id.as_str())
                .and_then(|v| self.judgement_types.get(*v))
                .is_some_and(|&(_, solved)| solved);
            if !solved || !self.teams.contains_key(team) || *time > self.duration {
                continue;
            }
            let entry = best
                .entry(problem.clone())
                .or_insert((f64::INFINITY, Vec::new()));
            if *time < entry.0 {
                *entry = (*time, vec![team.clone()]);
            } else if *time == entry.0 && !entry.1.contains(team) {
                entry.1.push(team.clone());
            }
        }
        best.into_iter()
            .map(|(p, (_, mut teams))| {
                teams.sort();
                (p, teams)
            })
            .collect()
    }
}

/// Reads a CLICS `scoreboard` object (`{"rows": [{"team_id", "rank", "score": {...}}]}`),
/// accepting `total_time` as integer minutes or a time string; returns (team id, rank,
/// score) in the file's order.
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
            let penalty = match &score["total_time"] {
                Value::Null => 0.0,
                time => {
                    parse_duration(time)
                        .ok_or_else(|| at("total_time", "not minutes nor a time string"))?
                        / 60.0
                }
            };
            let last_accept = parse_duration(&score["time"])
                .map(|t| t / 60.0)
                .unwrap_or(0.0);
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

    #[test]
    fn durations_in_both_forms() {
        assert_eq!(parse_duration(&serde_json::json!(20)), Some(1200.0));
        assert_eq!(
            parse_duration(&serde_json::json!("0:20:00.000")),
            Some(1200.0)
        );
        assert_eq!(parse_duration(&serde_json::json!("5:00:00")), Some(18000.0));
        assert_eq!(
            parse_duration(&serde_json::json!("-0:01:30.5")),
            Some(-90.5)
        );
        assert_eq!(parse_duration(&serde_json::json!("soon")), None);
    }

    const FEED: &str = r#"{"type":"contest","data":{"id":"c","duration":"5:00:00","scoreboard_freeze_duration":"1:00:00","penalty_time":20}}
{"type":"judgement-types","id":"AC","data":{"id":"AC","penalty":false,"solved":true}}
{"type":"judgement-types","id":"WA","data":{"id":"WA","penalty":true,"solved":false}}
{"type":"judgement-types","id":"CE","data":{"id":"CE","penalty":false,"solved":false}}
{"type":"problems","id":"a","data":{"id":"a","label":"A","ordinal":0}}
{"type":"problems","id":"b","data":{"id":"b","label":"B","ordinal":1}}
{"type":"teams","id":"1","data":{"id":"1","name":"One"}}
{"type":"teams","id":"2","data":{"id":"2","name":"Two"}}
{"type":"submissions","id":"s1","data":{"id":"s1","team_id":"1","problem_id":"a","contest_time":"0:10:59.9"}}
{"type":"judgements","id":"j1","data":{"id":"j1","submission_id":"s1","judgement_type_id":"WA"}}
{"type":"submissions","id":"s2","data":{"id":"s2","team_id":"1","problem_id":"a","contest_time":"0:30:00"}}
{"type":"judgements","id":"j2","data":{"id":"j2","submission_id":"s2","judgement_type_id":"AC"}}
{"type":"submissions","id":"s3","data":{"id":"s3","team_id":"2","problem_id":"a","contest_time":"0:20:00"}}
{"type":"judgements","id":"j3","data":{"id":"j3","submission_id":"s3","judgement_type_id":"CE"}}
{"type":"submissions","id":"s4","data":{"id":"s4","team_id":"2","problem_id":"a","contest_time":"0:25:00"}}
{"type":"judgements","id":"j4","data":{"id":"j4","submission_id":"s4","judgement_type_id":"AC"}}
{"type":"submissions","id":"s5","data":{"id":"s5","team_id":"2","problem_id":"b","contest_time":"4:30:00"}}
{"type":"judgements","id":"j5","data":{"id":"j5","submission_id":"s5","judgement_type_id":"WA"}}
{"type":"judgements","id":"j5","data":{"id":"j5","submission_id":"s5","judgement_type_id":"AC"}}
"#;

    #[test]
    fn scoreboard_penalties_rejudgements_and_freeze() {
        let feed = read_feed(FEED, "feed").expect("parses");
        let rows = feed.scoreboard(None).expect("scoreboard");
        // Team 2: a at 25 (CE costs nothing), b at 270 after the rejudgement to AC.
        assert_eq!(rows[0].team, "Two");
        assert_eq!(
            rows[0].score,
            Score {
                points: 2.0,
                penalty: 295.0,
                last_accept: 270.0
            }
        );
        // Team 1: a at 30 with one WA.
        assert_eq!(
            rows[1].score,
            Score {
                points: 1.0,
                penalty: 50.0,
                last_accept: 30.0
            }
        );
        let frozen = feed
            .scoreboard(Some(feed.duration - feed.freeze))
            .expect("frozen");
        assert_eq!(frozen[0].team, "Two");
        assert_eq!(frozen[0].score.points, 1.0);
        assert_eq!(frozen[0].score.penalty, 25.0);
        let first = feed.first_to_solve();
        assert_eq!(first["a"], vec!["2".to_owned()]);
        assert_eq!(first["b"], vec!["2".to_owned()]);
    }

    #[test]
    fn scoreboard_objects_in_both_time_forms() {
        let board = serde_json::json!({"rows": [
            {"rank": 1, "team_id": "7", "score": {"num_solved": 3, "total_time": 200}},
            {"rank": 2, "team_id": "3", "score": {"num_solved": 3, "total_time": "3:40:00.000", "time": "2:00:00"}}
        ]});
        let rows = read_scoreboard(&board, "scoreboard.json").expect("reads");
        assert_eq!(
            rows[0],
            (
                "7".to_owned(),
                1,
                Score {
                    points: 3.0,
                    penalty: 200.0,
                    last_accept: 0.0
                }
            )
        );
        assert_eq!(
            rows[1].2,
            Score {
                points: 3.0,
                penalty: 220.0,
                last_accept: 120.0
            }
        );
        let err = read_scoreboard(&serde_json::json!({"rows": [{"rank": 1}]}), "s.json")
            .expect_err("bad");
        assert_eq!(
            err.to_string(),
            "s.json: row 1, `team_id`: missing or not a string"
        );
    }

    #[test]
    fn a_rejudgement_under_a_new_id_replaces_the_verdict() {
        // s1 (team 1, a, minute 10) rejudged from WA to AC by a new judgement j9, which
        // first appears pending: while pending the old verdict stands.
        let pending = format!(
            "{FEED}{}\n",
            r#"{"type":"judgements","id":"j9","data":{"id":"j9","submission_id":"s1"}}"#
        );
        let feed = read_feed(&pending, "feed").expect("parses");
        let one = |feed: &Feed| {
            let rows = feed.scoreboard(None).expect("scoreboard");
            rows.into_iter()
                .find(|r| r.team_id == "1")
                .expect("team 1")
                .score
        };
        assert_eq!(one(&feed).penalty, 50.0);
        let judged = format!(
            "{pending}{}\n",
            r#"{"type":"judgements","id":"j9","data":{"id":"j9","submission_id":"s1","judgement_type_id":"AC"}}"#
        );
        let feed = read_feed(&judged, "feed").expect("parses");
        assert_eq!(
            one(&feed),
            Score {
                points: 1.0,
                penalty: 10.0,
                last_accept: 10.0
            }
        );
    }

    #[test]
    fn an_unknown_problem_is_named() {
        let bad = FEED.replace(r#""problem_id":"b""#, r#""problem_id":"zz""#);
        let feed = read_feed(&bad, "feed.ndjson").expect("parses");
        let err = feed.scoreboard(None).expect_err("unknown problem");
        assert_eq!(
            err.to_string(),
            "feed.ndjson: submission s5: unknown problem_id zz"
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = read_feed("{\"type\":\"contest\"}\nnot json\n", "feed.ndjson").expect_err("bad");
        assert!(err.to_string().starts_with("feed.ndjson: line"), "{err}");
    }
}
