//! Per-sandbox cgroups on the host for the bubblewrap backend (as root): a memory limit
//! enforced by the kernel, the OOM-kill counter, a pids limit and a CPU quota (the sandbox's
//! CPU allowance: `cpus` periods of CPU time per period of wall time, all threads
//! together, as Docker's `nano_cpus`). Both cgroup v1 (`/sys/fs/cgroup/memory`,
//! `/sys/fs/cgroup/pids`, `/sys/fs/cgroup/cpu`: `cpu.cfs_quota_us`) and v2 (unified:
//! `cpu.max`) are supported, and a cpuset: the cores the sandbox was lent
//! ([`super::cores`]), so that its programs run on them alone (v1: `/sys/fs/cgroup/cpuset`;
//! v2: `cpuset.cpus`).

use std::path::{Path, PathBuf};

use super::{CPU_PERIOD_US, CgroupVersion};
use crate::{Error, Result};

const PARENT: &str = "arena-judge";

/// The cgroups of one sandbox.
#[derive(Debug)]
pub(crate) struct Cgroup {
    version: CgroupVersion,
    /// The memory cgroup folder (v1) or the unified one (v2).
    pub(crate) memory_dir: PathBuf,
    /// The pids cgroup folder (v1 only; v2 uses `memory_dir`).
    pids_dir: Option<PathBuf>,
    /// The CPU cgroup folder (v1 only; v2 uses `memory_dir`).
    cpu_dir: Option<PathBuf>,
    /// The cpuset cgroup folder (v1 only; v2 uses `memory_dir`).
    cpuset_dir: Option<PathBuf>,
}

fn write(path: &Path, value: &str) -> Result<()> {
    std::fs::write(path, value).map_err(|source| Error::Io {
        what: "cannot write cgroup file",
        path: path.to_path_buf(),
        source,
    })
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map(|text| text.trim().to_owned())
        .map_err(|source| Error::Io {
            what: "cannot read cgroup file",
            path: path.to_path_buf(),
            source,
        })
}

fn mkdir(path: &Path) -> Result<()> {
    match std::fs::create_dir(path) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(source) => Err(Error::Io {
            what: "cannot create cgroup",
            path: path.to_path_buf(),
            source,
        }),
    }
}

impl Cgroup {
    /// Creates the cgroups named `name` with a pids limit, a quota of `cpus` CPUs and the
    /// cores `cores` (a kernel CPU list).
    pub(crate) fn create(name: &str, pids: u64, cpus: u32, cores: &str) -> Result<Cgroup> {
        let quota = (CPU_PERIOD_US * u64::from(cpus.max(1))).to_string();
        let period = CPU_PERIOD_US.to_string();
        let version = super::cgroup_version();
        let root = Path::new("/sys/fs/cgroup");
        let cgroup = match version {
            CgroupVersion::V1 => {
                let memory_parent = root.join("memory").join(PARENT);
                let pids_parent = root.join("pids").join(PARENT);
                // `cpu` is often a link to the joint `cpu,cpuacct` hierarchy.
                let cpu_parent = root.join("cpu").join(PARENT);
                let cpuset_root = root.join("cpuset");
                let cpuset_parent = cpuset_root.join(PARENT);
                mkdir(&memory_parent)?;
                mkdir(&pids_parent)?;
                mkdir(&cpu_parent)?;
                mkdir(&cpuset_parent)?;
                // A v1 cpuset starts empty: the parent takes the root's cores and memory
                // nodes, the child its cores and the parent's nodes.
                let mems = read(&cpuset_root.join("cpuset.mems"))?;
                for file in ["cpuset.cpus", "cpuset.mems"] {
                    if read(&cpuset_parent.join(file))?.is_empty() {
                        write(&cpuset_parent.join(file), &read(&cpuset_root.join(file))?)?;
                    }
                }
                let memory_dir = memory_parent.join(name);
                let pids_dir = pids_parent.join(name);
                let cpu_dir = cpu_parent.join(name);
                let cpuset_dir = cpuset_parent.join(name);
                mkdir(&memory_dir)?;
                mkdir(&pids_dir)?;
                mkdir(&cpu_dir)?;
                mkdir(&cpuset_dir)?;
                let cgroup = Cgroup {
                    version,
                    memory_dir,
                    pids_dir: Some(pids_dir),
                    cpu_dir: Some(cpu_dir),
                    cpuset_dir: Some(cpuset_dir),
                };
                let set = || -> Result<()> {
                    let pids_dir = cgroup.pids_dir.as_ref().expect("invariant: v1 has pids");
                    let cpu_dir = cgroup.cpu_dir.as_ref().expect("invariant: v1 has cpu");
                    let cpuset_dir = cgroup
                        .cpuset_dir
                        .as_ref()
                        .expect("invariant: v1 has cpuset");
                    write(&pids_dir.join("pids.max"), &pids.to_string())?;
                    write(&cpu_dir.join("cpu.cfs_period_us"), &period)?;
                    write(&cpu_dir.join("cpu.cfs_quota_us"), &quota)?;
                    write(&cpuset_dir.join("cpuset.cpus"), cores)?;
                    write(&cpuset_dir.join("cpuset.mems"), &mems)
                };
                if let Err(err) = set() {
                    cgroup.remove();
                    return Err(err);
                }
                cgroup
            }
            CgroupVersion::V2 => {
                let controllers = "+memory +pids +cpu +cpuset";
                let _ = write(&root.join("cgroup.subtree_control"), controllers);
                let parent = root.join(PARENT);
                mkdir(&parent)?;
                write(&parent.join("cgroup.subtree_control"), controllers)?;
                let memory_dir = parent.join(name);
                mkdir(&memory_dir)?;
                let cgroup = Cgroup {
                    version,
                    memory_dir,
                    pids_dir: None,
                    cpu_dir: None,
                    cpuset_dir: None,
                };
                let set = || -> Result<()> {
                    write(&cgroup.memory_dir.join("pids.max"), &pids.to_string())?;
                    write(
                        &cgroup.memory_dir.join("cpu.max"),
                        &format!("{quota} {period}"),
                    )?;
                    write(&cgroup.memory_dir.join("cpuset.cpus"), cores)
                };
                if let Err(err) = set() {
                    cgroup.remove();
                    return Err(err);
                }
                let _ = write(&cgroup.memory_dir.join("memory.swap.max"), "0");
                cgroup
            }
        };
        Ok(cgroup)
    }

    /// Sets the memory limit (no swap beyond it).
    pub(crate) fn set_memory(&self, bytes: u64) -> Result<()> {
        let value = bytes.to_string();
        match self.version {
            CgroupVersion::V1 => {
                let mem = self.memory_dir.join("memory.limit_in_bytes");
                let memsw = self.memory_dir.join("memory.memsw.limit_in_bytes");
                // memsw may never be below mem: raise memsw first, lower mem first.
                if memsw.exists() {
                    let current: u64 = std::fs::read_to_string(&mem)
                        .ok()
                        .and_then(|t| t.trim().parse().ok())
                        .unwrap_or(0);
                    if bytes > current {
                        write(&memsw, &value)?;
                        write(&mem, &value)
                    } else {
                        write(&mem, &value)?;
                        write(&memsw, &value)
                    }
                } else {
                    write(&mem, &value)
                }
            }
            CgroupVersion::V2 => write(&self.memory_dir.join("memory.max"), &value),
        }
    }

    /// The files whose `cgroup.procs` a process writes itself into to join.
    pub(crate) fn procs_files(&self) -> Vec<PathBuf> {
        let mut res = vec![self.memory_dir.join("cgroup.procs")];
        res.extend(self.pids_dir.iter().map(|d| d.join("cgroup.procs")));
        res.extend(self.cpu_dir.iter().map(|d| d.join("cgroup.procs")));
        res.extend(self.cpuset_dir.iter().map(|d| d.join("cgroup.procs")));
        res
    }

    /// The OOM counter file's name inside `memory_dir`.
    pub(crate) fn oom_file_name(&self) -> &'static str {
        match self.version {
            CgroupVersion::V1 => "memory.oom_control",
            CgroupVersion::V2 => "memory.events",
        }
    }

    /// Removes the cgroups (their processes must be gone; retried briefly).
    pub(crate) fn remove(&self) {
        let dirs = std::iter::once(&self.memory_dir)
            .chain(self.pids_dir.iter())
            .chain(self.cpu_dir.iter())
            .chain(self.cpuset_dir.iter());
        for dir in dirs {
            for _ in 0..50 {
                if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
    }
}
