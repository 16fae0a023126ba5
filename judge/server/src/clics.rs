//! CLICS Contest API objects (ccs-specs 2023-06) built from the contest definition and
//! the stored rows: contest, state, problems, languages, judgement types, teams,
//! submissions, judgements, runs. Times are RFC 3339 with milliseconds; contest times and
//! durations are relative times (`h:mm:ss.uuu`).

use chrono::{DateTime, TimeZone, Utc};
use problems::Verdict;
use serde_json::{Value, json};

use crate::contest::{Contest, Scoring, format_reltime, format_time};
use crate::statement;
use crate::store::{JudgementRow, RunRow, SubmissionRow};

fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

fn contest_time(contest: &Contest, ms: i64) -> String {
    format_reltime(at(ms) - contest.spec.start_time)
}

/// The `contest` object.
pub fn contest(c: &Contest) -> Value {
    json!({
        "id": c.spec.id,
        "name": c.spec.name,
        "formal_name": c.spec.name,
        "start_time": format_time(c.spec.start_time),
        "duration": format_reltime(c.spec.duration),
        "scoreboard_freeze_duration": format_reltime(c.spec.scoreboard_freeze_duration),
        "scoreboard_type": match c.spec.scoring { Scoring::Icpc => "pass-fail", Scoring::Ioi => "score" },
        "penalty_time": c.spec.penalty_minutes,
    })
}

/// The `state` object at `now`: started, frozen, ended and thawed as they have happened
/// (the board thaws at the end); finalized once ended with nothing left to judge.
pub fn state(c: &Contest, now: DateTime<Utc>, pending: bool) -> Value {
    let happened = |t: DateTime<Utc>| (now >= t).then(|| format_time(t));
    let end = c.end_time();
    let ended = happened(end);
    let finalized = if ended.is_some() && !pending {
        ended.clone()
    } else {
        None
    };
    json!({
        "started": happened(c.spec.start_time),
        "frozen": c.freeze_time().and_then(happened),
        "ended": ended,
        "thawed": c.freeze_time().and_then(|_| happened(end)),
        "finalized": finalized,
        "end_of_updates": finalized,
    })
}

/// The `problems` objects; `files` adds the file references a participant reads the
/// problem by (only once the contest has started, see `statement::readable`):
/// `statement` (the HTML rendered from the package's Markdown, and its PDF when it has
/// one) and `attachments` (the sample inputs and answers; 2026-01's name, an added
/// property in 2023-06).
pub fn problems(c: &Contest, files: bool) -> Vec<Value> {
    c.problems
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = json!({
                "id": p.id,
                "label": p.label,
                "name": p.problem.name,
                "ordinal": i,
                "time_limit": p.problem.limits.time.as_secs_f64(),
                "test_data_count": p.problem.sample.cases.len() + count_cases(&p.problem.secret),
            });
            if let Some(rgb) = &p.rgb {
                v["rgb"] = json!(rgb);
            }
            if c.spec.scoring == Scoring::Ioi {
                v["max_score"] = json!(p.max_score);
            }
            if files {
                let base = format!("contests/{}/problems/{}", c.spec.id, p.id);
                let mut statement = Vec::new();
                if statement::html_body(&p.problem).is_some() {
                    statement.push(json!({
                        "href": format!("{base}/statement"),
                        "filename": format!("{}.html", p.id),
                        "mime": "text/html",
                    }));
                }
                if statement::pdf(&p.problem).is_some() {
                    statement.push(json!({
                        "href": format!("{base}/statement.pdf"),
                        "filename": format!("{}.pdf", p.id),
                        "mime": "application/pdf",
                    }));
                }
                let attachments: Vec<Value> = statement::samples(&p.problem)
                    .into_iter()
                    .map(|(name, _)| {
                        json!({
                            "href": format!("{base}/attachments/{name}"),
                            "filename": name,
                            "mime": "text/plain",
                        })
                    })
                    .collect();
                v["statement"] = json!(statement);
                v["attachments"] = json!(attachments);
            }
            v
        })
        .collect()
}

fn count_cases(g: &problems::TestGroup) -> usize {
    g.cases.len() + g.groups.iter().map(count_cases).sum::<usize>()
}

/// The `languages` objects (those the contest allows).
pub fn languages(c: &Contest) -> Vec<Value> {
    judge::lang::all()
        .unwrap_or_default()
        .into_iter()
        .filter(|l| c.allows_language(&l.id))
        .map(|l| {
            json!({
                "id": l.id,
                "name": l.name,
                "entry_point_required": false,
                "extensions": l.extensions,
            })
        })
        .collect()
}

/// The `judgement-types` objects, ids as in the spec.
pub fn judgement_types() -> Vec<Value> {
    Verdict::ALL
        .iter()
        .rev()
        .map(|v| {
            let (name, penalty) = match v {
                Verdict::AC => ("correct", false),
                Verdict::WA => ("wrong answer", true),
                Verdict::TLE => ("time limit exceeded", true),
                Verdict::MLE => ("memory limit exceeded", true),
                Verdict::RTE => ("run-time error", true),
                Verdict::OLE => ("output limit exceeded", true),
                Verdict::CE => ("compiler error", false),
                Verdict::JE => ("judging error", false),
            };
            json!({"id": v.clics_id(), "name": name, "penalty": penalty, "solved": *v == Verdict::AC})
        })
        .collect()
}

/// The `teams` objects (tokens are never shown).
pub fn teams(c: &Contest) -> Vec<Value> {
    c.spec
        .teams
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "label": t.id, "hidden": false}))
        .collect()
}

/// A `submissions` object.
pub fn submission(c: &Contest, s: &SubmissionRow) -> Value {
    json!({
        "id": s.id,
        "language_id": s.language_id,
        "problem_id": s.problem_id,
        "team_id": s.team_id,
        "time": format_time(at(s.time_ms)),
        "contest_time": format_reltime(chrono::Duration::milliseconds(s.contest_time_ms)),
        "entry_point": entry_point(&s.language_id, &s.source),
        "files": [{
            "href": format!("contests/{}/submissions/{}/files", c.spec.id, s.id),
            "filename": "files.zip",
            "mime": "application/zip",
        }],
    })
}

/// A submission's entry point as CLICS names it: `null` for C and C++, the class for
/// Java and Kotlin, the file that runs for the others (the judge derives each from the
/// source, so no language requires one at submission).
fn entry_point(language_id: &str, source: &str) -> Option<String> {
    if matches!(language_id, "c" | "cpp") {
        return None;
    }
    let name = judge::lang::by_id(language_id).ok()?.source_name(source);
    Some(match language_id {
        "java" | "kotlin" => name
            .rsplit_once('.')
            .map_or(name.clone(), |(stem, _)| stem.to_owned()),
        _ => name,
    })
}

/// Seconds as a whole number of milliseconds (CLICS: a multiple of 0.001).
fn whole_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// A `judgements` object.
pub fn judgement(c: &Contest, j: &JudgementRow) -> Value {
    let mut v = json!({
        "id": j.id,
        "submission_id": j.submission_id,
        "judgement_type_id": j.verdict.clics_id(),
        "start_time": format_time(at(j.start_ms)),
        "start_contest_time": contest_time(c, j.start_ms),
        "end_time": format_time(at(j.end_ms)),
        "end_contest_time": contest_time(c, j.end_ms),
        "max_run_time": whole_ms(j.max_run_time),
    });
    if c.spec.scoring == Scoring::Ioi {
        v["score"] = json!(j.score);
    }
    v
}

/// A `runs` object.
pub fn run(c: &Contest, r: &RunRow) -> Value {
    json!({
        "id": r.id,
        "judgement_id": r.judgement_id,
        "ordinal": r.ordinal,
        "judgement_type_id": r.verdict.clics_id(),
        "time": format_time(at(r.time_ms)),
        "contest_time": contest_time(c, r.time_ms),
        "run_time": whole_ms(r.run_time),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{ContestSpec, Scoring};

    #[test]
    fn state_follows_the_clock_freeze_and_thaw_at_the_end() {
        let start: DateTime<Utc> = "2026-01-01T10:00:00Z".parse().unwrap();
        let contest = Contest {
            spec: ContestSpec {
                id: "c".into(),
                name: "C".into(),
                start_time: start,
                duration: chrono::Duration::hours(5),
                scoreboard_freeze_duration: chrono::Duration::hours(1),
                scoring: Scoring::Icpc,
                penalty_minutes: 20,
                submissions_per_minute: 10,
                languages: None,
                problems: vec![],
                teams: vec![],
            },
            problems: vec![],
        };
        let at =
            |h: i64, pending: bool| state(&contest, start + chrono::Duration::minutes(h), pending);
        let before = at(-10, false);
        assert!(before["started"].is_null() && before["frozen"].is_null());
        let running = at(60, false);
        assert_eq!(running["started"], "2026-01-01T10:00:00.000Z");
        assert!(running["frozen"].is_null());
        let frozen = at(250, false);
        assert_eq!(frozen["frozen"], "2026-01-01T14:00:00.000Z");
        assert!(frozen["ended"].is_null() && frozen["thawed"].is_null());
        let ended_pending = at(301, true);
        assert_eq!(ended_pending["ended"], "2026-01-01T15:00:00.000Z");
        assert_eq!(ended_pending["thawed"], "2026-01-01T15:00:00.000Z");
        assert!(
            ended_pending["finalized"].is_null(),
            "not final while judging"
        );
        let done = at(301, false);
        assert_eq!(done["finalized"], "2026-01-01T15:00:00.000Z");
        assert_eq!(done["end_of_updates"], done["finalized"]);
    }

    #[test]
    fn judgement_types_have_the_spec_ids_and_penalties() {
        let types = judgement_types();
        let get = |id: &str| types.iter().find(|t| t["id"] == id).cloned().unwrap();
        assert_eq!(get("AC")["solved"], true);
        assert_eq!(get("WA")["penalty"], true);
        assert_eq!(get("CE")["penalty"], false);
        assert_eq!(get("JE")["penalty"], false);
        assert_eq!(types.len(), 8);
    }
}
