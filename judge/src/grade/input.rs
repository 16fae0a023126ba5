//! Input validators: each program of a package's `input_validators/` built like an output
//! validator (every file of its folder, the language from its files, or its `build`/`run`
//! scripts) in a sandbox of its own, then run once per test input with the input as its
//! standard input, as problemtools and DOMjudge run them: exit code 42 means valid, any
//! other end (43, another code, a signal, the time limit) invalid. Each run gets the
//! arguments the package gives that validator for that case
//! ([`Problem::input_validator_args`]: 2025-09 `input_validator_args`, legacy
//! `input_validator_flags`); the cases are run in one job per distinct argument list.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use problems::Problem;
use serde::Serialize;

use super::Options;
use super::compile::{BuildEnv, ProgramBuild, Unit, does_not_compile};
use super::plan::VALIDATOR_LIMITS;
use crate::sandbox::{
    Job, MEMORY_HEADROOM, RunIo, Sandbox, SandboxConfig, VALIDATOR_UID, Workspace, sandbox_env,
};
use crate::{Error, Result};

/// The exit code of an input validator that accepts its input.
pub const VALID_INPUT: i32 = 42;

/// Memory of an input validator's sandbox (beside [`MEMORY_HEADROOM`]).
const INPUT_VALIDATOR_MEMORY: u64 = 2 << 30;

/// One input validator's decision on one test input.
#[derive(Debug, Clone, Serialize)]
pub struct InputCheck {
    /// The validator, relative to the package (`input_validators/check (C++: check.cc)`).
    pub validator: String,
    /// The test case (`secret/03-big`).
    pub case: String,
    /// The arguments it ran with.
    pub args: Vec<String>,
    /// Exit code 42.
    pub valid: bool,
    /// Why not, with the start of what it wrote (empty when valid).
    pub message: String,
}

/// What [`validate_inputs`] found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct InputValidation {
    /// Every validator on every test input, validators in name order, cases in judging
    /// order.
    pub checks: Vec<InputCheck>,
    /// Entries of `input_validators/` that are not programs the judge builds (a
    /// checktestdata `.ctd` or viva file, a README), each with why.
    pub skipped: Vec<String>,
}

impl InputValidation {
    /// The checks that found an input invalid.
    pub fn invalid(&self) -> impl Iterator<Item = &InputCheck> {
        self.checks.iter().filter(|c| !c.valid)
    }
}

/// Runs every input validator of `problem` on every test input (samples and secret).
///
/// An invalid input is data (`valid: false`); `Err` is the judge's failure, a validator
/// that does not compile included (naming it, with the compiler's output).
pub async fn validate_inputs(
    problem: &Problem,
    config: &SandboxConfig,
    options: &Options,
) -> Result<InputValidation> {
    let mut res = InputValidation::default();
    for (path, program) in problem.input_validator_programs() {
        let program = match program {
            Ok(it) => it,
            Err(why) => {
                res.skipped
                    .push(format!("{}: {why}", relative(&problem.root, &path)));
                continue;
            }
        };
        let build = ProgramBuild::read(&program, &problem.root, 256)?;
        let ws = Workspace::new()?;
        let mut sandbox = Sandbox::open(options.backend, config, &ws).await?;
        let checks = run_validator(problem, config, options, &path, &build, ws, &mut sandbox).await;
        sandbox.close().await;
        res.checks.extend(checks?);
    }
    Ok(res)
}

/// Compiles one input validator (the entry `path` of `input_validators/`) and runs it on
/// every test input, one job per distinct argument list; the checks come in judging order.
async fn run_validator(
    problem: &Problem,
    config: &SandboxConfig,
    options: &Options,
    path: &Path,
    build: &ProgramBuild,
    mut ws: Workspace,
    sandbox: &mut Sandbox,
) -> Result<Vec<InputCheck>> {
    let backend = options.backend.name();
    let mut env = BuildEnv {
        config,
        cache_dir: options.cache_dir.as_deref(),
        backend,
        limits: &problem.limits,
        ws: &mut ws,
        sandbox,
    };
    let (info, files) = env.compile(&build.recipe, Unit::Validator).await?;
    let Some(files) = files else {
        return Err(does_not_compile("input validator", &build.name, &info));
    };
    let cases = problem.test_cases();
    // The cases of each argument list, in judging order.
    let mut batches: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    for (idx, case) in cases.iter().enumerate() {
        let args = problem.input_validator_args(case, path);
        match batches.iter_mut().find(|(a, _)| *a == args) {
            Some((_, idxs)) => idxs.push(idx),
            None => batches.push((args, vec![idx])),
        }
    }
    let mut checks: Vec<Option<InputCheck>> = vec![None; cases.len()];
    for (args, idxs) in &batches {
        let found = run_batch(
            problem, build, &files, &mut ws, sandbox, args, idxs, backend,
        )
        .await?;
        for (idx, check) in idxs.iter().zip(found) {
            checks[*idx] = Some(check);
        }
    }
    let checks: Vec<InputCheck> = checks.into_iter().flatten().collect();
    if checks.len() != cases.len() {
        return Err(Error::Sandbox {
            backend,
            why: format!(
                "{} of {} input validator runs reported",
                checks.len(),
                cases.len()
            ),
        });
    }
    Ok(checks)
}

/// Runs the built validator with `args` on the cases `idxs` (indices into
/// [`Problem::test_cases`]) in one job: a check per case, in `idxs` order.
#[allow(clippy::too_many_arguments)] // One job's parts, each used once.
async fn run_batch(
    problem: &Problem,
    build: &ProgramBuild,
    files: &[String],
    ws: &mut Workspace,
    sandbox: &mut Sandbox,
    args: &[String],
    idxs: &[usize],
    backend: &'static str,
) -> Result<Vec<InputCheck>> {
    let cases = problem.test_cases();
    let mut runs = Vec::with_capacity(idxs.len());
    for idx in idxs {
        runs.push(RunIo {
            stdin: Some(ws.add_input(&format!("{idx:04}.in"), &cases[*idx].input)?),
            stdout: format!("/judge/out/{idx:04}.vout").into(),
            stderr: format!("/judge/out/{idx:04}.verr").into(),
            validator: None,
            interactor: None,
        });
    }
    let workdir = Path::new(Unit::Validator.workdir());
    let job = Job {
        uid: VALIDATOR_UID,
        gid: VALIDATOR_UID,
        workdir: workdir.into(),
        copy_in: files
            .iter()
            .map(|name| {
                (
                    Unit::Validator.build_dir().join(name),
                    workdir.join(name),
                    None,
                )
            })
            .collect(),
        command: [build.run.clone(), args.to_vec()].concat(),
        env: sandbox_env(),
        limits: VALIDATOR_LIMITS,
        oom_file: None,
        runs,
        copy_out: None,
        discard_writes: false,
    };
    let mut checks = Vec::with_capacity(idxs.len());
    let mut failure = None;
    let out_dir = ws.host_out();
    sandbox
        .exec(
            ws,
            job,
            INPUT_VALIDATOR_MEMORY + MEMORY_HEADROOM,
            &mut |run| {
                let Some(case) = idxs.get(run.index).and_then(|idx| cases.get(*idx)) else {
                    failure = Some(format!("unknown run {}", run.index));
                    return ControlFlow::Break(());
                };
                if let Some(err) = &run.exec_error {
                    failure = Some(format!("cannot start {}: {err}", build.name));
                    return ControlFlow::Break(());
                }
                let valid = run.exit_code == Some(VALID_INPUT) && !run.wall_timeout;
                let message = if valid {
                    String::new()
                } else {
                    let end = match (run.exit_code, run.signal) {
                        _ if run.wall_timeout || run.cpu_ms > VALIDATOR_LIMITS.cpu_ms as f64 => {
                            "timed out".to_owned()
                        }
                        (Some(code), _) => format!("exit code {code}"),
                        (None, Some(signal)) => format!("killed by signal {signal}"),
                        (None, None) => "no exit status".to_owned(),
                    };
                    let said = written(&out_dir, idxs[run.index]);
                    if said.is_empty() {
                        end
                    } else {
                        format!("{end}: {said}")
                    }
                };
                checks.push(InputCheck {
                    validator: build.name.clone(),
                    case: case.name.clone(),
                    args: args.to_vec(),
                    valid,
                    message,
                });
                ControlFlow::Continue(())
            },
        )
        .await?;
    if let Some(why) = failure {
        return Err(Error::Sandbox { backend, why });
    }
    Ok(checks)
}

/// The start of what run `index` wrote (standard error, then output), on one line.
fn written(out_dir: &Path, index: usize) -> String {
    let mut text = String::new();
    for ext in ["verr", "vout"] {
        let path: PathBuf = out_dir.join(format!("{index:04}.{ext}"));
        if let Ok(bytes) = std::fs::read(&path) {
            text.push_str(&String::from_utf8_lossy(&bytes[..bytes.len().min(512)]));
            text.push(' ');
        }
    }
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    line.chars().take(300).collect()
}

/// `path` relative to the package `root`, with `/`.
fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
