//! The jury's pages under `/contests/{cid}/jury/` (the jury's session only; anyone else
//! is sent to the login): the submissions (newest first, filtered by team, problem,
//! language and verdict, a page at a time, one query whatever the contest's size, kept
//! live by the page's event stream); the clarifications' inbox (the teams' questions not
//! answered yet, each with an answer form and a "handled" button, then those answered or
//! handled with their answers); the reveal (the frozen board resolved one cell at a time
//! from the last place up, ICPC Resolver style, on a page for a projector, driven by a key
//! or a click; it ends by thawing the public board, which the jury may also do at once);
//! one submission, with its source, each judgement's compiler
//! output and per-test results (the judgements of a rejudged submission side by side),
//! and for the newest judgement's first failed test its input, the expected answer and
//! the program's output, each cut to [`SHOWN_BYTES`], with a line diff; the rejudging
//! pages (`rejudgings`: the form, the list, and what each rejudging changed); the
//! contest control with the audit log (`control`); the teams (`teams`: add, paste or
//! upload an import, disable, the token sheet); the problems (`problems`: upload a
//! package as a zip and read what the judge's loader found in it).

use axum::Router;
use axum::extract::Form;
use axum::extract::Multipart;
use axum::extract::multipart::{MultipartError, MultipartRejection};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use leaderboard::clics::RelTime;
use serde::Deserialize;

use super::web::{CsrfForm, after_form, error_page, esc, forms_for, page, posted, to_login, who};
use super::{Shared, contest_of};
use crate::contest::Contest;
use crate::error::ApiError;
use crate::session;
use crate::state::AppState;
use crate::store::{JudgementRow, JuryRun, SubmissionFilter};
use crate::viewer::Viewer;

mod control;
mod problems;
mod rejudgings;
mod teams;

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
        .route("/contests/{cid}/jury/reveal", get(reveal))
        .route(
            "/contests/{cid}/jury/clarifications/{id}/handled",
            post(mark_handled),
        )
        .merge(rejudgings::router())
        .merge(control::router())
        .merge(teams::router())
        .merge(problems::router())
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
    let (contest, _session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
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

/// The contest `cid` and the jury's session, or the answer for anyone else: the error
/// page for an unknown contest, the login (303) for a request without a jury session.
async fn for_the_jury(
    state: &crate::state::AppState,
    cid: &str,
    headers: &HeaderMap,
) -> Result<(std::sync::Arc<Contest>, Option<crate::session::Session>), Response> {
    let contest = contest_of(state, cid).map_err(error_page)?;
    let (viewer, session) = who(state, &contest, headers).await;
    if viewer != Viewer::Admin {
        return Err(to_login(cid));
    }
    Ok((contest, session))
}

/// One uploaded file of a multipart form: its name and bytes.
pub(crate) struct Uploaded {
    /// The name the browser gave (empty when none).
    pub(crate) name: String,
    /// Its content.
    pub(crate) bytes: Vec<u8>,
}

/// Reads a multipart form posted by the jury: the session's CSRF token checked (403 for
/// a form without it or with another: a request that is not multipart at all reads as
/// one without it) and the file field `file`, refused over `limit` bytes naming the
/// limit; answers the contest and the file.
pub(crate) async fn jury_upload(
    state: &AppState,
    cid: &str,
    headers: &HeaderMap,
    form: Result<Multipart, MultipartRejection>,
    limit: usize,
) -> Result<(std::sync::Arc<Contest>, Uploaded), ApiError> {
    let contest = contest_of(state, cid)?;
    let (viewer, session) = who(state, &contest, headers).await;
    let Some(session) = session.filter(|_| viewer == Viewer::Admin) else {
        return Err(ApiError::forbidden("only the jury uploads; log in first"));
    };
    let refused =
        || ApiError::forbidden("the form's CSRF token is not this session's: reload the page");
    let mut form = form.map_err(|_| refused())?;
    let mut csrf = None;
    let mut file = None;
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => return Err(upload_error(&e, "the form", state.max_body)),
        };
        match field.name().unwrap_or_default() {
            "csrf" => csrf = Some(field.text().await.unwrap_or_default()),
            "file" => {
                let name = field.file_name().unwrap_or_default().to_owned();
                let mut field = field;
                let mut bytes = Vec::new();
                loop {
                    match field.chunk().await {
                        Ok(Some(chunk)) => {
                            if bytes.len() + chunk.len() > limit {
                                return Err(ApiError::new(
                                    http::StatusCode::PAYLOAD_TOO_LARGE,
                                    format!("`{name}`: larger than the limit of {limit} bytes"),
                                ));
                            }
                            bytes.extend_from_slice(&chunk);
                        }
                        Ok(None) => break,
                        Err(e) => return Err(upload_error(&e, &name, state.max_body)),
                    }
                }
                file = Some(Uploaded { name, bytes });
            }
            _ => {}
        }
    }
    let csrf = csrf.ok_or_else(refused)?;
    session::check_csrf(Some(&session), &csrf)?;
    let file = file
        .filter(|f| !f.name.is_empty() || !f.bytes.is_empty())
        .ok_or_else(|| ApiError::bad_request("no file was chosen"))?;
    Ok((contest, file))
}

/// The answer to a multipart form that could not be read: 413 naming the server's body
/// limit when the request was over it, else 400 naming `what`.
fn upload_error(e: &MultipartError, what: &str, max_body: usize) -> ApiError {
    if e.status() == http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            http::StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "`{what}`: the request is larger than the server's limit of {max_body} bytes \
                 (judge serve --max-body)"
            ),
        )
    } else {
        ApiError::bad_request(format!("the upload of `{what}`: {e}"))
    }
}

/// The first `limit` bytes of `path` as text, and whether there was more; a file that
/// cannot be read shows as a line saying so.
fn head_of(path: &std::path::Path, limit: usize) -> (String, bool) {
    judge::grade::read_head(path, limit)
        .unwrap_or_else(|e| (format!("({} cannot be read: {e})", path.display()), false))
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
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let found = async {
        let sub = state
            .store
            .submission(&cid, &id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no submission `{id}`")))?;
        let mut judgements = Vec::new();
        for j in state.store.judgements_of(&cid, &id).await? {
            let runs = state.store.jury_runs(&cid, &j.id).await?;
            let log = state.store.compile_log(&cid, &j.id).await?;
            judgements.push((j, runs, log));
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
         <form id=rejudge-one method=post action='/contests/{cide}/jury/rejudgings'><input type=hidden name=submission value='{ide}'><button id=rejudge>Rejudge</button></form>\
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

/// The clarifications' inbox.
async fn clarifications(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
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

async fn mark_handled(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
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

/// The cells of a board's rows for the reveal: `{team, cells: [{solved, time, judged,
/// pending}]}`, in the board's order.
fn reveal_rows(board: &leaderboard::clics::Scoreboard) -> serde_json::Value {
    serde_json::Value::Array(
        board
            .rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "team": r.team_id,
                    "cells": r.problems.iter().map(|c| serde_json::json!({
                        "solved": c.solved.unwrap_or(false),
                        "time": c.time,
                        "judged": c.num_judged,
                        "pending": c.num_pending,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// The reveal's page: the public (frozen) board and the jury's (final) board as data, and
/// a script that resolves the frozen cells one at a time, each key press or click one
/// step: the lowest-placed team with a cell still hidden has its leftmost such cell shown
/// as it ended, and the rows are ordered again (solved, then penalty, then the earlier
/// last accept). The thaw button ends it (or skips it) by thawing the public board.
async fn reveal(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let c = esc(&cid);
    let now = chrono::Utc::now();
    let schedule = contest.schedule();
    if now < schedule.end || !schedule.frozen_at(now) {
        let why = if now < schedule.end {
            "The contest has not ended."
        } else {
            "The public board is not frozen: there is nothing to reveal."
        };
        let body = format!(
            "<p><a href='/contests/{c}'>back to the contest</a></p><h1>Reveal</h1><p id=nothing>{why}</p>"
        );
        return page("reveal", &body).into_response();
    }
    let boards = async {
        let frozen = state.board(&contest, &Viewer::Public).await?;
        let full = state.board(&contest, &Viewer::Admin).await?;
        Ok::<_, crate::error::ServerError>((frozen, full))
    }
    .await;
    let (frozen, full) = match boards {
        Ok(b) => b,
        Err(e) => return error_page(e.into()),
    };
    let teams: serde_json::Map<String, serde_json::Value> = contest
        .teams()
        .iter()
        .map(|t| (t.id.clone(), t.name.clone().into()))
        .collect();
    let data = serde_json::json!({
        "penalty": contest.spec.penalty_minutes,
        "problems": contest.problems.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
        "teams": teams,
        "frozen": reveal_rows(&frozen.board),
        "final": reveal_rows(&full.board),
    });
    // As JSON inside a script element: `<` written as \u003c so no text can end it.
    let data = data.to_string().replace('<', "\\u003c");
    let body = format!(
        "<style>body{{max-width:none;font-size:1.3em}}#reveal td.hidden{{background:#ffd}}#reveal td.now{{outline:3px solid #c00}}\
         #reveal td.yes{{background:#cfc}}#reveal td.no{{background:#fcc}}</style>\
         <p><a href='/contests/{c}'>back to the contest</a> &middot; space, the right arrow or a click: the next step</p>\
         <h1>{} &mdash; the reveal</h1><p id=status></p><table id=reveal></table>\
         <form id=thaw method=post action='/contests/{c}/jury/control'><input type=hidden name=action value=thaw>\
         <input type=hidden name=confirm value=yes><button id=thaw-send>Thaw the public board</button></form>\
         <script type=application/json id=reveal-data>{data}</script>\
         <script>\
         const D=JSON.parse(document.getElementById('reveal-data').textContent);\
         const fin={{}};for(const r of D.final)fin[r.team]=r.cells;\
         const rows=D.frozen.map(r=>({{team:r.team,cells:r.cells.map(c=>Object.assign({{}},c,{{hidden:c.pending>0}}))}}));\
         let now=null;\
         function score(r){{let n=0,p=0,last=0;r.cells.forEach(c=>{{if(c.solved&&!c.hidden){{n++;p+=c.time+D.penalty*(c.judged-1);last=Math.max(last,c.time);}}}});return [n,p,last];}}\
         function order(){{rows.sort((a,b)=>{{const x=score(a),y=score(b);return y[0]-x[0]||x[1]-y[1]||x[2]-y[2]||(a.team<b.team?-1:1);}});}}\
         function draw(){{let h='<tr><th>#</th><th>team</th><th>solved</th><th>time</th>'+D.problems.map(p=>'<th>'+p+'</th>').join('')+'</tr>';\
         rows.forEach((r,i)=>{{const s=score(r);h+='<tr id=row-'+r.team+'><td>'+(i+1)+'</td><td>'+(D.teams[r.team]||r.team).replace(/&/g,'&amp;').replace(/</g,'&lt;')+'</td><td>'+s[0]+'</td><td>'+s[1]+'</td>'+\
         r.cells.map((c,j)=>{{const cls=(c.hidden?'hidden':c.solved?'yes':c.judged?'no':'')+(now&&now[0]===r.team&&now[1]===j?' now':'');\
         const t=c.hidden?'?':c.solved?'+'+(c.judged>1?c.judged-1:'')+' '+c.time:c.judged?'-'+c.judged:'';return '<td class=\\''+cls+'\\'>'+t+'</td>';}}).join('')+'</tr>';}});\
         document.getElementById('reveal').innerHTML=h;\
         const left=rows.reduce((n,r)=>n+r.cells.filter(c=>c.hidden).length,0);\
         document.getElementById('status').textContent=left?left+' cells to reveal':'Every cell is revealed: thaw the public board.';}}\
         function step(){{if(now){{const r=rows.find(r=>r.team===now[0]);const f=fin[r.team][now[1]];Object.assign(r.cells[now[1]],f,{{hidden:false}});now=null;order();draw();return;}}\
         for(let i=rows.length-1;i>=0;i--){{const j=rows[i].cells.findIndex(c=>c.hidden);if(j>=0){{now=[rows[i].team,j];draw();return;}}}}}}\
         document.addEventListener('keydown',e=>{{if(e.key===' '||e.key==='ArrowRight'){{e.preventDefault();step();}}}});\
         document.getElementById('reveal').addEventListener('click',step);\
         order();draw();\
         </script>",
        esc(&contest.spec.name),
    );
    page("reveal", &forms_for(&body, session.as_ref())).into_response()
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
