//! Helpers shared by the cross-crate end-to-end tests: finding the workspace's built
//! binaries and bubblewrap (a failure under `CI=true` when one is missing, a skip
//! elsewhere), starting a server that prints `listening on ADDR` (`trainer serve`,
//! `judge serve`) and killing it on drop, a throwaway PostgreSQL database, and a stand-in
//! model server (an OpenAI-compatible chat endpoint in bare HTTP/1.1 whose replies the
//! test scripts: one request read, one JSON answer written, connection closed).
//!
//! Each test file compiles this module on its own and uses a part of it.
#![allow(dead_code, reason = "each test file uses only some of the helpers")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use serde_json::{Value, json};

/// The workspace's root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace")
}

/// `target/<profile>/`, where cargo puts the workspace's binaries: these tests run from
/// `target/<profile>/deps/`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

/// The cargo package that builds the binary `name`.
fn package_of(name: &str) -> &str {
    match name {
        "judge" => "judge-cli",
        other => other,
    }
}

/// The folder holding the built binaries `names`, or `None` (a failure under CI) when one
/// is missing. `cargo test --workspace` builds them all; after editing one of their
/// crates, `cargo build -p ...` (as the message says) before running a test file alone.
pub(crate) fn binaries(names: &[&str]) -> Option<PathBuf> {
    let dir = target_dir();
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| !dir.join(name).is_file())
        .collect();
    let why = (!missing.is_empty()).then(|| {
        let builds: Vec<String> = missing
            .iter()
            .map(|name| format!("-p {}", package_of(name)))
            .collect();
        format!(
            "{} not built in {} (cargo build {}, or cargo test --workspace)",
            missing.join(", "),
            dir.display(),
            builds.join(" ")
        )
    });
    let what = format!("the {} binaries", names.join(", "));
    ci::require::present(&what, why.as_deref()).then_some(dir)
}

/// The built binary `name` (see [`binaries`]).
pub(crate) fn binary(name: &str) -> Option<PathBuf> {
    binaries(&[name]).map(|dir| dir.join(name))
}

/// Whether bubblewrap is installed (a failure under CI when it is not).
pub(crate) fn bubblewrap() -> bool {
    ci::require::bwrap()
}

/// The folder of the built binaries `names` when bubblewrap is installed too: what a test
/// that runs the binaries on the real sandbox needs (see [`binaries`], [`bubblewrap`]).
pub(crate) fn sandboxed(names: &[&str]) -> Option<PathBuf> {
    if !bubblewrap() {
        return None;
    }
    binaries(names)
}

/// `../shared/data/` beside the checkout (real published data; its README names the
/// sources) when it holds every one of `paths`; `None` (a failure under CI) otherwise.
pub(crate) fn shared_data(paths: &[&str]) -> Option<PathBuf> {
    let data = workspace().join("../shared/data");
    let missing: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| !data.join(p).exists())
        .collect();
    let why =
        (!missing.is_empty()).then(|| format!("{} not in {}", missing.join(", "), data.display()));
    ci::require::present("the real data of ../shared/data", why.as_deref()).then_some(data)
}

/// A started server: its base URL (`http://host:port`) and the process, killed and reaped
/// when dropped.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd`, a server whose first line of stdout is `listening on ADDR`, and waits
/// for that line.
pub(crate) fn start_listening(mut cmd: Command) -> Server {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{cmd:?} starts: {e}"));
    let stdout = child.stdout.take().expect("stdout");
    // Killed on drop from here, also when the line below is not the address.
    let mut server = Server {
        child,
        base: String::new(),
    };
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("its first line");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{cmd:?}: the bound address first, not {line:?}"));
    server.base = if addr.starts_with("http") {
        addr.to_owned()
    } else {
        format!("http://{addr}")
    };
    server
}

/// `trainer serve` on port 0 with the model folder `model`.
pub(crate) fn start_trainer(trainer: &Path, model: &Path) -> Server {
    let mut cmd = Command::new(trainer);
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--model"])
        .arg(model);
    start_listening(cmd)
}

/// A PostgreSQL database of its own for one test, made on the server of `ARENA_PG_URL`
/// (ci/setup's role may create databases) and dropped with its connections when this is
/// dropped.
pub(crate) struct Database {
    admin_url: String,
    name: String,
    /// `postgres://...` of the new database.
    pub(crate) url: String,
}

impl Database {
    /// A new database named after `prefix`, or `None` (a failure under CI) when
    /// `ARENA_PG_URL` is not set or its server does not answer.
    pub(crate) fn create(prefix: &str) -> Option<Database> {
        let admin_url = std::env::var("ARENA_PG_URL").ok();
        let Some(admin_url) = admin_url else {
            ci::require::present("PostgreSQL", Some("ARENA_PG_URL is not set (run ci/setup)"));
            return None;
        };
        let answers = psql(&admin_url, "SELECT 1");
        let why = answers.as_ref().err().map(|e| {
            format!(
                "the server of ARENA_PG_URL does not answer (run ci/setup, which starts it): {e}"
            )
        });
        if !ci::require::present("PostgreSQL", why.as_deref()) {
            return None;
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .subsec_nanos();
        let name = format!("{prefix}_{}_{nanos}", std::process::id());
        psql(&admin_url, &format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
        let (server, _) = admin_url
            .rsplit_once('/')
            .expect("ARENA_PG_URL names a database");
        let url = format!("{server}/{name}");
        Some(Database {
            admin_url,
            name,
            url,
        })
    }

    /// `sql` run on this database; its rows as text (`-tA`).
    pub(crate) fn query(&self, sql: &str) -> String {
        psql(&self.url, sql).unwrap_or_else(|e| panic!("{sql}: {e}"))
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let _ = psql(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// `psql URL -c SQL`: the rows as text (`-tA`), or psql's error.
fn psql(url: &str, sql: &str) -> Result<String, String> {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-tAc", sql])
        .output()
        .map_err(|e| format!("psql does not run: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// The model name [`stand_in`] serves.
pub(crate) const STAND_IN: &str = "reference-stand-in";

/// A stand-in for an OpenAI-compatible model server on port 0, a thread per connection:
/// `GET /v1/models` lists [`STAND_IN`], and each chat completion's reply is
/// `answer(messages)`, the request's messages' contents in order, with usage of 100
/// prompt and 50 completion tokens. Returns its base URL.
pub(crate) fn stand_in(answer: impl Fn(&[&str]) -> String + Send + Sync + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = answer.clone();
            std::thread::spawn(move || {
                let Some((line, body)) = read_request(&mut stream) else {
                    return;
                };
                if line.starts_with("GET") {
                    let models =
                        json!({"object": "list", "data": [{"id": STAND_IN, "object": "model"}]});
                    respond(&mut stream, &models);
                    return;
                }
                let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let messages: Vec<&str> = request["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|m| m["content"].as_str())
                    .collect();
                let content = answer(&messages);
                respond(
                    &mut stream,
                    &json!({
                        "id": "chatcmpl-stand-in", "object": "chat.completion", "created": 0,
                        "model": STAND_IN,
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}
                    }),
                );
            });
        }
    });
    base
}

/// Reads one request: its request line and its body (by `content-length`).
fn read_request(stream: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((request_line, body))
}

/// Answers 200 with `body` as JSON and closes the connection.
fn respond(stream: &mut TcpStream, body: &Value) {
    let text = body.to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    );
}
