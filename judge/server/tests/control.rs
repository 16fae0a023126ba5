//! The jury's control of the clock over real HTTP (the service on port 0), on SQLite and
//! on PostgreSQL: a contest planned for an hour from now is delayed, started now, frozen,
//! ended early, finalized and thawed (`thaw: jury` holds the frozen board after the
//! end), each through `POST /api/contests/{cid}/control`. Each action is checked in the
//! state and contest objects, in the event feed and in the audit log; actions that make
//! no sense at the time are refused with 409 and change nothing; teams and the public
//! cannot act. The server is then opened again on the same database and serves the same
//! state and log. On PostgreSQL a second host shares the database from the start and
//! must see every change the first host's jury makes. Teams: one added, two imported
//! from CSV (a bad import refused whole, naming each problem), one disabled (its token
//! stops working, its CLICS team is hidden), followed by host B and kept over a restart;
//! a page session made on host A holds on host B and after the restart.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use common::ADMIN;
use common::http::{As, Body, request};
use judge_server::AppState;

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");

/// One host: the service on port 0 over `db`, without workers (nothing is judged).
struct Host {
    addr: SocketAddr,
    http: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Drop for Host {
    /// Stops answering: a host opened again on the database is a new process's state.
    fn drop(&mut self) {
        self.http.abort();
    }
}

async fn host(contest: &std::path::Path, db: &str) -> Host {
    let sandbox = judge::sandbox::SandboxConfig::discover().expect("sandbox config");
    let mut opts = common::options(vec![contest.to_owned()], std::path::Path::new(db), 0);
    opts.db = db.to_owned();
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind port 0");
    let addr = listener.local_addr().expect("bound address");
    let http = tokio::spawn(judge_server::routes::serve(
        listener,
        judge_server::app(Arc::clone(&state)),
    ));
    Host { addr, http }
}

impl Host {
    async fn get(&self, path: &str) -> Value {
        let answer = request(self.addr, "GET", path, As::Bearer(ADMIN), Body::Nothing).await;
        assert_eq!(answer.status, 200, "GET {path}: {}", answer.text());
        answer.json()
    }

    /// `POST .../control` with `body` as `who`: the status and the answer.
    async fn act(&self, who: As<'_>, body: &Value) -> (u16, Value) {
        let answer = request(
            self.addr,
            "POST",
            "/api/contests/arena/control",
            who,
            Body::Json(body),
        )
        .await;
        let value = serde_json::from_slice(&answer.body).unwrap_or(Value::Null);
        (answer.status, value)
    }

    async fn jury(&self, body: &Value) -> Value {
        let (status, answer) = self.act(As::Bearer(ADMIN), body).await;
        assert_eq!(status, 200, "{body}: {answer}");
        answer
    }

    async fn state(&self) -> Value {
        self.get("/api/contests/arena/state").await
    }

    /// The types of the events after token `after`, with their data.
    async fn events_after(&self, after: &str) -> Vec<(String, Value)> {
        let answer = request(
            self.addr,
            "GET",
            &format!("/api/contests/arena/event-feed?stream=false&since_token={after}"),
            As::Bearer(ADMIN),
            Body::Nothing,
        )
        .await;
        assert_eq!(answer.status, 200, "{}", answer.text());
        answer
            .text()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v: Value = serde_json::from_str(l).expect("an event line");
                (v["type"].as_str().unwrap_or("").to_owned(), v)
            })
            .collect()
    }

    async fn last_token(&self) -> String {
        let all = self.events_after("0").await;
        let (_, last) = all.last().expect("events");
        last["token"].as_str().expect("a token").to_owned()
    }
}

/// The events' types, a repeated `state` event counted once: on PostgreSQL another host's
/// ticker may write the state the jury's action wrote again (never an older one).
fn kinds_of(events: &[(String, Value)]) -> Vec<&str> {
    let mut kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
    kinds.dedup_by(|a, b| *a == "state" && *b == "state");
    kinds
}

fn parse(time: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(time.as_str().expect("a time"))
        .expect("RFC 3339")
        .with_timezone(&Utc)
}

/// Waits (at most 30 s) until `check` holds for `host`'s state.
async fn until_state(host: &Host, what: &str, check: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = host.state().await;
        if check(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "{what}: state stayed {state}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A GET of the team's own submissions with `token`: its status (401 for a token no
/// served, enabled team holds).
async fn status_as(host: &Host, token: &str) -> u16 {
    request(
        host.addr,
        "GET",
        "/api/contests/arena/submissions",
        As::Bearer(token),
        Body::Nothing,
    )
    .await
    .status
}

async fn post_teams(host: &Host, who: As<'_>, body: &str) -> (u16, Value) {
    let answer = request(
        host.addr,
        "POST",
        "/api/contests/arena/teams",
        who,
        Body::Text(body),
    )
    .await;
    (
        answer.status,
        serde_json::from_slice(&answer.body).unwrap_or(Value::Null),
    )
}

/// Teams: one added, two imported from CSV, a bad import refused whole, one disabled;
/// on PostgreSQL host B follows. Returns the teams as the API lists them at the end.
async fn teams_story(a: &Host, b: Option<&Host>) -> Value {
    let token = a.last_token().await;
    let (status, _) = post_teams(a, As::Bearer("token-t1"), r#"{"id":"t9","name":"x"}"#).await;
    assert_eq!(status, 403, "a team may not add teams");
    let (status, added) =
        post_teams(a, As::Bearer(ADMIN), r#"{"id":"t2","name":"Team Two"}"#).await;
    assert_eq!(status, 201, "{added}");
    let t2_token = added[0]["token"]
        .as_str()
        .expect("a generated token")
        .to_owned();
    assert!(t2_token.len() >= 16, "{added}");
    assert_eq!(status_as(a, &t2_token).await, 200, "the new team logs in");
    let csv = "id,name,token\nt3,Three,token-three-3\nt4,\"Four, Inc\"\n";
    let (status, added) = post_teams(a, As::Bearer(ADMIN), csv).await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(added[1]["name"], "Four, Inc");
    // A bad import names every problem and adds nothing.
    let (status, why) = post_teams(a, As::Bearer(ADMIN), "t5,Five\nt3,Again\nt6\n").await;
    assert_eq!(status, 400, "{why}");
    let message = why["message"].as_str().unwrap();
    assert!(message.contains("line 3: 1 fields"), "{message}");
    let listed = a.get("/api/contests/arena/teams").await;
    assert_eq!(
        listed.as_array().unwrap().len(),
        4,
        "t1..t4, no t5: {listed}"
    );
    let (status, why) = post_teams(a, As::Bearer(ADMIN), "t5,Five\nt3,Again\n").await;
    assert_eq!(status, 400, "{why}");
    assert!(
        why["message"]
            .as_str()
            .unwrap()
            .contains("team 2 (`t3`): id taken"),
        "{why}"
    );
    assert_eq!(
        a.get("/api/contests/arena/teams")
            .await
            .as_array()
            .unwrap()
            .len(),
        4
    );

    // Disable t1: its token stops working and its team is hidden.
    let disable = |host: &Host| {
        request(
            host.addr,
            "POST",
            "/api/contests/arena/teams/t1/disable",
            As::Bearer(ADMIN),
            Body::Nothing,
        )
    };
    assert_eq!(disable(a).await.status, 204);
    assert_eq!(
        status_as(a, "token-t1").await,
        401,
        "a disabled team is out"
    );
    let again = disable(a).await;
    assert_eq!(again.status, 400, "{}", again.text());
    let events = a.events_after(&token).await;
    let teams: Vec<(&str, &Value)> = events
        .iter()
        .filter(|(k, _)| k == "teams")
        .map(|(_, e)| (e["id"].as_str().unwrap(), &e["data"]["hidden"]))
        .collect();
    assert_eq!(
        teams,
        [
            ("t2", &json!(false)),
            ("t3", &json!(false)),
            ("t4", &json!(false)),
            ("t1", &json!(true)),
        ],
        "{events:?}"
    );
    let listed = a.get("/api/contests/arena/teams").await;
    if let Some(b) = b {
        let deadline = Instant::now() + Duration::from_secs(30);
        while status_as(b, &t2_token).await != 200 || status_as(b, "token-t1").await != 401 {
            assert!(
                Instant::now() < deadline,
                "host B never saw the teams change"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(b.get("/api/contests/arena/teams").await, listed);
    }
    listed
}

fn contest_file(dir: &std::path::Path) -> std::path::PathBuf {
    let start = (Utc::now() + chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let yaml = format!(
        "id: arena\nname: Arena\nstart_time: {start}\nduration: '5:00:00'\n\
         scoreboard_freeze_duration: '1:00:00'\nthaw: jury\n\
         problems:\n  - {{id: sum, package: {PACKAGES}/sum}}\n\
         teams:\n  - {{id: t1, name: Team One, token: token-t1}}\n"
    );
    let path = dir.join("contest.yaml");
    std::fs::write(&path, yaml).expect("contest file");
    path
}

/// The whole story on one database; `second`: another host on the same database
/// (PostgreSQL). It is long because it is one scenario told in order: each step works on
/// the state the steps before it left.
async fn story(db: &str, second: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let a = host(&contest, db).await;
    let b = if second {
        Some(host(&contest, db).await)
    } else {
        None
    };
    let planned = parse(&a.get("/api/contests/arena").await["start_time"]);
    assert!(a.state().await["started"].is_null());

    // Nobody but the jury acts; nonsense is refused and changes nothing.
    let freeze = json!({"action": "freeze"});
    let (status, _) = a.act(As::Bearer("token-t1"), &freeze).await;
    assert_eq!(status, 403, "a team may not control the contest");
    let (status, _) = a.act(As::Nobody, &freeze).await;
    assert_eq!(status, 403, "the public may not control the contest");
    let (status, why) = a.act(As::Bearer(ADMIN), &freeze).await;
    assert_eq!(status, 409, "freeze before the start: {why}");
    assert!(
        why["message"].as_str().unwrap().contains("not started"),
        "{why}"
    );
    let (status, why) = a.act(As::Bearer(ADMIN), &json!({"action": "pause"})).await;
    assert_eq!(status, 400, "an unknown action: {why}");
    assert!(why["message"].as_str().unwrap().contains("pause"), "{why}");
    assert!(a.get("/api/contests/arena/audit").await == json!([]));

    // Delay by half an hour: the contest object moves, the audit log says so.
    let later = planned + chrono::Duration::minutes(30);
    let later_text = later.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let token = a.last_token().await;
    a.jury(&json!({"action": "delay", "start_time": later_text}))
        .await;
    assert_eq!(
        parse(&a.get("/api/contests/arena").await["start_time"]),
        later
    );
    let events = a.events_after(&token).await;
    let kinds = kinds_of(&events);
    assert_eq!(kinds, ["contest", "state"], "{events:?}");
    assert_eq!(parse(&events[0].1["data"]["start_time"]), later);
    if let Some(b) = &b {
        let deadline = Instant::now() + Duration::from_secs(30);
        while parse(&b.get("/api/contests/arena").await["start_time"]) != later {
            assert!(Instant::now() < deadline, "host B never saw the delay");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // Start now: started, the problems gain their files, the duration is kept.
    let token = a.last_token().await;
    let state = a.jury(&json!({"action": "start_now"})).await;
    assert!(state["started"].is_string(), "{state}");
    let started = parse(&state["started"]);
    assert!((Utc::now() - started).num_seconds().abs() < 60, "{state}");
    let events = a.events_after(&token).await;
    let kinds = kinds_of(&events);
    assert_eq!(kinds, ["contest", "problems", "state"], "{events:?}");
    assert!(
        events[1].1["data"]["statement"].is_array(),
        "the problem's files come with the start: {events:?}"
    );
    assert_eq!(
        a.get("/api/contests/arena").await["duration"],
        "5:00:00.000"
    );
    let (status, why) = a
        .act(As::Bearer(ADMIN), &json!({"action": "start_now"}))
        .await;
    assert_eq!(status, 409, "started twice: {why}");
    if let Some(b) = &b {
        until_state(b, "host B sees the start", |s| s["started"].is_string()).await;
        // Host B's clock is host A's: a team may submit there now (not judged: no worker).
        let source = std::fs::read_to_string(format!("{PACKAGES}/sum/submissions/accepted/sum.py"))
            .or_else(|_| {
                std::fs::read_to_string(format!("{PACKAGES}/sum/submissions/accepted/sum.c"))
            })
            .expect("a source of sum");
        let body = json!({"problem_id": "sum", "language_id": "python3", "source": source});
        let answer = request(
            b.addr,
            "POST",
            "/api/contests/arena/submissions",
            As::Bearer("token-t1"),
            Body::Json(&body),
        )
        .await;
        assert_eq!(answer.status, 200, "submit on host B: {}", answer.text());
    }

    // Freeze now (the planned freeze is hours away), then end early.
    let state = a.jury(&freeze).await;
    assert!(state["frozen"].is_string(), "{state}");
    if let Some(b) = &b {
        until_state(b, "host B sees the freeze", |s| s["frozen"].is_string()).await;
        let (status, _) = b.act(As::Bearer(ADMIN), &freeze).await;
        assert_eq!(status, 409, "host B knows the board froze");
    }
    let state = a.jury(&json!({"action": "end"})).await;
    assert!(state["ended"].is_string(), "{state}");
    assert!(
        state["thawed"].is_null(),
        "thaw: jury holds the board after the end: {state}"
    );
    let duration = a.get("/api/contests/arena").await["duration"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        duration.starts_with("0:0"),
        "ended within minutes: {duration}"
    );

    // Finalize: on PostgreSQL host B's queued submission is still pending (no worker),
    // so it is refused until the queue is empty; on SQLite nothing was submitted.
    if b.is_some() {
        let (status, why) = a
            .act(As::Bearer(ADMIN), &json!({"action": "finalize"}))
            .await;
        assert_eq!(status, 409, "finalize with a submission pending: {why}");
        assert!(why["message"].as_str().unwrap().contains("judged"), "{why}");
    } else {
        let state = a.jury(&json!({"action": "finalize"})).await;
        assert!(state["finalized"].is_string(), "{state}");
        assert!(state["end_of_updates"].is_null(), "still frozen: {state}");
    }
    let state = a.jury(&json!({"action": "thaw"})).await;
    assert!(state["thawed"].is_string(), "{state}");
    if b.is_none() {
        assert!(state["end_of_updates"].is_string(), "{state}");
    }
    let state = a.state().await;
    let audit = a.get("/api/contests/arena/audit").await;
    let actions: Vec<&str> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["action"].as_str().unwrap())
        .collect();
    let expected: &[&str] = if b.is_some() {
        &["delay", "start_now", "freeze", "end", "thaw"]
    } else {
        &["delay", "start_now", "freeze", "end", "finalize", "thaw"]
    };
    assert_eq!(actions, expected, "{audit}");
    assert!(
        audit[0]["detail"]
            .as_str()
            .unwrap()
            .contains(&later_text[..16])
    );
    if let Some(b) = &b {
        until_state(b, "host B sees the thaw", |s| s["thawed"].is_string()).await;
        assert_eq!(b.get("/api/contests/arena/audit").await, audit);
    }

    let teams = teams_story(&a, b.as_ref()).await;

    // A page session made on host A is known to every host and after a restart.
    let (sid, csrf) = common::http::login(a.addr, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let jury = As::Session {
        id: &sid,
        csrf: &csrf,
    };
    let is_jury = |page: String| page.contains("id=jury");
    if let Some(b) = &b {
        let page = request(b.addr, "GET", "/contests/arena", jury, Body::Nothing).await;
        assert!(is_jury(page.text()), "host B knows host A's session");
    }

    // Opened again on the same database: the same state and log.
    drop(a);
    drop(b);
    let again = host(&contest, db).await;
    let reopened = again.state().await;
    for key in ["started", "frozen", "ended", "thawed", "finalized"] {
        assert_eq!(reopened[key], state[key], "{key} after a restart");
    }
    let page = request(again.addr, "GET", "/contests/arena", jury, Body::Nothing).await;
    assert!(is_jury(page.text()), "the session survives the restart");
    let audit_again = again.get("/api/contests/arena/audit").await;
    assert_eq!(
        audit_again.as_array().unwrap()[..audit.as_array().unwrap().len()],
        audit.as_array().unwrap()[..]
    );
    assert_eq!(again.get("/api/contests/arena/teams").await, teams);
    assert_eq!(
        again.get("/api/contests/arena").await["duration"],
        Value::String(duration)
    );
}

/// A route: method, path and the form it posts.
type Route = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// Every jury route of the page, as a table: without a jury session (nobody, or a team's
/// session) a GET is sent to the login (303) and a POST is refused (403), and a jury
/// session whose form carries another CSRF token is refused too (403); nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_jury_route_needs_a_jury_session_and_its_csrf_token() {
    const ROUTES: [Route; 22] = [
        ("GET", "/contests/arena/jury/clarifications", &[]),
        ("GET", "/contests/arena/jury/rejudgings", &[]),
        ("GET", "/contests/arena/jury/rejudgings/1", &[]),
        (
            "POST",
            "/contests/arena/jury/rejudgings",
            &[("problem", "sum")],
        ),
        ("POST", "/contests/arena/jury/clarifications/1/handled", &[]),
        ("GET", "/contests/arena/jury/submissions", &[]),
        ("GET", "/contests/arena/jury/submissions/1", &[]),
        ("GET", "/contests/arena/jury/tokens", &[]),
        ("GET", "/contests/arena/jury/control", &[]),
        ("GET", "/contests/arena/jury/teams", &[]),
        ("GET", "/contests/arena/jury/problems", &[]),
        (
            "GET",
            "/contests/arena/jury/packages/0000000000000000000000000000000000000000000000000000000000000000",
            &[],
        ),
        (
            "POST",
            "/contests/arena/jury/problems/upload",
            &[("file", "PK")],
        ),
        (
            "POST",
            "/contests/arena/jury/problems/add",
            &[("sha256", "0"), ("id", "x")],
        ),
        ("POST", "/contests/arena/jury/problems/sum/remove", &[]),
        (
            "POST",
            "/contests/arena/jury/packages/0000000000000000000000000000000000000000000000000000000000000000/verify",
            &[],
        ),
        ("GET", "/contests/arena/export", &[]),
        (
            "POST",
            "/contests/arena/jury/control",
            &[("action", "start_now"), ("confirm", "yes")],
        ),
        (
            "POST",
            "/contests/arena/jury/teams",
            &[("id", "t8"), ("name", "Eight")],
        ),
        (
            "POST",
            "/contests/arena/jury/teams/upload",
            &[("file", "t8,Eight")],
        ),
        ("POST", "/contests/arena/jury/teams/t1/disable", &[]),
        ("POST", "/contests/arena/jury/teams/t1/enable", &[]),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let db = dir.path().join("db.sqlite").display().to_string();
    let a = host(&contest, &db).await;
    let (t1_id, t1_csrf) = common::http::login(a.addr, "arena", "token-t1")
        .await
        .expect("t1 logs in");
    let (jury_id, _) = common::http::login(a.addr, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let before = a.last_token().await;
    for (method, path, fields) in ROUTES {
        let team = As::Session {
            id: &t1_id,
            csrf: &t1_csrf,
        };
        for (who, name) in [(As::Nobody, "nobody"), (team, "a team")] {
            let body = if method == "POST" {
                Body::Form(fields)
            } else {
                Body::Nothing
            };
            let answer = request(a.addr, method, path, who, body).await;
            let expected = if method == "GET" { 303 } else { 403 };
            assert_eq!(
                answer.status,
                expected,
                "{method} {path} as {name}: {}",
                answer.text()
            );
            if method == "GET" {
                assert_eq!(answer.header("location"), Some("/contests/arena#login"));
            }
        }
        if method == "POST" {
            let forged = As::Session {
                id: &jury_id,
                csrf: "not-the-session-s",
            };
            let answer = request(a.addr, method, path, forged, Body::Form(fields)).await;
            assert_eq!(
                answer.status, 403,
                "{method} {path} with a forged CSRF token"
            );
        }
    }
    assert_eq!(a.last_token().await, before, "nothing was written");
    assert_eq!(a.get("/api/contests/arena/audit").await, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_controls_the_clock_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite").display().to_string();
    story(&db, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_controls_the_clock_on_postgres_across_two_hosts() {
    let admin_url = std::env::var("ARENA_PG_URL").ok();
    if !ci::require::present(
        "postgres",
        admin_url
            .is_none()
            .then_some("ARENA_PG_URL is not set (run ci/setup)"),
    ) {
        return;
    }
    let admin_url = admin_url.expect("checked");
    let name = format!(
        "arena_control_{}_{}",
        std::process::id(),
        Utc::now().timestamp_subsec_nanos()
    );
    let psql = |sql: &str| {
        let out = std::process::Command::new("psql")
            .args([&admin_url, "-tAc", sql])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    psql(&format!("CREATE DATABASE {name}"));
    let url = format!("{}/{name}", admin_url.rsplit_once('/').expect("a URL").0);
    story(&url, true).await;
    psql(&format!("DROP DATABASE {name} WITH (FORCE)"));
}

/// Uploads `bytes` as the file `name` to the teams page's upload as `who`: the status and
/// the answer's text.
async fn upload_as(addr: SocketAddr, who: As<'_>, name: &str, bytes: Vec<u8>) -> (u16, String) {
    let parts = [common::http::Part {
        name: "file",
        file_name: Some(name),
        bytes: &bytes,
    }];
    let answer = request(
        addr,
        "POST",
        "/contests/arena/jury/teams/upload",
        who,
        Body::Multipart(&parts),
    )
    .await;
    (answer.status, answer.text())
}

/// The teams page imports an uploaded file (CSV, TSV or `teams.json`) all or none, every
/// problem named with the file's name; the file's limit and a file that is not text are
/// refused by name; the import is in the audit log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_imports_teams_from_an_uploaded_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let db = dir.path().join("db.sqlite").display().to_string();
    let a = host(&contest, &db).await;
    let (sid, csrf) = common::http::login(a.addr, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let jury = As::Session {
        id: &sid,
        csrf: &csrf,
    };
    let page = request(
        a.addr,
        "GET",
        "/contests/arena/jury/teams",
        jury,
        Body::Nothing,
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let page = page.text();
    assert!(
        page.contains(
            "<form id=upload-teams method=post action='/contests/arena/jury/teams/upload' \
             enctype='multipart/form-data'><input type=hidden name=csrf"
        ) && page.contains("<input type=file name=file"),
        "{page}"
    );
    let upload = |name: &'static str, bytes: Vec<u8>| upload_as(a.addr, jury, name, bytes);
    let teams = || a.get("/api/contests/arena/teams");
    let ids = |teams: &Value| -> Vec<String> {
        teams
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_owned())
            .collect()
    };

    // A CSV file with a header; a TSV file; a teams.json file.
    let (status, text) = upload(
        "teams.csv",
        b"id,name,token\nt2,Two,token-two-2\nt3,\"Three, Ltd\"\n".to_vec(),
    )
    .await;
    assert_eq!(status, 303, "{text}");
    let (status, text) = upload("more.tsv", b"t4\tFour\n".to_vec()).await;
    assert_eq!(status, 303, "{text}");
    let json = json!([{"id": "t5", "name": "Five"}]).to_string();
    let (status, text) = upload("teams.json", json.into_bytes()).await;
    assert_eq!(status, 303, "{text}");
    let listed = teams().await;
    assert_eq!(ids(&listed), ["t1", "t2", "t3", "t4", "t5"], "{listed}");
    assert_eq!(status_as(&a, "token-two-2").await, 200, "t2's token works");

    // Refused whole, each problem named with the file: a short line, a taken id, bytes
    // that are not text, an empty file, a file over the limit (256 KiB).
    for (name, bytes, says) in [
        (
            "bad.csv",
            b"t6,Six\nt7\n".to_vec(),
            "`bad.csv`: line 2: 1 fields",
        ),
        (
            "taken.csv",
            b"t8,Eight\nt2,Again\n".to_vec(),
            "`taken.csv`: team 2 (`t2`): id taken",
        ),
        (
            "binary.csv",
            vec![0xff, 0xfe, 0x00, 0x41],
            "`binary.csv`: not UTF-8 text",
        ),
        ("empty.csv", Vec::new(), "`empty.csv`: no team in it"),
        (
            "big.csv",
            vec![b'x'; (256 << 10) + 1],
            "`big.csv`: larger than the limit of 262144 bytes",
        ),
    ] {
        let (status, text) = upload(name, bytes).await;
        assert!(status == 400 || status == 413, "{name}: {status} {text}");
        assert!(text.contains(says), "{name}: {text}");
    }
    assert_eq!(ids(&teams().await), ["t1", "t2", "t3", "t4", "t5"]);

    // Without the session's token, or not as the jury: 403, nothing added.
    let (t1, t1_csrf) = common::http::login(a.addr, "arena", "token-t1")
        .await
        .expect("t1 logs in");
    let forged = As::Session {
        id: &sid,
        csrf: "forged",
    };
    let team = As::Session {
        id: &t1,
        csrf: &t1_csrf,
    };
    for who in [forged, team, As::Nobody] {
        let (status, text) = upload_as(a.addr, who, "t9.csv", b"t9,Nine\n".to_vec()).await;
        assert_eq!(status, 403, "{text}");
    }
    assert_eq!(ids(&teams().await).len(), 5);
    let audit = a.get("/api/contests/arena/audit").await;
    let actions: Vec<(&str, &str)> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["action"].as_str().unwrap(), r["detail"].as_str().unwrap()))
        .collect();
    assert_eq!(
        actions,
        [
            ("import_teams", "t2, t3"),
            ("add_team", "t4"),
            ("add_team", "t5"),
        ],
        "{audit}"
    );
}
