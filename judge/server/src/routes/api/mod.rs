//! The CLICS Contest API under `/api` (2023-06): its routes, visibility rules and the
//! event feed; submissions go through `submit`, the scoreboard through `board` (ready
//! bytes with an `ETag`, gzipped when the client accepts it), the streamed feed through
//! `live` (a bounded broadcast, no query per client per event).
//!
//! Auth: `Authorization: Bearer TOKEN`, or basic auth with the team id (or `admin`) as
//! user and the token as password. No header is the public. Admins see everything; a
//! team sees its own submissions, judgements, runs and code, never another team's; the
//! public sees neither. After the freeze, teams and the public get the frozen scoreboard;
//! it thaws at the end (or when the jury thaws it). Hidden test data is never served.
//!
//! Extensions for the jury (admins): `POST /api/contests/{cid}/control` (the clock:
//! start now, delay, freeze, thaw, end, finalize; see `control`), `POST
//! /api/contests/{cid}/teams` (add a team, or import several), `GET
//! .../submissions/{id}/judging` (each judgement's compiler output and per-test details),
//! `POST
//! .../teams/{id}/disable` and `.../enable`, `GET
//! /api/contests/{cid}/audit` (the jury's actions), `POST .../rejudgings`, `GET
//! .../export`, `GET /api/queue` and `GET /api/backup`; problem packages and problems
//! (`problems`: `POST .../packages`, `GET .../packages/{sha256}`, `POST .../problems`,
//! `POST .../problems/{id}/remove`).
//!
//! A bad request gets a 4xx status with `{"code", "message"}` naming what is wrong, and
//! changes nothing stored.

use std::collections::HashSet;
use std::convert::Infallible;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::Utc;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiResult, Shared, contest_of};
use crate::actions;
use crate::auth::{self, Credential, Viewer};
use crate::clics;
use crate::contest::{Contest, ContestSpec};
use crate::control::Action;
use crate::error::ApiError;
use crate::export;
use crate::jury::{self, NewTeam};
use crate::live::{self, LiveEvent};
use crate::operations::{self, PostClarification, RejudgeRequest};
use crate::state::AppState;
use crate::statement;
use crate::store::EventRow;
use crate::submit::{self, PostSubmission};

mod problems;

/// The routes of `/api`.
pub fn router() -> Router<Shared> {
    Router::new()
        .merge(problems::router())
        .route("/api", get(api_info))
        .route("/api/", get(api_info))
        .route("/api/contests", get(list_contests).post(create_contest))
        .route("/api/contests/{cid}", get(get_contest))
        .route("/api/contests/{cid}/state", get(get_state))
        .route(
            "/api/contests/{cid}/submissions",
            get(list_submissions).post(post_submission),
        )
        .route(
            "/api/contests/{cid}/submissions/{id}/files",
            get(get_submission_files),
        )
        .route(
            "/api/contests/{cid}/submissions/{id}/judging",
            get(get_judging),
        )
        .route(
            "/api/contests/{cid}/problems/{pid}/statement",
            get(get_statement_html),
        )
        .route(
            "/api/contests/{cid}/problems/{pid}/statement.pdf",
            get(get_statement_pdf),
        )
        .route(
            "/api/contests/{cid}/problems/{pid}/attachments/{name}",
            get(get_attachment),
        )
        .route(
            "/api/contests/{cid}/clarifications",
            get(list_clarifications).post(post_clarification),
        )
        .route("/api/contests/{cid}/rejudgings", post(post_rejudging))
        .route("/api/contests/{cid}/control", post(post_control))
        .route(
            "/api/contests/{cid}/teams",
            get(list_teams).post(post_teams),
        )
        .route("/api/contests/{cid}/teams/{id}/disable", post(disable_team))
        .route("/api/contests/{cid}/teams/{id}/enable", post(enable_team))
        .route("/api/contests/{cid}/audit", get(get_audit))
        .route("/api/contests/{cid}/{kind}", get(list_objects))
        .route("/api/contests/{cid}/{kind}/{id}", get(get_object))
        .route("/api/contests/{cid}/scoreboard", get(get_scoreboard))
        .route("/api/contests/{cid}/event-feed", get(event_feed))
        .route("/api/contests/{cid}/export", get(get_export))
        .route("/api/queue", get(queue_status))
        .route("/api/backup", get(get_backup))
}

/// Who is calling, from the `Authorization` header (none: the public).
fn viewer(state: &AppState, contest: Option<&Contest>, headers: &HeaderMap) -> ApiResult<Viewer> {
    let credential = headers
        .get(header::AUTHORIZATION)
        .map(|value| {
            let text = value
                .to_str()
                .map_err(|_| ApiError::unauthorized("Authorization header is not text"))?;
            Credential::from_authorization(text)
        })
        .transpose()?;
    auth::viewer(state, contest, credential.as_ref())
}

fn one(list: Vec<Value>, id: &str, what: &str) -> ApiResult<axum::Json<Value>> {
    list.into_iter()
        .find(|v| v["id"].as_str() == Some(id))
        .map(axum::Json)
        .ok_or_else(|| ApiError::not_found(format!("no {what} `{id}`")))
}

async fn api_info() -> axum::Json<Value> {
    axum::Json(json!({
        "version": "2023-06",
        "version_url": "https://ccs-specs.icpc.io/2023-06/contest_api",
        "name": "arena judge",
        "provider": {"name": "arena", "version": env!("CARGO_PKG_VERSION")},
    }))
}

async fn list_contests(
    State(state): State<Shared>,
) -> axum::Json<Vec<leaderboard::clics::Contest>> {
    axum::Json(
        state
            .all_contests()
            .iter()
            .map(|c| clics::contest(c))
            .collect(),
    )
}

async fn create_contest(
    State(state): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    if viewer(&state, None, &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("only an admin may create contests"));
    }
    let spec: ContestSpec = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("contest body: {e}")))?;
    if state.contest(&spec.id).is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("contest `{}` exists", spec.id),
        ));
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let contest = Contest::load(spec, &cwd, "request body")?;
    let body = clics::contest(&contest);
    state.add_contest(contest).await?;
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

async fn get_contest(
    State(state): State<Shared>,
    Path(cid): Path<String>,
) -> ApiResult<axum::Json<leaderboard::clics::Contest>> {
    Ok(axum::Json(clics::contest(
        contest_of(&state, &cid)?.as_ref(),
    )))
}

async fn get_state(
    State(state): State<Shared>,
    Path(cid): Path<String>,
) -> ApiResult<axum::Json<leaderboard::clics::State>> {
    let contest = contest_of(&state, &cid)?;
    let pending = state.board(&contest, &Viewer::Admin).await?.pending;
    Ok(axum::Json(clics::state(&contest, Utc::now(), pending)))
}

async fn visible_submissions(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
) -> ApiResult<Vec<Value>> {
    let rows = state.store.submissions(&contest.spec.id, who).await?;
    Ok(rows
        .iter()
        .map(|s| clics::to_value(&clics::submission(contest, s)))
        .collect())
}

/// The objects of one CLICS collection that `who` may see.
async fn collection(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    kind: &str,
) -> ApiResult<Vec<Value>> {
    Ok(match kind {
        "problems" => clics::to_values(&clics::problems(
            contest,
            statement::readable(contest, who, Utc::now()),
        )),
        "languages" => clics::to_values(&clics::languages(contest)),
        "judgement-types" => clics::to_values(&clics::judgement_types()),
        "teams" => clics::to_values(&clics::teams(contest)),
        "submissions" => visible_submissions(state, contest, who).await?,
        "judgements" => visible_judgements(state, contest, who).await?,
        "runs" => visible_runs(state, contest, who).await?,
        "clarifications" => state
            .store
            .clarifications(&contest.spec.id, who)
            .await?
            .iter()
            .map(|c| clics::to_value(&operations::clarification(c)))
            .collect(),
        // From the board the caller may see (frozen for teams and the public).
        "awards" => clics::to_values(&operations::awards(
            contest,
            &state.board(contest, who).await?.board,
        )),
        other => return Err(ApiError::not_found(format!("no endpoint `{other}`"))),
    })
}

async fn list_objects(
    State(state): State<Shared>,
    Path((cid, kind)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    Ok(axum::Json(Value::Array(
        collection(&state, &contest, &who, &kind).await?,
    )))
}

async fn list_submissions(
    state: State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    list_objects(state, Path((cid, "submissions".to_owned())), headers).await
}

async fn get_object(
    State(state): State<Shared>,
    Path((cid, kind, id)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let what = kind.trim_end_matches('s');
    one(collection(&state, &contest, &who, &kind).await?, &id, what)
}

async fn get_submission_files(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let rows = state.store.submissions(&cid, &who).await?;
    let sub = rows
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no submission `{id}`")))?;
    let language =
        judge::lang::by_id(&sub.language_id).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let name = language.source_name(&sub.source);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let written = zip
        .start_file(name, zip::write::SimpleFileOptions::default())
        .and_then(|()| zip.write_all(sub.source.as_bytes()).map_err(Into::into))
        .and_then(|()| zip.finish());
    let bytes = written
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("zip: {e}")))?
        .into_inner();
    Ok(([(header::CONTENT_TYPE, "application/zip")], bytes).into_response())
}

/// The problem `pid` of `cid` when `headers`' viewer may read it now: 404 for an unknown
/// problem, 403 before the start for teams and the public.
fn readable_problem(
    state: &AppState,
    cid: &str,
    pid: &str,
    headers: &HeaderMap,
) -> ApiResult<(Arc<Contest>, usize)> {
    let contest = contest_of(state, cid)?;
    let who = viewer(state, Some(&contest), headers)?;
    let index = contest
        .problems
        .iter()
        .position(|p| p.id == pid)
        .ok_or_else(|| ApiError::not_found(format!("no problem `{pid}`")))?;
    if !statement::readable(&contest, &who, Utc::now()) {
        return Err(ApiError::forbidden(
            "problem statements and samples are readable once the contest has started",
        ));
    }
    Ok((contest, index))
}

async fn get_statement_html(
    State(state): State<Shared>,
    Path((cid, pid)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (contest, index) = readable_problem(&state, &cid, &pid, &headers)?;
    let html = statement::html_document(&contest.problems[index])
        .ok_or_else(|| ApiError::not_found(format!("problem `{pid}` has no text statement")))?;
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}

async fn get_statement_pdf(
    State(state): State<Shared>,
    Path((cid, pid)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (contest, index) = readable_problem(&state, &cid, &pid, &headers)?;
    let path = statement::pdf(&contest.problems[index].problem)
        .ok_or_else(|| ApiError::not_found(format!("problem `{pid}` has no PDF statement")))?;
    file_response(&path, "application/pdf", &format!("statement of `{pid}`")).await
}

/// A sample file, looked up by name among the problem's `data/sample` files only.
async fn get_attachment(
    State(state): State<Shared>,
    Path((cid, pid, name)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (contest, index) = readable_problem(&state, &cid, &pid, &headers)?;
    let path = statement::samples(&contest.problems[index].problem)
        .into_iter()
        .find(|(sample, _)| *sample == name)
        .map(|(_, path)| path)
        .ok_or_else(|| {
            ApiError::not_found(format!("problem `{pid}` has no attachment `{name}`"))
        })?;
    let what = format!("attachment `{name}` of `{pid}`");
    file_response(&path, "text/plain; charset=utf-8", &what).await
}

/// The file at `path` (a package file the caller chose) with its content type.
async fn file_response(
    path: &std::path::Path,
    content_type: &'static str,
    what: &str,
) -> ApiResult<Response> {
    let bytes = tokio::fs::read(path)
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{what}: {e}")))?;
    Ok(([(header::CONTENT_TYPE, content_type)], bytes).into_response())
}

async fn post_submission(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let post = PostSubmission::from_json(&body)?;
    let stored = submit::submit(&state, &contest, &who, post).await?;
    Ok((
        StatusCode::OK,
        axum::Json(clics::submission(&contest, &stored)),
    )
        .into_response())
}

/// Judgements visible to `who`, older first (the store's order): all (admins, including
/// those a rejudging replaced), or the one that counts of each of their own submissions
/// (teams), by [`leaderboard::clics::counting_judgements`].
async fn visible_judgements(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
) -> ApiResult<Vec<Value>> {
    let subs = state.store.submissions(&contest.spec.id, who).await?;
    let ids: HashSet<&str> = subs.iter().map(|s| s.id.as_str()).collect();
    let all = state.store.judgements(&contest.spec.id).await?;
    let own: Vec<_> = all
        .iter()
        .filter(|j| ids.contains(j.submission_id.as_str()))
        .map(|j| clics::judgement(contest, j))
        .collect();
    if *who == Viewer::Admin {
        return Ok(clics::to_values(&own));
    }
    let counting = leaderboard::clics::counting_judgements(&own);
    Ok(own
        .iter()
        .filter(|j| {
            counting
                .get(j.submission_id.as_str())
                .is_some_and(|c| c.id == j.id)
        })
        .map(clics::to_value)
        .collect())
}

async fn visible_runs(state: &AppState, contest: &Contest, who: &Viewer) -> ApiResult<Vec<Value>> {
    let judgements = visible_judgements(state, contest, who).await?;
    let ids: HashSet<&str> = judgements.iter().filter_map(|j| j["id"].as_str()).collect();
    let runs = state.store.runs(&contest.spec.id).await?;
    Ok(runs
        .iter()
        .filter(|r| ids.contains(r.judgement_id.as_str()))
        .map(|r| clics::to_value(&clics::run(contest, r)))
        .collect())
}

async fn get_scoreboard(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let ready = state.board(&contest, &who).await?;
    Ok(super::ready_response(&ready, &headers))
}

#[derive(Debug, Deserialize)]
struct FeedQuery {
    #[serde(default)]
    since_token: Option<String>,
    #[serde(default)]
    stream: Option<bool>,
}

fn event_line(e: &EventRow) -> String {
    live::feed_line(e.seq, &e.kind, e.obj_id.as_deref(), e.data.as_deref())
}

/// Where a streaming feed client is: catching up from the database, then following the
/// broadcast.
struct Follower {
    state: Shared,
    cid: String,
    who: Viewer,
    after: i64,
    caught_up: bool,
    rx: tokio::sync::broadcast::Receiver<Arc<LiveEvent>>,
}

/// The next chunk of a streamed feed: a page of the backlog, then each visible event as
/// it is published, a newline after 120 s of silence; `None` (the end) when the client
/// fell more than `live::CAPACITY` events behind or the read failed.
async fn next_chunk(mut f: Follower) -> Option<(Result<Bytes, Infallible>, Follower)> {
    const BACKLOG_PAGE: i64 = 1000;
    if !f.caught_up {
        let events = match f
            .state
            .store
            .events_since(&f.cid, f.after, &f.who, BACKLOG_PAGE)
            .await
        {
            Ok(events) => events,
            Err(err) => {
                eprintln!("judge serve: event feed: {}", crate::error::chain(&err));
                return None;
            }
        };
        f.caught_up = (events.len() as i64) < BACKLOG_PAGE;
        if !events.is_empty() {
            f.after = events.last().map_or(f.after, |e| e.seq);
            let text: String = events.iter().map(event_line).collect();
            return Some((Ok(Bytes::from(text)), f));
        }
    }
    loop {
        match tokio::time::timeout(Duration::from_secs(120), f.rx.recv()).await {
            Err(_) => return Some((Ok(Bytes::from_static(b"\n")), f)),
            Ok(Ok(event)) => {
                if event.contest_id == f.cid && event.seq > f.after && event.visible_to(&f.who) {
                    f.after = event.seq;
                    return Some((Ok(event.line.clone()), f));
                }
            }
            // Too slow: dropped; the client resumes with since_token.
            Ok(Err(_)) => return None,
        }
    }
}

async fn event_feed(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    Query(query): Query<FeedQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let after: i64 = match &query.since_token {
        None => 0,
        Some(t) => t.parse().map_err(|_| {
            ApiError::bad_request(format!("since_token: `{t}` is not a token of this feed"))
        })?,
    };
    let content_type = [(header::CONTENT_TYPE, "application/x-ndjson")];
    if query.stream == Some(false) {
        let events = state
            .store
            .events_since(&cid, after, &who, i64::MAX)
            .await?;
        let body: String = events.iter().map(event_line).collect();
        return Ok((content_type, body).into_response());
    }
    // Streamed: subscribed before the backlog is read, so nothing falls between the two
    // (an event in both is sent once: tokens only grow).
    let rx = state.live.subscribe();
    let follower = Follower {
        state,
        cid,
        who,
        after,
        caught_up: false,
        rx,
    };
    let stream = futures_util::stream::unfold(follower, next_chunk);
    Ok((content_type, Body::from_stream(stream)).into_response())
}

async fn list_clarifications(
    state: State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    list_objects(state, Path((cid, "clarifications".to_owned())), headers).await
}

async fn post_clarification(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let post: PostClarification = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("clarification body: {e}")))?;
    let made = operations::clarify(&state, &contest, &who, post).await?;
    Ok((StatusCode::CREATED, axum::Json(made)).into_response())
}

/// `POST /api/contests/{cid}/rejudgings` (admins): `{"submission_id"}`, `{"problem_id"}`,
/// `{"team_id"}` and/or `{"judgement_type_id"}`; answers the rejudging's id (`null` when
/// nothing matched) and the ids queued again.
async fn post_rejudging(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let request: RejudgeRequest = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("rejudging body: {e}")))?;
    let done = operations::rejudge(&state, &contest, &who, "admin (API)", request).await?;
    let id = done.id.map(|id| id.to_string());
    Ok(axum::Json(json!({"id": id, "submission_ids": done.submission_ids})).into_response())
}

/// `POST /api/contests/{cid}/control` (admins): a jury action on the clock,
/// `{"action": "start_now" | "delay" | "freeze" | "thaw" | "end" | "finalize"}` (`delay`
/// with `"start_time"`, RFC 3339); answers the new state, or 409 saying why not now.
async fn post_control(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    if who != Viewer::Admin {
        return Err(ApiError::forbidden("only the jury controls the contest"));
    }
    let action: Action = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("control body: {e}")))?;
    let now = actions::control(&state, &contest, &who, "admin (API)", action).await?;
    Ok(axum::Json(now).into_response())
}

async fn list_teams(
    state: State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    list_objects(state, Path((cid, "teams".to_owned())), headers).await
}

/// `POST /api/contests/{cid}/teams` (admins): one team as `{"id", "name", "token"?}`, or
/// an import: CLICS `teams.json` (an array), CSV or TSV (`id, name[, token]` a line), all
/// added or none (every problem named, one a line). Answers 201 with the teams added and
/// their tokens (generated where not given).
async fn post_teams(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    if who != Viewer::Admin {
        return Err(ApiError::forbidden("only the jury adds teams"));
    }
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("teams body: not UTF-8 text"))?;
    let new: Vec<NewTeam> = if text.trim_start().starts_with('{') {
        vec![
            serde_json::from_str(text)
                .map_err(|e| ApiError::bad_request(format!("team body: {e}")))?,
        ]
    } else {
        jury::parse_import(text).map_err(|errors| ApiError::bad_request(errors.join("\n")))?
    };
    let added = actions::add_teams(&state, &contest, &who, "admin (API)", &new).await?;
    let body: Vec<Value> = added
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "token": t.token}))
        .collect();
    Ok((StatusCode::CREATED, axum::Json(Value::Array(body))).into_response())
}

/// `POST /api/contests/{cid}/teams/{id}/disable` (admins).
async fn disable_team(
    state: State<Shared>,
    path: Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    set_disabled(state, path, headers, true).await
}

/// `POST /api/contests/{cid}/teams/{id}/enable` (admins).
async fn enable_team(
    state: State<Shared>,
    path: Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    set_disabled(state, path, headers, false).await
}

async fn set_disabled(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
    disabled: bool,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    actions::set_team_disabled(&state, &contest, &who, "admin (API)", &id, disabled).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/contests/{cid}/submissions/{id}/judging` (admins): every judgement of the
/// submission, oldest first (a rejudged one has several), each with the compiler's output
/// and its runs: the test case, verdict, CPU and wall time (seconds), peak memory (KiB),
/// the checker's message and, on a test not accepted, the beginning of the output.
async fn get_judging(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    if viewer(&state, Some(&contest), &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("the judging details are for the jury"));
    }
    if state.store.submission(&cid, &id).await?.is_none() {
        return Err(ApiError::not_found(format!("no submission `{id}`")));
    }
    let judgements = state.store.judgements_of(&cid, &id).await?;
    let mut out = Vec::new();
    for j in &judgements {
        let runs: Vec<Value> = state
            .store
            .jury_runs(&cid, &j.id)
            .await?
            .iter()
            .map(|r| {
                json!({
                    "ordinal": r.run.ordinal,
                    "test": r.detail.test_name,
                    "judgement_type_id": r.run.verdict.clics_id(),
                    "run_time": r.run.run_time,
                    "wall_time": r.detail.wall_time,
                    "memory_kib": r.detail.memory_kib,
                    "message": r.detail.message,
                    "output_head": r.detail.output_head,
                })
            })
            .collect();
        out.push(json!({
            "id": j.id,
            "judgement_type_id": j.verdict.clics_id(),
            "compile_log": state.store.compile_log(&cid, &j.id).await?,
            "runs": runs,
        }));
    }
    Ok(axum::Json(Value::Array(out)))
}

/// `GET /api/contests/{cid}/audit` (admins): the jury's actions, oldest first.
async fn get_audit(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    if viewer(&state, Some(&contest), &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("the audit log is for the jury"));
    }
    let rows = state.store.audit(&cid).await?;
    Ok(axum::Json(Value::Array(
        rows.iter()
            .map(|r| {
                json!({
                    "id": r.seq.to_string(),
                    "actor": r.actor,
                    "action": r.action,
                    "detail": r.detail,
                    "time": clics::time_of_ms(r.time_ms),
                })
            })
            .collect(),
    )))
}

/// `GET /api/contests/{cid}/export` (admins): the contest as a zip (`export`).
async fn get_export(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    super::export_download(&state, &cid, &who).await
}

/// `GET /api/backup` (admins): a consistent copy of the SQLite database, which
/// `judge serve --db` opens as it is.
async fn get_backup(State(state): State<Shared>, headers: HeaderMap) -> ApiResult<Response> {
    if viewer(&state, None, &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("the backup is for admins"));
    }
    let bytes = export::backup(&state).await?;
    Ok(([(header::CONTENT_TYPE, "application/vnd.sqlite3")], bytes).into_response())
}

async fn queue_status(
    State(state): State<Shared>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    if viewer(&state, None, &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("the queue is for admins"));
    }
    let counts = state.store.queue_counts().await?;
    Ok(axum::Json(json!({
        "queued": counts.queued,
        "judging": counts.judging,
        "done": counts.done,
    })))
}
