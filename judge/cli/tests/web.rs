//! The web page in a real headless browser: Debian's Chromium driven through
//! chromedriver (WebDriver over HTTP, spoken with curl) against the real `judge serve`
//! binary on port 0. A team logs in with its token, opens a statement, submits a
//! solution through the form, and sees the verdict appear without reloading.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{Killed, http, http_json, present, start_serve};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A WebDriver call: its JSON answer.
fn curl(method: &str, url: &str, body: Option<&Value>) -> Value {
    http_json(method, url, None, body)
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

    /// The element's `value` property (a form field's current value).
    fn value(&self, css: &str) -> Option<String> {
        let id = self.find(css)?;
        let v = curl(
            "GET",
            &format!(
                "{}/session/{}/element/{id}/property/value",
                self.base, self.session
            ),
            None,
        );
        v["value"].as_str().map(str::to_owned)
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

/// It is long because it is one scenario told in order: each step works on what the
/// steps before it left (the server, the browser or the run folder), so cutting it would
/// only pass that state around.
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
    let why = format!("missing {missing:?} (run ci/setup)");
    if !present("browser", (!missing.is_empty()).then_some(why.as_str())) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
    let start = chrono::Utc::now() - chrono::Duration::minutes(5);
    let contest = dir.path().join("contest.yaml");
    std::fs::write(
        &contest,
        format!(
            "id: web\nname: Web Contest\nstart_time: {}\nduration: 120\nscoreboard_freeze_duration: 0\nthaw: jury\nsubmissions_per_minute: 2\n\
             problems:\n  - {{id: sum, package: {}}}\nteams:\n  - {{id: t1, name: Browser Team, token: browser-token-1}}\n",
            start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            packages.join("sum").display()
        ),
    )
    .expect("contest file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--workers",
        "1",
        "--backend",
        "bwrap",
    ])
    .arg("--contest")
    .arg(&contest)
    .arg("--db")
    .arg(dir.path().join("web.db"))
    .env("ARENA_ADMIN_TOKEN", "web-admin-token");
    let (_server, site) = start_serve(cmd);

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
    let samples = browser.text("#samples").unwrap_or_default();
    assert!(
        samples.contains(".in") && samples.contains(".ans"),
        "sample files: {samples}"
    );
    browser.go(&format!("{site}/contests/web"));
    let clock = browser.text("#clock").unwrap_or_default();
    assert!(
        clock.starts_with("Time left "),
        "the contest clock: {clock:?}"
    );

    // Submit by choosing a file: its text fills the source and its extension (.py)
    // chooses the language.
    let file = packages
        .join("sum/submissions/accepted/sum.py")
        .canonicalize()
        .expect("the source file");
    let code = std::fs::read_to_string(&file).unwrap();
    assert_ne!(
        browser.value("#language").as_deref(),
        Some("python3"),
        "not chosen yet"
    );
    browser.type_in("#source-file", &file.display().to_string());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let filled = browser.value("#source").unwrap_or_default();
        if filled.replace("\r\n", "\n").trim() == code.trim() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the file never filled the source: {filled:?}, file input {:?}",
            browser.value("#source-file")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(browser.value("#language").as_deref(), Some("python3"));
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
    // A clarification: the team asks on the page, the jury answers over the API, and the
    // answer appears on the open page (followed over server-sent events, no reload).
    browser.type_in("#clar-text", "May the numbers be negative?");
    browser.click("#ask");
    // The form posts and the page reloads; the question is stored by then or soon.
    let deadline = Instant::now() + Duration::from_secs(10);
    let question = loop {
        let asked = http_json(
            "GET",
            &format!("{site}/api/contests/web/clarifications"),
            Some("web-admin-token"),
            None,
        );
        if let Some(q) = asked
            .as_array()
            .and_then(|l| l.iter().find(|c| c["from_team_id"] == "t1"))
        {
            break q.clone();
        }
        assert!(
            Instant::now() < deadline,
            "the question was not stored: {asked}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(question["text"], "May the numbers be negative?");
    let (status, _) = http(
        "POST",
        &format!("{site}/api/contests/web/clarifications"),
        Some("web-admin-token"),
        Some(
            &json!({"to_team_id": "t1", "reply_to_id": question["id"], "text": "Yes, they may."})
                .to_string(),
        ),
    );
    assert_eq!(status, 201);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = browser.text("#clarifications").unwrap_or_default();
        if list.contains("Yes, they may.") {
            break;
        }
        assert!(Instant::now() < deadline, "clarifications: {list}");
        std::thread::sleep(Duration::from_millis(250));
    }

    // The rate limit (2 a minute in this contest): the form's submission and one more
    // are taken, the next is refused with 429 and not stored.
    let url = format!("{site}/api/contests/web/submissions");
    let token = Some("browser-token-1");
    let body = r#"{"problem_id": "sum", "language_id": "python3", "source": "print(0)"}"#;
    assert_eq!(http("POST", &url, token, Some(body)).0, 200);
    assert_eq!(http("POST", &url, token, Some(body)).0, 429);
    let mine = http_json("GET", &url, token, None);
    assert_eq!(mine.as_array().map(Vec::len), Some(2));

    // The reveal, in the browser. The jury freezes the board, adds a team, which solves
    // sum after the freeze (submitted by the jury for it), and ends the contest; with
    // `thaw: jury` the public board stays frozen. The jury logs in on the page, opens the
    // reveal, steps through it by clicks (mark the cell, then show it) and thaws.
    let admin = Some("web-admin-token");
    let control = format!("{site}/api/contests/web/control");
    assert_eq!(
        http("POST", &control, admin, Some(r#"{"action": "freeze"}"#)).0,
        200
    );
    let teams = format!("{site}/api/contests/web/teams");
    let added = http(
        "POST",
        &teams,
        admin,
        Some(r#"{"id": "t2", "name": "Late Team"}"#),
    );
    assert_eq!(added.0, 201, "{}", added.1);
    let code = serde_json::to_string(&code).unwrap();
    let late = format!(
        r#"{{"problem_id": "sum", "language_id": "python3", "team_id": "t2", "source": {code}}}"#
    );
    assert_eq!(http("POST", &url, admin, Some(&late)).0, 200);
    let deadline = Instant::now() + Duration::from_secs(120);
    while http_json("GET", &format!("{site}/api/queue"), admin, None)["queued"] != 0
        || http_json("GET", &format!("{site}/api/queue"), admin, None)["judging"] != 0
    {
        assert!(
            Instant::now() < deadline,
            "the late submission was not judged"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    assert_eq!(
        http("POST", &control, admin, Some(r#"{"action": "end"}"#)).0,
        200
    );
    let board = |who: Option<&str>| {
        let b = http_json(
            "GET",
            &format!("{site}/api/contests/web/scoreboard"),
            who,
            None,
        );
        let t2 = b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"] == "t2")
            .cloned();
        t2.unwrap()["problems"][0].clone()
    };
    assert_eq!(board(None)["num_pending"], 1, "the public board is frozen");
    curl("DELETE", &format!("{base}/session/{session}/cookie"), None);
    browser.go(&format!("{site}/contests/web"));
    browser.type_in("#token", "web-admin-token");
    browser.click("#enter");
    assert!(browser.find("#jury").is_some(), "the jury is logged in");
    browser.go(&format!("{site}/contests/web/jury/reveal"));
    assert_eq!(
        browser.text("#status").as_deref(),
        Some("1 cells to reveal")
    );
    let row = browser.text("#row-t2").unwrap_or_default();
    assert!(row.contains('?'), "hidden: {row}");
    browser.click("#reveal");
    browser.click("#reveal");
    assert_eq!(
        browser.text("#status").as_deref(),
        Some("Every cell is revealed: thaw the public board.")
    );
    let row = browser.text("#row-t2").unwrap_or_default();
    assert!(
        !row.contains('?') && row.contains('+'),
        "revealed as solved: {row}"
    );
    browser.click("#thaw-send");
    let deadline = Instant::now() + Duration::from_secs(10);
    while board(None)["solved"] != true {
        assert!(Instant::now() < deadline, "the public board did not thaw");
        std::thread::sleep(Duration::from_millis(100));
    }
    curl("DELETE", &format!("{base}/session/{session}"), None);
}
