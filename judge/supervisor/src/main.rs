//! The supervisor that runs inside the sandbox (a Docker container or a bubblewrap
//! namespace) and starts the submission's processes under limits.
//!
//! It is trusted code: it runs as root inside the sandbox with only the capabilities it
//! needs (SETUID, SETGID, KILL, CHOWN, DAC_OVERRIDE), and each program it starts runs
//! as an unprivileged user with `no_new_privs`, in its own session, with rlimits as a
//! backstop. It reports one JSON line per run on stdout as each run finishes
//! ([`RunReport`]): CPU time (user + system of the process and the children it waited
//! for), wall time, peak resident memory (`ru_maxrss`), exit code or signal, output size,
//! whether the wall-clock limit killed it, and whether the memory cgroup's `oom_kill`
//! counter rose during the run (the kernel's own account of a memory-limit kill).
//!
//! The job it reads and the lines it prints are the package's library,
//! `judge_supervisor::protocol`, which the host side (`judge::sandbox`) compiles too.
//!
//! Usage: `judge-supervisor idle` (PID 1 of a container: reaps orphans forever) or
//! `judge-supervisor SPEC.json` (a [`Job`]). Exit codes: 0 when every run was started
//! and reported (whatever the programs did), then a last line `{"done":{}}`; 3 when the
//! supervisor itself failed, with a last line `{"error":"..."}`.

// The supervisor must start processes under limits and another user (`exec`), and
// become a subreaper and wait for them here: there is no safe std API for these. Each
// unsafe block is a single libc call (or the child's pre-exec sequence) with its
// invariant stated beside it.
#![allow(unsafe_code)]

mod exec;

use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Duration;

use exec::{Launch, Prepared, Stderr, cloexec_pipe, execute, execute_all};

use judge_supervisor::protocol::{Job, Line, RunIo, RunReport, StepReport, ValidatorStep};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let res = match args.get(1).map(String::as_str) {
        Some("idle") => idle(),
        Some(spec) => run_spec(Path::new(spec)),
        None => Err("usage: judge-supervisor idle | judge-supervisor SPEC.json".to_owned()),
    };
    if let Err(err) = res {
        // Standard output may be gone too: the exit code still tells.
        let _ = write_line(&Line::Error(err));
        std::process::exit(3);
    }
}

/// PID 1 of a container: reap every orphan, forever.
fn idle() -> Result<(), String> {
    loop {
        let mut status = 0;
        // SAFETY: waitpid with a valid pointer to a local int.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid < 0 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn run_spec(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let spec: Job =
        serde_json::from_str(&text).map_err(|err| format!("bad spec {}: {err}", path.display()))?;
    // Orphans of the programs are reparented to us, so we can reap them.
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    for (from, to, owner) in &spec.copy_in {
        // Replace, never write through, whatever the work folder holds at that name.
        match std::fs::remove_file(to) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(format!("cannot replace {}: {err}", to.display())),
        }
        std::fs::copy(from, to)
            .map_err(|err| format!("copy {} -> {}: {err}", from.display(), to.display()))?;
        let owner = owner.unwrap_or(spec.uid);
        std::os::unix::fs::chown(to, Some(owner), Some(owner))
            .map_err(|err| format!("chown {}: {err}", to.display()))?;
    }
    // Discarding writes empties /tmp and /dev/shm after each run: only inside a sandbox,
    // never on a host where someone ran the supervisor by hand.
    if spec.discard_writes && !Path::new(SANDBOX_MARK).exists() {
        return Err(format!(
            "a job that discards writes empties {} after each run, so it runs only inside \
             the sandbox (where {SANDBOX_MARK} is mounted), not here",
            SHARED_TEMP.join(" and ")
        ));
    }
    let prepared = Prepared::new(&spec.command, &spec.env, &spec.workdir)?;
    let workdir_before = if spec.discard_writes {
        Some(lock_workdir(&spec.workdir)?)
    } else {
        None
    };
    let mut all_ok = true;
    for (index, io) in spec.runs.iter().enumerate() {
        let report = run_one(&spec, &prepared, index, io)?;
        all_ok &=
            report.exit_code == Some(0) && !report.wall_timeout && report.exec_error.is_none();
        write_line(&Line::Run(report))?;
    }
    if let Some((uid, gid, mode)) = workdir_before {
        // The mode while root owns it (changing another user's needs CAP_FOWNER, which
        // the Docker sandbox does not grant), then the owner.
        std::fs::set_permissions(
            &spec.workdir,
            std::os::unix::fs::PermissionsExt::from_mode(mode),
        )
        .and_then(|()| std::os::unix::fs::chown(&spec.workdir, Some(uid), Some(gid)))
        .map_err(|err| format!("restore {}: {err}", spec.workdir.display()))?;
    }
    if let Some(dest) = &spec.copy_out
        && all_ok
    {
        copy_regular_files(&spec.workdir, dest)?;
    }
    write_line(&Line::Done {})
}

/// Makes the work folder root's and read-only to everyone else for a job whose writes
/// are refused; returns its owner and mode, to be restored after the runs.
fn lock_workdir(workdir: &Path) -> Result<(u32, u32, u32), String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(workdir)
        .map_err(|err| format!("stat {}: {err}", workdir.display()))?;
    std::os::unix::fs::chown(workdir, Some(0), Some(0))
        .and_then(|()| {
            std::fs::set_permissions(workdir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        })
        .map_err(|err| format!("lock {}: {err}", workdir.display()))?;
    Ok((meta.uid(), meta.gid(), meta.mode() & 0o7777))
}

/// The folders every program may write and the next one could read: emptied after each
/// run of a job whose writes are discarded.
const SHARED_TEMP: [&str; 2] = ["/tmp", "/dev/shm"];

/// Where both backends mount the supervisor itself: present only inside a sandbox.
const SANDBOX_MARK: &str = "/judge/supervisor";

/// Removes everything in [`SHARED_TEMP`] (links themselves, never what they point to).
fn empty_shared_temp() -> Result<(), String> {
    for dir in SHARED_TEMP {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let res = if is_dir {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            res.map_err(|err| format!("cannot remove {}: {err}", path.display()))?;
        }
    }
    Ok(())
}

/// Writes one protocol line on standard output and flushes it, so the host sees each run
/// as it finishes.
fn write_line(line: &Line) -> Result<(), String> {
    let text = serde_json::to_string(line).map_err(|err| err.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(|err| format!("stdout: {err}"))
}

fn open_output(path: &Path) -> Result<File, String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|err| format!("cannot create {}: {err}", path.display()))
}

/// One run: its passes (one, but for a multi-pass problem), each the program with its
/// output validator after it or its interactor beside it.
fn run_one(spec: &Job, prepared: &Prepared, index: usize, io: &RunIo) -> Result<RunReport, String> {
    let step = io.interactor.as_ref().or(io.validator.as_ref());
    let passes = step.map_or(1, |v| v.passes.max(1));
    let mut pass = 1;
    let mut report = one_pass(spec, prepared, index, io, None)?;
    loop {
        if spec.discard_writes {
            empty_shared_temp()?;
        }
        // A next pass only after an accepted one: the validator said 42, and the program
        // ended normally in time (an output validator runs only then).
        let program_ok = report.exit_code == Some(0) && !report.wall_timeout && !report.oom_kill;
        let next = match (step, &report.validator) {
            (Some(step), Some(done))
                if pass < passes && done.exit_code == Some(42) && program_ok =>
            {
                step.feedback_dir.as_ref().map(|fb| fb.join("nextpass.in"))
            }
            _ => None,
        };
        // A `nextpass.in` that is not a regular file is left for the host to refuse.
        let (Some(step), Some(next)) = (
            step,
            next.filter(|n| std::fs::symlink_metadata(n).is_ok_and(|m| m.file_type().is_file())),
        ) else {
            return Ok(report);
        };
        pass += 1;
        // The program's standard input, opened by the supervisor; or the interactor's
        // input file, which it opens itself.
        let owner = if io.interactor.is_some() {
            (step.uid, step.gid)
        } else {
            (0, 0)
        };
        let dest = io.stdout.with_extension(format!("pass{pass}.in"));
        std::fs::rename(&next, &dest)
            .and_then(|()| hand_over(&dest, owner))
            .map_err(|err| format!("nextpass.in -> {}: {err}", dest.display()))?;
        // An output validator reads the pass's own input as its input file (the spec's
        // multi-pass rule, as DOMjudge and BAPCtools run it): a copy only its user reads,
        // since the program's copy stays root's.
        let for_validator = if io.interactor.is_none() {
            let copy = io.stdout.with_extension(format!("pass{pass}.vin"));
            std::fs::copy(&dest, &copy)
                .and_then(|_| hand_over(&copy, (step.uid, step.gid)))
                .map_err(|err| format!("nextpass.in -> {}: {err}", copy.display()))?;
            Some(copy)
        } else {
            None
        };
        let this = one_pass(
            spec,
            prepared,
            index,
            io,
            Some(NextPass {
                input: &dest,
                for_validator: for_validator.as_deref(),
            }),
        )?;
        report = RunReport {
            cpu_ms: report.cpu_ms.max(this.cpu_ms),
            wall_ms: report.wall_ms.max(this.wall_ms),
            peak_kib: report.peak_kib.max(this.peak_kib),
            oom_kill: report.oom_kill || this.oom_kill,
            passes: pass,
            ..this
        };
    }
}

/// `path` made `owner`'s alone (mode 0600). Root's first: the mode of another user's
/// file needs CAP_FOWNER, which the Docker sandbox does not grant.
fn hand_over(path: &Path, owner: (u32, u32)) -> std::io::Result<()> {
    std::os::unix::fs::chown(path, Some(0), Some(0))?;
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    std::os::unix::fs::chown(path, Some(owner.0), Some(owner.1))
}

/// A later pass's input: the program's (or the interactor's) file, and for an output
/// validator its own copy, which replaces the test's input in its command.
#[derive(Clone, Copy)]
struct NextPass<'a> {
    input: &'a Path,
    for_validator: Option<&'a Path>,
}

/// One pass: with the interactor, or the program then its output validator; `next` is
/// a later pass's input.
fn one_pass(
    spec: &Job,
    prepared: &Prepared,
    index: usize,
    io: &RunIo,
    next: Option<NextPass<'_>>,
) -> Result<RunReport, String> {
    match &io.interactor {
        Some(step) => run_interactive(spec, prepared, index, io, step, next.map(|n| n.input)),
        None => {
            let stdin = next.map(|n| n.input).or(io.stdin.as_deref());
            run_pass(
                spec,
                prepared,
                index,
                io,
                stdin,
                next.and_then(|n| n.for_validator),
            )
        }
    }
}

/// One pass of a run: the program on `stdin`, then its output validator when it ended
/// normally in time (with `validator_input` as its input file on a later pass).
fn run_pass(
    spec: &Job,
    prepared: &Prepared,
    index: usize,
    io: &RunIo,
    stdin: Option<&Path>,
    validator_input: Option<&Path>,
) -> Result<RunReport, String> {
    let stdin = open_input(stdin)?;
    let stdout = open_output(&io.stdout)?;
    let stderr = if io.stderr == io.stdout {
        Stderr::File(stdout.try_clone().map_err(|err| err.to_string())?)
    } else {
        Stderr::Kept(open_output(&io.stderr)?)
    };
    let oom_before = read_oom_kills(spec.oom_file.as_deref());
    let run = execute(
        prepared,
        stdin,
        &stdout,
        stderr,
        &spec.limits,
        spec.uid,
        spec.gid,
    )?;
    let oom_after = read_oom_kills(spec.oom_file.as_deref());
    let stdout_bytes = stdout.metadata().map(|m| m.len()).unwrap_or(0);
    drop(stdout);
    let mut report = RunReport {
        index,
        exit_code: run.exit_code,
        signal: run.signal,
        cpu_ms: run.cpu_ms,
        wall_ms: run.wall_ms,
        peak_kib: run.peak_kib,
        stdout_bytes,
        oom_kill: matches!((oom_before, oom_after), (Some(a), Some(b)) if b > a),
        wall_timeout: run.wall_timeout,
        exec_error: run.exec_error,
        validator: None,
        passes: 1,
    };
    if let Some(step) = &io.validator
        && report.exit_code == Some(0)
        && !report.wall_timeout
        && !report.oom_kill
    {
        report.validator = Some(validate(spec, io, step, validator_input)?);
    }
    Ok(report)
}

/// Runs an output validator after a program's run; `input` (a later pass's) replaces the
/// test's input in its command.
fn validate(
    spec: &Job,
    io: &RunIo,
    step: &ValidatorStep,
    input: Option<&Path>,
) -> Result<StepReport, String> {
    // A later pass keeps the folder and what the validator wrote there (the spec).
    if !step.feedback_dir.as_ref().is_some_and(|d| d.is_dir()) {
        make_feedback_dir(step)?;
    }
    if step.give_output {
        std::os::unix::fs::chown(&io.stdout, Some(step.uid), Some(step.gid))
            .map_err(|err| format!("chown {}: {err}", io.stdout.display()))?;
    }
    let mut command = step.command.clone();
    if let Some(input) = input {
        let arg = step
            .input_arg
            .and_then(|at| command.get_mut(at))
            .ok_or("the output validator's command names no input to replace for a next pass")?;
        *arg = input.to_string_lossy().into_owned();
    }
    let prepared = Prepared::new(&command, &spec.env, &step.workdir)?;
    let stdin = open_input(step.stdin.as_deref())?;
    let stdout = open_output(&step.stdout)?;
    let stderr = open_output(&step.stderr)?;
    let run = execute(
        &prepared,
        stdin,
        &stdout,
        Stderr::File(stderr),
        &step.limits,
        step.uid,
        step.gid,
    )?;
    Ok(StepReport {
        exit_code: run.exit_code,
        signal: run.signal,
        cpu_ms: run.cpu_ms,
        wall_ms: run.wall_ms,
        wall_timeout: run.wall_timeout,
        exec_error: run.exec_error,
        ended_first: false,
    })
}

/// Runs the program and the interactor together: the interactor's standard output is the
/// program's standard input and the other way round.
///
/// Which of the two ended first decides the verdict (the Kattis rule, see
/// `grade::interactive_verdict`), and the order must be causal: one process's end may only
/// be seen by the other after the first has been reaped. So the supervisor keeps its own
/// copies of each process's two pipe ends until it has reaped that process: until then the
/// peer reads no end of input and gets no broken pipe (its writes wait in the pipe). A
/// program that dies because the interactor left therefore ends after the interactor in
/// the reaping order, and the other way round. (A process that closes its standard output
/// but keeps running is seen to end its output only when it ends.)
///
/// Once the program has ended, the interactor sees the end of its input, but its own
/// writes are still read (and dropped) by the supervisor, never refused with a broken
/// pipe: an interactor that answers a program that has left is not a judge error.
fn run_interactive(
    spec: &Job,
    prepared: &Prepared,
    index: usize,
    io: &RunIo,
    step: &ValidatorStep,
    next: Option<&Path>,
) -> Result<RunReport, String> {
    // A later pass keeps the folder and what the interactor wrote there (the spec).
    if !step.feedback_dir.as_ref().is_some_and(|d| d.is_dir()) {
        make_feedback_dir(step)?;
    }
    let mut command = step.command.clone();
    if let Some(next) = next {
        let arg = step
            .input_arg
            .and_then(|at| command.get_mut(at))
            .ok_or("the interactor's command names no input to replace for a next pass")?;
        *arg = next.to_string_lossy().into_owned();
    }
    let interactor = Prepared::new(&command, &spec.env, &step.workdir)?;
    let (to_interactor_read, to_interactor_write) = cloexec_pipe()?;
    let (to_program_read, to_program_write) = cloexec_pipe()?;
    let (stderr_read, program_stderr) = cloexec_pipe()?;
    let kept_stderr = open_output(&io.stderr)?;
    // Nothing is written to the run's stdout file, but it exists for the host.
    drop(open_output(&io.stdout)?);
    let interactor_stderr = open_output(&step.stderr)?;
    let oom_before = read_oom_kills(spec.oom_file.as_deref());
    let dup = |fd: &OwnedFd| fd.try_clone().map_err(|err| format!("dup: {err}"));
    let launches = vec![
        Launch {
            prepared,
            hold: vec![dup(&to_program_read)?, dup(&to_interactor_write)?],
            drain_after: Some(dup(&to_program_read)?),
            fds: [to_program_read, to_interactor_write, program_stderr],
            drain: Some((stderr_read, kept_stderr)),
            limits: spec.limits,
            uid: spec.uid,
            gid: spec.gid,
        },
        Launch {
            prepared: &interactor,
            hold: vec![dup(&to_interactor_read)?, dup(&to_program_write)?],
            fds: [
                to_interactor_read,
                to_program_write,
                interactor_stderr.into(),
            ],
            drain: None,
            drain_after: None,
            limits: step.limits,
            uid: step.uid,
            gid: step.gid,
        },
    ];
    let (mut outcomes, first) = execute_all(launches)?;
    let oom_after = read_oom_kills(spec.oom_file.as_deref());
    let validator = outcomes.pop().expect("invariant: two outcomes");
    let run = outcomes.pop().expect("invariant: two outcomes");
    Ok(RunReport {
        index,
        exit_code: run.exit_code,
        signal: run.signal,
        cpu_ms: run.cpu_ms,
        wall_ms: run.wall_ms,
        peak_kib: run.peak_kib,
        stdout_bytes: 0,
        oom_kill: matches!((oom_before, oom_after), (Some(a), Some(b)) if b > a),
        wall_timeout: run.wall_timeout,
        exec_error: run.exec_error,
        validator: Some(StepReport {
            exit_code: validator.exit_code,
            signal: validator.signal,
            cpu_ms: validator.cpu_ms,
            wall_ms: validator.wall_ms,
            wall_timeout: validator.wall_timeout,
            exec_error: validator.exec_error,
            ended_first: first == 1,
        }),
        passes: 1,
    })
}

/// Creates the validator's feedback folder, owned by the validator's user.
fn make_feedback_dir(step: &ValidatorStep) -> Result<(), String> {
    if let Some(dir) = &step.feedback_dir {
        std::fs::create_dir(dir).map_err(|err| format!("mkdir {}: {err}", dir.display()))?;
        std::os::unix::fs::chown(dir, Some(step.uid), Some(step.gid))
            .map_err(|err| format!("chown {}: {err}", dir.display()))?;
    }
    Ok(())
}

fn open_input(path: Option<&Path>) -> Result<File, String> {
    match path {
        Some(path) => {
            File::open(path).map_err(|err| format!("cannot open {}: {err}", path.display()))
        }
        None => File::open("/dev/null").map_err(|err| format!("/dev/null: {err}")),
    }
}

fn read_oom_kills(path: Option<&Path>) -> Option<u64> {
    let text = std::fs::read_to_string(path?).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("oom_kill "))
        .and_then(|n| n.trim().parse().ok())
}

/// Copies the regular files directly in `from` (not following links) into `to`.
fn copy_regular_files(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|err| format!("mkdir {}: {err}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|err| format!("read {}: {err}", from.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let dest = to.join(entry.file_name());
        if meta.file_type().is_file() {
            let mut src = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
                .map_err(|err| format!("open {}: {err}", path.display()))?;
            let mut out = open_output(&dest)?;
            std::io::copy(&mut src, &mut out)
                .map_err(|err| format!("copy {}: {err}", path.display()))?;
            std::fs::set_permissions(
                &dest,
                std::os::unix::fs::PermissionsExt::from_mode(meta.mode_bits()),
            )
            .map_err(|err| format!("chmod {}: {err}", dest.display()))?;
        }
    }
    Ok(())
}

trait ModeBits {
    fn mode_bits(&self) -> u32;
}

impl ModeBits for std::fs::Metadata {
    fn mode_bits(&self) -> u32 {
        std::os::unix::fs::PermissionsExt::mode(&self.permissions()) & 0o755
    }
}
