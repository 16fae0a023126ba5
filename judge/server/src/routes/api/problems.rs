//! The API's problem packages and problems (admins): `POST
//! /api/contests/{cid}/packages` takes a package's zip as the body (`?name=` the file's
//! name) and answers what the judge's loader found; `GET .../packages/{sha256}` answers
//! the same for a kept one; `POST /api/contests/{cid}/problems` adds a kept package as a
//! problem (`{"package_sha256", "id"?, "label"?}`, answering its CLICS object) and `POST
//! .../problems/{id}/remove` removes one before the start. The rules, limits and records
//! are the jury pages' (`uploads`, `actions::add_problem`, `actions::remove_problem`).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiResult, Shared, viewer};
use crate::actions;
use crate::clics;
use crate::contest::Contest;
use crate::error::ApiError;
use crate::routes::contest_of;
use crate::state::AppState;
use crate::unzip::LIMITS;
use crate::uploads;
use crate::viewer::Viewer;

/// The routes (the problems' list stays `list_objects`'s, beside the POST here).
pub(super) fn router() -> Router<Shared> {
    let upload_body = LIMITS.compressed as usize + (1 << 20);
    Router::new()
        .route(
            "/api/contests/{cid}/packages",
            post(post_package).layer(DefaultBodyLimit::max(upload_body)),
        )
        .route("/api/contests/{cid}/packages/{sha256}", get(get_package))
        .route(
            "/api/contests/{cid}/problems",
            get(list_problems).post(post_problem),
        )
        .route(
            "/api/contests/{cid}/problems/{id}/remove",
            post(remove_problem),
        )
}

/// The contest and the caller, who must be an admin.
fn for_admins(state: &AppState, cid: &str, headers: &HeaderMap) -> ApiResult<Arc<Contest>> {
    let contest = contest_of(state, cid)?;
    if viewer(state, Some(&contest), headers)? != Viewer::Admin {
        return Err(ApiError::forbidden("problem packages are the jury's"));
    }
    Ok(contest)
}

async fn list_problems(
    state: State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    super::list_objects(state, Path((cid, "problems".to_owned())), headers).await
}

/// What the loader found in kept package `sha256` (named `name`, `size` bytes zipped).
async fn report(state: &AppState, sha256: &str, name: &str, size: i64) -> ApiResult<Value> {
    let root = uploads::unpacked(&state.store, sha256).await?;
    let loaded = uploads::load(root.clone()).await;
    let diagnostics: Vec<Value> = loaded
        .diagnostics
        .iter()
        .map(|d| {
            json!({
                "severity": match d.severity {
                    problems::Severity::Error => "error",
                    problems::Severity::Warning => "warning",
                },
                "path": d.path.strip_prefix(&root).unwrap_or(&d.path).display().to_string(),
                "message": d.message,
            })
        })
        .collect();
    let problem = loaded.problem.as_ref().map(|p| {
        json!({
            "name": p.name,
            "short_name": p.short_name,
            "time_limit": p.limits.time.as_secs_f64(),
            "samples": p.sample.cases.len(),
            "secret": p.secret.cases.len(),
            "submissions": p.submissions.len(),
        })
    });
    Ok(json!({
        "sha256": sha256,
        "name": name,
        "size": size,
        "loads": loaded.problem.is_some(),
        "problem": problem,
        "diagnostics": diagnostics,
        "failure": loaded.failure,
    }))
}

/// `POST /api/contests/{cid}/packages?name=FILE` (admins): the zip as the body, read
/// only once the caller is known to be an admin (413 over [`LIMITS`]).
async fn post_package(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    let contest = for_admins(&state, &cid, &headers)?;
    let body = axum::body::to_bytes(body, LIMITS.compressed as usize)
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the zip is larger than the limit of {}, or was cut off",
                    crate::unzip::size(LIMITS.compressed)
                ),
            )
        })?;
    let name = query
        .get("name")
        .filter(|n| !n.trim().is_empty())
        .cloned()
        .unwrap_or_else(|| "package.zip".to_owned());
    let (row, _) =
        uploads::upload(&state.store, &contest.spec.id, "admin (API)", &name, &body).await?;
    let answer = report(&state, &row.sha256, &row.name, row.size).await?;
    Ok((StatusCode::CREATED, axum::Json(answer)).into_response())
}

/// `GET /api/contests/{cid}/packages/{sha256}` (admins).
async fn get_package(
    State(state): State<Shared>,
    Path((cid, sha256)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<Value>> {
    for_admins(&state, &cid, &headers)?;
    let row = state
        .store
        .package(&sha256)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no uploaded package `{sha256}`")))?;
    Ok(axum::Json(
        report(&state, &row.sha256, &row.name, row.size).await?,
    ))
}

/// A problem to add from a kept package.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PostProblem {
    package_sha256: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    label: Option<String>,
}

/// `POST /api/contests/{cid}/problems` (admins): answers 201 with the problem.
async fn post_problem(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let contest = for_admins(&state, &cid, &headers)?;
    let post: PostProblem = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("problem body: {e}")))?;
    let id = post.id.unwrap_or_default();
    actions::add_problem(
        &state,
        &contest,
        &Viewer::Admin,
        "admin (API)",
        &post.package_sha256,
        &id,
        &post.label.unwrap_or_default(),
    )
    .await?;
    let served = contest_of(&state, &cid)?;
    let started = chrono::Utc::now() >= served.start_time();
    let added = clics::problems(&served, started)
        .into_iter()
        .last()
        .map(|p| clics::to_value(&p))
        .unwrap_or(Value::Null);
    Ok((StatusCode::CREATED, axum::Json(added)).into_response())
}

/// `POST /api/contests/{cid}/problems/{id}/remove` (admins): 204.
async fn remove_problem(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let contest = for_admins(&state, &cid, &headers)?;
    actions::remove_problem(&state, &contest, &Viewer::Admin, "admin (API)", &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
