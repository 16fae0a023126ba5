//! The HTTP service (the only module naming axum): [`app`] composes the CLICS API under
//! `/api` ([`api`]), the web page at `/` ([`web`]) and the jury's pages ([`jury`]) with the layers that cover every
//! route (the body-size limit), and [`serve`] runs it on a listener.
//!
//! `api` and `web` never name each other: both speak through `auth` (who is asking),
//! `submit` (accepting a submission) and `board` (the scoreboard), so the rules are the
//! same on both.

pub mod api;
pub mod jury;
pub mod web;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::board::Ready;
use crate::contest::Contest;
use crate::error::ApiError;
use crate::state::AppState;
use crate::viewer::Viewer;

type Shared = Arc<AppState>;
type ApiResult<T> = Result<T, ApiError>;

/// The whole service: the API and the web page, every route under the body-size limit
/// (`ServeOptions::max_body`).
pub fn app(state: Shared) -> Router {
    let max_body = state.max_body;
    Router::new()
        .merge(api::router())
        .merge(web::router())
        .merge(jury::router())
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Serves `app` on `listener` until the process is stopped.
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    // The client's address, for the login rate limit.
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await
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

/// The contest `cid`'s export (`export::export`) as a zip download, for admins only (the
/// API's `GET /api/contests/{cid}/export` and the page's link alike).
async fn export_download(state: &AppState, cid: &str, who: &Viewer) -> ApiResult<Response> {
    let contest = contest_of(state, cid)?;
    if *who != Viewer::Admin {
        return Err(ApiError::forbidden("the export is for admins"));
    }
    let bytes = crate::export::export(state, &contest).await?;
    let disposition = format!("attachment; filename=\"{cid}.zip\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response())
}

/// Whether the client's `If-None-Match` names `etag` (or is `*`).
fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

/// Whether the client's `Accept-Encoding` accepts gzip (without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f64>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// A ready board as the answer: 304 when the client has it, else its JSON, gzipped when
/// accepted; with its `ETag`, `Vary: Accept-Encoding` and `Cache-Control: no-cache` (a
/// cache must ask again, cheaply, each time).
pub(crate) fn ready_response(ready: &Ready, headers: &HeaderMap) -> Response {
    let etag = HeaderValue::from_str(&ready.etag).unwrap_or(HeaderValue::from_static("\"\""));
    let mut res = if matches_etag(headers, &ready.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else if accepts_gzip(headers) {
        let mut res = Body::from(ready.gzip.clone()).into_response();
        res.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        res
    } else {
        Body::from(ready.json.clone()).into_response()
    };
    let ok = res.status() == StatusCode::OK;
    let h = res.headers_mut();
    if ok {
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    h.insert(header::ETAG, etag);
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(name: header::HeaderName, value: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(name, HeaderValue::from_static(value));
        h
    }

    #[test]
    fn gzip_is_sent_only_when_accepted() {
        assert!(accepts_gzip(&headers(
            header::ACCEPT_ENCODING,
            "gzip, deflate, br"
        )));
        assert!(accepts_gzip(&headers(
            header::ACCEPT_ENCODING,
            "br;q=1.0, GZIP;q=0.5"
        )));
        assert!(!accepts_gzip(&headers(
            header::ACCEPT_ENCODING,
            "gzip;q=0, br"
        )));
        assert!(!accepts_gzip(&headers(header::ACCEPT_ENCODING, "identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn if_none_match_lists_and_weak_tags() {
        let tag = "\"c-full-7\"";
        assert!(matches_etag(
            &headers(header::IF_NONE_MATCH, "\"c-full-7\""),
            tag
        ));
        assert!(matches_etag(
            &headers(header::IF_NONE_MATCH, "\"x\", W/\"c-full-7\""),
            tag
        ));
        assert!(matches_etag(&headers(header::IF_NONE_MATCH, "*"), tag));
        assert!(!matches_etag(
            &headers(header::IF_NONE_MATCH, "\"c-full-6\""),
            tag
        ));
    }
}
