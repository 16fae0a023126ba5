//! End-to-end tests of `agent play`: the real `agent` binary takes part in a short
//! contest (two bundled problems, `sum` and `pairsums`, started now) on the real
//! contest server (`judge serve`, a SQLite file, port 0, judging on bubblewrap), runs its
//! own code in the real sandbox, and talks to a model over HTTP:
//!
//! - the real `trainer serve` with SmolLM2 and a short pipeline: the mechanics and the
//!   records are checked (trajectories with every stage and real sandbox results, every
//!   submission on the server with its judgement, the play stopping at its budget), not
//!   the score: the model is small and rarely solves anything;
//! - a scripted OpenAI-compatible stand-in (a small HTTP server in this test) that
//!   answers every request for code with the package's own accepted reference solution:
//!   it stands in for a solving agent, to check that solving reaches the board; the play
//!   is killed (SIGKILL) while it works on its second problem and started again on the
//!   same run folder: the solved problem is not submitted again.
//!
//! The binaries are the workspace's, beside this test's folder (`cargo test --workspace`
//! builds them). Under `CI=true` a missing bubblewrap, model or binary fails the tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent::play::{PlayEvent, StopReason};
use agent::trajectory::Line;
use serde_json::{Value, json};

mod common;
use common::{STAND_IN, Server, binaries, bubblewrap, workspace};

const ADMIN: &str = "admin-token-for-agent-play";
const TEAM: &str = "token-of-the-agent";

fn packages() -> PathBuf {
    workspace().join("problems/packages")
}

/// A child process killed (SIGKILL) and reaped when dropped.
struct Killed(Child);

impl Killed {
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A contest started a few seconds ago, `minutes` long, with `sum` (A) and `pairsums`
/// (B), one team (the agent) and a 20-minute penalty.
fn contest_file(dir: &Path, minutes: u32) -> PathBuf {
    let start = chrono::Utc::now() - chrono::Duration::seconds(5);
    let yaml = format!(
        "id: arena\nname: Agent Play\nstart_time: {}\nduration: {minutes}\n\
         scoring: icpc\npenalty_minutes: 20\nsubmissions_per_minute: 30\n\
         problems:\n  - {{id: sum, label: A, package: {}}}\n  - {{id: pairsums, label: B, package: {}}}\n\
         teams:\n  - {{id: agent, name: The Agent, token: {TEAM}}}\n",
        start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        packages().join("sum").display(),
        packages().join("pairsums").display(),
    );
    let path = dir.join("contest.yaml");
    std::fs::write(&path, yaml).expect("the contest file");
    path
}

fn judge_serve(bin: &Path, contest: &Path, db: &Path) -> (Server, String) {
    let mut cmd = Command::new(bin.join("judge"));
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
    .arg(format!("sqlite://{}", db.display()))
    .env("ARENA_ADMIN_TOKEN", ADMIN);
    let server = common::start_listening(cmd);
    let base = server.base.clone();
    (server, base)
}

/// GET with the admin token (curl, as the judge's own tests speak to it).
fn admin_get(base: &str, path: &str) -> Value {
    let out = Command::new("curl")
        .args(["-sS", "-H", &format!("Authorization: Bearer {ADMIN}")])
        .arg(format!("{base}{path}"))
        .output()
        .expect("curl runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("GET {path}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The agent's submissions on the server: id -> (problem, final judgement type).
fn server_submissions(base: &str) -> BTreeMap<String, (String, Option<String>)> {
    let subs = admin_get(base, "/api/contests/arena/submissions");
    let judgements = admin_get(base, "/api/contests/arena/judgements");
    subs.as_array()
        .expect("submissions")
        .iter()
        .map(|s| {
            let id = s["id"].as_str().expect("id").to_owned();
            let verdict = judgements
                .as_array()
                .expect("judgements")
                .iter()
                .filter(|j| j["submission_id"] == id.as_str())
                .filter_map(|j| j["judgement_type_id"].as_str())
                .next_back()
                .map(str::to_owned);
            let problem = s["problem_id"].as_str().expect("problem_id").to_owned();
            assert_eq!(s["team_id"], "agent");
            (id, (problem, verdict))
        })
        .collect()
}

fn agent_play(
    bin: &Path,
    out: &Path,
    server: &str,
    model_url: &str,
    model: &str,
    extra: &[&str],
) -> Command {
    let mut cmd = Command::new(bin.join("agent"));
    cmd.args([
        "play",
        "--server",
        server,
        "--contest",
        "arena",
        "--team",
        TEAM,
    ])
    .args(["--model-url", model_url, "--model-name", model])
    .args(["--backend", "bwrap", "--out"])
    .arg(out)
    .args(extra);
    cmd
}

fn play_log(out: &Path) -> Vec<PlayEvent> {
    agent::play::read_log(out).expect("play.jsonl reads")
}

fn trajectory(out: &Path, problem: &str) -> Vec<Line> {
    let text = std::fs::read_to_string(out.join("trajectories").join(format!("{problem}.jsonl")))
        .unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{problem}: {e}: {l}")))
        .collect()
}

/// Every submission the play recorded is the server's, with the same judgement, and the
/// server holds no other.
fn records_match_the_server(out: &Path, base: &str) -> BTreeMap<String, (String, Option<String>)> {
    let server = server_submissions(base);
    let recorded: BTreeMap<String, (String, Option<String>)> = play_log(out)
        .into_iter()
        .filter_map(|e| match e {
            PlayEvent::Submission {
                problem,
                id,
                judgement,
                ..
            } => Some((id, (problem, judgement))),
            _ => None,
        })
        .collect();
    assert_eq!(
        recorded.keys().collect::<BTreeSet<_>>(),
        server.keys().collect::<BTreeSet<_>>(),
        "the play's submissions are the server's"
    );
    for (id, (problem, verdict)) in &recorded {
        assert_eq!(
            server[id],
            (problem.clone(), verdict.clone()),
            "submission {id}: the recorded judgement is the server's"
        );
        assert!(verdict.is_some(), "submission {id} was judged");
    }
    server
}

/// It is long because it is one scenario told in order: each step works on what the
/// steps before it left (the server, the browser or the run folder), so cutting it would
/// only pass that state around.
#[test]
fn smollm2_plays_a_short_contest_and_every_stage_is_recorded() {
    if !bubblewrap() {
        return;
    }
    let Some(model_dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(bin) = binaries(&["judge", "agent", "trainer"]) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path(), 3);
    let (_judge, base) = judge_serve(&bin, &contest, &dir.path().join("contest.db"));
    let trainer = common::start_trainer(&bin.join("trainer"), &model_dir);
    let model_url = trainer.base.clone();

    // The short loop (code, samples, submit) with small replies and a small budget.
    let pipeline = dir.path().join("pipeline.yaml");
    std::fs::write(
        &pipeline,
        "name: short-test\nstages: [code, check, submit]\nlanguage: python3\ndebug_rounds: 0\n\
         sampling: {temperature: 0.7, top_p: 1.0, max_tokens: 160}\n\
         budget: {model_calls: 2, wall_seconds: 60, submissions: 1}\n",
    )
    .expect("pipeline file");
    let out = dir.path().join("run");
    let status = agent_play(
        &bin,
        &out,
        &base,
        &model_url,
        "SmolLM2-135M-Instruct",
        &[
            "--pipeline",
            pipeline.to_str().expect("utf-8"),
            "--duration",
            "70",
        ],
    )
    .status()
    .expect("agent play runs");
    assert!(status.success(), "agent play: {status}");

    // The play's own record: the start, both problems read with their samples, an order
    // before each visit, and a stop at its budget, the contest's end, or all solved.
    let events = play_log(&out);
    assert!(matches!(
        events.first(),
        Some(PlayEvent::Start { resumed: false, .. })
    ));
    let read: BTreeMap<String, usize> = events
        .iter()
        .filter_map(|e| match e {
            PlayEvent::Problem {
                problem, samples, ..
            } => Some((problem.clone(), *samples)),
            _ => None,
        })
        .collect();
    assert_eq!(
        read,
        BTreeMap::from([("pairsums".into(), 1), ("sum".into(), 2)])
    );
    let visits: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            PlayEvent::Visit { problem, .. } => Some(problem),
            _ => None,
        })
        .collect();
    assert!(!visits.is_empty(), "the play visited a problem");
    let Some(PlayEvent::Stop { reason, .. }) = events.last() else {
        panic!("the play records why it stopped: {events:?}");
    };
    // 70 s of play in a 3-minute contest: its own time ends it (or every problem solved).
    assert!(
        matches!(reason, StopReason::PlayTime | StopReason::AllSolved),
        "{reason:?}"
    );
    for event in &events {
        if let PlayEvent::Visit { plan, .. } = event {
            assert!(
                plan.wall <= Duration::from_secs(70),
                "a visit fits the play's time: {plan:?}"
            );
        }
    }

    // Every submission is on the server with its judgement, and the trajectory's submit
    // steps carry the server's verdicts.
    let server = records_match_the_server(&out, &base);

    // Each visited problem's trajectory holds every stage of the short loop: the model's
    // reply with the exact token ids trainer serve gives, and the samples run in the
    // sandbox (or the compiler's log when the program did not compile).
    for problem in visits.iter().collect::<BTreeSet<_>>() {
        let lines = trajectory(&out, problem);
        let steps: Vec<_> = lines
            .iter()
            .filter_map(|l| match l {
                Line::Step(s) => Some(s),
                Line::Outcome(_) => None,
            })
            .collect();
        assert!(
            matches!(lines.last(), Some(Line::Outcome(_))),
            "{problem}: an outcome ends each visit"
        );
        let asks: Vec<_> = steps
            .iter()
            .filter(|s| s.stage == agent::pipeline::Stage::Code && s.call.is_some())
            .collect();
        assert!(
            !asks.is_empty(),
            "{problem}: the code stage asked the model"
        );
        for ask in &asks {
            let reply = ask.call.as_ref().and_then(|c| c.reply.as_ref());
            let reply = reply.unwrap_or_else(|| panic!("{problem}: a reply: {ask:?}"));
            let tokens = reply.completions[0].tokens.as_ref().expect("tokens");
            assert!(
                !tokens.is_empty() && tokens.iter().all(|t| t.id.is_some()),
                "{problem}: exact token ids"
            );
        }
        let extracted = steps
            .iter()
            .any(|s| s.extraction.is_some() && s.program.is_some());
        let checks: Vec<_> = steps
            .iter()
            .filter(|s| s.stage == agent::pipeline::Stage::Check)
            .collect();
        if extracted {
            assert!(!checks.is_empty(), "{problem}: the samples were checked");
            for check in &checks {
                let ran_in_the_sandbox = check.compile_log.is_some()
                    || check.tests.iter().any(|t| match t {
                        agent::step::TestRecord::Case { outcome, .. } => {
                            outcome.name.starts_with("sample") || !outcome.name.is_empty()
                        }
                        agent::step::TestRecord::Run { .. } => true,
                    });
                assert!(ran_in_the_sandbox, "{problem}: sandbox results: {check:?}");
                if let Some(samples) = check.signals.samples {
                    assert_eq!(samples.total, read[problem.as_str()], "{problem}");
                }
            }
        }
        for submit in steps
            .iter()
            .filter(|s| s.stage == agent::pipeline::Stage::Submit && s.signals.verdict.is_some())
        {
            let verdict = submit.signals.verdict.expect("verdict").clics_id();
            assert!(
                server
                    .values()
                    .any(|(p, v)| p == problem.as_str() && v.as_deref() == Some(verdict)),
                "{problem}: the submit step's verdict {verdict} is the server's"
            );
        }
    }
    // Nothing was submitted after the play's budget: its last submission came before
    // its stop, and every one is judged (checked above).
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("manifest JSON");
    assert_eq!(manifest["problems"].as_array().map(Vec::len), Some(2));
    assert!(
        !std::fs::read_to_string(out.join("manifest.json"))
            .expect("manifest")
            .contains(TEAM),
        "the team token is never recorded"
    );
}

/// The scripted stand-in for a solving model: an OpenAI-compatible chat completions
/// server that answers a request for code with the package's accepted Python reference
/// solution, fenced. While `hold_second` is set, a request about a second problem is held
/// (never answered) so that the test can kill the play in the middle of it.
struct StandIn {
    base: String,
    hold_second: Arc<AtomicBool>,
    held: Arc<AtomicBool>,
    asked: Arc<Mutex<Vec<String>>>,
}

fn reference(problem_name: &str) -> Option<(&'static str, String)> {
    let (id, file) = match problem_name {
        "Sum of Numbers" => ("sum", "sum/submissions/accepted/sum.py"),
        "Pair Sums" => ("pairsums", "pairsums/submissions/accepted/hash.py"),
        _ => return None,
    };
    let source = std::fs::read_to_string(packages().join(file)).expect("reference solution");
    Some((id, source))
}

impl StandIn {
    fn start() -> StandIn {
        let hold_second = Arc::new(AtomicBool::new(false));
        let held = Arc::new(AtomicBool::new(false));
        let asked = Arc::new(Mutex::new(Vec::<String>::new()));
        let (hold, was_held, log) = (hold_second.clone(), held.clone(), asked.clone());
        let base = common::stand_in(move |messages| {
            let text = messages.join("\n");
            let found = ["Sum of Numbers", "Pair Sums"]
                .into_iter()
                .find(|name| text.contains(&format!("Problem: {name}")))
                .and_then(reference);
            let Some((id, source)) = found else {
                return "I cannot tell which problem this is.".to_owned();
            };
            let first = {
                let mut asked = log.lock().expect("log");
                asked.push(id.to_owned());
                asked[0].clone()
            };
            if id != first && hold.load(Ordering::SeqCst) {
                was_held.store(true, Ordering::SeqCst);
                // Held: the test kills the play now.
                std::thread::sleep(Duration::from_secs(600));
            }
            format!("Here is the solution.\n\n```python\n{source}```\n")
        });
        StandIn {
            base,
            hold_second,
            held,
            asked,
        }
    }
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_reference_stand_in_solves_both_and_a_killed_play_resumes_without_resubmitting() {
    if !bubblewrap() {
        return;
    }
    let Some(bin) = binaries(&["judge", "agent", "trainer"]) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path(), 10);
    let (_judge, base) = judge_serve(&bin, &contest, &dir.path().join("contest.db"));
    let stand_in = StandIn::start();
    stand_in.hold_second.store(true, Ordering::SeqCst);
    let out = dir.path().join("run");
    let args = ["--pipeline", "short", "--duration", "240"];

    // First play: it solves one problem, then is killed while the model "thinks" about
    // the second.
    let mut first = Killed(
        agent_play(&bin, &out, &base, &stand_in.base, STAND_IN, &args)
            .spawn()
            .expect("agent play starts"),
    );
    wait_for(
        "the first problem's accept and the second's request",
        Duration::from_secs(180),
        || {
            let accepted = server_submissions(&base)
                .values()
                .any(|(_, v)| v.as_deref() == Some("AC"));
            accepted && stand_in.held.load(Ordering::SeqCst)
        },
    );
    first.kill();
    let before = server_submissions(&base);
    let solved_first: Vec<String> = before
        .values()
        .filter(|(_, v)| v.as_deref() == Some("AC"))
        .map(|(p, _)| p.clone())
        .collect();
    assert_eq!(solved_first.len(), 1, "{before:?}");
    let first_problem = solved_first[0].clone();
    assert_eq!(stand_in.asked.lock().expect("asked")[0], first_problem);

    // Started again on the same run folder: the server's record says the first problem
    // is solved, so only the second is played.
    stand_in.hold_second.store(false, Ordering::SeqCst);
    let status = agent_play(&bin, &out, &base, &stand_in.base, STAND_IN, &args)
        .status()
        .expect("agent play runs again");
    assert!(status.success(), "agent play: {status}");

    let after = records_match_the_server(&out, &base);
    let per_problem = |problem: &str| {
        after
            .values()
            .filter(|(p, _)| p == problem)
            .map(|(_, v)| v.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        per_problem(&first_problem),
        ["AC"],
        "the solved problem was not submitted again"
    );
    assert_eq!(per_problem("sum").last().map(String::as_str), Some("AC"));
    assert_eq!(
        per_problem("pairsums").last().map(String::as_str),
        Some("AC")
    );

    let events = play_log(&out);
    let starts: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            PlayEvent::Start { resumed, .. } => Some(*resumed),
            _ => None,
        })
        .collect();
    assert_eq!(starts, [false, true]);
    let second_start = events
        .iter()
        .rposition(|e| matches!(e, PlayEvent::Start { .. }))
        .expect("a second start");
    let resumed = &events[second_start..];
    assert!(
        resumed.iter().any(|e| matches!(
            e,
            PlayEvent::Record { state } if state.id == first_problem && state.solved
        )),
        "the second play read the solve from the server"
    );
    assert!(
        !resumed.iter().any(|e| matches!(
            e,
            PlayEvent::Visit { problem, .. } if *problem == first_problem
        )),
        "the second play did not visit the solved problem"
    );
    assert!(matches!(
        resumed.last(),
        Some(PlayEvent::Stop {
            reason: StopReason::AllSolved,
            ..
        })
    ));

    // The board shows both solved.
    let board = admin_get(&base, "/api/contests/arena/scoreboard");
    assert_eq!(board["rows"][0]["team_id"], "agent");
    assert_eq!(board["rows"][0]["score"]["num_solved"], 2, "{board}");
}

/// POST a contest (admin), `start_minutes` from now, `minutes` long, with `sum` and the
/// agent's team.
fn post_contest(base: &str, id: &str, start_minutes: i64, minutes: u32) {
    let start = chrono::Utc::now() + chrono::Duration::minutes(start_minutes);
    let body = json!({
        "id": id,
        "name": id,
        "start_time": start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "duration": minutes,
        "problems": [{"id": "sum", "label": "A", "package": packages().join("sum")}],
        "teams": [{"id": "agent", "name": "The Agent", "token": TEAM}],
    });
    let out = Command::new("curl")
        .args(["-sS", "-w", "\n%{http_code}", "-X", "POST"])
        .args(["-H", &format!("Authorization: Bearer {ADMIN}")])
        .args(["-H", "content-type: application/json", "--data-binary"])
        .arg(body.to_string())
        .arg(format!("{base}/api/contests"))
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("201"), "POST contest {id}: {text}");
}

#[test]
fn a_play_that_cannot_begin_says_why_and_records_it() {
    if !bubblewrap() {
        return;
    }
    let Some(bin) = binaries(&["judge", "agent", "trainer"]) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = contest_file(dir.path(), 10);
    let (_judge, base) = judge_serve(&bin, &contest, &dir.path().join("contest.db"));
    post_contest(&base, "over", -120, 60);
    post_contest(&base, "later", 60, 60);
    let stand_in = StandIn::start();
    let cases: [(&str, &str, &str, &str, &str); 6] = [
        // (case, server, contest, team, model) and what stderr must say
        (
            "token",
            &base,
            "arena",
            "not-a-team-token",
            "the contest server refused the team token (HTTP 401",
        ),
        (
            "unreachable",
            "http://127.0.0.1:1",
            "arena",
            TEAM,
            "contest server unreachable at http://127.0.0.1:1/api/contests/arena",
        ),
        (
            "unknown",
            &base,
            "nope",
            TEAM,
            "the contest server has no contest `nope`",
        ),
        (
            "over",
            &base,
            "over",
            TEAM,
            "contest `over` is over (it ended at ",
        ),
        (
            "later",
            &base,
            "later",
            TEAM,
            "contest `later` has not started (it starts at ",
        ),
        (
            "model",
            &base,
            "arena",
            TEAM,
            "does not answer its health check",
        ),
    ];
    for (case, server, contest_id, team, says) in cases {
        let out = dir.path().join(case);
        let model_url = if case == "model" {
            "http://127.0.0.1:1"
        } else {
            stand_in.base.as_str()
        };
        let result = Command::new(bin.join("agent"))
            .args([
                "play",
                "--server",
                server,
                "--contest",
                contest_id,
                "--team",
                team,
            ])
            .args(["--model-url", model_url, "--model-name", STAND_IN])
            .args([
                "--max-attempts",
                "1",
                "--backend",
                "bwrap",
                "--duration",
                "5",
                "--out",
            ])
            .arg(&out)
            .output()
            .expect("agent play runs");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{case}: {stderr}");
        assert!(stderr.contains(says), "{case}: {stderr}");
        assert!(!stderr.contains("panicked"), "{case}: {stderr}");
        if case == "model" {
            continue; // refused before the play began: nothing to record
        }
        let events = play_log(&out);
        let Some(PlayEvent::Stop {
            reason: StopReason::Refused { error },
            ..
        }) = events.last()
        else {
            panic!("{case}: the refusal is recorded: {events:?}");
        };
        assert!(error.contains(says), "{case}: {error}");
    }
    assert!(
        server_submissions(&base).is_empty(),
        "nothing was submitted"
    );
}
