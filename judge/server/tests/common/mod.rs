//! Helpers shared by judge-server's tests (`app.rs`, `clics_schema.rs`, `jury_page.rs`):
//! a GET through the router, as a team, the admin or the public; the server's options
//! for a test; the bubblewrap sandbox, where it is present; a fresh PostgreSQL database.

#![allow(
    dead_code,
    reason = "each test binary compiles this module and uses part of it"
)]

use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

use judge::grade::Options;
use judge::sandbox::{BackendKind, SandboxConfig};
use judge_server::ServeOptions;

pub(crate) mod http;

/// The admin token of every fixture.
pub(crate) const ADMIN: &str = "admin-token-long";

/// A server's options for a test: `contests` on the SQLite file `db`, `workers` judging
/// on bubblewrap, [`ADMIN`], a 60 s lease, 3 takes, a 1 MiB body limit, HTTP at the
/// judging's priority.
pub(crate) fn options(
    contests: Vec<PathBuf>,
    db: &std::path::Path,
    workers: usize,
) -> ServeOptions {
    ServeOptions {
        contests,
        db: db.display().to_string(),
        listen: "127.0.0.1:0".into(),
        workers,
        judge: Options {
            backend: BackendKind::Bwrap,
            run_all: false,
            cache_dir: None,
        },
        admin_token: ADMIN.into(),
        lease: Duration::from_secs(60),
        max_attempts: 3,
        max_body: 1 << 20,
        http_nice: 0,
        secure_cookies: false,
    }
}

/// The bubblewrap sandbox (`SandboxConfig::discover`), or `None` where bubblewrap or its
/// root filesystem is missing outside CI (under CI that fails the test).
pub(crate) fn bwrap_sandbox() -> Option<SandboxConfig> {
    if !ci::require::bwrap() {
        return None;
    }
    let sandbox = SandboxConfig::discover().expect("sandbox config");
    let rootfs_missing =
        (!sandbox.rootfs.is_dir()).then_some("no sandbox root filesystem (run ci/setup)");
    if !ci::require::present("the bubblewrap root filesystem", rootfs_missing) {
        return None;
    }
    Some(sandbox)
}

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

/// A new PostgreSQL database for one test, dropped at the end: `None` where
/// `ARENA_PG_URL` is not set outside CI (under CI that fails the test).
pub(crate) struct Postgres {
    /// Its URL.
    pub(crate) url: String,
    admin_url: String,
    name: String,
}

impl Postgres {
    /// Creates a database named after `prefix`, the process and the time.
    pub(crate) fn fresh(prefix: &str) -> Option<Postgres> {
        let admin_url = std::env::var("ARENA_PG_URL").ok();
        let missing = admin_url
            .is_none()
            .then_some("ARENA_PG_URL is not set (run ci/setup)");
        if !ci::require::present("postgres", missing) {
            return None;
        }
        let admin_url = admin_url.expect("checked");
        let name = format!(
            "{prefix}_{}_{}",
            std::process::id(),
            chrono::Utc::now().timestamp_subsec_nanos()
        );
        psql(&admin_url, &format!("CREATE DATABASE {name}"));
        let url = format!("{}/{name}", admin_url.rsplit_once('/').expect("a URL").0);
        Some(Postgres {
            url,
            admin_url,
            name,
        })
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        psql(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// Runs `sql` with `psql` on `url`, which must succeed.
fn psql(url: &str, sql: &str) {
    let out = std::process::Command::new("psql")
        .args([url, "-tAc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
