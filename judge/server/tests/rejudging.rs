//! The jury's rejudging pages over real HTTP (the service on port 0, one judging worker
//! on bubblewrap), on SQLite and on PostgreSQL. The contest's `sum` is a copy of the
//! package whose first answer file the test rewrites between judgements, so a rejudging
//! really changes verdicts: by problem (an accepted submission turns WA, a wrong one stays
//! WA), by verdict (the answer restored: back to AC), by team and verdict (nothing
//! matches: refused, nothing recorded), and one submission from its page. Each
//! rejudging's page shows per submission the verdict before and after and which changed,
//! and keeps showing its own result after a later rejudging; the list, the audit log
//! and the `part=list` fragment agree. A second server opened on the same database
//! (the first idle beside it) shows the same pages.

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use common::ADMIN;
use common::http::{As, Body, request};
use judge_server::AppState;

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");

/// Copies the folder `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The contest file: `arena`, started an hour ago, the copied `sum`, teams t1 and t2.
fn contest_file(dir: &Path, sum: &Path) -> PathBuf {
    let start = (chrono::Utc::now() - chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let yaml = format!(
        "id: arena\nname: Arena\nstart_time: {start}\nduration: '5:00:00'\n\
         problems:\n  - {{id: sum, package: {}}}\n\
         teams:\n  - {{id: t1, name: Team One, token: token-t1}}\n  - {{id: t2, name: Team Two, token: token-t2}}\n",
        sum.display()
    );
    let path = dir.join("contest.yaml");
    std::fs::write(&path, yaml).expect("contest file");
    path
}

/// A server on `db` with `workers` judging, answering on port 0.
async fn serve(contest: &Path, db: &str, workers: usize) -> SocketAddr {
    let sandbox = judge::sandbox::SandboxConfig::discover().expect("sandbox config");
    let mut opts = common::options(vec![contest.to_owned()], Path::new(db), workers);
    opts.db = db.to_owned();
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    judge_server::worker::spawn(&state, workers);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind port 0");
    let addr = listener.local_addr().expect("bound address");
    tokio::spawn(judge_server::routes::serve(
        listener,
        judge_server::app(Arc::clone(&state)),
    ));
    addr
}

async fn submit(addr: SocketAddr, team: &str, file: &str, language: &str) -> String {
    let source =
        std::fs::read_to_string(format!("{PACKAGES}/sum/submissions/{file}")).expect("a source");
    let body = json!({"problem_id": "sum", "language_id": language, "source": source});
    let token = format!("token-{team}");
    let answer = request(
        addr,
        "POST",
        "/api/contests/arena/submissions",
        As::Bearer(&token),
        Body::Json(&body),
    )
    .await;
    assert_eq!(answer.status, 200, "submit {file}: {}", answer.text());
    answer.json()["id"].as_str().expect("an id").to_owned()
}

/// Waits until nothing is queued or being judged (failing after five minutes).
async fn wait_until_judged(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let queue = request(addr, "GET", "/api/queue", As::Bearer(ADMIN), Body::Nothing)
            .await
            .json();
        if queue["queued"] == 0 && queue["judging"] == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "still judging: {queue}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The text of GET `path` as `who`, which must answer 200.
async fn page(addr: SocketAddr, path: &str, who: As<'_>) -> String {
    let answer = request(addr, "GET", path, who, Body::Nothing).await;
    assert_eq!(answer.status, 200, "GET {path}: {}", answer.text());
    answer.text()
}

/// Posts the rejudging form with `fields`: the status and `Location`.
async fn rejudge(addr: SocketAddr, who: As<'_>, fields: &[(&str, &str)]) -> (u16, String) {
    let answer = request(
        addr,
        "POST",
        "/contests/arena/jury/rejudgings",
        who,
        Body::Form(fields),
    )
    .await;
    let location = answer.header("location").unwrap_or_default().to_owned();
    (answer.status, location + &answer.text())
}

/// The rows of a rejudging's table: (submission, before, after, how).
fn rows(html: &str) -> Vec<(String, String, String, String)> {
    html.split("<tr class='rejudged ")
        .skip(1)
        .map(|row| {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .map(|cell| {
                    let text = &cell[cell.find('>').expect("a cell") + 1..];
                    let text = text.split("</td>").next().unwrap_or_default();
                    // The submission's cell holds its link.
                    let text = text
                        .split('>')
                        .nth(1)
                        .map_or(text, |t| t.split('<').next().unwrap_or_default());
                    text.to_owned()
                })
                .collect();
            (
                cells[0].clone(),
                cells[3].clone(),
                cells[4].clone(),
                cells[5].clone(),
            )
        })
        .collect()
}

fn row(id: &str, before: &str, after: &str, how: &str) -> (String, String, String, String) {
    (id.into(), before.into(), after.into(), how.into())
}

/// The whole story on `db`. It is long because it is one scenario told in order: each
/// rejudging works on the verdicts the steps before it left.
async fn story(db: &str) {
    let Some(_sandbox) = common::bwrap_sandbox() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let sum = dir.path().join("sum");
    copy_dir(&Path::new(PACKAGES).join("sum"), &sum);
    let contest = contest_file(dir.path(), &sum);
    let addr = serve(&contest, db, 1).await;
    let accepted = submit(addr, "t1", "accepted/sum.c", "c").await;
    let wrong = submit(addr, "t2", "wrong_answer/first_only.py", "python3").await;
    wait_until_judged(addr).await;

    let (sid, csrf) = common::http::login(addr, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let jury = As::Session {
        id: &sid,
        csrf: &csrf,
    };
    let list = page(addr, "/contests/arena/jury/rejudgings", jury).await;
    assert!(list.contains("No rejudging yet."), "{list}");
    assert!(
        list.contains("<form id=rejudge-new method=post action='/contests/arena/jury/rejudgings'>")
            && list.contains("name=csrf"),
        "{list}"
    );
    let contest_page = page(addr, "/contests/arena", jury).await;
    assert!(
        contest_page.contains("href='/contests/arena/jury/rejudgings'"),
        "linked from the jury's part of the contest page"
    );

    // The first answer file now says something else: the accepted program fails it.
    let answer_file = sum.join("data/secret/01-single.ans");
    let right = std::fs::read_to_string(&answer_file).expect("answer");
    std::fs::write(&answer_file, "7\n").expect("rewrite the answer");
    let (status, location) = rejudge(addr, jury, &[("problem", "sum")]).await;
    assert_eq!(status, 303, "{location}");
    let first = location.clone();
    assert!(
        first.starts_with("/contests/arena/jury/rejudgings/"),
        "{first}"
    );
    let first_id = first.rsplit('/').next().expect("an id").to_owned();
    wait_until_judged(addr).await;
    let shown = page(addr, &first, jury).await;
    assert!(
        shown.contains(&format!("<h1>Rejudging {first_id}</h1>"))
            && shown.contains("problem sum by jury (web)"),
        "{shown}"
    );
    assert!(
        shown.contains(
            "<p id=summary>2 submission(s): 2 judged again, 0 pending; 1 changed verdict.</p>"
        ),
        "{shown}"
    );
    assert_eq!(
        rows(&shown),
        [
            row(&accepted, "AC", "WA", "changed"),
            row(&wrong, "WA", "WA", "same")
        ]
    );
    let part = page(addr, &format!("{first}?part=list"), jury).await;
    assert!(part.starts_with("<p id=summary>2 submission(s)"), "{part}");
    assert!(!part.contains("<html"), "the live part alone: {part}");

    // Restored, and every WA rejudged: the accepted one is back to AC. The first
    // rejudging still shows the verdict it gave.
    std::fs::write(&answer_file, right).expect("restore the answer");
    let (status, second) = rejudge(addr, jury, &[("verdict", "WA")]).await;
    assert_eq!(status, 303, "{second}");
    wait_until_judged(addr).await;
    let shown = page(addr, &second, jury).await;
    assert_eq!(
        rows(&shown),
        [
            row(&accepted, "WA", "AC", "changed"),
            row(&wrong, "WA", "WA", "same")
        ],
        "{shown}"
    );
    assert_eq!(
        rows(&page(addr, &first, jury).await),
        [
            row(&accepted, "AC", "WA", "changed"),
            row(&wrong, "WA", "WA", "same")
        ],
        "a rejudging keeps its own result"
    );

    // Nothing matches: refused, nothing recorded. Unknown names are refused by name.
    for (fields, status, says) in [
        (
            vec![("team", "t2"), ("verdict", "AC")],
            409,
            "no judged submission matches team t2, verdict AC",
        ),
        (vec![("verdict", "XX")], 400, "no judgement type `XX`"),
        (vec![("team", "t9")], 400, "no team `t9`"),
        (vec![], 400, "give submission_id"),
    ] {
        let (got, text) = rejudge(addr, jury, &fields).await;
        assert_eq!(got, status, "{fields:?}: {text}");
        assert!(text.contains(says), "{fields:?}: {text}");
    }

    // One submission from its own page.
    let one = page(
        addr,
        &format!("/contests/arena/jury/submissions/{wrong}"),
        jury,
    )
    .await;
    assert!(
        one.contains("<form id=rejudge-one method=post action='/contests/arena/jury/rejudgings'>"),
        "{one}"
    );
    let (status, third) = rejudge(addr, jury, &[("submission", &wrong)]).await;
    assert_eq!(status, 303, "{third}");
    wait_until_judged(addr).await;
    assert_eq!(
        rows(&page(addr, &third, jury).await),
        [row(&wrong, "WA", "WA", "same")]
    );
    let list = page(addr, "/contests/arena/jury/rejudgings", jury).await;
    let at = |what: &str| {
        list.find(what)
            .unwrap_or_else(|| panic!("{what} in {list}"))
    };
    assert!(
        at(&format!("<td>submission {wrong}</td><td>1</td>")) < at("<td>verdict WA</td><td>2</td>")
            && at("<td>verdict WA</td><td>2</td>") < at("<td>problem sum</td><td>2</td>"),
        "newest first: {list}"
    );

    // The audit log names each rejudging.
    let audit = request(
        addr,
        "GET",
        "/api/contests/arena/audit",
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await
    .json();
    let lines: Vec<(&str, &str)> = audit
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| (r["action"].as_str().unwrap(), r["detail"].as_str().unwrap()))
        .collect();
    let expected = format!("rejudging {first_id}: problem sum; 2 submission(s)");
    assert_eq!(lines.len(), 3, "{audit}");
    assert!(
        lines.iter().all(|(action, _)| *action == "rejudge"),
        "{audit}"
    );
    assert_eq!(lines[0].1, expected, "{audit}");

    // Nobody else sees the pages or rejudges.
    let (t1, t1_csrf) = common::http::login(addr, "arena", "token-t1")
        .await
        .expect("t1 logs in");
    let team = As::Session {
        id: &t1,
        csrf: &t1_csrf,
    };
    for who in [As::Nobody, team] {
        let answer = request(addr, "GET", &first, who, Body::Nothing).await;
        assert_eq!(answer.status, 303);
        assert_eq!(rejudge(addr, who, &[("problem", "sum")]).await.0, 403);
    }
    let missing = request(
        addr,
        "GET",
        "/contests/arena/jury/rejudgings/999",
        jury,
        Body::Nothing,
    )
    .await;
    assert_eq!(missing.status, 404);

    // A second server on the same database shows the same.
    let other = serve(&contest, db, 0).await;
    for path in [&first, &second, &third] {
        assert_eq!(
            rows(&page(other, path, jury).await),
            rows(&page(addr, path, jury).await),
            "{path} on the second server"
        );
    }
    let list_again = page(other, "/contests/arena/jury/rejudgings", jury).await;
    assert_eq!(list_again.matches("<tr class=rejudging>").count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_sees_what_a_rejudging_changed_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite").display().to_string();
    story(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_sees_what_a_rejudging_changed_on_postgres() {
    let Some(db) = common::Postgres::fresh("arena_rejudging") else {
        return;
    };
    story(&db.url).await;
}
