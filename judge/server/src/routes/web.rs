//! The web page for humans, rendered on the server: the contest list, a contest's
//! problems and statements (Markdown to HTML), a login form (the team token, kept in an
//! HTTP-only cookie), a submit form, the team's submissions with verdicts as they arrive
//! and its clarifications (with a form to ask the jury),
//! and the live scoreboard. The two live parts are HTML fragments that a few lines of
//! script fetch again when the server says something changed: the page holds a
//! server-sent-events stream (`/contests/{cid}/live`) that sends one `change` per batch
//! of events the viewer may see (from the in-memory broadcast, no query per viewer);
//! without script the page still works on reload. The board fragment is rendered from
//! the board kept in memory.
//!
//! The page speaks through the same modules as the API (`auth`, `submit`, `board`), so
//! the rules (auth, freeze, limits, windows) are the same.

use std::collections::HashMap;

use axum::Router;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use leaderboard::clics::{RelTime, RowScore, ScoreboardProblem};
use serde::Deserialize;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::{Shared, contest_of};
use crate::auth::{self, Credential, TOKEN_COOKIE, Viewer};
use crate::board;
use crate::clics;
use crate::contest::{Contest, reltime, time};
use crate::error::ApiError;
use crate::operations::{self, PostClarification};
use crate::state::AppState;
use crate::statement;
use crate::store::QueueState;
use crate::submit::{self, PostSubmission};

/// The routes of the web page.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/", get(index))
        .route("/contests/{cid}", get(contest_page))
        .route("/contests/{cid}/problems/{pid}", get(statement))
        .route("/contests/{cid}/login", post(login))
        .route("/contests/{cid}/logout", post(logout))
        .route("/contests/{cid}/submit", post(submit))
        .route("/contests/{cid}/mine", get(mine_fragment))
        .route("/contests/{cid}/board", get(board_fragment))
        .route("/contests/{cid}/live", get(live_changes))
        .route("/contests/{cid}/clarify", post(clarify))
}

/// Escapes text for HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>{}</title>\
         <style>body{{font-family:sans-serif;max-width:60em;margin:1em auto}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:.2em .5em}}.AC{{color:#080}}.pending{{color:#888}}</style>\
         </head><body>{body}</body></html>",
        esc(title)
    ))
}

/// Who is calling, from the page's cookie; a token no one holds is the public.
fn who(state: &AppState, contest: &Contest, headers: &HeaderMap) -> Viewer {
    let cookies = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok());
    let credential = Credential::from_cookies(cookies);
    auth::viewer(state, Some(contest), credential.as_ref()).unwrap_or(Viewer::Public)
}

#[allow(clippy::needless_pass_by_value)] // used as `Err(e) => error_page(e)`
fn error_page(err: ApiError) -> Response {
    let status = err.status;
    let body = format!(
        "<h1>{}</h1><p id=error>{}</p><p><a href='javascript:history.back()'>back</a></p>",
        status.as_u16(),
        esc(&err.message)
    );
    (status, page("error", &body)).into_response()
}

async fn index(State(state): State<Shared>) -> Html<String> {
    let items: String = state
        .all_contests()
        .iter()
        .map(|c| {
            format!(
                "<li><a href='/contests/{0}'>{1}</a></li>",
                esc(&c.spec.id),
                esc(&c.spec.name)
            )
        })
        .collect();
    page("Contests", &format!("<h1>Contests</h1><ul>{items}</ul>"))
}

async fn contest_page(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let viewer = who(&state, &contest, &headers);
    let problems: String = contest
        .problems
        .iter()
        .map(|p| {
            format!(
                "<tr><td>{}</td><td><a href='/contests/{}/problems/{}'>{}</a></td><td>{} s</td></tr>",
                esc(&p.label),
                esc(&cid),
                esc(&p.id),
                esc(&p.problem.name),
                p.problem.limits.time.as_secs_f64()
            )
        })
        .collect();
    let team_part = match &viewer {
        Viewer::Team(team) => {
            let options: String = contest
                .problems
                .iter()
                .map(|p| {
                    format!(
                        "<option value='{}'>{} {}</option>",
                        esc(&p.id),
                        esc(&p.label),
                        esc(&p.problem.name)
                    )
                })
                .collect();
            let langs: String = clics::languages(&contest)
                .iter()
                .map(|l| {
                    let id = l.id.as_str();
                    format!("<option value='{}'>{}</option>", esc(id), esc(&l.name))
                })
                .collect();
            format!(
                "<p>Logged in as <b id=team>{}</b> <form method=post action='/contests/{cid}/logout' style=display:inline>\
                 <button>log out</button></form></p>\
                 <h2>Submit</h2><form id=submit method=post action='/contests/{cid}/submit'>\
                 <select name=problem id=problem>{options}</select> <select name=language id=language>{langs}</select><br>\
                 <textarea name=source id=source rows=12 cols=80></textarea><br><button id=send>Submit</button></form>\
                 <h2>Your submissions and clarifications</h2><div id=mine>{}</div>\
                 <h3>Ask the jury</h3><form id=clarify method=post action='/contests/{cid}/clarify'>\
                 <select name=problem id=clar-problem><option value=''>general</option>{options}</select><br>\
                 <textarea name=text id=clar-text rows=3 cols=80></textarea><br><button id=ask>Ask</button></form>",
                esc(team),
                mine_html(&state, &contest, &viewer).await
            )
        }
        _ => format!(
            "<h2>Log in</h2><form id=login method=post action='/contests/{cid}/login'>\
             <input type=password name=token id=token placeholder='team token'> <button id=enter>Log in</button></form>"
        ),
    };
    let board = board_html(&state, &contest, &viewer).await;
    let body = format!(
        "<h1>{}</h1><p>Starts {} and lasts {}.</p><h2>Problems</h2><table><tr><th></th><th>Problem</th><th>Time limit</th></tr>{problems}</table>\
         {team_part}<h2>Scoreboard</h2><div id=board>{board}</div>\
         <script>\
         async function refresh(id, url){{const el=document.getElementById(id);if(!el)return;\
         try{{const r=await fetch(url,{{credentials:'same-origin'}});if(r.ok)el.innerHTML=await r.text();}}catch(e){{}}}}\
         function both(){{refresh('mine','/contests/{cid}/mine');refresh('board','/contests/{cid}/board');}}\
         if(window.EventSource){{const es=new EventSource('/contests/{cid}/live');\
         es.addEventListener('change',both);es.onopen=both;}}else{{setInterval(both,1000);}}\
         </script>",
        esc(&contest.spec.name),
        esc(&time(contest.spec.start_time).to_string()),
        esc(&reltime(contest.spec.duration).to_string()),
    );
    page(&contest.spec.name, &body).into_response()
}

async fn mine_html(state: &AppState, contest: &Contest, viewer: &Viewer) -> String {
    if !matches!(viewer, Viewer::Team(_)) {
        return String::new();
    }
    let Ok(subs) = state.store.submissions(&contest.spec.id, viewer).await else {
        return "<p>cannot read submissions</p>".into();
    };
    let judgements = state
        .store
        .judgements(&contest.spec.id)
        .await
        .unwrap_or_default();
    let rows: String = subs
        .iter()
        .rev()
        .map(|s| {
            let judged = match s.state {
                QueueState::Done => judgements.iter().rev().find(|j| j.submission_id == s.id),
                QueueState::Queued | QueueState::Judging => None,
            };
            let verdict = judged.map_or("pending", |j| j.verdict.clics_id());
            let label = contest.problem(&s.problem_id).map_or(s.problem_id.as_str(), |p| p.label.as_str());
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class='verdict {}'>{}</td></tr>",
                esc(&s.id),
                esc(&RelTime::from_millis(s.contest_time_ms).to_string()),
                esc(label),
                esc(&s.language_id),
                esc(verdict),
                esc(verdict)
            )
        })
        .collect();
    let clarifications = match state.store.clarifications(&contest.spec.id, viewer).await {
        Ok(list) => list
            .iter()
            .map(|c| {
                let from = if c.from_team_id.is_some() {
                    "you"
                } else {
                    "jury"
                };
                let about = c
                    .problem_id
                    .as_deref()
                    .and_then(|p| contest.problem(p))
                    .map_or("general", |p| p.label.as_str());
                format!(
                    "<tr class=clarification><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&RelTime::from_millis(c.contest_time_ms).to_string()),
                    from,
                    esc(about),
                    esc(&c.text)
                )
            })
            .collect::<String>(),
        Err(_) => "<tr><td colspan=4>cannot read clarifications</td></tr>".into(),
    };
    format!(
        "<table><tr><th>id</th><th>time</th><th>problem</th><th>language</th><th>verdict</th></tr>{rows}</table>\
         <table id=clarifications><tr><th>time</th><th>from</th><th>problem</th><th>text</th></tr>{clarifications}</table>"
    )
}

/// The board fragment `viewer` may see, rendered once per built board (kept beside its
/// JSON).
async fn board_html(state: &AppState, contest: &Contest, viewer: &Viewer) -> String {
    let Ok(ready) = board::ready(state, contest, viewer).await else {
        return "<p>cannot compute the scoreboard</p>".into();
    };
    ready
        .html
        .get_or_init(|| render_board(contest, &ready.board))
        .clone()
}

fn render_board(contest: &Contest, board: &leaderboard::clics::Scoreboard) -> String {
    let head: String = contest
        .problems
        .iter()
        .map(|p| format!("<th>{}</th>", esc(&p.label)))
        .collect();
    let names: HashMap<&str, &str> = contest
        .spec
        .teams
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str()))
        .collect();
    let rows: String = board
        .rows
        .iter()
        .map(|r| {
            let cells: String = r.problems.iter().map(cell).collect();
            let team = r.team_id.as_str();
            let score = match r.score {
                RowScore::Score { score, .. } => format!("{score}"),
                RowScore::PassFail {
                    num_solved,
                    total_time,
                    ..
                } => format!("{num_solved} ({total_time})"),
            };
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td>{cells}</tr>",
                r.rank,
                esc(names.get(team).copied().unwrap_or(team)),
                esc(&score)
            )
        })
        .collect();
    let frozen = if board.state.frozen.is_some() && board.state.thawed.is_none() {
        "<p>The scoreboard is frozen.</p>"
    } else {
        ""
    };
    format!("{frozen}<table><tr><th>#</th><th>Team</th><th>Score</th>{head}</tr>{rows}</table>")
}

fn cell(p: &ScoreboardProblem) -> String {
    let (judged, pending) = (p.num_judged, p.num_pending);
    let mut text = if p.solved == Some(true) {
        format!("+{}", judged.saturating_sub(1))
    } else if judged > 0 {
        format!("-{judged}")
    } else {
        String::new()
    };
    if pending > 0 {
        text.push_str(&format!(" ?{pending}"));
    }
    format!("<td>{}</td>", esc(text.trim()))
}

async fn statement(
    State(state): State<Shared>,
    Path((cid, pid)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let Some(p) = contest.problem(&pid) else {
        return error_page(ApiError::not_found(format!("no problem `{pid}`")));
    };
    if !statement::readable(
        &contest,
        &who(&state, &contest, &headers),
        chrono::Utc::now(),
    ) {
        return error_page(ApiError::forbidden(
            "problem statements are readable once the contest has started",
        ));
    }
    let html =
        statement::html_body(&p.problem).unwrap_or_else(|| "<p>No statement.</p>".to_owned());
    page(
        &p.problem.name,
        &format!(
            "<p><a href='/contests/{}'>back</a></p><h1>{} {}</h1><div id=statement>{html}</div>",
            esc(&cid),
            esc(&p.label),
            esc(&p.problem.name)
        ),
    )
    .into_response()
}

#[derive(Deserialize)]
struct LoginForm {
    token: String,
}

async fn login(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    Form(form): Form<LoginForm>,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    if contest.team_by_token(form.token.trim()).is_none() {
        return error_page(ApiError::unauthorized("unknown token"));
    }
    let cookie = format!(
        "{TOKEN_COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
        form.token.trim()
    );
    let mut res = Redirect::to(&format!("/contests/{cid}")).into_response();
    *res.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}

async fn logout(Path(cid): Path<String>) -> Response {
    let mut res = Redirect::to(&format!("/contests/{cid}")).into_response();
    let cookie = format!("{TOKEN_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, value);
    }
    res
}

#[derive(Deserialize)]
struct SubmitForm {
    problem: String,
    language: String,
    source: String,
}

async fn submit(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<SubmitForm>,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let viewer = who(&state, &contest, &headers);
    if !matches!(viewer, Viewer::Team(_)) {
        return error_page(ApiError::unauthorized("log in with your team token first"));
    }
    let post = PostSubmission::source(form.problem, form.language, form.source);
    match submit::submit(&state, &contest, &viewer, post).await {
        Ok(_) => Redirect::to(&format!("/contests/{cid}")).into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Deserialize)]
struct ClarifyForm {
    problem: String,
    text: String,
}

async fn clarify(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ClarifyForm>,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let viewer = who(&state, &contest, &headers);
    let post = PostClarification {
        problem_id: (!form.problem.is_empty()).then_some(form.problem),
        text: form.text,
        ..PostClarification::default()
    };
    match operations::clarify(&state, &contest, &viewer, post).await {
        Ok(_) => Redirect::to(&format!("/contests/{cid}")).into_response(),
        Err(e) => error_page(e),
    }
}

/// One of the page's live parts for the caller: their submissions or the scoreboard.
#[derive(Clone, Copy)]
enum Part {
    Mine,
    Board,
}

async fn fragment(state: &AppState, cid: &str, headers: &HeaderMap, part: Part) -> Response {
    let contest = match contest_of(state, cid) {
        Ok(contest) => contest,
        Err(e) => return e.into_response(),
    };
    let viewer = who(state, &contest, headers);
    let html = match part {
        Part::Mine => mine_html(state, &contest, &viewer).await,
        Part::Board => board_html(state, &contest, &viewer).await,
    };
    Html(html).into_response()
}

async fn mine_fragment(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    fragment(&state, &cid, &headers, Part::Mine).await
}

/// The page's change notices: a `change` event (its data the newest token) for each
/// batch of this contest's events the viewer may see, one on a lag too (the page fetches
/// the fragments again either way); a comment every 30 s keeps idle proxies open.
async fn live_changes(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(contest) => contest,
        Err(e) => return e.into_response(),
    };
    let viewer = who(&state, &contest, &headers);
    let rx = state.live.subscribe();
    let stream =
        futures_util::stream::unfold((rx, cid, viewer), |(mut rx, cid, viewer)| async move {
            let mut newest = None;
            loop {
                let next = if newest.is_some() {
                    // Coalesce what is already waiting into one notice.
                    match rx.try_recv() {
                        Ok(event) => Ok(event),
                        Err(TryRecvError::Lagged(_)) => continue,
                        Err(_) => break,
                    }
                } else {
                    match rx.recv().await {
                        Ok(event) => Ok(event),
                        Err(RecvError::Lagged(_)) => Err(()),
                        Err(RecvError::Closed) => return None,
                    }
                };
                match next {
                    Ok(event) if event.contest_id == cid && event.visible_to(&viewer) => {
                        newest = Some(event.seq.to_string());
                    }
                    Ok(_) => {}
                    Err(()) => {
                        newest = Some(String::new());
                        break;
                    }
                }
            }
            let event = SseEvent::default()
                .event("change")
                .data(newest.unwrap_or_default());
            Some((Ok::<_, Infallible>(event), (rx, cid, viewer)))
        });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(30)))
        .into_response()
}

async fn board_fragment(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    fragment(&state, &cid, &headers, Part::Board).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
