//! The engine behind the three APIs: admission (the bounded queue), the workers, the
//! compile cache, and the two ways a program is judged.
//!
//! # Admission and workers
//!
//! A request is admitted ([`Engine::admit`]) when fewer than `workers + queue` requests
//! are in the server (waiting or being judged); otherwise it is refused at once with
//! [`Busy`] (503 with `Retry-After`). An admitted request waits for a worker
//! ([`Engine::worker`]) for each program it judges: at most `workers` programs are judged
//! at once, each in its own sandbox, first come first served (tokio's fair semaphore).
//! A wait may have a deadline ([`Engine::run_one`]'s `timeout`): SandboxFusion's route
//! gives one so that a request waiting too long is answered 504, which verl retries.
//!
//! # Compiling once
//!
//! [`Engine::run_one`] keeps each `(language, source)`'s compile outcome in memory (at
//! most 50,000 of them, holding at most 256 MiB of text) behind a lock: requests that
//! bring the same program at the same time wait for one compile (without holding a
//! worker while they wait), and later ones take it from memory (a compile killed at its
//! time limit excepted: a loaded machine may cause it; such a compile is reported as a
//! compile time-out, [`RunOne::CompileError`]'s `timed_out`, not as the compiler's
//! refusal). Builds themselves live in the judge's compile cache on disk
//! ([`judge::compile_cache_dir`]), which the judging of a problem ([`Engine::judge`])
//! reads too.
//!
//! # Faults
//!
//! `Err` from the engine is the judge failing (a sandbox that does not start, a supervisor
//! that dies): the APIs answer it as `SandboxError`, Judge0's status 13 or `judge_error`,
//! never as the program's verdict.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use judge::lang::Language;
use judge::problems::Problem;
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::{Compiled, RunInput, RunLimits, RunOutcome, Workbench};
use judge::{Options, Report, Submission};
use sha2::Digest;
use tokio::sync::Semaphore;

use crate::metrics::{Metrics, QueueGauges};

/// The most `(language, source)` outcomes kept in memory; past it (or past
/// [`COMPILED_BYTES`]) the table starts afresh (builds stay in the disk cache).
const COMPILED_KEPT: usize = 50_000;

/// The most bytes of sources and compiler output the kept outcomes may hold.
const COMPILED_BYTES: usize = 256 << 20;

/// How the engine is set up.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// The sandbox backend.
    pub backend: BackendKind,
    /// Programs judged at once.
    pub workers: usize,
    /// Requests that may wait for a worker beyond those being judged.
    pub queue: usize,
    /// The build cache folder.
    pub cache_dir: PathBuf,
    /// Compile time of a `/run_code` or Judge0 program (wall clock).
    pub compile_time: Duration,
    /// Compile memory of a `/run_code` or Judge0 program, in bytes.
    pub compile_memory_bytes: u64,
}

/// The engine: shared by every request.
#[derive(Debug)]
pub struct Engine {
    config: SandboxConfig,
    backend: BackendKind,
    cache_dir: PathBuf,
    workbench: Workbench,
    compile_limits: judge::problems::Limits,
    workers: usize,
    capacity: usize,
    admitted: AtomicUsize,
    waiting: AtomicUsize,
    running: AtomicUsize,
    permits: Semaphore,
    compiled: Mutex<HashMap<[u8; 32], Slot>>,
    /// Bytes held by the outcomes in `compiled` (counted when each is filled).
    compiled_bytes: AtomicUsize,
    /// The problems of the packages the server was started with, by short name.
    pub problems: BTreeMap<String, Arc<Problem>>,
    /// The counters of `/metrics`.
    pub metrics: Metrics,
}

/// The queue is full: try again after `retry_after_s` seconds.
#[derive(Debug, Clone, Copy)]
pub struct Busy {
    /// A guess of when a place frees up, in whole seconds (at least 1).
    pub retry_after_s: u64,
}

/// A request waited for a worker longer than its deadline.
#[derive(Debug, Clone, Copy)]
pub struct TimedOut;

/// Why [`Engine::run_one`] gave no run.
#[derive(Debug)]
pub enum Fault {
    /// No worker became free before the deadline.
    TimedOut,
    /// The judge failed (a sandbox that does not start or dies).
    Judge(judge::Error),
}

/// A program's compile outcome, filled by the first request that compiles it.
type Slot = Arc<tokio::sync::Mutex<Option<Compiled>>>;

/// An admitted request: its place in the server, given back when dropped.
#[derive(Debug)]
pub struct Ticket {
    engine: Arc<Engine>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.engine.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A worker held while one program is judged.
#[derive(Debug)]
pub struct Worker<'a> {
    engine: &'a Engine,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        self.engine.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One program's run on one input ([`Engine::run_one`]).
#[derive(Debug, Clone)]
pub enum RunOne {
    /// It did not compile.
    CompileError {
        /// The compiler's output.
        message: String,
        /// Whether the outcome came from the cache.
        cached: bool,
        /// The compile was killed at its time limit (not a compiler's refusal).
        timed_out: bool,
    },
    /// It ran.
    Ran {
        /// Compile time in milliseconds (0 when the build came from the cache).
        compile_ms: f64,
        /// Whether the build came from the cache.
        cached: bool,
        /// The run.
        run: Box<RunOutcome>,
    },
}

impl Engine {
    /// An engine on `config` with `options`, judging `problems`.
    pub fn new(
        config: SandboxConfig,
        options: &EngineOptions,
        problems: BTreeMap<String, Arc<Problem>>,
    ) -> judge::Result<Engine> {
        let workers = options.workers.max(1);
        let workbench = Workbench::new(
            config.clone(),
            options.backend,
            Some(options.cache_dir.clone()),
        )?;
        Ok(Engine {
            config,
            backend: options.backend,
            cache_dir: options.cache_dir.clone(),
            workbench,
            compile_limits: judge::problems::Limits {
                compilation_time: options.compile_time,
                compilation_memory_bytes: options.compile_memory_bytes,
                ..judge::problems::package::DEFAULT_LIMITS
            },
            workers,
            capacity: workers + options.queue,
            admitted: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            permits: Semaphore::new(workers),
            compiled: Mutex::new(HashMap::new()),
            compiled_bytes: AtomicUsize::new(0),
            problems,
            metrics: Metrics::new(),
        })
    }

    /// The backend programs run on.
    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    /// Workers (programs judged at once).
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Workers plus queue: requests admitted at most at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The queue's gauges now.
    pub fn gauges(&self) -> QueueGauges {
        QueueGauges {
            waiting: self.waiting.load(Ordering::Acquire),
            running: self.running.load(Ordering::Acquire),
            capacity: self.capacity,
            workers: self.workers,
        }
    }

    /// Admits a request, or says the queue is full.
    pub fn admit(self: &Arc<Self>) -> Result<Ticket, Busy> {
        let mut now = self.admitted.load(Ordering::Acquire);
        loop {
            if now >= self.capacity {
                self.metrics
                    .rejected
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let ahead = now.saturating_sub(self.workers) as u64;
                return Err(Busy {
                    retry_after_s: 1 + ahead / self.workers as u64,
                });
            }
            match self
                .admitted
                .compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    return Ok(Ticket {
                        engine: Arc::clone(self),
                    });
                }
                Err(seen) => now = seen,
            }
        }
    }

    /// Waits for a worker, at most `timeout` when given.
    pub async fn worker(&self, timeout: Option<Duration>) -> Result<Worker<'_>, TimedOut> {
        self.worker_until(timeout.map(|t| Instant::now() + t)).await
    }

    /// Waits for a worker until `deadline` when given.
    async fn worker_until(&self, deadline: Option<Instant>) -> Result<Worker<'_>, TimedOut> {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let acquired = match deadline {
            Some(at) => tokio::time::timeout_at(at.into(), self.permits.acquire())
                .await
                .map_err(|_| TimedOut),
            None => Ok(self.permits.acquire().await),
        };
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        let permit = match acquired {
            Ok(Ok(permit)) => permit,
            // The semaphore is never closed; a closed one reads as a time-out.
            Ok(Err(_)) | Err(TimedOut) => {
                self.metrics.timed_out.fetch_add(1, Ordering::Relaxed);
                return Err(TimedOut);
            }
        };
        self.running.fetch_add(1, Ordering::AcqRel);
        Ok(Worker {
            engine: self,
            _permit: permit,
        })
    }

    /// The slot of a program's compile outcome.
    fn slot(&self, language: &Language, source: &str) -> Slot {
        let key = program_key(&language.id, source);
        let mut table = crate::lock(&self.compiled);
        let full = table.len() >= COMPILED_KEPT
            || self.compiled_bytes.load(Ordering::Acquire) >= COMPILED_BYTES;
        if full && !table.contains_key(&key) {
            table.clear();
            self.compiled_bytes.store(0, Ordering::Release);
        }
        Arc::clone(table.entry(key).or_default())
    }

    /// Compiles (once) and runs `source` on `stdin` under `limits`, waiting for workers
    /// at most `timeout` in all; `started` is called once a worker has taken it up.
    ///
    /// A request whose program another request is compiling waits for that compile
    /// without holding a worker; the request that compiles keeps its worker for its run.
    pub async fn run_one(
        &self,
        language: &Language,
        source: &str,
        stdin: String,
        limits: &RunLimits,
        timeout: Option<Duration>,
        started: &(dyn Fn() + Sync),
    ) -> Result<RunOne, Fault> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let slot = self.slot(language, source);
        let mut held = None;
        let (compiled, cached) = {
            let mut guard = match deadline {
                Some(at) => tokio::time::timeout_at(at.into(), slot.lock())
                    .await
                    .map_err(|_| {
                        self.metrics.timed_out.fetch_add(1, Ordering::Relaxed);
                        Fault::TimedOut
                    })?,
                None => slot.lock().await,
            };
            match &*guard {
                Some(compiled) => {
                    self.metrics.cache_hits.fetch_add(1, Ordering::Relaxed);
                    (compiled.clone(), true)
                }
                None => {
                    held = Some(
                        self.worker_until(deadline)
                            .await
                            .map_err(|_| Fault::TimedOut)?,
                    );
                    started();
                    let compiled = self
                        .workbench
                        .compile_under(&language.id, source, &self.compile_limits)
                        .await
                        .map_err(Fault::Judge)?;
                    self.metrics.cache_misses.fetch_add(1, Ordering::Relaxed);
                    if kept(&compiled) {
                        self.compiled_bytes
                            .fetch_add(held_bytes(&compiled), Ordering::AcqRel);
                        *guard = Some(compiled.clone());
                    }
                    (compiled, false)
                }
            }
        };
        let program = match compiled {
            Compiled::Failed { message } => {
                self.metrics.programs.fetch_add(1, Ordering::Relaxed);
                self.metrics.verdict("CE");
                let timed_out = compile_timed_out(&message);
                return Ok(RunOne::CompileError {
                    message,
                    cached,
                    timed_out,
                });
            }
            Compiled::Ok(program) => program,
        };
        let _worker = match held {
            Some(worker) => worker,
            None => {
                let worker = self
                    .worker_until(deadline)
                    .await
                    .map_err(|_| Fault::TimedOut)?;
                started();
                worker
            }
        };
        let compile_ms = if cached || program.compile.cached {
            0.0
        } else {
            program.compile.wall_ms
        };
        let mut outcomes = self
            .workbench
            .run_inputs(&program, &[RunInput::stdin(stdin)], limits)
            .await
            .map_err(Fault::Judge)?;
        let run = outcomes.pop().ok_or_else(|| {
            Fault::Judge(judge::Error::Sandbox {
                backend: self.backend.name(),
                why: "the run was not reported".to_owned(),
            })
        })?;
        self.metrics.programs.fetch_add(1, Ordering::Relaxed);
        self.metrics.tests_done(1);
        Ok(RunOne::Ran {
            compile_ms,
            cached: cached || program.compile.cached,
            run: Box::new(run),
        })
    }

    /// Judges `source` in `language` on `problem` with the judge's grading path (its
    /// checker: the default validator with the problem's flags, its output validator or
    /// its interactor), every test run unless `stop_at_first_failure`.
    pub async fn judge(
        &self,
        problem: &Problem,
        language: Language,
        source: &str,
        stop_at_first_failure: bool,
    ) -> judge::Result<Report> {
        let submission = Submission {
            path: PathBuf::from(language.source_name(source)),
            source: source.to_owned(),
            language,
        };
        let options = Options {
            backend: self.backend,
            run_all: !stop_at_first_failure,
            cache_dir: Some(self.cache_dir.clone()),
        };
        judge::judge(problem, &submission, &self.config, &options, &mut |_| {}).await
    }
}

/// Whether a compile outcome is kept in memory: a build, or a compiler's refusal; not a
/// compile killed at its time limit, which a loaded machine may cause and a later
/// request should try again.
fn kept(compiled: &Compiled) -> bool {
    match compiled {
        Compiled::Ok(_) => true,
        Compiled::Failed { message } => !compile_timed_out(message),
    }
}

/// The bytes a kept compile outcome holds: its source and the compiler's output.
fn held_bytes(compiled: &Compiled) -> usize {
    match compiled {
        Compiled::Ok(program) => program.source().len() + program.compile.log.len(),
        Compiled::Failed { message } => message.len(),
    }
}

/// Whether a failed compile's log says it was killed at its time limit (the note the
/// judge's compile step appends, `judge::grade::compile`).
pub(crate) fn compile_timed_out(message: &str) -> bool {
    message.contains("compilation killed at the limit of")
}

/// The key of a program: SHA-256 of its language id, a zero byte and its source.
fn program_key(language: &str, source: &str) -> [u8; 32] {
    let mut hasher = sha2::Sha256::new();
    hasher.update(language.as_bytes());
    hasher.update([0]);
    hasher.update(source.as_bytes());
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(workers: usize, queue: usize) -> Arc<Engine> {
        let config = SandboxConfig {
            image: "none".to_owned(),
            rootfs: "/nonexistent".into(),
            supervisor: "/nonexistent".into(),
            recipe_hash: "0".to_owned(),
            cpus: None,
            workspaces: Default::default(),
        };
        let options = EngineOptions {
            backend: BackendKind::Bwrap,
            workers,
            queue,
            cache_dir: std::env::temp_dir(),
            compile_time: Duration::from_secs(60),
            compile_memory_bytes: 2 << 30,
        };
        Arc::new(Engine::new(config, &options, BTreeMap::new()).expect("engine"))
    }

    #[test]
    fn admission_stops_at_workers_plus_queue_and_frees_on_drop() {
        let engine = engine(2, 3);
        let tickets: Vec<Ticket> = (0..5).map(|_| engine.admit().expect("room")).collect();
        let busy = engine.admit().expect_err("full");
        assert!(busy.retry_after_s >= 1);
        assert_eq!(engine.metrics.rejected.load(Ordering::Relaxed), 1);
        drop(tickets);
        assert!(engine.admit().is_ok());
    }

    #[tokio::test]
    async fn a_worker_wait_with_a_deadline_times_out_when_all_are_busy() {
        let engine = engine(1, 1);
        let held = engine.worker(None).await.expect("a free worker");
        assert_eq!(engine.gauges().running, 1);
        assert!(engine.worker(Some(Duration::from_millis(1))).await.is_err());
        assert_eq!(engine.gauges().waiting, 0);
        drop(held);
        assert_eq!(engine.gauges().running, 0);
        assert!(engine.worker(Some(Duration::from_secs(60))).await.is_ok());
    }

    #[test]
    fn a_compile_killed_at_its_time_limit_is_not_kept() {
        let failed = |message: &str| Compiled::Failed {
            message: message.to_owned(),
        };
        assert!(kept(&failed("main.cpp:1: error: x")));
        assert!(kept(&failed("\ncompilation killed at the memory limit")));
        assert!(!kept(&failed(
            "\ncompilation killed at the limit of 60000 ms"
        )));
    }

    #[test]
    fn the_compile_table_starts_afresh_past_its_bytes() {
        let engine = engine(1, 0);
        let lang = judge::lang::by_id("cpp").expect("cpp");
        let first = engine.slot(&lang, "a");
        assert!(Arc::ptr_eq(&first, &engine.slot(&lang, "a")), "kept");
        engine
            .compiled_bytes
            .store(COMPILED_BYTES, Ordering::Release);
        // A program already kept is still found; a new one starts the table afresh.
        assert!(Arc::ptr_eq(&first, &engine.slot(&lang, "a")));
        engine.slot(&lang, "b");
        assert_eq!(engine.compiled_bytes.load(Ordering::Acquire), 0);
        assert!(!Arc::ptr_eq(&first, &engine.slot(&lang, "a")), "dropped");
        assert_eq!(
            held_bytes(&Compiled::Failed {
                message: "xyz".to_owned()
            }),
            3
        );
    }

    #[test]
    fn programs_differ_by_language_and_source() {
        assert_eq!(program_key("cpp", "x"), program_key("cpp", "x"));
        assert_ne!(program_key("cpp", "x"), program_key("c", "x"));
        assert_ne!(program_key("cp", "px"), program_key("cpp", "x"));
    }
}
