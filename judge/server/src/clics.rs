//! CLICS Contest API objects (ccs-specs 2023-06) built from the contest definition and
//! the stored rows: contest, state, problems, languages, judgement types, teams,
//! submissions, judgements, runs. The objects are `leaderboard::clics`'s typed ones
//! (serialized where JSON is needed: [`to_value`]); times are theirs too (`Time`,
//! `RelTime`, `Seconds`).

use chrono::{DateTime, TimeZone, Utc};
use leaderboard::clics::{
    self as api, FileRef, JudgementType, Language, Problem, RelTime, ScoreboardType, Seconds,
};
use problems::Verdict;
use serde::Serialize;
use serde_json::Value;

use crate::contest::{Contest, Scoring, TeamSpec, reltime, time};
use crate::control::Schedule;
use crate::statement;
use crate::store::{JudgementRow, RunRow, SubmissionRow};

/// An object as JSON (an event's data); these objects always serialize.
pub fn to_value(object: &impl Serialize) -> Value {
    serde_json::to_value(object).expect("invariant: CLICS objects serialize to JSON")
}

/// Objects as JSON, one value each (a collection's answer, events).
pub fn to_values<T: Serialize>(objects: &[T]) -> Vec<Value> {
    objects.iter().map(to_value).collect()
}

fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

/// The CLICS time of `ms` milliseconds since the epoch.
pub fn time_of_ms(ms: i64) -> api::Time {
    time(at(ms))
}

fn contest_time(contest: &Contest, ms: i64) -> RelTime {
    reltime(at(ms) - contest.start_time())
}

/// The `contest` object: the start as the jury set it, and the duration to the end (a
/// contest ended early is as long as it ran).
pub fn contest(c: &Contest) -> api::Contest {
    contest_on(c, &c.schedule())
}

/// The `contest` object on `schedule`.
pub fn contest_on(c: &Contest, schedule: &Schedule) -> api::Contest {
    api::Contest {
        id: c.spec.id.clone(),
        name: c.spec.name.clone(),
        formal_name: Some(c.spec.name.clone()),
        start_time: Some(time(schedule.start)),
        duration: reltime(schedule.end - schedule.start),
        scoreboard_freeze_duration: Some(reltime(c.spec.scoreboard_freeze_duration)),
        scoreboard_type: Some(match c.spec.scoring {
            Scoring::Icpc => ScoreboardType::PassFail,
            Scoring::Ioi => ScoreboardType::Score,
        }),
        penalty_time: Some(c.spec.penalty_minutes),
        ..api::Contest::default()
    }
}

/// The `state` object at `now` (`pending`: something is left to judge), from the
/// contest's schedule ([`crate::control`]): started, frozen, ended and thawed as they
/// have happened; finalized by the jury or once ended, judged and thawed; the end of
/// updates once finalized and thawed.
pub fn state(c: &Contest, now: DateTime<Utc>, pending: bool) -> api::State {
    state_on(&c.schedule(), now, pending)
}

/// The `state` object of `s` at `now`.
pub fn state_on(s: &Schedule, now: DateTime<Utc>, pending: bool) -> api::State {
    let happened = |t: DateTime<Utc>| (now >= t).then(|| time(t));
    let frozen = s.freeze.and_then(happened);
    let thawed = frozen.and(s.thaw.and_then(happened));
    let finalized = s.finalized_at(now, pending).map(time);
    api::State {
        started: happened(s.start),
        frozen,
        ended: happened(s.end),
        thawed,
        finalized,
        end_of_updates: finalized.filter(|_| s.thawed_by(now)),
    }
}

/// The `problems` objects; `files` adds the file references a participant reads the
/// problem by (only once the contest has started, see `statement::readable`):
/// `statement` (the HTML rendered from the package's Markdown, and its PDF when it has
/// one) and `attachments` (the sample inputs and answers; 2026-01's name, an added
/// property in 2023-06). Each carries where its time limit came from as the extension
/// `time_limit_source` (see [`crate::contest::ContestProblem::time_limit`]).
pub fn problems(c: &Contest, files: bool) -> Vec<Problem> {
    c.problems
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let base = format!("contests/{}/problems/{}", c.spec.id, p.id);
            let (statement, attachments) = if files {
                let mut statement = Vec::new();
                if statement::html_body(&p.problem).is_some() {
                    statement.push(FileRef::new(
                        format!("{base}/statement"),
                        format!("{}.html", p.id),
                        "text/html",
                    ));
                }
                if statement::pdf(&p.problem).is_some() {
                    statement.push(FileRef::new(
                        format!("{base}/statement.pdf"),
                        format!("{}.pdf", p.id),
                        "application/pdf",
                    ));
                }
                let attachments = statement::samples(&p.problem)
                    .into_iter()
                    .map(|(name, _)| {
                        FileRef::new(format!("{base}/attachments/{name}"), name, "text/plain")
                    })
                    .collect();
                (Some(statement), Some(attachments))
            } else {
                (None, None)
            };
            let cases = p.problem.sample.cases.len() + count_cases(&p.problem.secret);
            Problem {
                id: p.id.clone(),
                label: p.label.clone(),
                name: p.problem.name.clone(),
                ordinal: u32::try_from(i).unwrap_or(u32::MAX),
                rgb: p.rgb.clone(),
                time_limit: Some(Seconds::from_millis(
                    u64::try_from(p.problem.limits.time.as_millis()).unwrap_or(u64::MAX),
                )),
                time_limit_source: Some(time_limit_source(&p.time_limit)),
                test_data_count: u32::try_from(cases).unwrap_or(u32::MAX),
                max_score: (c.spec.scoring == Scoring::Ioi).then_some(p.max_score),
                statement,
                attachments,
                ..Problem::default()
            }
        })
        .collect()
}

fn count_cases(g: &problems::TestGroup) -> usize {
    g.cases.len() + g.groups.iter().map(count_cases).sum::<usize>()
}

/// The `languages` objects (those the contest allows).
pub fn languages(c: &Contest) -> Vec<Language> {
    judge::lang::all()
        .unwrap_or_default()
        .into_iter()
        .filter(|l| c.allows_language(&l.id))
        .map(|l| Language {
            id: l.id,
            name: l.name,
            entry_point_required: false,
            extensions: l.extensions,
            ..Language::default()
        })
        .collect()
}

/// The `judgement-types` objects, ids as in the spec.
pub fn judgement_types() -> Vec<JudgementType> {
    Verdict::ALL
        .iter()
        .rev()
        .map(|v| {
            let name = match v {
                Verdict::AC => "correct",
                Verdict::WA => "wrong answer",
                Verdict::TLE => "time limit exceeded",
                Verdict::MLE => "memory limit exceeded",
                Verdict::RTE => "run-time error",
                Verdict::OLE => "output limit exceeded",
                Verdict::CE => "compiler error",
                Verdict::JE => "judging error",
            };
            JudgementType::new(v.clics_id(), name, *v == Verdict::AC)
        })
        .collect()
}

/// The `teams` objects (tokens are never shown).
pub fn teams(c: &Contest) -> Vec<api::Team> {
    c.teams().iter().map(team).collect()
}

/// A `teams` object: a disabled team is hidden.
pub fn team(t: &TeamSpec) -> api::Team {
    api::Team {
        hidden: Some(t.disabled),
        label: Some(t.id.clone()),
        ..api::Team::new(&t.id, &t.name)
    }
}

/// A `submissions` object.
pub fn submission(c: &Contest, s: &SubmissionRow) -> api::Submission {
    api::Submission {
        entry_point: entry_point(&s.language_id, &s.source),
        ..scored_submission(c, s)
    }
}

/// A `submissions` object without its entry point (which reads the language table):
/// what the scoreboard folds.
pub fn scored_submission(c: &Contest, s: &SubmissionRow) -> api::Submission {
    api::Submission {
        id: s.id.clone(),
        language_id: s.language_id.clone(),
        problem_id: s.problem_id.clone(),
        team_id: s.team_id.clone(),
        time: time(at(s.time_ms)),
        contest_time: RelTime::from_millis(s.contest_time_ms),
        entry_point: None,
        files: vec![FileRef::new(
            format!("contests/{}/submissions/{}/files", c.spec.id, s.id),
            "files.zip",
            "application/zip",
        )],
        reaction: None,
    }
}

/// A submission's entry point as CLICS names it: `null` for C and C++, the class for
/// Java and Kotlin, the file that runs for the others (the judge derives each from the
/// source, so no language requires one at submission).
fn entry_point(language_id: &str, source: &str) -> Option<String> {
    if matches!(language_id, "c" | "cpp") {
        return None;
    }
    let name = judge::lang::by_id(language_id).ok()?.source_name(source);
    let stem = name
        .rsplit_once('.')
        .map_or(name.as_str(), |(stem, _)| stem)
        .to_owned();
    Some(match language_id {
        "java" => stem,
        // The class of a file's top-level functions: `main.kt` holds `MainKt`.
        "kotlin" => {
            let mut chars = stem.chars();
            let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
            format!("{}{}Kt", first.unwrap_or_default(), chars.as_str())
        }
        _ => name,
    })
}

/// Seconds as a whole number of milliseconds (CLICS: a multiple of 0.001).
fn whole_ms(seconds: f64) -> Seconds {
    Seconds::from_millis((seconds * 1000.0).round().max(0.0) as u64)
}

/// A `judgements` object.
pub fn judgement(c: &Contest, j: &JudgementRow) -> api::Judgement {
    api::Judgement {
        id: j.id.clone(),
        submission_id: j.submission_id.clone(),
        judgement_type_id: Some(j.verdict.clics_id().to_owned()),
        start_time: time(at(j.start_ms)),
        start_contest_time: contest_time(c, j.start_ms),
        end_time: Some(time(at(j.end_ms))),
        end_contest_time: Some(contest_time(c, j.end_ms)),
        max_run_time: Some(whole_ms(j.max_run_time)),
        score: (c.spec.scoring == Scoring::Ioi).then_some(j.score),
    }
}

/// A `runs` object.
pub fn run(c: &Contest, r: &RunRow) -> api::Run {
    api::Run {
        id: r.id.clone(),
        judgement_id: r.judgement_id.clone(),
        ordinal: u32::try_from(r.ordinal).unwrap_or_default(),
        judgement_type_id: r.verdict.clics_id().to_owned(),
        time: time(at(r.time_ms)),
        contest_time: contest_time(c, r.time_ms),
        run_time: Some(whole_ms(r.run_time)),
    }
}

/// The `time_limit_source` extension of a problem object: where its limit came from, and
/// for a derived one the Python its `.py` submissions were measured (and are judged)
/// with: `derived with pypy3`.
fn time_limit_source(provenance: &judge::timelimit::Provenance) -> String {
    match &provenance.derivation {
        Some(d) if !d.python.is_empty() => format!("{} with {}", provenance.source, d.python),
        _ => provenance.source.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{ContestSpec, JuryCell, Scoring};

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
                thaw: crate::control::Thaw::End,
                scoring: Scoring::Icpc,
                penalty_minutes: 20,
                submissions_per_minute: 10,
                languages: None,
                cpus: 1,
                medals: None,
                problems: vec![],
                teams: vec![],
            },
            problems: vec![],
            jury: JuryCell::default(),
            file_problems: vec![],
            jury_problems: vec![],
        };
        let at =
            |h: i64, pending: bool| state(&contest, start + chrono::Duration::minutes(h), pending);
        let at = |h: i64, pending: bool| to_value(&at(h, pending));
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
        let types = to_values(&judgement_types());
        let get = |id: &str| types.iter().find(|t| t["id"] == id).cloned().unwrap();
        assert_eq!(get("AC")["solved"], true);
        assert_eq!(get("WA")["penalty"], true);
        assert_eq!(get("CE")["penalty"], false);
        assert_eq!(get("JE")["penalty"], false);
        assert_eq!(types.len(), 8);
    }

    #[test]
    fn entry_points_name_the_class_for_java_and_kotlin() {
        let java =
            "import java.util.*;\npublic class Solve { public static void main(String[] a) {} }\n";
        assert_eq!(entry_point("java", java).as_deref(), Some("Solve"));
        assert_eq!(
            entry_point("kotlin", "fun main() {}\n").as_deref(),
            Some("MainKt")
        );
        assert_eq!(entry_point("cpp", "int main() {}"), None);
        assert_eq!(
            entry_point("python3", "print(1)").as_deref(),
            Some("main.py")
        );
    }
}
