//! End-to-end test of `agent demo`, the README's main job, in a short version: the real
//! `agent` binary starts the real `judge serve` (SQLite in the run folder, judging on
//! bubblewrap) and the real `trainer serve` with SmolLM2, both found beside it; the
//! scripted teams submit the bundled reference and wrong solutions; the model plays for
//! 60 seconds; the final standings, the report files and the agent's trajectories are
//! checked (the mechanics, not the model's score: it is small and rarely solves one).
//!
//! The binaries are the workspace's, beside this test's folder (`cargo build -p judge-cli
//! -p agent -p trainer` before running this test alone). Under `CI=true` a missing
//! bubblewrap, model or binary fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use agent::play::PlayEvent;
use agent::trajectory::Line;
use serde_json::Value;

fn binaries() -> Option<PathBuf> {
    let exe = std::env::current_exe().expect("the test binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf();
    let missing: Vec<String> = ["judge", "agent", "trainer"]
        .iter()
        .filter(|name| !dir.join(name).is_file())
        .map(|name| dir.join(name).display().to_string())
        .collect();
    let why = (!missing.is_empty()).then(|| {
        format!(
            "{} not built (cargo build -p judge-cli -p agent -p trainer)",
            missing.join(", ")
        )
    });
    ci::require::present("the judge, agent and trainer binaries", why.as_deref()).then_some(dir)
}

fn bubblewrap_here() -> bool {
    let missing = (!Path::new("/usr/bin/bwrap").is_file())
        .then_some("bubblewrap is not installed (run ci/setup)");
    ci::require::present("bubblewrap", missing)
}

#[test]
fn a_short_demo_places_the_agent_among_scripted_teams_and_writes_its_report() {
    if !bubblewrap_here() {
        return;
    }
    let Some(model_dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(bin) = binaries() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("demo");
    let result = Command::new(bin.join("agent"))
        .args([
            "demo",
            "--duration",
            "60",
            "--backend",
            "bwrap",
            "--seed",
            "3",
        ])
        .arg("--model-dir")
        .arg(&model_dir)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("agent demo runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "agent demo: {stdout}\n{stderr}");

    // What a person sees: where to join, the live status line, the standings.
    assert!(stdout.contains("/contests/demo"), "{stdout}");
    assert_eq!(
        stdout.matches("log in on the web page with token").count(),
        2
    );
    assert!(stderr.contains("[00:"), "a live status line: {stderr}");
    assert!(stdout.contains("<- agent"), "{stdout}");

    // The report: the standings of every team, the agent placed among them.
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .expect("report.json parses");
    let problems = report["problems"].as_array().expect("problems").len();
    assert_eq!(problems, 6, "the bundled demo contest");
    let standings = report["standings"].as_array().expect("standings");
    assert_eq!(
        standings.len(),
        6,
        "agent, three scripted teams, two guests"
    );
    let row = |team: &str| {
        standings
            .iter()
            .find(|r| r["team"] == team)
            .unwrap_or_else(|| panic!("{team} in {standings:?}"))
    };
    // The scripted teams solve their shares with the packages' references: every one of
    // the six, four, and two problems; the guests (nobody joined) none.
    assert_eq!(row("scripted-ada")["solved"], 6);
    assert_eq!(row("scripted-brook")["solved"], 4);
    assert_eq!(row("scripted-cyd")["solved"], 2);
    assert_eq!(row("guest-1")["solved"], 0);
    assert_eq!(row("scripted-ada")["rank"], 1);
    let agent_row = row("agent");
    assert_eq!(agent_row["kind"], "agent");
    let agent = &report["agents"][0];
    assert_eq!(agent["rank"], agent_row["rank"]);
    assert_eq!(agent["of"], 6);
    assert_eq!(agent["model"], "SmolLM2-135M-Instruct");
    // Ranks follow the solves (ICPC order).
    let solved: Vec<u64> = standings
        .iter()
        .map(|r| r["solved"].as_u64().expect("solved"))
        .collect();
    assert!(solved.windows(2).all(|w| w[0] >= w[1]), "{solved:?}");
    // Wrong submissions were judged and show as rejections before the accepts.
    assert!(
        standings
            .iter()
            .flat_map(|r| r["cells"].as_array().expect("cells"))
            .any(|c| c
                .as_str()
                .is_some_and(|c| c.starts_with("+") && c.len() > 1)),
        "some problem solved after a rejection: {standings:?}"
    );
    // The board over time: one line per team, the scripted leader's reaching six.
    let history = report["history"].as_array().expect("history");
    assert_eq!(history.len(), 6);
    let ada = history
        .iter()
        .find(|h| h["team"] == "scripted-ada")
        .expect("ada's history");
    assert_eq!(
        ada["points"]
            .as_array()
            .expect("points")
            .last()
            .expect("a point")[1],
        6
    );
    let svg = std::fs::read_to_string(out.join("board.svg")).expect("board.svg");
    assert_eq!(svg.matches("<polyline").count(), 6);
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(md.contains("## Final standings") && md.contains("<- agent"));

    // The agent's trajectories: the play started, visited a problem, asked the model,
    // and stopped on its own time (or with everything solved).
    let run = out.join("agent-base");
    let events = agent::play::read_log(&run).expect("play.jsonl");
    assert!(matches!(events.first(), Some(PlayEvent::Start { .. })));
    assert!(
        matches!(events.last(), Some(PlayEvent::Stop { .. })),
        "{events:?}"
    );
    let visited: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            PlayEvent::Visit { problem, .. } => Some(problem.clone()),
            _ => None,
        })
        .collect();
    assert!(!visited.is_empty(), "the agent visited a problem");
    let text = std::fs::read_to_string(
        run.join("trajectories")
            .join(format!("{}.jsonl", visited[0])),
    )
    .expect("the visited problem's trajectory");
    let lines: Vec<Line> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a trajectory line"))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| matches!(l, Line::Step(s) if s.call.is_some())),
        "the model was asked"
    );
    assert!(matches!(lines.last(), Some(Line::Outcome(_))));
}
