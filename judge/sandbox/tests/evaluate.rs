//! The native `/v1/evaluate` end to end: a GRPO-shaped group on a bundled package with
//! its own checker (the `sum` package's reference submissions: accepted, wrong answer,
//! run-time error, time limit), an output validator (`divisiblesubset`) and an
//! interactor (`guessnumber`), an easy-set problem by name, inline tests with a float
//! tolerance and subtasks, each distinct program compiled once (duplicates and a second
//! request, counted in `/metrics`), `stop_at_first_failure`, the first failure's excerpt
//! and the scores. Both backends judge the group; the rest runs on one.

mod common;

use judge::sandbox::BackendKind;
use serde_json::{Value, json};

fn program(language: &str, package: &str, path: &str) -> Value {
    json!({"language": language, "source": common::package_file(package, path)})
}

fn problems(opts: &mut judge_sandbox::ServeOptions) {
    opts.problems = vec![
        common::root().join("problems/packages"),
        common::root().join("problems/easy/absdiff"),
    ];
    opts.limits.compile_time_s = 30.0;
}

async fn group_on(backend: BackendKind) {
    let server = common::start(backend, problems).await;
    let programs = vec![
        program("cpp", "sum", "submissions/accepted/sum.cpp"),
        program("python3", "sum", "submissions/wrong_answer/first_only.py"),
        program("cpp", "sum", "submissions/accepted/sum.cpp"),
        program("cpp", "sum", "submissions/wrong_answer/int_overflow.cpp"),
        program("python3", "sum", "submissions/run_time_error/exit_code.py"),
        program("c", "sum", "submissions/time_limit_exceeded/spin.c"),
        program("java", "sum", "submissions/accepted/Sum.java"),
        program("cpp", "sum", "submissions/accepted/sum.cpp"),
    ];
    let answer = server
        .evaluate(&json!({"problem": "sum", "programs": programs}))
        .await;
    let results = answer["results"].as_array().expect("results");
    assert_eq!(results.len(), 8, "{answer}");
    assert_eq!(answer["distinct_programs"], 6, "{answer}");
    let total = answer["total_tests"].as_u64().expect("total");
    assert!(total >= 3, "{answer}");
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(
        verdicts,
        ["AC", "WA", "AC", "WA", "RTE", "TLE", "AC", "AC"],
        "{answer}"
    );
    for r in results {
        assert_eq!(r["status"], "judged", "{r}");
    }
    // Duplicates are judged once.
    assert_eq!(results[2]["duplicate_of"], 0);
    assert_eq!(results[7]["duplicate_of"], 0);
    assert_eq!(results[2]["compile"]["cached"], true);
    assert!(answer["compile_cache_hits"].as_u64().expect("hits") >= 2);
    // Every test of the accepted program, with its measurements.
    let accepted = &results[0];
    assert_eq!(
        accepted["tests"].as_array().map(Vec::len),
        Some(total as usize)
    );
    for test in accepted["tests"].as_array().expect("tests") {
        assert_eq!(test["verdict"], "AC", "{test}");
        assert!(test["cpu_time"].as_f64().is_some() && test["wall_time"].as_f64().is_some());
        assert!(test["memory_kb"].as_u64().is_some_and(|m| m > 0), "{test}");
        assert_eq!(test["exit_code"], 0, "{test}");
    }
    assert_eq!(
        accepted["scores"],
        json!({"passed": total, "total": total, "fraction": 1.0, "all_or_nothing": 1.0, "ioi": 1.0, "points": null, "max_points": null})
    );
    assert!(accepted["first_failure"].is_null());
    // The overflowing program fails on the big test: its excerpt shows why.
    let overflow = &results[3];
    let failure = &overflow["first_failure"];
    assert_eq!(failure["verdict"], "WA", "{overflow}");
    assert_eq!(failure["expected"], "200000000000000\n", "{overflow}");
    assert_ne!(failure["got"], failure["expected"], "{overflow}");
    assert!(failure["input"].as_str().is_some_and(|i| !i.is_empty()));
    let scores = &overflow["scores"];
    assert!(
        scores["fraction"]
            .as_f64()
            .is_some_and(|f| f > 0.0 && f < 1.0),
        "{scores}"
    );
    assert_eq!(scores["all_or_nothing"], 0.0);
    let rte = &results[4]["tests"][0];
    assert_ne!(rte["exit_code"], 0, "{rte}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_on_docker() {
    if common::backends().contains(&BackendKind::Docker) {
        group_on(BackendKind::Docker).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_on_bwrap() {
    if common::backends().contains(&BackendKind::Bwrap) {
        group_on(BackendKind::Bwrap).await;
    }
}

/// The package's own checker decides: an output validator accepts any right answer, an
/// interactor talks with the program; an easy problem is named by its folder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn package_checkers_and_easy_problems() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, problems).await;
    let listed = server.get("/v1/problems").await.body;
    let checker_of = |name: &str| {
        listed
            .as_array()
            .and_then(|all| all.iter().find(|p| p["name"] == name))
            .map(|p| p["checker"].clone())
    };
    assert_eq!(
        checker_of("divisiblesubset"),
        Some(json!("output_validator"))
    );
    assert_eq!(checker_of("guessnumber"), Some(json!("interactor")));
    assert_eq!(checker_of("absdiff"), Some(json!("default")));
    for (problem, language, good, bad, bad_verdict) in [
        (
            "divisiblesubset",
            "cpp",
            "submissions/accepted/prefix.cpp",
            "submissions/wrong_answer/off_by_one.cpp",
            "WA",
        ),
        (
            "guessnumber",
            "cpp",
            "submissions/accepted/binary.cpp",
            "submissions/wrong_answer/off_by_one.cpp",
            "WA",
        ),
    ] {
        let answer = server
            .evaluate(&json!({"problem": problem, "programs": [
                program(language, problem, good),
                program(language, problem, bad),
            ]}))
            .await;
        assert_eq!(answer["results"][0]["verdict"], "AC", "{problem}: {answer}");
        assert_eq!(
            answer["results"][1]["verdict"], bad_verdict,
            "{problem}: {answer}"
        );
    }
    let easy = |path: &str| {
        let file = common::root().join("problems/easy/absdiff").join(path);
        std::fs::read_to_string(file).expect("read")
    };
    let answer = server
        .evaluate(&json!({"problem": "absdiff", "programs": [
            {"language": "python3", "source": easy("submissions/accepted/absdiff.py")},
            {"language": "python", "source": easy("submissions/wrong_answer/signed.py")},
        ]}))
        .await;
    assert_eq!(answer["results"][0]["verdict"], "AC", "{answer}");
    assert_eq!(answer["results"][1]["verdict"], "WA", "{answer}");
    let unknown = server
        .post(
            "/v1/evaluate",
            &json!({"problem": "nope", "programs": [{"language": "cpp", "source": ""}]}),
        )
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    assert!(unknown.text.contains("absdiff"), "{}", unknown.text);
}

/// Inline tests: the float tolerance, subtasks, stopping at the first failure, a
/// compile error, and a second request that finds the build in the cache.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_tests_scores_and_the_compile_cache() {
    let Some(backend) = common::one_backend() else {
        return;
    };
    let server = common::start(backend, |_| {}).await;
    let halve = "#include <cstdio>\nint main(){ double x; scanf(\"%lf\", &x); printf(\"%.9f\\n\", x / 2); }\n";
    let tests = json!([
        {"input": "1\n", "output": "0.5\n", "group": "a"},
        {"input": "3\n", "output": "1.5000001\n", "group": "a"},
        {"input": "4\n", "output": "3\n", "group": "b"},
        {"input": "10\n", "output": "5\n", "group": "c"},
    ]);
    let body = json!({
        "tests": tests,
        "checker": {"float_tolerance": 1e-6},
        "limits": {"time_s": 1, "memory_mb": 128},
        "programs": [{"language": "cpp", "source": halve}],
    });
    let misses_before = server
        .metric("judge_sandbox_compile_cache_misses_total")
        .await;
    let first = server.evaluate(&body).await;
    let it = &first["results"][0];
    assert_eq!(it["verdict"], "WA", "{first}");
    let verdicts: Vec<&str> = it["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "WA", "AC"], "{first}");
    assert_eq!(it["scores"]["passed"], 3);
    assert_eq!(it["scores"]["fraction"], 0.75);
    assert_eq!(it["scores"]["all_or_nothing"], 0.0);
    // Groups a and c pass, b fails: two of three subtasks.
    let ioi = it["scores"]["ioi"].as_f64().expect("ioi");
    assert!((ioi - 2.0 / 3.0).abs() < 1e-9, "{ioi}");
    assert_eq!(it["first_failure"]["input"], "4\n");
    assert_eq!(it["first_failure"]["expected"], "3\n");
    assert_eq!(it["first_failure"]["got"], "2.000000000\n");
    assert_eq!(it["compile"]["cached"], false, "{first}");
    assert_eq!(
        server
            .metric("judge_sandbox_compile_cache_misses_total")
            .await,
        misses_before + 1.0
    );

    // The same program again: no compile.
    let hits_before = server
        .metric("judge_sandbox_compile_cache_hits_total")
        .await;
    let mut again = body.clone();
    again["stop_at_first_failure"] = json!(true);
    let second = server.evaluate(&again).await;
    let it = &second["results"][0];
    assert_eq!(it["compile"]["cached"], true, "{second}");
    assert_eq!(second["compile_cache_hits"], 1, "{second}");
    assert!(
        server
            .metric("judge_sandbox_compile_cache_hits_total")
            .await
            > hits_before
    );
    // Stopped at the third test: the fourth is not run and counts as failed.
    assert_eq!(it["tests"].as_array().map(Vec::len), Some(3), "{second}");
    assert_eq!(it["scores"]["passed"], 2);
    assert_eq!(it["scores"]["total"], 4);

    // A compile error: CE, no tests, the compiler's message, scores of 0.
    let ce = server
        .evaluate(&json!({"tests": [{"input": "", "output": ""}], "programs": [{"language": "c", "source": "int main(void) { return nope; }"}]}))
        .await;
    let it = &ce["results"][0];
    assert_eq!(
        (it["verdict"].clone(), it["status"].clone()),
        (json!("CE"), json!("judged"))
    );
    assert!(
        it["compile"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("nope")),
        "{ce}"
    );
    assert_eq!(it["scores"]["fraction"], 0.0);

    // Unknown fields and languages are refused, naming them.
    let typo = server
        .post(
            "/v1/evaluate",
            &json!({"tests": [], "programs": [], "stop_on_first_fail": true}),
        )
        .await;
    assert_eq!(typo.status, 400, "{}", typo.text);
    assert!(typo.text.contains("stop_on_first_fail"), "{}", typo.text);
    let cobol = server
        .post("/v1/evaluate", &json!({"tests": [{"input": "", "output": ""}], "programs": [{"language": "cobol", "source": ""}]}))
        .await;
    assert_eq!(cobol.status, 400, "{}", cobol.text);
    assert_eq!(
        cobol.body["field"], "programs[0].language",
        "{}",
        cobol.text
    );
}
