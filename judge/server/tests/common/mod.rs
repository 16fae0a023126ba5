//! Helpers shared by judge-server's in-process tests (`app.rs`, `clics_schema.rs`):
//! a GET through the router, as a team, the admin or the public.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// `(status, content type, body bytes)` of a GET of `path` through `app`, with a bearer
/// `token` when given.
pub(crate) async fn get(
    app: &Router,
    path: &str,
    token: Option<&str>,
) -> (StatusCode, String, Vec<u8>) {
    let mut request = Request::get(path);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let res = app
        .clone()
        .oneshot(request.body(Body::empty()).expect("request"))
        .await
        .expect("infallible");
    let status = res.status();
    let content_type = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    (status, content_type, bytes.to_vec())
}
