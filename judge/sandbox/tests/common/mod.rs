//! Helpers of the reward service's end-to-end tests: the backends present here (under
//! `CI=true` a missing one fails the test), the library's server started on port 0 with
//! the real sandbox, and HTTP to it with reqwest. Each test binary uses a part of them.
#![allow(
    dead_code,
    reason = "each test binary compiles this module and uses part of it"
)]

use std::path::{Path, PathBuf};

use judge::sandbox::{BackendKind, SandboxConfig};
use judge_sandbox::ServeOptions;
use serde_json::Value;

/// The backends present here (under CI both must be).
pub(crate) fn backends() -> Vec<BackendKind> {
    let mut res = Vec::new();
    if ci::require::docker() {
        res.push(BackendKind::Docker);
    }
    if ci::require::bwrap() {
        res.push(BackendKind::Bwrap);
    }
    res
}

/// One backend present here, bubblewrap first (the quicker to start).
pub(crate) fn one_backend() -> Option<BackendKind> {
    let all = backends();
    all.iter()
        .copied()
        .find(|b| *b == BackendKind::Bwrap)
        .or_else(|| all.first().copied())
}

/// How long a test polls for a state before it fails (far beyond what any poll needs:
/// it is there so that a state that never comes fails the test rather than hangs it).
pub(crate) const POLL_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Fails the test once polling for `what` began more than [`POLL_LIMIT`] ago.
pub(crate) fn still_polling(since: std::time::Instant, what: &str) {
    assert!(
        since.elapsed() < POLL_LIMIT,
        "gave up polling for {what} after {} s",
        POLL_LIMIT.as_secs()
    );
}

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server of the library, serving in a task of the test's runtime; its build cache is
/// a folder of its own, so each server compiles afresh.
pub(crate) struct Server {
    /// `http://127.0.0.1:PORT`.
    pub(crate) url: String,
    pub(crate) client: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
    _cache: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts a server on `backend` with two workers, the options changed by `tweak`.
pub(crate) async fn start(backend: BackendKind, tweak: impl FnOnce(&mut ServeOptions)) -> Server {
    start_with(
        backend,
        SandboxConfig::discover().expect("sandbox config"),
        tweak,
    )
    .await
}

/// [`start`] with a sandbox configuration of the caller's (a broken one, say).
pub(crate) async fn start_with(
    backend: BackendKind,
    config: SandboxConfig,
    tweak: impl FnOnce(&mut ServeOptions),
) -> Server {
    let cache = tempfile::tempdir().expect("tempdir");
    let mut opts = ServeOptions::new(backend);
    opts.listen = "127.0.0.1:0".to_owned();
    opts.workers = 2;
    opts.cache_dir = cache.path().to_path_buf();
    tweak(&mut opts);
    let bound = judge_sandbox::bind(opts, config)
        .await
        .expect("the server binds");
    let url = format!("http://{}", bound.addr);
    let task = tokio::spawn(async move {
        let _ = bound.run().await;
    });
    Server {
        url,
        client: reqwest::Client::new(),
        task,
        _cache: cache,
    }
}

/// An answer: status, headers, body as JSON (or `Value::String` when not JSON).
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: reqwest::header::HeaderMap,
    pub(crate) body: Value,
    pub(crate) text: String,
}

impl Server {
    /// POSTs `body` as JSON to `path`.
    pub(crate) async fn post(&self, path: &str, body: &Value) -> Answer {
        self.send(self.client.post(format!("{}{path}", self.url)).json(body))
            .await
    }

    /// GETs `path`.
    pub(crate) async fn get(&self, path: &str) -> Answer {
        self.send(self.client.get(format!("{}{path}", self.url)))
            .await
    }

    /// Sends `request` and reads the answer.
    pub(crate) async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text.clone()));
        Answer {
            status,
            headers,
            body,
            text,
        }
    }

    /// `/run_code` with `body`; must answer 200.
    pub(crate) async fn run_code(&self, body: &Value) -> Value {
        let answer = self.post("/run_code", body).await;
        assert_eq!(answer.status, 200, "{body}: {}", answer.text);
        answer.body
    }

    /// `/v1/evaluate` with `body`; must answer 200.
    pub(crate) async fn evaluate(&self, body: &Value) -> Value {
        let answer = self.post("/v1/evaluate", body).await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        answer.body
    }

    /// The value of the metric sample `name` (with its labels, as written) in `/metrics`.
    pub(crate) async fn metric(&self, name: &str) -> f64 {
        let text = self.get("/metrics").await.text;
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
            .map_or(0.0, |v| v.trim().parse().expect("a number"))
    }
}

/// A bundled problem package's file.
pub(crate) fn package_file(package: &str, path: &str) -> String {
    let file = root().join("problems/packages").join(package).join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}
