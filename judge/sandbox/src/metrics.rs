//! The service's counters and their Prometheus text exposition (`GET /metrics`).
//!
//! Every counter is an atomic, written by the engine as it works; [`Metrics::render`]
//! reads them into the text format (version 0.0.4): `# HELP` and `# TYPE` lines, then
//! one sample per line. Tests per second is measured over the last [`WINDOW_SECS`]
//! seconds (a ring of per-second buckets), and over the whole uptime.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::lock;

/// The window of the recent tests-per-second gauge, in seconds.
pub const WINDOW_SECS: u64 = 60;

/// The counters of one server.
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    /// Requests per API (`run_code`, `judge0`, `evaluate`).
    requests: Mutex<BTreeMap<&'static str, u64>>,
    /// Requests answered 503 because the queue was full.
    pub rejected: AtomicU64,
    /// Requests answered 504 because they waited longer than the queue timeout.
    pub timed_out: AtomicU64,
    /// Programs judged (each distinct program of a request once).
    pub programs: AtomicU64,
    /// Tests (runs) judged.
    tests: AtomicU64,
    /// Verdicts given, per verdict (`AC`, `WA`, ..., and `CE` per program).
    verdicts: Mutex<BTreeMap<String, u64>>,
    /// Compiles avoided: a program already compiled (in this request, or before).
    pub cache_hits: AtomicU64,
    /// Compiles run.
    pub cache_misses: AtomicU64,
    /// Judge faults (a broken sandbox): answered as SandboxError, status 13, judge_error.
    pub judge_errors: AtomicU64,
    /// Tests finished per second of the last [`WINDOW_SECS`] seconds: `(second, count)`.
    recent: Mutex<Vec<(u64, u64)>>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Counters at zero, the clock started now.
    pub fn new() -> Metrics {
        Metrics {
            started: Instant::now(),
            requests: Mutex::new(BTreeMap::new()),
            rejected: AtomicU64::new(0),
            timed_out: AtomicU64::new(0),
            programs: AtomicU64::new(0),
            tests: AtomicU64::new(0),
            verdicts: Mutex::new(BTreeMap::new()),
            cache_hits: AtomicU64::new(0),
            cache_misses: AtomicU64::new(0),
            judge_errors: AtomicU64::new(0),
            recent: Mutex::new(Vec::new()),
        }
    }

    /// One request to `api`.
    pub fn request(&self, api: &'static str) {
        *lock(&self.requests).entry(api).or_default() += 1;
    }

    /// One more `verdict`.
    pub fn verdict(&self, verdict: &str) {
        *lock(&self.verdicts).entry(verdict.to_owned()).or_default() += 1;
    }

    /// `count` tests finished now.
    pub fn tests_done(&self, count: u64) {
        self.tests.fetch_add(count, Ordering::Relaxed);
        let now = self.started.elapsed().as_secs();
        let mut recent = lock(&self.recent);
        recent.retain(|(second, _)| second + WINDOW_SECS > now);
        match recent.last_mut() {
            Some((second, n)) if *second == now => *n += count,
            _ => recent.push((now, count)),
        }
    }

    /// Tests judged so far.
    pub fn tests(&self) -> u64 {
        self.tests.load(Ordering::Relaxed)
    }

    /// Tests per second over the last [`WINDOW_SECS`] seconds (or the uptime, when
    /// shorter).
    fn recent_rate(&self) -> f64 {
        let elapsed = self.started.elapsed().as_secs_f64();
        let now = elapsed as u64;
        let count: u64 = lock(&self.recent)
            .iter()
            .filter(|(second, _)| second + WINDOW_SECS > now)
            .map(|(_, n)| n)
            .sum();
        count as f64 / elapsed.clamp(1.0, WINDOW_SECS as f64)
    }

    /// The text exposition, with the queue's gauges given by the caller.
    pub fn render(&self, queue: &QueueGauges) -> String {
        let mut out = String::new();
        let uptime = self.started.elapsed().as_secs_f64();
        let mut one = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name} {value}");
        };
        let load = |it: &AtomicU64| it.load(Ordering::Relaxed).to_string();
        one(
            "judge_sandbox_queue_depth",
            "gauge",
            "Programs waiting for a worker (each distinct program of a /v1/evaluate request counts; one waiting for another request to compile the same program does not).",
            queue.waiting.to_string(),
        );
        one(
            "judge_sandbox_running",
            "gauge",
            "Programs being judged now.",
            queue.running.to_string(),
        );
        one(
            "judge_sandbox_queue_capacity",
            "gauge",
            "Requests admitted at most at once (workers plus queue).",
            queue.capacity.to_string(),
        );
        one(
            "judge_sandbox_workers",
            "gauge",
            "Programs judged at once.",
            queue.workers.to_string(),
        );
        one(
            "judge_sandbox_rejected_total",
            "counter",
            "Requests answered 503 because the queue was full.",
            load(&self.rejected),
        );
        one(
            "judge_sandbox_queue_timeouts_total",
            "counter",
            "Requests answered 504 after waiting longer than the queue timeout.",
            load(&self.timed_out),
        );
        one(
            "judge_sandbox_programs_judged_total",
            "counter",
            "Programs judged.",
            load(&self.programs),
        );
        one(
            "judge_sandbox_tests_judged_total",
            "counter",
            "Tests (runs) judged.",
            self.tests().to_string(),
        );
        one(
            "judge_sandbox_compile_cache_hits_total",
            "counter",
            "Programs whose build was already there (compiled once).",
            load(&self.cache_hits),
        );
        one(
            "judge_sandbox_compile_cache_misses_total",
            "counter",
            "Programs compiled.",
            load(&self.cache_misses),
        );
        one(
            "judge_sandbox_judge_errors_total",
            "counter",
            "Judge faults (SandboxError, Judge0 status 13, judge_error).",
            load(&self.judge_errors),
        );
        one(
            "judge_sandbox_tests_per_second",
            "gauge",
            &format!("Tests judged per second over the last {WINDOW_SECS} s."),
            format!("{:.3}", self.recent_rate()),
        );
        one(
            "judge_sandbox_uptime_seconds",
            "gauge",
            "Seconds since the server started.",
            format!("{uptime:.3}"),
        );
        let _ = writeln!(
            out,
            "# HELP judge_sandbox_requests_total Requests per API.\n# TYPE judge_sandbox_requests_total counter"
        );
        for (api, n) in lock(&self.requests).iter() {
            let _ = writeln!(out, "judge_sandbox_requests_total{{api=\"{api}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP judge_sandbox_verdicts_total Verdicts given (tests, and CE per program).\n# TYPE judge_sandbox_verdicts_total counter"
        );
        for (verdict, n) in lock(&self.verdicts).iter() {
            let _ = writeln!(
                out,
                "judge_sandbox_verdicts_total{{verdict=\"{verdict}\"}} {n}"
            );
        }
        out
    }
}

/// The queue's state when the metrics are read.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueueGauges {
    /// Programs waiting for a worker (each of a `/v1/evaluate` request's distinct
    /// programs counts; one waiting for another request's compile of it does not).
    pub waiting: usize,
    /// Programs being judged.
    pub running: usize,
    /// Workers plus queue.
    pub capacity: usize,
    /// Workers.
    pub workers: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_has_every_family_with_its_type() {
        let metrics = Metrics::new();
        metrics.request("run_code");
        metrics.request("run_code");
        metrics.verdict("AC");
        metrics.verdict("WA");
        metrics.verdict("AC");
        metrics.tests_done(3);
        metrics.cache_hits.fetch_add(2, Ordering::Relaxed);
        let text = metrics.render(&QueueGauges {
            waiting: 4,
            running: 2,
            capacity: 10,
            workers: 2,
        });
        assert!(text.contains("judge_sandbox_queue_depth 4\n"), "{text}");
        assert!(text.contains("judge_sandbox_running 2\n"), "{text}");
        assert!(
            text.contains("judge_sandbox_requests_total{api=\"run_code\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("judge_sandbox_verdicts_total{verdict=\"AC\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("judge_sandbox_tests_judged_total 3\n"),
            "{text}"
        );
        assert!(
            text.contains("judge_sandbox_compile_cache_hits_total 2\n"),
            "{text}"
        );
        // Every sample line belongs to a family declared with HELP and TYPE.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let name = line.split(['{', ' ']).next().unwrap_or_default();
            assert!(text.contains(&format!("# TYPE {name} ")), "{line}");
            let value = line.rsplit(' ').next().unwrap_or_default();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
        assert!(metrics.recent_rate() > 0.0);
    }
}
