//! The judge as the reward service of code RL: `judge sandbox` serves three APIs over
//! one engine ([`engine`]), so that a trainer outside this repository (verl, TRL,
//! OpenRLHF) changes one URL and gets this judge's verdicts.
//!
//! - SandboxFusion's `POST /run_code` and `GET /v1/ping` ([`fusion`]): verl's
//!   `sandbox_fusion` reward and the `sandbox-fusion` PyPI client.
//! - Judge0 CE's `/languages`, `/statuses`, `/about`, `/config_info` and `/submissions`
//!   ([`judge0`]): the `judge0` PyPI SDK and its users.
//! - The native `POST /v1/evaluate` ([`evaluate`]): several programs at once, each
//!   compiled once, judged on inline tests or on a problem of the packages the server
//!   was started with (`--problems`), with per-test results and ready-made scores.
//! - `GET /openapi.json` describes the three ([`openapi`]); `GET /metrics` gives the
//!   counters in Prometheus' text format ([`metrics`]).
//!
//! # Load: what the clients do, and the defaults
//!
//! The server admits at most `workers + queue` requests at once; past that it answers
//! 503 with `Retry-After` (Judge0's body `{"error": "queue is full"}`). The SandboxFusion
//! PyPI client retries any answer that is not 200 (and `SandboxError`), five attempts
//! with exponential back-off, so a 503 costs it only time. verl's reward function retries
//! **only 504** (three attempts, 1 s then 2 s apart) and gives up on anything else at
//! once, scoring the test -1; its HTTP timeout is `compile_timeout + run_timeout + 10`
//! seconds (30 s by default), and `reward_model.sandbox_fusion.max_concurrent` (64 by
//! default) bounds the requests it has in flight. Hence the defaults: a queue of
//! [`DEFAULT_QUEUE`] (1024) requests, so that 64, or verl's documented 256, concurrent
//! requests wait and are never refused; and on `/run_code` a wait for a worker of at most
//! [`DEFAULT_QUEUE_TIMEOUT_S`] (10 s) seconds, after which the request is answered 504,
//! which verl retries, instead of letting its 30 s timeout expire (which it does not
//! retry): 10 s of waiting, then the compile, sandbox starts and the run's wall limit (11
//! s for its default 10 s) fit in 30 s. A request whose own `compile_timeout` and
//! `run_timeout` give its client less room waits less ([`fusion::queue_wait`]). Judge0
//! and the native API wait as long as it takes; their clients choose their own timeouts.
//!
//! A judge fault (a sandbox that does not start or dies, or a judgement's task that
//! panicked) is never a program's verdict: HTTP 200 `SandboxError` with a `message`,
//! Judge0's status 13 (Internal Error), or `"status": "judge_error"` with no scores, so
//! that a trainer drops the sample.
//!
//! # Limits of a request
//!
//! [`Limits`]: source size, standard input, tests per request, programs per request,
//! total output a request may ask to be kept, the request body, times and memory. A
//! request past a size limit is answered 413 and one with a value out of range 400 (422
//! on `/run_code`, as SandboxFusion's validation does), the message naming the field and
//! the limit with the command-line option that sets it.
//!
//! # Security
//!
//! The server listens on loopback unless `--listen` says otherwise. With `--token`, every
//! route but `/v1/ping` needs `Authorization: Bearer TOKEN` (or Judge0's `X-Auth-Token`).
//! Programs run in the judge's sandboxes (Docker or bubblewrap, no network, a read-only
//! root, kernel-enforced memory), as every judgement of this judge does; `/v1/evaluate`
//! runs them exactly as `judge run` does (a read-only work folder), `/run_code` and
//! Judge0 as the agent's workbench does (a work folder the program may write, on a tmpfs
//! counted in its memory).

// The OpenAPI document is written as nested `json!` literals, deeper than the default
// macro recursion limit.
#![recursion_limit = "256"]

pub mod engine;
mod error;
pub mod evaluate;
pub mod fusion;
mod http;
pub mod judge0;
pub mod languages;
pub mod metrics;
pub mod openapi;

pub use error::{Error, Refusal};

/// Locks `mutex`, going on past one a panicking holder left poisoned, so that the server
/// keeps answering rather than failing every later request.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use judge::problems::Problem;
use judge::sandbox::{BackendKind, SandboxConfig};

use crate::engine::{Engine, EngineOptions};

/// The queue's default depth: requests that may wait beyond those being judged.
pub const DEFAULT_QUEUE: usize = 1024;

/// How long a `/run_code` request may wait for a worker before it is answered 504 (less
/// when the request's own timeouts leave its client less room: [`fusion::queue_wait`]).
pub const DEFAULT_QUEUE_TIMEOUT_S: u64 = 10;

/// What one request may ask.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Bytes of a program's source (413 above).
    pub max_source_bytes: usize,
    /// Bytes of one standard input (413 above).
    pub max_stdin_bytes: usize,
    /// Bytes of a request body (413 above).
    pub max_body_bytes: usize,
    /// Standard output kept and returned per run on `/run_code` and Judge0, in bytes;
    /// a program that writes more is stopped there (OLE).
    pub stdout_bytes: usize,
    /// Tests per program in one request (413 above).
    pub max_tests: usize,
    /// Programs in one request (413 above).
    pub max_programs: usize,
    /// Output a `/v1/evaluate` program may write over all its tests (tests times the
    /// output limit per test), in bytes (413 above).
    pub max_total_output_bytes: u64,
    /// The most CPU seconds per run (400 above).
    pub max_time_s: f64,
    /// The most memory per run in MiB (400 above).
    pub max_memory_mb: f64,
    /// Memory per run when the request gives none (or -1), in MiB.
    pub default_memory_mb: f64,
    /// Wall seconds a compile may take (`/run_code`, Judge0, inline tests; a package
    /// problem's own limit applies to it).
    pub compile_time_s: f64,
    /// MiB a compile may use (likewise).
    pub compile_memory_mb: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_source_bytes: 1 << 20,
            max_stdin_bytes: 16 << 20,
            max_body_bytes: 64 << 20,
            stdout_bytes: 8 << 20,
            max_tests: 10_000,
            max_programs: 512,
            max_total_output_bytes: 4 << 30,
            max_time_s: 60.0,
            max_memory_mb: 8192.0,
            default_memory_mb: 2048.0,
            compile_time_s: 60.0,
            compile_memory_mb: 2048.0,
        }
    }
}

impl Limits {
    /// A time limit in seconds as a duration: positive and at most
    /// [`Limits::max_time_s`].
    pub fn time(&self, field: &str, seconds: f64) -> Result<Duration, Refusal> {
        if !seconds.is_finite() || seconds <= 0.0 || seconds > self.max_time_s {
            return Err(Refusal::invalid(
                field,
                format!(
                    "{seconds} s is out of range: above 0 and at most {} s (the server's --max-time)",
                    self.max_time_s
                ),
            ));
        }
        Ok(Duration::from_secs_f64(seconds))
    }

    /// Checks a program's source (the field `what`) against `--max-source-bytes`.
    pub fn check_source(&self, what: impl Into<String>, source: &str) -> Result<(), Refusal> {
        Refusal::check_size(
            what,
            source.len(),
            self.max_source_bytes,
            "--max-source-bytes",
        )
    }

    /// Checks a standard input (the field `what`) against `--max-stdin-bytes`.
    pub fn check_stdin(&self, what: impl Into<String>, stdin: &str) -> Result<(), Refusal> {
        Refusal::check_size(what, stdin.len(), self.max_stdin_bytes, "--max-stdin-bytes")
    }

    /// A memory limit in MiB as bytes: `None` or -1 is the default; otherwise positive
    /// and at most [`Limits::max_memory_mb`].
    pub fn memory(&self, field: &str, mib: Option<f64>) -> Result<u64, Refusal> {
        let mib = match mib {
            None => self.default_memory_mb,
            Some(-1.0) => self.default_memory_mb,
            Some(value) => value,
        };
        if !mib.is_finite() || mib < 1.0 || mib > self.max_memory_mb {
            return Err(Refusal::invalid(
                field,
                format!(
                    "{mib} MiB is out of range: at least 1 and at most {} MiB (the server's --max-memory), or -1 for the default",
                    self.max_memory_mb
                ),
            ));
        }
        Ok((mib * 1024.0 * 1024.0) as u64)
    }
}

/// How `judge sandbox` serves.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// `IP:PORT` to listen on (port 0 picks a free one).
    pub listen: String,
    /// Folders of problem packages (a package, or a folder of packages).
    pub problems: Vec<PathBuf>,
    /// The bearer token every route but `/v1/ping` needs, when set.
    pub token: Option<String>,
    /// The sandbox backend.
    pub backend: BackendKind,
    /// Programs judged at once.
    pub workers: usize,
    /// Requests that may wait beyond those being judged.
    pub queue: usize,
    /// How long a `/run_code` request may wait for a worker before a 504.
    pub queue_timeout: Duration,
    /// The build cache folder.
    pub cache_dir: PathBuf,
    /// What one request may ask.
    pub limits: Limits,
}

impl ServeOptions {
    /// The defaults on `backend`: loopback port 8080, one worker per CPU of the machine,
    /// the queue and timeout above, the judge's compile cache.
    pub fn new(backend: BackendKind) -> ServeOptions {
        ServeOptions {
            listen: "127.0.0.1:8080".to_owned(),
            problems: Vec::new(),
            token: None,
            backend,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            queue: DEFAULT_QUEUE,
            queue_timeout: Duration::from_secs(DEFAULT_QUEUE_TIMEOUT_S),
            cache_dir: judge::compile_cache_dir(),
            limits: Limits::default(),
        }
    }
}

/// The state every route shares.
#[derive(Debug)]
pub(crate) struct Service {
    pub(crate) engine: Arc<Engine>,
    pub(crate) limits: Limits,
    pub(crate) token: Option<String>,
    pub(crate) queue_timeout: Duration,
    pub(crate) judge0: judge0::Store,
}

/// Loads the problems of `folders`: each is a package (it has `problem.yaml`) or a folder
/// whose subfolders with `problem.yaml` are packages. Keyed by short name.
pub fn load_problems(folders: &[PathBuf]) -> Result<BTreeMap<String, Arc<Problem>>, Error> {
    let mut res: BTreeMap<String, Arc<Problem>> = BTreeMap::new();
    for folder in folders {
        let mut packages = Vec::new();
        if folder.join("problem.yaml").is_file() {
            packages.push(folder.clone());
        } else {
            let entries = std::fs::read_dir(folder).map_err(|source| Error::ProblemsFolder {
                path: folder.clone(),
                source,
            })?;
            for entry in entries.flatten() {
                if entry.path().join("problem.yaml").is_file() {
                    packages.push(entry.path());
                }
            }
            packages.sort();
        }
        for path in packages {
            let problem = load_one(&path)?;
            if let Some(first) = res.get(&problem.short_name) {
                return Err(Error::DuplicateProblem {
                    name: problem.short_name.clone(),
                    first: first.root.clone(),
                    second: path,
                });
            }
            res.insert(problem.short_name.clone(), Arc::new(problem));
        }
    }
    Ok(res)
}

fn load_one(path: &Path) -> Result<Problem, Error> {
    let (mut problem, _warnings) =
        problems::load_for_judging(path).map_err(|source| Error::Problem {
            path: path.to_path_buf(),
            source,
        })?;
    // A derived time limit, when the package gives none, from the judge's cache only
    // (`judge verify` or `judge run` measured it): the server measures nothing at start.
    if problem.limits.time_source == problems::TimeLimitSource::Default
        && let Ok(python) = judge::lang::python_for(&problem.root, None)
        && let Some(derived) =
            judge::timelimit::cached(&judge::timelimit::default_cache(), &problem, python)
    {
        judge::timelimit::apply(&mut problem, &derived);
    }
    Ok(problem)
}

/// A server bound to its address, not yet serving ([`bind`]).
pub struct Bound {
    /// The address it listens on (the port chosen when port 0 was asked).
    pub addr: SocketAddr,
    listener: tokio::net::TcpListener,
    service: Arc<Service>,
}

impl std::fmt::Debug for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bound").field("addr", &self.addr).finish()
    }
}

impl Bound {
    /// Serves until the process is stopped (or the future is dropped).
    pub async fn run(self) -> Result<(), Error> {
        http::serve(self.listener, self.service)
            .await
            .map_err(Error::Serve)
    }
}

/// Loads the problems, sets up the engine and binds the address: what [`serve`] does
/// before it serves, for a caller (a test) that wants the address first.
pub async fn bind(opts: ServeOptions, config: SandboxConfig) -> Result<Bound, Error> {
    let problems = load_problems(&opts.problems)?;
    let engine = Engine::new(
        config,
        &EngineOptions {
            backend: opts.backend,
            workers: opts.workers,
            queue: opts.queue,
            cache_dir: opts.cache_dir.clone(),
            compile_time: Duration::from_secs_f64(opts.limits.compile_time_s.clamp(1.0, 3600.0)),
            compile_memory_bytes: (opts.limits.compile_memory_mb.max(64.0) * 1024.0 * 1024.0)
                as u64,
        },
        problems,
    )?;
    let listen_error = |source| Error::Listen {
        addr: opts.listen.clone(),
        source,
    };
    let listener = tokio::net::TcpListener::bind(&opts.listen)
        .await
        .map_err(listen_error)?;
    let addr = listener.local_addr().map_err(listen_error)?;
    let service = Arc::new(Service {
        engine: Arc::new(engine),
        limits: opts.limits.clone(),
        token: opts.token.clone().filter(|t| !t.is_empty()),
        queue_timeout: opts.queue_timeout,
        judge0: judge0::Store::default(),
    });
    Ok(Bound {
        addr,
        listener,
        service,
    })
}

/// Runs the service until the process is stopped. Prints `listening on http://ADDR`
/// once bound.
pub async fn serve(opts: ServeOptions, config: SandboxConfig) -> Result<(), Error> {
    let bound = bind(opts, config).await?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{}", bound.addr);
        let _ = out.flush();
    }
    bound.run().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_refuse_values_out_of_range_naming_the_field() {
        let limits = Limits::default();
        assert_eq!(
            limits.time("run_timeout", 2.5).expect("valid"),
            Duration::from_millis(2500)
        );
        for bad in [0.0, -1.0, f64::NAN, 1e9] {
            let err = limits.time("run_timeout", bad).expect_err("out of range");
            assert!(
                err.message().starts_with("run_timeout: "),
                "{}",
                err.message()
            );
        }
        assert_eq!(limits.memory("m", Some(-1.0)).expect("default"), 2048 << 20);
        assert_eq!(limits.memory("m", None).expect("default"), 2048 << 20);
        assert_eq!(limits.memory("m", Some(64.0)).expect("valid"), 64 << 20);
        assert!(limits.memory("m", Some(0.5)).is_err());
        assert!(limits.memory("m", Some(1e6)).is_err());
    }

    #[test]
    fn the_bundled_packages_load_by_short_name() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
        let problems =
            load_problems(std::slice::from_ref(&root)).expect("the bundled packages load");
        assert!(problems.contains_key("sum"), "{:?}", problems.keys());
        let one = load_problems(&[root.join("sum")]).expect("one package");
        assert_eq!(one.keys().collect::<Vec<_>>(), ["sum"]);
        let twice = load_problems(&[root.join("sum"), root.join("sum")]).expect_err("twice");
        assert!(twice.to_string().contains("`sum`"), "{twice}");
    }
}
