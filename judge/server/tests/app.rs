//! The contest server's routes called in process through `judge_server::app`, with a real
//! SQLite file in a temporary folder, a contest of `problems/packages/` and no judging
//! worker: what needs no judging (the API's objects, auth answers, visibility of queued
//! submissions, the body-size limit on every route). Judging itself is tested on the real
//! `judge serve` in `judge/cli/tests/`.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use base64::Engine;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use judge::sandbox::SandboxConfig;
use judge_server::{AppState, ServeOptions};

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");
use common::ADMIN;
const TEAM_1: &str = "token-team-1";
const TEAM_2: &str = "token-team-2";
/// The body-size limit of the fixture (the CLI's is 2 MiB).
const MAX_BODY: usize = 64 << 10;

/// A served contest `arena` (started an hour ago, five hours long, problems `sum` and
/// `rangesum`, teams `t1` and `t2`) and the service over it.
struct Fixture {
    _dir: tempfile::TempDir,
    app: Router,
}

async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let start = chrono::Utc::now() - chrono::Duration::hours(1);
    let yaml = format!(
        "id: arena\nname: Arena\nstart_time: {}\nduration: '5:00:00'\n\
         problems:\n  - {{id: sum, package: {PACKAGES}/sum}}\n  - {{id: rangesum, package: {PACKAGES}/rangesum}}\n\
         teams:\n  - {{id: t1, name: Team One, token: {TEAM_1}}}\n  - {{id: t2, name: Team Two, token: {TEAM_2}}}\n",
        start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    );
    let contest = dir.path().join("contest.yaml");
    std::fs::write(&contest, yaml).expect("contest file");
    let opts = ServeOptions {
        lease: Duration::from_secs(30),
        max_body: MAX_BODY,
        ..common::options(vec![contest], &dir.path().join("db.sqlite"), 0)
    };
    // No worker runs, so the sandbox is never used.
    let sandbox = SandboxConfig {
        image: "unused".into(),
        rootfs: PathBuf::from("/nonexistent"),
        supervisor: PathBuf::from("/nonexistent"),
        recipe_hash: "unused".into(),
        cpus: None,
        workspaces: Default::default(),
    };
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    Fixture {
        _dir: dir,
        app: judge_server::app(state),
    }
}

impl Fixture {
    /// Sends `request`; returns the status and the body as text.
    async fn send(&self, request: Request<Body>) -> (StatusCode, String) {
        let res = self.app.clone().oneshot(request).await.expect("infallible");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        (
            status,
            String::from_utf8(bytes.to_vec()).expect("UTF-8 body"),
        )
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, String) {
        let mut request = Request::get(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        self.send(request.body(Body::empty()).expect("request"))
            .await
    }

    /// GET expecting 200 and JSON.
    async fn get_json(&self, path: &str, token: Option<&str>) -> Value {
        let (status, body) = self.get(path, token).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// Logs in to contest `cid`'s page with `token`: the `Cookie` header's value of the
    /// session and the session's CSRF token (from the contest's page).
    async fn session(&self, cid: &str, token: &str) -> (String, String) {
        let request = Request::post(format!("/contests/{cid}/login"))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(format!("token={token}")))
            .expect("request");
        let res = self.app.clone().oneshot(request).await.expect("infallible");
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "login to {cid}");
        let set = res.headers()[header::SET_COOKIE].to_str().expect("text");
        let cookie = set.split(';').next().expect("name=value").to_owned();
        assert!(cookie.starts_with("arena_session="), "{set}");
        let page = Request::get(format!("/contests/{cid}"))
            .header(header::COOKIE, &cookie)
            .body(Body::empty())
            .expect("request");
        let (_, html) = self.send(page).await;
        let from = html.find("name=csrf value='").expect("a CSRF token") + 17;
        let len = html[from..].find('\'').expect("its end");
        (cookie, html[from..from + len].to_owned())
    }

    async fn post_json(&self, path: &str, token: &str, body: &Value) -> (StatusCode, Value) {
        let request = Request::post(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let (status, text) = self.send(request).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|it| it["id"].as_str().expect("an id"))
        .collect()
}

#[tokio::test]
async fn api_info_contests_and_problems() {
    let fx = fixture().await;
    for path in ["/api", "/api/"] {
        let info = fx.get_json(path, None).await;
        assert_eq!(info["version"], "2023-06", "{path}");
    }
    let contests = fx.get_json("/api/contests", None).await;
    assert_eq!(ids(&contests), ["arena"]);
    let contest = fx.get_json("/api/contests/arena", None).await;
    assert_eq!(
        (&contest["name"], &contest["duration"]),
        (&json!("Arena"), &json!("5:00:00.000"))
    );
    let problems = fx.get_json("/api/contests/arena/problems", None).await;
    assert_eq!(ids(&problems), ["sum", "rangesum"]);
    let labels: Vec<&Value> = problems
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["label"])
        .collect();
    assert_eq!(labels, [&json!("A"), &json!("B")]);
    let sum = fx.get_json("/api/contests/arena/problems/sum", None).await;
    assert_eq!(sum["ordinal"], 0);
    let teams = fx.get_json("/api/contests/arena/teams", None).await;
    assert_eq!(ids(&teams), ["t1", "t2"]);
    assert!(
        !teams.to_string().contains(TEAM_1),
        "tokens are never shown"
    );
    let types = fx
        .get_json("/api/contests/arena/judgement-types", None)
        .await;
    assert_eq!(types.as_array().map(Vec::len), Some(8));
    let state = fx.get_json("/api/contests/arena/state", None).await;
    assert!(state["started"].is_string() && state["ended"].is_null());
}

#[tokio::test]
async fn refusals_name_what_is_wrong() {
    let fx = fixture().await;
    let cases = [
        ("/api/contests/nope", None, 404, "no contest `nope`"),
        (
            "/api/contests/arena/problems/nope",
            None,
            404,
            "no problem `nope`",
        ),
        (
            "/api/contests/arena/nothing",
            None,
            404,
            "no endpoint `nothing`",
        ),
        (
            "/api/contests/arena/submissions",
            Some("not-a-token"),
            401,
            "unknown token",
        ),
        ("/api/queue", Some(TEAM_1), 403, "the queue is for admins"),
        ("/api/queue", None, 403, "the queue is for admins"),
    ];
    for (path, token, status, message) in cases {
        let (got, body) = fx.get(path, token).await;
        let body: Value = serde_json::from_str(&body).expect("JSON error");
        assert_eq!(
            (got.as_u16(), &body["code"], body["message"].as_str()),
            (status, &json!(status), Some(message)),
            "GET {path}"
        );
    }
    let contest = json!({"id": "other", "name": "Other", "start_time": "2026-01-01T10:00:00Z",
        "duration": 60, "problems": [], "teams": []});
    let (status, body) = fx.post_json("/api/contests", TEAM_1, &contest).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::FORBIDDEN,
            Some("only an admin may create contests")
        )
    );
    // A basic-auth user must match the token's team.
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("t2:{TEAM_1}"));
    let request = Request::get("/api/contests/arena/submissions")
        .header(header::AUTHORIZATION, format!("Basic {basic}"))
        .body(Body::empty())
        .expect("request");
    assert_eq!(fx.send(request).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_queued_submission_is_seen_by_its_team_and_admins_only() {
    let fx = fixture().await;
    let post = json!({"problem_id": "sum", "language_id": "c", "source": "int main(){}"});
    let (status, sub) = fx
        .post_json("/api/contests/arena/submissions", TEAM_1, &post)
        .await;
    assert_eq!(status, StatusCode::OK, "{sub}");
    assert_eq!((&sub["id"], &sub["team_id"]), (&json!("1"), &json!("t1")));
    let path = "/api/contests/arena/submissions";
    assert_eq!(ids(&fx.get_json(path, Some(TEAM_1)).await), ["1"]);
    assert_eq!(ids(&fx.get_json(path, Some(ADMIN)).await), ["1"]);
    assert!(ids(&fx.get_json(path, Some(TEAM_2)).await).is_empty());
    assert!(ids(&fx.get_json(path, None).await).is_empty());
    let queue = fx.get_json("/api/queue", Some(ADMIN)).await;
    assert_eq!(queue, json!({"queued": 1, "judging": 0, "done": 0}));
    // Nothing is judged: the state is not final and the board counts it as pending.
    let board = fx.get_json("/api/contests/arena/scoreboard", None).await;
    let t1 = &board["rows"][0];
    assert_eq!(
        (&t1["team_id"], &t1["problems"][0]["num_pending"]),
        (&json!("t1"), &json!(1))
    );
    // The web page shows it to its team as pending.
    let (cookie, _) = fx.session("arena", TEAM_1).await;
    let request = Request::get("/contests/arena/mine")
        .header(header::COOKIE, &cookie)
        .body(Body::empty())
        .expect("request");
    let (status, html) = fx.send(request).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("class='verdict pending'"), "{html}");
    // A client-chosen id is for admins.
    let with_id = json!({"problem_id": "sum", "language_id": "c", "source": "x", "id": "mine"});
    let (status, _) = fx.post_json(path, TEAM_1, &with_id).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_body_limit_covers_the_api_and_the_web_form() {
    let fx = fixture().await;
    // Over the server's limit by a field the form does not read, with a source far under
    // the problem's limit: only the body-size limit can refuse it.
    let padding = "x".repeat(MAX_BODY);
    let (cookie, csrf) = fx.session("arena", TEAM_1).await;
    let form =
        format!("problem=sum&language=c&source=int+main%28%29%7B%7D&csrf={csrf}&padding={padding}");
    let request = Request::post("/contests/arena/submit")
        .header(header::COOKIE, &cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .expect("request");
    assert_eq!(fx.send(request).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    let post = json!({"problem_id": "sum", "language_id": "c", "source": "int main(){}", "padding": padding});
    let (status, _) = fx
        .post_json("/api/contests/arena/submissions", TEAM_1, &post)
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // Nothing was stored.
    let queue = fx.get_json("/api/queue", Some(ADMIN)).await;
    assert_eq!(queue["queued"], 0);
    // A form under the limit is taken: the page answers with a redirect to the contest.
    let request = Request::post("/contests/arena/submit")
        .header(header::COOKIE, &cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!(
            "problem=sum&language=c&source=int+main%28%29%7B%7D&csrf={csrf}"
        )))
        .expect("request");
    let res = fx.app.clone().oneshot(request).await.expect("infallible");
    assert!(res.status().is_redirection(), "{}", res.status());
    assert_eq!(res.headers()[header::LOCATION], "/contests/arena");
    let queue = fx.get_json("/api/queue", Some(ADMIN)).await;
    assert_eq!(queue["queued"], 1);
}

/// `(status, content type, body bytes)` of a GET.
async fn fetch(fx: &Fixture, path: &str, token: Option<&str>) -> (StatusCode, String, Vec<u8>) {
    common::get(&fx.app, path, token).await
}

#[tokio::test]
async fn statements_and_samples_are_readable_from_the_start_and_never_secret_data() {
    let fx = fixture().await;
    // A second contest that starts tomorrow, with the same problem and team.
    let tomorrow = (chrono::Utc::now() + chrono::Duration::days(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let later = json!({"id": "later", "name": "Later", "start_time": tomorrow, "duration": 60,
        "problems": [{"id": "sum", "package": format!("{PACKAGES}/sum")}],
        "teams": [{"id": "t1", "name": "Team One", "token": TEAM_1}]});
    let (status, body) = fx.post_json("/api/contests", ADMIN, &later).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // Before the start: no file references, and 403 for teams and the public.
    let problem = fx
        .get_json("/api/contests/later/problems/sum", Some(TEAM_1))
        .await;
    assert!(
        problem.get("statement").is_none() && problem.get("attachments").is_none(),
        "{problem}"
    );
    for path in [
        "/api/contests/later/problems/sum/statement",
        "/api/contests/later/problems/sum/attachments/1.in",
    ] {
        for token in [Some(TEAM_1), None] {
            assert_eq!(
                fetch(&fx, path, token).await.0,
                StatusCode::FORBIDDEN,
                "{path}"
            );
        }
        assert_eq!(
            fetch(&fx, path, Some(ADMIN)).await.0,
            StatusCode::OK,
            "{path}"
        );
    }
    let feed = fx
        .get("/api/contests/later/event-feed?stream=false", Some(ADMIN))
        .await
        .1;
    assert!(
        !feed.contains("/statement"),
        "no file references in the feed before the start"
    );
    let (cookie, _) = fx.session("later", TEAM_1).await;
    let request = Request::get("/contests/later/problems/sum")
        .header(header::COOKIE, &cookie)
        .body(Body::empty())
        .expect("request");
    assert_eq!(
        fx.send(request).await.0,
        StatusCode::FORBIDDEN,
        "the web page too"
    );

    // Started: the statement as HTML and every sample file, equal to the package's.
    let problem = fx
        .get_json("/api/contests/arena/problems/sum", Some(TEAM_1))
        .await;
    let statement = problem["statement"].as_array().expect("statement refs");
    assert_eq!(statement.len(), 1, "sum has no PDF: {problem}");
    assert_eq!(statement[0]["mime"], "text/html");
    let href = statement[0]["href"].as_str().expect("href");
    let (status, content_type, html) = fetch(&fx, &format!("/api/{href}"), Some(TEAM_1)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let html = String::from_utf8(html).expect("UTF-8");
    assert!(
        html.contains("<h1>A Sum of Numbers</h1>")
            && html.contains("You are given a list of integers.")
            && html.contains("<h2>Input</h2>"),
        "{html}"
    );
    let sample_dir = std::path::Path::new(PACKAGES).join("sum/data/sample");
    let mut expected: Vec<String> = std::fs::read_dir(&sample_dir)
        .expect("samples")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    expected.sort();
    let mut names = Vec::new();
    for attachment in problem["attachments"].as_array().expect("attachments") {
        let name = attachment["filename"]
            .as_str()
            .expect("filename")
            .to_owned();
        let href = attachment["href"].as_str().expect("href");
        let (status, content_type, bytes) = fetch(&fx, &format!("/api/{href}"), None).await;
        assert_eq!(status, StatusCode::OK, "{href}");
        assert!(content_type.starts_with("text/plain"), "{content_type}");
        assert_eq!(
            bytes,
            std::fs::read(sample_dir.join(&name)).expect("sample"),
            "{name}"
        );
        names.push(name);
    }
    names.sort();
    assert_eq!(names, expected);
    // Secret data is never an attachment, whatever the name asked for.
    let secret = std::fs::read_dir(std::path::Path::new(PACKAGES).join("sum/data/secret"))
        .expect("secret")
        .next()
        .expect("a secret file")
        .expect("entry")
        .file_name()
        .to_string_lossy()
        .into_owned();
    for name in [
        secret.clone(),
        format!("secret-{secret}"),
        format!("..%2Fsecret%2F{secret}"),
    ] {
        let path = format!("/api/contests/arena/problems/sum/attachments/{name}");
        assert_eq!(
            fetch(&fx, &path, Some(ADMIN)).await.0,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    assert_eq!(
        fetch(&fx, "/api/contests/arena/problems/sum/statement.pdf", None)
            .await
            .0,
        StatusCode::NOT_FOUND,
        "no PDF in the package"
    );
}

/// The next data frame of a streamed body (skipping trailers), as text; `None` at its end.
async fn next_text(body: &mut Body) -> Option<String> {
    loop {
        let frame = body.frame().await?.expect("body frame");
        if let Ok(data) = frame.into_data() {
            return Some(String::from_utf8(data.to_vec()).expect("UTF-8"));
        }
    }
}

#[tokio::test]
async fn the_board_is_ready_bytes_with_an_etag_and_gzip() {
    let fx = fixture().await;
    let path = "/api/contests/arena/scoreboard";
    let res = fx
        .app
        .clone()
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let etag = res.headers()[header::ETAG].to_str().unwrap().to_owned();
    assert_eq!(res.headers()[header::CONTENT_TYPE], "application/json");
    let first = res.into_body().collect().await.unwrap().to_bytes();
    // Built once: a later request gets the same bytes (a board computed again would
    // carry a later `time`).
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (_, again) = fx.get(path, None).await;
    assert_eq!(again.as_bytes(), &first[..]);

    // The client that has it gets 304 and no body.
    let res = fx
        .app
        .clone()
        .oneshot(
            Request::get(path)
                .header(header::IF_NONE_MATCH, &etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(res.headers()[header::ETAG], etag.as_str());
    assert!(
        res.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .is_empty()
    );

    // gzip when accepted, the same JSON inside.
    let res = fx
        .app
        .clone()
        .oneshot(
            Request::get(path)
                .header(header::ACCEPT_ENCODING, "br, gzip")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.headers()[header::CONTENT_ENCODING], "gzip");
    let packed = res.into_body().collect().await.unwrap().to_bytes();
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&packed[..]),
        &mut unpacked,
    )
    .unwrap();
    assert_eq!(unpacked, first.to_vec());

    // A submission is a change: the old tag no longer matches, and the board (read right
    // after the POST) counts it as pending.
    let post = json!({"problem_id": "sum", "language_id": "c", "source": "int main(){}"});
    let (status, _) = fx
        .post_json("/api/contests/arena/submissions", TEAM_1, &post)
        .await;
    assert_eq!(status, StatusCode::OK);
    let res = fx
        .app
        .clone()
        .oneshot(
            Request::get(path)
                .header(header::IF_NONE_MATCH, &etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_ne!(res.headers()[header::ETAG], etag.as_str());
    let board: Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(board["rows"][0]["problems"][0]["num_pending"], 1, "{board}");
}

#[tokio::test]
async fn the_feed_and_the_page_stream_new_events_as_they_commit() {
    let fx = fixture().await;
    let feed = |token: &str, since: &str| {
        Request::get(format!("/api/contests/arena/event-feed{since}"))
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap()
    };
    let mut team1 = fx
        .app
        .clone()
        .oneshot(feed(TEAM_1, ""))
        .await
        .unwrap()
        .into_body();
    let mut team2 = fx
        .app
        .clone()
        .oneshot(feed(TEAM_2, ""))
        .await
        .unwrap()
        .into_body();
    // The backlog first: the opening events, ending with the last one so far.
    let backlog = next_text(&mut team1).await.expect("backlog");
    let lines: Vec<Value> = backlog
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|l| l["type"] == "contest"), "{backlog}");
    let last: i64 = lines.last().unwrap()["token"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let _ = next_text(&mut team2).await.expect("backlog");
    let (cookie, _) = fx.session("arena", TEAM_1).await;
    let page = Request::get("/contests/arena/live")
        .header(header::COOKIE, &cookie)
        .body(Body::empty())
        .unwrap();
    let res = fx.app.clone().oneshot(page).await.unwrap();
    assert_eq!(res.headers()[header::CONTENT_TYPE], "text/event-stream");
    let mut live = res.into_body();

    let post = json!({"problem_id": "sum", "language_id": "c", "source": "int main(){}"});
    let (status, sub) = fx
        .post_json("/api/contests/arena/submissions", TEAM_1, &post)
        .await;
    assert_eq!(status, StatusCode::OK, "{sub}");
    let line: Value = serde_json::from_str(next_text(&mut team1).await.unwrap().trim()).unwrap();
    assert_eq!(
        (&line["type"], &line["id"]),
        (&json!("submissions"), &sub["id"])
    );
    let token: i64 = line["token"].as_str().unwrap().parse().unwrap();
    assert!(token > last);
    let change = next_text(&mut live).await.unwrap();
    assert!(change.starts_with("event: change"), "{change}");
    assert!(change.contains(&format!("data: {token}")), "{change}");

    // Team 2 does not see team 1's submission: its next line is its own.
    let (status, own) = fx
        .post_json("/api/contests/arena/submissions", TEAM_2, &post)
        .await;
    assert_eq!(status, StatusCode::OK);
    let line: Value = serde_json::from_str(next_text(&mut team2).await.unwrap().trim()).unwrap();
    assert_eq!(line["id"], own["id"]);

    // since_token resumes after the given event.
    let mut resumed = fx
        .app
        .clone()
        .oneshot(feed(ADMIN, &format!("?since_token={last}")))
        .await
        .unwrap()
        .into_body();
    let text = next_text(&mut resumed).await.unwrap();
    let ids: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone())
        .collect();
    assert_eq!(ids, [sub["id"].clone(), own["id"].clone()]);
}

#[tokio::test]
async fn clarifications_reach_whom_they_are_for() {
    let fx = fixture().await;
    let path = "/api/contests/arena/clarifications";
    let (status, asked) = fx
        .post_json(
            path,
            TEAM_1,
            &json!({"problem_id": "sum", "text": "Can n be 0?"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{asked}");
    assert_eq!(
        (&asked["from_team_id"], &asked["to_team_id"]),
        (&json!("t1"), &Value::Null)
    );
    let (status, answer) = fx
        .post_json(
            path,
            ADMIN,
            &json!({"to_team_id": "t1", "reply_to_id": asked["id"], "text": "No."}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let (status, all) = fx
        .post_json(path, ADMIN, &json!({"text": "Problem B's limit is 2 s."}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{all}");
    let (q, a, b) = (asked["id"].clone(), answer["id"].clone(), all["id"].clone());
    let seen = |list: Value| -> Vec<Value> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].clone())
            .collect()
    };
    assert_eq!(
        seen(fx.get_json(path, Some(TEAM_1)).await),
        [q.clone(), a.clone(), b.clone()]
    );
    assert_eq!(seen(fx.get_json(path, Some(TEAM_2)).await), vec![b.clone()]);
    assert_eq!(seen(fx.get_json(path, None).await), vec![b.clone()]);
    assert_eq!(
        seen(fx.get_json(path, Some(ADMIN)).await),
        [q.clone(), a.clone(), b.clone()]
    );
    // The feed carries each to whom it is for.
    let (_, team2_feed) = fx
        .get("/api/contests/arena/event-feed?stream=false", Some(TEAM_2))
        .await;
    let kinds: Vec<Value> = team2_feed
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "clarifications")
        .map(|e| e["id"].clone())
        .collect();
    assert_eq!(kinds, vec![b.clone()]);
    // Refused: the public, a team writing to a team or as another, an unknown problem,
    // an unknown reply, an empty text.
    let refused = [
        (None, json!({"text": "hi"}), StatusCode::UNAUTHORIZED),
        (
            Some(TEAM_1),
            json!({"text": "hi", "to_team_id": "t2"}),
            StatusCode::FORBIDDEN,
        ),
        (
            Some(TEAM_1),
            json!({"text": "hi", "from_team_id": "t2"}),
            StatusCode::FORBIDDEN,
        ),
        (
            Some(TEAM_1),
            json!({"text": "hi", "problem_id": "nope"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            Some(TEAM_2),
            json!({"text": "hi", "reply_to_id": a}),
            StatusCode::BAD_REQUEST,
        ),
        (Some(TEAM_1), json!({"text": "  "}), StatusCode::BAD_REQUEST),
    ];
    for (token, body, status) in refused {
        let mut request = Request::post(path).header(header::CONTENT_TYPE, "application/json");
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let (got, text) = fx
            .send(request.body(Body::from(body.to_string())).unwrap())
            .await;
        assert_eq!(got, status, "{body}: {text}");
    }
}
