//! The jury's rejudging pages: `/contests/{cid}/jury/rejudgings` has the form (one
//! submission, or every judged submission of a problem, a team or a verdict, the fields
//! given all matching) and the contest's rejudgings, newest first; each rejudging's page
//! (`.../rejudgings/{id}`) shows per submission the verdict before and after and whether
//! it changed, with a summary line, kept live by the page's event stream (its table
//! fetched again with `part=list`) and right on a reload.
//!
//! A rejudging from here is the API's (`operations::rejudge`): recorded with its audit
//! line, then its page is where the form's answer leads.

use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

use super::{Shared, for_the_jury, options};
use crate::clics;
use crate::contest::Contest;
use crate::error::ApiError;
use crate::operations::{self, RejudgeRequest};
use crate::routes::web::{error_page, esc, forms_for, page, posted};
use crate::state::AppState;
use crate::store::{After, RejudgedRow};

/// The routes of the rejudging pages.
pub(super) fn router() -> Router<Shared> {
    Router::new()
        .route(
            "/contests/{cid}/jury/rejudgings",
            get(rejudgings).post(new_rejudging),
        )
        .route("/contests/{cid}/jury/rejudgings/{id}", get(rejudging))
}

/// The rejudging form: the fields given (empty: any) must all match.
#[derive(Deserialize)]
struct RejudgeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    submission: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    team: String,
    #[serde(default)]
    verdict: String,
}

/// `Some(text)` unless `text` is blank.
fn given(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The form and the list of the contest's rejudgings.
async fn rejudgings(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let done = match state.store.rejudgings(&cid).await {
        Ok(done) => done,
        Err(e) => return error_page(e.into()),
    };
    let c = esc(&cid);
    let lines: String = done
        .iter()
        .map(|r| {
            format!(
                "<tr class=rejudging><td><a href='/contests/{c}/jury/rejudgings/{id}'>{id}</a></td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&clics::time_of_ms(r.time_ms).to_string()),
                esc(&r.actor),
                esc(&r.what),
                r.taken,
                id = r.seq,
            )
        })
        .collect();
    let list = if done.is_empty() {
        "<p id=rejudgings>No rejudging yet.</p>".to_owned()
    } else {
        format!(
            "<table id=rejudgings><tr><th>id</th><th>when</th><th>who</th><th>what</th>\
             <th>submissions</th></tr>{lines}</table>"
        )
    };
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
    let verdicts: Vec<(String, String)> = clics::judgement_types()
        .iter()
        .map(|j| (j.id.clone(), format!("{} {}", j.id, j.name)))
        .collect();
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a> &middot; \
         <a href='/contests/{c}/jury/submissions'>submissions</a></p><h1>Rejudging</h1>\
         <form id=rejudge-new method=post action='/contests/{c}/jury/rejudgings'>\
         submission <input name=submission id=rejudge-submission size=8> \
         problem <select name=problem id=rejudge-problem>{}</select> \
         team <select name=team id=rejudge-team>{}</select> \
         verdict <select name=verdict id=rejudge-verdict>{}</select> \
         <button id=rejudge-send>Rejudge</button></form>\
         <p>Every judged submission matching all the fields given is judged again; the new \
         judgement counts. The rejudging's page then shows what changed.</p>\
         <h2>Rejudgings</h2>{list}",
        options(&problems, ""),
        options(&teams, ""),
        options(&verdicts, ""),
    );
    page("rejudgings", &forms_for(&body, session.as_ref())).into_response()
}

/// Starts a rejudging from the form: to its page when it took any submission, else the
/// page saying that nothing matched.
async fn new_rejudging(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<RejudgeForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let request = RejudgeRequest {
        submission_id: given(&form.submission),
        problem_id: given(&form.problem),
        team_id: given(&form.team),
        judgement_type_id: given(&form.verdict),
    };
    let what = request.describe();
    match operations::rejudge(&state, &contest, &viewer, "jury (web)", request).await {
        Ok(done) => match done.id {
            Some(id) => {
                Redirect::to(&format!("/contests/{cid}/jury/rejudgings/{id}")).into_response()
            }
            None => error_page(ApiError::new(
                StatusCode::CONFLICT,
                format!("no judged submission matches {what}: nothing was rejudged"),
            )),
        },
        Err(e) => error_page(e),
    }
}

/// `part=list`: the live part alone.
#[derive(Debug, Default, Deserialize)]
struct PartQuery {
    #[serde(default)]
    part: String,
}

/// What one submission's row says after the rejudging: the new verdict (or pending) and
/// whether it changed.
fn outcome(row: &RejudgedRow) -> (String, &'static str) {
    match row.after() {
        After::Pending => ("pending".to_owned(), "pending"),
        After::Judged { verdict, .. } if verdict == row.old_verdict => (verdict, "same"),
        After::Judged { verdict, .. } => (verdict, "changed"),
    }
}

/// The live part of a rejudging's page: the summary and the table.
fn results_html(contest: &Contest, rows: &[RejudgedRow]) -> String {
    let cid = esc(&contest.spec.id);
    let label = |problem: &str| {
        contest
            .problem(problem)
            .map_or(problem.to_owned(), |p| p.label.clone())
    };
    let pending = rows.iter().filter(|r| r.after() == After::Pending).count();
    let changed = rows.iter().filter(|r| r.changed()).count();
    let lines: String = rows
        .iter()
        .map(|r| {
            let (after, how) = outcome(r);
            format!(
                "<tr class='rejudged {how}' id=rejudged-{i}><td><a href='/contests/{cid}/jury/submissions/{i}'>{i}</a></td>\
                 <td>{}</td><td>{}</td><td class='verdict {b}'>{b}</td><td class='verdict {a}'>{a}</td><td>{how}</td></tr>",
                esc(&r.team_id),
                esc(&label(&r.problem_id)),
                i = esc(&r.submission_id),
                b = esc(&r.old_verdict),
                a = esc(&after),
            )
        })
        .collect();
    format!(
        "<p id=summary>{} submission(s): {} judged again, {pending} pending; {changed} changed verdict.</p>\
         <table id=rejudged><tr><th>submission</th><th>team</th><th>problem</th><th>before</th>\
         <th>after</th><th></th></tr>{lines}</table>",
        rows.len(),
        rows.len() - pending,
    )
}

/// One rejudging's page: per submission the verdict before and after.
async fn rejudging(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    Query(query): Query<PartQuery>,
    headers: HeaderMap,
) -> Response {
    let (contest, _session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let (found, rows) = match read(&state, &cid, &id).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let results = results_html(&contest, &rows);
    if query.part == "list" {
        return Html(results).into_response();
    }
    let c = esc(&cid);
    let live = format!("/contests/{cid}/jury/rejudgings/{}?part=list", found.seq);
    let body = format!(
        "<p><a href='/contests/{c}/jury/rejudgings'>every rejudging</a> &middot; \
         <a href='/contests/{c}'>back to the contest</a></p><h1>Rejudging {}</h1>\
         <p id=what>{} by {} at {}.</p><div id=results>{results}</div>\
         <script>async function again(){{try{{const r=await fetch({live:?},{{credentials:'same-origin'}});\
         if(r.ok)document.getElementById('results').innerHTML=await r.text();}}catch(e){{}}}}\
         if(window.EventSource){{const es=new EventSource('/contests/{c}/live');es.addEventListener('change',again);}}</script>",
        found.seq,
        esc(&found.what),
        esc(&found.actor),
        esc(&clics::time_of_ms(found.time_ms).to_string()),
    );
    page(&format!("rejudging {}", found.seq), &body).into_response()
}

/// Rejudging `id` of `cid` and its rows, or 404 naming it.
async fn read(
    state: &AppState,
    cid: &str,
    id: &str,
) -> Result<(crate::store::RejudgingRow, Vec<RejudgedRow>), ApiError> {
    let missing = || ApiError::not_found(format!("no rejudging `{id}`"));
    let seq: i64 = id.parse().map_err(|_| missing())?;
    state.store.rejudging(cid, seq).await?.ok_or_else(missing)
}
