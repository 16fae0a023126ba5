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

// The supervisor must fork, set rlimits, change user and exec: there is no safe std API
// for these. Each unsafe block is a single libc call (or the child's pre-exec sequence)
// with its invariant stated beside it.
#![allow(unsafe_code)]

use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use judge_supervisor::protocol::{
    Job, JobLimits, Line, RunIo, RunReport, STDERR_KEPT_BYTES, StepReport, ValidatorStep,
};

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

/// Everything the child needs, allocated before `fork` (the child may not allocate).
struct Prepared {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    workdir: CString,
}

impl Prepared {
    fn new(
        command: &[String],
        env: &[(String, String)],
        workdir: &Path,
    ) -> Result<Prepared, String> {
        let first = command.first().ok_or("empty command")?;
        let path_var = env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_str())
            .unwrap_or("/usr/bin:/bin");
        let program = if first.contains('/') {
            PathBuf::from(first)
        } else {
            path_var
                .split(':')
                .map(|dir| Path::new(dir).join(first))
                .find(|candidate| candidate.is_file())
                .ok_or_else(|| format!("`{first}` is not in PATH {path_var}"))?
        };
        let c = |s: &str| CString::new(s).map_err(|_| format!("NUL byte in {s:?}"));
        Ok(Prepared {
            program: c(&program.to_string_lossy())?,
            argv: command.iter().map(|a| c(a)).collect::<Result<_, _>>()?,
            envp: env
                .iter()
                .map(|(k, v)| c(&format!("{k}={v}")))
                .collect::<Result<_, _>>()?,
            workdir: c(&workdir.to_string_lossy())?,
        })
    }
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

fn run_one(spec: &Job, prepared: &Prepared, index: usize, io: &RunIo) -> Result<RunReport, String> {
    if let Some(step) = &io.interactor {
        let report = run_interactive(spec, prepared, index, io, step)?;
        if spec.discard_writes {
            empty_shared_temp()?;
        }
        return Ok(report);
    }
    let passes = io.validator.as_ref().map_or(1, |v| v.passes.max(1));
    let mut input = io.stdin.clone();
    let mut pass = 1;
    let mut report = run_pass(spec, prepared, index, io, input.as_deref())?;
    loop {
        if spec.discard_writes {
            empty_shared_temp()?;
        }
        let next = match (&io.validator, &report.validator) {
            (Some(step), Some(done)) if pass < passes && done.exit_code == Some(42) => {
                step.feedback_dir.as_ref().map(|fb| fb.join("nextpass.in"))
            }
            _ => None,
        };
        // A `nextpass.in` that is not a regular file is left for the host to refuse.
        let Some(next) =
            next.filter(|n| std::fs::symlink_metadata(n).is_ok_and(|m| m.file_type().is_file()))
        else {
            return Ok(report);
        };
        pass += 1;
        let dest = io.stdout.with_extension(format!("pass{pass}.in"));
        std::fs::rename(&next, &dest)
            .and_then(|()| std::os::unix::fs::chown(&dest, Some(0), Some(0)))
            .and_then(|()| {
                std::fs::set_permissions(&dest, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            })
            .map_err(|err| format!("nextpass.in -> {}: {err}", dest.display()))?;
        input = Some(dest);
        let this = run_pass(spec, prepared, index, io, input.as_deref())?;
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

/// One pass of a run: the program on `stdin`, then its output validator when it ended
/// normally in time.
fn run_pass(
    spec: &Job,
    prepared: &Prepared,
    index: usize,
    io: &RunIo,
    stdin: Option<&Path>,
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
        report.validator = Some(validate(spec, io, step)?);
    }
    Ok(report)
}

/// Runs an output validator after a program's run.
fn validate(spec: &Job, io: &RunIo, step: &ValidatorStep) -> Result<StepReport, String> {
    // A later pass keeps the folder and what the validator wrote there (the spec).
    if !step.feedback_dir.as_ref().is_some_and(|d| d.is_dir()) {
        make_feedback_dir(step)?;
    }
    if step.give_output {
        std::os::unix::fs::chown(&io.stdout, Some(step.uid), Some(step.gid))
            .map_err(|err| format!("chown {}: {err}", io.stdout.display()))?;
    }
    let prepared = Prepared::new(&step.command, &spec.env, &step.workdir)?;
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
fn run_interactive(
    spec: &Job,
    prepared: &Prepared,
    index: usize,
    io: &RunIo,
    step: &ValidatorStep,
) -> Result<RunReport, String> {
    make_feedback_dir(step)?;
    let interactor = Prepared::new(&step.command, &spec.env, &step.workdir)?;
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

/// Where a process's standard error goes.
enum Stderr {
    /// Straight to a file, under the output limit (a validator's, a compile log).
    File(File),
    /// Through a pipe to this file, which keeps the first [`STDERR_KEPT_BYTES`] (a
    /// submission's: standard error never makes an output-limit verdict).
    Kept(File),
}

/// Copies the first [`STDERR_KEPT_BYTES`] read from `from` into `to`, then reads and
/// drops the rest, until every writer has closed the pipe.
fn drain_stderr(from: OwnedFd, mut to: File) {
    let mut from = File::from(from);
    let mut buf = vec![0u8; 64 << 10];
    let mut kept = 0u64;
    loop {
        match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                let keep = (STDERR_KEPT_BYTES.saturating_sub(kept)).min(n as u64) as usize;
                if keep > 0 && to.write_all(&buf[..keep]).is_ok() {
                    kept += keep as u64;
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// What one process run measured.
struct Outcome {
    exit_code: Option<i32>,
    signal: Option<i32>,
    cpu_ms: f64,
    wall_ms: f64,
    peak_kib: u64,
    wall_timeout: bool,
    exec_error: Option<String>,
}

/// One process to start: its command, standard streams, limits and user.
struct Launch<'a> {
    prepared: &'a Prepared,
    fds: [OwnedFd; 3],
    /// Descriptors the supervisor keeps open until this process has been reaped.
    hold: Vec<OwnedFd>,
    /// The read end of the pipe that is the process's standard error, and the file that
    /// keeps its first [`STDERR_KEPT_BYTES`] (the rest is read and dropped).
    drain: Option<(OwnedFd, File)>,
    limits: JobLimits,
    uid: u32,
    gid: u32,
}

/// Starts `prepared` as `uid` under `limits` with the given standard streams, waits for
/// it, and leaves no process of `uid` behind.
fn execute(
    prepared: &Prepared,
    stdin: File,
    stdout: &File,
    stderr: Stderr,
    limits: &JobLimits,
    uid: u32,
    gid: u32,
) -> Result<Outcome, String> {
    let stdout = stdout.try_clone().map_err(|err| format!("dup: {err}"))?;
    let (stderr, drain) = match stderr {
        Stderr::File(file) => (file.into(), None),
        Stderr::Kept(file) => {
            let (read, write) = cloexec_pipe()?;
            (write, Some((read, file)))
        }
    };
    let launch = Launch {
        prepared,
        hold: Vec::new(),
        fds: [stdin.into(), stdout.into(), stderr],
        drain,
        limits: *limits,
        uid,
        gid,
    };
    let (mut res, _) = execute_all(vec![launch])?;
    Ok(res.remove(0))
}

/// Starts every process at once (an interactive pair shares pipes), waits for all of
/// them, kills each at its own wall-clock limit,
/// and leaves no process of their users behind. Returns the outcomes in launch order and
/// the index of the launch that was reaped first; each launch's `hold` descriptors are
/// closed as soon as it has been reaped.
///
/// It is long because it is the supervisor's one wait loop: starting, watching the
/// wall clock, reaping and killing share its state, and the order of those steps is the
/// protocol's guarantee of who ended first.
fn execute_all(mut launches: Vec<Launch<'_>>) -> Result<(Vec<Outcome>, usize), String> {
    struct Started {
        pid: libc::pid_t,
        exec_read: OwnedFd,
        wall: Duration,
    }
    // The helper threads start before the first fork: a program that forks without end
    // fills the sandbox's pids cgroup, and a thread started after it could not be (a
    // thread counts there as a process). The children are forked while these threads
    // only wait in `read` or `recv`, holding no lock a child could need: a child calls
    // only async-signal-safe functions on memory allocated before the fork.
    let drains: Vec<_> = launches
        .iter_mut()
        .filter_map(|launch| launch.drain.take())
        .map(|(from, to)| std::thread::spawn(move || drain_stderr(from, to)))
        .collect();
    let ended = std::sync::Arc::new(std::sync::Mutex::new(vec![false; launches.len()]));
    let (cancel, cancelled) = mpsc::channel::<()>();
    let (give_deadlines, deadlines_given) = mpsc::channel::<Vec<(Duration, usize, libc::pid_t)>>();
    let started = Instant::now();
    let killer_ended = ended.clone();
    let killer = std::thread::spawn(move || {
        let mut killed = vec![false; killer_ended.lock().map(|e| e.len()).unwrap_or(0)];
        let Ok(deadlines) = deadlines_given.recv() else {
            return killed;
        };
        'all: for (deadline, idx, pid) in deadlines {
            // The wall clock counts the time the program ran or waited on its own (sleep,
            // input), not the time it waited for a CPU that other work held: that wait
            // (the kernel's run delay of its most delayed thread) moves its deadline later, so
            // a loaded machine does not turn an honest run into TLE. The credit is at most
            // the deadline itself, so a program whose own processes keep each other
            // waiting (a fork bomb) is still killed by twice its wall limit.
            loop {
                let own = started
                    .elapsed()
                    .saturating_sub(run_delay(pid).min(deadline));
                let wait = deadline.saturating_sub(own);
                if wait.is_zero() {
                    break;
                }
                if cancelled.recv_timeout(wait) != Err(mpsc::RecvTimeoutError::Timeout) {
                    break 'all;
                }
            }
            let already = killer_ended.lock().map(|e| e[idx]).unwrap_or(true);
            if !already {
                // SAFETY: kill with integer arguments; the group id is the child's session.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                killed[idx] = true;
            }
        }
        killed
    });
    let mut started_procs = Vec::with_capacity(launches.len());
    for launch in &launches {
        let (exec_read, exec_write) = cloexec_pipe()?;
        let argv = null_terminated(&launch.prepared.argv);
        let envp = null_terminated(&launch.prepared.envp);
        let limits = launch.limits;
        let cpu_seconds = limits.cpu_ms.div_ceil(1000) + 1;
        let rlimits = [
            (libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
            (libc::RLIMIT_FSIZE, limits.output_bytes, limits.output_bytes),
            (libc::RLIMIT_STACK, limits.stack_bytes, limits.stack_bytes),
            (libc::RLIMIT_NPROC, limits.processes, limits.processes),
            (libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
            (libc::RLIMIT_CORE, 0, 0),
        ];
        let fds = [
            launch.fds[0].as_raw_fd(),
            launch.fds[1].as_raw_fd(),
            launch.fds[2].as_raw_fd(),
        ];
        // SAFETY: the helper threads hold no lock (see above; each ends before
        // execute_all returns). The child only calls async-signal-safe functions on
        // memory allocated before the fork, then execs or _exits.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(format!("fork: {}", std::io::Error::last_os_error()));
        }
        if pid == 0 {
            // SAFETY: the child side of fork, see above; never returns.
            unsafe {
                child(
                    launch.prepared,
                    &argv,
                    &envp,
                    &rlimits,
                    fds,
                    exec_write.as_raw_fd(),
                    launch.uid,
                    launch.gid,
                )
            }
        }
        drop(exec_write);
        started_procs.push(Started {
            pid,
            exec_read,
            wall: Duration::from_millis(limits.wall_ms),
        });
    }
    // Our copies of the children's streams (pipe ends included) must close, or a reader
    // would never see the end of its input.
    let users: Vec<(u32, u32)> = launches.iter().map(|l| (l.uid, l.gid)).collect();
    let mut holds: Vec<Vec<OwnedFd>> = launches.into_iter().map(|l| l.hold).collect();
    let mut first_reaped = None;

    // The wall-clock killer kills each child's whole session at its own limit, unless it
    // already ended.
    let mut deadlines: Vec<(Duration, usize, libc::pid_t)> = started_procs
        .iter()
        .enumerate()
        .map(|(i, p)| (p.wall, i, p.pid))
        .collect();
    deadlines.sort();
    let _ = give_deadlines.send(deadlines);

    // SAFETY: zeroed rusage is a valid value for this plain C struct.
    let zero: libc::rusage = unsafe { std::mem::zeroed() };
    let mut results: Vec<Option<(i32, libc::rusage, f64)>> = vec![None; started_procs.len()];
    while results.iter().any(Option::is_none) {
        let mut status = 0;
        let mut usage = zero;
        // SAFETY: wait4 with valid pointers to locals.
        let pid = unsafe { libc::wait4(-1, &mut status, 0, &mut usage) };
        if pid < 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(format!("wait4: {err}"));
        }
        // Orphans reparented to us are reaped here too; only our children count.
        if let Some(idx) = started_procs.iter().position(|p| p.pid == pid) {
            if let Ok(mut e) = ended.lock() {
                e[idx] = true;
            }
            results[idx] = Some((status, usage, started.elapsed().as_secs_f64() * 1000.0));
            first_reaped.get_or_insert(idx);
            // Only now may the other processes see this one's end.
            holds[idx].clear();
        }
    }
    let _ = cancel.send(());
    let killed = killer.join().unwrap_or_default();
    // Nothing of the programs may outlive the run: their sessions, then every process of
    // their users (double forks that left the session included).
    for proc in &started_procs {
        // SAFETY: kill with integer arguments.
        unsafe { libc::kill(-proc.pid, libc::SIGKILL) };
    }
    // We are a subreaper: every surviving descendant is (a descendant of) a child of ours.
    // No child left means nothing survived, and the extra forks are saved.
    if reap_orphans() {
        for _ in 0..1000 {
            for (uid, gid) in &users {
                kill_all_of_user(*uid, *gid);
            }
            if !reap_orphans() {
                break;
            }
            // Killed processes take a moment to become zombies; give them up to a second.
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    // Every process that held a pipe's write end is gone: each drain sees its end.
    for drain in drains {
        let _ = drain.join();
    }
    let cpu = |tv: libc::timeval| tv.tv_sec as f64 * 1000.0 + tv.tv_usec as f64 / 1000.0;
    let mut res = Vec::with_capacity(started_procs.len());
    for (idx, proc) in started_procs.into_iter().enumerate() {
        let (status, usage, wall_ms) = results[idx].expect("invariant: every child was reaped");
        let mut exec_error = String::new();
        let _ = File::from(proc.exec_read).read_to_string(&mut exec_error);
        res.push(Outcome {
            exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            cpu_ms: cpu(usage.ru_utime) + cpu(usage.ru_stime),
            wall_ms,
            peak_kib: usage.ru_maxrss.max(0) as u64,
            wall_timeout: killed.get(idx).copied().unwrap_or(false),
            exec_error: (!exec_error.is_empty()).then_some(exec_error),
        });
    }
    Ok((res, first_reaped.unwrap_or(0)))
}

/// The child between fork and exec. Only async-signal-safe calls.
///
/// # Safety
/// Must be called only in the child of `fork`, with pointers into memory allocated
/// before the fork; it never returns.
#[allow(clippy::too_many_arguments)] // reason: the child may not allocate a struct for these
unsafe fn child(
    prepared: &Prepared,
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    rlimits: &[(libc::__rlimit_resource_t, u64, u64)],
    fds: [libc::c_int; 3],
    exec_write: libc::c_int,
    uid: u32,
    gid: u32,
) -> ! {
    // SAFETY (whole body): async-signal-safe libc calls on pre-allocated memory.
    unsafe {
        let fail = |what: &[u8]| -> ! {
            let errno = *libc::__errno_location();
            libc::write(exec_write, what.as_ptr().cast(), what.len());
            let mut digits = [0u8; 12];
            let mut n = errno.unsigned_abs();
            let mut at = digits.len();
            loop {
                at -= 1;
                digits[at] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            libc::write(exec_write, b" errno ".as_ptr().cast(), 7);
            libc::write(exec_write, digits[at..].as_ptr().cast(), digits.len() - at);
            libc::_exit(127);
        };
        libc::setsid();
        for (target, fd) in fds.iter().enumerate() {
            if libc::dup2(*fd, target as libc::c_int) < 0 {
                fail(b"dup2");
            }
        }
        if libc::chdir(prepared.workdir.as_ptr()) < 0 {
            fail(b"chdir");
        }
        for (resource, soft, hard) in rlimits {
            let limit = libc::rlimit {
                rlim_cur: *soft,
                rlim_max: *hard,
            };
            if libc::setrlimit(*resource, &limit) < 0 {
                fail(b"setrlimit");
            }
        }
        // When the sandbox's memory cgroup is full (files in the tmpfs work folder count),
        // the kernel kills the program, never the supervisor: best effort.
        let adj = libc::open(
            c"/proc/self/oom_score_adj".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if adj >= 0 {
            libc::write(adj, b"1000".as_ptr().cast(), 4);
            libc::close(adj);
        }
        if libc::setgroups(0, std::ptr::null()) < 0
            || libc::setgid(gid) < 0
            || libc::setuid(uid) < 0
        {
            fail(b"cannot drop privileges");
        }
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        // Close every inherited descriptor but the three standard ones and the exec pipe
        // (which is close-on-exec): two close_range calls (Linux 5.9), or one close per
        // descriptor where the kernel or a seccomp filter refuses close_range.
        let below = if exec_write > 3 {
            libc::close_range(3, exec_write as libc::c_uint - 1, 0)
        } else {
            0
        };
        let above = libc::close_range(exec_write as libc::c_uint + 1, libc::c_uint::MAX, 0);
        if below < 0 || above < 0 {
            for fd in 3..1024 {
                if fd != exec_write {
                    libc::close(fd);
                }
            }
        }
        libc::execve(prepared.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(b"execve");
    }
}

/// The C array of pointers `execve` wants, ending with a null pointer.
fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

fn cloexec_pipe() -> Result<(OwnedFd, OwnedFd), String> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the local array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(format!("pipe2: {}", std::io::Error::last_os_error()));
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Kills every process of `uid` in this PID namespace: a helper child becomes `uid` and
/// sends SIGKILL to -1 (all processes it may signal), twice to catch forks in flight.
fn kill_all_of_user(uid: u32, gid: u32) {
    // SAFETY: fork; the child calls only async-signal-safe functions and _exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: child side, async-signal-safe calls only.
        unsafe {
            if libc::setgid(gid) == 0 && libc::setuid(uid) == 0 {
                libc::kill(-1, libc::SIGKILL);
                libc::kill(-1, libc::SIGKILL);
            }
            libc::_exit(0);
        }
    }
    if pid > 0 {
        let mut status = 0;
        // SAFETY: waitpid with a valid pointer to a local.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
}

/// Reaps children that were reparented to us (we are a subreaper); true when some child
/// is still alive.
fn reap_orphans() -> bool {
    loop {
        let mut status = 0;
        // SAFETY: waitpid with a valid pointer to a local.
        let res = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if res == 0 {
            return true;
        }
        if res < 0 {
            return false;
        }
    }
}

/// The longest time any thread of process `pid` has waited on a run queue for a CPU (the
/// second field of `/proc/PID/task/TID/schedstat`, nanoseconds): a JVM runs the program
/// in a thread of its own while its first thread sleeps. Zero when it cannot be read.
fn run_delay(pid: libc::pid_t) -> Duration {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Duration::ZERO;
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let text = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            text.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .max()
        .map_or(Duration::ZERO, Duration::from_nanos)
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
