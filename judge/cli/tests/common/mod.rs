//! Helpers shared by the `judge` crate's end-to-end tests: running the real `judge`
//! binary, checking that a backend is here (under `CI=true` a missing one fails the test
//! instead of skipping it), starting `judge serve` and speaking HTTP to it with curl.
//! Each test binary uses a part of them.
#![allow(
    dead_code,
    reason = "each test binary compiles this module and uses part of it"
)]

pub(crate) mod hostile;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// Runs the `judge` binary with `args`.
pub(crate) fn judge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .output()
        .expect("the judge binary runs")
}

#[allow(
    unused_imports,
    reason = "re-exported for the test binaries that check a part themselves"
)]
pub(crate) use ci::require::present;

/// Whether `backend` (`docker` or `bwrap`) can run here.
pub(crate) fn available(backend: &str) -> bool {
    if backend != "docker" {
        return ci::require::bwrap();
    }
    ci::require::docker()
}

/// Runs `source` (saved as `name`) on `package` with `judge run --json --all` on
/// `backend`: the exit code and the final report.
pub(crate) fn run_on(
    backend: &str,
    package: &Path,
    name: &str,
    source: &str,
) -> (Option<i32>, serde_json::Value) {
    let sources = tempfile::tempdir().expect("tempdir");
    let path = sources.path().join(name);
    std::fs::write(&path, source).expect("write");
    run_file(backend, package, &path, &[])
}

/// Runs the source file `path` on `package` with `judge run --json --all --no-cache` and
/// the `extra` arguments on `backend`: the exit code and the final report.
pub(crate) fn run_file(
    backend: &str,
    package: &Path,
    path: &Path,
    extra: &[&str],
) -> (Option<i32>, serde_json::Value) {
    let mut args = vec![
        "run",
        "--backend",
        backend,
        "--json",
        "--all",
        "--no-cache",
        "--problem",
        package.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    args.push(path.to_str().expect("utf-8"));
    run_report(&args)
}

/// Runs `judge` with `args` (a `run --json`): the exit code and the final report, its
/// last line.
pub(crate) fn run_report(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = judge(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap_or_else(|_| {
            panic!(
                "{args:?}: no report; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    (out.status.code(), report)
}

/// Writes `text` to `root/path`, creating folders.
pub(crate) fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A child process killed (SIGKILL) and reaped when dropped.
pub(crate) struct Killed(pub(crate) Child);

impl Killed {
    /// Kills it now.
    pub(crate) fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts `judge serve` as `cmd` (its stdout is taken) and returns the process and the
/// server's base URL, read from its first line `listening on ADDR`.
pub(crate) fn start_serve(mut cmd: Command) -> (Killed, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .expect("judge serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("first line");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (Killed(child), format!("http://{addr}"))
}

/// An HTTP request with curl (JSON content type, a bearer token when given); returns the
/// status and the body.
pub(crate) fn http(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (u16, String) {
    let mut cmd = Command::new("curl");
    cmd.args(["-sS", "-X", method, "-w", "\n%{http_code}"])
        .args(["-H", "content-type: application/json"]);
    if let Some(token) = token {
        cmd.args(["-H", &format!("Authorization: Bearer {token}")]);
    }
    if body.is_some() {
        cmd.args(["--data-binary", "@-"]);
    }
    cmd.arg(url).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("curl runs");
    let mut stdin = child.stdin.take().expect("stdin");
    if let Some(body) = body {
        stdin.write_all(body.as_bytes()).expect("write body");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("curl output");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", &text));
    (status.trim().parse().unwrap_or(0), body.to_owned())
}

/// [`http`] whose answer must be JSON; returns it whatever the status.
pub(crate) fn http_json(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> serde_json::Value {
    let body = body.map(ToString::to_string);
    let (status, text) = http(method, url, token, body.as_deref());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {url} ({status}): {e}: {text}"))
}

/// Copies the regular files under `from` to `to`, keeping the tree.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let dest = to.join(entry.file_name());
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), dest).expect("copy");
        }
    }
}
