//! The web page in a real headless browser: Debian's Chromium driven through
//! chromedriver (WebDriver over HTTP, spoken with curl) against the real `judge serve`
//! binary on port 0. A team logs in with its token, opens a statement, submits a
//! solution through the form, and sees the verdict appear without reloading. A host's
//! whole story runs in a jury's and a team's window, with screenshots of the main pages
//! kept in `$CARGO_TARGET_TMPDIR/host-story/`.

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

    /// The element, waited for up to 10 s: a click that submits a form returns before the
    /// next page has loaded.
    fn el(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(id) = self.find(css) {
                return id;
            }
            assert!(Instant::now() < deadline, "no element {css}");
            std::thread::sleep(Duration::from_millis(100));
        }
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

    /// Waits (at most `seconds`) until the text of `css` contains `what`; answers it.
    fn wait_for(&self, css: &str, what: &str, seconds: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            let text = self.text(css).unwrap_or_default();
            if text.contains(what) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{css} never said {what:?} (last: {text:?})"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Saves the page as it looks now as `name`.png in `dir`.
    fn screenshot(&self, dir: &Path, name: &str) {
        use base64::Engine as _;
        let v = curl(
            "GET",
            &format!("{}/session/{}/screenshot", self.base, self.session),
            None,
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(v["value"].as_str().expect("a screenshot"))
            .expect("base64");
        std::fs::create_dir_all(dir).expect("the screenshots' folder");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("a screenshot file");
    }

    /// Ends the browser session.
    fn close(&self) {
        curl(
            "DELETE",
            &format!("{}/session/{}", self.base, self.session),
            None,
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

/// Whether Chromium, chromedriver and bubblewrap are here (outside CI a missing one
/// skips the test; under CI it fails it).
fn browser_present() -> bool {
    let missing: Vec<&str> = [
        "/usr/bin/chromium",
        "/usr/bin/chromedriver",
        "/usr/bin/bwrap",
    ]
    .into_iter()
    .filter(|p| !Path::new(p).is_file())
    .collect();
    let why = format!("missing {missing:?} (run ci/setup)");
    present("browser", (!missing.is_empty()).then_some(why.as_str()))
}

/// chromedriver on a free port, answering: the process and its base URL.
fn chromedriver() -> (Killed, String) {
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
    let driver = Killed(driver);
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
    (driver, base)
}

/// A new headless Chromium session of the driver at `base`, its profile in `profile`.
fn open_browser(base: &str, profile: &Path) -> Browser {
    let session = curl(
        "POST",
        &format!("{base}/session"),
        Some(
            &json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--window-size=1200,1000",
                         format!("--user-data-dir={}", profile.display())],
            }}}}),
        ),
    );
    let session = session["value"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("no session: {session}"))
        .to_owned();
    Browser {
        base: base.to_owned(),
        session,
    }
}

/// `judge serve` of `contest` on port 0 with one worker on bubblewrap and the database
/// in `dir`: the process and its base URL.
fn serve(contest: &Path, dir: &Path, admin_token: &str) -> (Killed, String) {
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
    .arg(contest)
    .arg("--db")
    .arg(dir.join("web.db"))
    .env("ARENA_ADMIN_TOKEN", admin_token);
    start_serve(cmd)
}

/// It is long because it is one scenario told in order: each step works on what the
/// steps before it left (the server, the browser or the run folder), so cutting it would
/// only pass that state around.
#[test]
fn a_team_logs_in_submits_and_sees_the_verdict_in_chromium() {
    if !browser_present() {
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
    let (_server, site) = serve(&contest, dir.path(), "web-admin-token");
    let (_driver, base) = chromedriver();
    let browser = open_browser(&base, &dir.path().join("profile"));
    let session = browser.session.clone();

    browser.go(&format!("{site}/contests/web"));
    browser.type_in("#token", "browser-token-1");
    browser.click("#enter");
    // The click submits the form and returns before the next page has loaded.
    browser.wait_for("#team", "t1", 10);

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
    browser.el("#jury"); // the jury is logged in (waited for: the click returns first)
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

/// A host's whole story in two Chromium windows, the jury's and a team's, against the
/// real `judge serve`: the jury logs in, adds a team, uploads a problem package (a zip
/// of `sum`) and adds it to the contest, and starts the contest; the new team logs in,
/// submits a file that fails and sees its verdict; the jury opens the failed submission
/// and rejudges it, and the rejudging's page says what changed; the team asks a
/// clarification and sees the jury's answer from the inbox; the jury freezes the board,
/// the team solves the problem, the jury ends the contest and reveals the frozen cell,
/// then thaws. Screenshots of the main pages are kept in
/// `$CARGO_TARGET_TMPDIR/host-story/`. It is long because it is one scenario told in
/// order: each step works on what the steps before it left.
#[test]
fn a_host_runs_a_contest_from_the_browser() {
    if !browser_present() {
        return;
    }
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("host-story");
    let _ = std::fs::remove_dir_all(&shots);
    let dir = tempfile::tempdir().expect("tempdir");
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
    let start = chrono::Utc::now() + chrono::Duration::hours(1);
    let contest = dir.path().join("contest.yaml");
    std::fs::write(
        &contest,
        format!(
            "id: host\nname: Host Story\nstart_time: {}\nduration: 120\nscoreboard_freeze_duration: 0\nthaw: jury\n\
             problems: []\nteams:\n  - {{id: t1, name: First Team, token: first-token-1}}\n",
            start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        ),
    )
    .expect("contest file");
    // The package as a host has it: a zip of its folder.
    let zip_path = dir.path().join("sum.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).expect("zip file"));
    for file in [
        "problem.yaml",
        "statement/problem.en.md",
        "data/sample/1.in",
        "data/sample/1.ans",
        "data/secret/01-single.in",
        "data/secret/01-single.ans",
        "data/secret/02-small.in",
        "data/secret/02-small.ans",
        "submissions/accepted/sum.py",
    ] {
        zip.start_file(
            format!("sum/{file}"),
            zip::write::SimpleFileOptions::default(),
        )
        .expect("an entry");
        let bytes = std::fs::read(packages.join("sum").join(file)).expect("a package file");
        std::io::Write::write_all(&mut zip, &bytes).expect("write");
    }
    zip.finish().expect("the zip");
    let (_server, site) = serve(&contest, dir.path(), "host-admin-token");
    let (_driver, base) = chromedriver();
    let jury = open_browser(&base, &dir.path().join("jury-profile"));
    let team = open_browser(&base, &dir.path().join("team-profile"));
    let admin = Some("host-admin-token");
    let c = format!("{site}/contests/host");

    // 1. The jury logs in.
    jury.go(&c);
    jury.type_in("#token", "host-admin-token");
    jury.click("#enter");
    assert!(jury.find("#jury").is_some(), "the jury is logged in");
    jury.screenshot(&shots, "1-contest-as-the-jury");

    // 2. Adds a team on the teams page.
    jury.click("#jury-teams");
    jury.type_in("#add-team-id", "t2");
    jury.type_in("#add-team-name", "Second Team");
    jury.type_in("#add-team-token", "second-token-2");
    jury.click("#add-team-send");
    jury.wait_for("#teams", "Second Team", 10);
    jury.screenshot(&shots, "2-teams");

    // 3. Uploads the package, reads what the loader found, adds it to the contest.
    jury.go(&format!("{c}/jury/problems"));
    jury.type_in("#upload-package-file", &zip_path.display().to_string());
    jury.click("#upload-package-send");
    jury.wait_for("#loads", "The package loads", 30);
    jury.screenshot(&shots, "3-package");
    jury.click("#add-problem-send");
    jury.wait_for("#problems", "Sum of Numbers", 30);
    jury.screenshot(&shots, "3-problems");

    // 4. Starts the contest, confirmed on a second page.
    jury.go(&format!("{c}/jury/control"));
    jury.click("#control-start_now-send");
    jury.wait_for("#confirm-what", "start now", 10);
    jury.click("#confirm");
    jury.wait_for("#audit", "start_now", 10);
    jury.screenshot(&shots, "4-control");
    let state = http_json(
        "GET",
        &format!("{site}/api/contests/host/state"),
        admin,
        None,
    );
    assert!(state["started"].is_string(), "{state}");

    // 5. The new team logs in and submits a file that fails; its verdict appears.
    team.go(&c);
    team.type_in("#token", "second-token-2");
    team.click("#enter");
    team.wait_for("#team", "t2", 10);
    let wrong = packages
        .join("sum/submissions/wrong_answer/first_only.py")
        .canonicalize()
        .expect("the source file");
    team.type_in("#source-file", &wrong.display().to_string());
    let code = std::fs::read_to_string(&wrong).expect("source");
    let deadline = Instant::now() + Duration::from_secs(10);
    while team
        .value("#source")
        .unwrap_or_default()
        .replace("\r\n", "\n")
        .trim()
        != code.trim()
    {
        assert!(
            Instant::now() < deadline,
            "the file never filled the source"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    team.click("#send");
    team.wait_for("#mine td.verdict", "WA", 120);
    team.screenshot(&shots, "5-team");

    // 6. The jury opens the failed submission and rejudges it.
    jury.go(&format!("{c}/jury/submissions"));
    jury.wait_for("#jury-submissions", "WA", 10);
    jury.screenshot(&shots, "6-submissions");
    jury.click("#jury-submissions tr.submission a");
    jury.wait_for("#verdict", "WA", 10);
    assert!(jury.text("#diff").is_some(), "the failed test's diff");
    jury.screenshot(&shots, "6-submission");
    jury.click("#rejudge");
    jury.wait_for("#what", "submission", 10);
    // Live on the open page as the judgement arrives.
    let summary = jury.wait_for("#summary", "1 judged again", 120);
    assert!(summary.contains("0 changed verdict"), "{summary}");
    assert_eq!(
        jury.text("#rejudged td:nth-child(6)").as_deref(),
        Some("same")
    );
    jury.screenshot(&shots, "6-rejudging");

    // 7. The team asks; the jury answers from the inbox; the team sees the answer.
    team.type_in("#clar-text", "Are the numbers integers?");
    team.click("#ask");
    // The question is stored once the form's redirect shows it on the team's page; the
    // jury's browser is another session, so it must not look before then.
    team.wait_for("#clarifications", "Are the numbers integers?", 10);
    jury.go(&format!("{c}/jury/clarifications"));
    jury.wait_for("#unanswered", "Are the numbers integers?", 10);
    jury.type_in("#unanswered textarea", "Yes, they are.");
    jury.click("#unanswered form button");
    // The answer's form redirects to the contest's page, which lists it once stored.
    jury.wait_for("#clarifications", "Yes, they are.", 10);
    jury.go(&format!("{c}/jury/clarifications"));
    jury.wait_for("#answered", "Yes, they are.", 10);
    jury.screenshot(&shots, "7-inbox");
    team.wait_for("#clarifications", "Yes, they are.", 10);
    team.screenshot(&shots, "7-team-answer");

    // 8. The jury freezes the board; the team solves the problem after the freeze; the
    // jury ends the contest and reveals the frozen cell, then thaws the public board.
    jury.go(&format!("{c}/jury/control"));
    jury.click("#control-freeze-send");
    jury.click("#confirm");
    jury.wait_for("#audit", "freeze", 10);
    let right = packages.join("sum/submissions/accepted/sum.py");
    let code = std::fs::read_to_string(&right).expect("source");
    let code = serde_json::to_string(&code).expect("JSON");
    let body = format!(r#"{{"problem_id": "sum", "language_id": "python3", "source": {code}}}"#);
    let url = format!("{site}/api/contests/host/submissions");
    assert_eq!(
        http("POST", &url, Some("second-token-2"), Some(&body)).0,
        200
    );
    team.wait_for("#mine td.verdict", "AC", 120);
    jury.go(&format!("{c}/jury/control"));
    jury.click("#control-end-send");
    jury.click("#confirm");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !http_json(
        "GET",
        &format!("{site}/api/contests/host/state"),
        admin,
        None,
    )["ended"]
        .is_string()
    {
        assert!(Instant::now() < deadline, "the contest did not end");
        std::thread::sleep(Duration::from_millis(100));
    }
    jury.go(&format!("{c}/jury/reveal"));
    assert_eq!(jury.text("#status").as_deref(), Some("1 cells to reveal"));
    jury.screenshot(&shots, "8-reveal-frozen");
    jury.click("#reveal");
    jury.click("#reveal");
    jury.wait_for("#status", "Every cell is revealed", 10);
    jury.screenshot(&shots, "8-reveal-done");
    jury.click("#thaw-send");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let board = http_json(
            "GET",
            &format!("{site}/api/contests/host/scoreboard"),
            None,
            None,
        );
        let t2 = board["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["team_id"] == "t2").cloned());
        if t2.is_some_and(|r| r["problems"][0]["solved"] == true) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the public board did not thaw: {board}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    for name in [
        "1-contest-as-the-jury",
        "3-package",
        "6-submission",
        "8-reveal-done",
    ] {
        let png = std::fs::read(shots.join(format!("{name}.png"))).expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    }
    jury.close();
    team.close();
}
