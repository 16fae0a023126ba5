//! The demo's child processes: `judge serve` and `trainer serve`, found beside the
//! `agent` binary (as the judge finds its supervisor), started with their output in log
//! files of the run folder, waited for with a live status line, and killed on drop.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// A binary of the workspace beside the running `agent`, or an error naming it and the
/// command that builds it.
pub(crate) fn beside_agent(name: &str, package: &str) -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the agent binary's own path")?;
    let dir = exe
        .parent()
        .context("the agent binary has no folder")?
        .to_path_buf();
    let path = dir.join(name);
    if path.is_file() {
        Ok(path)
    } else {
        bail!(
            "`{name}` is not beside the agent binary (looked for {}): build it with \
             `cargo build --release -p {package}` (or the same profile as this agent)",
            path.display()
        )
    }
}

/// A started server: its base URL and the process, killed and reaped when dropped.
pub(crate) struct Server {
    /// `http://host:port`.
    pub(crate) url: String,
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd` (a server that prints `listening on ADDR` as its first line of stdout),
/// its stderr and the rest of its stdout going to `log`; shows a live status line while
/// it starts (up to `patience`).
pub(crate) fn start(
    mut cmd: Command,
    what: &str,
    log: &Path,
    patience: Duration,
) -> anyhow::Result<Server> {
    let log_file = std::fs::File::create(log)
        .with_context(|| format!("cannot write the log {}", log.display()))?;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log_file.try_clone().context("log file")?))
        .stdin(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {what}"))?;
    let stdout = child.stdout.take().context("child stdout")?;
    let (tx, rx) = std::sync::mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let first = match reader.read_line(&mut line) {
            Ok(n) if n > 0 => Some(line.trim().to_owned()),
            _ => None,
        };
        let _ = tx.send(first);
        // Keep draining, so the server never blocks on a full pipe.
        let mut log_file = log_file;
        for line in reader.lines().map_while(Result::ok) {
            let _ = writeln!(log_file, "{line}");
        }
    });
    let started = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let ticker = {
        let done = done.clone();
        let what = what.to_owned();
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                eprint!("\r  starting {what}... {}s ", started.elapsed().as_secs());
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    let first = rx.recv_timeout(patience);
    done.store(true, Ordering::SeqCst);
    let _ = ticker.join();
    let mut server = Server {
        url: String::new(),
        child,
    };
    let tail = || {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    };
    let line = match first {
        Ok(Some(line)) => line,
        Ok(None) => bail!(
            "{what} exited before it listened (log {}):\n{}",
            log.display(),
            tail()
        ),
        Err(_) => bail!(
            "{what} did not listen within {}s (log {}):\n{}",
            patience.as_secs(),
            log.display(),
            tail()
        ),
    };
    let Some(addr) = line.strip_prefix("listening on ") else {
        bail!("{what} printed {line:?} instead of `listening on ADDR`");
    };
    server.url = if addr.starts_with("http") {
        addr.to_owned()
    } else {
        format!("http://{addr}")
    };
    eprintln!(
        "\r  {what} listening on {} ({:.1}s)        ",
        server.url,
        started.elapsed().as_secs_f64()
    );
    Ok(server)
}
