//! The HTTP service (the only module naming axum): [`app`] composes the CLICS API under
//! `/api` ([`api`]) and the web page at `/` ([`web`]) with the layers that cover every
//! route (the body-size limit), and [`serve`] runs it on a listener.
//!
//! `api` and `web` never name each other: both speak through `auth` (who is asking),
//! `submit` (accepting a submission) and `board` (the scoreboard), so the rules are the
//! same on both.

pub mod api;
pub mod web;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::response::{IntoResponse, Response};

use crate::contest::Contest;
use crate::error::ApiError;
use crate::state::AppState;

type Shared = Arc<AppState>;
type ApiResult<T> = Result<T, ApiError>;

/// The whole service: the API and the web page, every route under the body-size limit
/// (`ServeOptions::max_body`).
pub fn app(state: Shared) -> Router {
    let max_body = state.max_body;
    Router::new()
        .merge(api::router())
        .merge(web::router())
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Serves `app` on `listener` until the process is stopped.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    axum::serve(listener, app).await
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "code": self.status.as_u16(),
            "message": self.message,
        });
        (self.status, axum::Json(body)).into_response()
    }
}

/// The contest `cid`, or 404 naming it.
fn contest_of(state: &AppState, cid: &str) -> ApiResult<Arc<Contest>> {
    state
        .contest(cid)
        .ok_or_else(|| ApiError::not_found(format!("no contest `{cid}`")))
}
