//! Compiling the submission and the output validator in the sandbox, each as one job, with
//! a cache of builds keyed by the SHA-256 of the recipe hash, language, command, source
//! name and source. A build's files end up in `/judge/src/<unit>/build/`, for the test
//! job to copy in.

use std::ops::ControlFlow;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sha2::Digest;

use super::{Checker, CompileInfo, Ctx, Submission};
use crate::sandbox::{Job, JobLimits, RunIo, SANDBOX_UID, VALIDATOR_UID, sandbox_env};
use crate::{Error, Result};

/// What is being compiled: the submission or the output validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Submission,
    Validator,
}

impl Unit {
    fn tag(self) -> &'static str {
        match self {
            Unit::Submission => "submission",
            Unit::Validator => "validator",
        }
    }

    /// The sandbox folder holding the unit's source and build.
    fn src_dir(self) -> PathBuf {
        Path::new("/judge/src").join(self.tag())
    }

    /// The sandbox folder holding the unit's build.
    pub(super) fn build_dir(self) -> PathBuf {
        self.src_dir().join("build")
    }

    /// The unit's work folder: it compiles and runs there.
    pub(super) fn workdir(self) -> &'static str {
        match self {
            Unit::Submission => "/box",
            Unit::Validator => "/validator",
        }
    }

    /// The user it compiles and runs as.
    pub(super) fn uid(self) -> u32 {
        match self {
            Unit::Submission => SANDBOX_UID,
            Unit::Validator => VALIDATOR_UID,
        }
    }
}

impl Ctx<'_> {
    /// Compiles the custom output validator, when the problem has one; returns its build's
    /// file names. A validator that does not compile is the judge's failure.
    pub(super) async fn compile_validator(&mut self) -> Result<Option<Vec<String>>> {
        let checker = self.checker;
        let Checker::Custom { unit, .. } = checker else {
            return Ok(None);
        };
        let (info, build) = self.compile(unit, Unit::Validator).await?;
        match build {
            Some(build) => Ok(Some(build)),
            None => Err(Error::Unsupported(format!(
                "the output validator does not compile:\n{}",
                info.log
            ))),
        }
    }

    /// Compiles `source` as `unit` (or takes the build from the cache); returns the build's
    /// file names, or `None` on a compile error.
    pub(super) async fn compile(
        &mut self,
        source: &Submission,
        unit: Unit,
    ) -> Result<(CompileInfo, Option<Vec<String>>)> {
        let limits = &self.problem.limits;
        let lang = &source.language;
        let source_name = lang.source_name(&source.source);
        let command = lang.command(
            &lang.compile,
            &source.source,
            limits.memory_bytes.div_ceil(1024 * 1024),
        );
        let key = cache_key(&self.config.recipe_hash, source, &command, &source_name);
        let host_unit = self.ws.host_src().join(unit.tag());
        let host_build = host_unit.join("build");
        create_unit_dirs(unit, &host_unit, &host_build)?;
        let cached = self
            .options
            .cache_dir
            .as_ref()
            .map(|dir| dir.join(&key))
            .filter(|dir| dir.join(".complete").is_file());
        if let Some(dir) = cached {
            let names = copy_files(&dir, &host_build)?;
            let info = CompileInfo {
                cached: true,
                ok: true,
                log: String::new(),
                cpu_ms: 0.0,
                wall_ms: 0.0,
            };
            return Ok((info, Some(names)));
        }
        let host_source = host_unit.join(&source_name);
        std::fs::write(&host_source, source.source.as_bytes()).map_err(|err| Error::Io {
            what: "cannot write",
            path: host_source,
            source: err,
        })?;
        let compile_ms = limits.compilation_time.as_millis() as u64;
        let log = format!("/judge/out/{}-compile.log", unit.tag());
        let out_build = format!("/judge/out/{}-build", unit.tag());
        let job = Job {
            uid: unit.uid(),
            gid: unit.uid(),
            workdir: unit.workdir().into(),
            copy_in: vec![(
                unit.src_dir().join(&source_name),
                Path::new(unit.workdir()).join(&source_name),
                None,
            )],
            command,
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: compile_ms,
                wall_ms: compile_ms,
                output_bytes: 256 * 1024 * 1024,
                stack_bytes: 64 * 1024 * 1024,
                processes: 512,
                open_files: 1024,
            },
            oom_file: None,
            runs: vec![RunIo::logged(Path::new(&log))],
            copy_out: Some(out_build.clone().into()),
        };
        let mut report = None;
        self.sandbox
            .exec(
                &mut self.ws,
                job,
                limits.compilation_memory_bytes.min(4 << 30),
                &mut |run| {
                    report = Some(run);
                    ControlFlow::Continue(())
                },
            )
            .await?;
        let backend = self.options.backend.name();
        let run = report.ok_or_else(|| Error::Sandbox {
            backend,
            why: "no compile report".to_owned(),
        })?;
        if let Some(err) = &run.exec_error {
            return Err(Error::Sandbox {
                backend,
                why: format!("cannot start the compiler: {err}"),
            });
        }
        let mut log = std::fs::read(self.ws.host_out_file(Path::new(&log))).unwrap_or_default();
        log.truncate(64 * 1024);
        let mut log = String::from_utf8_lossy(&log).into_owned();
        let ok = run.exit_code == Some(0) && !run.wall_timeout;
        if run.wall_timeout {
            log.push_str(&format!(
                "\ncompilation killed at the limit of {compile_ms} ms"
            ));
        } else if run.oom_kill {
            log.push_str("\ncompilation killed at the memory limit");
        }
        let info = CompileInfo {
            cached: false,
            ok,
            log,
            cpu_ms: run.cpu_ms,
            wall_ms: run.wall_ms,
        };
        if !ok {
            return Ok((info, None));
        }
        let build_dir = self.ws.host_out_file(Path::new(&out_build));
        let names = copy_files(&build_dir, &host_build)?;
        if let Some(cache) = &self.options.cache_dir {
            store_in_cache(&build_dir, &cache.join(&key));
        }
        Ok((info, Some(names)))
    }
}

/// The cache key of a build: the hex SHA-256 of the recipe hash, the language id, the
/// compile command, the source name and the source, each followed by a zero byte.
fn cache_key(
    recipe_hash: &str,
    source: &Submission,
    command: &[String],
    source_name: &str,
) -> String {
    let mut hasher = sha2::Sha256::new();
    for part in [
        recipe_hash,
        source.language.id.as_str(),
        &command.join("\u{1f}"),
        source_name,
        &source.source,
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())
}

/// Creates the unit's host folders (`/judge/src/<unit>/` and its `build/`); the
/// validator's are its user's alone: the submission may not read the validator (nor
/// anything it reads).
fn create_unit_dirs(unit: Unit, host_unit: &Path, host_build: &Path) -> Result<()> {
    std::fs::create_dir_all(host_build).map_err(|source| Error::Io {
        what: "cannot create",
        path: host_build.to_path_buf(),
        source,
    })?;
    if unit == Unit::Validator {
        for dir in [host_unit, host_build] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .and_then(|()| {
                    std::os::unix::fs::chown(dir, Some(VALIDATOR_UID), Some(VALIDATOR_UID))
                })
                .map_err(|source| Error::Io {
                    what: "cannot protect",
                    path: dir.to_path_buf(),
                    source,
                })?;
        }
    }
    Ok(())
}

/// Copies the regular files of `from` into `to`; returns their names, sorted.
fn copy_files(from: &Path, to: &Path) -> Result<Vec<String>> {
    let io = |path: &Path, source| Error::Io {
        what: "cannot copy build file",
        path: path.to_path_buf(),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(from).map_err(|e| io(from, e))? {
        let entry = entry.map_err(|e| io(from, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || !entry
                .file_type()
                .map_err(|e| io(&entry.path(), e))?
                .is_file()
        {
            continue;
        }
        std::fs::copy(entry.path(), to.join(&name)).map_err(|e| io(&entry.path(), e))?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}

/// Stores a build in the cache (best effort: a failure only costs a later recompile).
fn store_in_cache(build: &Path, dest: &Path) {
    let Some(parent) = dest.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let Ok(tmp) = tempfile::Builder::new().prefix(".tmp-").tempdir_in(parent) else {
        return;
    };
    if copy_files(build, tmp.path()).is_ok()
        && std::fs::write(tmp.path().join(".complete"), b"").is_ok()
    {
        let tmp = tmp.keep();
        if std::fs::rename(&tmp, dest).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
}
