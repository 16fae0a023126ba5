//! Every answer of the CLICS API and every event of its feed, checked against the CLICS
//! Contest API 2023-06 (`schema`, written from the specification and its JSON schemas), on
//! a small live contest: the router called in process on a SQLite file, one judging
//! worker on bubblewrap, an ICPC contest and an IOI one, submissions accepted, rejected,
//! failing to compile and partly scored.

mod common;
mod schema;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use judge_server::AppState;

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");
use common::ADMIN;

struct Live {
    _dir: tempfile::TempDir,
    state: Arc<AppState>,
    app: Router,
}

impl Live {
    async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, String) {
        let (status, _, bytes) = common::get(&self.app, path, token).await;
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path, Some(ADMIN)).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }

    async fn submit(&self, cid: &str, team: &str, problem: &str, language: &str, file: &str) {
        let source = std::fs::read_to_string(format!("{PACKAGES}/{file}")).expect("source");
        let body = json!({"problem_id": problem, "language_id": language, "source": source});
        let request = Request::post(format!("/api/contests/{cid}/submissions"))
            .header(header::AUTHORIZATION, format!("Bearer token-{team}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let res = self.app.clone().oneshot(request).await.expect("infallible");
        assert_eq!(res.status(), StatusCode::OK, "submit {file}");
    }
}

/// Two contests started an hour ago (ICPC `arena`: `sum` and `rangesum`; IOI `ioi`:
/// `pairsums`), teams `t1`..`t3`, one worker judging on bubblewrap.
async fn live() -> Option<Live> {
    let sandbox = common::bwrap_sandbox()?;
    let dir = tempfile::tempdir().expect("tempdir");
    let start = (chrono::Utc::now() - chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let teams = "teams:\n  - {id: t1, name: Team One, token: token-t1}\n  - {id: t2, name: Team Two, token: token-t2}\n  - {id: t3, name: Another Team, token: token-t3}\n";
    let icpc = format!(
        "id: arena\nname: Arena\nstart_time: {start}\nduration: '5:00:00'\nscoreboard_freeze_duration: '1:00:00'\n\
         problems:\n  - {{id: sum, package: {PACKAGES}/sum, rgb: '#ff0000'}}\n  - {{id: rangesum, package: {PACKAGES}/rangesum}}\n{teams}"
    );
    let ioi = format!(
        "id: ioi\nname: IOI\nstart_time: {start}\nduration: '5:00:00'\nscoring: ioi\n\
         problems:\n  - {{id: pairsums, package: {PACKAGES}/pairsums}}\n{teams}"
    );
    let mut contests = Vec::new();
    for (name, text) in [("icpc.yaml", icpc), ("ioi.yaml", ioi)] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("contest file");
        contests.push(path);
    }
    let opts = common::options(contests, &dir.path().join("db.sqlite"), 1);
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    judge_server::worker::spawn(&state, 1);
    Some(Live {
        _dir: dir,
        app: judge_server::app(Arc::clone(&state)),
        state,
    })
}

/// Submits a mix of results and waits until everything is judged.
async fn judged_contest() -> Option<Live> {
    let live = live().await?;
    let sum = "sum/submissions";
    live.submit("arena", "t1", "sum", "c", &format!("{sum}/accepted/sum.c"))
        .await;
    live.submit(
        "arena",
        "t2",
        "sum",
        "cpp",
        &format!("{sum}/wrong_answer/int_overflow.cpp"),
    )
    .await;
    live.submit(
        "arena",
        "t2",
        "sum",
        "python3",
        &format!("{sum}/accepted/sum.py"),
    )
    .await;
    live.submit(
        "arena",
        "t3",
        "sum",
        "cpp",
        "../../judge/cli/tests/fixtures/missing_semicolon.cpp",
    )
    .await;
    live.submit(
        "arena",
        "t3",
        "rangesum",
        "java",
        "rangesum/submissions/accepted/RangeSums.java",
    )
    .await;
    let pairs = "pairsums/submissions";
    live.submit(
        "ioi",
        "t1",
        "pairsums",
        "python3",
        &format!("{pairs}/partially_accepted/small_only.py"),
    )
    .await;
    live.submit(
        "ioi",
        "t2",
        "pairsums",
        "cpp",
        &format!("{pairs}/accepted/hash.cpp"),
    )
    .await;
    // A question and its answer, and a message to everyone, in each contest.
    for cid in ["arena", "ioi"] {
        let asked = live
            .post(
                &format!("/api/contests/{cid}/clarifications"),
                "token-t1",
                &json!({"problem_id": null, "text": "Is input on one line?"}),
            )
            .await;
        live.post(
            &format!("/api/contests/{cid}/clarifications"),
            ADMIN,
            &json!({"to_team_id": "t1", "reply_to_id": asked["id"], "text": "Yes."}),
        )
        .await;
        live.post(
            &format!("/api/contests/{cid}/clarifications"),
            ADMIN,
            &json!({"text": "The contest is extended by nothing."}),
        )
        .await;
    }
    live.wait_until_judged().await;
    judge_server::write_state_events(&live.state).await;
    Some(live)
}

impl Live {
    /// POSTs `body` as `token`, expecting 201 or 200; returns the answer.
    async fn post(&self, path: &str, token: &str, body: &Value) -> Value {
        let request = Request::post(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let res = self.app.clone().oneshot(request).await.expect("infallible");
        let status = res.status();
        let bytes = http_body_util::BodyExt::collect(res.into_body())
            .await
            .expect("body")
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        assert!(status.is_success(), "POST {path}: {status} {text}");
        serde_json::from_str(&text).expect("JSON")
    }

    async fn wait_until_judged(&self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(300);
        loop {
            let queue = self.json("/api/queue").await;
            if queue["queued"] == 0 && queue["judging"] == 0 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still judging: {queue}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Every answer and event of contest `cid`: `(what, errors)`.
///
/// It is long because it is a list: one check per collection and per kind of event, in
/// the specification's order.
async fn check_contest(live: &Live, cid: &str, out: &mut Vec<(String, Vec<String>)>) {
    let base = format!("/api/contests/{cid}");
    let mut errors = Vec::new();
    let board = schema::contest(&live.json(&base).await, &mut errors).expect("a board type");
    out.push((base.clone(), errors));
    let mut errors = Vec::new();
    schema::state(
        "state",
        &live.json(&format!("{base}/state")).await,
        &mut errors,
    );
    out.push((format!("{base}/state"), errors));
    let problems = live.json(&format!("{base}/problems")).await;
    let test_data_count: HashMap<String, u64> = problems
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap_or("").to_owned(),
                p["test_data_count"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let teams = live.json(&format!("{base}/teams")).await;
    let team_names: HashMap<String, String> = teams
        .as_array()
        .expect("teams")
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap_or("").to_owned(),
                t["name"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let judgements = live.json(&format!("{base}/judgements")).await;
    let submissions = live.json(&format!("{base}/submissions")).await;
    // Each run's problem, through its judgement and submission.
    let problem_of_submission: HashMap<&str, &str> = submissions
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap_or(""),
                s["problem_id"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let problem_of_judgement: HashMap<String, String> = judgements
        .as_array()
        .expect("judgements")
        .iter()
        .map(|j| {
            let sid = j["submission_id"].as_str().unwrap_or("");
            (
                j["id"].as_str().unwrap_or("").to_owned(),
                problem_of_submission
                    .get(sid)
                    .copied()
                    .unwrap_or("")
                    .to_owned(),
            )
        })
        .collect();
    let check_one = |kind: &str, item: &Value, errors: &mut Vec<String>| match kind {
        "problems" => schema::problem(item, board, errors),
        "languages" => schema::language(item, errors),
        "judgement-types" => schema::judgement_type(item, board, errors),
        "teams" => schema::team(item, errors),
        "submissions" => schema::submission(item, errors),
        "judgements" => schema::judgement(item, board, errors),
        "clarifications" => schema::clarification(item, errors),
        "awards" => schema::award(item, errors),
        "runs" => {
            let judgement = item["judgement_id"].as_str().unwrap_or("");
            let count = problem_of_judgement
                .get(judgement)
                .and_then(|p| test_data_count.get(p))
                .copied();
            schema::run(item, count, errors);
        }
        _ => unreachable!(),
    };
    for kind in [
        "problems",
        "languages",
        "judgement-types",
        "teams",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
        "awards",
    ] {
        let list = live.json(&format!("{base}/{kind}")).await;
        let items = list.as_array().cloned().unwrap_or_default();
        assert!(!items.is_empty(), "{base}/{kind} is empty");
        let mut errors = Vec::new();
        for item in &items {
            check_one(kind, item, &mut errors);
        }
        out.push((format!("{base}/{kind}"), errors));
        let first = items[0]["id"].as_str().expect("an id");
        let path = format!("{base}/{kind}/{first}");
        let mut errors = Vec::new();
        check_one(kind, &live.json(&path).await, &mut errors);
        out.push((path, errors));
    }
    for token in [Some(ADMIN), None] {
        let (status, body) = live.get(&format!("{base}/scoreboard"), token).await;
        assert_eq!(status, StatusCode::OK);
        let mut errors = Vec::new();
        schema::scoreboard(
            &serde_json::from_str(&body).expect("JSON"),
            board,
            &team_names,
            &mut errors,
        );
        out.push((
            format!(
                "{base}/scoreboard ({})",
                if token.is_some() { "admin" } else { "public" }
            ),
            errors,
        ));
    }
    let (status, feed) = live
        .get(&format!("{base}/event-feed?stream=false"), Some(ADMIN))
        .await;
    assert_eq!(status, StatusCode::OK);
    let mut seen_types = std::collections::BTreeSet::new();
    for (i, line) in feed.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let event: Value = serde_json::from_str(line).expect("an NDJSON line");
        let kind = event["type"].as_str().unwrap_or("?").to_owned();
        seen_types.insert(kind.clone());
        out.push((
            format!("{base}/event-feed line {} ({kind})", i + 1),
            schema::event(&event, board),
        ));
    }
    for kind in [
        "contest",
        "state",
        "problems",
        "languages",
        "judgement-types",
        "teams",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
    ] {
        assert!(
            seen_types.contains(kind),
            "{base}/event-feed has no `{kind}` event"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_and_event_follows_clics_2023_06() {
    let Some(live) = judged_contest().await else {
        return;
    };
    let mut checked = vec![(
        "/api".to_owned(),
        schema::api_information(&live.json("/api").await),
    )];
    let contests = live.json("/api/contests").await;
    let mut errors = Vec::new();
    for c in contests.as_array().expect("contests") {
        schema::contest(c, &mut errors);
    }
    checked.push(("/api/contests".to_owned(), errors));
    for cid in ["arena", "ioi"] {
        check_contest(&live, cid, &mut checked).await;
    }
    let failed: Vec<String> = checked
        .iter()
        .filter(|(_, errors)| !errors.is_empty())
        .map(|(what, errors)| format!("{what}:\n    {}", errors.join("\n    ")))
        .collect();
    eprintln!(
        "checked {} answers and events against CLICS 2023-06",
        checked.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} answers and events break CLICS 2023-06:\n{}",
        failed.len(),
        checked.len(),
        failed.join("\n")
    );
}

/// `(solved, accept minute, rejected tries)` of one problem.
type BoardCell = (bool, Option<u32>, u32);
/// `(rank, team, solved, penalty minutes, cells)`.
type BoardRow = (usize, String, f64, f64, Vec<BoardCell>);

/// The server's own event feed, read back by `leaderboard::clics::read_feed`, gives the
/// server's board: places, solved counts, penalty minutes, each problem's accept minute
/// and rejected tries, and the first team to solve each problem.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_feed_read_back_gives_the_servers_board() {
    let Some(live) = judged_contest().await else {
        return;
    };
    let (status, text) = live
        .get("/api/contests/arena/event-feed?stream=false", Some(ADMIN))
        .await;
    assert_eq!(status, StatusCode::OK);
    let feed = leaderboard::clics::read_feed(&text, "arena event feed").expect("the feed reads");
    let folded = feed.board(false).expect("the feed folds");
    let read_back: Vec<BoardRow> = folded
        .rows
        .iter()
        .map(|row| {
            let cells = row
                .problems
                .iter()
                .map(|p| (p.solved, p.accept_minute, p.rejected))
                .collect();
            (
                row.place.lo,
                row.team_id.clone(),
                row.score.points,
                row.score.penalty,
                cells,
            )
        })
        .collect();
    let board = live.json("/api/contests/arena/scoreboard").await;
    let served: Vec<BoardRow> = board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let cells = row["problems"]
                .as_array()
                .expect("problems")
                .iter()
                .map(|p| {
                    let solved = p["solved"] == true;
                    let judged = p["num_judged"].as_u64().unwrap_or(0) as u32;
                    let minute = p["time"].as_u64().map(|m| m as u32);
                    (solved, minute, judged - u32::from(solved))
                })
                .collect();
            (
                row["rank"].as_u64().expect("rank") as usize,
                row["team_id"].as_str().expect("team").to_owned(),
                row["score"]["num_solved"].as_f64().expect("num_solved"),
                row["score"]["total_time"].as_f64().expect("total_time"),
                cells,
            )
        })
        .collect();
    assert_eq!(read_back, served, "{board:#}");
    assert_eq!(served[0].2, 1.0, "someone solved something: {board:#}");
    let mut first_served: Vec<(String, String)> = Vec::new();
    for row in board["rows"].as_array().expect("rows") {
        for p in row["problems"].as_array().expect("problems") {
            if p["first_to_solve"] == true {
                first_served.push((
                    p["problem_id"].as_str().expect("id").to_owned(),
                    row["team_id"].as_str().expect("team").to_owned(),
                ));
            }
        }
    }
    first_served.sort();
    let first_read: Vec<(String, String)> = folded
        .first_to_solve
        .into_iter()
        .flat_map(|(problem, teams)| teams.into_iter().map(move |t| (problem.clone(), t)))
        .collect();
    assert_eq!(first_read, first_served);
    assert_eq!(
        first_served,
        [
            ("rangesum".into(), "t3".into()),
            ("sum".into(), "t1".into())
        ]
    );
}

/// The judgements of submission `id` that `token` sees, by id.
async fn judgements_of(live: &Live, id: &str, token: &str) -> Vec<String> {
    let (status, body) = live
        .get("/api/contests/arena/judgements", Some(token))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list: Value = serde_json::from_str(&body).expect("JSON");
    list.as_array()
        .expect("a list")
        .iter()
        .filter(|j| j["submission_id"] == id)
        .map(|j| j["id"].as_str().expect("an id").to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejudging_replaces_the_judgement_and_awards_follow_the_board() {
    let Some(live) = judged_contest().await else {
        return;
    };
    let subs = live.json("/api/contests/arena/submissions").await;
    let id = subs
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["team_id"] == "t2" && s["language_id"] == "python3")
        .expect("t2's accepted Python")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let old = judgements_of(&live, &id, ADMIN).await;
    assert_eq!(old.len(), 1);
    let rows_before = live.json("/api/contests/arena/scoreboard").await["rows"].clone();

    // Refused: a team, nothing named, an unknown problem, a submission not judged.
    let refused = [
        (
            "token-t2",
            json!({"submission_id": id}),
            StatusCode::FORBIDDEN,
        ),
        (ADMIN, json!({}), StatusCode::BAD_REQUEST),
        (
            ADMIN,
            json!({"problem_id": "nope"}),
            StatusCode::BAD_REQUEST,
        ),
        (ADMIN, json!({"submission_id": "999"}), StatusCode::CONFLICT),
    ];
    for (token, body, status) in refused {
        let request = Request::post("/api/contests/arena/rejudgings")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let res = live.app.clone().oneshot(request).await.unwrap();
        assert_eq!(res.status(), status, "{body}");
    }

    let answer = live
        .post(
            "/api/contests/arena/rejudgings",
            ADMIN,
            &json!({"submission_id": id}),
        )
        .await;
    assert_eq!(answer["submission_ids"], json!([id]));
    // Pending on the board at once (the rejudging wrote its event).
    let rows = live.json("/api/contests/arena/scoreboard").await["rows"].clone();
    let t2 = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"] == "t2")
        .unwrap();
    assert_eq!(t2["problems"][0]["num_pending"], 1, "{t2}");
    live.wait_until_judged().await;
    let all = judgements_of(&live, &id, ADMIN).await;
    assert_eq!(all.len(), 2, "the old judgement stays for admins");
    assert_eq!(all[0], old[0]);
    let newest = all[1].clone();
    assert_eq!(
        judgements_of(&live, &id, "token-t2").await,
        vec![newest.clone()],
        "its team sees the judgement that counts"
    );
    let (_, runs) = live.get("/api/contests/arena/runs", Some("token-t2")).await;
    let runs: Value = serde_json::from_str(&runs).unwrap();
    assert!(
        runs.as_array()
            .unwrap()
            .iter()
            .all(|r| r["judgement_id"] != old[0].as_str()),
        "the replaced judgement's runs are not the team's any more"
    );
    let (_, feed) = live
        .get("/api/contests/arena/event-feed?stream=false", Some(ADMIN))
        .await;
    let judged: Vec<String> = feed
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "judgements" && e["data"]["submission_id"] == id.as_str())
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(judged, all, "both judgements in the feed, the new one last");
    // The same verdict again: the board is as before.
    let strip = |rows: &Value| -> Vec<(Value, Value)> {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| (r["team_id"].clone(), r["score"].clone()))
            .collect()
    };
    assert_eq!(
        strip(&live.json("/api/contests/arena/scoreboard").await["rows"].clone()),
        strip(&rows_before)
    );

    // A problem's rejudging takes every judged submission of it.
    let answer = live
        .post(
            "/api/contests/arena/rejudgings",
            ADMIN,
            &json!({"problem_id": "rangesum"}),
        )
        .await;
    assert_eq!(answer["submission_ids"].as_array().unwrap().len(), 1);
    live.wait_until_judged().await;

    // Awards from the full board: the winners are the teams ranked first, t1 solved
    // `sum` first, and the gold medals include the winners.
    let rows = live.json("/api/contests/arena/scoreboard").await["rows"].clone();
    let first: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["rank"] == 1)
        .map(|r| r["team_id"].as_str().unwrap())
        .collect();
    let awards = live.json("/api/contests/arena/awards").await;
    let award = |id: &str| -> Vec<String> {
        awards
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
            .map(|a| serde_json::from_value(a["team_ids"].clone()).unwrap())
            .unwrap_or_else(|| panic!("no award {id} in {awards}"))
    };
    assert_eq!(award("winner"), first);
    assert_eq!(award("first-to-solve-sum"), ["t1"]);
    assert!(
        first
            .iter()
            .all(|t| award("gold-medal").iter().any(|g| g == t))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_reads_back_and_a_backup_restores_everything() {
    let Some(live) = judged_contest().await else {
        return;
    };
    let (status, _, _) =
        common::get(&live.app, "/api/contests/arena/export", Some("token-t1")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, kind, zip_bytes) =
        common::get(&live.app, "/api/contests/arena/export", Some(ADMIN)).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/zip"));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip_bytes)).expect("a zip");
    let mut read = |name: &str| {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(name).expect(name), &mut text)
            .expect("UTF-8");
        text
    };
    let (_, feed) = live
        .get("/api/contests/arena/event-feed?stream=false", Some(ADMIN))
        .await;
    let exported = read("event-feed.ndjson");
    assert_eq!(exported, feed, "the whole feed as an admin sees it");
    let folded = leaderboard::clics::read_feed(&exported, "export")
        .expect("the feed reader reads it")
        .board(false)
        .expect("it folds");
    assert_eq!(folded.rows.len(), 3);
    let contest: Value = serde_json::from_str(&read("contest.json")).unwrap();
    assert_eq!(contest["id"], "arena");
    let stored = live
        .state
        .store
        .submissions("arena", &judge_server::auth::Viewer::Admin)
        .await
        .unwrap();
    for s in &stored {
        let name = judge::lang::by_id(&s.language_id)
            .unwrap()
            .source_name(&s.source);
        assert_eq!(read(&format!("submissions/{}/{name}", s.id)), s.source);
    }

    // The backup, served by a fresh server, answers exactly as the live one.
    let (status, kind, copy) = common::get(&live.app, "/api/backup", Some(ADMIN)).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/vnd.sqlite3")
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("restored.sqlite");
    std::fs::write(&file, copy).unwrap();
    let opts = common::options(Vec::new(), &file, 0);
    let restored = AppState::open(&opts, live.state.sandbox.clone())
        .await
        .expect("the backup opens");
    let restored_app = judge_server::app(Arc::clone(&restored));
    for cid in ["arena", "ioi"] {
        for kind in [
            "submissions",
            "judgements",
            "runs",
            "clarifications",
            "teams",
            "problems",
            "event-feed?stream=false",
        ] {
            let path = format!("/api/contests/{cid}/{kind}");
            let (_, _, want) = common::get(&live.app, &path, Some(ADMIN)).await;
            let (status, _, got) = common::get(&restored_app, &path, Some(ADMIN)).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want),
                "{path} after the restore"
            );
        }
        let rows = |app: Router| async move {
            let (_, _, body) = common::get(
                &app,
                &format!("/api/contests/{cid}/scoreboard"),
                Some(ADMIN),
            )
            .await;
            serde_json::from_slice::<Value>(&body).unwrap()["rows"].clone()
        };
        assert_eq!(
            rows(restored_app.clone()).await,
            rows(live.app.clone()).await
        );
    }
    let sources = restored
        .store
        .submissions("arena", &judge_server::auth::Viewer::Admin)
        .await
        .unwrap();
    let pairs = |rows: &[judge_server::store::SubmissionRow]| -> Vec<(String, String)> {
        rows.iter()
            .map(|s| (s.id.clone(), s.source.clone()))
            .collect()
    };
    assert_eq!(pairs(&sources), pairs(&stored));
}
