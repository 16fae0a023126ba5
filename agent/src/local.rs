//! Running code offline: [`WorkbenchRunner`] (a [`Runner`] over `judge::workbench`) and
//! [`LocalJudge`] (a [`Submitter`] that judges against the package's hidden tests and
//! returns only the verdict and counts; hidden test data never reaches the loop).
//!
//! Both need the task's package (`Task::package`); a task without one (a live contest's)
//! is an error here: the contest client brings its own runner and submitter.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use judge::lang::PYTHONS;
use judge::workbench::{self, Compiled, RunLimits, RunStatus, Workbench};
use problems::{Problem, Verdict};

use crate::runner::{
    Case, CaseOutcome, CompileOutcome, Judgement, Limits, Program, RunError, RunInput, RunOutcome,
    Runner, Submitter,
};
use crate::task::Task;

/// A runner over the judge's workbench; compiled programs are kept by source.
#[derive(Debug, Clone)]
pub struct WorkbenchRunner {
    bench: Arc<Workbench>,
    built: Arc<Mutex<HashMap<Program, Result<workbench::Program, String>>>>,
    package_python: bool,
}

impl WorkbenchRunner {
    /// A runner over `bench`.
    pub fn new(bench: Arc<Workbench>) -> WorkbenchRunner {
        WorkbenchRunner {
            bench,
            built: Arc::default(),
            package_python: false,
        }
    }

    /// This runner with a `python3` program run as its task's package's one Python
    /// ([`judge::lang::python_for`]: PyPy for a legacy package, CPython otherwise), as the
    /// contest server runs a team's Python, so that it runs under the interpreter its
    /// derived time limit was measured with. Without it, `python3` is CPython.
    pub fn with_package_python(mut self) -> WorkbenchRunner {
        self.package_python = true;
        self
    }

    /// `program` with the language it runs as on `task` (see [`Self::with_package_python`]).
    fn resolved(&self, task: &Task, program: &Program) -> Result<Program, RunError> {
        match &task.package {
            Some(problem) if self.package_python && program.language == PYTHONS[0] => {
                let python = judge::lang::python_for(&problem.root, None)
                    .map_err(|e| RunError(e.to_string()))?;
                Ok(Program {
                    language: python.to_owned(),
                    source: program.source.clone(),
                })
            }
            _ => Ok(program.clone()),
        }
    }

    /// The workbench's program for `program` as it runs on `task`, compiling it once.
    async fn build(
        &self,
        task: &Task,
        program: &Program,
    ) -> Result<Result<workbench::Program, String>, RunError> {
        let program = &self.resolved(task, program)?;
        if let Some(found) = self
            .built
            .lock()
            .map_err(|_| RunError("the build table is poisoned".into()))?
            .get(program)
        {
            return Ok(found.clone());
        }
        let compiled = self
            .bench
            .compile(&program.language, &program.source)
            .await
            .map_err(|e| RunError(format!("compiling {}: {e}", program.language)))?;
        let built = match compiled {
            Compiled::Ok(p) => Ok(p),
            Compiled::Failed { message } => Err(message),
        };
        self.built
            .lock()
            .map_err(|_| RunError("the build table is poisoned".into()))?
            .insert(program.clone(), built.clone());
        Ok(built)
    }

    async fn built_ok(
        &self,
        task: &Task,
        program: &Program,
    ) -> Result<workbench::Program, RunError> {
        self.build(task, program).await?.map_err(|log| {
            RunError(format!(
                "the {} program does not compile: {}",
                program.language,
                log.lines().next().unwrap_or("")
            ))
        })
    }
}

fn package(task: &Task) -> Result<&Problem, RunError> {
    task.package.as_ref().ok_or_else(|| {
        RunError(format!(
            "task {} has no package: the local runner and judge need one",
            task.id
        ))
    })
}

fn verdict_of(status: RunStatus) -> Verdict {
    match status {
        RunStatus::Ok => Verdict::AC,
        RunStatus::TimeLimit => Verdict::TLE,
        RunStatus::MemoryLimit => Verdict::MLE,
        RunStatus::RuntimeError => Verdict::RTE,
        RunStatus::OutputLimit => Verdict::OLE,
    }
}

/// The limits of the agent's own tools (generators, brute forces).
pub fn tool_limits() -> RunLimits {
    RunLimits {
        time: Duration::from_secs(5),
        ..RunLimits::default()
    }
}

impl Runner for WorkbenchRunner {
    fn compile<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<CompileOutcome, RunError>> {
        Box::pin(async move {
            Ok(match self.build(task, program).await? {
                Ok(p) => CompileOutcome {
                    ok: true,
                    log: p.compile.log,
                },
                Err(log) => CompileOutcome { ok: false, log },
            })
        })
    }

    fn run<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        inputs: &'a [RunInput],
        limits: Limits,
    ) -> BoxFuture<'a, Result<Vec<RunOutcome>, RunError>> {
        Box::pin(async move {
            let built = self.built_ok(task, program).await?;
            let limits = match limits {
                Limits::Task => match &task.package {
                    Some(problem) => RunLimits::of(problem),
                    None => RunLimits {
                        time: task.time_limit,
                        memory_bytes: task.memory_bytes,
                        ..RunLimits::default()
                    },
                },
                Limits::Tool => tool_limits(),
            };
            let inputs: Vec<workbench::RunInput> = inputs
                .iter()
                .map(|i| workbench::RunInput {
                    stdin: i.stdin.clone(),
                    args: i.args.clone(),
                })
                .collect();
            let outs = self
                .bench
                .run_inputs(&built, &inputs, &limits)
                .await
                .map_err(|e| RunError(e.to_string()))?;
            Ok(outs
                .into_iter()
                .map(|o| RunOutcome {
                    stdout: o.stdout,
                    exit_code: o.exit_code,
                    status: verdict_of(o.status),
                    cpu_ms: o.cpu_ms,
                    peak_kib: o.peak_kib,
                })
                .collect())
        })
    }

    fn judge<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        cases: &'a [Case],
    ) -> BoxFuture<'a, Result<Vec<CaseOutcome>, RunError>> {
        Box::pin(async move {
            let problem = package(task)?;
            let built = match self.build(task, program).await? {
                Ok(p) => p,
                Err(log) => {
                    return Ok(cases
                        .iter()
                        .map(|c| CaseOutcome {
                            name: c.name.clone(),
                            verdict: Verdict::CE,
                            output: String::new(),
                            message: log.clone(),
                            cpu_ms: 0.0,
                            peak_kib: 0,
                        })
                        .collect());
                }
            };
            let made: Vec<workbench::Case> = cases
                .iter()
                .map(|c| workbench::Case {
                    input: c.input.clone(),
                    answer: c.answer.clone(),
                })
                .collect();
            let results = self
                .bench
                .judge_cases(problem, &built, &made)
                .await
                .map_err(|e| RunError(e.to_string()))?;
            Ok(results
                .into_iter()
                .zip(cases)
                .map(|(r, c)| CaseOutcome {
                    name: c.name.clone(),
                    verdict: r.verdict,
                    output: r.output,
                    message: r.feedback,
                    cpu_ms: r.cpu_ms,
                    peak_kib: r.peak_kib,
                })
                .collect())
        })
    }

    fn validate_inputs<'a>(
        &'a self,
        task: &'a Task,
        inputs: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<bool>>, RunError>> {
        Box::pin(async move {
            let problem = package(task)?;
            if problem.input_validators.is_empty() {
                return Ok(None);
            }
            let results = self
                .bench
                .validate_inputs(problem, inputs)
                .await
                .map_err(|e| RunError(e.to_string()))?;
            Ok(Some(results.into_iter().map(|r| r.valid).collect()))
        })
    }
}

/// Submits to the local judge: the package's samples and hidden tests, every test run.
#[derive(Debug, Clone)]
pub struct LocalJudge {
    runner: WorkbenchRunner,
}

impl LocalJudge {
    /// A judge sharing the runner's workbench and builds.
    pub fn new(runner: WorkbenchRunner) -> LocalJudge {
        LocalJudge { runner }
    }
}

impl Submitter for LocalJudge {
    fn submit<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<Judgement, RunError>> {
        Box::pin(async move {
            let problem = package(task)?;
            let built = match self.runner.build(task, program).await? {
                Ok(p) => p,
                Err(log) => {
                    return Ok(Judgement {
                        verdict: Verdict::CE,
                        passed: Some(0),
                        total: Some(problem.test_cases().len()),
                        message: log,
                        submission_id: None,
                    });
                }
            };
            let report = self
                .runner
                .bench
                .judge_hidden(problem, &built)
                .await
                .map_err(|e| RunError(e.to_string()))?;
            Ok(Judgement {
                verdict: report.verdict,
                passed: Some(report.passed),
                total: Some(report.total),
                message: String::new(),
                submission_id: None,
            })
        })
    }
}
