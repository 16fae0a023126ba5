//! Starting the programs and waiting for them: the supervisor's one wait loop.
//!
//! Per run this costs as few system calls as it can, since it is the judge's overhead
//! on every test (`judge bench`):
//! - a process is started with `clone(CLONE_VM | CLONE_VFORK)` on a stack of its own,
//!   as `posix_spawn` does, not with `fork`: no page table is copied and the supervisor
//!   takes no copy-on-write faults afterwards;
//! - the supervisor has no helper thread: one `poll` loop waits for the children's ends
//!   (`SIGCHLD`, read from a `signalfd`), drains each submission's standard error pipe,
//!   and wakes at the nearest wall-clock deadline.
//!
//! The wall clock counts the time a program ran or waited on its own (sleep, input), not
//! the time it waited for a CPU that other work held: that wait (the kernel's run delay
//! of its most delayed thread, `/proc/PID/task/TID/schedstat`) moves its deadline later,
//! so a loaded machine does not turn an honest run into TLE. The credit is at most the
//! deadline itself, so a program whose own processes keep each other waiting (a fork
//! bomb) is still killed by twice its wall limit. The run delay is read only when a
//! deadline is reached, never on a run that ends in time.

// Starting a process under another user with limits needs clone, rlimits, setuid and
// exec, and the wait loop needs poll, signalfd and wait4: there is no safe std API for
// these. Each unsafe block is a single libc call (or the child's pre-exec sequence) with
// its invariant stated beside it.

use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use judge_supervisor::protocol::{JobLimits, STDERR_KEPT_BYTES};

/// Everything the child needs, allocated before it is started (the child may not
/// allocate).
pub(crate) struct Prepared {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    workdir: CString,
}

impl Prepared {
    /// The command (its program looked up in the `PATH` of `env`), its environment and
    /// its working folder.
    pub(crate) fn new(
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

/// Where a process's standard error goes.
pub(crate) enum Stderr {
    /// Straight to a file, under the output limit (a validator's, a compile log).
    File(File),
    /// Through a pipe to this file, which keeps the first [`STDERR_KEPT_BYTES`] (a
    /// submission's: standard error never makes an output-limit verdict).
    Kept(File),
}

/// What one process run measured.
pub(crate) struct Outcome {
    pub(crate) exit_code: Option<i32>,
    pub(crate) signal: Option<i32>,
    pub(crate) cpu_ms: f64,
    pub(crate) wall_ms: f64,
    pub(crate) peak_kib: u64,
    pub(crate) wall_timeout: bool,
    pub(crate) exec_error: Option<String>,
}

/// One process to start: its command, standard streams, limits and user.
pub(crate) struct Launch<'a> {
    pub(crate) prepared: &'a Prepared,
    pub(crate) fds: [OwnedFd; 3],
    /// Descriptors the supervisor keeps open until this process has been reaped.
    pub(crate) hold: Vec<OwnedFd>,
    /// The read end of the pipe that is the process's standard error, and the file that
    /// keeps its first [`STDERR_KEPT_BYTES`] (the rest is read and dropped).
    pub(crate) drain: Option<(OwnedFd, File)>,
    /// A pipe's read end the supervisor keeps open once this process has been reaped,
    /// reading and dropping what comes: an interactive program's standard input, so that
    /// an interactor still writing to a program that has ended is not refused (`EPIPE`),
    /// as under DOMjudge's runpipe and BAPCtools, whose interactors may rely on it.
    pub(crate) drain_after: Option<OwnedFd>,
    pub(crate) limits: JobLimits,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
}

/// Starts `prepared` as `uid` under `limits` with the given standard streams, waits for
/// it, and leaves no process of `uid` behind.
pub(crate) fn execute(
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
        drain_after: None,
        limits: *limits,
        uid,
        gid,
    };
    let (mut res, _) = execute_all(vec![launch])?;
    Ok(res.remove(0))
}

/// A started process while the loop waits for it.
struct Started {
    pid: libc::pid_t,
    exec_read: OwnedFd,
    wall: Duration,
    /// When to look at the clock again: the wall limit plus the run delay credited so far.
    check_at: Duration,
    killed: bool,
    /// Its status, resource usage and wall time in milliseconds, once reaped.
    reaped: Option<(i32, libc::rusage, f64)>,
}

/// Starts every process at once (an interactive pair shares pipes), waits for all of
/// them, kills each at its own wall-clock limit, and leaves no process of their users
/// behind. Returns the outcomes in launch order and the index of the launch that was
/// reaped first; each launch's `hold` descriptors are closed as soon as it has been
/// reaped, so the others see its end only after the supervisor has.
pub(crate) fn execute_all(mut launches: Vec<Launch<'_>>) -> Result<(Vec<Outcome>, usize), String> {
    let children = child_signals()?;
    let mut drains = launches
        .iter_mut()
        .filter_map(|launch| launch.drain.take())
        .map(|(from, to)| Drain::new(from, Some(to)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut drain_after: Vec<Option<OwnedFd>> =
        launches.iter_mut().map(|l| l.drain_after.take()).collect();
    let started = Instant::now();
    let mut procs = Vec::with_capacity(launches.len());
    for launch in &launches {
        let (pid, exec_read) = spawn(launch)?;
        let wall = Duration::from_millis(launch.limits.wall_ms);
        procs.push(Started {
            pid,
            exec_read,
            wall,
            check_at: wall,
            killed: false,
            reaped: None,
        });
    }
    // Our copies of the children's streams (pipe ends included) must close, or a reader
    // would never see the end of its input.
    let users: Vec<(u32, u32)> = launches.iter().map(|l| (l.uid, l.gid)).collect();
    let mut holds: Vec<Vec<OwnedFd>> = launches.into_iter().map(|l| l.hold).collect();
    let mut first_reaped = None;
    loop {
        let before = procs.iter().filter(|p| p.reaped.is_some()).count();
        reap_children(&mut procs, &mut holds, &mut first_reaped, started)?;
        if procs.iter().filter(|p| p.reaped.is_some()).count() > before {
            for (proc, after) in procs.iter().zip(drain_after.iter_mut()) {
                if let (Some(_), Some(fd)) = (proc.reaped, after.take()) {
                    drains.push(Drain::new(fd, None)?);
                }
            }
        }
        if procs.iter().all(|p| p.reaped.is_some()) {
            break;
        }
        let now = started.elapsed();
        let mut wake: Option<Duration> = None;
        for proc in procs.iter_mut().filter(|p| p.reaped.is_none() && !p.killed) {
            if now >= proc.check_at {
                let credit = run_delay(proc.pid).min(proc.wall);
                if now.saturating_sub(credit) >= proc.wall {
                    // SAFETY: kill with integer arguments; the group id is the child's
                    // session.
                    unsafe { libc::kill(-proc.pid, libc::SIGKILL) };
                    proc.killed = true;
                    continue;
                }
                proc.check_at = proc.wall + credit;
            }
            let left = proc.check_at.saturating_sub(now);
            wake = Some(wake.map_or(left, |w| w.min(left)));
        }
        wait_ready(children, &mut drains, wake)?;
    }
    // Nothing of the programs may outlive the run: their sessions, then every process of
    // their users (double forks that left the session included).
    for proc in &procs {
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
    // Every process that held a pipe's write end is gone: each drain reaches its end.
    while drains.iter().any(|d| d.open) {
        wait_ready(children, &mut drains, None)?;
    }
    let cpu = |tv: libc::timeval| tv.tv_sec as f64 * 1000.0 + tv.tv_usec as f64 / 1000.0;
    let mut res = Vec::with_capacity(procs.len());
    for proc in procs {
        let (status, usage, wall_ms) = proc.reaped.expect("invariant: every child was reaped");
        let mut exec_error = String::new();
        let _ = File::from(proc.exec_read).read_to_string(&mut exec_error);
        res.push(Outcome {
            exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            cpu_ms: cpu(usage.ru_utime) + cpu(usage.ru_stime),
            wall_ms,
            peak_kib: usage.ru_maxrss.max(0) as u64,
            wall_timeout: proc.killed,
            exec_error: (!exec_error.is_empty()).then_some(exec_error),
        });
    }
    Ok((res, first_reaped.unwrap_or(0)))
}

/// Reaps every child that has ended (orphans reparented to us included: only our own
/// children are recorded), in the kernel's order, without waiting.
fn reap_children(
    procs: &mut [Started],
    holds: &mut [Vec<OwnedFd>],
    first_reaped: &mut Option<usize>,
    started: Instant,
) -> Result<(), String> {
    loop {
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid value for this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 with valid pointers to locals.
        let pid = unsafe { libc::wait4(-1, &mut status, libc::WNOHANG, &mut usage) };
        if pid == 0 {
            return Ok(());
        }
        if pid < 0 {
            let err = std::io::Error::last_os_error();
            match err.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::ECHILD) => return Ok(()),
                _ => return Err(format!("wait4: {err}")),
            }
        }
        if let Some(idx) = procs.iter().position(|p| p.pid == pid) {
            procs[idx].reaped = Some((status, usage, started.elapsed().as_secs_f64() * 1000.0));
            first_reaped.get_or_insert(idx);
            // Only now may the other processes see this one's end.
            holds[idx].clear();
        }
    }
}

/// Waits until a child may have ended, a drained pipe has data or has ended, or `wake`
/// has passed (forever when `None`), and drains what the pipes hold.
fn wait_ready(
    children: &OwnedFd,
    drains: &mut [Drain],
    wake: Option<Duration>,
) -> Result<(), String> {
    let mut fds = Vec::with_capacity(1 + drains.len());
    fds.push(libc::pollfd {
        fd: children.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    });
    let open: Vec<usize> = (0..drains.len()).filter(|&i| drains[i].open).collect();
    for &i in &open {
        fds.push(libc::pollfd {
            fd: drains[i].from.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        });
    }
    // Rounded up to the next millisecond, so the loop never wakes just before a deadline.
    let timeout = wake.map_or(-1, |w| {
        i32::try_from(w.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
    });
    // SAFETY: poll on a local array of initialised pollfd structs of the given length.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
    if n < 0 {
        let err = std::io::Error::last_os_error();
        if err.raw_os_error() == Some(libc::EINTR) {
            return Ok(());
        }
        return Err(format!("poll: {err}"));
    }
    if fds[0].revents != 0 {
        // Empty the signal queue: the children are reaped by wait4, whatever it held.
        let mut info = [0u8; 128 * 4];
        // SAFETY: read into a local buffer of the given length.
        while unsafe { libc::read(children.as_raw_fd(), info.as_mut_ptr().cast(), info.len()) } > 0
        {
        }
    }
    for (slot, &i) in open.iter().enumerate() {
        if fds[1 + slot].revents != 0 {
            drains[i].read_available();
        }
    }
    Ok(())
}

/// A pipe read without blocking as data arrives: a submission's standard error, kept in
/// part, or an ended program's standard input, dropped.
struct Drain {
    from: File,
    to: Option<File>,
    kept: u64,
    open: bool,
}

impl Drain {
    fn new(from: OwnedFd, to: Option<File>) -> Result<Drain, String> {
        // SAFETY: fcntl with integer arguments on a descriptor we own; the flag is on our
        // end of the pipe only (the writer's end is another open file description).
        if unsafe { libc::fcntl(from.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) } < 0 {
            return Err(format!(
                "fcntl O_NONBLOCK: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(Drain {
            from: File::from(from),
            to,
            kept: 0,
            open: true,
        })
    }

    /// Copies what the pipe holds now into the kept file, up to [`STDERR_KEPT_BYTES`]
    /// in all, and drops the rest; notes the pipe's end when every writer has closed it.
    fn read_available(&mut self) {
        let mut buf = [0u8; 16 << 10];
        loop {
            match self.from.read(&mut buf) {
                Ok(0) => {
                    self.open = false;
                    return;
                }
                Ok(n) => {
                    let keep = (STDERR_KEPT_BYTES.saturating_sub(self.kept)).min(n as u64);
                    if let Some(to) = &mut self.to
                        && keep > 0
                        && to.write_all(&buf[..keep as usize]).is_ok()
                    {
                        self.kept += keep;
                    }
                }
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.open = false;
                    return;
                }
            }
        }
    }
}

/// The supervisor's `signalfd` for `SIGCHLD`, made once: the signal is blocked in the
/// supervisor (it has a single thread) and read from this descriptor by the wait loop.
fn child_signals() -> Result<&'static OwnedFd, String> {
    static FD: OnceLock<Result<OwnedFd, String>> = OnceLock::new();
    FD.get_or_init(|| {
        // SAFETY: sigset operations on a local set, then sigprocmask and signalfd with
        // valid pointers to it; the returned descriptor is new and owned by nobody else.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCHLD);
            if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
                return Err("cannot block SIGCHLD".to_owned());
            }
            let fd = libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
            if fd < 0 {
                return Err(format!("signalfd: {}", std::io::Error::last_os_error()));
            }
            Ok(OwnedFd::from_raw_fd(fd))
        }
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// What the child reads between `clone` and `execve`: pointers into the parent's memory,
/// which it shares (`CLONE_VM`) and which stays still while the parent waits
/// (`CLONE_VFORK`).
struct ChildArgs<'a> {
    prepared: &'a Prepared,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    rlimits: &'a [(libc::__rlimit_resource_t, u64, u64); 6],
    fds: [libc::c_int; 3],
    exec_write: libc::c_int,
    uid: u32,
    gid: u32,
    /// The signal mask the program starts with (empty).
    exec_mask: &'a libc::sigset_t,
}

/// The child's stack: the child runs only [`child`], a few hundred bytes of frames.
const CHILD_STACK_BYTES: usize = 64 << 10;

/// This process's hard limit of `resource` (RLIM_INFINITY when it cannot be read).
fn hard_limit(resource: libc::__rlimit_resource_t) -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: getrlimit writes the struct we own.
    if unsafe { libc::getrlimit(resource, &mut limit) } != 0 {
        return libc::RLIM_INFINITY;
    }
    limit.rlim_max
}

/// Starts one launch; returns its pid and the read end of its exec-error pipe (which
/// holds why `execve` failed, or nothing).
fn spawn(launch: &Launch<'_>) -> Result<(libc::pid_t, OwnedFd), String> {
    let (exec_read, exec_write) = cloexec_pipe()?;
    let argv = null_terminated(&launch.prepared.argv);
    let envp = null_terminated(&launch.prepared.envp);
    let limits = launch.limits;
    let cpu_seconds = limits.cpu_ms.div_ceil(1000) + 1;
    // Raising a hard limit needs CAP_SYS_RESOURCE, which neither sandbox grants: a
    // larger value (the host's "no bound of its own") stops at the one we have.
    let nproc = limits.processes.min(hard_limit(libc::RLIMIT_NPROC));
    let rlimits = [
        (libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
        (libc::RLIMIT_FSIZE, limits.output_bytes, limits.output_bytes),
        (libc::RLIMIT_STACK, limits.stack_bytes, limits.stack_bytes),
        (libc::RLIMIT_NPROC, nproc, nproc),
        (libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (libc::RLIMIT_CORE, 0, 0),
    ];
    // SAFETY: sigset operations on locals.
    let (all, exec_mask) = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::sigemptyset(&mut empty);
        (all, empty)
    };
    let args = ChildArgs {
        prepared: launch.prepared,
        argv: &argv,
        envp: &envp,
        rlimits: &rlimits,
        fds: [
            launch.fds[0].as_raw_fd(),
            launch.fds[1].as_raw_fd(),
            launch.fds[2].as_raw_fd(),
        ],
        exec_write: exec_write.as_raw_fd(),
        uid: launch.uid,
        gid: launch.gid,
        exec_mask: &exec_mask,
    };
    let mut stack = vec![0u8; CHILD_STACK_BYTES];
    // The stack grows down from its (16-byte aligned) top.
    let top = (stack.as_mut_ptr() as usize + CHILD_STACK_BYTES) & !15;
    // SAFETY: every signal is blocked around clone, so no handler of the supervisor runs
    // in the child while it shares our memory (the child sets its own mask before
    // execve). clone with CLONE_VM | CLONE_VFORK suspends this thread until the child has
    // exec'd or exited, so `args` and `stack` outlive its use of them; the child only
    // makes async-signal-safe calls (raw system calls for the user change) on them.
    let pid = unsafe {
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let pid = libc::clone(
            child_entry,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            std::ptr::from_ref(&args).cast_mut().cast(),
        );
        let err = std::io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if pid < 0 {
            return Err(format!("clone: {err}"));
        }
        pid
    };
    drop(stack);
    Ok((pid, exec_read))
}

/// The child's entry point for `clone`.
extern "C" fn child_entry(args: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `args` is the `ChildArgs` that `spawn` passed, alive while the parent
    // waits for this child to exec or exit.
    unsafe { child(&*args.cast::<ChildArgs<'_>>()) }
}

/// The child between clone and exec. Only async-signal-safe calls, on memory the parent
/// allocated; the user change is made with raw system calls, since glibc's wrappers would
/// coordinate with the threads of the process whose memory the child shares.
///
/// # Safety
/// Must be called only in the child of `spawn`'s clone; it never returns.
unsafe fn child(args: &ChildArgs<'_>) -> ! {
    // SAFETY (whole body): async-signal-safe libc calls on the parent's memory, which
    // the parent does not touch until this child has exec'd or exited.
    unsafe {
        let exec_write = args.exec_write;
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
        // The Rust runtime ignores SIGPIPE, and an ignored signal stays ignored across
        // execve: the program gets the default, as under any shell.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::setsid();
        for (target, fd) in args.fds.iter().enumerate() {
            if libc::dup2(*fd, target as libc::c_int) < 0 {
                fail(b"dup2");
            }
        }
        if libc::chdir(args.prepared.workdir.as_ptr()) < 0 {
            fail(b"chdir");
        }
        for (resource, soft, hard) in args.rlimits {
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
        let no_groups: *const libc::gid_t = std::ptr::null();
        if libc::syscall(libc::SYS_setgroups, 0 as libc::c_long, no_groups) < 0
            || libc::syscall(libc::SYS_setgid, args.gid as libc::c_long) < 0
            || libc::syscall(libc::SYS_setuid, args.uid as libc::c_long) < 0
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
        libc::pthread_sigmask(libc::SIG_SETMASK, args.exec_mask, std::ptr::null_mut());
        libc::execve(
            args.prepared.program.as_ptr(),
            args.argv.as_ptr(),
            args.envp.as_ptr(),
        );
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

/// A pipe whose two ends are closed on exec.
pub(crate) fn cloexec_pipe() -> Result<(OwnedFd, OwnedFd), String> {
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
    // SAFETY: fork of this single-threaded process; the child calls only
    // async-signal-safe functions and _exits.
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
