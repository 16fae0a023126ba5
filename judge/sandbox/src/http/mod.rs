//! The HTTP layer (the only module naming axum): the routes of the three APIs, the bearer
//! token, the body-size limit, and how a [`Refusal`] is answered in each API's dialect.
//!
//! Every judgement runs in a task of its own, so a client that hangs up does not cancel a
//! sandbox half-way: the judgement finishes, its sandbox is closed, and the answer is
//! dropped.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::error::Refusal;
use crate::{Service, evaluate, fusion, judge0};

type Shared = Arc<Service>;

/// Serves the routes on `listener` until the process is stopped.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    service: Shared,
) -> std::io::Result<()> {
    axum::serve(listener, app(service)).await
}

/// Every route, behind the token check and the body-size limit.
fn app(service: Shared) -> Router {
    let max_body = service.limits.max_body_bytes;
    Router::new()
        .route("/v1/ping", get(ping))
        .route("/run_code", post(run_code))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .route("/languages", get(judge0_languages))
        .route("/languages/{id}", get(judge0_language))
        .route("/statuses", get(judge0_statuses))
        .route("/about", get(judge0_about))
        .route("/config_info", get(judge0_config))
        .route("/submissions", post(judge0_create))
        .route(
            "/submissions/batch",
            post(judge0_create_batch).get(judge0_get_batch),
        )
        .route("/submissions/{token}", get(judge0_get))
        .route("/v1/evaluate", post(native_evaluate))
        .route("/v1/problems", get(native_problems))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&service),
            authorize,
        ))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(service)
}

/// With a token set, every route but `/v1/ping` needs `Authorization: Bearer TOKEN` or
/// Judge0's `X-Auth-Token: TOKEN`.
async fn authorize(State(service): State<Shared>, request: Request, next: Next) -> Response {
    let Some(token) = &service.token else {
        return next.run(request).await;
    };
    if request.uri().path() == "/v1/ping" {
        return next.run(request).await;
    }
    let headers = request.headers();
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let judge0 = headers.get("x-auth-token").and_then(|v| v.to_str().ok());
    if bearer.or(judge0).is_some_and(|given| same(given, token)) {
        return next.run(request).await;
    }
    let mut response = (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({
            "error": "this server needs a token: send `Authorization: Bearer TOKEN` (the server's --token)"
        })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// Compares two tokens in time independent of where they differ.
fn same(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A JSON answer with `status`.
fn json_response(status: u16, body: &Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(body)).into_response()
}

/// `refusal` answered with `body`, its status and its `Retry-After`.
fn refused(refusal: &Refusal, body: &Value) -> Response {
    let mut response = json_response(refusal.status(), body);
    if let Some(seconds) = refusal.retry_after()
        && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
    {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// The body, or the answer for one above the limit (naming it) or unreadable.
fn body_of(body: Result<Bytes, BytesRejection>, service: &Service) -> Result<Bytes, Refusal> {
    body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal::TooLarge {
                what: "the request body".to_owned(),
                size: service.limits.max_body_bytes as u64 + 1,
                limit: service.limits.max_body_bytes as u64,
                option: "--max-body-bytes",
            }
        } else {
            Refusal::invalid("body", rejection.body_text())
        }
    })
}

/// The body parsed as JSON of `T`: a body above the limit or unreadable, or one that is
/// not such JSON, is a [`Refusal`] (`Invalid` on the field `body` for bad JSON).
fn parse_json<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    service: &Service,
) -> Result<T, Refusal> {
    let bytes = body_of(body, service)?;
    serde_json::from_slice(&bytes).map_err(|err| Refusal::invalid("body", err.to_string()))
}

/// Runs `work` in a task of its own (a client that hangs up does not cancel it).
async fn detached<T: Send + 'static>(
    work: impl Future<Output = T> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::spawn(work)
        .await
        .map_err(|join| Refusal::Internal(format!("the judgement's task failed: {join}")))
}

// ---------------------------------------------------------------------------------------
// SandboxFusion

async fn ping() -> Response {
    axum::Json("pong").into_response()
}

/// SandboxFusion's (FastAPI's) validation answer: 422 with `detail`.
fn fusion_invalid(field: &str, message: &str) -> Response {
    let loc: Vec<&str> = std::iter::once("body")
        .chain((field != "body").then_some(field))
        .collect();
    json_response(
        422,
        &json!({"detail": [{"type": "value_error", "loc": loc, "msg": message}]}),
    )
}

/// SandboxFusion's answer for a refusal: 422 for a field, `{"detail"}` with the status
/// for a limit or a full queue, and for the server's own failure (a judgement's task that
/// panicked) HTTP 200 with `SandboxError`, as SandboxFusion answers: its clients read
/// that as a sandbox fault, where a 500 would be an error of the request.
fn fusion_refused(refusal: Refusal) -> Response {
    match refusal {
        Refusal::Invalid { field, message } => fusion_invalid(&field, &message),
        Refusal::Internal(message) => {
            axum::Json(fusion::RunCodeResponse::sandbox_error(message)).into_response()
        }
        refusal => refused(&refusal, &json!({"detail": refusal.message()})),
    }
}

async fn run_code(State(service): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let req: fusion::RunCodeRequest = match parse_json(body, &service) {
        Ok(req) => req,
        Err(refusal) => return fusion_refused(refusal),
    };
    let task = {
        let service = Arc::clone(&service);
        async move {
            fusion::run_code(&service.engine, req, &service.limits, service.queue_timeout).await
        }
    };
    match detached(task).await.and_then(|it| it) {
        Ok(answer) => axum::Json(answer).into_response(),
        Err(refusal) => fusion_refused(refusal),
    }
}

// ---------------------------------------------------------------------------------------
// Metrics and the OpenAPI document

async fn metrics(State(service): State<Shared>) -> Response {
    let text = service.engine.metrics.render(&service.engine.gauges());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn openapi() -> Response {
    axum::Json(crate::openapi::document()).into_response()
}

// ---------------------------------------------------------------------------------------
// Judge0

/// Judge0's error answer: `{"error": message}` (its 422s name fields as `{field: [msg]}`).
fn judge0_refused(refusal: &Refusal) -> Response {
    match refusal {
        Refusal::Invalid { field, message } => {
            json_response(422, &json!({ field.clone(): [message] }))
        }
        Refusal::Busy(_) => refused(refusal, &json!({"error": "queue is full"})),
        _ => refused(refusal, &json!({"error": refusal.message()})),
    }
}

async fn judge0_languages() -> Response {
    axum::Json(judge0::languages()).into_response()
}

async fn judge0_language(Path(id): Path<String>) -> Response {
    match id.parse::<u32>().ok().and_then(judge0::language) {
        Some(lang) => axum::Json(lang).into_response(),
        None => json_response(404, &json!({"error": format!("language {id} not found")})),
    }
}

async fn judge0_statuses() -> Response {
    axum::Json(judge0::statuses()).into_response()
}

async fn judge0_about() -> Response {
    axum::Json(judge0::about()).into_response()
}

async fn judge0_config(State(service): State<Shared>) -> Response {
    axum::Json(judge0::config_info(&service.engine, &service.limits)).into_response()
}

async fn judge0_create(
    State(service): State<Shared>,
    Query(query): Query<judge0::Query>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let req: judge0::SubmissionRequest = match parse_json(body, &service) {
        Ok(req) => req,
        Err(refusal) => return judge0_refused(&refusal),
    };
    let task = {
        let service = Arc::clone(&service);
        async move { judge0::create(&service, req, &query).await }
    };
    match detached(task).await.and_then(|it| it) {
        Ok((status, answer)) => json_response(status, &answer),
        Err(refusal) => judge0_refused(&refusal),
    }
}

async fn judge0_create_batch(
    State(service): State<Shared>,
    Query(query): Query<judge0::Query>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let req: judge0::BatchRequest = match parse_json(body, &service) {
        Ok(req) => req,
        Err(refusal) => return judge0_refused(&refusal),
    };
    match judge0::create_batch(&service, req, &query) {
        Ok(answer) => json_response(201, &answer),
        Err(refusal) => judge0_refused(&refusal),
    }
}

async fn judge0_get(
    State(service): State<Shared>,
    Path(token): Path<String>,
    Query(query): Query<judge0::Query>,
) -> Response {
    match judge0::get(&service, &token, &query) {
        Ok(answer) => axum::Json(answer).into_response(),
        Err(refusal) => judge0_refused(&refusal),
    }
}

async fn judge0_get_batch(
    State(service): State<Shared>,
    Query(query): Query<judge0::Query>,
) -> Response {
    match judge0::get_batch(&service, &query) {
        Ok(answer) => axum::Json(answer).into_response(),
        Err(refusal) => judge0_refused(&refusal),
    }
}

// ---------------------------------------------------------------------------------------
// The native API

/// The native error answer: `{"error": message}` with the field or limit named.
fn native_refused(refusal: &Refusal) -> Response {
    let mut body = json!({"error": refusal.message()});
    match refusal {
        Refusal::Invalid { field, .. } => body["field"] = json!(field),
        Refusal::TooLarge { limit, option, .. } => {
            body["limit"] = json!(limit);
            body["option"] = json!(option);
        }
        Refusal::TooMany { limit, option, .. } => {
            body["limit"] = json!(limit);
            body["option"] = json!(option);
        }
        _ => {}
    }
    refused(refusal, &body)
}

async fn native_evaluate(
    State(service): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let req: evaluate::EvaluateRequest = match parse_json(body, &service) {
        Ok(req) => req,
        Err(refusal) => return native_refused(&refusal),
    };
    let task = {
        let service = Arc::clone(&service);
        async move { evaluate::evaluate(&service.engine, req, &service.limits).await }
    };
    match detached(task).await.and_then(|it| it) {
        Ok(answer) => axum::Json(answer).into_response(),
        Err(refusal) => native_refused(&refusal),
    }
}

async fn native_problems(State(service): State<Shared>) -> Response {
    axum::Json(evaluate::problem_list(&service.engine)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abd", "abc"));
        assert!(!same("ab", "abc"));
        assert!(!same("", "abc"));
    }

    async fn json_of(response: Response) -> Value {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        serde_json::from_slice(&bytes).expect("JSON")
    }

    #[tokio::test]
    async fn a_fusion_internal_failure_is_a_sandbox_error_not_a_500() {
        let response = fusion_refused(Refusal::Internal("the judgement's task failed".into()));
        assert_eq!(response.status(), StatusCode::OK);
        let body = json_of(response).await;
        assert_eq!(body["status"], "SandboxError", "{body}");
        assert_eq!(body["message"], "the judgement's task failed", "{body}");
        assert!(body["run_result"].is_null(), "{body}");
        let busy = fusion_refused(Refusal::TimedOut);
        assert_eq!(busy.status(), StatusCode::GATEWAY_TIMEOUT);
    }

    #[tokio::test]
    async fn a_fusion_validation_error_names_the_field_as_fastapi_does() {
        let response = fusion_invalid("language", "no");
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body = json_of(response).await;
        assert_eq!(
            body,
            json!({"detail": [{"type": "value_error", "loc": ["body", "language"], "msg": "no"}]})
        );
        let whole = json_of(fusion_invalid("body", "not JSON")).await;
        assert_eq!(whole["detail"][0]["loc"], json!(["body"]));
    }
}
