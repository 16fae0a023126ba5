//! The web page for humans, rendered on the server: the contest list, a contest's
//! problems and statements (Markdown to HTML), a login form (a team's token or the admin
//! token, exchanged for a session: `crate::session`; every form that changes something
//! carries the session's CSRF token, checked here), a submit form, the team's submissions with verdicts as they arrive
//! and its clarifications (with a form to ask the jury), and the live scoreboard.
//! The jury (logged in with the admin token) gets the host's operations instead of the
//! team's forms: rejudging a submission, a problem's or a team's submissions, answering
//! a question (to its team or to everyone) or writing to one team or everyone, every
//! submission with its earlier verdicts, the awards, the export as a download, and links
//! to the jury's pages (`routes::jury`: submissions, clarifications, rejudgings, the
//! contest control with the audit log, the teams, the reveal). The two live parts are
//! HTML fragments that a few lines of
//! script fetch again when the server says something changed: the page holds a
//! server-sent-events stream (`/contests/{cid}/live`) that sends one `change` per batch
//! of events the viewer may see (from the in-memory broadcast, no query per viewer);
//! without script the page still works on reload. A live part that holds the focus (the
//! jury typing an answer) is left as it is until the next change. The board fragment is rendered from
//! the board kept in memory.
//!
//! The page speaks through the same modules as the API (`auth`, `submit`, `board`,
//! `operations`, `export`), so the rules (auth, freeze, limits, windows, who may rejudge
//! or read what) are the same.

use std::collections::HashMap;

use axum::Router;
use std::net::SocketAddr;

use axum::Extension;
use axum::extract::connect_info::ConnectInfo;
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
use crate::auth::Viewer;
use crate::clics;
use crate::contest::{Contest, reltime, time};
use crate::error::ApiError;
use crate::operations::{self, PostClarification};
use crate::session::{self, Session};
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
        .route("/contests/{cid}/export", get(export))
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

pub(super) fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>{}</title>\
         <meta name=viewport content='width=device-width, initial-scale=1'>\
         <style>body{{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 .5em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:.2em .5em}}.AC{{color:#080}}.pending{{color:#888}}\
         pre{{overflow-x:auto}}@media (max-width:40em){{table{{display:block;overflow-x:auto}}textarea{{width:100%;box-sizing:border-box}}}}</style>\
         </head><body>{body}</body></html>",
        esc(title)
    ))
}

/// Who is calling and their session, from the page's session cookie (none, an unknown
/// or expired one, or a failing database: the public).
pub(super) async fn who(
    state: &AppState,
    contest: &Contest,
    headers: &HeaderMap,
) -> (Viewer, Option<Session>) {
    match session::current(&state.store, contest, headers).await {
        Ok(Some(s)) => (s.viewer.clone(), Some(s)),
        Ok(None) => (Viewer::Public, None),
        Err(e) => {
            eprintln!("judge serve: reading a session: {}", e.message);
            (Viewer::Public, None)
        }
    }
}

/// `html` with the session's CSRF token in every form that posts.
pub(super) fn forms_for(html: &str, session: Option<&Session>) -> String {
    match session {
        Some(s) => session::with_csrf(html, &s.csrf),
        None => html.to_owned(),
    }
}

#[allow(clippy::needless_pass_by_value)] // used as `Err(e) => error_page(e)`
pub(super) fn error_page(err: ApiError) -> Response {
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
    let (viewer, session) = who(&state, &contest, &headers).await;
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
            let options = problem_options(&contest);
            let mut by_ext = serde_json::Map::new();
            for l in clics::languages(&contest) {
                if let Ok(lang) = judge::lang::by_id(&l.id) {
                    for ext in &lang.extensions {
                        by_ext
                            .entry(ext.clone())
                            .or_insert_with(|| l.id.clone().into());
                    }
                }
            }
            let by_ext = serde_json::Value::Object(by_ext).to_string();
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
                 <label>from a file <input type=file id=source-file></label> (the language follows its extension; change it above if needed)<br>\
                 <textarea name=source id=source rows=12 cols=80></textarea><br><button id=send>Submit</button></form>\
                 <script>const byExt={by_ext};document.getElementById('source-file').addEventListener('change',async e=>{{\
                 const f=e.target.files[0];if(!f)return;document.getElementById('source').value=await f.text();\
                 const dot=f.name.lastIndexOf('.');const ext=dot<0?'':f.name.slice(dot+1);\
                 const id=byExt[ext]||byExt[ext.toLowerCase()];if(id)document.getElementById('language').value=id;}});</script>\
                 <h2>Your submissions and clarifications</h2><div id=mine>{}</div>\
                 <h3>Ask the jury</h3><form id=clarify method=post action='/contests/{cid}/clarify'>\
                 <select name=problem id=clar-problem><option value=''>general</option>{options}</select><br>\
                 <textarea name=text id=clar-text rows=3 cols=80></textarea><br><button id=ask>Ask</button></form>",
                esc(team),
                mine_html(&state, &contest, &viewer).await
            )
        }
        Viewer::Admin => jury_part(&state, &contest).await,
        Viewer::Public => format!(
            "<h2>Log in</h2><form id=login method=post action='/contests/{cid}/login'>\
             <input type=password name=token id=token placeholder='team or admin token'> <button id=enter>Log in</button></form>"
        ),
    };
    let schedule = contest.schedule();
    let (start_ms, end_ms) = (
        schedule.start.timestamp_millis(),
        schedule.end.timestamp_millis(),
    );
    let board = board_html(&state, &contest, &viewer).await;
    let body = format!(
        "<h1>{}</h1><p>Starts {} and lasts {}. <b id=clock data-start='{start_ms}' data-end='{end_ms}'></b></p><h2>Problems</h2><table><tr><th></th><th>Problem</th><th>Time limit</th></tr>{problems}</table>\
         {team_part}<h2>Scoreboard</h2><div id=board>{board}</div>\
         <script>\
         async function refresh(id, url){{const el=document.getElementById(id);if(!el||el.contains(document.activeElement))return;\
         try{{const r=await fetch(url,{{credentials:'same-origin'}});if(r.ok)el.innerHTML=await r.text();}}catch(e){{}}}}\
         function both(){{refresh('mine','/contests/{cid}/mine');refresh('board','/contests/{cid}/board');}}\
         if(window.EventSource){{const es=new EventSource('/contests/{cid}/live');\
         es.addEventListener('change',both);es.onopen=both;}}else{{setInterval(both,1000);}}\
         function clock(){{const c=document.getElementById('clock');const s=+c.dataset.start,e=+c.dataset.end,n=Date.now();\
         const hms=ms=>{{const t=Math.max(0,Math.floor(ms/1000));return Math.floor(t/3600)+':'+String(Math.floor(t/60)%60).padStart(2,'0')+':'+String(t%60).padStart(2,'0');}};\
         c.textContent=n<s?'Starts in '+hms(s-n):n<e?'Time left '+hms(e-n):'The contest is over.';}}clock();setInterval(clock,1000);\
         </script>",
        esc(&contest.spec.name),
        esc(&time(schedule.start).to_string()),
        esc(&reltime(schedule.end - schedule.start).to_string()),
    );
    page(&contest.spec.name, &forms_for(&body, session.as_ref())).into_response()
}

/// `<option>`s of the contest's problems (`label name`).
fn problem_options(contest: &Contest) -> String {
    contest
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
        .collect()
}

/// `<option>`s of the contest's teams.
fn team_options(contest: &Contest) -> String {
    contest
        .teams()
        .iter()
        .map(|t| {
            format!(
                "<option value='{}'>{} ({})</option>",
                esc(&t.id),
                esc(&t.name),
                esc(&t.id)
            )
        })
        .collect()
}

/// The jury's part of the page (an admin logged in with the admin token): rejudging, a
/// message to one team or everyone, the export, and the live part (`mine_html`) with
/// every submission, every clarification and the awards.
async fn jury_part(state: &AppState, contest: &Contest) -> String {
    let cid = esc(&contest.spec.id);
    let problems = problem_options(contest);
    let teams = team_options(contest);
    format!(
        "<p>Logged in as <b id=jury>the jury</b> <form method=post action='/contests/{cid}/logout' style=display:inline>\
         <button>log out</button></form></p>\
         <h2>Jury</h2><p><a id=jury-submissions href='/contests/{cid}/jury/submissions'>every submission, filtered and a page at a time</a> \
         &middot; <a id=jury-clarifications href='/contests/{cid}/jury/clarifications'>the clarifications' inbox</a> \
         &middot; <a id=jury-rejudgings href='/contests/{cid}/jury/rejudgings'>rejudgings and what they changed</a> \
         &middot; <a id=jury-reveal href='/contests/{cid}/jury/reveal'>the reveal</a></p>\
         <p><a id=jury-control href='/contests/{cid}/jury/control'>contest control (start, delay, freeze, thaw, end, finalize) and the audit log</a> \
         &middot; <a id=jury-teams href='/contests/{cid}/jury/teams'>teams (add, import, disable, the token sheet)</a> \
         &middot; <a id=jury-problems href='/contests/{cid}/jury/problems'>problems (upload a package)</a></p>\
         <h3>Rejudge</h3><form id=rejudge method=post action='/contests/{cid}/jury/rejudgings'>\
         submission <input name=submission id=rejudge-submission size=8> \
         problem <select name=problem id=rejudge-problem><option value=''>any</option>{problems}</select> \
         team <select name=team id=rejudge-team><option value=''>any</option>{teams}</select> \
         <button id=rejudge-send>Rejudge</button></form>\
         <p>The done submissions matching every field given are judged again; the new judgement counts, and the rejudging's page shows what changed.</p>\
         <h3>Message</h3><form id=message method=post action='/contests/{cid}/clarify'>\
         <select name=to id=message-to><option value=''>to everyone</option>{teams}</select> \
         <select name=problem id=message-problem><option value=''>general</option>{problems}</select><br>\
         <textarea name=text id=message-text rows=3 cols=80></textarea><br><button id=message-send>Send</button></form>\
         <h3>Export</h3><p><a id=export href='/contests/{cid}/export' download>the contest as a zip</a> \
         (its event feed and every submission, as <code>GET /api/contests/{cid}/export</code>)</p>\
         <h2>Submissions, clarifications and awards</h2><div id=mine>{}</div>",
        mine_html(state, contest, &Viewer::Admin).await
    )
}

/// The live part of the page for `viewer`: a team's submissions and clarifications;
/// for the jury every submission (with its earlier verdicts and a rejudge button), every
/// clarification (a team's question with an answer form) and the awards.
async fn mine_html(state: &AppState, contest: &Contest, viewer: &Viewer) -> String {
    let jury = match viewer {
        Viewer::Public => return String::new(),
        Viewer::Team(_) => false,
        Viewer::Admin => true,
    };
    let cid = esc(&contest.spec.id);
    let Ok(subs) = state.store.submissions(&contest.spec.id, viewer).await else {
        return "<p>cannot read submissions</p>".into();
    };
    let judgements = state
        .store
        .judgements(&contest.spec.id)
        .await
        .unwrap_or_default();
    let label = |problem: &str| -> String {
        contest
            .problem(problem)
            .map_or(problem, |p| p.label.as_str())
            .to_owned()
    };
    let rows: String = subs
        .iter()
        .rev()
        .map(|s| {
            let verdicts: Vec<&str> = judgements
                .iter()
                .filter(|j| j.submission_id == s.id)
                .map(|j| j.verdict.clics_id())
                .collect();
            let verdict = match s.state {
                QueueState::Done => verdicts.last().copied().unwrap_or("pending"),
                QueueState::Queued | QueueState::Judging => "pending",
            };
            let (team, jury_cells) = if jury {
                let earlier = match s.state {
                    QueueState::Done => &verdicts[..verdicts.len().saturating_sub(1)],
                    QueueState::Queued | QueueState::Judging => &verdicts[..],
                };
                (
                    format!("<td>{}</td>", esc(&s.team_id)),
                    format!(
                        "<td class=earlier>{}</td><td><form method=post action='/contests/{cid}/jury/rejudgings'>\
                         <input type=hidden name=submission value='{}'><button>rejudge</button></form></td>",
                        esc(&earlier.join(" ")),
                        esc(&s.id)
                    ),
                )
            } else {
                Default::default()
            };
            let id = if jury {
                format!(
                    "<a href='/contests/{cid}/jury/submissions/{0}'>{0}</a>",
                    esc(&s.id)
                )
            } else {
                esc(&s.id)
            };
            format!(
                "<tr><td>{}</td><td>{}</td>{team}<td>{}</td><td>{}</td><td class='verdict {}'>{}</td>{jury_cells}</tr>",
                id,
                esc(&RelTime::from_millis(s.contest_time_ms).to_string()),
                esc(&label(&s.problem_id)),
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
                let about = c.problem_id.as_deref().map_or("general".to_owned(), label);
                let (from, extra) = if jury {
                    let to = match (&c.from_team_id, &c.to_team_id) {
                        (Some(_), _) => "jury",
                        (None, Some(team)) => team.as_str(),
                        (None, None) => "everyone",
                    };
                    let answer = c.from_team_id.as_deref().map_or(String::new(), |team| {
                        format!(
                            "<form method=post action='/contests/{cid}/clarify' class=answer>\
                             <input type=hidden name=reply_to value='{id}'>\
                             <input type=hidden name=problem value='{problem}'>\
                             <select name=to><option value='{team}'>to {team}</option><option value=''>to everyone</option></select> \
                             <input name=text size=30> <button>answer</button></form>",
                            id = esc(&c.id),
                            problem = esc(c.problem_id.as_deref().unwrap_or_default()),
                            team = esc(team),
                        )
                    });
                    (
                        esc(c.from_team_id.as_deref().unwrap_or("jury")),
                        format!("<td>{}</td><td>{answer}</td>", esc(to)),
                    )
                } else {
                    let from = if c.from_team_id.is_some() { "you" } else { "jury" };
                    (from.to_owned(), String::new())
                };
                format!(
                    "<tr class=clarification><td>{}</td><td>{from}</td><td>{}</td><td>{}</td>{extra}</tr>",
                    esc(&RelTime::from_millis(c.contest_time_ms).to_string()),
                    esc(&about),
                    esc(&c.text)
                )
            })
            .collect::<String>(),
        Err(_) => "<tr><td colspan=4>cannot read clarifications</td></tr>".into(),
    };
    let (team_head, jury_head, to_head) = if jury {
        (
            "<th>team</th>",
            "<th>earlier</th><th></th>",
            "<th>to</th><th></th>",
        )
    } else {
        ("", "", "")
    };
    let awards = if jury {
        awards_html(state, contest).await
    } else {
        String::new()
    };
    format!(
        "<table id=submissions><tr><th>id</th><th>time</th>{team_head}<th>problem</th><th>language</th><th>verdict</th>{jury_head}</tr>{rows}</table>\
         <table id=clarifications><tr><th>time</th><th>from</th><th>problem</th><th>text</th>{to_head}</tr>{clarifications}</table>{awards}"
    )
}

/// The CLICS awards of the full board (the jury's view), as a table.
async fn awards_html(state: &AppState, contest: &Contest) -> String {
    let Ok(ready) = state.board(contest, &Viewer::Admin).await else {
        return "<p>cannot compute the scoreboard</p>".into();
    };
    let rows: String = operations::awards(contest, &ready.board)
        .iter()
        .map(|a| {
            format!(
                "<tr id='award-{}'><td>{}</td><td>{}</td></tr>",
                esc(&a.id),
                esc(&a.citation),
                esc(&a.team_ids.join(" "))
            )
        })
        .collect();
    let m = contest.medals();
    format!(
        "<h3>Awards</h3><p>Medals: {} gold, {} silver, {} bronze (the contest file's <code>medals</code>).</p>\
         <table id=awards><tr><th>award</th><th>teams</th></tr>{rows}</table>",
        m.gold, m.silver, m.bronze
    )
}

/// The board fragment `viewer` may see, rendered once per built board (kept beside its
/// JSON).
async fn board_html(state: &AppState, contest: &Contest, viewer: &Viewer) -> String {
    let Ok(ready) = state.board(contest, viewer).await else {
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
    let teams = contest.teams();
    let names: HashMap<&str, &str> = teams
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
        &who(&state, &contest, &headers).await.0,
        chrono::Utc::now(),
    ) {
        return error_page(ApiError::forbidden(
            "problem statements are readable once the contest has started",
        ));
    }
    let html =
        statement::html_body(&p.problem).unwrap_or_else(|| "<p>No statement.</p>".to_owned());
    // The sample files (the API serves them to anyone who may read the statement).
    let samples: String = statement::samples(&p.problem)
        .iter()
        .map(|(name, _)| {
            format!(
                "<li><a class=sample href='/api/contests/{}/problems/{}/attachments/{n}' download='{n}'>{n}</a></li>",
                esc(&cid),
                esc(&pid),
                n = esc(name)
            )
        })
        .collect();
    let samples = if samples.is_empty() {
        String::new()
    } else {
        format!("<h2>Sample files</h2><ul id=samples>{samples}</ul>")
    };
    page(
        &p.problem.name,
        &format!(
            "<p><a href='/contests/{}'>back</a></p><h1>{} {}</h1><div id=statement>{html}</div>{samples}",
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
    address: Option<Extension<ConnectInfo<SocketAddr>>>,
    Form(form): Form<LoginForm>,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    if !state
        .logins
        .allow(address.map(|Extension(ConnectInfo(a))| a.ip()))
    {
        return error_page(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "more than {} logins a minute from your address: wait a minute",
                session::LOGINS_PER_MINUTE
            ),
        ));
    }
    let token = form.token.trim();
    let viewer = if token == state.admin_token {
        Viewer::Admin
    } else if let Some(team) = contest.team_by_token(token) {
        Viewer::Team(team.id)
    } else {
        return error_page(ApiError::unauthorized("unknown token"));
    };
    let cookie = match session::open(&state.store, state.secure_cookies, &contest, &viewer).await {
        Ok(cookie) => cookie,
        Err(e) => return error_page(e),
    };
    let mut res = Redirect::to(&format!("/contests/{cid}")).into_response();
    *res.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}

/// A form that carries nothing but the session's CSRF token (logging out, and the jury's
/// buttons that say all in their route).
#[derive(Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(default)]
    pub(crate) csrf: String,
}

async fn logout(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    let contest = match contest_of(&state, &cid) {
        Ok(c) => c,
        Err(e) => return error_page(e),
    };
    let (_, found) = who(&state, &contest, &headers).await;
    if let Err(e) = session::check_csrf(found.as_ref(), &form.csrf) {
        return error_page(e);
    }
    if let Some(s) = found
        && let Err(e) = state.store.end_session(&s.id_hash).await
    {
        return error_page(e.into());
    }
    let mut res = Redirect::to(&format!("/contests/{cid}")).into_response();
    *res.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(value) = HeaderValue::from_str(&session::clear_cookie(state.secure_cookies)) {
        res.headers_mut().insert(header::SET_COOKIE, value);
    }
    res
}

/// The contest `cid` and who is asking (from the page's session).
async fn contest_and_viewer(
    state: &AppState,
    cid: &str,
    headers: &HeaderMap,
) -> Result<(std::sync::Arc<Contest>, Viewer), ApiError> {
    let contest = contest_of(state, cid)?;
    let (viewer, _) = who(state, &contest, headers).await;
    Ok((contest, viewer))
}

/// As [`contest_and_viewer`] for a form that changes something: its `csrf` must be the
/// session's (403 otherwise).
pub(super) async fn posted(
    state: &AppState,
    cid: &str,
    headers: &HeaderMap,
    csrf: &str,
) -> Result<(std::sync::Arc<Contest>, Viewer), ApiError> {
    let contest = contest_of(state, cid)?;
    let (viewer, found) = who(state, &contest, headers).await;
    session::check_csrf(found.as_ref(), csrf)?;
    Ok((contest, viewer))
}

/// The answer to a jury page's GET without a jury session: 303 to the contest's page,
/// where the login form is.
pub(super) fn to_login(cid: &str) -> Response {
    let mut res = Redirect::to(&format!("/contests/{cid}#login")).into_response();
    *res.status_mut() = StatusCode::SEE_OTHER;
    res
}

/// A form's answer: back to the contest's page when `done`, else the page saying why not.
pub(super) fn after_form<T>(cid: &str, done: Result<T, ApiError>) -> Response {
    match done {
        Ok(_) => Redirect::to(&format!("/contests/{cid}")).into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Deserialize)]
struct SubmitForm {
    #[serde(default)]
    csrf: String,
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
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    if !matches!(viewer, Viewer::Team(_)) {
        return error_page(ApiError::unauthorized("log in with your team token first"));
    }
    let post = PostSubmission::source(form.problem, form.language, form.source);
    after_form(&cid, submit::submit(&state, &contest, &viewer, post).await)
}

/// A clarification from the page: a team's question (problem, text), or the jury's
/// message (`to`: a team, empty for everyone; `reply_to`: the question it answers).
#[derive(Deserialize)]
struct ClarifyForm {
    #[serde(default)]
    csrf: String,
    problem: String,
    text: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    reply_to: String,
}

/// `Some(text)` unless `text` is empty (an empty form field is "none").
fn given(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

async fn clarify(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ClarifyForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let post = PostClarification {
        problem_id: given(form.problem),
        to_team_id: given(form.to),
        reply_to_id: given(form.reply_to),
        text: form.text,
        ..PostClarification::default()
    };
    after_form(
        &cid,
        operations::clarify(&state, &contest, &viewer, post).await,
    )
}

/// The export as a download, for the jury (the admin cookie).
async fn export(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let viewer = match contest_and_viewer(&state, &cid, &headers).await {
        Ok((_, viewer)) => viewer,
        Err(e) => return error_page(e),
    };
    if viewer != Viewer::Admin {
        return to_login(&cid);
    }
    super::export_download(&state, &cid, &viewer)
        .await
        .unwrap_or_else(error_page)
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
    let (viewer, session) = who(state, &contest, headers).await;
    let html = match part {
        Part::Mine => mine_html(state, &contest, &viewer).await,
        Part::Board => board_html(state, &contest, &viewer).await,
    };
    Html(forms_for(&html, session.as_ref())).into_response()
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
    let (viewer, _) = who(&state, &contest, &headers).await;
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
