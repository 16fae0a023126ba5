//! Unit tests of the loop with a scripted model and a fake runner: the stages' records
//! and signals, the revert rule, budgets, a model that cannot be reached, garbage
//! replies, a problem without samples, and reacting to a rejected verdict.

use std::time::Duration;

use problems::Verdict;

use super::*;
use crate::fake::{FakeJudge, FakeRunner, ScriptedModel};
use crate::pipeline::Budget;
use crate::step::Collect;
use crate::task::Sample;

/// The sum problem: first line n, then n numbers; print their sum.
fn task(samples: &[(&str, &str)]) -> Task {
    Task {
        id: "sum".into(),
        name: "Sum".into(),
        statement: "Print the sum of the n numbers.".into(),
        statement_format: "markdown".into(),
        samples: samples
            .iter()
            .enumerate()
            .map(|(i, (input, answer))| Sample {
                name: (i + 1).to_string(),
                input: (*input).into(),
                answer: (*answer).into(),
            })
            .collect(),
        time_limit: Duration::from_secs(1),
        memory_bytes: 256 << 20,
        package: None,
    }
}

const SAMPLES: [(&str, &str); 2] = [("1\n5\n", "5\n"), ("3\n1 2 3\n", "6\n")];

fn numbers(input: &str) -> Vec<i64> {
    input
        .split_whitespace()
        .skip(1)
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Programs are Python sources with a marker saying what they do.
fn runner() -> FakeRunner {
    FakeRunner::new(|program, input| {
        let s = &program.source;
        let xs = numbers(&input.stdin);
        let sum: i64 = xs.iter().sum();
        if s.contains("GEN") {
            let seed: u64 = input.args[0].parse().unwrap_or(0);
            if input.args.get(1).map(String::as_str) == Some("max") {
                let n = 5000;
                let line = vec!["1000000000"; n].join(" ");
                return (format!("{n}\n{line}\n"), Verdict::AC);
            }
            let n = seed % 4 + 1;
            let line: Vec<String> = (0..n).map(|i| ((seed + i) % 7).to_string()).collect();
            return (format!("{n}\n{}\n", line.join(" ")), Verdict::AC);
        }
        if s.contains("SLOW") && input.stdin.len() > 1000 {
            return (String::new(), Verdict::TLE);
        }
        if s.contains("RIGHT") || s.contains("SLOW") {
            (format!("{sum}\n"), Verdict::AC)
        } else if s.contains("FIRST") {
            (
                format!("{}\n", xs.first().copied().unwrap_or(0)),
                Verdict::AC,
            )
        } else if s.contains("LAST") {
            (
                format!("{}\n", xs.last().copied().unwrap_or(0)),
                Verdict::AC,
            )
        } else if s.contains("SIX") {
            ("6\n".into(), Verdict::AC)
        } else if s.contains("CRASH") {
            (String::new(), Verdict::RTE)
        } else {
            ("0\n".into(), Verdict::AC)
        }
    })
}

fn code(marker: &str) -> String {
    format!("Here you go:\n```python\nimport sys\n# {marker}\nprint(0)\n```\n")
}

fn hidden() -> Vec<Case> {
    [
        ("2\n4 4\n", "8\n"),
        ("1\n-3\n", "-3\n"),
        ("4\n1 1 1 1\n", "4\n"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (input, answer))| Case {
        name: format!("hidden {i}"),
        input: (*input).into(),
        answer: (*answer).into(),
    })
    .collect()
}

struct Run {
    outcome: Outcome,
    steps: Vec<Step>,
}

async fn run(model: &ScriptedModel, runner: &FakeRunner, task: &Task, pipeline: &Pipeline) -> Run {
    let judge = FakeJudge {
        runner,
        hidden: hidden(),
    };
    let collect = Collect::default();
    let outcome = solve(Episode {
        model,
        runner,
        submitter: &judge,
        task,
        pipeline,
        run_ledger: None,
        seed: 1,
        observer: &collect,
        run: "run-1".into(),
        attempt: 1,
    })
    .await;
    let steps = collect.steps.lock().expect("steps").clone();
    assert_eq!(
        collect.outcome.lock().expect("outcome").as_ref(),
        Some(&outcome),
        "the observer saw the outcome"
    );
    assert_eq!(outcome.steps as usize, steps.len());
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step.step as usize, i + 1, "steps are numbered in order");
    }
    Run { outcome, steps }
}

fn actions(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|s| format!("{}:{}", s.stage.name(), s.action))
        .collect()
}

#[test]
fn the_revert_rule() {
    let before = [true, false, true];
    assert!(revision_kept(Some(&before), Some(&[true, true, true])));
    assert!(revision_kept(Some(&before), Some(&[true, false, true])));
    assert!(
        !revision_kept(Some(&before), Some(&[false, true, true])),
        "broke test 1"
    );
    assert!(
        !revision_kept(Some(&before), Some(&[true, true])),
        "a missing result is a failure"
    );
    assert!(!revision_kept(Some(&before), None), "no longer compiles");
    assert!(revision_kept(None, None), "nothing to lose");
    assert!(revision_kept(None, Some(&[false, false, false])));
    assert!(revision_kept(Some(&[false, false]), Some(&[false, false])));
}

#[tokio::test]
async fn short_pipeline_solves_with_a_right_program() {
    let model = ScriptedModel::replies([code("RIGHT")]);
    let runner = runner();
    let r = run(&model, &runner, &task(&SAMPLES), &Pipeline::short()).await;
    assert_eq!(
        actions(&r.steps),
        ["code:ask", "check:run", "submit:submit"]
    );
    assert!(r.outcome.solved);
    assert_eq!(r.outcome.end, End::Solved);
    assert_eq!(r.outcome.verdict, Some(Verdict::AC));
    assert_eq!(
        r.outcome.hidden,
        Some(Count {
            passed: 3,
            total: 3
        })
    );
    let code = &r.steps[0];
    assert_eq!(code.signals.code_extracted, Some(true));
    assert_eq!(code.signals.compiled, Some(true));
    let call = code.call.as_ref().expect("a model call");
    let reply = call.reply.as_ref().expect("a reply");
    assert_eq!(reply.policy_version, Some(7));
    assert!(
        reply.completions[0]
            .tokens
            .as_ref()
            .is_some_and(|t| t[0].id == Some(100))
    );
    assert!(call.sampling.logprobs);
    assert_eq!(call.messages[0].role, crate::model::Role::System);
    assert!(
        call.messages[1]
            .content
            .contains("Sample 2 input:\n```\n3\n1 2 3\n```")
    );
    let check = &r.steps[1];
    assert_eq!(
        check.signals.samples,
        Some(Count {
            passed: 2,
            total: 2
        })
    );
    assert_eq!(check.tests.len(), 2);
    assert_eq!(r.steps[2].signals.verdict, Some(Verdict::AC));
    assert_eq!(r.outcome.model_calls, 1);
    assert_eq!(r.outcome.submissions, 1);
    assert!(r.outcome.usage.completion_tokens > 0);
}

/// With `worked_example`, the example problem, the code request and its solved reply
/// come between the system message and the problem; the rest of the loop is unchanged.
#[tokio::test]
async fn the_worked_example_precedes_the_problem() {
    use crate::model::Role;
    let model = ScriptedModel::replies([code("RIGHT")]);
    let runner = runner();
    let pipeline = Pipeline {
        worked_example: true,
        language: Some("python3".into()),
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    assert!(r.outcome.solved);
    let requests = model.requests.lock().expect("requests");
    let messages = &requests[0].messages;
    let roles: Vec<Role> = messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [
            Role::System,
            Role::User,
            Role::User,
            Role::Assistant,
            Role::User,
            Role::User
        ]
    );
    assert!(messages[1].content.starts_with("Problem: negatives"));
    assert!(messages[3].content.starts_with("```python\n"));
    assert!(
        messages[4]
            .content
            .contains("Sample 2 input:\n```\n3\n1 2 3\n```")
    );
    assert_eq!(
        messages[2].content, messages[5].content,
        "the same code request"
    );
    // What supervised training renders a reference solution against is this request.
    let rendered = super::first_code_request(&task(&SAMPLES), &pipeline).expect("code first");
    assert_eq!(&rendered, messages);
}

/// A pipeline that asks for a restatement before the code has no first code request
/// of its own: the request follows the model's reply.
#[test]
fn the_first_code_request_needs_code_to_be_the_first_call() {
    let full = Pipeline::named("full").expect("full pipeline");
    let err = super::first_code_request(&task(&SAMPLES), &full).expect_err("restate first");
    assert!(err.to_string().contains("Restate"), "{err}");
    assert!(super::first_code_request(&task(&SAMPLES), &Pipeline::short()).is_ok());
}

#[tokio::test]
async fn garbage_replies_are_recorded_outcomes() {
    let model = ScriptedModel::replies(["I like turtles.", "```\n3\n1 2 3\n```", "no."]);
    let runner = runner();
    let r = run(&model, &runner, &task(&SAMPLES), &Pipeline::short()).await;
    assert_eq!(
        actions(&r.steps),
        ["code:ask", "code:ask", "check:debug", "submit:skip"]
    );
    for step in &r.steps[..3] {
        assert_eq!(step.signals.code_extracted, Some(false));
        assert!(matches!(step.extraction, Some(Extraction::NoCode { .. })));
    }
    assert_eq!(r.steps[3].note, "nothing to submit: no program");
    assert!(!r.outcome.solved);
    assert_eq!(r.outcome.end, End::PipelineDone);
    assert_eq!(r.outcome.program, None);
}

#[tokio::test]
async fn debugging_keeps_passing_tests_passing_or_reverts() {
    // FIRST passes sample 1 only; SIX passes sample 2 and breaks sample 1: reverted;
    // RIGHT passes both: kept, submitted, accepted.
    let model = ScriptedModel::replies([code("FIRST"), code("SIX"), code("RIGHT")]);
    let runner = runner();
    let pipeline = Pipeline {
        debug_rounds: 3,
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    assert_eq!(
        actions(&r.steps),
        [
            "code:ask",
            "check:run",
            "check:debug",
            "check:run",
            "check:debug",
            "check:run",
            "submit:submit"
        ]
    );
    assert_eq!(
        r.steps[1].signals.samples,
        Some(Count {
            passed: 1,
            total: 2
        })
    );
    // The debug prompt shows the smallest failing case: sample 2 with its expected answer.
    let debug = r.steps[2].call.as_ref().expect("call");
    let ask = &debug.messages.last().expect("a message").content;
    assert!(ask.contains("It fails sample 2 (WA)"), "{ask}");
    assert!(ask.contains("Expected output:\n```\n6\n```"), "{ask}");
    assert!(ask.contains("# FIRST"), "{ask}");
    // SIX: reverted.
    assert_eq!(r.steps[3].signals.reverted, Some(true));
    assert_eq!(
        r.steps[3].signals.samples,
        Some(Count {
            passed: 1,
            total: 2
        })
    );
    // The next debug round still starts from FIRST.
    let ask = &r.steps[4]
        .call
        .as_ref()
        .expect("call")
        .messages
        .last()
        .expect("m")
        .content;
    assert!(ask.contains("# FIRST"), "{ask}");
    assert_eq!(r.steps[5].signals.reverted, Some(false));
    assert_eq!(
        r.steps[5].signals.samples,
        Some(Count {
            passed: 2,
            total: 2
        })
    );
    assert!(r.outcome.solved);
    assert!(
        r.outcome
            .program
            .as_ref()
            .is_some_and(|p| p.source.contains("RIGHT"))
    );
}

#[tokio::test]
async fn a_revision_that_no_longer_compiles_is_reverted() {
    let broken = "```python\nimport sys\n# DOES NOT COMPILE\nprint(\n```";
    let model = ScriptedModel::replies([code("FIRST"), broken.to_owned()]);
    let runner = runner();
    let pipeline = Pipeline {
        debug_rounds: 1,
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    // After the WA, back to check: the script is spent, the reply has no code.
    assert_eq!(
        actions(&r.steps),
        [
            "code:ask",
            "check:run",
            "check:debug",
            "check:run",
            "submit:submit",
            "check:debug"
        ]
    );
    assert_eq!(r.steps[5].signals.code_extracted, Some(false));
    assert_eq!(r.steps[3].signals.compiled, Some(false));
    assert_eq!(r.steps[3].signals.reverted, Some(true));
    assert!(r.steps[3].compile_log.is_some());
    // FIRST is what was submitted (it fails a sample; submit_failing is on by default).
    let submitted = r.steps[4].program.as_ref().expect("program");
    assert!(submitted.source.contains("FIRST"));
    assert_eq!(r.steps[4].signals.verdict, Some(Verdict::WA));
    assert_eq!(
        r.steps[4].signals.hidden,
        Some(Count {
            passed: 1,
            total: 3
        })
    );
}

#[tokio::test]
async fn submit_failing_off_keeps_a_failing_program_home() {
    let model = ScriptedModel::replies([code("FIRST")]);
    let runner = runner();
    let pipeline = Pipeline {
        debug_rounds: 0,
        submit_failing: false,
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    assert_eq!(actions(&r.steps), ["code:ask", "check:run", "submit:skip"]);
    assert_eq!(r.outcome.submissions, 0);
}

#[tokio::test]
async fn a_rejection_goes_back_to_check_with_the_verdict() {
    // LAST passes both samples (their last number is the sum) but not the hidden tests.
    let samples = [("1\n5\n", "5\n"), ("3\n0 0 6\n", "6\n")];
    let model = ScriptedModel::replies([code("LAST"), code("RIGHT")]);
    let runner = runner();
    let r = run(&model, &runner, &task(&samples), &Pipeline::short()).await;
    assert_eq!(
        actions(&r.steps),
        [
            "code:ask",
            "check:run",
            "submit:submit",
            "check:debug",
            "check:run",
            "submit:submit"
        ],
        "{:?}",
        r.outcome
    );
    assert_eq!(r.steps[2].signals.verdict, Some(Verdict::WA));
    let ask = &r.steps[3]
        .call
        .as_ref()
        .expect("call")
        .messages
        .last()
        .expect("m")
        .content;
    assert!(
        ask.contains("The judge rejected it on its hidden tests: WA."),
        "{ask}"
    );
    assert!(
        !ask.contains("4 4"),
        "hidden data never enters a prompt: {ask}"
    );
    assert!(r.outcome.solved);
    assert_eq!(r.outcome.submissions, 2);
}

#[tokio::test]
async fn the_submission_budget_stops_resubmitting() {
    let samples = [("1\n5\n", "5\n"), ("3\n0 0 6\n", "6\n")];
    let model = ScriptedModel::replies([code("LAST"), code("RIGHT")]);
    let runner = runner();
    let pipeline = Pipeline {
        budget: Budget {
            submissions: Some(1),
            ..Budget::default()
        },
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&samples), &pipeline).await;
    assert_eq!(
        actions(&r.steps),
        ["code:ask", "check:run", "submit:submit"]
    );
    assert_eq!(
        r.outcome.end,
        End::Budget {
            exhausted: crate::budget::Exhausted {
                resource: crate::budget::Resource::Submissions,
                scope: crate::budget::Scope::Problem
            }
        }
    );
    assert_eq!(model.asked(), 1);
}

#[tokio::test]
async fn the_model_call_budget_ends_the_episode() {
    let model = ScriptedModel::replies([
        "restated".to_owned(),
        "approaches".to_owned(),
        code("RIGHT"),
    ]);
    let runner = runner();
    let pipeline = Pipeline {
        budget: Budget {
            model_calls: Some(2),
            ..Budget::default()
        },
        ..Pipeline::full()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    // The model's budget ends the asking; with no program there is nothing to submit.
    assert_eq!(
        actions(&r.steps),
        ["restate:ask", "approaches:ask", "code:ask", "submit:skip"]
    );
    assert!(r.steps[2].call.is_none());
    assert_eq!(
        r.steps[2].note,
        "no model call: the problem's budget of model calls is spent"
    );
    assert!(matches!(r.outcome.end, End::Budget { .. }));
    assert_eq!(model.asked(), 2);
    // The conversation grew by the restatement and the approaches.
    let second = &model.requests.lock().expect("requests")[1];
    assert_eq!(second.messages.len(), 5);
    assert_eq!(second.messages[3].content, "restated");
}

#[tokio::test]
async fn the_token_budget_caps_max_tokens_and_ends_the_episode() {
    let model = ScriptedModel::replies([code("FIRST"), code("RIGHT")]);
    let runner = runner();
    let pipeline = Pipeline {
        budget: Budget {
            tokens: Some(60),
            ..Budget::default()
        },
        ..Pipeline::short()
    };
    let r = run(&model, &runner, &task(&SAMPLES), &pipeline).await;
    let first = r.steps[0].call.as_ref().expect("call");
    assert_eq!(first.sampling.max_tokens, 60);
    assert!(
        r.steps[0].usage.prompt_tokens > 60,
        "the prompt alone spends it"
    );
    assert_eq!(
        actions(&r.steps),
        ["code:ask", "check:run", "check:debug", "submit:submit"]
    );
    assert!(r.steps[2].call.is_none());
    assert!(
        matches!(r.outcome.end, End::Budget { .. }),
        "{:?}",
        r.outcome.end
    );
}

#[tokio::test]
async fn an_unreachable_model_is_a_recorded_end() {
    let model = ScriptedModel::new([Err("connection refused".to_owned())]);
    let runner = runner();
    let r = run(&model, &runner, &task(&SAMPLES), &Pipeline::short()).await;
    assert_eq!(actions(&r.steps), ["code:ask"]);
    let call = r.steps[0].call.as_ref().expect("call");
    assert!(call.reply.is_none());
    assert!(
        call.error
            .as_deref()
            .is_some_and(|e| e.contains("connection refused"))
    );
    match &r.outcome.end {
        End::ModelFailed { error } => assert!(error.contains("unreachable"), "{error}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_broken_sandbox_is_a_recorded_end() {
    let model = ScriptedModel::replies([code("RIGHT")]);
    let mut runner = runner();
    runner.broken = Some("docker is not running".into());
    let r = run(&model, &runner, &task(&SAMPLES), &Pipeline::short()).await;
    assert_eq!(actions(&r.steps), ["code:ask"]);
    assert_eq!(
        r.outcome.end,
        End::RunnerFailed {
            error: "running code failed: docker is not running".into()
        }
    );
}

#[tokio::test]
async fn a_problem_without_samples_says_so_and_goes_on() {
    let model = ScriptedModel::replies([code("RIGHT")]);
    let runner = runner();
    let r = run(&model, &runner, &task(&[]), &Pipeline::short()).await;
    assert_eq!(
        actions(&r.steps),
        ["code:skip", "code:ask", "check:run", "submit:submit"]
    );
    assert!(r.steps[0].note.contains("no samples"));
    assert_eq!(
        r.steps[2].signals.samples,
        Some(Count {
            passed: 0,
            total: 0
        })
    );
    let ask = &r.steps[1].call.as_ref().expect("call").messages[1].content;
    assert!(ask.contains("This problem has no sample tests."), "{ask}");
    assert!(r.outcome.solved);
}

fn generator_reply() -> String {
    "```python\nimport sys, random\n# GEN\nprint(1)\n```".into()
}

#[tokio::test]
async fn full_pipeline_stress_tests_against_a_trusted_brute_force() {
    // Single-number samples, which FIRST passes; it fails generated inputs with n > 1.
    let samples = [("1\n5\n", "5\n"), ("1\n7\n", "7\n")];
    let model = ScriptedModel::replies([
        "restated".to_owned(),
        "approaches".to_owned(),
        code("FIRST"),
        generator_reply(),
        code("RIGHT brute"),
        code("RIGHT"),
    ]);
    let mut runner = runner();
    // Inputs with a 6 are "invalid" for the validator.
    runner.validator = Some(Box::new(|input: &str| !input.contains('6')));
    let pipeline = Pipeline {
        stress_inputs: 10,
        max_inputs: 1,
        ..Pipeline::full()
    };
    let r = run(&model, &runner, &task(&samples), &pipeline).await;
    assert_eq!(
        actions(&r.steps),
        [
            "restate:ask",
            "approaches:ask",
            "code:ask",
            "tests:generator",
            "tests:brute",
            "tests:generate",
            "check:run",
            "check:debug",
            "check:run",
            "submit:submit"
        ]
    );
    assert_eq!(
        r.steps[4].signals.brute_samples,
        Some(Count {
            passed: 2,
            total: 2
        })
    );
    let generate = &r.steps[5];
    let valid = generate.signals.valid_inputs.expect("valid inputs");
    assert_eq!(valid.total, 11);
    assert!(
        valid.passed < valid.total,
        "the validator rejected some: {valid:?}"
    );
    let check = &r.steps[6];
    let own = check
        .signals
        .own_tests
        .expect("own tests count: the brute force is trusted");
    assert_eq!(check.signals.stress, Some(own));
    assert!(
        own.passed < own.total,
        "FIRST fails some own tests: {own:?}"
    );
    assert_eq!(
        check.signals.max_inputs,
        Some(Count {
            passed: 1,
            total: 1
        })
    );
    // The smallest failing own test went into the debug prompt.
    let ask = &r.steps[7]
        .call
        .as_ref()
        .expect("call")
        .messages
        .last()
        .expect("m")
        .content;
    assert!(ask.contains("It fails own test"), "{ask}");
    let fixed = &r.steps[8];
    assert_eq!(fixed.signals.reverted, Some(false));
    assert_eq!(
        fixed.signals.own_tests,
        Some(Count {
            passed: own.total,
            total: own.total
        })
    );
    assert!(r.outcome.solved);
    // No generated input the validator rejected became an own test.
    let own_inputs = check.tests.iter().filter(
        |t| matches!(t, TestRecord::Case { outcome, .. } if outcome.name.starts_with("own")),
    );
    assert_eq!(own_inputs.count(), own.total);
    assert!(own.total <= valid.passed, "{own:?} {valid:?}");
}

#[tokio::test]
async fn an_untrusted_brute_force_gives_stress_but_no_own_tests() {
    let samples = [("1\n5\n", "5\n"), ("3\n1 2 3\n", "6\n")];
    let model = ScriptedModel::replies([code("RIGHT"), generator_reply(), code("FIRST brute")]);
    let runner = runner();
    let pipeline = Pipeline {
        stages: vec![Stage::Code, Stage::Tests, Stage::Check],
        stress_inputs: 6,
        max_inputs: 0,
        ..Pipeline::full()
    };
    let r = run(&model, &runner, &task(&samples), &pipeline).await;
    assert_eq!(
        actions(&r.steps),
        [
            "code:ask",
            "tests:generator",
            "tests:brute",
            "tests:generate",
            "check:run"
        ]
    );
    assert_eq!(
        r.steps[2].signals.brute_samples,
        Some(Count {
            passed: 1,
            total: 2
        })
    );
    assert!(r.steps[2].note.contains("not trusted"));
    let check = &r.steps[4];
    assert_eq!(check.signals.own_tests, None);
    assert!(check.signals.stress.is_some());
    assert_eq!(
        check.signals.samples,
        Some(Count {
            passed: 2,
            total: 2
        })
    );
}

#[tokio::test]
async fn a_slow_program_fails_the_maximum_size_inputs() {
    let samples = [("1\n5\n", "5\n")];
    let model = ScriptedModel::replies([
        code("SLOW"),
        generator_reply(),
        code("RIGHT brute"),
        code("RIGHT"),
    ]);
    let runner = runner();
    let pipeline = Pipeline {
        stages: vec![Stage::Code, Stage::Tests, Stage::Check],
        stress_inputs: 3,
        max_inputs: 2,
        ..Pipeline::full()
    };
    let r = run(&model, &runner, &task(&samples), &pipeline).await;
    let check = &r.steps[4];
    assert_eq!(
        check.signals.max_inputs,
        Some(Count {
            passed: 0,
            total: 2
        })
    );
    let ask = &r.steps[5]
        .call
        .as_ref()
        .expect("call")
        .messages
        .last()
        .expect("m")
        .content;
    assert!(ask.contains("On a maximum-size input"), "{ask}");
    assert!(ask.contains("ends with TLE"), "{ask}");
    assert_eq!(
        r.steps[6].signals.max_inputs,
        Some(Count {
            passed: 2,
            total: 2
        })
    );
}

#[tokio::test]
async fn steps_reach_a_channel_as_they_are_made() {
    let model = ScriptedModel::replies([code("RIGHT")]);
    let runner = runner();
    let judge = FakeJudge {
        runner: &runner,
        hidden: hidden(),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let task = task(&SAMPLES);
    let pipeline = Pipeline::short();
    let outcome = solve(Episode {
        model: &model,
        runner: &runner,
        submitter: &judge,
        task: &task,
        pipeline: &pipeline,
        run_ledger: None,
        seed: 1,
        observer: &tx,
        run: "r".into(),
        attempt: 1,
    })
    .await;
    let events: Vec<crate::step::Event> = rx.try_iter().collect();
    assert_eq!(events.len(), 4);
    assert!(matches!(&events[3], crate::step::Event::Outcome(o) if **o == outcome));
}
