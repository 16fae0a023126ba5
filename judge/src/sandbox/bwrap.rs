//! The bubblewrap backend: the same supervisor over the same root filesystem, in fresh
//! PID, network, IPC and UTS namespaces, with a memory, pids and CPU cgroup per sandbox
//! created on the host (as root); the CPU cgroup's quota is the sandbox's CPU allowance, as
//! Docker's `nano_cpus`. The root filesystem is bound read-only; the work folder `/box`
//! is a size-limited tmpfs (a new one for each job, filled by the supervisor's copy-in);
//! the supervisor keeps only the capabilities it needs (bubblewrap drops all others).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::io::AsyncReadExt;

use super::cgroup::Cgroup;
use super::cores::CoreLease;
use super::{Backend, Job, JobEnd, LineParser, RunReport, SandboxConfig, Workspace};
use crate::{Error, Result};

const BACKEND: &str = "bwrap";
const BWRAP: &str = "/usr/bin/bwrap";
/// Size of the `/tmp` tmpfs: 64 MiB, as Docker's.
const TMP_BYTES: u64 = 64 << 20;

/// Size of the `/box` tmpfs: 512 MiB, as Docker's (`sandbox::docker`).
const BOX_BYTES: u64 = 512 * 1024 * 1024;

/// One submission's bubblewrap sandbox.
#[derive(Debug)]
pub struct BwrapSandbox {
    rootfs: PathBuf,
    supervisor: PathBuf,
    cgroup: Cgroup,
    /// The cores its cgroup's cpuset holds, lent until it is dropped.
    _cores: CoreLease,
}

fn unavailable(why: String) -> Error {
    Error::Unavailable {
        backend: BACKEND,
        why,
    }
}

impl BwrapSandbox {
    /// Checks the pieces and creates the cgroups.
    pub fn open(config: &SandboxConfig, cores: CoreLease) -> Result<BwrapSandbox> {
        if !Path::new(BWRAP).is_file() {
            return Err(unavailable(format!(
                "{BWRAP} is missing (apt-get install bubblewrap, or run ci/setup)"
            )));
        }
        if !config.rootfs.join("usr/bin").is_dir() {
            return Err(unavailable(format!(
                "no root filesystem at {} (run ci/setup, or set ARENA_ROOTFS)",
                config.rootfs.display()
            )));
        }
        if !["judge/in", "judge/ans", "box", "validator"]
            .iter()
            .all(|dir| config.rootfs.join(dir).is_dir())
        {
            return Err(unavailable(format!(
                "the root filesystem {} lacks the mount points /judge/in, /judge/ans, /box or /validator (run ci/setup)",
                config.rootfs.display()
            )));
        }
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let name = format!(
            "{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let cgroup = Cgroup::create(&name, 256, config.cpus(), &cores.list())
            .map_err(|err| unavailable(format!("cgroups (root is needed): {err}")))?;
        Ok(BwrapSandbox {
            rootfs: config.rootfs.clone(),
            supervisor: config.supervisor.clone(),
            cgroup,
            _cores: cores,
        })
    }

    fn command(&self, ws: &Workspace, job_path: &Path) -> tokio::process::Command {
        // The shell writes its own pid into the cgroups, then becomes bwrap.
        let procs = self.cgroup.procs_files();
        let script = r#"n=$1; shift; i=0; while [ "$i" -lt "$n" ]; do echo $$ > "$1" || exit 97; shift; i=$((i+1)); done; exec "$@""#;
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.env_clear()
            .arg("-c")
            .arg(script)
            .arg("sh")
            .arg(procs.len().to_string())
            .args(&procs);
        let bind = |cmd: &mut tokio::process::Command, flag: &str, from: &Path, to: &str| {
            cmd.arg(flag).arg(from).arg(to);
        };
        cmd.arg(BWRAP);
        bind(&mut cmd, "--ro-bind", &self.rootfs, "/");
        cmd.args(["--dev", "/dev", "--proc", "/proc"]);
        // `/tmp` as Docker's: 64 MiB, sticky and writable by all (validators' scripts make
        // their temporary files there; `mktemp` failed in a root-owned 0755 one).
        cmd.args([
            "--size",
            &TMP_BYTES.to_string(),
            "--perms",
            "01777",
            "--tmpfs",
            "/tmp",
        ]);
        // The work folder is a tmpfs of the same size as Docker's, not a host folder: a
        // program that fills it must not fill the host's disk, and its pages count
        // towards the sandbox's memory cgroup as under Docker. Sticky and writable by
        // all (bubblewrap cannot set its owner); the supervisor copies the job's files in.
        cmd.args([
            "--size",
            &BOX_BYTES.to_string(),
            "--perms",
            "01777",
            "--tmpfs",
            "/box",
        ]);
        bind(&mut cmd, "--ro-bind", &ws.host_in(), "/judge/in");
        bind(&mut cmd, "--bind", &ws.host_out(), "/judge/out");
        bind(&mut cmd, "--ro-bind", &ws.host_src(), "/judge/src");
        bind(&mut cmd, "--ro-bind", &ws.host_ans(), "/judge/ans");
        bind(&mut cmd, "--bind", &ws.host_validator(), "/validator");
        bind(&mut cmd, "--ro-bind", &self.supervisor, "/judge/supervisor");
        bind(
            &mut cmd,
            "--ro-bind",
            &self.cgroup.memory_dir,
            "/judge/cgroup",
        );
        cmd.args([
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "sandbox",
        ]);
        for cap in [
            "CAP_SETUID",
            "CAP_SETGID",
            "CAP_KILL",
            "CAP_CHOWN",
            "CAP_DAC_OVERRIDE",
        ] {
            cmd.args(["--cap-add", cap]);
        }
        cmd.args(["--chdir", "/box", "/judge/supervisor"])
            .arg(job_path);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        cmd
    }
}

impl Backend for BwrapSandbox {
    async fn exec(
        &mut self,
        ws: &mut Workspace,
        mut job: Job,
        memory_bytes: u64,
        on_report: &mut (dyn FnMut(RunReport) -> ControlFlow<()> + Send),
    ) -> Result<JobEnd> {
        self.cgroup.set_memory(memory_bytes)?;
        job.oom_file = Some(Path::new("/judge/cgroup").join(self.cgroup.oom_file_name()));
        let job_path = ws.write_job(&job)?;
        let mut child = self
            .command(ws, &job_path)
            .spawn()
            .map_err(|err| Error::Sandbox {
                backend: BACKEND,
                why: format!("cannot start {BWRAP}: {err}"),
            })?;
        let mut stdout = child.stdout.take().expect("invariant: stdout is piped");
        let mut stderr = child.stderr.take().expect("invariant: stderr is piped");
        let stderr_task = tokio::spawn(async move {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text).await;
            String::from_utf8_lossy(&text).into_owned()
        });
        let mut parser = LineParser::new(BACKEND);
        let mut buf = vec![0u8; 16 * 1024];
        let mut stopped = false;
        loop {
            let n = stdout.read(&mut buf).await.map_err(|err| Error::Sandbox {
                backend: BACKEND,
                why: format!("reading the supervisor: {err}"),
            })?;
            if n == 0 {
                break;
            }
            if parser.feed(&buf[..n], on_report)?.is_break() {
                stopped = true;
                let _ = child.kill().await;
                break;
            }
        }
        let status = child.wait().await.map_err(|err| Error::Sandbox {
            backend: BACKEND,
            why: format!("waiting for bwrap: {err}"),
        })?;
        if stopped {
            return Ok(JobEnd::Stopped);
        }
        if !parser.done {
            let stderr = stderr_task.await.unwrap_or_default();
            return Err(Error::Sandbox {
                backend: BACKEND,
                why: format!("the supervisor ended early ({status}): {}", stderr.trim()),
            });
        }
        Ok(JobEnd::Completed)
    }

    async fn close(self) {
        self.cgroup.remove();
    }
}
