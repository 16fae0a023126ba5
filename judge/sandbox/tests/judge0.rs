//! Judge0 CE's API end to end on one backend (bubblewrap when present): the metadata
//! routes the `judge0` SDK reads at start (`/languages`, `/config_info` with every field
//! of its strict model, `/about` with version 1.13.1, `/statuses`), submissions with
//! `wait=true` for each status (Accepted, Wrong Answer, TLE, Compilation Error, SIGSEGV,
//! NZEC, and MLE as Runtime Error (Other) with its message), base64 both ways with
//! polling as the SDK polls (`wait=false`, then `fields=*`), batches (at most 20) and
//! the errors (unknown token 404, unknown language 422).

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

/// The fields of the SDK's `Config` model (`judge0/base_types.py`), all required.
const CONFIG_FIELDS: &[&str] = &[
    "allow_enable_network",
    "allow_enable_per_process_and_thread_memory_limit",
    "allow_enable_per_process_and_thread_time_limit",
    "allowed_languages_for_compile_options",
    "callbacks_max_tries",
    "callbacks_timeout",
    "cpu_extra_time",
    "cpu_time_limit",
    "enable_additional_files",
    "enable_batched_submissions",
    "enable_callbacks",
    "enable_command_line_arguments",
    "enable_compiler_options",
    "enable_network",
    "enable_per_process_and_thread_memory_limit",
    "enable_per_process_and_thread_time_limit",
    "enable_submission_delete",
    "enable_wait_result",
    "maintenance_mode",
    "max_cpu_extra_time",
    "max_cpu_time_limit",
    "max_extract_size",
    "max_file_size",
    "max_max_file_size",
    "max_max_processes_and_or_threads",
    "max_memory_limit",
    "max_number_of_runs",
    "max_processes_and_or_threads",
    "max_queue_size",
    "max_stack_limit",
    "max_submission_batch_size",
    "max_wall_time_limit",
    "memory_limit",
    "number_of_runs",
    "redirect_stderr_to_stdout",
    "stack_limit",
    "submission_cache_duration",
    "use_docs_as_homepage",
    "wall_time_limit",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge0_api() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |_| {}).await;
    metadata(&server).await;
    each_status(&server).await;
    polled_in_base64(&server).await;
    batches_and_errors(&server).await;
}

/// The routes the SDK reads when it starts.
async fn metadata(server: &common::Server) {
    let languages = server.get("/languages").await.body;
    let ids: Vec<u64> = languages
        .as_array()
        .expect("a list")
        .iter()
        .map(|l| l["id"].as_u64().expect("id"))
        .collect();
    for id in [50, 54, 62, 71] {
        assert!(ids.contains(&id), "{languages}");
    }
    assert!(languages[0]["name"].as_str().is_some_and(|n| !n.is_empty()));
    let one = server.get("/languages/71").await;
    assert_eq!((one.status, one.body["id"].clone()), (200, json!(71)));
    assert_eq!(server.get("/languages/1").await.status, 404);
    let config = server.get("/config_info").await.body;
    for field in CONFIG_FIELDS {
        assert!(
            config.get(field).is_some_and(|v| !v.is_null()),
            "{field}: {config}"
        );
    }
    assert_eq!(config["max_submission_batch_size"], 20);
    assert_eq!(server.get("/about").await.body["version"], "1.13.1");
    let statuses = server.get("/statuses").await.body;
    assert_eq!(statuses.as_array().map(Vec::len), Some(14));
    assert_eq!(
        statuses[12],
        json!({"id": 13, "description": "Internal Error"})
    );
}

/// One submission per status, waited for.
async fn each_status(server: &common::Server) {
    let cases: &[(u64, &str, &str, &str, Value, u64, &str)] = &[
        (
            71,
            "print(int(input()) * 2)",
            "21\n",
            "42\n",
            json!({}),
            3,
            "Accepted",
        ),
        (71, "print(41)", "", "42", json!({}), 4, "Wrong Answer"),
        (
            71,
            "while True: pass",
            "",
            "",
            json!({"cpu_time_limit": 1}),
            5,
            "Time Limit Exceeded",
        ),
        (
            54,
            "int main() { return nope; }",
            "",
            "",
            json!({}),
            6,
            "Compilation Error",
        ),
        (
            54,
            "int main() { volatile int* p = nullptr; return *p; }",
            "",
            "",
            json!({}),
            7,
            "Runtime Error (SIGSEGV)",
        ),
        (
            50,
            "int main(void) { return 3; }",
            "",
            "",
            json!({}),
            11,
            "Runtime Error (NZEC)",
        ),
        (
            71,
            "def f(:\n  pass",
            "",
            "",
            json!({}),
            11,
            "Runtime Error (NZEC)",
        ),
        (
            71,
            "x = bytearray(400 * 1024 * 1024)\nprint(len(x))",
            "",
            "",
            json!({"memory_limit": 65536}),
            12,
            "Runtime Error (Other)",
        ),
        (
            62,
            "public class Main { public static void main(String[] a) { System.out.println(\"hi\"); } }",
            "",
            "hi",
            json!({}),
            3,
            "Accepted",
        ),
    ];
    for (language, source, stdin, expected, extra, status, description) in cases {
        let mut body = json!({"source_code": source, "language_id": language, "stdin": stdin});
        if !expected.is_empty() {
            body["expected_output"] = json!(expected);
        }
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let answer = server
            .post("/submissions?wait=true&base64_encoded=false", &body)
            .await;
        assert_eq!(answer.status, 201, "{body}: {}", answer.text);
        let it = &answer.body;
        assert_eq!(it["status"]["id"], *status, "{body}: {it}");
        assert_eq!(it["status"]["description"], *description, "{it}");
        for field in [
            "token",
            "stdout",
            "stderr",
            "compile_output",
            "message",
            "time",
            "memory",
        ] {
            assert!(it.get(field).is_some(), "{field}: {it}");
        }
        if *status == 3 {
            assert!(
                it["time"]
                    .as_str()
                    .is_some_and(|t| t.parse::<f64>().is_ok()),
                "{it}"
            );
            assert!(it["memory"].as_u64().is_some(), "{it}");
        }
        if *status == 6 {
            assert!(
                it["compile_output"]
                    .as_str()
                    .is_some_and(|c| c.contains("nope")),
                "{it}"
            );
        }
        if *status == 12 {
            assert_eq!(it["message"], "Memory limit exceeded", "{it}");
        }
    }
}

/// As the SDK does: base64, no wait, then polling with `fields=*`.
async fn polled_in_base64(server: &common::Server) {
    let source = BASE64.encode("import sys\nprint(sys.stdin.read().upper(), end='')");
    let created = server
        .post(
            "/submissions?base64_encoded=true&wait=false",
            &json!({"source_code": source, "language_id": 71, "stdin": BASE64.encode("héllo\n")}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let token = created.body["token"].as_str().expect("token").to_owned();
    assert_eq!(created.body.as_object().map(|o| o.len()), Some(1));
    let since = std::time::Instant::now();
    let done = loop {
        common::still_polling(since, "the submission to finish");
        let polled = server
            .get(&format!(
                "/submissions/{token}?base64_encoded=true&fields=*"
            ))
            .await;
        assert_eq!(polled.status, 200, "{}", polled.text);
        if polled.body["status"]["id"]
            .as_u64()
            .is_some_and(|id| id > 2)
        {
            break polled.body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(done["status"]["id"], 3, "{done}");
    let stdout = BASE64
        .decode(done["stdout"].as_str().expect("stdout"))
        .expect("base64");
    assert_eq!(String::from_utf8(stdout).expect("utf-8"), "HÉLLO\n");
    assert_eq!(done["source_code"], source);
    assert_eq!(done["language"]["id"], 71);
    assert_eq!(done["token"], token.as_str());
    assert!(
        done["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')),
        "{done}"
    );
    let picked = server
        .get(&format!("/submissions/{token}?fields=status_id,stdout"))
        .await
        .body;
    assert_eq!(picked, json!({"status_id": 3, "stdout": "HÉLLO\n"}));
}

/// Batches: at most 20, each created or refused on its own, read back by tokens; and the
/// errors.
async fn batches_and_errors(server: &common::Server) {
    let many: Vec<Value> = (0..21)
        .map(|_| json!({"source_code": "print(1)", "language_id": 71}))
        .collect();
    let too_many = server
        .post("/submissions/batch", &json!({"submissions": many}))
        .await;
    assert_eq!(too_many.status, 413, "{}", too_many.text);
    assert!(too_many.text.contains("20"), "{}", too_many.text);
    let batch = server
        .post(
            "/submissions/batch",
            &json!({"submissions": [
                {"source_code": "print(1)", "language_id": 71},
                {"source_code": "print(2)", "language_id": 9999},
            ]}),
        )
        .await;
    assert_eq!(batch.status, 201, "{}", batch.text);
    let first = batch.body[0]["token"].as_str().expect("a token").to_owned();
    assert!(batch.body[1].get("language_id").is_some(), "{}", batch.text);
    let since = std::time::Instant::now();
    let read = loop {
        common::still_polling(since, "the batch's first submission to finish");
        let read = server
            .get(&format!(
                "/submissions/batch?tokens={first},{}&fields=status,stdout",
                uuid_like()
            ))
            .await;
        assert_eq!(read.status, 200, "{}", read.text);
        if read.body["submissions"][0]["status"]["id"]
            .as_u64()
            .is_some_and(|id| id > 2)
        {
            break read.body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(read["submissions"][0]["stdout"], "1\n", "{read}");
    assert!(read["submissions"][1].is_null(), "{read}");
    assert_eq!(
        server
            .get(&format!("/submissions/{}", uuid_like()))
            .await
            .status,
        404
    );
    let unknown = server
        .post(
            "/submissions",
            &json!({"source_code": "x", "language_id": 9999}),
        )
        .await;
    assert_eq!(unknown.status, 422, "{}", unknown.text);
    assert!(
        unknown.body["language_id"][0].as_str().is_some(),
        "{}",
        unknown.text
    );
}

/// A well-formed token no submission has.
fn uuid_like() -> &'static str {
    "00000000-0000-4000-8000-000000000000"
}
