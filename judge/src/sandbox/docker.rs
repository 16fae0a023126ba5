//! The Docker backend, through bollard (the only module that uses it): one container per
//! submission from the locally imported sandbox image, never privileged, no network, a
//! read-only root filesystem, tmpfs work folders, memory (no swap), pids and CPU limits,
//! every capability dropped but those the supervisor needs, `no-new-privileges`.
//!
//! The container's main process is the idle supervisor (it reaps orphans). Each job is
//! one `docker exec` of the supervisor, which runs all of the job's runs and streams one
//! JSON line per run; the memory limit is updated before each job (compile, then tests).

use std::collections::HashMap;
use std::ops::ControlFlow;

use bollard::Docker;
use bollard::exec::{CreateExecOptions, StartExecOptions, StartExecResults};
use bollard::models::{ContainerCreateBody, ContainerUpdateBody, HostConfig};
use bollard::query_parameters::{
    CreateContainerOptions, RemoveContainerOptions, StartContainerOptions,
};
use futures_util::StreamExt;

use super::cores::CoreLease;
use super::{Backend, CgroupVersion, Job, JobEnd, LineParser, RunReport, SandboxConfig, Workspace};
use crate::{Error, Result};

const BACKEND: &str = "docker";

/// Memory of the container before the first job sets it.
const START_MEMORY: i64 = 256 * 1024 * 1024;

fn failed(why: impl std::fmt::Display) -> Error {
    Error::Sandbox {
        backend: BACKEND,
        why: why.to_string(),
    }
}

/// Connects to the local daemon and agrees on an API version.
pub async fn connect() -> Result<Docker> {
    let docker = Docker::connect_with_local_defaults().map_err(|err| Error::Unavailable {
        backend: BACKEND,
        why: format!("cannot connect to the daemon: {err}"),
    })?;
    let docker = docker
        .negotiate_version()
        .await
        .map_err(|err| Error::Unavailable {
            backend: BACKEND,
            why: format!("no Docker daemon answers ({err}); start one (ci/setup does)"),
        })?;
    Ok(docker)
}

/// One submission's container.
pub struct DockerSandbox {
    docker: Docker,
    id: String,
    /// The cores of its `cpuset_cpus`, lent until it is dropped.
    _cores: CoreLease,
}

impl DockerSandbox {
    /// Creates and starts the container.
    pub async fn open(
        config: &SandboxConfig,
        ws: &Workspace,
        cores: CoreLease,
    ) -> Result<DockerSandbox> {
        let docker = connect().await?;
        if docker.inspect_image(&config.image).await.is_err() {
            return Err(Error::Unavailable {
                backend: BACKEND,
                why: format!(
                    "the image {} is missing (run ci/setup, or set ARENA_IMAGE)",
                    config.image
                ),
            });
        }
        let bind = |host: &std::path::Path, inside: &str, mode: &str| {
            format!("{}:{inside}:{mode}", host.display())
        };
        let tmpfs: HashMap<String, String> = [
            (
                "/box".to_owned(),
                "rw,exec,nosuid,nodev,size=512m,uid=65534,gid=65534,mode=0755".to_owned(),
            ),
            (
                "/tmp".to_owned(),
                "rw,exec,nosuid,nodev,size=64m,mode=1777".to_owned(),
            ),
            (
                "/validator".to_owned(),
                "rw,exec,nosuid,nodev,size=256m,uid=65533,gid=65533,mode=0700".to_owned(),
            ),
        ]
        .into_iter()
        .collect();
        let host_config = HostConfig {
            binds: Some(vec![
                bind(&config.supervisor, "/judge/supervisor", "ro"),
                bind(&ws.host_in(), "/judge/in", "ro"),
                bind(&ws.host_out(), "/judge/out", "rw"),
                bind(&ws.host_src(), "/judge/src", "ro"),
                bind(&ws.host_ans(), "/judge/ans", "ro"),
            ]),
            tmpfs: Some(tmpfs),
            network_mode: Some("none".to_owned()),
            readonly_rootfs: Some(true),
            privileged: Some(false),
            cap_drop: Some(vec!["ALL".to_owned()]),
            cap_add: Some(
                ["SETUID", "SETGID", "KILL", "CHOWN", "DAC_OVERRIDE"]
                    .map(str::to_owned)
                    .to_vec(),
            ),
            security_opt: Some(vec!["no-new-privileges".to_owned()]),
            memory: Some(START_MEMORY),
            memory_swap: Some(START_MEMORY),
            pids_limit: Some(256),
            nano_cpus: Some(i64::from(config.cpus()) * 1_000_000_000),
            cpuset_cpus: Some(cores.list()),
            ipc_mode: Some("private".to_owned()),
            ..Default::default()
        };
        let body = ContainerCreateBody {
            image: Some(config.image.clone()),
            cmd: Some(vec!["/judge/supervisor".to_owned(), "idle".to_owned()]),
            user: Some("0:0".to_owned()),
            working_dir: Some("/box".to_owned()),
            network_disabled: Some(true),
            hostname: Some("sandbox".to_owned()),
            env: Some(vec![
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_owned(),
            ]),
            host_config: Some(host_config),
            ..Default::default()
        };
        let created = docker
            .create_container(None::<CreateContainerOptions>, body)
            .await
            .map_err(|err| failed(format!("create container: {err}")))?;
        let sandbox = DockerSandbox {
            docker,
            id: created.id,
            _cores: cores,
        };
        if let Err(err) = sandbox
            .docker
            .start_container(&sandbox.id, None::<StartContainerOptions>)
            .await
        {
            let why = format!("start container: {err}");
            sandbox.close().await;
            return Err(failed(why));
        }
        Ok(sandbox)
    }

    async fn set_memory(&self, bytes: u64) -> Result<()> {
        let bytes = i64::try_from(bytes).map_err(|_| failed("memory limit out of range"))?;
        let update = ContainerUpdateBody {
            memory: Some(bytes),
            memory_swap: Some(bytes),
            ..Default::default()
        };
        self.docker
            .update_container(&self.id, update)
            .await
            .map_err(|err| failed(format!("update memory: {err}")))
    }
}

impl Backend for DockerSandbox {
    async fn exec(
        &mut self,
        ws: &mut Workspace,
        mut job: Job,
        memory_bytes: u64,
        on_report: &mut (dyn FnMut(RunReport) -> ControlFlow<()> + Send),
    ) -> Result<JobEnd> {
        self.set_memory(memory_bytes).await?;
        job.oom_file = Some(match super::cgroup_version() {
            CgroupVersion::V1 => "/sys/fs/cgroup/memory/memory.oom_control".into(),
            CgroupVersion::V2 => "/sys/fs/cgroup/memory.events".into(),
        });
        let job_path = ws.write_job(&job)?;
        let exec = self
            .docker
            .create_exec(
                &self.id,
                CreateExecOptions {
                    cmd: Some(vec![
                        "/judge/supervisor".to_owned(),
                        job_path.display().to_string(),
                    ]),
                    attach_stdout: Some(true),
                    attach_stderr: Some(true),
                    user: Some("0:0".to_owned()),
                    working_dir: Some("/box".to_owned()),
                    ..Default::default()
                },
            )
            .await
            .map_err(|err| failed(format!("create exec: {err}")))?;
        let started = self
            .docker
            .start_exec(
                &exec.id,
                Some(StartExecOptions {
                    detach: false,
                    tty: false,
                    output_capacity: Some(1 << 20),
                }),
            )
            .await
            .map_err(|err| failed(format!("start exec: {err}")))?;
        let StartExecResults::Attached { mut output, .. } = started else {
            return Err(failed("exec started detached"));
        };
        let mut parser = LineParser::new(BACKEND);
        let mut stderr = String::new();
        while let Some(chunk) = output.next().await {
            match chunk.map_err(|err| failed(format!("exec output: {err}")))? {
                // Stop: kill every process of the submission; the container stays for
                // close() to remove.
                bollard::container::LogOutput::StdOut { message }
                    if parser.feed(&message, on_report)?.is_break() =>
                {
                    let kill = None::<bollard::query_parameters::KillContainerOptions>;
                    let _ = self.docker.kill_container(&self.id, kill).await;
                    return Ok(JobEnd::Stopped);
                }
                bollard::container::LogOutput::StdErr { message } => {
                    stderr.push_str(&String::from_utf8_lossy(&message));
                }
                _ => {}
            }
        }
        if !parser.done {
            let inspect = self.docker.inspect_exec(&exec.id).await.ok();
            let code = inspect.and_then(|i| i.exit_code);
            return Err(failed(format!(
                "the supervisor ended early (exit {code:?}): {}",
                stderr.trim()
            )));
        }
        Ok(JobEnd::Completed)
    }

    async fn close(self) {
        let options = RemoveContainerOptions {
            force: true,
            ..Default::default()
        };
        let _ = self.docker.remove_container(&self.id, Some(options)).await;
    }
}
