//! The HTTP routes: the CLICS Contest API under `/api` (2023-06), with auth, visibility
//! rules and rate limits.
//!
//! Auth: `Authorization: Bearer TOKEN`, or basic auth with the team id (or `admin`) as
//! user and the token as password. No header is the public. Admins see everything; a
//! team sees its own submissions, judgements, runs and code, never another team's; the
//! public sees neither. After the freeze, teams and the public get the frozen scoreboard;
//! it thaws at the end. Hidden test data is never served.
//!
//! A bad request gets a 4xx status with `{"code", "message"}` naming what is wrong, and
//! changes nothing stored.

use std::convert::Infallible;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use base64::Engine;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::clics;
use super::contest::{Contest, ContestSpec};
use super::error::ApiError;
use super::scoreboard;
use super::store::{NewEvent, NewSubmission, Viewer};

type Shared = Arc<AppState>;
type ApiResult<T> = Result<T, ApiError>;

/// The router of `/api`.
pub fn router(state: Shared, max_body: usize) -> Router {
    Router::new()
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
        .route("/api/contests/{cid}/{kind}", get(list_objects))
        .route("/api/contests/{cid}/{kind}/{id}", get(get_object))
        .route("/api/contests/{cid}/scoreboard", get(get_scoreboard))
        .route("/api/contests/{cid}/event-feed", get(event_feed))
        .route("/api/queue", get(queue_status))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(Arc::clone(&state))
        .merge(super::web::router(state))
}

/// Who is calling, from the `Authorization` header.
pub fn viewer(
    state: &AppState,
    contest: Option<&Contest>,
    headers: &HeaderMap,
) -> ApiResult<Viewer> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(Viewer::Public);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::unauthorized("Authorization header is not text"))?;
    let (user, token) = if let Some(token) = value.strip_prefix("Bearer ") {
        (None, token.trim().to_owned())
    } else if let Some(encoded) = value.strip_prefix("Basic ") {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or_else(|| ApiError::unauthorized("basic auth is not base64 of user:password"))?;
        let (user, pass) = decoded
            .split_once(':')
            .ok_or_else(|| ApiError::unauthorized("basic auth is not user:password"))?;
        (Some(user.to_owned()), pass.to_owned())
    } else {
        return Err(ApiError::unauthorized(
            "Authorization must be Bearer or Basic",
        ));
    };
    if token == state.admin_token && user.as_deref().is_none_or(|u| u == "admin") {
        return Ok(Viewer::Admin);
    }
    // Outside a contest (creating one, the queue), any contest's team token is a team.
    let all = if contest.is_none() {
        state.all_contests()
    } else {
        Vec::new()
    };
    let contests: Vec<&Contest> = match contest {
        Some(c) => vec![c],
        None => all.iter().map(AsRef::as_ref).collect(),
    };
    for c in contests {
        if let Some(team) = c.team_by_token(&token)
            && user.as_deref().is_none_or(|u| u == team.id)
        {
            return Ok(Viewer::Team(team.id.clone()));
        }
    }
    Err(ApiError::unauthorized("unknown token"))
}

/// The contest `cid`, or 404 naming it.
pub fn contest_of(state: &AppState, cid: &str) -> ApiResult<Arc<Contest>> {
    state
        .contest(cid)
        .ok_or_else(|| ApiError::not_found(format!("no contest `{cid}`")))
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

async fn list_contests(State(state): State<Shared>) -> axum::Json<Value> {
    axum::Json(Value::Array(
        state
            .all_contests()
            .iter()
            .map(|c| clics::contest(c))
            .collect(),
    ))
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
) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(clics::contest(
        contest_of(&state, &cid)?.as_ref(),
    )))
}

async fn get_state(
    State(state): State<Shared>,
    Path(cid): Path<String>,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    let pending = state
        .store
        .submissions_for_scoring(&cid)
        .await?
        .iter()
        .any(|s| s.state != "done");
    Ok(axum::Json(clics::state(&contest, Utc::now(), pending)))
}

async fn visible_submissions(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
) -> ApiResult<Vec<Value>> {
    let rows = state.store.submissions(&contest.spec.id, who).await?;
    Ok(rows.iter().map(|s| clics::submission(contest, s)).collect())
}

/// The objects of one CLICS collection that `who` may see.
async fn collection(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    kind: &str,
) -> ApiResult<Vec<Value>> {
    Ok(match kind {
        "problems" => clics::problems(contest),
        "languages" => clics::languages(contest),
        "judgement-types" => clics::judgement_types(),
        "teams" => clics::teams(contest),
        "submissions" => visible_submissions(state, contest, who).await?,
        "judgements" => visible_judgements(state, contest, who).await?,
        "runs" => visible_runs(state, contest, who).await?,
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

/// The body of `POST submissions`: CLICS (`files` as a base64 zip) or, as an extension,
/// the source text in `source`. Admins may set `id`, `team_id` and `time`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PostSubmission {
    problem_id: String,
    language_id: String,
    #[serde(default)]
    files: Option<Vec<PostFile>>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    entry_point: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    team_id: Option<String>,
    #[serde(default)]
    time: Option<DateTime<Utc>>,
}

#[derive(Debug, Deserialize)]
struct PostFile {
    data: String,
    #[serde(default)]
    #[allow(dead_code)]
    mime: Option<String>,
}

fn source_from_zip(data: &str) -> ApiResult<String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| ApiError::bad_request(format!("files[0].data: not base64: {e}")))?;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| ApiError::bad_request(format!("files[0].data: not a zip archive: {e}")))?;
    let files: Vec<usize> = (0..archive.len())
        .filter(|&i| archive.by_index(i).is_ok_and(|f| f.is_file()))
        .collect();
    let [index] = files.as_slice() else {
        return Err(ApiError::bad_request(format!(
            "files[0].data: the archive holds {} files; one source file is judged",
            files.len()
        )));
    };
    let file = archive
        .by_index(*index)
        .map_err(|e| ApiError::bad_request(format!("files[0].data: {e}")))?;
    if file.size() > 1 << 20 {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "files[0]: the source is over 1 MiB",
        ));
    }
    let mut text = String::new();
    file.take(1 << 20)
        .read_to_string(&mut text)
        .map_err(|e| ApiError::bad_request(format!("files[0]: not UTF-8 text: {e}")))?;
    Ok(text)
}

/// Checks a submission and stores it; the answer is sent only after the write.
pub async fn submit(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    body: &[u8],
) -> ApiResult<Value> {
    let post: PostSubmission = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("submission body: {e}")))?;
    let team_id = match (who, &post.team_id) {
        (Viewer::Public, _) => {
            return Err(ApiError::unauthorized(
                "submitting needs a team or admin token",
            ));
        }
        (Viewer::Team(team), Some(other)) if other != team => {
            return Err(ApiError::forbidden(format!(
                "team `{team}` cannot submit as `{other}`"
            )));
        }
        (Viewer::Team(team), _) => team.clone(),
        (Viewer::Admin, Some(team)) => team.clone(),
        (Viewer::Admin, None) => {
            return Err(ApiError::bad_request(
                "team_id: required when an admin submits",
            ));
        }
    };
    if !contest.spec.teams.iter().any(|t| t.id == team_id) {
        return Err(ApiError::bad_request(format!(
            "team_id: no team `{team_id}`"
        )));
    }
    if *who != Viewer::Admin && (post.id.is_some() || post.time.is_some()) {
        return Err(ApiError::forbidden("only an admin may set id or time"));
    }
    let problem = contest.problem(&post.problem_id).ok_or_else(|| {
        ApiError::bad_request(format!("problem_id: no problem `{}`", post.problem_id))
    })?;
    if !contest.allows_language(&post.language_id) {
        return Err(ApiError::bad_request(format!(
            "language_id: `{}` is not allowed in this contest",
            post.language_id
        )));
    }
    if post.entry_point.is_some() {
        // Entry points are derived from the source (Java's class); accepted and ignored.
    }
    let source = match (&post.source, &post.files) {
        (Some(text), None) => text.clone(),
        (None, Some(files)) if files.len() == 1 => source_from_zip(&files[0].data)?,
        (None, Some(files)) => {
            return Err(ApiError::bad_request(format!(
                "files: expected one archive, got {}",
                files.len()
            )));
        }
        _ => {
            return Err(ApiError::bad_request(
                "give either files (a base64 zip) or source",
            ));
        }
    };
    let limit = problem.problem.limits.code_bytes;
    if source.len() as u64 > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "source: {} bytes, over the problem's limit of {limit}",
                source.len()
            ),
        ));
    }
    let now = Utc::now();
    let time = post.time.unwrap_or(now);
    if *who != Viewer::Admin {
        if now < contest.spec.start_time {
            return Err(ApiError::forbidden("the contest has not started"));
        }
        if now >= contest.end_time() {
            return Err(ApiError::forbidden("the contest is over"));
        }
        let recent = state
            .store
            .submissions_since(&contest.spec.id, &team_id, now.timestamp_millis() - 60_000)
            .await?;
        if recent >= i64::from(contest.spec.submissions_per_minute) {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "at most {} submissions a minute; try again shortly",
                    contest.spec.submissions_per_minute
                ),
            ));
        }
    }
    let new = NewSubmission {
        id: post.id.clone(),
        contest_id: contest.spec.id.clone(),
        team_id: team_id.clone(),
        problem_id: problem.id.clone(),
        language_id: post.language_id.clone(),
        source,
        time_ms: time.timestamp_millis(),
        contest_time_ms: (time - contest.spec.start_time).num_milliseconds(),
    };
    let stored = state
        .store
        .insert_submission(&new, |row| NewEvent {
            kind: "submissions".into(),
            obj_id: Some(row.id.clone()),
            team_id: Some(row.team_id.clone()),
            data: Some(clics::submission(contest, row)),
        })
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                format!("id: submission `{}` exists", new.id.unwrap_or_default()),
            )
        })?;
    state.queue_changed.notify_waiters();
    state.events_changed.notify_waiters();
    Ok(clics::submission(contest, &stored))
}

async fn post_submission(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    let value = submit(&state, &contest, &who, &body).await?;
    Ok((StatusCode::OK, axum::Json(value)).into_response())
}

/// Judgements visible to `who`: of their own submissions (teams), all (admins).
async fn visible_judgements(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
) -> ApiResult<Vec<Value>> {
    let subs = state.store.submissions(&contest.spec.id, who).await?;
    let ids: std::collections::HashSet<&str> = subs.iter().map(|s| s.id.as_str()).collect();
    let all = state.store.judgements(&contest.spec.id).await?;
    Ok(all
        .iter()
        .filter(|j| ids.contains(j.submission_id.as_str()))
        .map(|j| clics::judgement(contest, j))
        .collect())
}

async fn visible_runs(state: &AppState, contest: &Contest, who: &Viewer) -> ApiResult<Vec<Value>> {
    let judgements = visible_judgements(state, contest, who).await?;
    let ids: std::collections::HashSet<&str> =
        judgements.iter().filter_map(|j| j["id"].as_str()).collect();
    let runs = state.store.runs(&contest.spec.id).await?;
    Ok(runs
        .iter()
        .filter(|r| ids.contains(r.judgement_id.as_str()))
        .map(|r| clics::run(contest, r))
        .collect())
}

/// The scoreboard `who` may see at `now`: frozen for teams and the public between the
/// freeze and the end.
pub async fn scoreboard_for(state: &AppState, contest: &Contest, who: &Viewer) -> ApiResult<Value> {
    let now = Utc::now();
    let frozen = *who != Viewer::Admin
        && contest.freeze_time().is_some_and(|f| now >= f)
        && now < contest.end_time();
    let cid = contest.spec.id.clone();
    // Recomputed only when an event was written since (any host's write moves the token).
    let token = state.store.last_token(&cid).await?;
    let key = (cid.clone(), frozen);
    let cached = state
        .boards
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
        .filter(|(at, _, _)| *at == token)
        .map(|(_, rows, pending)| (rows.clone(), *pending));
    let (rows, pending) = match cached {
        Some(hit) => hit,
        None => {
            let subs = state.store.submissions_for_scoring(&cid).await?;
            let judgements = state.store.judgements(&cid).await?;
            let hide = frozen.then(|| {
                (contest.end_time()
                    - contest.spec.scoreboard_freeze_duration
                    - contest.spec.start_time)
                    .num_milliseconds()
            });
            let rows = scoreboard::to_clics(
                contest,
                &scoreboard::compute(contest, &subs, &judgements, hide),
            );
            let pending = subs.iter().any(|s| s.state != "done");
            state
                .boards
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(key, (token, rows.clone(), pending));
            (rows, pending)
        }
    };
    Ok(json!({
        "time": super::contest::format_time(now),
        "contest_time": super::contest::format_reltime(now - contest.spec.start_time),
        "state": clics::state(contest, now, pending),
        "rows": rows,
    }))
}

async fn get_scoreboard(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    let contest = contest_of(&state, &cid)?;
    let who = viewer(&state, Some(&contest), &headers)?;
    Ok(axum::Json(scoreboard_for(&state, &contest, &who).await?))
}

#[derive(Debug, Deserialize)]
struct FeedQuery {
    #[serde(default)]
    since_token: Option<String>,
    #[serde(default)]
    stream: Option<bool>,
}

fn event_line(e: &super::store::EventRow) -> String {
    let data: Value = e
        .data
        .as_deref()
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or(Value::Null);
    let mut line = json!({"type": e.kind, "data": data, "token": e.seq.to_string()});
    if let Some(id) = &e.obj_id {
        line["id"] = json!(id);
    }
    let mut text = line.to_string();
    text.push('\n');
    text
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
    // Streamed: new events as they are written (woken locally, polled every second for
    // other hosts' writes), a newline every 120 s of silence as the keep-alive.
    let stream = futures_util::stream::unfold(
        (state, cid, who, after, tokio::time::Instant::now()),
        |(state, cid, who, mut after, mut last_sent)| async move {
            loop {
                let waker = Arc::clone(&state);
                let notified = waker.events_changed.notified();
                match state.store.events_since(&cid, after, &who, 500).await {
                    Ok(events) if !events.is_empty() => {
                        after = events.last().map_or(after, |e| e.seq);
                        let text: String = events.iter().map(event_line).collect();
                        let chunk: Result<Bytes, Infallible> = Ok(Bytes::from(text));
                        return Some((
                            chunk,
                            (state, cid, who, after, tokio::time::Instant::now()),
                        ));
                    }
                    Ok(_) => {}
                    Err(err) => {
                        eprintln!("judge serve: event feed: {err}");
                        return None;
                    }
                }
                if last_sent.elapsed() >= Duration::from_secs(120) {
                    last_sent = tokio::time::Instant::now();
                    let chunk: Result<Bytes, Infallible> = Ok(Bytes::from_static(b"\n"));
                    return Some((chunk, (state, cid, who, after, last_sent)));
                }
                let _ = tokio::time::timeout(Duration::from_secs(1), notified).await;
            }
        },
    );
    Ok((content_type, Body::from_stream(stream)).into_response())
}

async fn queue_status(
    State(state): State<Shared>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    if viewer(&state, None, &headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("the queue is for admins"));
    }
    let (queued, judging, done) = state.store.queue_counts().await?;
    Ok(axum::Json(
        json!({"queued": queued, "judging": judging, "done": done}),
    ))
}
