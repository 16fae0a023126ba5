//! SandboxFusion's `/run_code` and `/v1/ping` end to end on both backends (Docker and
//! bubblewrap): the answer's shape field by field, each outcome's values (accepted, wrong
//! output, TLE, MLE as `Failed` with the extra verdict, RTE, CE, a Python syntax error),
//! Python, C++, C and Java, several MB of standard output byte for byte, and the 422s of
//! an unknown language, a missing `code` and `files`.

mod common;

use judge::sandbox::BackendKind;
use serde_json::{Value, json};

const ADD_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const ADD_CPP: &str = "#include <cstdio>\nint main(){ long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; printf(\"%ld\\n\", a + b); }\n";
const ADD_C: &str = "#include <stdio.h>\nint main(void){ long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; printf(\"%ld\\n\", a + b); return 0; }\n";
const ADD_JAVA: &str = "import java.util.*;\npublic class Main { public static void main(String[] x) { Scanner s = new Scanner(System.in); long a = s.nextLong(), b = s.nextLong(); System.out.println(a + b); } }\n";

/// The fields of SandboxFusion's `RunCodeResponse` and `CommandRunResult`.
fn check_shape(answer: &Value) {
    for field in [
        "status",
        "message",
        "compile_result",
        "run_result",
        "executor_pod_name",
        "files",
    ] {
        assert!(answer.get(field).is_some(), "{field} missing: {answer}");
    }
    let status = answer["status"].as_str().expect("status");
    assert!(
        ["Success", "Failed", "SandboxError"].contains(&status),
        "{answer}"
    );
    for stage in ["compile_result", "run_result"] {
        let it = &answer[stage];
        if it.is_null() {
            continue;
        }
        let status = it["status"].as_str().expect("stage status");
        assert!(
            ["Finished", "Error", "TimeLimitExceeded"].contains(&status),
            "{answer}"
        );
        for field in ["execution_time", "return_code", "stdout", "stderr"] {
            assert!(it.get(field).is_some(), "{stage}.{field} missing: {answer}");
        }
    }
}

async fn run(server: &common::Server, language: &str, code: &str, extra: Value) -> Value {
    let mut body = json!({"code": code, "language": language, "stdin": "2 40\n"});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let answer = server.run_code(&body).await;
    check_shape(&answer);
    answer
}

async fn outcomes(backend: BackendKind) {
    let server = common::start(backend, |opts| {
        opts.limits.compile_time_s = 30.0;
    })
    .await;
    let ping = server.get("/v1/ping").await;
    assert_eq!((ping.status, ping.body.clone()), (200, json!("pong")));

    // Accepted in each language; Python has no compile stage, the others one that
    // finished with 0.
    for (language, code) in [
        ("python", ADD_PY),
        ("cpp", ADD_CPP),
        ("c", ADD_C),
        ("java", ADD_JAVA),
    ] {
        let it = run(&server, language, code, json!({})).await;
        assert_eq!(it["status"], "Success", "{language}: {it}");
        assert_eq!(it["run_result"]["stdout"], "42\n", "{language}: {it}");
        assert_eq!(it["run_result"]["return_code"], 0, "{language}: {it}");
        assert_eq!(it["run_result"]["verdict"], "OK", "{language}: {it}");
        assert!(it["run_result"]["cpu_time"].as_f64().is_some(), "{it}");
        assert!(it["run_result"]["memory_kb"].as_u64().is_some(), "{it}");
        if language == "python" {
            assert!(it["compile_result"].is_null(), "{it}");
        } else {
            assert_eq!(it["compile_result"]["status"], "Finished", "{it}");
            assert_eq!(it["compile_result"]["return_code"], 0, "{it}");
        }
    }

    // A wrong output is still Success: the client compares (verl, the PyPI client).
    let wrong = run(&server, "python", "print(41)\n", json!({})).await;
    assert_eq!(
        (
            wrong["status"].clone(),
            wrong["run_result"]["stdout"].clone()
        ),
        (json!("Success"), json!("41\n"))
    );

    // Time limit: TimeLimitExceeded with no return code.
    let tle = run(
        &server,
        "python",
        "while True:\n    pass\n",
        json!({"run_timeout": 1}),
    )
    .await;
    assert_eq!(tle["status"], "Failed", "{tle}");
    assert_eq!(tle["run_result"]["status"], "TimeLimitExceeded", "{tle}");
    assert!(tle["run_result"]["return_code"].is_null(), "{tle}");
    assert_eq!(tle["run_result"]["verdict"], "TLE", "{tle}");

    // Memory limit: Failed, the run Finished with a non-zero code, the verdict MLE.
    let mle = run(
        &server,
        "cpp",
        "#include <cstdio>\n#include <cstdlib>\nint main(){ size_t n = 512u << 20; char* volatile p = (char*)malloc(n); for (size_t i = 0; i < n; i += 4096) p[i] = 1; printf(\"%d\\n\", p[n - 4096]); }\n",
        json!({"memory_limit_MB": 128}),
    )
    .await;
    assert_eq!(mle["status"], "Failed", "{mle}");
    assert_eq!(mle["run_result"]["status"], "Finished", "{mle}");
    assert_eq!(mle["run_result"]["verdict"], "MLE", "{mle}");
    assert_ne!(mle["run_result"]["return_code"], 0, "{mle}");

    // Runtime error: its exit code; a crash: 128 + its signal.
    let rte = run(&server, "python", "import sys\nsys.exit(3)\n", json!({})).await;
    assert_eq!(
        (
            rte["status"].clone(),
            rte["run_result"]["return_code"].clone()
        ),
        (json!("Failed"), json!(3))
    );
    let segv = run(
        &server,
        "cpp",
        "int main(){ volatile int* p = nullptr; return *p; }\n",
        json!({}),
    )
    .await;
    assert_eq!(segv["run_result"]["return_code"], 139, "{segv}");
    assert_eq!(segv["run_result"]["verdict"], "RTE", "{segv}");

    // Compile error: the compile stage finished with 1 and the compiler's words, no run.
    let ce = run(
        &server,
        "cpp",
        "int main() { return undefined_name; }\n",
        json!({}),
    )
    .await;
    assert_eq!(ce["status"], "Failed", "{ce}");
    assert!(ce["run_result"].is_null(), "{ce}");
    assert_eq!(ce["compile_result"]["return_code"], 1, "{ce}");
    assert!(
        ce["compile_result"]["stderr"]
            .as_str()
            .is_some_and(|s| s.contains("undefined_name")),
        "{ce}"
    );
    // A Python syntax error is a run that exits with 1, as in SandboxFusion.
    let syntax = run(&server, "python", "def f(:\n    pass\n", json!({})).await;
    assert!(syntax["compile_result"].is_null(), "{syntax}");
    assert_eq!(syntax["run_result"]["return_code"], 1, "{syntax}");
    assert!(
        syntax["run_result"]["stderr"]
            .as_str()
            .is_some_and(|s| s.contains("SyntaxError")),
        "{syntax}"
    );

    // 3 MB of output, byte for byte (lines of different lengths, no trailing newline).
    let big = run(
        &server,
        "python",
        "import sys\nsys.stdout.write(''.join(str(i) * (i % 7 + 1) + '\\r\\n' for i in range(200000)) + 'end')\n",
        json!({}),
    )
    .await;
    let want: String = (0..200_000)
        .map(|i| format!("{}\r\n", i.to_string().repeat(i % 7 + 1)))
        .collect::<String>()
        + "end";
    assert!(want.len() > 3_000_000);
    let got = big["run_result"]["stdout"].as_str().expect("stdout");
    assert_eq!(got.len(), want.len());
    assert!(got == want, "the output differs");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_code_outcomes_on_docker() {
    if common::backends().contains(&BackendKind::Docker) {
        outcomes(BackendKind::Docker).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_code_outcomes_on_bwrap() {
    if common::backends().contains(&BackendKind::Bwrap) {
        outcomes(BackendKind::Bwrap).await;
    }
}

/// What SandboxFusion's validation refuses is 422 with FastAPI's `detail`; the language
/// defaults to python and unknown keys are ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_code_validation() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |_| {}).await;
    for (body, field) in [
        (json!({"code": "print(1)", "language": "cobol"}), "language"),
        (json!({"language": "python"}), "body"),
        (
            json!({"code": "print(1)", "files": {"a.txt": "eA=="}}),
            "files",
        ),
        (
            json!({"code": "print(1)", "fetch_files": ["a.txt"]}),
            "fetch_files",
        ),
        (
            json!({"code": "print(1)", "run_timeout": -1}),
            "run_timeout",
        ),
    ] {
        let answer = server.post("/run_code", &body).await;
        assert_eq!(answer.status, 422, "{body}: {}", answer.text);
        let detail = &answer.body["detail"][0];
        assert_eq!(detail["loc"][0], "body", "{}", answer.text);
        if field != "body" {
            assert_eq!(detail["loc"][1], field, "{}", answer.text);
        }
        assert!(detail["msg"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let defaults = server
        .run_code(&json!({"code": "print('hi')", "stdin": null, "unknown_key": [1, 2]}))
        .await;
    assert_eq!(defaults["status"], "Success", "{defaults}");
    assert_eq!(defaults["run_result"]["stdout"], "hi\n", "{defaults}");
}
