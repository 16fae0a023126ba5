//! Sandboxes: where submissions run. One contract ([`Backend`]), two backends that give
//! the same verdicts on the same corpus: Docker through bollard ([`docker`]) and
//! bubblewrap over the same root filesystem ([`bwrap`]).
//!
//! Both run the same supervisor (`judge-supervisor`) inside the sandbox, which starts every
//! program as an unprivileged user under limits and reports each run as one JSON line.
//! The job it reads ([`Job`], with [`JobLimits`], [`RunIo`], [`ValidatorStep`]) and the
//! lines it prints ([`Line`]: a [`RunReport`] per run, the end, or its own failure) are
//! the types of `judge_supervisor::protocol`, re-exported here: the supervisor compiles
//! the same module, and each side rejects a field it does not know, so the two cannot
//! drift apart silently. A line the host cannot read fails the job, naming the line.
//! Host folders are bound into the sandbox at fixed places:
//! - `/judge/in` (read-only, mode 0700 root): job files and test inputs; the submission
//!   cannot read it, the supervisor opens inputs for it;
//! - `/judge/out` (mode 0711 root): outputs and logs, created 0600 by the supervisor;
//! - `/judge/src` (read-only): the files copied into the work folder before a job;
//! - `/box`: the work folder, writable by the unprivileged user: a tmpfs of 512 MiB on
//!   both backends (not a host folder), whose pages count towards the memory cgroup;
//! - `/judge/ans` (mode 0700, owned by the validator's user): test inputs and judge
//!   answers for the output validator, which the submission cannot read;
//! - `/validator`: the output validator's work folder, owned by the validator's user;
//! - `/judge/supervisor`: the supervisor binary (read-only).
//!
//! Judge answers never enter the sandbox: outputs are compared on the host.

pub mod bwrap;
mod cgroup;
pub mod cores;
pub mod docker;
mod pool;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::{Error, Result};
pub use pool::WorkspacePool;

/// The unprivileged user and group submissions run as (`nobody` in Debian).
pub const SANDBOX_UID: u32 = 65534;

/// The user output validators run as: neither root nor the submission's user, so the
/// submission cannot read the answers or tamper with the validator.
pub const VALIDATOR_UID: u32 = 65533;

/// RLIMIT_NPROC of the programs that run as [`SANDBOX_UID`] or [`VALIDATOR_UID`]: no bound
/// of its own. Those users are shared by every sandbox on the host and RLIMIT_NPROC
/// counts a user's tasks machine-wide, so any finite value let one sandbox's fork bomb
/// make another sandbox's threads fail (`pthread_create`: EAGAIN; a JVM judged beside the
/// hostile corpus could not start). Each sandbox's pids cgroup (256 tasks, both backends)
/// is the bound. (The supervisor lowers it to its own hard limit, which it may not raise.)
pub const USER_PROCESSES: u64 = u64::MAX;

/// Memory above the problem's limit that the sandbox's cgroup allows, for the supervisor
/// and the work folder: a program between the two limits is MLE by its peak; one above
/// is killed by the kernel and MLE by the OOM counter.
pub const MEMORY_HEADROOM: u64 = 64 * 1024 * 1024;

/// Which backend runs the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// Docker through bollard: one container per submission.
    Docker,
    /// bubblewrap namespaces over the same root filesystem, with a memory cgroup per job.
    Bwrap,
}

impl BackendKind {
    /// The backend's name.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Docker => "docker",
            BackendKind::Bwrap => "bwrap",
        }
    }
}

/// Where the sandbox's pieces are on this machine.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// The Docker image (`arena-sandbox:<recipe hash>`).
    pub image: String,
    /// The root filesystem tree for bubblewrap.
    pub rootfs: PathBuf,
    /// The supervisor binary on the host.
    pub supervisor: PathBuf,
    /// The recipe hash: identifies the toolchains (part of the compile cache key).
    pub recipe_hash: String,
    /// The CPUs' worth of time a sandbox may use per second of wall time, as a kernel
    /// quota (Docker `nano_cpus`; bubblewrap's host CPU cgroup): `None` is
    /// [`DEFAULT_CPUS`]. Set by the command line (`--cpus`) or the contest file (`cpus`).
    pub cpus: Option<u32>,
    /// Finished work folders kept for the next judgement (shared by the clones).
    pub workspaces: WorkspacePool,
}

/// The CPU allowance of a sandbox when neither the command nor the contest names one.
pub const DEFAULT_CPUS: u32 = 1;

/// The CFS period of the bubblewrap backend's CPU quota (Docker uses the same, 100 ms).
pub const CPU_PERIOD_US: u64 = 100_000;

const RECIPE: &[u8] = include_bytes!("../../../ci/sandbox/rootfs.recipe");

impl SandboxConfig {
    /// Finds the image, root filesystem and supervisor: `ARENA_IMAGE`, `ARENA_ROOTFS` and
    /// `JUDGE_SUPERVISOR` when set, else the names derived from the SHA-256 of the
    /// embedded recipe (`ci/sandbox/rootfs.recipe`), the cache folder (`ARENA_CACHE` or
    /// `~/.cache/arena`), and the supervisor embedded in this library, installed once under
    /// the cache's `supervisor/<digest>/` (see [`crate::supervisor`]).
    pub fn discover() -> Result<SandboxConfig> {
        let recipe_hash = hex::encode(sha2::Sha256::digest(RECIPE))[..12].to_owned();
        let cache = crate::cache_dir();
        let image =
            std::env::var("ARENA_IMAGE").unwrap_or_else(|_| format!("arena-sandbox:{recipe_hash}"));
        let rootfs = std::env::var_os("ARENA_ROOTFS")
            .map(PathBuf::from)
            .unwrap_or_else(|| cache.join("rootfs").join(&recipe_hash));
        let supervisor = match std::env::var_os("JUDGE_SUPERVISOR") {
            Some(path) => PathBuf::from(path),
            None => crate::supervisor::install(&cache.join("supervisor"))?,
        };
        Ok(SandboxConfig {
            image,
            rootfs,
            supervisor,
            recipe_hash,
            cpus: None,
            workspaces: WorkspacePool::default(),
        })
    }

    /// The CPU allowance of each sandbox: [`SandboxConfig::cpus`], else [`DEFAULT_CPUS`].
    pub fn cpus(&self) -> u32 {
        self.cpus.unwrap_or(DEFAULT_CPUS).max(1)
    }
}

pub use judge_supervisor::protocol::{
    Job, JobLimits, Line, RunIo, RunReport, STDERR_KEPT_BYTES, StepReport, ValidatorStep,
};

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobEnd {
    /// Every run was reported.
    Completed,
    /// The caller asked to stop; the sandbox's processes were killed.
    Stopped,
}

/// Parses supervisor output lines ([`Line`]), calling `on_report` for each run.
pub(crate) struct LineParser {
    buffer: Vec<u8>,
    /// Lines read so far, to name a line in an error.
    line_count: usize,
    pub(crate) done: bool,
    backend: &'static str,
}

impl LineParser {
    pub(crate) fn new(backend: &'static str) -> LineParser {
        LineParser {
            buffer: Vec::new(),
            line_count: 0,
            done: false,
            backend,
        }
    }

    /// Feeds bytes; returns `Break` when `on_report` asked to stop.
    pub(crate) fn feed(
        &mut self,
        bytes: &[u8],
        on_report: &mut dyn FnMut(RunReport) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>> {
        self.buffer.extend_from_slice(bytes);
        while let Some(pos) = self.buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=pos).collect();
            self.line_count += 1;
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            let parsed: Line = serde_json::from_str(text).map_err(|err| Error::Sandbox {
                backend: self.backend,
                why: format!(
                    "supervisor output line {} `{text}` is not a protocol line: {err}",
                    self.line_count
                ),
            })?;
            match parsed {
                Line::Run(report) => {
                    if on_report(report).is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                Line::Done {} => self.done = true,
                Line::Error(error) => {
                    return Err(Error::Sandbox {
                        backend: self.backend,
                        why: format!("supervisor: {error}"),
                    });
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// The host side of one submission's sandbox: its folders.
#[derive(Debug)]
pub struct Workspace {
    /// `None` only while being dropped.
    dir: Option<tempfile::TempDir>,
    job_count: usize,
    /// Where the folder goes when it is dropped after [`Workspace::sandbox_closed`].
    pool: Option<WorkspacePool>,
    closed: bool,
}

impl Workspace {
    /// Creates the host folders (in the system temp folder), deleted when dropped.
    pub fn new() -> Result<Workspace> {
        Workspace::prepare(None, None)
    }

    /// Takes a kept folder from `pool` (or creates one), which goes back to the pool when
    /// it is dropped after [`Workspace::sandbox_closed`], and is deleted otherwise.
    pub fn pooled(pool: &WorkspacePool) -> Result<Workspace> {
        Workspace::prepare(pool.take(), Some(pool.clone()))
    }

    /// Says that the sandbox that used this folder has been closed: nothing writes in it
    /// any more, so it may serve another judgement once dropped.
    pub fn sandbox_closed(&mut self) {
        self.closed = true;
    }

    fn prepare(kept: Option<tempfile::TempDir>, pool: Option<WorkspacePool>) -> Result<Workspace> {
        let reused = kept.is_some();
        let dir = match kept {
            Some(dir) => dir,
            None => tempfile::Builder::new()
                .prefix("judge-")
                .tempdir()
                .map_err(|source| Error::Io {
                    what: "cannot create a work folder in",
                    path: std::env::temp_dir(),
                    source,
                })?,
        };
        let root = dir.path().to_path_buf();
        let ws = Workspace {
            dir: Some(dir),
            job_count: 0,
            pool,
            closed: false,
        };
        for (sub, mode) in [
            ("in", 0o700),
            // Traversable but not listable: the validator's user reaches its feedback
            // folder and (testlib) the output handed to it; every other file in it is
            // created 0600 by root.
            ("out", 0o711),
            ("src", 0o755),
            ("ans", 0o700),
            ("validator", 0o700),
        ] {
            let path = root.join(sub);
            if !reused {
                std::fs::create_dir(&path).map_err(|source| Error::Io {
                    what: "cannot create",
                    path: path.clone(),
                    source,
                })?;
            }
            set_mode(&path, mode)?;
        }
        for (dir, owner) in [
            (ws.host_ans(), VALIDATOR_UID),
            (ws.host_validator(), VALIDATOR_UID),
        ] {
            std::os::unix::fs::chown(&dir, Some(owner), Some(owner)).map_err(|source| {
                Error::Io {
                    what: "cannot hand over",
                    path: dir,
                    source,
                }
            })?;
        }
        set_mode(&root, 0o755)?;
        Ok(ws)
    }

    fn root(&self) -> &Path {
        self.dir
            .as_ref()
            .expect("invariant: the folder is taken only on drop")
            .path()
    }

    /// The host folder bound at `/judge/in`.
    pub fn host_in(&self) -> PathBuf {
        self.root().join("in")
    }

    /// The host folder bound at `/judge/out`.
    pub fn host_out(&self) -> PathBuf {
        self.root().join("out")
    }

    /// The host folder bound at `/judge/src`.
    pub fn host_src(&self) -> PathBuf {
        self.root().join("src")
    }

    /// The host folder bound at `/judge/ans`.
    pub fn host_ans(&self) -> PathBuf {
        self.root().join("ans")
    }

    /// The host folder bound at `/validator` by bubblewrap (Docker uses a tmpfs).
    pub fn host_validator(&self) -> PathBuf {
        self.root().join("validator")
    }

    /// Places a file for the output validator at `/judge/ans/<name>`.
    pub fn add_for_validator(&self, name: &str, from: &Path) -> Result<PathBuf> {
        link_or_copy(from, &self.host_ans().join(name))?;
        Ok(Path::new("/judge/ans").join(name))
    }

    /// Places a test input at `/judge/in/<name>` (a hard link where possible).
    pub fn add_input(&self, name: &str, from: &Path) -> Result<PathBuf> {
        link_or_copy(from, &self.host_in().join(name))?;
        Ok(Path::new("/judge/in").join(name))
    }

    /// Writes the job file and returns its sandbox path.
    pub(crate) fn write_job(&mut self, job: &Job) -> Result<PathBuf> {
        self.job_count += 1;
        let name = format!("job-{}.json", self.job_count);
        let path = self.host_in().join(&name);
        let text = serde_json::to_vec(job).expect("invariant: a Job serializes");
        std::fs::write(&path, text).map_err(|source| Error::Io {
            what: "cannot write",
            path,
            source,
        })?;
        Ok(Path::new("/judge/in").join(name))
    }

    /// The host path of a file the sandbox wrote under `/judge/out`.
    pub fn host_out_file(&self, sandbox_path: &Path) -> PathBuf {
        let rel = sandbox_path
            .strip_prefix("/judge/out")
            .unwrap_or(sandbox_path);
        self.host_out().join(rel)
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if let (Some(dir), Some(pool), true) = (self.dir.take(), &self.pool, self.closed) {
            pool.give(dir);
        }
    }
}

/// Hard-links `from` at `to` (same inode, same modes: the folder's mode protects it), or
/// copies it across file systems.
fn link_or_copy(from: &Path, to: &Path) -> Result<()> {
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).map_err(|source| Error::Io {
            what: "cannot copy",
            path: from.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}

fn set_mode(path: &Path, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(|source| {
        Error::Io {
            what: "cannot chmod",
            path: path.to_path_buf(),
            source,
        }
    })
}

/// Which cgroup version the host mounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgroupVersion {
    /// Separate hierarchies per controller (`/sys/fs/cgroup/memory`).
    V1,
    /// The unified hierarchy (`/sys/fs/cgroup/cgroup.controllers`).
    V2,
}

/// Detects the host's cgroup version.
pub fn cgroup_version() -> CgroupVersion {
    if Path::new("/sys/fs/cgroup/cgroup.controllers").exists() {
        CgroupVersion::V2
    } else {
        CgroupVersion::V1
    }
}

/// The contract both backends fulfil for one submission.
pub trait Backend {
    /// Runs one supervisor job with the sandbox's memory limit set to `memory_bytes`,
    /// calling `on_report` as each run finishes; when it returns `Break`, the job's
    /// processes are killed and the job ends as [`JobEnd::Stopped`].
    fn exec(
        &mut self,
        ws: &mut Workspace,
        job: Job,
        memory_bytes: u64,
        on_report: &mut (dyn FnMut(RunReport) -> ControlFlow<()> + Send),
    ) -> impl std::future::Future<Output = Result<JobEnd>> + Send;

    /// Releases the sandbox (container, cgroups).
    fn close(self) -> impl std::future::Future<Output = ()> + Send;
}

/// An open sandbox of either backend.
pub enum Sandbox {
    /// A Docker container.
    Docker(docker::DockerSandbox),
    /// A bubblewrap sandbox.
    Bwrap(bwrap::BwrapSandbox),
}

impl Sandbox {
    /// Opens a sandbox for one submission.
    pub async fn open(
        kind: BackendKind,
        config: &SandboxConfig,
        ws: &Workspace,
    ) -> Result<Sandbox> {
        // Its own cores for as long as it is open (waiting for them when all are lent).
        let cores = cores::lease(config.cpus()).await;
        Ok(match kind {
            BackendKind::Docker => {
                Sandbox::Docker(docker::DockerSandbox::open(config, ws, cores).await?)
            }
            BackendKind::Bwrap => Sandbox::Bwrap(bwrap::BwrapSandbox::open(config, cores)?),
        })
    }

    /// See [`Backend::exec`].
    pub async fn exec(
        &mut self,
        ws: &mut Workspace,
        job: Job,
        memory_bytes: u64,
        on_report: &mut (dyn FnMut(RunReport) -> ControlFlow<()> + Send),
    ) -> Result<JobEnd> {
        match self {
            Sandbox::Docker(it) => it.exec(ws, job, memory_bytes, on_report).await,
            Sandbox::Bwrap(it) => it.exec(ws, job, memory_bytes, on_report).await,
        }
    }

    /// See [`Backend::close`].
    pub async fn close(self) {
        match self {
            Sandbox::Docker(it) => it.close().await,
            Sandbox::Bwrap(it) => it.close().await,
        }
    }
}

/// The environment of every program in the sandbox.
pub fn sandbox_env() -> Vec<(String, String)> {
    [
        (
            "PATH",
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ),
        ("HOME", "/box"),
        ("TMPDIR", "/tmp"),
        ("LANG", "C.UTF-8"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> RunReport {
        RunReport {
            index: 0,
            exit_code: Some(0),
            signal: None,
            cpu_ms: 1.5,
            wall_ms: 2.0,
            peak_kib: 100,
            stdout_bytes: 3,
            oom_kill: false,
            wall_timeout: false,
            exec_error: None,
            validator: None,
            passes: 1,
        }
    }

    #[test]
    fn supervisor_lines_are_parsed_across_chunks() {
        let mut parser = LineParser::new("test");
        let mut seen = Vec::new();
        let line = serde_json::to_string(&Line::Run(report())).expect("serializes");
        let (a, b) = line.split_at(40);
        let mut on_report = |r| {
            seen.push(r);
            ControlFlow::Continue(())
        };
        assert_eq!(
            parser.feed(a.as_bytes(), &mut on_report).expect("ok"),
            ControlFlow::Continue(())
        );
        assert!(!parser.done);
        assert_eq!(
            parser
                .feed(
                    format!("{b}\n{{\"done\":{{}}}}\n").as_bytes(),
                    &mut on_report
                )
                .expect("ok"),
            ControlFlow::Continue(())
        );
        assert_eq!(seen, [report()]);
        assert!(parser.done);
        let err = LineParser::new("test")
            .feed(
                b"{\"error\":\"boom\"}\n",
                &mut |_| ControlFlow::Continue(()),
            )
            .expect_err("fails");
        assert_eq!(err.to_string(), "the test sandbox failed: supervisor: boom");
        // A `Break` stops at once: the second report is not delivered.
        let mut count = 0;
        let two = format!("{line}\n{line}\n");
        let flow = LineParser::new("test")
            .feed(two.as_bytes(), &mut |_| {
                count += 1;
                ControlFlow::Break(())
            })
            .expect("ok");
        assert_eq!((flow, count), (ControlFlow::Break(()), 1));
    }

    #[test]
    fn a_supervisor_line_with_an_unknown_field_is_an_error_naming_the_line() {
        let good = serde_json::to_string(&Line::Run(report())).expect("serializes");
        let bad = good.replacen("\"index\"", "\"unexpected\":1,\"index\"", 1);
        let mut count = 0;
        let err = LineParser::new("test")
            .feed(format!("{good}\n\n{bad}\n").as_bytes(), &mut |_| {
                count += 1;
                ControlFlow::Continue(())
            })
            .expect_err("an unknown field is refused");
        let err = err.to_string();
        assert_eq!(count, 1, "the good line before it was delivered");
        assert!(
            err.contains("supervisor output line 3 ")
                && err.contains(&bad)
                && err.contains("unknown field `unexpected`"),
            "{err}"
        );
        // The same for an unknown kind of line and for an unknown field of the end line.
        for bad in [r#"{"finished":{}}"#, r#"{"done":{"unexpected":1}}"#] {
            let err = LineParser::new("test")
                .feed(format!("{bad}\n").as_bytes(), &mut |_| {
                    ControlFlow::Continue(())
                })
                .expect_err("refused")
                .to_string();
            assert!(
                err.contains("supervisor output line 1 ") && err.contains(bad),
                "{err}"
            );
        }
    }

    #[test]
    fn the_job_file_is_the_protocol_job() {
        let mut ws = Workspace::new().expect("workspace");
        let job = Job {
            uid: SANDBOX_UID,
            gid: SANDBOX_UID,
            workdir: "/box".into(),
            copy_in: vec![("/judge/src/a".into(), "/box/a".into(), Some(VALIDATOR_UID))],
            command: vec!["./a".to_owned()],
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: 1,
                wall_ms: 2,
                output_bytes: 3,
                stack_bytes: 4,
                processes: 5,
                open_files: 6,
            },
            oom_file: None,
            runs: vec![RunIo::logged(Path::new("/judge/out/log"))],
            copy_out: Some("/judge/out/build".into()),
            discard_writes: false,
        };
        let path = ws.write_job(&job).expect("written");
        assert_eq!(path, Path::new("/judge/in/job-1.json"));
        let text = std::fs::read(ws.host_in().join("job-1.json")).expect("read");
        let back: Job = serde_json::from_slice(&text).expect("the supervisor's reading");
        assert_eq!(back, job);
    }
}
