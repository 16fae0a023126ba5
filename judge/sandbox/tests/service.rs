//! The service around the judging, on one backend: the bounded queue (503 with
//! `Retry-After` when full, 504 after the queue timeout on `/run_code`, and 64
//! concurrent requests, verl's default, all judged with the default queue and queue
//! timeout, none refused, a 504 retried as verl does), the
//! per-request limits (413 naming the limit, 400/422 naming the field), the bearer token,
//! a broken sandbox answered as a judge fault on each API (SandboxError, status 13,
//! `judge_error`) and never as a verdict, `/metrics` and `/openapi.json`.

mod common;

use std::time::Duration;

use judge::sandbox::SandboxConfig;
use serde_json::json;

const SPIN: &str = "while True:\n    pass\n";

/// Waits until the server is judging `n` programs (it polls; only a state that never
/// comes fails it, after [`common::POLL_LIMIT`]).
async fn until_running(server: &common::Server, n: f64) {
    let since = std::time::Instant::now();
    while server.metric("judge_sandbox_running").await < n {
        common::still_polling(since, &format!("{n} programs running"));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sends a `/run_code` of a program that spins for `seconds` of CPU, in a task of its
/// own, and waits until the server is judging it; the task gives the HTTP status and the
/// answer's body.
async fn spinning(
    server: &common::Server,
    seconds: u64,
) -> tokio::task::JoinHandle<(u16, serde_json::Value)> {
    let client = server.client.clone();
    let url = format!("{}/run_code", server.url);
    let task = tokio::spawn(async move {
        let answer = client
            .post(url)
            .json(&json!({"code": SPIN, "run_timeout": seconds}))
            .send()
            .await
            .expect("answer");
        let status = answer.status().as_u16();
        (status, answer.json().await.expect("json"))
    });
    until_running(server, 1.0).await;
    task
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_answers_503_with_retry_after() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |opts| {
        opts.workers = 1;
        opts.queue = 0;
    })
    .await;
    let busy = spinning(&server, 2).await;
    for (path, body) in [
        ("/run_code", json!({"code": "print(1)"})),
        (
            "/v1/evaluate",
            json!({"tests": [{"input": "", "output": "1"}], "programs": [{"language": "python", "source": "print(1)"}]}),
        ),
        (
            "/submissions",
            json!({"source_code": "print(1)", "language_id": 71}),
        ),
    ] {
        let refused = server.post(path, &body).await;
        assert_eq!(refused.status, 503, "{path}: {}", refused.text);
        let retry = refused
            .headers
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        assert!(
            retry.is_some_and(|s| s >= 1),
            "{path}: {:?}",
            refused.headers
        );
        if path == "/submissions" {
            assert_eq!(refused.body, json!({"error": "queue is full"}));
        }
    }
    let (_, first) = busy.await.expect("the first request");
    assert_eq!(
        first["run_result"]["status"], "TimeLimitExceeded",
        "{first}"
    );
    assert!(server.metric("judge_sandbox_rejected_total").await >= 3.0);
    // Room again.
    let after = server.run_code(&json!({"code": "print(1)"})).await;
    assert_eq!(after["status"], "Success");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_code_request_that_waits_too_long_gets_504() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |opts| {
        opts.workers = 1;
        opts.queue_timeout = Duration::from_secs(1);
    })
    .await;
    let busy = spinning(&server, 3).await;
    // The running program needs 3 s of CPU; this one may wait 1 s.
    let waited = server.post("/run_code", &json!({"code": "print(1)"})).await;
    assert_eq!(waited.status, 504, "{}", waited.text);
    assert!(waited.headers.get("retry-after").is_some());
    assert_eq!(busy.await.expect("first").0, 200);
}

/// verl's default `max_concurrent: 64`, with the server's defaults (the queue and the
/// queue timeout): no request is refused, and each is judged; one that waited past the
/// queue timeout (a loaded machine with few workers) is answered 504, which verl retries,
/// and so does this client, until each has its answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_concurrent_requests_are_all_judged() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |opts| {
        assert_eq!(opts.queue, judge_sandbox::DEFAULT_QUEUE);
        assert_eq!(
            opts.queue_timeout,
            Duration::from_secs(judge_sandbox::DEFAULT_QUEUE_TIMEOUT_S)
        );
    })
    .await;
    let requests = (0..64).map(|i| {
        let client = server.client.clone();
        let url = format!("{}/run_code", server.url);
        async move {
            let deadline = std::time::Instant::now() + Duration::from_secs(600);
            let mut retried = 0;
            loop {
                let answer = client
                    .post(&url)
                    .json(&json!({"code": "print(int(input()) * 3)", "stdin": format!("{i}\n")}))
                    .send()
                    .await
                    .expect("answer");
                let status = answer.status().as_u16();
                if status == 504 {
                    assert!(
                        std::time::Instant::now() < deadline,
                        "request {i} still answered 504 after {retried} retries"
                    );
                    retried += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                let body: serde_json::Value = answer.json().await.expect("json");
                return (i, status, body, retried);
            }
        }
    });
    let mut retries = 0;
    for (i, status, body, retried) in futures_util::future::join_all(requests).await {
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["status"], "Success", "{body}");
        assert_eq!(body["run_result"]["stdout"], format!("{}\n", i * 3));
        retries += retried;
    }
    assert_eq!(server.metric("judge_sandbox_rejected_total").await, 0.0);
    assert_eq!(
        server.metric("judge_sandbox_queue_timeouts_total").await,
        f64::from(retries),
        "each 504 is one queue time-out"
    );
    assert_eq!(
        server
            .metric("judge_sandbox_requests_total{api=\"run_code\"}")
            .await,
        64.0 + f64::from(retries)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_limits_name_the_limit() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |opts| {
        opts.limits.max_source_bytes = 200;
        opts.limits.max_tests = 2;
        opts.limits.max_programs = 2;
        opts.limits.max_body_bytes = 64 * 1024;
        opts.limits.max_total_output_bytes = 10 << 20;
    })
    .await;
    let long = "#".repeat(300);
    let test = json!({"input": "", "output": ""});
    let prog = json!({"language": "python", "source": "print()"});
    for (path, body, option) in [
        ("/run_code", json!({"code": long}), "--max-source-bytes"),
        (
            "/submissions",
            json!({"source_code": long, "language_id": 71}),
            "--max-source-bytes",
        ),
        (
            "/v1/evaluate",
            json!({"tests": [test, test, test], "programs": [prog]}),
            "--max-tests",
        ),
        (
            "/v1/evaluate",
            json!({"tests": [test], "programs": [prog, prog, prog]}),
            "--max-programs",
        ),
        (
            "/v1/evaluate",
            json!({"tests": [test, test], "limits": {"output_mb": 8}, "programs": [prog]}),
            "--max-total-output-bytes",
        ),
        (
            "/v1/evaluate",
            json!({"tests": [{"input": "x".repeat(100_000), "output": ""}], "programs": [prog]}),
            "--max-body-bytes",
        ),
    ] {
        let answer = server.post(path, &body).await;
        assert_eq!(answer.status, 413, "{path} {option}: {}", answer.text);
        assert!(answer.text.contains(option), "{path}: {}", answer.text);
    }
    // Values out of range: 400 on the native API, naming the field.
    let bad = server
        .post(
            "/v1/evaluate",
            &json!({"tests": [test], "limits": {"time_s": 0}, "programs": [prog]}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.body["field"], "limits.time_s", "{}", bad.text);
    let both = server
        .post(
            "/v1/evaluate",
            &json!({"tests": [test], "problem": "sum", "programs": [prog]}),
        )
        .await;
    assert_eq!(both.status, 400, "{}", both.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_guards_every_route_but_ping() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |opts| opts.token = Some("s3cret".to_owned())).await;
    assert_eq!(server.get("/v1/ping").await.status, 200);
    for path in ["/metrics", "/languages", "/openapi.json"] {
        assert_eq!(server.get(path).await.status, 401, "{path}");
    }
    let body = json!({"code": "print(7)"});
    assert_eq!(server.post("/run_code", &body).await.status, 401);
    let wrong = server
        .send(
            server
                .client
                .post(format!("{}/run_code", server.url))
                .bearer_auth("s3cres")
                .json(&body),
        )
        .await;
    assert_eq!(wrong.status, 401);
    let right = server
        .send(
            server
                .client
                .post(format!("{}/run_code", server.url))
                .bearer_auth("s3cret")
                .json(&body),
        )
        .await;
    assert_eq!(right.status, 200, "{}", right.text);
    assert_eq!(right.body["run_result"]["stdout"], "7\n");
    let judge0 = server
        .send(
            server
                .client
                .get(format!("{}/languages", server.url))
                .header("X-Auth-Token", "s3cret"),
        )
        .await;
    assert_eq!(judge0.status, 200);
}

/// A sandbox that cannot start is the judge's fault on every API, never a verdict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_sandbox_is_a_judge_fault() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let mut config = SandboxConfig::discover().expect("config");
    config.rootfs = "/nonexistent-rootfs".into();
    config.image = "arena-sandbox:nonexistent".to_owned();
    let server = common::start_with(backend, config, |_| {}).await;
    let fusion = server.run_code(&json!({"code": "print(1)"})).await;
    assert_eq!(fusion["status"], "SandboxError", "{fusion}");
    assert!(
        fusion["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{fusion}"
    );
    assert!(fusion["run_result"].is_null());
    let judge0 = server
        .post(
            "/submissions?wait=true",
            &json!({"source_code": "print(1)", "language_id": 71, "expected_output": "1"}),
        )
        .await;
    assert_eq!(judge0.body["status"]["id"], 13, "{}", judge0.text);
    assert_eq!(judge0.body["status"]["description"], "Internal Error");
    let native = server
        .evaluate(&json!({"tests": [{"input": "", "output": "1"}], "programs": [{"language": "cpp", "source": "int main(){}"}]}))
        .await;
    let it = &native["results"][0];
    assert_eq!(it["status"], "judge_error", "{native}");
    assert!(
        it["verdict"].is_null() && it["scores"].is_null(),
        "{native}"
    );
    assert!(it["error"].as_str().is_some_and(|e| !e.is_empty()));
    assert!(server.metric("judge_sandbox_judge_errors_total").await >= 3.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_and_the_openapi_document() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |_| {}).await;
    server.run_code(&json!({"code": "print(1)"})).await;
    server.run_code(&json!({"code": "print(1)"})).await;
    server
        .evaluate(&json!({"tests": [{"input": "", "output": "1\n"}, {"input": "", "output": "2\n"}], "programs": [{"language": "python", "source": "print(1)"}]}))
        .await;
    let text = server.get("/metrics").await;
    assert!(
        text.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/plain")),
    );
    for family in [
        "judge_sandbox_queue_depth",
        "judge_sandbox_tests_judged_total",
        "judge_sandbox_programs_judged_total",
        "judge_sandbox_compile_cache_hits_total",
        "judge_sandbox_tests_per_second",
        "judge_sandbox_verdicts_total",
    ] {
        assert!(
            text.text.contains(&format!("# TYPE {family} ")),
            "{family}: {}",
            text.text
        );
    }
    assert_eq!(server.metric("judge_sandbox_tests_judged_total").await, 4.0);
    assert_eq!(
        server.metric("judge_sandbox_programs_judged_total").await,
        3.0
    );
    // The second /run_code found the program compiled.
    assert!(
        server
            .metric("judge_sandbox_compile_cache_hits_total")
            .await
            >= 1.0
    );
    assert_eq!(
        server
            .metric("judge_sandbox_verdicts_total{verdict=\"WA\"}")
            .await,
        1.0
    );
    // Both APIs count a clean run as AC: the two /run_code runs and the passed test.
    assert_eq!(
        server
            .metric("judge_sandbox_verdicts_total{verdict=\"AC\"}")
            .await,
        3.0,
        "{}",
        text.text
    );
    assert!(!text.text.contains("verdict=\"OK\""), "{}", text.text);
    assert!(server.metric("judge_sandbox_tests_per_second").await > 0.0);
    let doc = server.get("/openapi.json").await.body;
    assert_eq!(doc["openapi"], "3.0.3");
    for path in ["/run_code", "/submissions", "/v1/evaluate"] {
        assert!(doc["paths"].get(path).is_some(), "{path}");
    }
}
