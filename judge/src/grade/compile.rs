//! Compiling the submission and the output validator in the sandbox, each as one job, with
//! a cache of builds keyed by the SHA-256 of the recipe hash, language, command and every
//! file (name and content). A unit's files are in `/judge/src/<unit>/files/`, copied into
//! its work folder to compile; the build (the work folder's regular files afterwards) ends
//! up in `/judge/src/<unit>/build/`, for the test job to copy in.
//!
//! A validator program (see `problems`' `ValidatorProgram`) is built the way problemtools
//! and DOMjudge build one: every file of its folder is copied in (headers beside the
//! sources), the sources of its language are compiled together by the language table's
//! command, or its `build` script runs and its `run` script is the program.

use std::ops::ControlFlow;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sha2::Digest;

use problems::{Limits, ValidatorProgram};

use super::{Checker, CompileInfo, Ctx, Submission};
use crate::sandbox::{
    Job, JobLimits, RunIo, SANDBOX_UID, Sandbox, SandboxConfig, VALIDATOR_UID, Workspace,
    sandbox_env,
};
use crate::{Error, Result};

/// The compile command of a program with `build`/`run` scripts: the `build` script, when
/// there is one, then a check that `run` exists.
const SCRIPTS_BUILD: &str = "chmod u+x build run 2>/dev/null; \
    if [ -f build ]; then ./build || exit $?; fi; \
    if [ ! -f run ]; then echo 'no run script after build' >&2; exit 1; fi; chmod u+x run";

/// What is compiled: files written into the unit's source folder, the compile command run
/// in its work folder, and the language (for the cache key).
#[derive(Debug, Clone)]
pub(super) struct Recipe {
    /// The language id, or `scripts` for `build`/`run`.
    pub(super) language: String,
    /// File names and contents.
    pub(super) files: Vec<(String, Vec<u8>)>,
    /// The compile command.
    pub(super) command: Vec<String>,
}

impl Recipe {
    /// A submission's: its one source under the language's source name.
    pub(super) fn submission(submission: &Submission, limits: &Limits) -> Recipe {
        let lang = &submission.language;
        Recipe {
            language: lang.id.clone(),
            files: vec![(
                lang.source_name(&submission.source),
                submission.source.clone().into_bytes(),
            )],
            command: lang.command(
                &lang.compile,
                &submission.source,
                limits.memory_bytes.div_ceil(1024 * 1024),
            ),
        }
    }
}

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

/// A validator program (output validator, interactor or input validator) ready to build:
/// its recipe and the command that runs the build.
#[derive(Debug, Clone)]
pub(super) struct ProgramBuild {
    /// What it is, for messages (`output_validators/check (C++: validate.cc)`).
    pub(super) name: String,
    pub(super) recipe: Recipe,
    /// The command that runs it (its arguments are added by the caller).
    pub(super) run: Vec<String>,
}

impl ProgramBuild {
    /// Reads every file of `program` and decides how to compile and run it: the language
    /// table's commands over every source of its language, or its `build`/`run` scripts.
    /// `memory_mib` fills `{memory_mib}`.
    pub(super) fn read(
        program: &ValidatorProgram,
        root: &Path,
        memory_mib: u64,
    ) -> Result<ProgramBuild> {
        let described = program.describe(root);
        let scripts = program.build_script || program.run_script;
        let language = if scripts {
            None
        } else {
            program.language.map(|l| l.id())
        };
        let main = program.main.as_deref();
        let mut files = Vec::with_capacity(program.files.len());
        for name in &program.files {
            let path = program.folder.join(name);
            let text = std::fs::read(&path).map_err(|source| Error::Io {
                what: "cannot read",
                path,
                source,
            })?;
            files.push((name.clone(), text));
        }
        let (language, command, run) = match (scripts, language, main) {
            (true, _, _) => (
                "scripts".to_owned(),
                vec![
                    "/bin/sh".to_owned(),
                    "-c".to_owned(),
                    SCRIPTS_BUILD.to_owned(),
                ],
                vec!["./run".to_owned()],
            ),
            (false, Some(id), Some(main)) => {
                let lang = crate::lang::by_id(id)?;
                let text = files
                    .iter()
                    .find(|(name, _)| name == main)
                    .map(|(_, text)| String::from_utf8_lossy(text).into_owned())
                    .unwrap_or_default();
                let class = if id == "java" {
                    main.trim_end_matches(".java").to_owned()
                } else {
                    crate::lang::Language::class_name(&text)
                };
                let compile =
                    lang.program_command(&lang.compile, main, &class, &program.sources, memory_mib);
                let run =
                    lang.program_command(&lang.run, main, &class, &program.sources, memory_mib);
                (lang.id, compile, run)
            }
            _ => {
                return Err(Error::Unsupported(format!(
                    "{described}: no build script and no source to build"
                )));
            }
        };
        Ok(ProgramBuild {
            name: described,
            recipe: Recipe {
                language,
                files,
                command,
            },
            run,
        })
    }
}

impl Ctx<'_> {
    /// Compiles the custom output validator, when the problem has one; returns its build's
    /// file names. A validator that does not compile is the judge's failure, naming the
    /// validator and giving the compiler's output.
    pub(super) async fn compile_validator(&mut self) -> Result<Option<Vec<String>>> {
        let checker = self.checker;
        let Checker::Custom { program, .. } = checker else {
            return Ok(None);
        };
        let (info, build) = self.compile(&program.recipe, Unit::Validator).await?;
        match build {
            Some(build) => Ok(Some(build)),
            None => Err(does_not_compile("output validator", &program.name, &info)),
        }
    }

    /// Compiles `recipe` as `unit` (or takes the build from the cache); returns the build's
    /// file names, or `None` on a compile error.
    pub(super) async fn compile(
        &mut self,
        recipe: &Recipe,
        unit: Unit,
    ) -> Result<(CompileInfo, Option<Vec<String>>)> {
        let mut env = BuildEnv {
            config: self.config,
            cache_dir: self.options.cache_dir.as_deref(),
            backend: self.options.backend.name(),
            limits: &self.problem.limits,
            ws: &mut self.ws,
            sandbox: &mut self.sandbox,
        };
        env.compile(recipe, unit).await
    }
}

/// The judge error of a program that does not compile: what it is, which one, and the
/// compiler's output.
pub(super) fn does_not_compile(what: &str, name: &str, info: &CompileInfo) -> Error {
    Error::Unsupported(format!(
        "the {what} {name} does not compile:\n{}",
        info.log.trim_end()
    ))
}

/// What a compile needs: the sandbox and its folders, the cache and the limits.
pub(super) struct BuildEnv<'a> {
    pub(super) config: &'a SandboxConfig,
    pub(super) cache_dir: Option<&'a Path>,
    pub(super) backend: &'static str,
    pub(super) limits: &'a Limits,
    pub(super) ws: &'a mut Workspace,
    pub(super) sandbox: &'a mut Sandbox,
}

impl BuildEnv<'_> {
    /// Compiles `recipe` as `unit` in one job (or takes the build from the cache): its
    /// files are copied into the work folder and its command runs there; returns the
    /// build's file names, or `None` on a compile error.
    pub(super) async fn compile(
        &mut self,
        recipe: &Recipe,
        unit: Unit,
    ) -> Result<(CompileInfo, Option<Vec<String>>)> {
        let limits = self.limits;
        let key = cache_key(&self.config.recipe_hash, recipe);
        let host_unit = self.ws.host_src().join(unit.tag());
        let host_files = host_unit.join("files");
        let host_build = host_unit.join("build");
        create_unit_dirs(unit, &host_unit, &[&host_files, &host_build])?;
        let cached = self
            .cache_dir
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
        let mut copy_in = Vec::with_capacity(recipe.files.len());
        for (name, text) in &recipe.files {
            let host_file = host_files.join(name);
            std::fs::write(&host_file, text).map_err(|err| Error::Io {
                what: "cannot write",
                path: host_file,
                source: err,
            })?;
            copy_in.push((
                unit.src_dir().join("files").join(name),
                Path::new(unit.workdir()).join(name),
                None,
            ));
        }
        let compile_ms = limits.compilation_time.as_millis() as u64;
        let log = format!("/judge/out/{}-compile.log", unit.tag());
        let out_build = format!("/judge/out/{}-build", unit.tag());
        let job = Job {
            uid: unit.uid(),
            gid: unit.uid(),
            workdir: unit.workdir().into(),
            copy_in,
            command: recipe.command.clone(),
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: compile_ms,
                wall_ms: compile_ms,
                output_bytes: 256 * 1024 * 1024,
                stack_bytes: 64 * 1024 * 1024,
                processes: crate::sandbox::USER_PROCESSES,
                open_files: 1024,
            },
            oom_file: None,
            runs: vec![RunIo::logged(Path::new(&log))],
            copy_out: Some(out_build.clone().into()),
            discard_writes: false,
        };
        let mut report = None;
        self.sandbox
            .exec(
                self.ws,
                job,
                limits.compilation_memory_bytes.min(4 << 30),
                &mut |run| {
                    report = Some(run);
                    ControlFlow::Continue(())
                },
            )
            .await?;
        let backend = self.backend;
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
        if let Some(cache) = self.cache_dir {
            store_in_cache(&build_dir, &cache.join(&key));
        }
        Ok((info, Some(names)))
    }
}

/// The cache key of a build: the hex SHA-256 of the recipe hash, the language id and the
/// compile command, each followed by a zero byte, then of every file its name, a zero
/// byte, its length (8 bytes little-endian) and its content.
fn cache_key(recipe_hash: &str, recipe: &Recipe) -> String {
    let mut hasher = sha2::Sha256::new();
    for part in [
        recipe_hash,
        recipe.language.as_str(),
        &recipe.command.join("\u{1f}"),
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    for (name, text) in &recipe.files {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(text);
    }
    hex::encode(hasher.finalize())
}

/// Creates the unit's host folders (`/judge/src/<unit>/` and `dirs` in it); the
/// validator's are its user's alone: the submission may not read the validator (nor
/// anything it reads).
fn create_unit_dirs(unit: Unit, host_unit: &Path, dirs: &[&Path]) -> Result<()> {
    for dir in dirs {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            what: "cannot create",
            path: dir.to_path_buf(),
            source,
        })?;
    }
    if unit == Unit::Validator {
        for dir in std::iter::once(host_unit).chain(dirs.iter().copied()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_key_covers_every_file() {
        let recipe = |files: &[(&str, &str)]| Recipe {
            language: "cpp".to_owned(),
            files: files
                .iter()
                .map(|(name, text)| ((*name).to_owned(), text.as_bytes().to_vec()))
                .collect(),
            command: vec!["g++".to_owned(), "validate.cc".to_owned()],
        };
        let base = cache_key("r", &recipe(&[("validate.cc", "x"), ("validate.h", "a")]));
        // A header's content, a file's name, a new file, or where a byte sits between
        // name and content: each is another build.
        for other in [
            recipe(&[("validate.cc", "x"), ("validate.h", "b")]),
            recipe(&[("validate.cc", "x"), ("helper.h", "a")]),
            recipe(&[("validate.cc", "x"), ("validate.h", "a"), ("README", "")]),
            recipe(&[("validate.cc", "x"), ("validate.ha", "")]),
        ] {
            assert_ne!(cache_key("r", &other), base, "{:?}", other.files);
        }
        assert_eq!(
            cache_key("r", &recipe(&[("validate.cc", "x"), ("validate.h", "a")])),
            base
        );
        assert_ne!(
            cache_key("s", &recipe(&[("validate.cc", "x"), ("validate.h", "a")])),
            base
        );
    }
}
