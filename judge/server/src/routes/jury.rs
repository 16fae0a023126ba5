//! The jury's pages under `/contests/{cid}/jury/` (the jury's session only; anyone else
//! is sent to the login): the submissions (newest first, filtered by team, problem,
//! language and verdict, a page at a time, one query whatever the contest's size, kept
//! live by the page's event stream); the clarifications' inbox (the teams' questions not
//! answered yet, each with an answer form and a "handled" button, then those answered or
//! handled with their answers); one submission, with its source, each judgement's compiler
//! output and per-test results (the judgements of a rejudged submission side by side),
//! and for the newest judgement's first failed test its input, the expected answer and
//! the program's output, each cut to [`SHOWN_BYTES`], with a line diff.

use axum::Router;
use axum::extract::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use leaderboard::clics::RelTime;
use serde::Deserialize;

use super::web::{after_form, error_page, esc, forms_for, page, posted, to_login, who};
use super::{Shared, contest_of};
use crate::contest::Contest;
use crate::error::ApiError;
use crate::store::{JudgementRow, JuryRun, SubmissionFilter};
use crate::viewer::Viewer;

/// How much of a test's input, answer and output a page shows.
pub const SHOWN_BYTES: usize = 4096;

/// Differing lines a diff lists at most.
const DIFF_LINES: usize = 20;

/// The routes of the jury's pages.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/contests/{cid}/jury/submissions", get(submissions))
        .route("/contests/{cid}/jury/submissions/{id}", get(submission))
        .route("/contests/{cid}/jury/clarifications", get(clarifications))
        .route(
            "/contests/{cid}/jury/clarifications/{id}/handled",
            post(mark_handled),
        )
}

/// Submissions a page of the jury's list holds.
pub const PER_PAGE: i64 = 50;

/// The list's query: the filters (empty: any), the page (from 1), and `part=list` for
/// the live part alone.
#[derive(Debug, Default, Deserialize)]
struct ListQuery {
    #[serde(default)]
    team: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    language: String,
    #[serde(default)]
    verdict: String,
    #[serde(default)]
    page: Option<i64>,
    #[serde(default)]
    part: String,
}

impl ListQuery {
    /// The query string of these filters on page `page`.
    fn href(&self, cid: &str, page: i64) -> String {
        let pairs = [
            ("team", &self.team),
            ("problem", &self.problem),
            ("language", &self.language),
            ("verdict", &self.verdict),
        ];
        let mut q: Vec<String> = pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", percent(v)))
            .collect();
        q.push(format!("page={page}"));
        format!("/contests/{cid}/jury/submissions?{}", q.join("&"))
    }
}

/// Percent-encodes a query value.
fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `<option>`s of `values` (value, label), `chosen` selected, after "any".
fn options(values: &[(String, String)], chosen: &str) -> String {
    let mut out = "<option value=''>any</option>".to_owned();
    for (value, label) in values {
        let selected = if value == chosen { " selected" } else { "" };
        out.push_str(&format!(
            "<option value='{}'{selected}>{}</option>",
            esc(value),
            esc(label)
        ));
    }
    out
}

/// The list's live part: one page of the filtered submissions and the pager.
async fn list_html(
    state: &crate::state::AppState,
    contest: &Contest,
    query: &ListQuery,
) -> Result<String, ApiError> {
    let cid = &contest.spec.id;
    let filter = SubmissionFilter {
        team_id: query.team.clone(),
        problem_id: query.problem.clone(),
        language_id: query.language.clone(),
        verdict: query.verdict.clone(),
    };
    let page = query.page.unwrap_or(1).max(1);
    let (rows, total) = state
        .store
        .submission_page(cid, &filter, PER_PAGE, (page - 1) * PER_PAGE)
        .await?;
    let label = |problem: &str| {
        contest
            .problem(problem)
            .map_or(problem.to_owned(), |p| p.label.clone())
    };
    let lines: String = rows
        .iter()
        .map(|s| {
            let rejudged = if s.judgements > 1 {
                format!(" <small>({} judgements)</small>", s.judgements)
            } else {
                String::new()
            };
            format!(
                "<tr class=submission><td><a href='/contests/{c}/jury/submissions/{i}'>{i}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class='verdict {v}'>{v}{rejudged}</td></tr>",
                esc(&RelTime::from_millis(s.contest_time_ms).to_string()),
                esc(&s.team_id),
                esc(&label(&s.problem_id)),
                esc(&s.language_id),
                c = esc(cid),
                i = esc(&s.id),
                v = esc(&s.verdict),
            )
        })
        .collect();
    let pages = ((total + PER_PAGE - 1) / PER_PAGE).max(1);
    let prev = if page > 1 {
        format!(
            "<a id=prev href='{}'>newer</a> ",
            esc(&query.href(cid, page - 1))
        )
    } else {
        String::new()
    };
    let next = if page < pages {
        format!(
            " <a id=next href='{}'>older</a>",
            esc(&query.href(cid, page + 1))
        )
    } else {
        String::new()
    };
    Ok(format!(
        "<p id=count>{total} submissions; page {page} of {pages}.</p>\
         <table id=jury-submissions><tr><th>id</th><th>time</th><th>team</th><th>problem</th><th>language</th><th>verdict</th></tr>{lines}</table>\
         <p>{prev}{next}</p>"
    ))
}

/// The jury's submission list: newest first, filtered by team, problem, verdict and
/// language, [`PER_PAGE`] a page, its list fetched again whenever the event stream says
/// something changed.
async fn submissions(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    Query(query): Query<ListQuery>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let (viewer, _) = who(&state, &contest, &headers).await;
    if viewer != Viewer::Admin {
        return to_login(&cid);
    }
    let list = match list_html(&state, &contest, &query).await {
        Ok(list) => list,
        Err(e) => return error_page(e),
    };
    if query.part == "list" {
        return Html(list).into_response();
    }
    let teams: Vec<(String, String)> = contest
        .teams()
        .iter()
        .map(|t| (t.id.clone(), format!("{} ({})", t.name, t.id)))
        .collect();
    let problems: Vec<(String, String)> = contest
        .problems
        .iter()
        .map(|p| (p.id.clone(), format!("{} {}", p.label, p.problem.name)))
        .collect();
    let languages: Vec<(String, String)> = crate::clics::languages(&contest)
        .iter()
        .map(|l| (l.id.clone(), l.name.clone()))
        .collect();
    let verdicts: Vec<(String, String)> = crate::clics::judgement_types()
        .iter()
        .map(|j| (j.id.clone(), format!("{} {}", j.id, j.name)))
        .chain([("pending".to_owned(), "pending".to_owned())])
        .collect();
    let live = format!(
        "{}&part=list",
        query.href(&cid, query.page.unwrap_or(1).max(1))
    );
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a></p><h1>Submissions</h1>\
         <form id=filter method=get action='/contests/{c}/jury/submissions'>\
         team <select name=team>{}</select> problem <select name=problem>{}</select> \
         language <select name=language>{}</select> verdict <select name=verdict>{}</select> \
         <button id=filter-send>Filter</button></form>\
         <div id=list>{list}</div>\
         <script>async function again(){{try{{const r=await fetch({live:?},{{credentials:'same-origin'}});\
         if(r.ok)document.getElementById('list').innerHTML=await r.text();}}catch(e){{}}}}\
         if(window.EventSource){{const es=new EventSource('/contests/{c}/live');es.addEventListener('change',again);}}</script>",
        options(&teams, &query.team),
        options(&problems, &query.problem),
        options(&languages, &query.language),
        options(&verdicts, &query.verdict),
        c = esc(&cid),
    );
    page("submissions", &body).into_response()
}

/// The first `limit` bytes of `path` as text (a character cut at the end dropped), and
/// whether there was more.
fn head_of(path: &std::path::Path, limit: usize) -> (String, bool) {
    use std::io::Read;
    let mut bytes = Vec::new();
    let more = match std::fs::File::open(path) {
        Ok(file) => {
            let _ = file.take(limit as u64 + 1).read_to_end(&mut bytes);
            bytes.len() > limit
        }
        Err(_) => return (format!("({} cannot be read)", path.display()), false),
    };
    bytes.truncate(limit);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (text, more)
}

/// The lines where `got` differs from `expected` (at most [`DIFF_LINES`]), numbered
/// from 1, compared after trimming each line's trailing spaces.
pub fn line_diff(expected: &str, got: &str) -> Vec<(usize, String, String)> {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    (0..a.len().max(b.len()))
        .filter_map(|i| {
            let x = a.get(i).map(|l| l.trim_end());
            let y = b.get(i).map(|l| l.trim_end());
            (x != y).then(|| {
                let show = |l: Option<&str>| l.map_or("(no line)".to_owned(), str::to_owned);
                (i + 1, show(x), show(y))
            })
        })
        .take(DIFF_LINES)
        .collect()
}

fn pre(id: &str, text: &str, more: bool) -> String {
    let cut = if more {
        format!(" <i>(the first {SHOWN_BYTES} bytes)</i>")
    } else {
        String::new()
    };
    format!("<pre id={id}>{}</pre>{cut}", esc(text))
}

/// The first failed run of `runs` with its test's input, answer and output, and a diff.
fn failed_test(contest: &Contest, problem_id: &str, runs: &[JuryRun]) -> String {
    let Some(failed) = runs.iter().find(|r| r.detail.output_head.is_some()) else {
        return String::new();
    };
    let case = contest.problem(problem_id).and_then(|p| {
        p.problem
            .test_cases()
            .into_iter()
            .find(|c| c.name == failed.detail.test_name)
            .cloned()
    });
    let output = failed.detail.output_head.clone().unwrap_or_default();
    let Some(case) = case else {
        return format!(
            "<h3>First failed test: {}</h3><p>Its files are not in the package as served.</p>{}",
            esc(&failed.detail.test_name),
            pre(
                "output",
                &output,
                output.len() >= judge::grade::OUTPUT_KEPT_BYTES
            )
        );
    };
    let (input, input_more) = head_of(&case.input, SHOWN_BYTES);
    let (answer, answer_more) = head_of(&case.answer, SHOWN_BYTES);
    let diff: String = line_diff(&answer, &output)
        .iter()
        .map(|(n, want, got)| {
            format!(
                "<tr><td>{n}</td><td>{}</td><td>{}</td></tr>",
                esc(want),
                esc(got)
            )
        })
        .collect();
    format!(
        "<h3>First failed test: {} ({})</h3><p>{}</p>\
         <h4>Input</h4>{}<h4>Expected answer</h4>{}<h4>The program's output</h4>{}\
         <h4>Lines that differ</h4><table id=diff><tr><th>line</th><th>expected</th><th>output</th></tr>{diff}</table>",
        esc(&failed.detail.test_name),
        esc(failed.run.verdict.clics_id()),
        esc(&failed.detail.message),
        pre("input", &input, input_more),
        pre("answer", &answer, answer_more),
        pre(
            "output",
            &output,
            output.len() >= judge::grade::OUTPUT_KEPT_BYTES
        ),
    )
}

/// The per-test table of one judgement.
fn runs_table(runs: &[JuryRun]) -> String {
    let rows: String = runs
        .iter()
        .map(|r| {
            format!(
                "<tr><td>{}</td><td>{}</td><td class='verdict {v}'>{v}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td><td>{}</td></tr>",
                r.run.ordinal,
                esc(&r.detail.test_name),
                r.run.run_time,
                r.detail.wall_time,
                r.detail.memory_kib,
                esc(&r.detail.message),
                v = esc(r.run.verdict.clics_id()),
            )
        })
        .collect();
    format!(
        "<table class=runs><tr><th>#</th><th>test</th><th>verdict</th><th>CPU s</th><th>wall s</th><th>memory KiB</th><th>message</th></tr>{rows}</table>"
    )
}

/// Every judgement's verdict per test, side by side (a rejudged submission's history).
fn side_by_side(judgements: &[(JudgementRow, Vec<JuryRun>)]) -> String {
    let longest = judgements.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    let head: String = judgements
        .iter()
        .map(|(j, _)| {
            format!(
                "<th>judgement {} ({})</th>",
                esc(&j.id),
                esc(j.verdict.clics_id())
            )
        })
        .collect();
    let rows: String = (0..longest)
        .map(|i| {
            let test = judgements
                .iter()
                .find_map(|(_, runs)| runs.get(i))
                .map_or(String::new(), |r| esc(&r.detail.test_name));
            let cells: String = judgements
                .iter()
                .map(|(_, runs)| {
                    runs.get(i).map_or("<td>not run</td>".to_owned(), |r| {
                        format!(
                            "<td class='verdict {0}'>{0}</td>",
                            esc(r.run.verdict.clics_id())
                        )
                    })
                })
                .collect();
            format!("<tr><td>{}</td><td>{test}</td>{cells}</tr>", i + 1)
        })
        .collect();
    format!(
        "<h3>Judgements side by side</h3><table id=judgements><tr><th>#</th><th>test</th>{head}</tr>{rows}</table>"
    )
}

async fn submission(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let (viewer, session) = who(&state, &contest, &headers).await;
    if viewer != Viewer::Admin {
        return to_login(&cid);
    }
    let found = async {
        let subs = state.store.submissions(&cid, &Viewer::Admin).await?;
        let sub = subs
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no submission `{id}`")))?;
        let mut judgements = Vec::new();
        for j in state.store.judgements(&cid).await? {
            if j.submission_id == id {
                let runs = state.store.jury_runs(&cid, &j.id).await?;
                let log = state.store.compile_log(&cid, &j.id).await?;
                judgements.push((j, runs, log));
            }
        }
        Ok::<_, ApiError>((sub, judgements))
    }
    .await;
    let (sub, judgements) = match found {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let newest = judgements.last();
    let verdict = newest.map_or("pending", |(j, _, _)| j.verdict.clics_id());
    let compile = newest.map_or(String::new(), |(_, _, log)| {
        if log.is_empty() {
            "<p>The compiler said nothing.</p>".to_owned()
        } else {
            format!(
                "<h3>The compiler's output</h3>{}",
                pre("compile-log", log, false)
            )
        }
    });
    let runs = newest.map_or(String::new(), |(_, runs, _)| {
        format!(
            "{}{}",
            runs_table(runs),
            failed_test(&contest, &sub.problem_id, runs)
        )
    });
    let history = if judgements.len() > 1 {
        let pairs: Vec<(JudgementRow, Vec<JuryRun>)> = judgements
            .iter()
            .map(|(j, r, _)| (j.clone(), r.clone()))
            .collect();
        side_by_side(&pairs)
    } else {
        String::new()
    };
    let body = format!(
        "<p><a href='/contests/{cide}'>back to the contest</a></p><h1>Submission {ide}</h1>\
         <p>Team <b id=team>{}</b>, problem <b>{}</b>, {}, at {} of the contest: <b id=verdict class='verdict {v}'>{v}</b>.</p>\
         <form method=post action='/contests/{cide}/rejudge'><input type=hidden name=submission value='{ide}'><button id=rejudge>Rejudge</button></form>\
         <h3>Source</h3>{}{compile}<h3>Tests (the newest judgement)</h3>{runs}{history}",
        esc(&sub.team_id),
        esc(&sub.problem_id),
        esc(&sub.language_id),
        esc(&RelTime::from_millis(sub.contest_time_ms).to_string()),
        pre("source", &sub.source, false),
        cide = esc(&cid),
        ide = esc(&id),
        v = esc(verdict),
    );
    page(
        &format!("submission {id}"),
        &forms_for(&body, session.as_ref()),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_lists_the_lines_that_differ() {
        assert!(line_diff("1\n2\n", "1  \n2").is_empty(), "trailing spaces");
        assert_eq!(
            line_diff("1\n2\n3\n", "1\n5\n"),
            [
                (2, "2".to_owned(), "5".to_owned()),
                (3, "3".to_owned(), "(no line)".to_owned())
            ]
        );
        let long_a = "a\n".repeat(100);
        let long_b = "b\n".repeat(100);
        assert_eq!(line_diff(&long_a, &long_b).len(), DIFF_LINES);
    }
}

/// The clarifications' inbox.
async fn clarifications(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let (viewer, session) = who(&state, &contest, &headers).await;
    if viewer != Viewer::Admin {
        return to_login(&cid);
    }
    let all = match state.store.clarifications(&cid, &Viewer::Admin).await {
        Ok(all) => all,
        Err(e) => return error_page(e.into()),
    };
    let handled = contest.jury.get().handled.clone();
    let c = esc(&cid);
    let about = |problem: &Option<String>| {
        problem.as_deref().map_or("general".to_owned(), |p| {
            contest.problem(p).map_or(p.to_owned(), |p| p.label.clone())
        })
    };
    let mut open = String::new();
    let mut closed = String::new();
    for q in all.iter().filter(|q| q.from_team_id.is_some()) {
        let answers: Vec<_> = all
            .iter()
            .filter(|a| a.reply_to_id.as_deref() == Some(q.id.as_str()))
            .collect();
        let team = q.from_team_id.clone().unwrap_or_default();
        let head = format!(
            "<p><b>{}</b> ({}, {}) asked: {}</p>",
            esc(&team),
            esc(&about(&q.problem_id)),
            esc(&RelTime::from_millis(q.contest_time_ms).to_string()),
            esc(&q.text)
        );
        if answers.is_empty() && !handled.contains(&q.id) {
            open.push_str(&format!(
                "<div class=question id=q-{i}>{head}\
                 <form method=post action='/contests/{c}/clarify'><input type=hidden name=reply_to value='{i}'>\
                 <input type=hidden name=problem value='{p}'>\
                 <select name=to><option value='{t}'>to {t} only</option><option value=''>to everyone</option></select><br>\
                 <textarea name=text rows=2 cols=70></textarea><br><button>Answer</button></form>\
                 <form method=post action='/contests/{c}/jury/clarifications/{i}/handled'><button id=handled-{i}>Mark handled, no answer</button></form></div>",
                i = esc(&q.id),
                p = esc(q.problem_id.as_deref().unwrap_or("")),
                t = esc(&team),
            ));
        } else {
            let replies: String = if answers.is_empty() {
                "<p><i>Handled without an answer.</i></p>".to_owned()
            } else {
                answers
                    .iter()
                    .map(|a| {
                        format!(
                            "<p>Answered {}: {}</p>",
                            a.to_team_id
                                .as_deref()
                                .map_or("to everyone".to_owned(), |t| format!("to {}", esc(t))),
                            esc(&a.text)
                        )
                    })
                    .collect()
            };
            closed.push_str(&format!(
                "<div class=answered id=q-{}>{head}{replies}</div>",
                esc(&q.id)
            ));
        }
    }
    if open.is_empty() {
        open = "<p>No question waits for an answer.</p>".to_owned();
    }
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a></p><h1>Clarifications</h1>\
         <h2>Waiting for an answer</h2><div id=unanswered>{open}</div>\
         <h2>Answered or handled</h2><div id=answered>{closed}</div>"
    );
    page("clarifications", &forms_for(&body, session.as_ref())).into_response()
}

/// The "handled" button's form: the session's CSRF token.
#[derive(Deserialize)]
struct HandledForm {
    #[serde(default)]
    csrf: String,
}

async fn mark_handled(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<HandledForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let done = crate::actions::mark_handled(&state, &contest, &viewer, "jury (web)", &id).await;
    match done {
        Ok(()) => axum::response::Redirect::to(&format!("/contests/{cid}/jury/clarifications"))
            .into_response(),
        Err(e) => after_form(&cid, Err::<(), _>(e)),
    }
}
