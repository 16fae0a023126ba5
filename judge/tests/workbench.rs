//! The workbench end to end on both backends (Docker and bubblewrap), through the library
//! as the agent's loop uses it: a generator with seed arguments, a brute force against a
//! candidate, cases judged through a custom output validator and a float tolerance, a
//! time-out and a crash beside good runs in one call, input validation, and the samples
//! and hidden data of the bundled `sum` package. Under `CI=true` a missing backend fails.

use std::path::{Path, PathBuf};
use std::time::Duration;

use judge::problems::{Problem, Verdict};
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::{Case, Compiled, Program, RunInput, RunLimits, RunStatus, Workbench};

/// The backends present here (under CI both must be).
fn backends() -> Vec<BackendKind> {
    let mut res = Vec::new();
    if ci::require::docker() {
        res.push(BackendKind::Docker);
    }
    if ci::require::bwrap() {
        res.push(BackendKind::Bwrap);
    }
    res
}

fn bench(backend: BackendKind) -> Workbench {
    let config = SandboxConfig::discover().unwrap_or_else(|err| panic!("{err}"));
    Workbench::new(config, backend, None).unwrap_or_else(|err| panic!("{err}"))
}

fn package(name: &str) -> Problem {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../problems/packages")
        .join(name);
    judge::problems::load(&root)
        .unwrap_or_else(|err| panic!("{name}: {err}"))
        .0
}

fn submission(package: &str, path: &str) -> (String, String) {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../problems/packages")
        .join(package)
        .join("submissions")
        .join(path);
    let language = match path.extension().and_then(|e| e.to_str()) {
        Some("py") => "python3",
        Some("cpp") => "cpp",
        other => panic!("no language for {other:?}"),
    };
    let source = std::fs::read_to_string(&path).expect("read submission");
    (language.to_owned(), source)
}

async fn compiled(bench: &Workbench, language: &str, source: &str) -> Program {
    match bench.compile(language, source).await {
        Ok(Compiled::Ok(program)) => program,
        Ok(Compiled::Failed { message }) => panic!("does not compile: {message}"),
        Err(err) => panic!("{}: {}", bench.backend().name(), err.with_causes()),
    }
}

const GENERATOR: &str = r#"import random, sys
seed = int(sys.argv[1])
rng = random.Random(seed)
n = rng.randint(1, 8)
print(n)
print(*[rng.randint(1, 10**9) for _ in range(n)])
print("seed", seed, file=sys.stderr)
"#;

#[tokio::test]
async fn a_generator_runs_with_its_seeds_and_its_inputs_are_validated() {
    let problem = package("divisiblesubset");
    for backend in backends() {
        let bench = bench(backend);
        let generator = compiled(&bench, "python3", GENERATOR).await;
        let seeds = [1, 2, 3, 4, 5, 3];
        let inputs: Vec<RunInput> = seeds
            .iter()
            .map(|s| RunInput::args([s.to_string()]))
            .collect();
        let runs = bench
            .run_inputs(&generator, &inputs, &RunLimits::default())
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(runs.len(), seeds.len());
        for (run, seed) in runs.iter().zip(seeds) {
            assert_eq!(run.status, RunStatus::Ok, "{run:?}");
            assert_eq!(run.stderr_tail, format!("seed {seed}\n"), "{run:?}");
            assert_eq!(run.stdout_bytes as usize, run.stdout.len());
            assert!(!run.stdout_truncated);
        }
        // The same seed gives the same input; the five seeds give more than one input.
        assert_eq!(runs[2].stdout, runs[5].stdout);
        let distinct: std::collections::BTreeSet<&str> =
            runs[..5].iter().map(|r| r.stdout.as_str()).collect();
        assert!(distinct.len() > 1, "{distinct:?}");

        // The package's input validator accepts the generated inputs and rejects n = 0.
        let mut texts: Vec<String> = runs[..5].iter().map(|r| r.stdout.clone()).collect();
        texts.push("0\n\n".to_owned());
        let checks = bench
            .validate_inputs(&problem, &texts)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(checks.len(), 6);
        for check in &checks[..5] {
            assert!(check.valid, "{check:?}");
            assert_eq!(check.validators.len(), 1, "{check:?}");
            assert!(check.message.is_empty());
        }
        assert!(!checks[5].valid, "{:?}", checks[5]);
        assert!(
            checks[5].message.contains("input_validators/validate.py"),
            "{:?}",
            checks[5]
        );
    }
}

#[tokio::test]
async fn a_brute_force_and_a_candidate_disagree_and_the_case_is_judged() {
    let problem = package("sum");
    let (brute_lang, brute_source) = submission("sum", "accepted/sum.py");
    let (cand_lang, cand_source) = submission("sum", "wrong_answer/int_overflow.cpp");
    let inputs = [
        "3\n1 2 3\n",
        "2\n2000000000 1000000000\n",
        "3\n-1000000000 -1000000000 -1000000000\n",
        "1\n-7\n",
    ]
    .map(RunInput::stdin);
    for backend in backends() {
        let bench = bench(backend);
        let brute = compiled(&bench, &brute_lang, &brute_source).await;
        let candidate = compiled(&bench, &cand_lang, &cand_source).await;
        let limits = RunLimits::of(&problem);
        let want = bench
            .run_inputs(&brute, &inputs, &limits)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        let got = bench
            .run_inputs(&candidate, &inputs, &limits)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        let outputs = |runs: &[judge::workbench::RunOutcome]| {
            runs.iter()
                .map(|r| {
                    assert_eq!(r.status, RunStatus::Ok, "{r:?}");
                    r.stdout.trim().to_owned()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(outputs(&want), ["6", "3000000000", "-3000000000", "-7"]);
        let got_out = outputs(&got);
        let disagree: Vec<usize> = (0..inputs.len())
            .filter(|i| got_out[*i] != outputs(&want)[*i])
            .collect();
        assert_eq!(disagree, [1, 2], "{got_out:?}");

        // The brute force's outputs as answers, judged by the problem's validator.
        let cases: Vec<Case> = inputs
            .iter()
            .zip(&want)
            .map(|(input, brute)| Case {
                input: input.stdin.clone(),
                answer: brute.stdout.clone(),
            })
            .collect();
        let results = bench
            .judge_cases(&problem, &candidate, &cases)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        let verdicts: Vec<Verdict> = results.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::AC, Verdict::WA, Verdict::WA, Verdict::AC],
            "{results:?}"
        );
        assert_eq!(results[1].output.trim(), got_out[1]);
        assert!(!results[1].feedback.is_empty(), "{results:?}");
    }
}

#[tokio::test]
async fn judged_cases_go_through_the_problems_own_validator() {
    let subset = package("divisiblesubset");
    let closest = package("closestapproach");
    let input = "5\n3 9 4 8 1\n";
    // The answer file holds friends 3 and 5; friends 2 and 5 are right too; friend 1
    // alone (3 coins) is not.
    let case = |answer: &str| Case {
        input: input.to_owned(),
        answer: answer.to_owned(),
    };
    for backend in backends() {
        let bench = bench(backend);
        let other = compiled(&bench, "python3", "print(2)\nprint(2, 5)\n").await;
        let wrong = compiled(&bench, "python3", "print(1)\nprint(1)\n").await;
        let cases = [case("2\n5 3\n"), case("2\n5 3\n")];
        let right = bench
            .judge_cases(&subset, &other, &cases)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(right.len(), 2);
        assert!(
            right.iter().all(|r| r.verdict == Verdict::AC),
            "a different correct group: {right:?}"
        );
        let rejected = bench
            .judge_cases(&subset, &wrong, &cases[..1])
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(rejected[0].verdict, Verdict::WA, "{rejected:?}");
        assert!(!rejected[0].feedback.is_empty(), "{rejected:?}");

        // Float tolerance 1e-6 (closestapproach's validator flags).
        let near = compiled(&bench, "python3", "print('5.0000004')\n").await;
        let far = compiled(&bench, "python3", "print('5.01')\n").await;
        let cases = [Case {
            input: "1\n0 0 0 0 3 4 0 0 5\n".to_owned(),
            answer: "5.000000000\n".to_owned(),
        }];
        let verdict = |results: Vec<judge::workbench::CaseResult>| results[0].verdict;
        assert_eq!(
            verdict(
                bench
                    .judge_cases(&closest, &near, &cases)
                    .await
                    .expect("judged")
            ),
            Verdict::AC
        );
        assert_eq!(
            verdict(
                bench
                    .judge_cases(&closest, &far, &cases)
                    .await
                    .expect("judged")
            ),
            Verdict::WA
        );
    }
}

#[tokio::test]
async fn judged_cases_talk_to_the_problems_interactor() {
    let problem = package("guessnumber");
    let (lang, binary) = submission("guessnumber", "accepted/binary.py");
    let (_, linear) = submission("guessnumber", "wrong_answer/linear.py");
    // `n secret`: the linear search needs more than 30 questions for 100 at 1000.
    let cases = ["10 6\n", "1000 1000\n"].map(|input| Case {
        input: input.to_owned(),
        answer: String::new(),
    });
    for backend in backends() {
        let bench = bench(backend);
        let verdicts = |results: Vec<judge::workbench::CaseResult>| {
            results.iter().map(|r| r.verdict).collect::<Vec<_>>()
        };
        let good = compiled(&bench, &lang, &binary).await;
        let slow = compiled(&bench, &lang, &linear).await;
        let judged = bench
            .judge_cases(&problem, &good, &cases)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(verdicts(judged), [Verdict::AC, Verdict::AC]);
        let judged = bench
            .judge_cases(&problem, &slow, &cases)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(verdicts(judged), [Verdict::AC, Verdict::WA]);
    }
}

const FRAGILE: &str = r#"import sys
x = int(sys.stdin.read())
if x == 1:
    while True:
        pass
if x == 2:
    print("dying", file=sys.stderr)
    sys.exit(3)
print(x * 2)
"#;

#[tokio::test]
async fn a_time_out_and_a_crash_leave_the_other_inputs_alone() {
    let problem = package("sum");
    for backend in backends() {
        let bench = bench(backend);
        let program = compiled(&bench, "python3", FRAGILE).await;
        let inputs = ["0", "1", "2", "21"].map(RunInput::stdin);
        let limits = RunLimits {
            time: Duration::from_millis(500),
            ..RunLimits::default()
        };
        let runs = bench
            .run_inputs(&program, &inputs, &limits)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        let statuses: Vec<RunStatus> = runs.iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [
                RunStatus::Ok,
                RunStatus::TimeLimit,
                RunStatus::RuntimeError,
                RunStatus::Ok
            ],
            "{runs:?}"
        );
        assert_eq!(runs[0].stdout, "0\n");
        assert_eq!(runs[3].stdout, "42\n");
        assert_eq!(runs[2].exit_code, Some(3));
        assert_eq!(runs[2].stderr_tail, "dying\n");
        assert!(runs[1].cpu_ms >= 500.0 || runs[1].message.contains("wall"));
        assert!(runs.iter().all(|r| r.peak_kib > 0));

        // The same through judge_cases: one TLE, one RTE, two verdicts of their own.
        let cases: Vec<Case> = ["0", "1", "2", "21"]
            .iter()
            .map(|x| Case {
                input: (*x).to_owned(),
                answer: format!("{}\n", x.parse::<i64>().expect("number") * 2),
            })
            .collect();
        let results = bench
            .judge_cases(&problem, &program, &cases)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        let verdicts: Vec<Verdict> = results.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::AC, Verdict::TLE, Verdict::RTE, Verdict::AC],
            "{results:?}"
        );
    }
}

#[tokio::test]
async fn samples_and_hidden_data_of_the_sum_package() {
    let problem = package("sum");
    let secret_input = std::fs::read_to_string(&problem.secret.cases[4].input).expect("read");
    assert!(secret_input.len() > 20, "a distinctive secret input");
    let (ok_lang, ok_source) = submission("sum", "accepted/sum.cpp");
    let (bad_lang, bad_source) = submission("sum", "wrong_answer/first_only.py");
    for backend in backends() {
        let bench = bench(backend);
        let accepted = compiled(&bench, &ok_lang, &ok_source).await;
        let wrong = compiled(&bench, &bad_lang, &bad_source).await;

        let samples = bench
            .judge_samples(&problem, &accepted)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(samples.verdict, Verdict::AC, "{samples:?}");
        assert_eq!((samples.passed, samples.total), (2, 2));
        assert_eq!(samples.tests[0].input, "3\n1 2 3\n");
        assert_eq!(samples.tests[0].answer, "6\n");
        assert_eq!(samples.tests[0].output, "6\n");
        let samples = bench
            .judge_samples(&problem, &wrong)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(samples.verdict, Verdict::WA, "{samples:?}");
        assert_eq!(samples.tests.len(), 2, "every sample runs");
        assert_eq!(samples.tests[0].output, "1\n");

        let hidden = bench
            .judge_hidden(&problem, &accepted)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(hidden.verdict, Verdict::AC, "{hidden:?}");
        assert_eq!(hidden.passed, hidden.total);
        assert_eq!(hidden.tests.len(), problem.test_cases().len());
        let samples: Vec<bool> = hidden.tests.iter().map(|t| t.sample).collect();
        assert_eq!(samples, [true, true, false, false, false, false, false]);
        let hidden = bench
            .judge_hidden(&problem, &wrong)
            .await
            .unwrap_or_else(|err| panic!("{}: {}", backend.name(), err.with_causes()));
        assert_eq!(hidden.verdict, Verdict::WA, "{hidden:?}");
        assert_eq!(hidden.tests.len(), problem.test_cases().len(), "run all");
        assert!(hidden.passed < hidden.total);
        // Nothing of the hidden data is in the report.
        let json = serde_json::to_string(&hidden).expect("serializes");
        assert!(!json.contains(secret_input.trim()), "{json}");
        assert!(!json.contains("expected"), "no validator message: {json}");
        assert!(!json.contains("max-negative"), "no test name: {json}");
    }
}

#[tokio::test]
async fn a_compile_error_is_data_and_an_unknown_language_an_error() {
    for backend in backends() {
        let bench = bench(backend);
        match bench.compile("cpp", "int main( {\n").await {
            Ok(Compiled::Failed { message }) => {
                assert!(message.contains("error"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        let err = bench
            .compile("cobol", "DISPLAY 'HI'.")
            .await
            .expect_err("no such language");
        assert!(matches!(err, judge::Error::UnknownLanguage { .. }), "{err}");
        let program = compiled(&bench, "python3", "print(1)\n").await;
        let err = bench
            .run_inputs(&program, &[RunInput::args(["a\nb"])], &RunLimits::default())
            .await
            .expect_err("a newline in an argument");
        assert!(err.to_string().contains("newline"), "{err}");
    }
}
