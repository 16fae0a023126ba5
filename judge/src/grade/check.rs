//! Checking a run: the verdict its measurements decide (`classify`), then its output's,
//! by the default validator on the host, by the package's output validator (the Kattis or
//! the testlib convention, with the points it gave), or by the interactor together with
//! the program's own end (the Kattis rule of who failed first).

use std::path::Path;

use problems::{Problem, TestCase, Validation, ValidatorConvention, Verdict};

use super::compile::ProgramBuild;
use crate::sandbox::RunReport;
use crate::{Error, Result};

/// How outputs are checked.
pub(super) enum Checker {
    /// The default validator; flags per test case.
    Default,
    /// A custom output validator (or interactor), built from its folder.
    Custom {
        /// Its files, how to compile it and how to run it.
        program: Box<ProgramBuild>,
        /// Its calling convention.
        convention: ValidatorConvention,
        /// Arguments from `problem.yaml`.
        flags: Vec<String>,
        /// The validator is the interactor, talking with the program through pipes.
        interactive: bool,
        /// The most passes of one test (1 unless the problem is multi-pass).
        passes: u32,
    },
}

impl Checker {
    /// The problem's checker, with the custom validator's files read.
    pub(super) fn of(problem: &Problem) -> Result<Checker> {
        let Validation::Custom {
            flags,
            interactive,
            convention,
            passes,
            ..
        } = &problem.validation
        else {
            return Ok(Checker::Default);
        };
        // `load` has checked that there is a program.
        let program = problem
            .output_validator_program()
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "problem {} has no output validator",
                    problem.short_name
                ))
            })?
            .map_err(|why| {
                Error::Unsupported(format!(
                    "problem {}: output validator: {why}",
                    problem.short_name
                ))
            })?;
        // A validator's Java heap, as before programs of several files.
        let memory_mib = 256;
        Ok(Checker::Custom {
            program: Box::new(ProgramBuild::read(&program, &problem.root, memory_mib)?),
            convention: *convention,
            flags: flags.clone(),
            interactive: *interactive,
            passes: *passes,
        })
    }

    /// The convention the custom validator is called by (an interactor's is Kattis);
    /// `None` for the default validator.
    pub(super) fn convention(&self) -> Option<ValidatorConvention> {
        match self {
            Checker::Default => None,
            Checker::Custom {
                interactive: true, ..
            } => Some(ValidatorConvention::Kattis),
            Checker::Custom { convention, .. } => Some(*convention),
        }
    }

    /// Whether the validator is an interactor.
    pub(super) fn is_interactive(&self) -> bool {
        matches!(
            self,
            Checker::Custom {
                interactive: true,
                ..
            }
        )
    }
}

/// A test's verdict and message, with the points a custom validator claimed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Checked {
    pub(super) verdict: Verdict,
    pub(super) message: String,
    pub(super) claim: Option<Claim>,
}

impl Checked {
    fn plain(verdict: Verdict, message: String) -> Checked {
        Checked {
            verdict,
            message,
            claim: None,
        }
    }
}

/// Points a custom validator gave a test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Claim {
    /// Kattis `score.txt`, or the points of a testlib checker's exit code 7.
    Points(f64),
    /// Kattis `score_multiplier.txt`: a fraction of the test's maximum.
    Multiplier(f64),
}

/// The verdict of the run of `case`, whose outputs are in `out_dir`: its measurements
/// first ([`classify`], or the interactive rule), then its output. `Err` when the program
/// could not be started (a failure of the judge).
pub(super) fn check_run(
    run: &RunReport,
    case: &TestCase,
    problem: &Problem,
    checker: &Checker,
    out_dir: &Path,
) -> std::result::Result<Checked, String> {
    let limits = &problem.limits;
    if checker.is_interactive() {
        let checked = interactive_verdict(run, limits, out_dir)?;
        // A program that failed on its own keeps its verdict; otherwise an interactor
        // that left a `nextpass.in` asked for a pass it may not have.
        if let Checker::Custom { passes, .. } = checker
            && *passes > 1
            && classify(run, limits)?.is_none()
            && checked.verdict != Verdict::JE
            && let Some(why) = nextpass_left(run, *passes, out_dir)
        {
            return Ok(Checked::plain(Verdict::JE, why));
        }
        return Ok(checked);
    }
    if let Some((verdict, message)) = classify(run, limits)? {
        return Ok(Checked::plain(verdict, message));
    }
    if let Some(convention) = checker.convention() {
        let mut checked = validator_verdict(run, convention, out_dir);
        if let Checker::Custom { passes, .. } = checker
            && *passes > 1
            && let Some(why) = nextpass_left(run, *passes, out_dir)
        {
            checked = Checked::plain(Verdict::JE, why);
        }
        return Ok(checked);
    }
    let flags = match problem.validation_for(case) {
        Validation::Default(flags) => flags,
        Validation::Custom { .. } => problems::default_validator::DefaultFlags::default(),
    };
    let (verdict, message) = check_output(
        &out_dir.join(format!("{:04}.out", run.index)),
        &case.answer,
        &flags,
    );
    Ok(Checked::plain(verdict, message))
}

/// The verdict of an interactive run, in problemtools' order (its `interactive` runner
/// and the package format's rule of who failed first):
/// 1. an interactor that crashed, timed out or exited with neither 42 nor 43: JE,
///    whatever the program did;
/// 2. an interactor that rejected (43) and ended first: WA, whatever the program did
///    afterwards (it dies of the end of its input or a broken pipe, or waits to its
///    limit);
/// 3. a program over its time limit (CPU, or killed at the wall clock): TLE;
/// 4. a program that ended abnormally: its own verdict (MLE, OLE, or RTE for a crash or
///    a non-zero exit), whatever the interactor then said;
/// 5. otherwise the interactor's verdict: 42 AC, 43 WA (a program that stopped talking
///    early and exited with 0 is WA).
///
/// The order is causal: the supervisor lets neither process see the other's end before
/// it has reaped it (see `run_interactive` in the supervisor).
fn interactive_verdict(
    run: &RunReport,
    limits: &problems::Limits,
    out_dir: &Path,
) -> std::result::Result<Checked, String> {
    let program = classify(run, limits)?;
    let interactor = validator_verdict(run, ValidatorConvention::Kattis, out_dir);
    if interactor.verdict == Verdict::JE {
        return Ok(interactor);
    }
    let interactor_first = run.validator.as_ref().is_some_and(|v| v.ended_first);
    if interactor.verdict == Verdict::WA && interactor_first {
        return Ok(interactor);
    }
    match program {
        Some((verdict, message)) => {
            let said = if interactor.verdict == Verdict::AC {
                "accepted"
            } else {
                "rejected"
            };
            Ok(Checked::plain(
                verdict,
                format!("{message} (the interactor then {said})"),
            ))
        }
        None => Ok(interactor),
    }
}

/// Why a multi-pass run is a judge error, when it is: the supervisor moves `nextpass.in`
/// out of the feedback folder only to run the next pass, so one left there was written
/// with an exit code other than 42, or on the last pass allowed (`limits.validation_passes`,
/// `passes`): a validator that never stops asking is stopped there.
fn nextpass_left(run: &RunReport, passes: u32, out_dir: &Path) -> Option<String> {
    let idx = run.index;
    let name = format!("fb-{idx:04}/nextpass.in");
    out_dir.join(&name).symlink_metadata().ok()?;
    let code = run.validator.as_ref().and_then(|v| v.exit_code);
    Some(if code == Some(42) && run.passes >= passes {
        format!(
            "the output validator asked for pass {} (wrote {name}) of a problem with at most \
             {passes} passes (limits.validation_passes)",
            run.passes + 1
        )
    } else {
        format!(
            "the output validator wrote {name} on pass {} and exited with {code:?}: a next \
             pass needs an acceptance (42)",
            run.passes
        )
    })
}

/// The verdict of a custom validator's run: its exit code under its convention, with its
/// messages and the points it gave (Kattis `score.txt` or `score_multiplier.txt` in the
/// feedback folder of an accepted test; testlib's exit code 7 with the points first in its
/// message). A validator that crashed, timed out, exited otherwise or wrote an unreadable
/// score is a judge error.
fn validator_verdict(run: &RunReport, convention: ValidatorConvention, out_dir: &Path) -> Checked {
    let je = |message: String| Checked::plain(Verdict::JE, message);
    let Some(step) = &run.validator else {
        return je("the output validator did not run".to_owned());
    };
    let read = |name: String| {
        let mut text = std::fs::read(out_dir.join(name)).unwrap_or_default();
        text.truncate(4096);
        String::from_utf8_lossy(&text).trim().to_owned()
    };
    if let Some(err) = &step.exec_error {
        return je(format!("the output validator could not start: {err}"));
    }
    if step.wall_timeout || step.signal.is_some() {
        return je(format!(
            "the output validator crashed or timed out (signal {:?})",
            step.signal
        ));
    }
    let idx = run.index;
    match convention {
        ValidatorConvention::Kattis => {
            let judge = read(format!("fb-{idx:04}/judgemessage.txt"));
            let team = read(format!("fb-{idx:04}/teammessage.txt"));
            let message = [judge, team]
                .into_iter()
                .filter(|m| !m.is_empty())
                .collect::<Vec<_>>()
                .join(" / ");
            let verdict = match step.exit_code {
                Some(42) => Verdict::AC,
                Some(43) => Verdict::WA,
                code => {
                    return je(format!(
                        "the output validator exited with {code:?} (42 or 43 expected): {message}"
                    ));
                }
            };
            let feedback = out_dir.join(format!("fb-{idx:04}"));
            match kattis_claim(&feedback) {
                Ok(None) => Checked::plain(verdict, message),
                Ok(Some(_)) if verdict == Verdict::WA => je(format!(
                    "the output validator rejected but wrote a score: {message}"
                )),
                Ok(claim) => Checked {
                    verdict,
                    message,
                    claim,
                },
                Err(why) => je(format!("{why}: {message}")),
            }
        }
        ValidatorConvention::Testlib => {
            let message = read(format!("{idx:04}.verr"));
            match step.exit_code {
                Some(0) => Checked::plain(Verdict::AC, message),
                Some(1) => Checked::plain(Verdict::WA, message),
                Some(2) => Checked::plain(Verdict::WA, format!("presentation error: {message}")),
                Some(7) => match testlib_points(&message) {
                    Some(points) => Checked {
                        verdict: Verdict::WA,
                        message: format!("partially correct: {message}"),
                        claim: Some(Claim::Points(points)),
                    },
                    None => je(format!(
                        "the checker exited with 7 (partial) without points first in its message: {message}"
                    )),
                },
                Some(3) => je(format!("the checker failed: {message}")),
                code => je(format!("the checker exited with {code:?}: {message}")),
            }
        }
    }
}

/// The points of a Kattis feedback folder: `score.txt` (a non-negative number) or
/// `score_multiplier.txt` (a number from 0 to 1), not both.
fn kattis_claim(feedback: &Path) -> std::result::Result<Option<Claim>, String> {
    let number = |name: &str| -> std::result::Result<Option<f64>, String> {
        let Ok(text) = std::fs::read(feedback.join(name)) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&text[..text.len().min(256)])
            .trim()
            .to_owned();
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(format!("{name} holds {text:?}, not a non-negative number")),
        }
    };
    match (number("score.txt")?, number("score_multiplier.txt")?) {
        (Some(_), Some(_)) => {
            Err("the validator wrote both score.txt and score_multiplier.txt".to_owned())
        }
        (Some(points), None) => Ok(Some(Claim::Points(points))),
        (None, Some(fraction)) if fraction <= 1.0 => Ok(Some(Claim::Multiplier(fraction))),
        (None, Some(fraction)) => Err(format!("score_multiplier.txt holds {fraction}, above 1")),
        (None, None) => Ok(None),
    }
}

/// The points of a testlib partial result: the first word of the checker's message
/// (testlib's `quitp` writes `points <value> <message>`, or the value alone first).
fn testlib_points(message: &str) -> Option<f64> {
    let message = message.trim_start();
    let rest = message.strip_prefix("points").unwrap_or(message);
    rest.split_whitespace()
        .next()?
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
}

/// The verdict a run's measurements decide without looking at its output, or `None`
/// when it ran normally; `Err` when the program could not be started.
pub fn classify(
    run: &RunReport,
    limits: &problems::Limits,
) -> std::result::Result<Option<(Verdict, String)>, String> {
    if let Some(err) = &run.exec_error {
        return Err(format!("the program could not be started: {err}"));
    }
    let time_ms = limits.time.as_secs_f64() * 1000.0;
    if run.wall_timeout {
        return Ok(Some((
            Verdict::TLE,
            format!("killed at the wall-clock limit after {:.0} ms", run.wall_ms),
        )));
    }
    if run.cpu_ms > time_ms {
        return Ok(Some((
            Verdict::TLE,
            format!(
                "CPU time {:.0} ms above the limit of {time_ms:.0} ms",
                run.cpu_ms
            ),
        )));
    }
    let limit_kib = limits.memory_bytes / 1024;
    if run.oom_kill {
        return Ok(Some((
            Verdict::MLE,
            "killed by the kernel at the memory limit".to_owned(),
        )));
    }
    if run.peak_kib > limit_kib {
        return Ok(Some((
            Verdict::MLE,
            format!(
                "peak memory {} KiB above the limit of {limit_kib} KiB",
                run.peak_kib
            ),
        )));
    }
    if run.signal == Some(libc::SIGXFSZ) || run.stdout_bytes > limits.output_bytes {
        return Ok(Some((
            Verdict::OLE,
            format!("output above the limit of {} bytes", limits.output_bytes),
        )));
    }
    if let Some(sig) = run.signal {
        return Ok(Some((Verdict::RTE, format!("killed by signal {sig}"))));
    }
    match run.exit_code {
        Some(0) => Ok(None),
        Some(code) => Ok(Some((Verdict::RTE, format!("exit code {code}")))),
        None => Ok(Some((
            Verdict::RTE,
            "ended without an exit code".to_owned(),
        ))),
    }
}

/// The default validator's verdict on the output file against the answer file (both on
/// the host); an unreadable file is a judge error.
fn check_output(
    output: &Path,
    answer: &Path,
    flags: &problems::default_validator::DefaultFlags,
) -> (Verdict, String) {
    let (team, judge) = match (std::fs::read(output), std::fs::read(answer)) {
        (Ok(team), Ok(judge)) => (team, judge),
        (Err(err), _) => {
            return (
                Verdict::JE,
                format!("cannot read the output {}: {err}", output.display()),
            );
        }
        (_, Err(err)) => {
            return (
                Verdict::JE,
                format!("cannot read the answer {}: {err}", answer.display()),
            );
        }
    };
    match problems::default_validator::check(&judge, &team, flags) {
        problems::default_validator::Outcome::Accepted => (Verdict::AC, String::new()),
        problems::default_validator::Outcome::WrongAnswer(msg) => (Verdict::WA, msg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(f: impl FnOnce(&mut RunReport)) -> RunReport {
        let mut it = RunReport {
            index: 0,
            exit_code: Some(0),
            signal: None,
            cpu_ms: 100.0,
            wall_ms: 120.0,
            peak_kib: 1000,
            stdout_bytes: 10,
            oom_kill: false,
            wall_timeout: false,
            exec_error: None,
            validator: None,
            passes: 1,
        };
        f(&mut it);
        it
    }

    fn limits() -> problems::Limits {
        problems::Limits {
            time: Duration::from_secs(1),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            ..problems::package::DEFAULT_LIMITS
        }
    }

    fn verdict(r: &RunReport) -> Option<Verdict> {
        classify(r, &limits()).expect("starts").map(|(v, _)| v)
    }

    #[test]
    fn testlib_points_come_first_in_the_message() {
        assert_eq!(testlib_points("points 12.5 almost there"), Some(12.5));
        assert_eq!(testlib_points("0.5 half"), Some(0.5));
        assert_eq!(testlib_points("partially right"), None);
    }

    #[test]
    fn kattis_score_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let claim = |files: &[(&str, &str)]| {
            for name in ["score.txt", "score_multiplier.txt"] {
                let _ = std::fs::remove_file(dir.path().join(name));
            }
            for (name, text) in files {
                std::fs::write(dir.path().join(name), text).expect("write");
            }
            kattis_claim(dir.path())
        };
        assert_eq!(claim(&[]), Ok(None));
        assert_eq!(
            claim(&[("score.txt", "12\n")]),
            Ok(Some(Claim::Points(12.0)))
        );
        assert_eq!(
            claim(&[("score_multiplier.txt", "0.5")]),
            Ok(Some(Claim::Multiplier(0.5)))
        );
        assert!(claim(&[("score.txt", "lots")]).is_err());
        assert!(claim(&[("score.txt", "-1")]).is_err());
        assert!(claim(&[("score_multiplier.txt", "1.5")]).is_err());
        assert!(claim(&[("score.txt", "1"), ("score_multiplier.txt", "0.5")]).is_err());
    }

    fn interactive_run(
        exit_code: Option<i32>,
        signal: Option<i32>,
        interactor_exit: i32,
        interactor_first: bool,
    ) -> RunReport {
        run(|r| {
            r.exit_code = exit_code;
            r.signal = signal;
            r.validator = Some(crate::sandbox::StepReport {
                exit_code: Some(interactor_exit),
                signal: None,
                cpu_ms: 1.0,
                wall_ms: 1.0,
                wall_timeout: false,
                exec_error: None,
                ended_first: interactor_first,
            });
        })
    }

    #[test]
    fn interactive_verdicts_follow_who_failed_first() {
        let limits = limits();
        let out = tempfile::tempdir().expect("tempdir");
        let verdict = |r: RunReport| {
            interactive_verdict(&r, &limits, out.path())
                .expect("started")
                .verdict
        };
        let segv = (None, Some(libc::SIGSEGV));
        // (program exit, program signal, interactor exit, interactor first, verdict)
        let table = [
            (Some(0), None, 42, true, Verdict::AC),
            (Some(0), None, 42, false, Verdict::AC),
            // The interactor rejects, then the program dies of it: WA.
            (Some(1), None, 43, true, Verdict::WA),
            (segv.0, segv.1, 43, true, Verdict::WA),
            // The program stops early: a normal end leaves it to the interactor, a crash
            // or a non-zero exit is the program's RTE (problemtools' order).
            (Some(0), None, 43, false, Verdict::WA),
            (Some(3), None, 43, false, Verdict::RTE),
            (segv.0, segv.1, 43, false, Verdict::RTE),
            // Accepted, but the program then fails (or failed): its own verdict.
            (Some(3), None, 42, true, Verdict::RTE),
            (segv.0, segv.1, 42, false, Verdict::RTE),
            // The interactor's own failure is the judge's.
            (Some(0), None, 0, true, Verdict::JE),
            (Some(3), None, 1, false, Verdict::JE),
        ];
        for (exit, signal, interactor, first, want) in table {
            assert_eq!(
                verdict(interactive_run(exit, signal, interactor, first)),
                want,
                "{exit:?} {signal:?} {interactor} {first}"
            );
        }
        // Limits: TLE unless the interactor rejected first; MLE when the program hit it
        // before the interactor rejected.
        let mut tle = interactive_run(None, Some(9), 43, true);
        tle.wall_timeout = true;
        assert_eq!(verdict(tle.clone()), Verdict::WA);
        tle.validator.as_mut().expect("validator").ended_first = false;
        assert_eq!(verdict(tle.clone()), Verdict::TLE);
        tle.validator.as_mut().expect("validator").exit_code = Some(42);
        assert_eq!(verdict(tle), Verdict::TLE);
        let mut mle = interactive_run(None, Some(9), 43, false);
        mle.oom_kill = true;
        assert_eq!(verdict(mle.clone()), Verdict::MLE);
        mle.validator.as_mut().expect("validator").ended_first = true;
        assert_eq!(verdict(mle), Verdict::WA);
    }

    #[test]
    fn classification_follows_the_precedence() {
        assert_eq!(verdict(&run(|_| {})), None);
        assert_eq!(verdict(&run(|r| r.exit_code = Some(1))), Some(Verdict::RTE));
        assert_eq!(
            verdict(&run(|r| {
                r.exit_code = None;
                r.signal = Some(libc::SIGSEGV)
            })),
            Some(Verdict::RTE)
        );
        // An OOM kill shows as SIGKILL but is MLE.
        assert_eq!(
            verdict(&run(|r| {
                r.signal = Some(9);
                r.exit_code = None;
                r.oom_kill = true
            })),
            Some(Verdict::MLE)
        );
        assert_eq!(
            verdict(&run(|r| r.peak_kib = 64 * 1024 + 1)),
            Some(Verdict::MLE)
        );
        assert_eq!(
            verdict(&run(|r| {
                r.signal = Some(libc::SIGXFSZ);
                r.exit_code = None
            })),
            Some(Verdict::OLE)
        );
        // Time beats memory and output.
        assert_eq!(
            verdict(&run(|r| {
                r.cpu_ms = 1001.0;
                r.oom_kill = true
            })),
            Some(Verdict::TLE)
        );
        assert_eq!(
            verdict(&run(|r| {
                r.wall_timeout = true;
                r.signal = Some(9)
            })),
            Some(Verdict::TLE)
        );
        let limits = problems::package::DEFAULT_LIMITS;
        assert!(
            classify(
                &run(|r| r.exec_error = Some("execve errno 2".into())),
                &limits
            )
            .is_err()
        );
    }
}
