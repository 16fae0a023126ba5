//! The web page in a real headless browser: Debian's Chromium driven through
//! chromedriver (WebDriver over HTTP, spoken with curl) against the real `judge serve`
//! binary on port 0. A team logs in with its token, opens a statement, submits a
//! solution through the form, and sees the verdict appear without reloading.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn curl(method: &str, url: &str, body: Option<&Value>) -> Value {
    let mut cmd = Command::new("curl");
    cmd.args(["-sS", "-X", method, "-H", "content-type: application/json"]);
    if body.is_some() {
        cmd.args(["--data-binary", "@-"]);
    }
    cmd.arg(url).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("curl runs");
    let mut stdin = child.stdin.take().expect("stdin");
    if let Some(body) = body {
        stdin.write_all(body.to_string().as_bytes()).expect("body");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("curl");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{method} {url}: {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

struct Browser {
    base: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn go(&self, url: &str) {
        curl(
            "POST",
            &format!("{}/session/{}/url", self.base, self.session),
            Some(&json!({"url": url})),
        );
    }

    fn find(&self, css: &str) -> Option<String> {
        let v = curl(
            "POST",
            &format!("{}/session/{}/element", self.base, self.session),
            Some(&json!({"using": "css selector", "value": css})),
        );
        v["value"][ELEMENT].as_str().map(str::to_owned)
    }

    fn el(&self, css: &str) -> String {
        self.find(css).unwrap_or_else(|| panic!("no element {css}"))
    }

    fn type_in(&self, css: &str, text: &str) {
        let id = self.el(css);
        curl(
            "POST",
            &format!("{}/session/{}/element/{id}/value", self.base, self.session),
            Some(&json!({"text": text})),
        );
    }

    fn click(&self, css: &str) {
        let id = self.el(css);
        curl(
            "POST",
            &format!("{}/session/{}/element/{id}/click", self.base, self.session),
            Some(&json!({})),
        );
    }

    fn text(&self, css: &str) -> Option<String> {
        let id = self.find(css)?;
        let v = curl(
            "GET",
            &format!("{}/session/{}/element/{id}/text", self.base, self.session),
            None,
        );
        v["value"].as_str().map(str::to_owned)
    }
}

#[test]
fn a_team_logs_in_submits_and_sees_the_verdict_in_chromium() {
    let missing: Vec<&str> = [
        "/usr/bin/chromium",
        "/usr/bin/chromedriver",
        "/usr/bin/bwrap",
    ]
    .into_iter()
    .filter(|p| !Path::new(p).is_file())
    .collect();
    if !missing.is_empty() {
        assert!(
            !in_ci(),
            "missing {missing:?} (run ci/setup); CI=true, so this fails"
        );
        eprintln!("skipping: missing {missing:?} (run ci/setup)");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages");
    let start = chrono::Utc::now() - chrono::Duration::minutes(5);
    let contest = dir.path().join("contest.yaml");
    std::fs::write(
        &contest,
        format!(
            "id: web\nname: Web Contest\nstart_time: {}\nduration: 120\nscoreboard_freeze_duration: 0\nsubmissions_per_minute: 2\n\
             problems:\n  - {{id: sum, package: {}}}\nteams:\n  - {{id: t1, name: Browser Team, token: browser-token-1}}\n",
            start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            packages.join("sum").display()
        ),
    )
    .expect("contest file");
    let mut server = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--backend",
            "bwrap",
            "--contest",
        ])
        .arg(&contest)
        .arg("--db")
        .arg(dir.path().join("web.db"))
        .env("ARENA_ADMIN_TOKEN", "web-admin-token")
        .env("JUDGE_SUPERVISOR", env!("CARGO_BIN_EXE_judge-supervisor"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("judge serve");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _server = Killed(server);
    let site = format!(
        "http://{}",
        line.trim().strip_prefix("listening on ").expect("address")
    );

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let driver = Command::new("/usr/bin/chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver");
    let _driver = Killed(driver);
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while Command::new("curl")
        .args(["-sf", &format!("{base}/status")])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        assert!(Instant::now() < deadline, "chromedriver did not answer");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = dir.path().join("profile");
    let session = curl(
        "POST",
        &format!("{base}/session"),
        Some(
            &json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         format!("--user-data-dir={}", profile.display())],
            }}}}),
        ),
    );
    let session = session["value"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("no session: {session}"))
        .to_owned();
    let browser = Browser {
        base: base.clone(),
        session: session.clone(),
    };

    browser.go(&format!("{site}/contests/web"));
    browser.type_in("#token", "browser-token-1");
    browser.click("#enter");
    assert_eq!(browser.text("#team").as_deref(), Some("t1"), "logged in");

    browser.go(&format!("{site}/contests/web/problems/sum"));
    let statement = browser.text("#statement").unwrap_or_default();
    assert!(!statement.trim().is_empty(), "the statement renders");
    browser.go(&format!("{site}/contests/web"));

    let code = std::fs::read_to_string(packages.join("sum/submissions/accepted/sum.py")).unwrap();
    browser.click("#language option[value=python3]");
    browser.type_in("#source", &code);
    browser.click("#send");
    let deadline = Instant::now() + Duration::from_secs(120);
    let verdict = loop {
        let text = browser.text("#mine td.verdict").unwrap_or_default();
        if !text.is_empty() && text != "pending" {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "no verdict appeared (last: {text:?})"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    assert_eq!(verdict, "AC");
    // The scoreboard on the same page shows the solve.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let board = browser.text("#board").unwrap_or_default();
        if board.contains("Browser Team") && board.contains("+0") {
            break;
        }
        assert!(Instant::now() < deadline, "scoreboard: {board}");
        std::thread::sleep(Duration::from_millis(250));
    }
    curl("DELETE", &format!("{base}/session/{session}"), None);

    // The rate limit (2 a minute in this contest): the form's submission and one more
    // are taken, the next is refused with 429 and not stored.
    let post = || {
        let out = Command::new("curl")
            .args(["-sS", "-o", "/dev/null", "-w", "%{http_code}"])
            .args([
                "-H",
                "Authorization: Bearer browser-token-1",
                "-H",
                "content-type: application/json",
            ])
            .args([
                "-d",
                r#"{"problem_id": "sum", "language_id": "python3", "source": "print(0)"}"#,
            ])
            .arg(format!("{site}/api/contests/web/submissions"))
            .output()
            .expect("curl");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(post(), "200");
    assert_eq!(post(), "429");
    let mine = Command::new("curl")
        .args(["-sS", "-H", "Authorization: Bearer browser-token-1"])
        .arg(format!("{site}/api/contests/web/submissions"))
        .output()
        .expect("curl");
    let mine: Value = serde_json::from_slice(&mine.stdout).expect("JSON");
    assert_eq!(mine.as_array().map(Vec::len), Some(2));
}
