//! SandboxFusion's `POST /run_code`: its request and response, and how a run of the
//! judge becomes one.
//!
//! The request takes `code`, `language` (default `python`), `stdin`, `compile_timeout`,
//! `run_timeout` (float seconds), `memory_limit_MB` (-1: the server's default), `files`
//! and `fetch_files`; unknown keys are ignored. `run_timeout` is the program's CPU-time
//! limit (the judge's clock rule: the wall clock stops it at that plus 1 s or 10%); the
//! compile runs under the server's compile limits (`--compile-time`, `--compile-memory`;
//! 60 s and 2 GiB by default), so `compile_timeout` is no limit: it and `run_timeout`
//! only shorten the wait for a worker ([`queue_wait`]) when verl's HTTP timeout for the
//! request (their sum plus 10 s) would expire before a 504 could be sent. `files` and
//! `fetch_files` must be empty: the judge places no files beside a program and returns
//! none, and a request that brings files is refused (422) rather than run without them.
//! The program may write its work folder (a tmpfs whose pages count towards its memory
//! limit) and `/tmp`, as under SandboxFusion; nothing it writes outlives the run.
//!
//! The response has SandboxFusion's fields and values only where its client reads them:
//! `status` is `Success`, `Failed` or `SandboxError`; each stage's `status` is
//! `Finished`, `Error` or `TimeLimitExceeded`. What the judge knows beyond that goes in
//! extra fields of `run_result` (and `compile_result`): `verdict` (`OK`, `TLE`, `MLE`,
//! `OLE`, `RTE`, or `CE` on the compile stage), `cpu_time` (s), `memory_kb`, `signal`
//! and `exit_code` (the program's own). A failed run never has `return_code` 0 (verl
//! reads that as an API error): when the program exited 0 or was not seen to exit, MLE
//! gives 137, OLE 153 (128 + SIGXFSZ) and RTE 1. The mapping:
//!
//! | the judge | compile_result | run_result | status |
//! |---|---|---|---|
//! | ran, exit 0 | Finished, 0 (compiled languages) | Finished, 0 | Success |
//! | runtime error | | Finished, its code (128 + signal when killed; 1 if 0 or none) | Failed |
//! | memory limit (MLE) | | Finished, its code, or 137 if 0 or none, `verdict: MLE` | Failed |
//! | output limit (OLE) | | Finished, its code, or 153 if 0 or none, `verdict: OLE` | Failed |
//! | time limit (TLE) | | TimeLimitExceeded, `return_code` null | Failed |
//! | compile error | Finished, 1, the compiler's output in `stderr` | null | Failed |
//! | compile killed at its time limit | TimeLimitExceeded, null, `verdict: TLE` | null | Failed |
//! | judge fault | | | SandboxError, `message` says what failed |
//!
//! Python (and PyPy) have no compile stage here, as in SandboxFusion: `compile_result` is
//! null and a syntax error is a run that exits with 1, the message in `stderr`.
//! Standard output comes back exactly as written (invalid UTF-8 replaced), up to the
//! server's `--stdout-bytes` (8 MiB by default); a program that writes more is stopped at
//! the limit: `verdict: OLE`, and `stdout` holds what fitted.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use judge::workbench::{RunLimits, RunOutcome, RunStatus};
use serde::{Deserialize, Serialize};

use crate::Limits;
use crate::engine::{Engine, Fault, RunOne};
use crate::error::Refusal;

/// `POST /run_code`'s body.
#[derive(Debug, Clone, Deserialize)]
pub struct RunCodeRequest {
    /// The program.
    pub code: String,
    /// SandboxFusion's language name.
    #[serde(default = "python")]
    pub language: String,
    /// Standard input.
    #[serde(default)]
    pub stdin: Option<String>,
    /// Seconds for the compile: not a limit (the judge's compile limits apply); it
    /// shortens the wait for a worker ([`queue_wait`]), as verl's timeout counts it.
    #[serde(default)]
    pub compile_timeout: Option<f64>,
    /// Seconds of CPU time for the run (default 10).
    #[serde(default)]
    pub run_timeout: Option<f64>,
    /// Memory in MiB; -1 or absent: the server's default.
    #[serde(default, rename = "memory_limit_MB")]
    pub memory_limit_mb: Option<f64>,
    /// Files to place beside the program: must be empty.
    #[serde(default)]
    pub files: Option<BTreeMap<String, Option<String>>>,
    /// Files to return: must be empty.
    #[serde(default)]
    pub fetch_files: Option<Vec<String>>,
}

fn python() -> String {
    "python".to_owned()
}

/// `POST /run_code`'s answer.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunCodeResponse {
    /// `Success`, `Failed` or `SandboxError`.
    pub status: &'static str,
    /// Empty unless SandboxError.
    pub message: String,
    /// The compile stage; null for interpreted languages.
    pub compile_result: Option<StageResult>,
    /// The run; null when it did not compile.
    pub run_result: Option<StageResult>,
    /// Always null.
    pub executor_pod_name: Option<String>,
    /// Always empty.
    pub files: BTreeMap<String, String>,
}

/// One stage's result (SandboxFusion's `CommandRunResult`, with extra fields).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct StageResult {
    /// `Finished`, `Error` or `TimeLimitExceeded`.
    pub status: &'static str,
    /// Wall-clock seconds.
    pub execution_time: Option<f64>,
    /// Exit code (128 + signal when killed); null on TLE.
    pub return_code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error (its last 4 KiB on a run).
    pub stderr: String,
    /// The judge's verdict on this stage: `OK`, `TLE`, `MLE`, `OLE`, `RTE`, `CE`.
    pub verdict: &'static str,
    /// CPU seconds.
    pub cpu_time: Option<f64>,
    /// Peak memory in KiB.
    pub memory_kb: Option<u64>,
    /// The signal that killed it.
    pub signal: Option<i32>,
    /// The program's own exit code (null when killed or timed out); `return_code` differs
    /// from it when a failed verdict came with a clean exit (see the module doc).
    pub exit_code: Option<i32>,
}

impl RunCodeResponse {
    /// A judge fault.
    pub fn sandbox_error(message: String) -> RunCodeResponse {
        RunCodeResponse {
            status: "SandboxError",
            message,
            compile_result: None,
            run_result: None,
            executor_pod_name: None,
            files: BTreeMap::new(),
        }
    }
}

/// Checks `req` and turns it into the judge's language, input and limits.
fn prepare(
    req: RunCodeRequest,
    limits: &Limits,
) -> Result<(judge::lang::Language, String, String, RunLimits), Refusal> {
    let language = crate::languages::fusion(&req.language).ok_or_else(|| {
        let known: Vec<&str> = crate::languages::FUSION.iter().map(|(n, _)| *n).collect();
        Refusal::invalid(
            "language",
            format!(
                "`{}` is not a language this server runs; it runs {}",
                req.language,
                known.join(", ")
            ),
        )
    })?;
    if req.files.as_ref().is_some_and(|files| !files.is_empty()) {
        return Err(Refusal::invalid(
            "files",
            "files beside the program are not supported; send {}",
        ));
    }
    if req.fetch_files.as_ref().is_some_and(|f| !f.is_empty()) {
        return Err(Refusal::invalid(
            "fetch_files",
            "fetching files is not supported; send []",
        ));
    }
    limits.check_source("code", &req.code)?;
    let stdin = req.stdin.unwrap_or_default();
    limits.check_stdin("stdin", &stdin)?;
    let time = limits.time("run_timeout", req.run_timeout.unwrap_or(10.0))?;
    let memory_bytes = limits.memory("memory_limit_MB", req.memory_limit_mb)?;
    let run_limits = RunLimits {
        time,
        memory_bytes,
        output_bytes: limits.stdout_bytes as u64,
        capture_bytes: limits.stdout_bytes,
    };
    Ok((language, req.code, stdin, run_limits))
}

/// Seconds left to the compile and the sandboxes' starts in [`queue_wait`].
const MARGIN_S: f64 = 5.0;

/// How long a `/run_code` request may wait for workers: at most `queue_timeout`, and at
/// most what verl's HTTP timeout for it (`compile_timeout + run_timeout + 10` s, with
/// verl's defaults of 10 s for one not given) leaves after the run's wall limit (the
/// judge's rule: the CPU limit plus 1 s or 10%) and 5 s for the compile and sandbox
/// starts; at least 1 s.
pub fn queue_wait(
    queue_timeout: Duration,
    compile_timeout: Option<f64>,
    run_timeout: Duration,
) -> Duration {
    let compile = compile_timeout
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(10.0);
    let run = run_timeout.as_secs_f64();
    let wall = run + (run * 0.1).max(1.0);
    let room = compile + run + 10.0 - wall - MARGIN_S;
    queue_timeout.min(Duration::from_secs_f64(room.clamp(1.0, 3600.0)))
}

/// Runs a `/run_code` request: admitted, then compiled (once) and run, waiting for
/// workers at most [`queue_wait`].
pub async fn run_code(
    engine: &Arc<Engine>,
    req: RunCodeRequest,
    limits: &Limits,
    queue_timeout: Duration,
) -> Result<RunCodeResponse, Refusal> {
    engine.metrics.request("run_code");
    let compile_timeout = req.compile_timeout;
    let (language, code, stdin, run_limits) = prepare(req, limits)?;
    let wait = queue_wait(queue_timeout, compile_timeout, run_limits.time);
    let _ticket = engine.admit().map_err(Refusal::Busy)?;
    let interpreted = is_interpreted(&language.id);
    match engine
        .run_one(&language, &code, stdin, &run_limits, Some(wait), &|| {})
        .await
    {
        Err(Fault::TimedOut) => Err(Refusal::TimedOut),
        Err(Fault::Judge(err)) => {
            engine
                .metrics
                .judge_errors
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(RunCodeResponse::sandbox_error(error_chain(&err)))
        }
        Ok(one) => {
            // A compile error is counted (`CE`) by the engine; a run here, in the names
            // the other APIs count in (`AC`, not the stage's `OK`).
            if let RunOne::Ran { run, .. } = &one {
                engine.metrics.verdict(counted_verdict(run.status));
            }
            Ok(response_of(one, interpreted))
        }
    }
}

/// The verdict `/metrics` counts for a run: the names Judge0 and the native API count in.
fn counted_verdict(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Ok => "AC",
        RunStatus::TimeLimit => "TLE",
        RunStatus::MemoryLimit => "MLE",
        RunStatus::OutputLimit => "OLE",
        RunStatus::RuntimeError => "RTE",
    }
}

/// Whether the language has no compile stage as SandboxFusion and Judge0 show it
/// (Python, PyPy): the judge's syntax check failing is a run that exits with 1.
pub(crate) fn is_interpreted(id: &str) -> bool {
    matches!(id, "python3" | "pypy3")
}

/// An error and its causes, each once.
pub fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let line = cause.to_string();
        if !text.contains(&line) {
            text.push_str(": ");
            text.push_str(&line);
        }
        source = cause.source();
    }
    text
}

/// The answer for a run of the judge.
fn response_of(one: RunOne, interpreted: bool) -> RunCodeResponse {
    let (compile_result, run_result) = match one {
        RunOne::CompileError {
            message, timed_out, ..
        } => {
            let stage = failed_compile(message, timed_out, interpreted);
            if interpreted {
                (None, Some(stage))
            } else {
                (Some(stage), None)
            }
        }
        RunOne::Ran {
            compile_ms, run, ..
        } => {
            let compile = (!interpreted).then(|| StageResult {
                status: "Finished",
                execution_time: Some(compile_ms / 1000.0),
                return_code: Some(0),
                stdout: String::new(),
                stderr: String::new(),
                verdict: "OK",
                cpu_time: None,
                memory_kb: None,
                signal: None,
                exit_code: Some(0),
            });
            (compile, Some(stage_of_run(&run)))
        }
    };
    let ok = compile_result.as_ref().is_none_or(|c| c.verdict == "OK")
        && run_result
            .as_ref()
            .is_some_and(|r| r.verdict == "OK" && r.return_code == Some(0));
    RunCodeResponse {
        status: if ok { "Success" } else { "Failed" },
        message: String::new(),
        compile_result,
        run_result,
        executor_pod_name: None,
        files: BTreeMap::new(),
    }
}

/// The stage of a program that did not compile: the compile stage, or for an interpreted
/// language (no compile stage in SandboxFusion) the run stage that exits with 1; killed at
/// the compile time limit, `TimeLimitExceeded` with no code.
fn failed_compile(message: String, timed_out: bool, interpreted: bool) -> StageResult {
    let code = (!timed_out).then_some(1);
    StageResult {
        status: if timed_out {
            "TimeLimitExceeded"
        } else {
            "Finished"
        },
        execution_time: Some(0.0),
        return_code: code,
        stdout: String::new(),
        stderr: message,
        verdict: match (timed_out, interpreted) {
            (true, _) => "TLE",
            (false, true) => "RTE",
            (false, false) => "CE",
        },
        cpu_time: interpreted.then_some(0.0),
        memory_kb: None,
        signal: None,
        exit_code: code,
    }
}

/// The run stage of a run.
///
/// `return_code` is what SandboxFusion's clients read: verl scores a run that failed
/// with `return_code` 0 as an API error rather than a wrong program, so a failed verdict
/// never carries 0 (nor null): MLE gives 137 (128 + SIGKILL, what the kernel's kill
/// gives), OLE 153 (128 + SIGXFSZ) and RTE 1 when the program's own exit code is 0 or
/// missing. The program's own exit code stays in `exit_code`.
fn stage_of_run(run: &RunOutcome) -> StageResult {
    let verdict = match run.status {
        RunStatus::Ok => "OK",
        RunStatus::TimeLimit => "TLE",
        RunStatus::MemoryLimit => "MLE",
        RunStatus::OutputLimit => "OLE",
        RunStatus::RuntimeError => "RTE",
    };
    let tle = run.status == RunStatus::TimeLimit;
    let failed_code = match run.status {
        RunStatus::MemoryLimit => 137,
        RunStatus::OutputLimit => 153,
        _ => 1,
    };
    let return_code = if tle {
        None
    } else {
        let code = match (run.exit_code, run.signal) {
            (Some(code), _) => Some(code),
            (None, Some(signal)) => Some(128 + signal),
            (None, None) => None,
        };
        match (run.status, code) {
            (RunStatus::Ok, code) => Some(code.unwrap_or(0)),
            (_, None | Some(0)) => Some(failed_code),
            (_, Some(code)) => Some(code),
        }
    };
    StageResult {
        status: if tle { "TimeLimitExceeded" } else { "Finished" },
        execution_time: Some(run.wall_ms / 1000.0),
        return_code,
        stdout: run.stdout.clone(),
        stderr: run.stderr_tail.clone(),
        verdict,
        cpu_time: Some(run.cpu_ms / 1000.0),
        memory_kb: Some(run.peak_kib),
        signal: run.signal,
        exit_code: run.exit_code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(status: RunStatus, exit_code: Option<i32>, signal: Option<i32>) -> RunOutcome {
        RunOutcome {
            index: 0,
            status,
            message: String::new(),
            stdout: "out\n".to_owned(),
            stdout_bytes: 4,
            stdout_truncated: false,
            stderr_tail: "err".to_owned(),
            exit_code,
            signal,
            cpu_ms: 1500.0,
            wall_ms: 2000.0,
            peak_kib: 1024,
        }
    }

    fn ran(status: RunStatus, exit_code: Option<i32>, signal: Option<i32>) -> RunOne {
        RunOne::Ran {
            compile_ms: 300.0,
            cached: false,
            run: Box::new(outcome(status, exit_code, signal)),
        }
    }

    #[test]
    fn an_accepted_run_is_success_with_its_output() {
        let it = response_of(ran(RunStatus::Ok, Some(0), None), false);
        assert_eq!(it.status, "Success");
        let compile = it.compile_result.expect("a compile stage");
        assert_eq!(compile.execution_time, Some(0.3));
        let run = it.run_result.expect("a run");
        assert_eq!(
            (run.status, run.return_code, run.stdout.as_str()),
            ("Finished", Some(0), "out\n")
        );
        assert_eq!((run.execution_time, run.cpu_time), (Some(2.0), Some(1.5)));
        let python = response_of(ran(RunStatus::Ok, Some(0), None), true);
        assert!(python.compile_result.is_none());
    }

    #[test]
    fn failures_keep_sandbox_fusion_values_and_say_the_verdict_aside() {
        let tle = response_of(ran(RunStatus::TimeLimit, None, Some(9)), false);
        let run = tle.run_result.expect("run");
        assert_eq!((tle.status, run.status), ("Failed", "TimeLimitExceeded"));
        assert_eq!(run.return_code, None);
        let mle = response_of(ran(RunStatus::MemoryLimit, None, Some(9)), false);
        let run = mle.run_result.expect("run");
        assert_eq!(
            (mle.status, run.status, run.verdict),
            ("Failed", "Finished", "MLE")
        );
        assert_eq!(run.return_code, Some(137));
        let rte = response_of(ran(RunStatus::RuntimeError, Some(3), None), false);
        assert_eq!(rte.run_result.expect("run").return_code, Some(3));
        let ole = response_of(ran(RunStatus::OutputLimit, None, Some(25)), false);
        assert_eq!(ole.run_result.expect("run").return_code, Some(153));
    }

    #[test]
    fn a_failed_verdict_with_a_clean_exit_never_reports_return_code_zero() {
        // verl reads return_code 0 on a failed run as an API error (-1), not a failure.
        for (status, code) in [
            (RunStatus::MemoryLimit, 137),
            (RunStatus::OutputLimit, 153),
            (RunStatus::RuntimeError, 1),
        ] {
            for exit in [Some(0), None] {
                let it = response_of(ran(status, exit, None), false);
                assert_eq!(it.status, "Failed", "{status:?}");
                let run = it.run_result.expect("run");
                assert_eq!(run.return_code, Some(code), "{status:?} exit {exit:?}");
                assert_eq!(run.exit_code, exit, "the program's own exit code is kept");
            }
        }
        let ok = response_of(ran(RunStatus::Ok, Some(0), None), false);
        let run = ok.run_result.expect("run");
        assert_eq!((run.return_code, run.exit_code), (Some(0), Some(0)));
        let ce = response_of(
            RunOne::CompileError {
                message: "error: x".to_owned(),
                cached: false,
                timed_out: false,
            },
            false,
        );
        assert_eq!(ce.status, "Failed");
        assert!(ce.run_result.is_none());
        let compile = ce.compile_result.expect("compile");
        assert_eq!(
            (compile.return_code, compile.stderr.as_str()),
            (Some(1), "error: x")
        );
        let syntax = response_of(
            RunOne::CompileError {
                message: "SyntaxError".to_owned(),
                cached: false,
                timed_out: false,
            },
            true,
        );
        assert!(syntax.compile_result.is_none());
        assert_eq!(syntax.run_result.expect("run").return_code, Some(1));
    }

    #[test]
    fn a_compile_killed_at_its_time_limit_is_a_compile_time_out_not_a_compile_error() {
        let killed = || RunOne::CompileError {
            message: "\ncompilation killed at the limit of 60000 ms".to_owned(),
            cached: false,
            timed_out: true,
        };
        let it = response_of(killed(), false);
        assert_eq!(it.status, "Failed");
        assert!(it.run_result.is_none());
        let compile = it.compile_result.expect("compile");
        assert_eq!(
            (compile.status, compile.return_code, compile.verdict),
            ("TimeLimitExceeded", None, "TLE")
        );
        let python = response_of(killed(), true);
        let run = python.run_result.expect("run");
        assert_eq!(
            (run.status, run.return_code, run.verdict),
            ("TimeLimitExceeded", None, "TLE")
        );
    }

    #[test]
    fn the_wait_for_a_worker_leaves_room_in_verls_timeout() {
        let ten = Duration::from_secs(10);
        let default = Duration::from_secs(crate::DEFAULT_QUEUE_TIMEOUT_S);
        // verl's defaults (10 s + 10 s + 10 s = 30 s): the queue timeout itself.
        assert_eq!(queue_wait(default, Some(10.0), ten), default);
        assert_eq!(queue_wait(default, None, ten), default);
        // Short timeouts: 1 + 1 + 10 - (1 + 1) - 5 = 5 s.
        let short = queue_wait(default, Some(1.0), Duration::from_secs(1));
        assert_eq!(short, Duration::from_secs(5));
        // Never under 1 s, never above the server's queue timeout.
        assert_eq!(
            queue_wait(default, Some(0.0), Duration::from_secs(60)),
            Duration::from_secs(1)
        );
        assert_eq!(
            queue_wait(Duration::from_secs(2), Some(60.0), ten),
            Duration::from_secs(2)
        );
        // Wait plus run wall plus margin fits in verl's timeout.
        let run = 20.0;
        let wait = queue_wait(
            Duration::from_secs(600),
            Some(10.0),
            Duration::from_secs(20),
        );
        assert!(wait.as_secs_f64() + run * 1.1 + MARGIN_S <= 10.0 + run + 10.0 + 1e-9);
    }

    #[test]
    fn runs_are_counted_in_the_verdict_names_of_the_other_apis() {
        assert_eq!(counted_verdict(RunStatus::Ok), "AC");
        assert_eq!(counted_verdict(RunStatus::MemoryLimit), "MLE");
        // The stage itself keeps SandboxFusion's OK.
        let it = response_of(ran(RunStatus::Ok, Some(0), None), false);
        assert_eq!(it.run_result.expect("run").verdict, "OK");
    }

    #[test]
    fn requests_are_checked_before_judging() {
        let limits = Limits::default();
        let req = |json: serde_json::Value| -> RunCodeRequest {
            serde_json::from_value(json).expect("parses")
        };
        // Unknown keys are ignored; the language defaults to python.
        let (lang, _, stdin, run) = prepare(
            req(serde_json::json!({"code": "print(1)", "extra": 1})),
            &limits,
        )
        .expect("valid");
        assert_eq!((lang.id.as_str(), stdin.as_str()), ("python3", ""));
        assert_eq!(run.time, Duration::from_secs(10));
        let bad = prepare(
            req(serde_json::json!({"code": "", "language": "cobol"})),
            &limits,
        )
        .expect_err("unknown");
        assert!(bad.message().contains("cobol"), "{}", bad.message());
        let files = prepare(
            req(serde_json::json!({"code": "", "files": {"a.txt": "eA=="}})),
            &limits,
        )
        .expect_err("files");
        assert!(files.message().starts_with("files:"));
        let memory = prepare(
            req(serde_json::json!({"code": "", "memory_limit_MB": 256, "run_timeout": 0.5})),
            &limits,
        )
        .expect("valid");
        assert_eq!(memory.3.memory_bytes, 256 << 20);
        assert_eq!(memory.3.time, Duration::from_millis(500));
        let unlimited = prepare(
            req(serde_json::json!({"code": "", "memory_limit_MB": -1})),
            &limits,
        )
        .expect("valid");
        assert_eq!(
            unlimited.3.memory_bytes,
            (limits.default_memory_mb as u64) << 20
        );
        let big = "x".repeat(limits.max_source_bytes + 1);
        let err = prepare(req(serde_json::json!({"code": big})), &limits).expect_err("big");
        assert_eq!(err.status(), 413);
    }
}
