//! Problem packages uploaded on the jury's problems page over real HTTP (the service on
//! port 0), on SQLite and on PostgreSQL: a zip made here from the `sum` package loads,
//! and its page shows what the judge's loader found; a package with a broken
//! `problem.yaml` is kept and its page lists the errors; zips with a `../` name, an
//! absolute name or a symbolic link, and bytes that are not a zip, are refused naming the
//! entry and kept nowhere. The same zip twice is kept once (by its SHA-256). Each upload
//! is in the audit log; nobody but the jury's session with its CSRF token uploads. A
//! second server on the same database, its unpacked copy removed, unpacks the package
//! from the database and shows the same page. The package is then added to the contest
//! as a problem (bad ids and a package that cannot be judged refused) and the file's
//! problem removed before the start, each with its `problems` events and audit line,
//! followed by the second server and kept over a restart; after the start a removal is
//! refused, and a team's submission to the added problem is judged (where bubblewrap is
//! present). Where it is, the package's own submissions are judged from its page, each
//! getting its folder's verdict.

mod common;

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use common::ADMIN;
use common::http::{As, Body, Part, request};
use judge_server::AppState;

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");

/// The files of a small package made from `sum`: its `problem.yaml`, statement, samples,
/// two secret tests and three submissions (accepted, wrong answer, run-time error).
const SUM_FILES: [&str; 11] = [
    "problem.yaml",
    "statement/problem.en.md",
    "data/sample/1.in",
    "data/sample/1.ans",
    "data/secret/01-single.in",
    "data/secret/01-single.ans",
    "data/secret/02-small.in",
    "data/secret/02-small.ans",
    "submissions/accepted/sum.py",
    "submissions/wrong_answer/first_only.py",
    "submissions/run_time_error/exit_code.py",
];

/// A zip of `entries` (name, content).
fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, content) in entries {
        out.start_file(name.as_str(), options).expect("entry");
        out.write_all(content).expect("content");
    }
    out.finish().expect("zip").into_inner()
}

/// The small `sum` package zipped inside a folder `sum/`, with a note naming `tag` (so
/// that each test's zip has its own SHA-256).
fn sum_zip(tag: &str) -> Vec<u8> {
    let mut entries: Vec<(String, Vec<u8>)> = SUM_FILES
        .iter()
        .map(|f| {
            let bytes = std::fs::read(format!("{PACKAGES}/sum/{f}")).expect("a package file");
            (format!("sum/{f}"), bytes)
        })
        .collect();
    entries.push(("sum/NOTE".into(), tag.as_bytes().to_vec()));
    zip_of(&entries)
}

fn contest_file(dir: &Path) -> std::path::PathBuf {
    let start = (chrono::Utc::now() + chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let yaml = format!(
        "id: arena\nname: Arena\nstart_time: {start}\nduration: '5:00:00'\n\
         problems:\n  - {{id: sum, package: {PACKAGES}/sum}}\n\
         teams:\n  - {{id: t1, name: Team One, token: token-t1}}\n"
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
    // The state ticker, as `judge serve` runs it: it also serves the contest again when
    // the jury's problems changed on another host.
    let ticking = Arc::clone(&state);
    tokio::spawn(async move {
        loop {
            judge_server::write_state_events(&ticking).await;
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    });
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

/// Uploads `bytes` as `name` as `who`: the status and the `Location` or the page.
async fn upload(addr: SocketAddr, who: As<'_>, name: &str, bytes: &[u8]) -> (u16, String) {
    let parts = [Part {
        name: "file",
        file_name: Some(name),
        bytes,
    }];
    let answer = request(
        addr,
        "POST",
        "/contests/arena/jury/problems/upload",
        who,
        Body::Multipart(&parts),
    )
    .await;
    let location = answer.header("location").unwrap_or_default().to_owned();
    (answer.status, location + &answer.text())
}

async fn page(addr: SocketAddr, path: &str, who: As<'_>) -> String {
    let answer = request(addr, "GET", path, who, Body::Nothing).await;
    assert_eq!(answer.status, 200, "GET {path}: {}", answer.text());
    answer.text()
}

/// Removes this host's unpacked copy of package `sha256`, if any.
fn forget(sha256: &str) {
    let dir = judge_server::uploads::packages_dir().join(sha256);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("remove the unpacked package");
    }
}

/// The whole story on `db`; `tag` makes the zips this test's own. It is long because it
/// is one scenario told in order: each upload is checked against those before it.
async fn story(db: &str, tag: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path());
    // One worker where bubblewrap is present: a team's submission to the added problem is
    // judged.
    let workers = usize::from(common::bwrap_sandbox().is_some());
    let a = serve(&contest, db, workers).await;
    let (sid, csrf) = common::http::login(a, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let jury = As::Session {
        id: &sid,
        csrf: &csrf,
    };
    let problems = page(a, "/contests/arena/jury/problems", jury).await;
    assert!(
        problems.contains(
            "<span id=limits>Limits: at most 200 MiB zipped, 1 GiB unpacked, 10000 files and folders.</span>"
        ),
        "{problems}"
    );
    assert!(
        problems.contains(
            "<form id=upload-package method=post action='/contests/arena/jury/problems/upload' \
             enctype='multipart/form-data'><input type=hidden name=csrf"
        ),
        "{problems}"
    );
    assert!(problems.contains("No package uploaded yet."), "{problems}");
    assert!(
        page(a, "/contests/arena", jury)
            .await
            .contains("href='/contests/arena/jury/problems'")
    );

    // A package that loads.
    let good = sum_zip(tag);
    let sha = judge_server::uploads::sha256_hex(&good);
    forget(&sha);
    let (status, location) = upload(a, jury, "sum.zip", &good).await;
    assert_eq!(status, 303, "{location}");
    let package_path = format!("/contests/arena/jury/packages/{sha}");
    assert_eq!(location, package_path);
    let shown = page(a, &package_path, jury).await;
    assert!(
        shown.contains("<p id=loads class=AC>The package loads: <b>Sum of Numbers</b> (<code>sum</code>), time limit 1 s (problem.yaml), 1 sample and 2 secret test(s), 3 reference submission(s);"),
        "{shown}"
    );
    assert!(shown.contains(&format!("<code id=sha256>{sha}</code>")));
    if workers > 0 {
        own_submissions(a, jury, &package_path).await;
    }
    // Again: the same SHA-256, kept once.
    let (status, again) = upload(a, jury, "sum-again.zip", &good).await;
    assert_eq!((status, again.as_str()), (303, package_path.as_str()));

    // A package with a broken problem.yaml: kept, its errors listed.
    let broken = zip_of(&[
        ("problem.yaml".into(), b"name: [unclosed\n".to_vec()),
        ("NOTE".into(), tag.as_bytes().to_vec()),
    ]);
    let broken_sha = judge_server::uploads::sha256_hex(&broken);
    forget(&broken_sha);
    let (status, location) = upload(a, jury, "broken.zip", &broken).await;
    assert_eq!(status, 303, "{location}");
    let shown = page(a, &location, jury).await;
    assert!(
        shown.contains("<p id=loads class=WA>The package does not load:"),
        "{shown}"
    );
    assert!(
        shown.contains("<tr class=error><td>error</td><td>problem.yaml</td>"),
        "{shown}"
    );

    // Refused, naming the entry, kept nowhere.
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    out.add_symlink(
        "data/link",
        "/etc/passwd",
        zip::write::SimpleFileOptions::default(),
    )
    .expect("a link");
    let link = out.finish().expect("zip").into_inner();
    for (name, bytes, says) in [
        (
            "climb.zip",
            zip_of(&[("../evil".into(), b"x".to_vec())]),
            "`climb.zip`: entry `../evil`: a name that leaves the package&#39;s folder",
        ),
        (
            "absolute.zip",
            zip_of(&[("/tmp/evil".into(), b"x".to_vec())]),
            "`absolute.zip`: entry `/tmp/evil`: an absolute name",
        ),
        (
            "link.zip",
            link,
            "`link.zip`: entry `data/link`: a symbolic link",
        ),
        (
            "text.zip",
            b"not a zip".to_vec(),
            "`text.zip`: not a zip archive",
        ),
    ] {
        let (status, text) = upload(a, jury, name, &bytes).await;
        assert_eq!(status, 400, "{name}: {text}");
        assert!(text.contains(says), "{name}: {text}");
        let sha = judge_server::uploads::sha256_hex(&bytes);
        assert!(!judge_server::uploads::packages_dir().join(&sha).exists());
    }
    let problems = page(a, "/contests/arena/jury/problems", jury).await;
    assert_eq!(
        problems.matches("<tr class=package>").count(),
        2,
        "{problems}"
    );

    // Only the jury's session with its CSRF token uploads.
    let (t1, t1_csrf) = common::http::login(a, "arena", "token-t1")
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
        let (status, text) = upload(a, who, "sum.zip", &good).await;
        assert_eq!(status, 403, "{text}");
    }
    let audit = request(
        a,
        "GET",
        "/api/contests/arena/audit",
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await
    .json();
    let uploads: Vec<&str> = audit
        .as_array()
        .expect("a list")
        .iter()
        .filter(|r| r["action"] == "upload_package")
        .map(|r| r["detail"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(uploads.len(), 3, "{audit}");
    assert!(
        uploads[0].starts_with("sum.zip (") && uploads[0].ends_with(&format!("sha256 {sha})")),
        "{audit}"
    );

    // Another server on the same database, without this host's copy: unpacked from the
    // database.
    let b = serve(&contest, db, 0).await;
    forget(&sha);
    let shown = page(b, &package_path, jury).await;
    assert!(
        shown.contains("The package loads: <b>Sum of Numbers</b>"),
        "{shown}"
    );
    assert!(judge_server::uploads::packages_dir().join(&sha).is_dir());
    let missing = request(
        b,
        "GET",
        &format!("/contests/arena/jury/packages/{}", "0".repeat(64)),
        jury,
        Body::Nothing,
    )
    .await;
    assert_eq!(missing.status, 404);
    add_and_remove(a, b, jury, &sha, &broken_sha).await;
    after_the_start(a, jury, workers > 0).await;
    // Opened again on the same database: the jury's problems as they were left.
    let again = serve(&contest, db, 0).await;
    assert_eq!(problem_ids(again).await, ["sum2"], "after a restart");
    forget(&sha);
    forget(&broken_sha);
}

/// The contest started: a removal is refused, and (where `judged`) a team's submission
/// to the added problem `sum2` is judged AC.
async fn after_the_start(a: SocketAddr, jury: As<'_>, judged: bool) {
    // Started: no removal; a team's submission to the added problem is judged.
    let started = request(
        a,
        "POST",
        "/api/contests/arena/control",
        As::Bearer(ADMIN),
        Body::Json(&serde_json::json!({"action": "start_now"})),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.text());
    let refused = request(
        a,
        "POST",
        "/contests/arena/jury/problems/sum2/remove",
        jury,
        Body::Form(&[]),
    )
    .await;
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(refused.text().contains("only before the start"));
    if judged {
        let source = std::fs::read_to_string(format!("{PACKAGES}/sum/submissions/accepted/sum.py"))
            .expect("a source");
        let body =
            serde_json::json!({"problem_id": "sum2", "language_id": "python3", "source": source});
        let posted = request(
            a,
            "POST",
            "/api/contests/arena/submissions",
            As::Bearer("token-t1"),
            Body::Json(&body),
        )
        .await;
        assert_eq!(posted.status, 200, "{}", posted.text());
        let id = posted.json()["id"].as_str().expect("an id").to_owned();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        loop {
            let judgements = request(
                a,
                "GET",
                "/api/contests/arena/judgements",
                As::Bearer(ADMIN),
                Body::Nothing,
            )
            .await
            .json();
            let verdict = judgements
                .as_array()
                .expect("a list")
                .iter()
                .find(|j| j["submission_id"] == id.as_str())
                .map(|j| j["judgement_type_id"].clone());
            if let Some(verdict) = verdict {
                assert_eq!(verdict, "AC", "{judgements}");
                break;
            }
            assert!(std::time::Instant::now() < deadline, "never judged");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
}

/// The package's own submissions judged from its page: each gets its folder's verdict.
async fn own_submissions(a: SocketAddr, jury: As<'_>, package_path: &str) {
    let shown = page(a, package_path, jury).await;
    assert!(
        shown.contains(&format!(
            "<form id=verify method=post action='{package_path}/verify'>"
        )),
        "{shown}"
    );
    let started = request(
        a,
        "POST",
        &format!("{package_path}/verify"),
        jury,
        Body::Form(&[]),
    )
    .await;
    assert_eq!(started.status, 303, "{}", started.text());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let shown = loop {
        let shown = page(a, package_path, jury).await;
        if shown.contains("<p id=verification") {
            break shown;
        }
        assert!(shown.contains("<p id=verifying>"), "{shown}");
        assert!(std::time::Instant::now() < deadline, "never judged");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert!(
        shown.contains(
            "<p id=verification>3 of 3 submission(s) got their folder's verdict; time limit 1 s"
        ),
        "{shown}"
    );
    for (file, got) in [
        ("submissions/accepted/sum.py", "AC"),
        ("submissions/wrong_answer/first_only.py", "WA"),
        ("submissions/run_time_error/exit_code.py", "RTE"),
    ] {
        assert!(
            shown.contains(&format!("<tr class=reference><td>{file}</td>"))
                && shown.contains(&format!(
                    "<td class='verdict {got}'>{got}</td><td class=AC>as its folder says</td>"
                )),
            "{file}: {shown}"
        );
    }
}

/// The problems' ids as the API lists them to the admin.
async fn problem_ids(addr: SocketAddr) -> Vec<String> {
    let listed = request(
        addr,
        "GET",
        "/api/contests/arena/problems",
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await
    .json();
    listed
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["id"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Waits (at most 30 s) until `addr` lists `ids` as the contest's problems.
async fn until_problems(addr: SocketAddr, ids: &[&str]) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let now = problem_ids(addr).await;
        if now == ids {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{addr} lists {now:?}, not {ids:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The problems' `problems` events after token `after`: (id, whether it has data).
async fn problem_events(addr: SocketAddr, after: &str) -> Vec<(String, bool)> {
    let feed = request(
        addr,
        "GET",
        &format!("/api/contests/arena/event-feed?stream=false&since_token={after}"),
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await
    .text();
    feed.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["type"] == "problems")
        .map(|e| {
            (
                e["id"].as_str().unwrap_or_default().to_owned(),
                !e["data"].is_null(),
            )
        })
        .collect()
}

/// The newest event token of the contest's feed.
async fn last_token(addr: SocketAddr) -> String {
    let feed = request(
        addr,
        "GET",
        "/api/contests/arena/event-feed?stream=false",
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await
    .text();
    let last = feed.lines().last().expect("events");
    let event: serde_json::Value = serde_json::from_str(last).expect("an event");
    event["token"].as_str().expect("a token").to_owned()
}

/// The package `sha` added to the contest on host `a` as `sum2` (label B); bad adds
/// refused; the file's `sum` removed before the start; host `b` follows both.
async fn add_and_remove(a: SocketAddr, b: SocketAddr, jury: As<'_>, sha: &str, broken_sha: &str) {
    let package_path = format!("/contests/arena/jury/packages/{sha}");
    let shown = page(a, &package_path, jury).await;
    assert!(
        shown.contains(
            "<form id=add-problem method=post action='/contests/arena/jury/problems/add'>"
        ) && shown.contains(&format!("<input type=hidden name=sha256 value='{sha}'>")),
        "{shown}"
    );
    let add = |fields: Vec<(&'static str, String)>| async move {
        let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = request(
            a,
            "POST",
            "/contests/arena/jury/problems/add",
            jury,
            Body::Form(&fields),
        )
        .await;
        let location = answer.header("location").unwrap_or_default().to_owned();
        (answer.status, location + &answer.text())
    };
    for (fields, says) in [
        (
            vec![("sha256", sha.to_owned()), ("id", "sum".to_owned())],
            "problem id `sum` is taken in this contest",
        ),
        (
            vec![("sha256", sha.to_owned()), ("id", "a b".to_owned())],
            "problem id `a b`: use letters, digits",
        ),
        (
            vec![
                ("sha256", sha.to_owned()),
                ("id", "sum3".to_owned()),
                ("label", "A".to_owned()),
            ],
            "label `A` is taken in this contest",
        ),
        (
            vec![("sha256", broken_sha.to_owned()), ("id", "x".to_owned())],
            "cannot be judged",
        ),
    ] {
        let (status, text) = add(fields.clone()).await;
        assert_eq!(status, 400, "{fields:?}: {text}");
        assert!(text.contains(says), "{fields:?}: {text}");
    }
    let token = last_token(a).await;
    let (status, location) = add(vec![
        ("sha256", sha.to_owned()),
        ("id", "sum2".to_owned()),
        ("label", String::new()),
    ])
    .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/contests/arena/jury/problems")
    );
    assert_eq!(problem_ids(a).await, ["sum", "sum2"]);
    let problems = page(a, "/contests/arena/jury/problems", jury).await;
    assert!(
        problems.contains(
            "<tr class=problem id=problem-sum2><td>B</td><td>sum2</td><td>Sum of Numbers</td>"
        ),
        "{problems}"
    );
    assert!(
        page(a, &package_path, jury)
            .await
            .contains("This package is a problem of the contest."),
    );
    assert_eq!(
        problem_events(a, &token).await,
        [("sum".to_owned(), true), ("sum2".to_owned(), true)]
    );
    until_problems(b, &["sum", "sum2"]).await;

    // The file's problem removed before the start: a deletion event, and the others again.
    let token = last_token(a).await;
    let removed = request(
        a,
        "POST",
        "/contests/arena/jury/problems/sum/remove",
        jury,
        Body::Form(&[]),
    )
    .await;
    assert_eq!(removed.status, 303, "{}", removed.text());
    assert_eq!(problem_ids(a).await, ["sum2"]);
    assert_eq!(
        problem_events(a, &token).await,
        [("sum".to_owned(), false), ("sum2".to_owned(), true)]
    );
    until_problems(b, &["sum2"]).await;
    let audit = request(
        a,
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
        .filter(|(action, _)| action.ends_with("_problem"))
        .collect();
    assert_eq!(
        lines,
        [
            (
                "add_problem",
                format!("sum2 (B): sum.zip, sha256 {sha}").as_str()
            ),
            ("remove_problem", "sum"),
        ],
        "{audit}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_uploads_problem_packages_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite").display().to_string();
    story(&db, "sqlite").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_uploads_problem_packages_on_postgres() {
    let Some(db) = common::Postgres::fresh("arena_packages") else {
        return;
    };
    story(&db.url, "postgres").await;
}

/// The same over the API (admins only): a zip posted as the body answers what the loader
/// found, a kept package is read back by its SHA-256, it is added as a problem (its CLICS
/// object answered) and removed before the start; a team may do none of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn problems_over_the_api() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("db.sqlite").display().to_string();
    let contest = contest_file(dir.path());
    let a = serve(&contest, &db, 0).await;
    let good = sum_zip("api");
    let sha = judge_server::uploads::sha256_hex(&good);
    forget(&sha);
    let post = |who, path, body| request(a, "POST", path, who, body);
    let zip = good.as_slice();
    let evil = zip_of(&[("../evil".into(), b"x".to_vec())]);
    let team = post(
        As::Bearer("token-t1"),
        "/api/contests/arena/packages?name=sum.zip",
        Body::Raw(zip, "application/zip"),
    )
    .await;
    assert_eq!(team.status, 403, "{}", team.text());
    let answer = post(
        As::Bearer(ADMIN),
        "/api/contests/arena/packages?name=sum.zip",
        Body::Raw(zip, "application/zip"),
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.text());
    let report = answer.json();
    assert_eq!(report["sha256"], sha.as_str());
    assert_eq!(report["loads"], true, "{report}");
    assert_eq!(report["problem"]["short_name"], "sum");
    assert_eq!(report["diagnostics"][0]["severity"], "warning", "{report}");
    let refused = post(
        As::Bearer(ADMIN),
        "/api/contests/arena/packages?name=evil.zip",
        Body::Raw(&evil, "application/zip"),
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`evil.zip`: entry `../evil`"),
        "{}",
        refused.text()
    );
    let again = request(
        a,
        "GET",
        &format!("/api/contests/arena/packages/{sha}"),
        As::Bearer(ADMIN),
        Body::Nothing,
    )
    .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json(), report);

    let body = serde_json::json!({"package_sha256": sha, "id": "sum2", "label": "Z"});
    let added = request(
        a,
        "POST",
        "/api/contests/arena/problems",
        As::Bearer(ADMIN),
        Body::Json(&body),
    )
    .await;
    assert_eq!(added.status, 201, "{}", added.text());
    assert_eq!(
        (added.json()["id"].clone(), added.json()["label"].clone()),
        (serde_json::json!("sum2"), serde_json::json!("Z"))
    );
    assert_eq!(problem_ids(a).await, ["sum", "sum2"]);
    let removed = post(
        As::Bearer(ADMIN),
        "/api/contests/arena/problems/sum2/remove",
        Body::Nothing,
    )
    .await;
    assert_eq!(removed.status, 204, "{}", removed.text());
    assert_eq!(problem_ids(a).await, ["sum"]);
    let gone = post(
        As::Bearer(ADMIN),
        "/api/contests/arena/problems/sum2/remove",
        Body::Nothing,
    )
    .await;
    assert_eq!(gone.status, 400, "{}", gone.text());
    let team = post(
        As::Bearer("token-t1"),
        "/api/contests/arena/problems/sum/remove",
        Body::Nothing,
    )
    .await;
    assert_eq!(team.status, 403);
    forget(&sha);
}
