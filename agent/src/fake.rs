//! Test doubles for the loop, public so that other crates' tests (the trainer's, the
//! contest player's) and the benchmarks use the same ones: a [`ScriptedModel`] that
//! answers from a script (and records what it was asked), and a [`FakeRunner`] that
//! "runs" programs through a Rust function instead of a sandbox (no Docker: for unit
//! tests of the loop's logic only; the end-to-end tests use the real sandbox).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use futures_util::future::BoxFuture;
use problems::Verdict;

use crate::model::{
    ChatModel, ChatReply, ChatRequest, Completion, FinishReason, ModelError, Token, Usage,
};
use crate::runner::{
    Case, CaseOutcome, CompileOutcome, Judgement, Limits, Program, RunError, RunInput, RunOutcome,
    Runner, Submitter,
};
use crate::task::Task;

/// A model that answers from a script, in order; when the script is spent it answers
/// `"I have nothing more to add."`. Every reply carries token ids and logprobs (one
/// token per whitespace-separated word) and policy version 7, as a local policy would.
#[derive(Debug, Default)]
pub struct ScriptedModel {
    script: Mutex<VecDeque<Result<String, String>>>,
    /// Every request received, in order.
    pub requests: Mutex<Vec<ChatRequest>>,
}

impl ScriptedModel {
    /// A model with these replies (`Err` is an unreachable server).
    pub fn new(replies: impl IntoIterator<Item = Result<String, String>>) -> ScriptedModel {
        ScriptedModel {
            script: Mutex::new(replies.into_iter().collect()),
            requests: Mutex::default(),
        }
    }

    /// A model with these replies, all successful.
    pub fn replies<S: Into<String>>(replies: impl IntoIterator<Item = S>) -> ScriptedModel {
        ScriptedModel::new(replies.into_iter().map(|r| Ok(r.into())))
    }

    /// How many requests it received.
    pub fn asked(&self) -> usize {
        self.requests.lock().map(|r| r.len()).unwrap_or(0)
    }
}

impl ChatModel for ScriptedModel {
    fn name(&self) -> &str {
        "scripted"
    }

    fn endpoint(&self) -> String {
        "local".to_owned()
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatReply, ModelError>> {
        Box::pin(async move {
            if let Ok(mut r) = self.requests.lock() {
                r.push(request.clone());
            }
            let next = self
                .script
                .lock()
                .ok()
                .and_then(|mut s| s.pop_front())
                .unwrap_or_else(|| Ok("I have nothing more to add.".to_owned()));
            let text = next.map_err(|reason| ModelError::Unreachable {
                endpoint: "local".into(),
                attempts: 3,
                reason,
            })?;
            let tokens: Vec<Token> = text
                .split_whitespace()
                .enumerate()
                .map(|(i, w)| Token {
                    id: Some(i as u32 + 100),
                    text: w.to_owned(),
                    logprob: -0.5,
                })
                .collect();
            let prompt: usize = request.messages.iter().map(|m| m.content.len() / 4).sum();
            Ok(ChatReply {
                usage: Usage {
                    prompt_tokens: prompt as u64,
                    completion_tokens: tokens.len() as u64,
                    counted_locally: false,
                },
                completions: vec![Completion {
                    text,
                    finish_reason: FinishReason::Stop,
                    tokens: Some(tokens),
                }],
                model: "scripted".into(),
                prompt_token_ids: Some(vec![1, 2, 3]),
                policy_version: Some(7),
                latency: Duration::from_millis(1),
                retries: 0,
            })
        })
    }
}

/// What a fake program does with one run: `(stdout, status)`.
pub type Behaviour = dyn Fn(&Program, &RunInput) -> (String, Verdict) + Send + Sync;

/// Whether a generated input is valid.
pub type Validity = dyn Fn(&str) -> bool + Send + Sync;

/// A runner that runs programs through a function. A program whose source contains
/// `DOES NOT COMPILE` does not compile. Judging compares trimmed outputs token by token
/// (a stand-in for the default validator).
pub struct FakeRunner {
    behaviour: Box<Behaviour>,
    /// Input validity: `None` for "no input validator".
    pub validator: Option<Box<Validity>>,
    /// Fail every call with this (a broken sandbox).
    pub broken: Option<String>,
}

impl FakeRunner {
    /// A runner with this behaviour.
    pub fn new(
        behaviour: impl Fn(&Program, &RunInput) -> (String, Verdict) + Send + Sync + 'static,
    ) -> FakeRunner {
        FakeRunner {
            behaviour: Box::new(behaviour),
            validator: None,
            broken: None,
        }
    }

    fn check(&self) -> Result<(), RunError> {
        match &self.broken {
            Some(why) => Err(RunError(why.clone())),
            None => Ok(()),
        }
    }

    fn compiles(program: &Program) -> bool {
        !program.source.contains("DOES NOT COMPILE")
    }

    /// Run one input (for the submitter too).
    pub fn run_one(&self, program: &Program, input: &RunInput) -> RunOutcome {
        let (stdout, status) = (self.behaviour)(program, input);
        RunOutcome {
            stdout,
            exit_code: Some(if status == Verdict::AC { 0 } else { 1 }),
            status,
            cpu_ms: 1.0,
            peak_kib: 1024,
        }
    }

    /// Judge one case.
    pub fn judge_one(&self, program: &Program, case: &Case) -> CaseOutcome {
        let (verdict, output) = if !FakeRunner::compiles(program) {
            (Verdict::CE, String::new())
        } else {
            let run = self.run_one(
                program,
                &RunInput {
                    stdin: case.input.clone(),
                    args: Vec::new(),
                },
            );
            let verdict = if run.status != Verdict::AC {
                run.status
            } else if run
                .stdout
                .split_whitespace()
                .eq(case.answer.split_whitespace())
            {
                Verdict::AC
            } else {
                Verdict::WA
            };
            (verdict, run.stdout)
        };
        CaseOutcome {
            name: case.name.clone(),
            verdict,
            output,
            message: String::new(),
            cpu_ms: 1.0,
            peak_kib: 1024,
        }
    }
}

impl Runner for FakeRunner {
    fn compile<'a>(
        &'a self,
        _task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<CompileOutcome, RunError>> {
        Box::pin(async move {
            self.check()?;
            let ok = FakeRunner::compiles(program);
            Ok(CompileOutcome {
                ok,
                log: if ok {
                    String::new()
                } else {
                    "main.cpp:1: error: expected ';'".into()
                },
            })
        })
    }

    fn run<'a>(
        &'a self,
        _task: &'a Task,
        program: &'a Program,
        inputs: &'a [RunInput],
        _limits: Limits,
    ) -> BoxFuture<'a, Result<Vec<RunOutcome>, RunError>> {
        Box::pin(async move {
            self.check()?;
            Ok(inputs.iter().map(|i| self.run_one(program, i)).collect())
        })
    }

    fn judge<'a>(
        &'a self,
        _task: &'a Task,
        program: &'a Program,
        cases: &'a [Case],
    ) -> BoxFuture<'a, Result<Vec<CaseOutcome>, RunError>> {
        Box::pin(async move {
            self.check()?;
            Ok(cases.iter().map(|c| self.judge_one(program, c)).collect())
        })
    }

    fn validate_inputs<'a>(
        &'a self,
        _task: &'a Task,
        inputs: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<bool>>, RunError>> {
        Box::pin(async move {
            self.check()?;
            Ok(self
                .validator
                .as_ref()
                .map(|v| inputs.iter().map(|i| v(i)).collect()))
        })
    }
}

/// A submitter that judges on hidden cases through a [`FakeRunner`].
pub struct FakeJudge<'r> {
    /// The runner that "runs" the program.
    pub runner: &'r FakeRunner,
    /// The hidden cases.
    pub hidden: Vec<Case>,
}

impl Submitter for FakeJudge<'_> {
    fn submit<'a>(
        &'a self,
        _task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<Judgement, RunError>> {
        Box::pin(async move {
            self.runner.check()?;
            let results: Vec<CaseOutcome> = self
                .hidden
                .iter()
                .map(|c| self.runner.judge_one(program, c))
                .collect();
            let passed = results.iter().filter(|r| r.verdict == Verdict::AC).count();
            let verdict = results
                .iter()
                .map(|r| r.verdict)
                .find(|v| *v != Verdict::AC)
                .unwrap_or(Verdict::AC);
            Ok(Judgement {
                verdict,
                passed: Some(passed),
                total: Some(results.len()),
                message: String::new(),
                submission_id: None,
            })
        })
    }
}
