//! End-to-end tests of `judge serve`: the real binary on port 0 with a SQLite file,
//! judging in bubblewrap over the sandbox root filesystem, spoken to over real HTTP (with
//! curl). Three teams submit; the scoreboard must match the expected one exactly, for
//! the admin and frozen for the public; then the server is killed with SIGKILL while
//! judging and restarted on the same file, and every acknowledged submission must end
//! with exactly one judgement. A client streaming the event feed through such a restart
//! resumes with `since_token` and gets every event exactly once, in order; and on
//! PostgreSQL a change written through one host reaches another host's board and feed.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Killed, available, http, present, start_serve};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ADMIN: &str = "admin-token-for-tests";

fn packages() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages")
}

fn source(package: &str, path: &str) -> String {
    std::fs::read_to_string(packages().join(package).join("submissions").join(path))
        .expect("reference submission")
}

/// A running `judge serve` and its base URL.
struct Server {
    child: Killed,
    base: String,
}

impl Server {
    fn start(contest: &Path, db: &Path) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
        cmd.args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "2",
            "--backend",
            "bwrap",
        ])
        .arg("--contest")
        .arg(contest)
        .arg("--db")
        .arg(format!("sqlite://{}", db.display()))
        .env("ARENA_ADMIN_TOKEN", ADMIN);
        let (child, base) = start_serve(cmd);
        Server { child, base }
    }

    /// SIGKILL: no chance to clean up.
    fn kill(&mut self) {
        self.child.kill();
    }
}

fn get_json(server: &Server, path: &str, token: Option<&str>) -> Value {
    let (status, body) = http("GET", &format!("{}{path}", server.base), token, None);
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
}

fn post(server: &Server, token: &str, body: &Value) -> (u16, Value) {
    let (status, text) = http(
        "POST",
        &format!("{}/api/contests/arena/submissions", server.base),
        Some(token),
        Some(&body.to_string()),
    );
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn wait_until_judged(server: &Server) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let q = get_json(server, "/api/queue", Some(ADMIN));
        if q["queued"] == 0 && q["judging"] == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "the queue did not drain: {q}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The contest: started 4 h 30 min ago, 5 hours long, frozen for the last hour (so the
/// freeze began 30 minutes ago), ICPC scoring with 20 penalty minutes.
fn contest_file(dir: &Path) -> PathBuf {
    let start = chrono::Utc::now() - chrono::Duration::minutes(270);
    let yaml = format!(
        "id: arena\nname: Arena Test Contest\nstart_time: {}\nduration: '5:00:00'\n\
         scoreboard_freeze_duration: 60\nscoring: icpc\npenalty_minutes: 20\nsubmissions_per_minute: 30\n\
         problems:\n  - {{id: sum, label: A, package: {}}}\n  - {{id: rangesum, label: B, package: {}}}\n\
         teams:\n  - {{id: t1, name: Team One, token: token-team-1}}\n  - {{id: t2, name: Team Two, token: token-team-2}}\n  - {{id: t3, name: Team Three, token: token-team-3}}\n",
        start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        packages().join("sum").display(),
        packages().join("rangesum").display(),
    );
    let path = dir.join("contest.yaml");
    std::fs::write(&path, yaml).expect("contest file");
    path
}

fn at_minute(contest_start: &str, minute: i64) -> String {
    let start: chrono::DateTime<chrono::Utc> = contest_start.parse().expect("start time");
    (start + chrono::Duration::minutes(minute)).to_rfc3339()
}

/// `(rank, team, solved, total minutes, [(problem, judged, pending, solved)])` of each row.
/// `(problem, judged, pending, solved)`.
type CellSummary = (String, u64, u64, bool);
/// `(rank, team, solved, total time in minutes, cells)`.
type RowSummary = (u64, String, u64, u64, Vec<CellSummary>);

fn summary(board: &Value) -> Vec<RowSummary> {
    board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["team_id"].as_str().unwrap().to_owned(),
                r["score"]["num_solved"].as_u64().unwrap(),
                r["score"]["total_time"].as_u64().unwrap(),
                r["problems"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        (
                            p["problem_id"].as_str().unwrap().to_owned(),
                            p["num_judged"].as_u64().unwrap(),
                            p["num_pending"].as_u64().unwrap(),
                            p["solved"].as_bool().unwrap(),
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

/// It is long because it is one scenario told in order: each step works on what the
/// steps before it left (the server, the database, the submissions), so cutting it would
/// only pass that state around.
#[test]
fn three_teams_scoreboard_freeze_visibility_and_a_sigkill_restart() {
    if !available("bwrap") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let db = dir.path().join("contest.db");
    let mut server = Server::start(&contest, &db);

    let info = get_json(&server, "/api/contests/arena", None);
    let start = info["start_time"].as_str().expect("start_time").to_owned();
    assert_eq!(info["penalty_time"], 20, "CLICS 2023-06: integer minutes");
    assert_eq!(info["scoreboard_freeze_duration"], "1:00:00.000");
    let types = get_json(&server, "/api/contests/arena/judgement-types", None);
    let ids: Vec<&str> = types
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    for id in ["AC", "WA", "TLE", "RTE", "CE", "MLE", "OLE", "JE"] {
        assert!(ids.contains(&id), "judgement type {id} in {ids:?}");
    }

    assert_eq!(
        get_json(&server, "/api/contests/arena/problems/rangesum", None)["label"],
        "B"
    );
    assert_eq!(
        get_json(&server, "/api/contests/arena/teams/t2", None)["name"],
        "Team Two"
    );
    assert_eq!(
        get_json(&server, "/api/contests/arena/judgement-types/CE", None)["penalty"],
        false
    );
    for missing in [
        "/api/contests/arena/problems/nope",
        "/api/contests/arena/clarifications-x",
        "/api/contests/nope/problems",
    ] {
        let (status, text) = http("GET", &format!("{}{missing}", server.base), None, None);
        assert_eq!(status, 404, "{missing}: {text}");
    }
    let ac_sum = source("sum", "accepted/sum.c");
    let wa_sum = source("sum", "wrong_answer/first_only.py");
    // A compile error is no package's submission (neither package format has that verdict):
    // the fixture stands in for a team's broken C++.
    let ce_sum = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/missing_semicolon.cpp"),
    )
    .expect("compile error fixture");
    let ac_range = source("rangesum", "accepted/prefix.cpp");
    // Admin submissions at chosen contest times (as a CCS importing a feed would).
    let admin_posts = [
        ("t1", "sum", "python3", &wa_sum, 10),
        ("t1", "sum", "c", &ac_sum, 20),
        ("t2", "sum", "cpp", &ce_sum, 5),
        ("t2", "sum", "c", &ac_sum, 15),
        ("t2", "rangesum", "cpp", &ac_range, 100),
        ("t3", "sum", "python3", &wa_sum, 30),
        ("t3", "rangesum", "cpp", &ac_range, 250), // after the freeze (240)
    ];
    for (team, problem, lang, code, minute) in admin_posts {
        let (status, body) = post(
            &server,
            ADMIN,
            &json!({"team_id": team, "problem_id": problem, "language_id": lang, "source": code, "time": at_minute(&start, minute)}),
        );
        assert_eq!(status, 200, "admin post: {body}");
    }
    // A team submits live (contest minute 270, after the freeze) as a CLICS base64 zip.
    let zip = {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        w.start_file("prefix.cpp", zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(ac_range.as_bytes()).unwrap();
        w.finish().unwrap().into_inner()
    };
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(zip);
    let (status, body) = post(
        &server,
        "token-team-1",
        &json!({"problem_id": "rangesum", "language_id": "cpp", "files": [{"data": data, "mime": "application/zip"}]}),
    );
    assert_eq!(status, 200, "team post: {body}");
    assert_eq!(body["team_id"], "t1");

    // Bad requests: each gets its status and message, and nothing is stored.
    let bad: Vec<(&str, Option<&str>, String, u16, &str)> = vec![
        (
            "malformed JSON",
            Some("token-team-1"),
            "{\"problem_id\": ".into(),
            400,
            "submission body",
        ),
        (
            "unknown problem",
            Some("token-team-1"),
            json!({"problem_id": "nope", "language_id": "c", "source": "x"}).to_string(),
            400,
            "no problem `nope`",
        ),
        (
            "language not allowed",
            Some("token-team-1"),
            json!({"problem_id": "sum", "language_id": "cobol", "source": "x"}).to_string(),
            400,
            "language_id",
        ),
        (
            "too large",
            Some("token-team-1"),
            json!({"problem_id": "sum", "language_id": "c", "source": "x".repeat(200_000)})
                .to_string(),
            413,
            "over the problem's limit",
        ),
        (
            "no token",
            None,
            json!({"problem_id": "sum", "language_id": "c", "source": "x"}).to_string(),
            401,
            "token",
        ),
        (
            "wrong token",
            Some("not-a-token"),
            json!({"problem_id": "sum", "language_id": "c", "source": "x"}).to_string(),
            401,
            "unknown token",
        ),
        (
            "team sets time",
            Some("token-team-2"),
            json!({"problem_id": "sum", "language_id": "c", "source": "x", "time": start})
                .to_string(),
            403,
            "only an admin",
        ),
        (
            "team as another",
            Some("token-team-2"),
            json!({"problem_id": "sum", "language_id": "c", "source": "x", "team_id": "t1"})
                .to_string(),
            403,
            "cannot submit as",
        ),
    ];
    for (what, token, body, want, needle) in bad {
        let (status, text) = http(
            "POST",
            &format!("{}/api/contests/arena/submissions", server.base),
            token,
            Some(&body),
        );
        assert_eq!(status, want, "{what}: {text}");
        assert!(text.contains(needle), "{what}: {text} lacks {needle:?}");
    }
    let all = get_json(&server, "/api/contests/arena/submissions", Some(ADMIN));
    assert_eq!(
        all.as_array().unwrap().len(),
        8,
        "bad requests stored nothing"
    );

    wait_until_judged(&server);

    // The full scoreboard (admin).
    let full = get_json(&server, "/api/contests/arena/scoreboard", Some(ADMIN));
    let expected_full = vec![
        // t2: A at 15 (the CE does not count), B at 100: 115 minutes.
        (
            1,
            "t2".to_owned(),
            2,
            115,
            vec![
                ("sum".to_owned(), 1, 0, true),
                ("rangesum".to_owned(), 1, 0, true),
            ],
        ),
        // t1: A at 20 after one WA (40), B live at about minute 270: 310 minutes.
        (
            2,
            "t1".to_owned(),
            2,
            310,
            vec![
                ("sum".to_owned(), 2, 0, true),
                ("rangesum".to_owned(), 1, 0, true),
            ],
        ),
        // t3: B at 250.
        (
            3,
            "t3".to_owned(),
            1,
            250,
            vec![
                ("sum".to_owned(), 1, 0, false),
                ("rangesum".to_owned(), 1, 0, true),
            ],
        ),
    ];
    let got = summary(&full);
    // t1's live accept happened at minute 270 or 271, depending on when the test ran.
    let t1_time = got[1].3;
    assert!(t1_time == 310 || t1_time == 311, "{t1_time}");
    let mut expected_full = expected_full;
    expected_full[1].3 = t1_time;
    assert_eq!(got, expected_full, "{full:#}");
    let first: Vec<(String, String)> = full["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r["problems"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["first_to_solve"] == true)
                .map(|p| {
                    (
                        r["team_id"].as_str().unwrap().to_owned(),
                        p["problem_id"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        first,
        vec![
            ("t2".into(), "sum".into()),
            ("t2".into(), "rangesum".into())
        ]
    );

    // The public board is frozen: t3's B at 250 and t1's live B are pending.
    let public = get_json(&server, "/api/contests/arena/scoreboard", None);
    let expected_public = vec![
        (
            1,
            "t2".to_owned(),
            2,
            115,
            vec![
                ("sum".to_owned(), 1, 0, true),
                ("rangesum".to_owned(), 1, 0, true),
            ],
        ),
        (
            2,
            "t1".to_owned(),
            1,
            40,
            vec![
                ("sum".to_owned(), 2, 0, true),
                ("rangesum".to_owned(), 0, 1, false),
            ],
        ),
        (
            3,
            "t3".to_owned(),
            0,
            0,
            vec![
                ("sum".to_owned(), 1, 0, false),
                ("rangesum".to_owned(), 0, 1, false),
            ],
        ),
    ];
    assert_eq!(summary(&public), expected_public, "{public:#}");
    assert!(public["state"]["frozen"].is_string());
    assert!(public["state"]["thawed"].is_null());

    // Visibility: a team sees only its own submissions, judgements and code.
    let mine = get_json(
        &server,
        "/api/contests/arena/submissions",
        Some("token-team-3"),
    );
    let teams: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["team_id"].as_str())
        .collect();
    assert_eq!(teams, vec!["t3", "t3"]);
    let judgements = get_json(
        &server,
        "/api/contests/arena/judgements",
        Some("token-team-3"),
    );
    assert_eq!(judgements.as_array().unwrap().len(), 2);
    let public_subs = get_json(&server, "/api/contests/arena/submissions", None);
    assert_eq!(public_subs, json!([]));
    let t1_sub = all[0]["id"].as_str().unwrap();
    let (status, _) = http(
        "GET",
        &format!(
            "{}/api/contests/arena/submissions/{t1_sub}/files",
            server.base
        ),
        Some("token-team-3"),
        None,
    );
    assert_eq!(status, 404, "another team's code is not served");
    let (status, _) = http(
        "GET",
        &format!(
            "{}/api/contests/arena/submissions/{t1_sub}/files",
            server.base
        ),
        Some("token-team-1"),
        None,
    );
    assert_eq!(status, 200, "a team's own code is served");

    // The event feed: every object once per change, tokens increasing, since_token resumes.
    let (status, feed) = http(
        "GET",
        &format!("{}/api/contests/arena/event-feed?stream=false", server.base),
        Some(ADMIN),
        None,
    );
    assert_eq!(status, 200);
    let events: Vec<Value> = feed
        .lines()
        .map(|l| serde_json::from_str(l).expect("NDJSON line"))
        .collect();
    let count = |kind: &str| events.iter().filter(|e| e["type"] == kind).count();
    assert_eq!(count("contest"), 1);
    assert_eq!(count("problems"), 2);
    assert_eq!(count("teams"), 3);
    assert_eq!(count("submissions"), 8);
    assert_eq!(count("judgements"), 8);
    let tokens: Vec<i64> = events
        .iter()
        .map(|e| e["token"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(tokens.windows(2).all(|w| w[0] < w[1]), "tokens increase");
    let middle = &events[events.len() / 2];
    let (_, rest) = http(
        "GET",
        &format!(
            "{}/api/contests/arena/event-feed?stream=false&since_token={}",
            server.base,
            middle["token"].as_str().unwrap()
        ),
        Some(ADMIN),
        None,
    );
    assert_eq!(rest.lines().count(), events.len() - events.len() / 2 - 1);
    let (_, team_feed) = http(
        "GET",
        &format!("{}/api/contests/arena/event-feed?stream=false", server.base),
        Some("token-team-3"),
        None,
    );
    assert!(
        !team_feed.contains("\"team_id\":\"t1\""),
        "a team's feed holds no other team's submissions"
    );

    // An admin creates a contest over HTTP; it ended an hour ago, so a team's
    // submission is refused (403) and nothing is stored. Teams cannot create contests.
    let old = json!({
        "id": "old", "name": "Old Contest",
        "start_time": (chrono::Utc::now() - chrono::Duration::hours(3)).to_rfc3339(),
        "duration": "2:00:00", "scoreboard_freeze_duration": 30,
        "problems": [{"id": "sum", "package": packages().join("sum")}],
        "teams": [{"id": "o1", "name": "Old One", "token": "token-old-1"}],
    });
    let url = format!("{}/api/contests", server.base);
    let (status, text) = http("POST", &url, Some("token-team-1"), Some(&old.to_string()));
    assert_eq!(status, 403, "{text}");
    let (status, text) = http("POST", &url, Some(ADMIN), Some("{\"id\": 3"));
    assert_eq!(status, 400, "{text}");
    let (status, text) = http("POST", &url, Some(ADMIN), Some(&old.to_string()));
    assert_eq!(status, 201, "{text}");
    let (status, _) = http("POST", &url, Some(ADMIN), Some(&old.to_string()));
    assert_eq!(status, 409, "a second create of the same id conflicts");
    let got = get_json(&server, "/api/contests/old", None);
    assert_eq!(got["duration"], "2:00:00.000");
    assert_eq!(got["scoreboard_freeze_duration"], "0:30:00.000");
    let (status, text) = http(
        "POST",
        &format!("{}/api/contests/old/submissions", server.base),
        Some("token-old-1"),
        Some(&json!({"problem_id": "sum", "language_id": "c", "source": ac_sum}).to_string()),
    );
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("over"), "{text}");
    // Basic auth (user = team id, password = token) is the same team.
    let out = Command::new("curl")
        .args([
            "-sS",
            "-u",
            "o1:token-old-1",
            &format!("{}/api/contests/old/submissions", server.base),
        ])
        .output()
        .expect("curl");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[]",
        "o1 has no submissions stored"
    );
    let out = Command::new("curl")
        .args([
            "-sS",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-u",
            "t1:token-old-1",
        ])
        .arg(format!("{}/api/contests/old/submissions", server.base))
        .output()
        .expect("curl");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "401",
        "a token under another team's name"
    );

    // SIGKILL mid-judging, then restart on the same file.
    let tle = source("sum", "time_limit_exceeded/spin.c");
    let mut acknowledged = Vec::new();
    for i in 0..4 {
        let team = ["t1", "t2", "t3", "t1"][i];
        let (status, body) = post(
            &server,
            ADMIN,
            &json!({"team_id": team, "problem_id": "sum", "language_id": "c", "source": tle, "time": at_minute(&start, 200)}),
        );
        assert_eq!(status, 200, "{body}");
        acknowledged.push(body["id"].as_str().unwrap().to_owned());
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let q = get_json(&server, "/api/queue", Some(ADMIN));
        if q["judging"].as_i64().unwrap() > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "nothing started judging: {q}");
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill();
    let server = Server::start(&contest, &db);
    wait_until_judged(&server);
    let subs = get_json(&server, "/api/contests/arena/submissions", Some(ADMIN));
    assert_eq!(
        subs.as_array().unwrap().len(),
        12,
        "no acknowledged submission lost"
    );
    let judgements = get_json(&server, "/api/contests/arena/judgements", Some(ADMIN));
    let judgements = judgements.as_array().unwrap();
    for id in &acknowledged {
        let of_it: Vec<&Value> = judgements
            .iter()
            .filter(|j| j["submission_id"] == id.as_str())
            .collect();
        assert_eq!(
            of_it.len(),
            1,
            "submission {id}: exactly one judgement, got {of_it:?}"
        );
        assert_eq!(of_it[0]["judgement_type_id"], "TLE");
    }
    assert_eq!(judgements.len(), 12);
    // TLE before the freeze adds a rejected try to each team's A where unsolved.
    let full = get_json(&server, "/api/contests/arena/scoreboard", Some(ADMIN));
    let t3 = full["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"] == "t3")
        .unwrap()
        .clone();
    assert_eq!(t3["problems"][0]["num_judged"], 2, "{t3}");
}

/// `psql` against `url`; returns the rows as text (`-tA`).
fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-tAc", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn run_ok(args: &[&str]) {
    let out = Command::new(args[0])
        .args(&args[1..])
        .output()
        .expect("command runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A second host: a network namespace joined to this one by a veth pair; the judge in
/// it reaches PostgreSQL at `10.231.N.1` only over that link.
struct NetHost {
    name: String,
    host_ip: String,
}

impl NetHost {
    fn new() -> NetHost {
        let n = std::process::id() % 250 + 1;
        let name = format!("arena-t{n}");
        let (outer, inner) = (format!("arv{n}h"), format!("arv{n}n"));
        let _ = Command::new("ip").args(["netns", "del", &name]).output();
        let _ = Command::new("ip").args(["link", "del", &outer]).output();
        run_ok(&["ip", "netns", "add", &name]);
        run_ok(&[
            "ip", "link", "add", &outer, "type", "veth", "peer", "name", &inner,
        ]);
        run_ok(&["ip", "link", "set", &inner, "netns", &name]);
        let host_ip = format!("10.231.{n}.1");
        run_ok(&["ip", "addr", "add", &format!("{host_ip}/24"), "dev", &outer]);
        run_ok(&["ip", "link", "set", &outer, "up"]);
        let exec = ["ip", "netns", "exec", name.as_str()];
        let guest = format!("10.231.{n}.2/24");
        run_ok(&[&exec[..], &["ip", "addr", "add", &guest, "dev", &inner]].concat());
        run_ok(&[&exec[..], &["ip", "link", "set", &inner, "up"]].concat());
        run_ok(&[&exec[..], &["ip", "link", "set", "lo", "up"]].concat());
        NetHost { name, host_ip }
    }
}

impl Drop for NetHost {
    fn drop(&mut self) {
        let _ = Command::new("ip")
            .args(["netns", "del", &self.name])
            .output();
    }
}

/// Starts `judge serve` with one worker and a 2-second lease on PostgreSQL, in the
/// network namespace `netns` when given.
fn start_pg_server(contest: &Path, db_url: &str, netns: Option<&str>) -> Server {
    let judge = env!("CARGO_BIN_EXE_judge");
    let mut cmd = match netns {
        Some(ns) => {
            // nsenter switches only the network namespace (`ip netns exec` would also
            // remount /sys, hiding the cgroup hierarchy the sandbox needs).
            let mut c = Command::new("nsenter");
            c.arg(format!("--net=/var/run/netns/{ns}")).arg(judge);
            c
        }
        None => Command::new(judge),
    };
    cmd.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--workers",
        "1",
        "--lease-seconds",
        "2",
        "--backend",
        "bwrap",
    ])
    .arg("--contest")
    .arg(contest)
    .args(["--db", db_url])
    .env("ARENA_ADMIN_TOKEN", ADMIN);
    let (child, base) = start_serve(cmd);
    Server { child, base }
}

#[test]
fn several_hosts_share_one_postgres_queue_without_judging_twice() {
    if !available("bwrap") {
        return;
    }
    let admin_url = std::env::var("ARENA_PG_URL").ok();
    if !present(
        "postgres",
        admin_url
            .is_none()
            .then_some("ARENA_PG_URL is not set (run ci/setup)"),
    ) {
        return;
    }
    let admin_url = admin_url.expect("checked");
    let dbname = format!("arena_test_{}_{}", std::process::id(), rand_suffix());
    psql(&admin_url, &format!("CREATE DATABASE {dbname}"));
    let base_url = admin_url
        .rsplit_once('/')
        .expect("URL with a database")
        .0
        .to_owned();
    let local_url = format!("{base_url}/{dbname}");
    let net = NetHost::new();
    let remote_url = local_url.replace("127.0.0.1", &net.host_ip);

    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let front = start_pg_server(&contest, &local_url, None);
    let mut remote = start_pg_server(&contest, &remote_url, Some(&net.name));
    let _third = start_pg_server(&contest, &local_url, None);
    let remote_pid = remote.child.0.id();
    let start = get_json(&front, "/api/contests/arena", None)["start_time"]
        .as_str()
        .unwrap()
        .to_owned();

    let ac = source("sum", "accepted/sum.c");
    let wa = source("sum", "wrong_answer/first_only.py");
    let tle = source("sum", "time_limit_exceeded/spin.c");
    for i in 0..9 {
        let (lang, code) = [("c", &ac), ("python3", &wa), ("c", &tle)][i % 3];
        let (status, body) = post(
            &front,
            ADMIN,
            &json!({"team_id": "t1", "problem_id": "sum", "language_id": lang, "source": code, "time": at_minute(&start, 10 + i as i64)}),
        );
        assert_eq!(status, 200, "{body}");
    }
    wait_until_judged(&front);
    assert_eq!(psql(&local_url, "SELECT count(*) FROM judgements"), "9");
    assert_eq!(
        psql(
            &local_url,
            "SELECT count(*) FROM (SELECT submission_id FROM judgements GROUP BY submission_id HAVING count(*) > 1) AS twice"
        ),
        "0",
        "no submission judged twice"
    );
    let workers = psql(&local_url, "SELECT DISTINCT worker FROM judgements");
    // While the front host judges a time-out, the others take what is queued.
    assert!(
        workers.lines().count() >= 2,
        "several hosts judged: {workers}"
    );

    // The remote host (in its network namespace, reaching PostgreSQL over the veth pair)
    // takes a submission and dies while judging it; its lease expires and another host
    // retakes it. Time-outs are posted until the remote host holds one.
    let mut posted = 0;
    let deadline = Instant::now() + Duration::from_secs(180);
    let held = 'found: loop {
        // Three at a time: the front host (woken at once by its own POST) can take only
        // one, and the others poll.
        for _ in 0..3 {
            if posted >= 30 {
                break;
            }
            let (status, body) = post(
                &front,
                ADMIN,
                &json!({"team_id": "t2", "problem_id": "sum", "language_id": "c", "source": tle, "time": at_minute(&start, 30 + posted)}),
            );
            assert_eq!(status, 200, "{body}");
            posted += 1;
        }
        let until = Instant::now() + Duration::from_secs(3);
        while Instant::now() < until {
            let judging = psql(
                &local_url,
                "SELECT id, worker FROM submissions WHERE state = 'judging'",
            );
            if let Some(line) = judging
                .lines()
                .find(|l| l.contains(&format!(":{remote_pid}:")))
            {
                break 'found line.split('|').next().unwrap().to_owned();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            Instant::now() < deadline,
            "the remote host never took one of {posted}"
        );
    };
    remote.kill();
    wait_until_judged(&front);
    assert_eq!(
        psql(&local_url, "SELECT count(*) FROM judgements"),
        (9 + posted).to_string()
    );
    assert_eq!(
        psql(
            &local_url,
            &format!("SELECT count(*) FROM judgements WHERE submission_id = '{held}'")
        ),
        "1",
        "the submission the dead host held is judged exactly once"
    );
    let attempts = psql(
        &local_url,
        &format!("SELECT attempts FROM submissions WHERE id = '{held}'"),
    );
    assert_eq!(attempts, "2", "taken again after the lease expired");
    drop(front);
    drop(_third);
    let _ = Command::new("psql")
        .args([
            &admin_url,
            "-tAc",
            &format!("DROP DATABASE {dbname} WITH (FORCE)"),
        ])
        .output();
}

/// A client holding the event feed open (curl, as admin) and reconnecting with
/// `since_token` whenever its stream ends, to whatever base URL `base` holds then; it
/// keeps every line's `(token, type, id)`.
struct FeedClient {
    lines: std::sync::Arc<std::sync::Mutex<Vec<(i64, String, String)>>>,
    base: std::sync::Arc<std::sync::Mutex<String>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FeedClient {
    fn start(base: &str) -> FeedClient {
        use std::io::BufRead;
        use std::sync::atomic::Ordering;
        use std::sync::{Arc, Mutex};
        let lines = Arc::new(Mutex::new(Vec::new()));
        let base = Arc::new(Mutex::new(base.to_owned()));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let connections = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let thread = {
            let (lines, base, stop, connections) = (
                Arc::clone(&lines),
                Arc::clone(&base),
                Arc::clone(&stop),
                Arc::clone(&connections),
            );
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let since = lines
                        .lock()
                        .unwrap()
                        .last()
                        .map(|(t, _, _): &(i64, String, String)| format!("?since_token={t}"))
                        .unwrap_or_default();
                    let url = format!(
                        "{}/api/contests/arena/event-feed{since}",
                        base.lock().unwrap()
                    );
                    let mut curl = Command::new("curl")
                        .args(["-sN", "-H", &format!("Authorization: Bearer {ADMIN}"), &url])
                        .stdout(std::process::Stdio::piped())
                        .spawn()
                        .expect("curl runs");
                    let out = curl.stdout.take().expect("stdout");
                    let mut got_any = false;
                    for line in std::io::BufReader::new(out).lines() {
                        let Ok(line) = line else { break };
                        if !got_any {
                            got_any = true;
                            connections.fetch_add(1, Ordering::SeqCst);
                        }
                        if line.trim().is_empty() {
                            continue;
                        }
                        let v: Value = serde_json::from_str(&line)
                            .unwrap_or_else(|e| panic!("feed line {line:?}: {e}"));
                        let token = v["token"].as_str().expect("token").parse().expect("number");
                        let id = v["id"].as_str().unwrap_or_default().to_owned();
                        let kind = v["type"].as_str().expect("type").to_owned();
                        lines.lock().unwrap().push((token, kind, id));
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                    }
                    let _ = curl.kill();
                    let _ = curl.wait();
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        };
        FeedClient {
            lines,
            base,
            stop,
            connections,
            thread: Some(thread),
        }
    }

    fn tokens(&self) -> Vec<(i64, String, String)> {
        self.lines.lock().unwrap().clone()
    }

    /// Waits until it has seen `token` (or fails after two minutes).
    fn wait_for(&self, token: i64) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while self.tokens().last().map_or(0, |t| t.0) < token {
            assert!(
                Instant::now() < deadline,
                "the streaming client never got token {token}: {:?}",
                self.tokens().last()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for FeedClient {
    fn drop(&mut self) {
        // Its thread ends once its curl does (with the server it reads, killed by the
        // test); it is not joined here.
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        drop(self.thread.take());
    }
}

/// Every event of the feed as `(token, type, id)`, read at once (`stream=false`).
fn whole_feed(server: &Server) -> Vec<(i64, String, String)> {
    let (status, text) = http(
        "GET",
        &format!("{}/api/contests/arena/event-feed?stream=false", server.base),
        Some(ADMIN),
        None,
    );
    assert_eq!(status, 200, "{text}");
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("feed line");
            (
                v["token"].as_str().unwrap().parse().unwrap(),
                v["type"].as_str().unwrap().to_owned(),
                v["id"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_feed_client_streams_through_a_restart_and_misses_no_event() {
    if !available("bwrap") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    let db = dir.path().join("contest.db");
    let mut server = Server::start(&contest, &db);
    let client = FeedClient::start(&server.base);
    let start = get_json(&server, "/api/contests/arena", None)["start_time"]
        .as_str()
        .unwrap()
        .to_owned();
    let ac = source("sum", "accepted/sum.c");
    let tle = source("sum", "time_limit_exceeded/spin.c");
    let mut minute = 10;
    let mut post_some = |server: &Server| {
        for code in [&ac, &tle, &ac] {
            let (status, body) = post(
                server,
                ADMIN,
                &json!({"team_id": "t1", "problem_id": "sum", "language_id": "c", "source": code, "time": at_minute(&start, minute)}),
            );
            assert_eq!(status, 200, "{body}");
            minute += 1;
        }
    };
    post_some(&server);
    // The client has streamed some of it; the server dies (SIGKILL) mid-judging.
    let some = whole_feed(&server).last().unwrap().0;
    client.wait_for(some);
    server.kill();
    let mut server = Server::start(&contest, &db);
    *client.base.lock().unwrap() = server.base.clone();
    post_some(&server);
    wait_until_judged(&server);
    let all = whole_feed(&server);
    client.wait_for(all.last().unwrap().0);
    let streamed = client.tokens();
    assert!(
        client.connections.load(std::sync::atomic::Ordering::SeqCst) >= 2,
        "the client reconnected after the restart"
    );
    assert_eq!(
        streamed, all,
        "streamed through the restart: every event once, in order"
    );
    assert_eq!(
        all.iter().filter(|e| e.1 == "judgements").count(),
        6,
        "one judgement per submission (a judgement cut by the kill was never committed)"
    );
    server.kill();
}

#[test]
fn a_change_through_one_postgres_host_reaches_the_others_board_and_feed() {
    if !available("bwrap") {
        return;
    }
    let admin_url = std::env::var("ARENA_PG_URL").ok();
    if !present(
        "postgres",
        admin_url
            .is_none()
            .then_some("ARENA_PG_URL is not set (run ci/setup)"),
    ) {
        return;
    }
    let admin_url = admin_url.expect("checked");
    let dbname = format!("arena_notify_{}_{}", std::process::id(), rand_suffix());
    psql(&admin_url, &format!("CREATE DATABASE {dbname}"));
    let url = format!("{}/{dbname}", admin_url.rsplit_once('/').unwrap().0);
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    // Host A judges; host B only serves (no worker): all it knows comes from the database.
    let a = start_pg_server(&contest, &url, None);
    let b = {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--workers", "0"])
            .arg("--contest")
            .arg(&contest)
            .args(["--db", &url])
            .env("ARENA_ADMIN_TOKEN", ADMIN);
        let (child, base) = start_serve(cmd);
        Server { child, base }
    };
    let client = FeedClient::start(&b.base);
    let board_b = |etag: Option<&str>| {
        let mut cmd = Command::new("curl");
        cmd.args([
            "-sS",
            "-D",
            "-",
            "-H",
            &format!("Authorization: Bearer {ADMIN}"),
        ]);
        if let Some(tag) = etag {
            cmd.args(["-H", &format!("If-None-Match: {tag}")]);
        }
        let out = cmd
            .arg(format!("{}/api/contests/arena/scoreboard", b.base))
            .output()
            .expect("curl");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("headers");
        let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        let tag = head
            .lines()
            .find_map(|l| l.strip_prefix("etag: "))
            .expect("an ETag")
            .to_owned();
        (status, tag, body.to_owned())
    };
    let (status, before, _) = board_b(None);
    assert_eq!(status, 200);
    assert_eq!(board_b(Some(&before)).0, 304, "unchanged: 304");

    let start = get_json(&a, "/api/contests/arena", None)["start_time"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, sub) = post(
        &a,
        ADMIN,
        &json!({"team_id": "t2", "problem_id": "sum", "language_id": "c", "source": source("sum", "accepted/sum.c"), "time": at_minute(&start, 15)}),
    );
    assert_eq!(status, 200, "{sub}");
    wait_until_judged(&a);
    let all = whole_feed(&a);
    let last = all.last().unwrap().0;
    // Host B's streaming client gets every event host A wrote, in order.
    client.wait_for(last);
    assert_eq!(client.tokens(), all);
    // Host B's board moves to host A's newest token (within a moment: B learns of it by
    // NOTIFY), and shows the accept.
    let deadline = Instant::now() + Duration::from_secs(30);
    let board = loop {
        let (status, tag, body) = board_b(Some(&before));
        let board: Value = if status == 200 {
            serde_json::from_str(&body).unwrap()
        } else {
            Value::Null
        };
        if board["event_id"].as_str() == Some(last.to_string().as_str()) {
            assert_ne!(tag, before);
            break board;
        }
        assert!(
            Instant::now() < deadline,
            "host B's board stayed at {board}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let t2 = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"] == "t2")
        .unwrap();
    assert_eq!(t2["score"]["num_solved"], 1, "{board}");
    drop(client);
    drop(a);
    drop(b);
    let _ = Command::new("psql")
        .args([
            &admin_url,
            "-tAc",
            &format!("DROP DATABASE {dbname} WITH (FORCE)"),
        ])
        .output();
}

fn rand_suffix() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0)
}
