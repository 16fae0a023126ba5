//! Judge0 CE's API, the part its clients use: `GET /languages`, `/languages/{id}`,
//! `/statuses`, `/about` (version `1.13.1`, the one the `judge0` SDK maps aliases for),
//! `/config_info` (every field the SDK's strict model needs), `POST /submissions`
//! (`base64_encoded`, `wait`), `POST /submissions/batch` (at most 20), and
//! `GET /submissions/{token}` and `GET /submissions/batch?tokens=` with `fields`.
//!
//! A submission runs as `/run_code` does (compiled once, one sandbox for the run):
//! `cpu_time_limit` (default 5 s, at most [`MAX_CPU_TIME_S`] or `--max-time` if lower, as
//! `/config_info` says) is the CPU-time limit, the wall clock the judge's rule (the limit
//! plus 1 s or 10%), so `wall_time_limit` and `cpu_extra_time` are read and not used;
//! `memory_limit` is in KB (default 128000, at most the server's `--max-memory`).
//! `expected_output` is compared as Judge0 compares: trailing whitespace of each line and
//! trailing blank lines do not count. Statuses are Judge0's ids and descriptions: 3
//! Accepted, 4 Wrong Answer, 5 Time Limit Exceeded, 6 Compilation Error (with the message
//! `Compilation time limit exceeded` for a compile killed at the server's compile time
//! limit), 7 to 12 the runtime errors by signal (11 a non-zero exit, 8 the output limit,
//! 12 with the message `Memory limit exceeded` for MLE, which Judge0 has no status for),
//! 13 a judge fault, 1 and 2 while it waits or runs. `time` and `wall_time` are seconds
//! as strings (`"0.012"`), `memory` KB, as Judge0 writes them. A Python syntax error is a
//! run that exits with 1 (11, the message in `stderr`), as in Judge0, where Python has no
//! compile step.
//!
//! Tokens are random UUIDs (version 4); submissions are kept in memory for polling, the
//! newest [`KEPT`] within [`KEPT_BYTES`] of text; only finished ones are dropped, never
//! one still queued or running, and a judgement whose task panics finishes with 13.
//! Options this server does not honour
//! (`additional_files`, `callback_url`, `compiler_options`, `command_line_arguments`,
//! `enable_network`, `redirect_stderr_to_stdout`) are refused with 422 when set, as
//! Judge0 refuses what its configuration disables.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use judge::workbench::{RunLimits, RunStatus};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::engine::{Engine, Fault, RunOne, Ticket};
use crate::error::Refusal;
use crate::{Limits, Service, lock};

/// Submissions kept for polling, at most.
pub const KEPT: usize = 100_000;

/// Bytes of submissions (sources, inputs, outputs) kept for polling, at most.
pub const KEPT_BYTES: usize = 1 << 30;

/// The most `cpu_time_limit` in seconds, as Judge0's default `MAX_CPU_TIME_LIMIT` (lower
/// when the server's `--max-time` is lower).
pub const MAX_CPU_TIME_S: f64 = 15.0;

/// Submissions in one batch, as Judge0's `MAX_SUBMISSION_BATCH_SIZE`.
pub const MAX_BATCH: usize = 20;

/// Judge0's statuses, by id.
pub const STATUSES: &[(u32, &str)] = &[
    (1, "In Queue"),
    (2, "Processing"),
    (3, "Accepted"),
    (4, "Wrong Answer"),
    (5, "Time Limit Exceeded"),
    (6, "Compilation Error"),
    (7, "Runtime Error (SIGSEGV)"),
    (8, "Runtime Error (SIGXFSZ)"),
    (9, "Runtime Error (SIGFPE)"),
    (10, "Runtime Error (SIGABRT)"),
    (11, "Runtime Error (NZEC)"),
    (12, "Runtime Error (Other)"),
    (13, "Internal Error"),
    (14, "Exec Format Error"),
];

/// The fields an answer has when the request names none.
const DEFAULT_FIELDS: &[&str] = &[
    "token",
    "stdout",
    "stderr",
    "compile_output",
    "message",
    "status",
    "time",
    "memory",
];

/// The fields Judge0 encodes in base64 when asked.
const ENCODED: &[&str] = &[
    "source_code",
    "stdin",
    "expected_output",
    "stdout",
    "stderr",
    "compile_output",
    "message",
];

/// The query string of the submission routes.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Query {
    /// `true`: text fields are base64, both ways.
    #[serde(default)]
    pub base64_encoded: Option<String>,
    /// `true`: answer when the submission is judged.
    #[serde(default)]
    pub wait: Option<String>,
    /// Comma-separated fields, or `*`.
    #[serde(default)]
    pub fields: Option<String>,
    /// Comma-separated tokens (`GET /submissions/batch`).
    #[serde(default)]
    pub tokens: Option<String>,
}

impl Query {
    fn base64(&self) -> bool {
        self.base64_encoded.as_deref() == Some("true")
    }

    fn wait(&self) -> bool {
        self.wait.as_deref() == Some("true")
    }
}

/// A submission as Judge0 takes it.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct SubmissionRequest {
    /// The program (base64 when asked).
    #[serde(default)]
    pub source_code: Option<String>,
    /// Judge0's language id.
    #[serde(default)]
    pub language_id: Option<u32>,
    /// Standard input (base64 when asked).
    #[serde(default)]
    pub stdin: Option<String>,
    /// The expected output (base64 when asked); none: no comparison.
    #[serde(default)]
    pub expected_output: Option<String>,
    /// CPU seconds.
    #[serde(default)]
    pub cpu_time_limit: Option<f64>,
    /// Read, not used.
    #[serde(default)]
    pub cpu_extra_time: Option<f64>,
    /// Read, not used.
    #[serde(default)]
    pub wall_time_limit: Option<f64>,
    /// KB.
    #[serde(default)]
    pub memory_limit: Option<f64>,
    /// Read, not used (the judge's stack is the memory limit).
    #[serde(default)]
    pub stack_limit: Option<f64>,
    /// Read, not used.
    #[serde(default)]
    pub max_processes_and_or_threads: Option<f64>,
    /// Read, not used.
    #[serde(default)]
    pub max_file_size: Option<f64>,
    /// Read, not used (one run).
    #[serde(default)]
    pub number_of_runs: Option<f64>,
    /// Refused when set.
    #[serde(default)]
    pub compiler_options: Option<String>,
    /// Refused when set.
    #[serde(default)]
    pub command_line_arguments: Option<String>,
    /// Refused when true.
    #[serde(default)]
    pub redirect_stderr_to_stdout: Option<bool>,
    /// Refused when true.
    #[serde(default)]
    pub enable_network: Option<bool>,
    /// Refused when set.
    #[serde(default)]
    pub additional_files: Option<String>,
    /// Refused when set.
    #[serde(default)]
    pub callback_url: Option<String>,
}

/// `POST /submissions/batch`'s body.
#[derive(Debug, Clone, Deserialize)]
pub struct BatchRequest {
    /// The submissions.
    pub submissions: Vec<SubmissionRequest>,
}

/// One submission's state.
#[derive(Debug, Clone)]
struct Entry {
    request: Checked,
    created_at: String,
    finished_at: Option<String>,
    status: u32,
    stdout: Option<String>,
    stderr: Option<String>,
    compile_output: Option<String>,
    message: Option<String>,
    exit_code: Option<i32>,
    exit_signal: Option<i32>,
    time: Option<f64>,
    wall_time: Option<f64>,
    memory: Option<u64>,
}

/// A checked request: decoded text and the judge's limits.
#[derive(Debug, Clone)]
struct Checked {
    raw: SubmissionRequest,
    language_id: u32,
    language: judge::lang::Language,
    source: String,
    stdin: String,
    expected: Option<String>,
    limits: RunLimits,
}

/// The submissions, by token, the newest [`KEPT`] within [`KEPT_BYTES`].
#[derive(Debug, Default)]
pub struct Store {
    inner: Mutex<StoreInner>,
}

#[derive(Debug, Default)]
struct StoreInner {
    /// Each submission with the bytes it was counted for.
    entries: HashMap<String, (Arc<Mutex<Entry>>, usize)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl StoreInner {
    /// Drops the oldest finished submissions while there are too many or too many bytes.
    fn evict(&mut self) {
        self.evict_to(KEPT, KEPT_BYTES);
    }

    /// Drops the oldest finished submissions while there are more than `count` or more
    /// than `bytes` bytes. One still queued or running (status 1 or 2) is never dropped:
    /// its client holds a token it was answered 201 for. Those are bounded by the queue's
    /// admission, so what they hold is bounded too.
    fn evict_to(&mut self, count: usize, bytes: usize) {
        let mut at = 0;
        while (self.order.len() > count || self.bytes > bytes) && at < self.order.len() {
            let finished = self
                .entries
                .get(&self.order[at])
                .is_none_or(|(entry, _)| !matches!(lock(entry).status, 1 | 2));
            if !finished {
                at += 1;
                continue;
            }
            let Some(old) = self.order.remove(at) else {
                break;
            };
            if let Some((_, size)) = self.entries.remove(&old) {
                self.bytes -= size;
            }
        }
    }
}

impl Entry {
    /// The bytes of text it holds.
    fn size(&self) -> usize {
        let text = |t: &Option<String>| t.as_ref().map_or(0, String::len);
        self.request.source.len()
            + self.request.stdin.len()
            + text(&self.request.expected)
            + text(&self.stdout)
            + text(&self.stderr)
            + text(&self.compile_output)
            + text(&self.message)
    }
}

impl Store {
    fn insert(&self, token: String, entry: Entry) -> Arc<Mutex<Entry>> {
        let size = entry.size();
        let entry = Arc::new(Mutex::new(entry));
        let mut inner = lock(&self.inner);
        inner
            .entries
            .insert(token.clone(), (Arc::clone(&entry), size));
        inner.order.push_back(token);
        inner.bytes += size;
        inner.evict();
        entry
    }

    /// Counts a finished submission's output towards the byte budget.
    fn finished(&self, token: &str) {
        let mut inner = lock(&self.inner);
        let Some((entry, counted)) = inner.entries.get_mut(token) else {
            return;
        };
        let size = lock(entry).size();
        let grown = size.saturating_sub(*counted);
        *counted = size;
        inner.bytes += grown;
        inner.evict();
    }

    fn get(&self, token: &str) -> Option<Entry> {
        let (entry, _) = lock(&self.inner).entries.get(token).cloned()?;
        let it = lock(&entry).clone();
        Some(it)
    }
}

/// `GET /languages`: `[{id, name}]`.
pub fn languages() -> Vec<Value> {
    crate::languages::JUDGE0
        .iter()
        .filter_map(|it| {
            let lang = crate::languages::judge0(it.id)?;
            Some(json!({"id": it.id, "name": lang.name}))
        })
        .collect()
}

/// `GET /languages/{id}`: `{id, name, is_archived, source_file, compile_cmd, run_cmd}`.
pub fn language(id: u32) -> Option<Value> {
    let lang = crate::languages::judge0(id)?;
    Some(json!({
        "id": id,
        "name": lang.name,
        "is_archived": false,
        "source_file": lang.source,
        "compile_cmd": lang.command(&lang.compile, "", 256).join(" "),
        "run_cmd": lang.command(&lang.run, "", 256).join(" "),
    }))
}

/// `GET /statuses`.
pub fn statuses() -> Vec<Value> {
    STATUSES
        .iter()
        .map(|(id, description)| json!({"id": id, "description": description}))
        .collect()
}

/// `GET /about`.
pub fn about() -> Value {
    json!({
        "version": "1.13.1",
        "homepage": "",
        "source_code": "",
        "maintainer": "judge sandbox: this repository's judge behind Judge0 CE 1.13.1's API",
    })
}

/// `GET /config_info`: every field of Judge0's configuration, as this server applies it.
pub fn config_info(engine: &Engine, limits: &Limits) -> Value {
    json!({
        "maintenance_mode": false,
        "enable_wait_result": true,
        "enable_compiler_options": false,
        "allowed_languages_for_compile_options": [],
        "enable_command_line_arguments": false,
        "enable_submission_delete": false,
        "enable_callbacks": false,
        "callbacks_max_tries": 0,
        "callbacks_timeout": 0.0,
        "enable_additional_files": false,
        "max_queue_size": engine.capacity(),
        "cpu_time_limit": 5.0,
        "max_cpu_time_limit": max_cpu_time(limits),
        "cpu_extra_time": 0.0,
        "max_cpu_extra_time": 0.0,
        "wall_time_limit": 6.0,
        "max_wall_time_limit": max_cpu_time(limits) + 1.5,
        "memory_limit": 128000,
        "max_memory_limit": (limits.max_memory_mb * 1024.0) as u64,
        "stack_limit": 128000,
        "max_stack_limit": (limits.max_memory_mb * 1024.0) as u64,
        "max_processes_and_or_threads": 512,
        "max_max_processes_and_or_threads": 512,
        "enable_per_process_and_thread_time_limit": false,
        "allow_enable_per_process_and_thread_time_limit": false,
        "enable_per_process_and_thread_memory_limit": false,
        "allow_enable_per_process_and_thread_memory_limit": false,
        "max_file_size": limits.stdout_bytes / 1024,
        "max_max_file_size": limits.stdout_bytes / 1024,
        "number_of_runs": 1,
        "max_number_of_runs": 1,
        "redirect_stderr_to_stdout": false,
        "max_extract_size": 0,
        "enable_batched_submissions": true,
        "max_submission_batch_size": MAX_BATCH,
        "submission_cache_duration": 0.0,
        "use_docs_as_homepage": false,
        "enable_network": false,
        "allow_enable_network": false,
    })
}

/// Decodes a text field: base64 when asked (whitespace inside ignored, as Ruby's decoder
/// does).
fn decode(field: &str, value: Option<&str>, base64: bool) -> Result<Option<String>, Refusal> {
    let Some(value) = value else {
        return Ok(None);
    };
    if !base64 {
        return Ok(Some(value.to_owned()));
    }
    let compact: String = value.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = BASE64
        .decode(compact.as_bytes())
        .map_err(|err| Refusal::invalid(field, format!("not valid base64: {err}")))?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Checks a submission and decodes it.
fn check(raw: SubmissionRequest, base64: bool, limits: &Limits) -> Result<Checked, Refusal> {
    let refuse_set = |field: &str, set: bool| {
        if set {
            Err(Refusal::invalid(
                field,
                "is not supported by this server (see /config_info)",
            ))
        } else {
            Ok(())
        }
    };
    refuse_set(
        "compiler_options",
        raw.compiler_options
            .as_deref()
            .is_some_and(|s| !s.is_empty()),
    )?;
    refuse_set(
        "command_line_arguments",
        raw.command_line_arguments
            .as_deref()
            .is_some_and(|s| !s.is_empty()),
    )?;
    refuse_set(
        "redirect_stderr_to_stdout",
        raw.redirect_stderr_to_stdout == Some(true),
    )?;
    refuse_set("enable_network", raw.enable_network == Some(true))?;
    refuse_set(
        "additional_files",
        raw.additional_files
            .as_deref()
            .is_some_and(|s| !s.is_empty()),
    )?;
    refuse_set(
        "callback_url",
        raw.callback_url.as_deref().is_some_and(|s| !s.is_empty()),
    )?;
    let language_id = raw
        .language_id
        .ok_or_else(|| Refusal::invalid("language_id", "can't be blank"))?;
    let language = crate::languages::judge0(language_id).ok_or_else(|| {
        Refusal::invalid(
            "language_id",
            format!("language with id {language_id} doesn't exist (see /languages)"),
        )
    })?;
    let source = decode("source_code", raw.source_code.as_deref(), base64)?
        .ok_or_else(|| Refusal::invalid("source_code", "can't be blank"))?;
    limits.check_source("source_code", &source)?;
    let stdin = decode("stdin", raw.stdin.as_deref(), base64)?.unwrap_or_default();
    limits.check_stdin("stdin", &stdin)?;
    let expected = decode("expected_output", raw.expected_output.as_deref(), base64)?;
    let cpu_time_limit = raw.cpu_time_limit.unwrap_or(5.0);
    if cpu_time_limit > max_cpu_time(limits) {
        return Err(Refusal::invalid(
            "cpu_time_limit",
            format!(
                "must be less than or equal to {} (see /config_info's max_cpu_time_limit)",
                max_cpu_time(limits)
            ),
        ));
    }
    let time = limits.time("cpu_time_limit", cpu_time_limit)?;
    let memory_bytes = limits.memory(
        "memory_limit",
        Some(raw.memory_limit.unwrap_or(128_000.0) / 1024.0),
    )?;
    // The decoded text is kept (and counted in the store); the request's own copies go.
    let raw = SubmissionRequest {
        source_code: None,
        stdin: raw.stdin.as_ref().map(|_| String::new()),
        expected_output: None,
        ..raw
    };
    Ok(Checked {
        raw,
        language_id,
        language,
        source,
        stdin,
        expected,
        limits: RunLimits {
            time,
            memory_bytes,
            output_bytes: limits.stdout_bytes as u64,
            capture_bytes: limits.stdout_bytes,
        },
    })
}

/// The most `cpu_time_limit`: [`MAX_CPU_TIME_S`], or the server's `--max-time` if lower.
fn max_cpu_time(limits: &Limits) -> f64 {
    limits.max_time_s.min(MAX_CPU_TIME_S)
}

/// A random version-4 UUID.
fn uuid4() -> String {
    let mut bytes: [u8; 16] = rand::random();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// `POST /submissions`: 201 with `{token}`, or with the judged submission when `wait`.
pub(crate) async fn create(
    service: &Arc<Service>,
    raw: SubmissionRequest,
    query: &Query,
) -> Result<(u16, Value), Refusal> {
    let engine = &service.engine;
    engine.metrics.request("judge0");
    let checked = check(raw, query.base64(), &service.limits)?;
    let ticket = engine.admit().map_err(Refusal::Busy)?;
    let token = uuid4();
    let entry = service.judge0.insert(token.clone(), queued(checked));
    if query.wait() {
        judge_entry(
            Arc::clone(service),
            token.clone(),
            Arc::clone(&entry),
            ticket,
        )
        .await;
        let it = lock(&entry).clone();
        return Ok((201, render(&token, &it, query)));
    }
    tokio::spawn(judge_entry(
        Arc::clone(service),
        token.clone(),
        entry,
        ticket,
    ));
    Ok((201, json!({"token": token})))
}

/// `POST /submissions/batch`: 201 with `[{token}]` (or `{field: [error]}` for an item
/// that is refused); all or none are admitted.
pub(crate) fn create_batch(
    service: &Arc<Service>,
    batch: BatchRequest,
    query: &Query,
) -> Result<Value, Refusal> {
    let engine = &service.engine;
    engine.metrics.request("judge0");
    Refusal::check_count(
        "submissions",
        batch.submissions.len(),
        MAX_BATCH,
        "Judge0's max_submission_batch_size",
    )?;
    let checked: Vec<Result<Checked, Refusal>> = batch
        .submissions
        .into_iter()
        .map(|raw| check(raw, query.base64(), &service.limits))
        .collect();
    let mut tickets = Vec::new();
    for _ in checked.iter().filter(|it| it.is_ok()) {
        tickets.push(engine.admit().map_err(Refusal::Busy)?);
    }
    let mut answer = Vec::with_capacity(checked.len());
    for item in checked {
        match item {
            Err(Refusal::Invalid { field, message }) => answer.push(json!({ field: [message] })),
            Err(other) => answer.push(json!({"error": other.message()})),
            Ok(checked) => {
                let token = uuid4();
                let entry = service.judge0.insert(token.clone(), queued(checked));
                let ticket = tickets
                    .pop()
                    .ok_or_else(|| Refusal::invalid("submissions", "admission count mismatch"))?;
                tokio::spawn(judge_entry(
                    Arc::clone(service),
                    token.clone(),
                    entry,
                    ticket,
                ));
                answer.push(json!({"token": token}));
            }
        }
    }
    Ok(Value::Array(answer))
}

fn queued(request: Checked) -> Entry {
    Entry {
        request,
        created_at: now(),
        finished_at: None,
        status: 1,
        stdout: None,
        stderr: None,
        compile_output: None,
        message: None,
        exit_code: None,
        exit_signal: None,
        time: None,
        wall_time: None,
        memory: None,
    }
}

/// Judges an admitted submission in a task of its own and writes its result, then counts
/// it in the store. A judgement that panicked still finishes the submission, with status
/// 13 (Internal Error), so that it is not left queued or running for ever.
async fn judge_entry(
    service: Arc<Service>,
    token: String,
    entry: Arc<Mutex<Entry>>,
    ticket: Ticket,
) {
    let task = {
        let engine = Arc::clone(&service.engine);
        let entry = Arc::clone(&entry);
        tokio::spawn(async move { run_entry(&engine, &entry, ticket).await })
    };
    if let Err(join) = task.await {
        failed(&service.engine.metrics, &entry, &join);
    }
    service.judge0.finished(&token);
}

/// Marks a submission whose judgement's task failed (panicked) as an internal error.
fn failed(metrics: &crate::metrics::Metrics, entry: &Mutex<Entry>, join: &tokio::task::JoinError) {
    metrics
        .judge_errors
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut it = lock(entry);
    it.status = 13;
    it.finished_at = Some(now());
    it.message = Some(format!("the judgement's task failed: {join}"));
}

/// Judges an admitted submission and writes its result.
async fn run_entry(engine: &Engine, entry: &Mutex<Entry>, _ticket: Ticket) {
    let request = lock(entry).request.clone();
    let processing = || lock(entry).status = 2;
    let result = engine
        .run_one(
            &request.language,
            &request.source,
            request.stdin.clone(),
            &request.limits,
            None,
            &processing,
        )
        .await;
    let mut it = lock(entry);
    it.finished_at = Some(now());
    match result {
        Err(Fault::TimedOut) => {
            // No deadline was given: a wait without one does not time out.
            it.status = 13;
            it.message = Some("no worker became free".to_owned());
        }
        Err(Fault::Judge(err)) => {
            engine
                .metrics
                .judge_errors
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            it.status = 13;
            it.message = Some(crate::fusion::error_chain(&err));
        }
        Ok(RunOne::CompileError {
            message, timed_out, ..
        }) => {
            let python = crate::fusion::is_interpreted(&request.language.id);
            if timed_out {
                // Killed at the server's compile time limit: said, not passed off as
                // the compiler's refusal.
                it.status = if python { 5 } else { 6 };
                it.message = Some("Compilation time limit exceeded".to_owned());
                it.compile_output = Some(message);
            } else if python {
                it.status = 11;
                it.exit_code = Some(1);
                it.stderr = Some(message);
            } else {
                it.status = 6;
                it.compile_output = Some(message);
            }
        }
        Ok(RunOne::Ran { run, .. }) => {
            let (status, message) = match run.status {
                RunStatus::Ok => match &request.expected {
                    Some(expected) if !same_output(&run.stdout, expected) => (4, None),
                    _ => (3, None),
                },
                RunStatus::TimeLimit => (5, Some("Time limit exceeded")),
                RunStatus::MemoryLimit => (12, Some("Memory limit exceeded")),
                RunStatus::OutputLimit => (8, Some("Output limit exceeded")),
                RunStatus::RuntimeError => (runtime_status(run.exit_code, run.signal), None),
            };
            engine.metrics.verdict(match status {
                3 => "AC",
                4 => "WA",
                5 => "TLE",
                8 => "OLE",
                12 if run.status == RunStatus::MemoryLimit => "MLE",
                _ => "RTE",
            });
            it.status = status;
            it.message = message
                .map(str::to_owned)
                .or_else(|| (status >= 7 && !run.message.is_empty()).then(|| run.message.clone()));
            it.stdout = Some(run.stdout.clone());
            it.stderr = Some(run.stderr_tail.clone());
            it.exit_code = run.exit_code;
            it.exit_signal = run.signal;
            it.time = Some(run.cpu_ms / 1000.0);
            it.wall_time = Some(run.wall_ms / 1000.0);
            it.memory = Some(run.peak_kib);
        }
    }
}

/// Judge0's status of a runtime error by its signal, else its exit code.
fn runtime_status(exit_code: Option<i32>, signal: Option<i32>) -> u32 {
    match signal {
        Some(11) => 7,
        Some(25) => 8,
        Some(8) => 9,
        Some(6) => 10,
        Some(_) => 12,
        None if exit_code.is_some_and(|c| c != 0) => 11,
        None => 12,
    }
}

/// Judge0's comparison: trailing whitespace of each line and trailing blank lines do not
/// count.
fn same_output(got: &str, expected: &str) -> bool {
    fn norm(text: &str) -> Vec<&str> {
        let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    }
    norm(got) == norm(expected)
}

/// `GET /submissions/{token}`.
pub(crate) fn get(service: &Service, token: &str, query: &Query) -> Result<Value, Refusal> {
    let entry = service
        .judge0
        .get(token)
        .ok_or_else(|| Refusal::NotFound(format!("submission {token} not found")))?;
    Ok(render(token, &entry, query))
}

/// `GET /submissions/batch?tokens=a,b`: `{submissions: [...]}`, null for an unknown one.
pub(crate) fn get_batch(service: &Service, query: &Query) -> Result<Value, Refusal> {
    let tokens: Vec<&str> = query
        .tokens
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Err(Refusal::invalid("tokens", "give at least one token"));
    }
    Refusal::check_count(
        "tokens",
        tokens.len(),
        MAX_BATCH,
        "Judge0's max_submission_batch_size",
    )?;
    let submissions: Vec<Value> = tokens
        .iter()
        .map(|token| {
            service
                .judge0
                .get(token)
                .map_or(Value::Null, |entry| render(token, &entry, query))
        })
        .collect();
    Ok(json!({"submissions": submissions}))
}

/// A submission with the asked fields.
fn render(token: &str, entry: &Entry, query: &Query) -> Value {
    let all = full(token, entry);
    let wanted: Vec<String> = match query.fields.as_deref() {
        Some("*") => all.keys().cloned().collect(),
        Some(list) if !list.trim().is_empty() => list
            .split(',')
            .map(|f| f.trim().to_owned())
            .filter(|f| !f.is_empty())
            .collect(),
        _ => DEFAULT_FIELDS.iter().map(|f| (*f).to_owned()).collect(),
    };
    let base64 = query.base64();
    let mut out = Map::new();
    for field in wanted {
        let Some(value) = all.get(&field) else {
            continue;
        };
        let value = match value {
            Value::String(text) if base64 && ENCODED.contains(&field.as_str()) => {
                Value::String(BASE64.encode(text.as_bytes()))
            }
            other => other.clone(),
        };
        out.insert(field, value);
    }
    Value::Object(out)
}

/// Every field of a submission, decoded.
fn full(token: &str, entry: &Entry) -> Map<String, Value> {
    let req = &entry.request;
    let raw = &req.raw;
    let seconds = |s: Option<f64>| s.map_or(Value::Null, |s| json!(format!("{s:.3}")));
    let description = STATUSES
        .iter()
        .find(|(id, _)| *id == entry.status)
        .map_or("", |(_, d)| d);
    let json = json!({
        "source_code": req.source,
        "language_id": req.language_id,
        "stdin": raw.stdin.as_ref().map(|_| &req.stdin),
        "expected_output": req.expected,
        "stdout": entry.stdout,
        "status_id": entry.status,
        "created_at": entry.created_at,
        "finished_at": entry.finished_at,
        "time": seconds(entry.time),
        "memory": entry.memory,
        "stderr": entry.stderr,
        "token": token,
        "number_of_runs": 1,
        "cpu_time_limit": format!("{:.1}", req.limits.time.as_secs_f64()),
        "cpu_extra_time": format!("{:.1}", raw.cpu_extra_time.unwrap_or(0.0)),
        "wall_time_limit": format!("{:.1}", judge::grade::wall_limit_ms(req.limits.time.as_millis() as u64) as f64 / 1000.0),
        "memory_limit": req.limits.memory_bytes / 1024,
        "stack_limit": req.limits.memory_bytes / 1024,
        "max_processes_and_or_threads": 512,
        "enable_per_process_and_thread_time_limit": false,
        "enable_per_process_and_thread_memory_limit": false,
        "max_file_size": req.limits.output_bytes / 1024,
        "compile_output": entry.compile_output,
        "exit_code": entry.exit_code,
        "exit_signal": entry.exit_signal,
        "message": entry.message,
        "wall_time": seconds(entry.wall_time),
        "compiler_options": Value::Null,
        "command_line_arguments": Value::Null,
        "redirect_stderr_to_stdout": false,
        "callback_url": Value::Null,
        "additional_files": Value::Null,
        "enable_network": false,
        "status": {"id": entry.status, "description": description},
        "language": {"id": req.language_id, "name": req.language.name},
    });
    match json {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_version_4_uuids() {
        let token = uuid4();
        let parts: Vec<&str> = token.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
        assert_ne!(uuid4(), token);
    }

    #[test]
    fn outputs_compare_as_judge0_compares() {
        assert!(same_output("1 2  \n3\n\n\n", "1 2\n3"));
        assert!(!same_output(" 1\n", "1\n"));
        assert!(!same_output("1\n\n2\n", "1\n2\n"));
    }

    #[test]
    fn runtime_errors_map_to_judge0_signal_statuses() {
        assert_eq!(runtime_status(None, Some(11)), 7);
        assert_eq!(runtime_status(None, Some(25)), 8);
        assert_eq!(runtime_status(None, Some(8)), 9);
        assert_eq!(runtime_status(None, Some(6)), 10);
        assert_eq!(runtime_status(Some(3), None), 11);
        assert_eq!(runtime_status(None, Some(9)), 12);
    }

    #[test]
    fn requests_decode_base64_and_check_their_fields() {
        let limits = Limits::default();
        let raw = SubmissionRequest {
            source_code: Some(BASE64.encode("print(1)")),
            language_id: Some(71),
            stdin: Some("MQo=\n".to_owned()),
            ..SubmissionRequest::default()
        };
        let checked = check(raw.clone(), true, &limits).expect("valid");
        assert_eq!(
            (checked.source.as_str(), checked.stdin.as_str()),
            ("print(1)", "1\n")
        );
        assert_eq!(checked.limits.memory_bytes, 128_000 * 1024);
        // The text is kept once, decoded; the request's copies are dropped.
        assert!(checked.raw.source_code.is_none());
        assert_eq!(checked.raw.stdin.as_deref(), Some(""));
        let unknown = SubmissionRequest {
            language_id: Some(9999),
            ..raw.clone()
        };
        let err = check(unknown, true, &limits).expect_err("unknown language");
        assert!(
            err.message().starts_with("language_id:"),
            "{}",
            err.message()
        );
        let network = SubmissionRequest {
            enable_network: Some(true),
            ..raw.clone()
        };
        assert!(check(network, true, &limits).is_err());
        let not_base64 = SubmissionRequest {
            source_code: Some("%%%".to_owned()),
            ..raw
        };
        assert!(check(not_base64, true, &limits).is_err());
    }

    #[test]
    fn cpu_time_limit_is_at_most_15_s_as_config_info_says() {
        let limits = Limits::default();
        assert!(limits.max_time_s > MAX_CPU_TIME_S, "the server allows more");
        let raw = |seconds: f64| SubmissionRequest {
            source_code: Some("x".to_owned()),
            language_id: Some(71),
            cpu_time_limit: Some(seconds),
            ..SubmissionRequest::default()
        };
        let at = check(raw(15.0), false, &limits).expect("15 s is allowed");
        assert_eq!(at.limits.time, std::time::Duration::from_secs(15));
        let err = check(raw(16.0), false, &limits).expect_err("above 15 s");
        assert!(
            err.message().starts_with("cpu_time_limit:") && err.message().contains("15"),
            "{}",
            err.message()
        );
        let lower = Limits {
            max_time_s: 4.0,
            ..Limits::default()
        };
        assert!(check(raw(5.0), false, &lower).is_err());
        assert_eq!(max_cpu_time(&lower), 4.0);
    }

    #[test]
    fn the_store_keeps_the_newest_within_its_bytes() {
        let limits = Limits::default();
        let raw = SubmissionRequest {
            source_code: Some("x".to_owned()),
            language_id: Some(71),
            ..SubmissionRequest::default()
        };
        let store = Store::default();
        let entry = queued(check(raw, false, &limits).expect("valid"));
        let first = store.insert("a".to_owned(), entry.clone());
        store.insert("b".to_owned(), entry);
        // "a" finishes with an output above the whole budget: the oldest goes.
        lock(&first).status = 3;
        lock(&first).stdout = Some("y".repeat(KEPT_BYTES + 1));
        store.finished("a");
        assert!(store.get("a").is_none());
        assert!(store.get("b").is_some());
        assert_eq!(lock(&store.inner).bytes, 1);
    }

    #[test]
    fn the_store_never_drops_a_submission_still_queued_or_running() {
        let limits = Limits::default();
        let raw = SubmissionRequest {
            source_code: Some("x".to_owned()),
            language_id: Some(71),
            ..SubmissionRequest::default()
        };
        let store = Store::default();
        let entry = queued(check(raw, false, &limits).expect("valid"));
        let queued_one = store.insert("queued".to_owned(), entry.clone());
        let running = store.insert("running".to_owned(), entry.clone());
        lock(&running).status = 2;
        let done = store.insert("done".to_owned(), entry.clone());
        lock(&done).status = 3;
        store.insert("newest".to_owned(), entry);
        let mut inner = lock(&store.inner);
        inner.evict_to(1, usize::MAX);
        // Only the finished one could go; the queued, the running and the newest (queued)
        // stay, above the count.
        let mut kept: Vec<&str> = inner.order.iter().map(String::as_str).collect();
        kept.sort_unstable();
        assert_eq!(kept, ["newest", "queued", "running"]);
        assert!(!inner.entries.contains_key("done"));
        drop(inner);
        lock(&queued_one).status = 4;
        lock(&store.inner).evict_to(1, usize::MAX);
        assert!(store.get("queued").is_none());
        assert!(store.get("running").is_some());
    }

    #[tokio::test]
    async fn a_judgement_that_panics_finishes_its_submission_as_an_internal_error() {
        let limits = Limits::default();
        let raw = SubmissionRequest {
            source_code: Some("x".to_owned()),
            language_id: Some(71),
            ..SubmissionRequest::default()
        };
        let entry = Arc::new(Mutex::new(queued(
            check(raw, false, &limits).expect("valid"),
        )));
        lock(&entry).status = 2;
        let join = tokio::spawn(async { panic!("boom") })
            .await
            .expect_err("it panicked");
        let metrics = crate::metrics::Metrics::new();
        failed(&metrics, &entry, &join);
        assert_eq!(
            metrics
                .judge_errors
                .load(std::sync::atomic::Ordering::Relaxed),
            1
        );
        let it = lock(&entry).clone();
        assert_eq!(it.status, 13);
        assert!(it.finished_at.is_some());
        assert!(
            it.message
                .as_deref()
                .is_some_and(|m| m.contains("panicked")),
            "{:?}",
            it.message
        );
    }

    #[test]
    fn fields_select_and_encode() {
        let limits = Limits::default();
        let raw = SubmissionRequest {
            source_code: Some("x".to_owned()),
            language_id: Some(54),
            ..SubmissionRequest::default()
        };
        let mut entry = queued(check(raw, false, &limits).expect("valid"));
        entry.status = 3;
        entry.stdout = Some("hi\n".to_owned());
        entry.time = Some(0.0123);
        entry.memory = Some(2048);
        let default = render("t", &entry, &Query::default());
        let mut keys: Vec<&String> = default.as_object().expect("object").keys().collect();
        keys.sort();
        let mut want: Vec<&str> = DEFAULT_FIELDS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want);
        assert_eq!(default["time"], "0.012");
        assert_eq!(default["status"]["description"], "Accepted");
        let query = Query {
            base64_encoded: Some("true".to_owned()),
            fields: Some("stdout,status_id".to_owned()),
            ..Query::default()
        };
        let picked = render("t", &entry, &query);
        assert_eq!(picked, json!({"stdout": "aGkK", "status_id": 3}));
        let all = render(
            "t",
            &entry,
            &Query {
                fields: Some("*".to_owned()),
                ..Query::default()
            },
        );
        assert_eq!(all["language"]["id"], 54);
        assert!(all.get("wall_time").is_some());
    }
}
