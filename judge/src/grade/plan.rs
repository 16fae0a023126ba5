//! The test job: the builds to copy in, one run per test case in judging order (its input,
//! its output files, and the output validator's step after it or the interactor beside
//! it, as the validator's convention calls it), and the limits of the runs.

use std::path::{Path, PathBuf};

use problems::{TestCase, ValidatorConvention};

use super::compile::Unit;
use super::{Checker, Ctx};
use crate::Result;
use crate::sandbox::{
    Job, JobLimits, RunIo, SANDBOX_UID, VALIDATOR_UID, ValidatorStep, sandbox_env,
};

/// The wall-clock limit of a run whose CPU time limit is `time_ms`: the time limit plus
/// an overshoot of 1 s or a tenth of it, whichever is more (DOMjudge's default
/// `timelimit_overshoot`, `1s|10%`). A program killed there is TLE, whatever CPU time it
/// used: sleeping or waiting past the limit is too slow.
pub fn wall_limit_ms(time_ms: u64) -> u64 {
    time_ms + (time_ms / 10).max(1000)
}

/// Limits of a validator's run (output validator, interactor or input validator). The
/// stack is 1 GiB (its pages count towards the sandbox's memory as any other): a
/// recursive validator on a long input needs more than 64 MiB (NWERC 2023
/// higherarithmetic's `validate_using_modulo` crashed there), and problemtools leaves it
/// unlimited.
pub(super) const VALIDATOR_LIMITS: JobLimits = JobLimits {
    cpu_ms: 30_000,
    wall_ms: 60_000,
    output_bytes: 8 << 20,
    stack_bytes: 1 << 30,
    processes: crate::sandbox::USER_PROCESSES,
    open_files: 256,
};

impl Ctx<'_> {
    /// The job that runs the submission's `build` on every case, with the output
    /// validator's `validator_build` when the problem has one.
    pub(super) fn test_job(
        &self,
        cases: &[&TestCase],
        build: &[String],
        validator_build: Option<&[String]>,
    ) -> Result<Job> {
        // Root's: the program may read and run its build, never change it for a later
        // test.
        let mut copy_in = build_files(Unit::Submission, build, Some(0));
        if let Some(validator_build) = validator_build {
            copy_in.extend(build_files(
                Unit::Validator,
                validator_build,
                Some(VALIDATOR_UID),
            ));
        }
        let runs = cases
            .iter()
            .enumerate()
            .map(|(idx, case)| self.run_io(idx, case))
            .collect::<Result<Vec<_>>>()?;
        let limits = &self.problem.limits;
        let lang = &self.submission.language;
        let time_ms = limits.time.as_millis() as u64;
        Ok(Job {
            uid: SANDBOX_UID,
            gid: SANDBOX_UID,
            workdir: Unit::Submission.workdir().into(),
            copy_in,
            command: lang.command(
                &lang.run,
                &self.submission.source,
                limits.memory_bytes.div_ceil(1024 * 1024),
            ),
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: time_ms,
                wall_ms: wall_limit_ms(time_ms),
                output_bytes: limits.output_bytes,
                stack_bytes: limits.memory_bytes,
                processes: crate::sandbox::USER_PROCESSES,
                open_files: 512,
            },
            oom_file: None,
            runs,
            copy_out: None,
            // Writes are refused in the work folder and dropped from /tmp after each
            // run: `allow_file_writing: false`, the package format's default.
            discard_writes: true,
        })
    }

    /// The files of the run of case `idx`: its input at `/judge/in/<idx>.in`, its outputs
    /// at `/judge/out/<idx>.out` and `.err`, and the validator's or interactor's step.
    fn run_io(&self, idx: usize, case: &TestCase) -> Result<RunIo> {
        let stdin = self.ws.add_input(&format!("{idx:04}.in"), &case.input)?;
        let stdout: PathBuf = format!("/judge/out/{idx:04}.out").into();
        let step = self.validator_step(idx, case, &stdout)?;
        let (validator, interactor) = if self.checker.is_interactive() {
            (None, step)
        } else {
            (step, None)
        };
        Ok(RunIo {
            stdin: Some(stdin),
            stdout,
            stderr: format!("/judge/out/{idx:04}.err").into(),
            validator,
            interactor,
        })
    }

    /// The custom validator's step for case `idx`, whose program writes `stdout`: the
    /// case's input and answer in `/judge/ans`, and its command by its convention (Kattis:
    /// `input answer feedback_dir [flags]` with the output as its standard input, or
    /// through a pipe for an interactor; testlib: `input output answer`).
    fn validator_step(
        &self,
        idx: usize,
        case: &TestCase,
        stdout: &Path,
    ) -> Result<Option<ValidatorStep>> {
        let Checker::Custom {
            program,
            flags,
            passes,
            ..
        } = self.checker
        else {
            return Ok(None);
        };
        let convention = self.checker.convention().unwrap_or_default();
        let input = self
            .ws
            .add_for_validator(&format!("{idx:04}.in"), &case.input)?;
        let answer = self
            .ws
            .add_for_validator(&format!("{idx:04}.ans"), &case.answer)?;
        let mut command = program.run.clone();
        let input_arg = command.len();
        let (stdin, feedback_dir, give_output) = match convention {
            ValidatorConvention::Kattis => {
                let feedback: PathBuf = format!("/judge/out/fb-{idx:04}/").into();
                command.extend([input, answer, feedback.clone()].map(|p| p.display().to_string()));
                command.extend(flags.iter().cloned());
                // An interactor reads the program's output through a pipe.
                let stdin = (!self.checker.is_interactive()).then(|| stdout.to_path_buf());
                (stdin, Some(feedback), false)
            }
            ValidatorConvention::Testlib => {
                command
                    .extend([input, stdout.to_path_buf(), answer].map(|p| p.display().to_string()));
                (None, None, true)
            }
        };
        Ok(Some(ValidatorStep {
            command,
            uid: VALIDATOR_UID,
            gid: VALIDATOR_UID,
            workdir: Unit::Validator.workdir().into(),
            stdin,
            stdout: format!("/judge/out/{idx:04}.vout").into(),
            stderr: format!("/judge/out/{idx:04}.verr").into(),
            feedback_dir,
            give_output,
            limits: VALIDATOR_LIMITS,
            passes: *passes,
            input_arg: Some(input_arg),
        }))
    }
}

/// The copy-ins of a unit's build files into its work folder, owned by `owner` (or the
/// job's user).
pub(super) fn build_files(
    unit: Unit,
    build: &[String],
    owner: Option<u32>,
) -> Vec<(PathBuf, PathBuf, Option<u32>)> {
    build
        .iter()
        .map(|name| {
            (
                unit.build_dir().join(name),
                Path::new(unit.workdir()).join(name),
                owner,
            )
        })
        .collect()
}
