//! Benchmark of the jury's submission list (`/contests/{cid}/jury/submissions`, issue 31):
//! a contest with `N` submissions (default 10,000) of 100 teams, 9 in 10 judged (a third
//! of those wrong answers, a tenth rejudged), written through the store's own calls on
//! SQLite and, when `ARENA_PG_URL` is set, on a throwaway PostgreSQL database; then the
//! server on port 0, the jury logged in, and each page asked `ROUNDS` times (default 30)
//! over HTTP on loopback: the first page, a team's, the wrong answers, and a page deep in
//! the list; and, for comparison, the jury's live part of the contest page as it was before
//! the list (`/contests/{cid}/mine`: every submission at once). Prints the median and the
//! 90th percentile of each, in milliseconds.
//!
//! Run: `cargo run --release -p judge-server --example jury_list_bench [N] [ROUNDS]`
//! (BENCHMARKS.md has a run).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use problems::Verdict;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use judge::grade::Options;
use judge::sandbox::{BackendKind, SandboxConfig};
use judge_server::store::{
    Finished, JudgementRow, NewEvent, NewSubmission, RejudgeFilter, RejudgeRecord, RunRow,
};
use judge_server::{AppState, ServeOptions};

const ADMIN: &str = "bench-admin-token";
const TEAMS: usize = 100;

/// One request on a new connection: the status, the `Set-Cookie` header and the body.
async fn http(addr: SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{head}Host: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .unwrap_or_default()
        .to_owned();
    (status, cookie, body.to_owned())
}

async fn seed(state: &AppState, n: usize) {
    let store = &state.store;
    let start = Instant::now();
    for i in 0..n {
        let team = format!("t{}", i % TEAMS);
        let new = NewSubmission {
            id: None,
            contest_id: "bench".into(),
            team_id: team.clone(),
            problem_id: "sum".into(),
            language_id: if i % 2 == 0 { "c" } else { "python3" }.into(),
            source: format!("// submission {i}\nint main(){{return 0;}}\n"),
            time_ms: 1_000 + i as i64,
            contest_time_ms: i as i64 * 100,
        };
        store
            .insert_submission(&new, |row| NewEvent {
                kind: "submissions".into(),
                obj_id: Some(row.id.clone()),
                team_id: Some(team.clone()),
                data: None,
            })
            .await
            .expect("insert")
            .expect("new id");
    }
    eprintln!(
        "  {n} submissions written in {:.1}s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let judged = n * 9 / 10;
    for i in 0..judged {
        let taken = store
            .claim("bench", 0, i64::MAX)
            .await
            .expect("claim")
            .expect("a queued submission");
        let verdict = if i % 3 == 0 { Verdict::WA } else { Verdict::AC };
        let finished = Finished {
            judgement: JudgementRow {
                seq: 0,
                id: String::new(),
                submission_id: taken.id.clone(),
                verdict,
                score: 0.0,
                subtask_scores: "[]".into(),
                start_ms: 1,
                end_ms: 2,
                max_run_time: 0.01,
            },
            runs: vec![RunRow {
                id: String::new(),
                judgement_id: String::new(),
                ordinal: 1,
                verdict,
                time_ms: 2,
                run_time: 0.01,
            }],
            details: Vec::new(),
            compile_log: String::new(),
        };
        let done = store.finish("bench", taken.seq, "bench", finished, false, |_, _| {
            Vec::new()
        });
        assert!(done.await.expect("finish"));
        if i % 10 == 0 {
            // Rejudged: queued again, taken first (the queue goes by age) and judged AC.
            let filter = RejudgeFilter {
                submission_id: Some(taken.id.clone()),
                ..RejudgeFilter::default()
            };
            let record = RejudgeRecord {
                actor: "bench".into(),
                what: format!("submission {}", taken.id),
                time_ms: 0,
            };
            let queued = store.rejudge("bench", &filter, &record, |row| NewEvent {
                kind: "submissions".into(),
                obj_id: Some(row.id.clone()),
                team_id: Some(row.team_id.clone()),
                data: None,
            });
            assert_eq!(queued.await.expect("rejudge").1.len(), 1);
            let again = store.claim("bench", 0, i64::MAX).await.expect("claim");
            let again = again.expect("the requeued one");
            let finished_again = Finished {
                judgement: JudgementRow {
                    seq: 0,
                    id: String::new(),
                    submission_id: again.id.clone(),
                    verdict: Verdict::AC,
                    score: 1.0,
                    subtask_scores: "[]".into(),
                    start_ms: 3,
                    end_ms: 4,
                    max_run_time: 0.01,
                },
                runs: Vec::new(),
                details: Vec::new(),
                compile_log: String::new(),
            };
            let done = store.finish(
                "bench",
                again.seq,
                "bench",
                finished_again,
                false,
                |_, _| Vec::new(),
            );
            assert!(done.await.expect("finish"));
        }
    }
    eprintln!("  {judged} judged in {:.1}s", start.elapsed().as_secs_f64());
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn run(label: &str, db: &str, contest: &Path, n: usize, rounds: usize) {
    let opts = ServeOptions {
        contests: vec![contest.to_owned()],
        db: db.to_owned(),
        listen: "127.0.0.1:0".into(),
        workers: 0,
        judge: Options {
            backend: BackendKind::Bwrap,
            run_all: false,
            cache_dir: None,
        },
        admin_token: ADMIN.into(),
        lease: Duration::from_secs(60),
        max_attempts: 3,
        max_body: 1 << 20,
        http_nice: 0,
        secure_cookies: false,
    };
    let sandbox = SandboxConfig::discover().expect("sandbox config");
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    eprintln!("{label}: seeding");
    seed(&state, n).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(judge_server::routes::serve(
        listener,
        judge_server::app(Arc::clone(&state)),
    ));
    let (status, cookie, _) = http(
        addr,
        "POST /contests/bench/login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n",
        &format!("token={ADMIN}"),
    )
    .await;
    assert_eq!(status, 303, "the jury logs in");
    let cookie = cookie.split(';').next().expect("name=value").to_owned();
    let deep = n as i64 / judge_server::routes::jury::PER_PAGE / 2;
    for (what, path) in [
        ("first page", "/contests/bench/jury/submissions".to_owned()),
        (
            "one team",
            "/contests/bench/jury/submissions?team=t7".to_owned(),
        ),
        (
            "wrong answers",
            "/contests/bench/jury/submissions?verdict=WA".to_owned(),
        ),
        (
            "a page deep in the list",
            format!("/contests/bench/jury/submissions?page={deep}"),
        ),
        // Before the list: the jury's live part of the contest page, every submission.
        ("whole list (before)", "/contests/bench/mine".to_owned()),
    ] {
        let mut times = Vec::new();
        for _ in 0..rounds {
            let head = format!("GET {path} HTTP/1.1\r\nCookie: {cookie}\r\n");
            let started = Instant::now();
            let (status, _, body) = http(addr, &head, "").await;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, 200, "{path}: {body}");
            assert!(body.contains("submission"), "{path}: {body}");
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{label:10} {n:6} submissions  {what:24} median {:7.1} ms  p90 {:7.1} ms",
            percentile(&times, 0.5),
            percentile(&times, 0.9)
        );
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(10_000, |a| a.parse().expect("N"));
    let rounds: usize = args.next().map_or(30, |a| a.parse().expect("ROUNDS"));
    let dir = tempfile::tempdir().expect("tempdir");
    let packages = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");
    let teams: String = (0..TEAMS)
        .map(|i| format!("  - {{id: t{i}, name: Team {i}, token: bench-token-{i:04}}}\n"))
        .collect();
    let yaml = format!(
        "id: bench\nname: Bench\nstart_time: 2026-01-01T10:00:00Z\nduration: '5:00:00'\n\
         problems:\n  - {{id: sum, package: {packages}/sum}}\nteams:\n{teams}"
    );
    let contest = dir.path().join("contest.yaml");
    std::fs::write(&contest, yaml).expect("contest file");
    let sqlite = dir.path().join("bench.sqlite").display().to_string();
    run("SQLite", &sqlite, &contest, n, rounds).await;
    if let Ok(admin_url) = std::env::var("ARENA_PG_URL") {
        let name = format!("arena_jury_bench_{}", std::process::id());
        let psql = |sql: &str| {
            let ok = std::process::Command::new("psql")
                .args([&admin_url, "-tAc", sql])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "psql {sql}");
        };
        psql(&format!("CREATE DATABASE {name}"));
        let url = format!("{}/{name}", admin_url.rsplit_once('/').expect("a URL").0);
        run("PostgreSQL", &url, &contest, n, rounds).await;
        psql(&format!("DROP DATABASE {name} WITH (FORCE)"));
    } else {
        println!("PostgreSQL: ARENA_PG_URL is not set; not measured");
    }
}
