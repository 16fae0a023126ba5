//! Probes of the sandbox image: the toolchain version of every language, and every
//! language's self-test (an echo program, judged like a submission on a generated package).
//! A module beside `grade` and `sandbox` rather than inside `sandbox`, since it uses both.

use std::ops::ControlFlow;
use std::path::Path;

use crate::grade::{Options, Report, Submission, judge};
use crate::lang::Language;
use crate::sandbox::{
    BackendKind, Job, JobLimits, RunIo, SANDBOX_UID, Sandbox, SandboxConfig, Workspace, sandbox_env,
};
use crate::{Error, Result};

/// Each language with the first line its version command prints in the sandbox.
pub async fn versions(
    backend: BackendKind,
    config: &SandboxConfig,
) -> Result<Vec<(Language, String)>> {
    let mut ws = Workspace::new()?;
    let mut sandbox = Sandbox::open(backend, config, &ws).await?;
    let mut res = Vec::new();
    for lang in crate::lang::all()? {
        let out = format!("/judge/out/version-{}.txt", lang.id);
        let job = Job {
            uid: SANDBOX_UID,
            gid: SANDBOX_UID,
            workdir: "/box".into(),
            copy_in: vec![],
            command: lang.version.clone(),
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: 10_000,
                wall_ms: 20_000,
                output_bytes: 1 << 20,
                stack_bytes: 8 << 20,
                processes: 64,
                open_files: 256,
            },
            oom_file: None,
            runs: vec![RunIo::logged(Path::new(&out))],
            copy_out: None,
            discard_writes: false,
        };
        let outcome = sandbox
            .exec(&mut ws, job, 1 << 30, &mut |_| ControlFlow::Continue(()))
            .await;
        if let Err(err) = outcome {
            sandbox.close().await;
            return Err(err);
        }
        let text = std::fs::read_to_string(ws.host_out_file(Path::new(&out))).unwrap_or_default();
        res.push((
            lang,
            text.lines()
                .next()
                .unwrap_or("(no output)")
                .trim()
                .to_owned(),
        ));
    }
    sandbox.close().await;
    Ok(res)
}

/// Judges every language's self-test on a generated one-test package.
pub async fn self_tests(
    backend: BackendKind,
    config: &SandboxConfig,
) -> Result<Vec<(Language, Result<Report>)>> {
    let dir = tempfile::tempdir().map_err(|source| Error::Io {
        what: "cannot create",
        path: std::env::temp_dir(),
        source,
    })?;
    let root = dir.path();
    let text = "hello, sandbox\n1 2 3\n";
    for (path, content) in [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Echo\nuuid: self-test\nlimits:\n  time_limit: 5\n  memory: 512\n",
        ),
        ("data/secret/echo.in", text),
        ("data/secret/echo.ans", text),
    ] {
        let path = root.join(path);
        let parent = path
            .parent()
            .expect("invariant: the paths above have parents");
        std::fs::create_dir_all(parent)
            .and_then(|()| std::fs::write(&path, content))
            .map_err(|source| Error::Io {
                what: "cannot write",
                path: path.clone(),
                source,
            })?;
    }
    let (problem, _) = problems::load(root)?;
    let options = Options {
        backend,
        run_all: true,
        cache_dir: None,
    };
    let mut res = Vec::new();
    for lang in crate::lang::all()? {
        let submission = Submission {
            path: format!("self-test.{}", lang.extensions[0]).into(),
            source: lang.self_test.clone(),
            language: lang.clone(),
        };
        let report = judge(&problem, &submission, config, &options, &mut |_| {}).await;
        res.push((lang, report));
    }
    Ok(res)
}
