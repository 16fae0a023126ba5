//! End-to-end tests of `agent demo`, the README's main job, in short versions: the real
//! `agent` binary starts the real `judge serve` (judging on bubblewrap) and, unless a
//! model URL is given, the real `trainer serve`, both found beside it; the scripted teams
//! submit the packages' reference and wrong solutions; the model plays for under a
//! minute; the final standings, the report files and the agents' trajectories are checked
//! (the mechanics, not the model's score: SmolLM2 is small and rarely solves one).
//!
//! - the bundled contest on SQLite with SmolLM2;
//! - `--trained-checkpoint` given `ci/train`'s output folder: a second model team on its
//!   own `trainer serve`, served and recorded under the checkpoint's name;
//! - `--db postgres://...` on a throwaway database (`ARENA_PG_URL`'s server, as ci/setup
//!   starts it), with a stand-in model (labelled) answering with reference solutions:
//!   the report's board is the database's.
//!
//! The binaries are the workspace's, beside this test's folder (`cargo build -p judge-cli
//! -p agent -p trainer` before running this file alone). Under `CI=true` a missing
//! bubblewrap, model, binary or PostgreSQL fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use agent::play::PlayEvent;
use agent::trajectory::Line;
use serde_json::Value;

mod common;

#[test]
fn a_short_demo_places_the_agent_among_scripted_teams_and_writes_its_report() {
    let Some((bin, model_dir)) = with_smollm2() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("demo");
    let (stdout, stderr, report) = demo(
        &bin,
        &out,
        &[
            "--duration",
            "60",
            "--backend",
            "bwrap",
            "--seed",
            "3",
            "--model-dir",
            model_dir.to_str().expect("utf-8"),
        ],
    );

    // What a person sees: where to join, the live status line, the standings.
    assert!(stdout.contains("/contests/demo"), "{stdout}");
    assert_eq!(
        stdout.matches("log in on the web page with token").count(),
        2
    );
    assert!(stderr.contains("[00:"), "a live status line: {stderr}");
    assert!(stdout.contains("<- agent"), "{stdout}");

    // The report: the standings of every team, the agent placed among them.
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
    let lines = played(&out.join("agent-base"));
    assert!(matches!(lines.last(), Some(Line::Outcome(_))));
}

/// The binaries' folder and SmolLM2's, with bubblewrap; `None` (a failure under CI) when
/// one is missing.
fn with_smollm2() -> Option<(PathBuf, PathBuf)> {
    let bin = common::sandboxed(&["judge", "agent", "trainer"])?;
    let model_dir = ci::require::env_path("ARENA_MODEL_DIR")?;
    Some((bin, model_dir))
}

/// Links (or copies) the files of model folder `from` into a new folder `to`.
fn model_copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("the model folder") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("a file name"));
        if std::fs::hard_link(&path, &target).is_err() {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// `agent demo` with `args`, asserted to succeed; (stdout, stderr, report.json).
fn demo(bin: &Path, out: &Path, args: &[&str]) -> (String, String, Value) {
    let result = Command::new(bin.join("agent"))
        .arg("demo")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("agent demo runs");
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
    assert!(result.status.success(), "agent demo: {stdout}\n{stderr}");
    let report = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .expect("report.json parses");
    (stdout, stderr, report)
}

/// A model team's run folder `run`: its play started, visited a problem and stopped on
/// its own, and the first visit's trajectory asked the model; that trajectory's lines.
fn played(run: &Path) -> Vec<Line> {
    let events = agent::play::read_log(run).expect("play.jsonl");
    assert!(matches!(events.first(), Some(PlayEvent::Start { .. })));
    assert!(
        matches!(events.last(), Some(PlayEvent::Stop { .. })),
        "{events:?}"
    );
    let visited = events
        .iter()
        .find_map(|e| match e {
            PlayEvent::Visit { problem, .. } => Some(problem.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a visit: {events:?}"));
    let text = std::fs::read_to_string(run.join(format!("trajectories/{visited}.jsonl")))
        .expect("the visited problem's trajectory");
    let lines: Vec<Line> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a trajectory line"))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| matches!(l, Line::Step(s) if s.call.is_some())),
        "the model was asked in {}",
        run.display()
    );
    lines
}

/// The base model and a "trained" checkpoint play as two teams, each on its own
/// `trainer serve`. The checkpoint is laid out as `ci/train` leaves it (its output folder
/// with a `checkpoint` file naming `run/checkpoints/step-000001/`) and holds SmolLM2's own
/// weights: what is checked is the second team's plumbing, not what training changed.
#[test]
fn a_trained_checkpoint_plays_as_a_second_team_on_its_own_model_server() {
    let Some((bin, model_dir)) = with_smollm2() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let train_out = dir.path().join("train-out");
    let step = train_out.join("run/checkpoints/step-000001");
    model_copy(&model_dir, &step);
    std::fs::write(
        train_out.join("checkpoint"),
        "run/checkpoints/step-000001\n",
    )
    .expect("the checkpoint file");
    let out = dir.path().join("demo");
    let (stdout, stderr, report) = demo(
        &bin,
        &out,
        &[
            "--duration",
            "45",
            "--backend",
            "bwrap",
            "--seed",
            "5",
            "--guests",
            "1",
            "--model-dir",
            model_dir.to_str().expect("utf-8"),
            "--trained-checkpoint",
            train_out.to_str().expect("utf-8"),
        ],
    );
    assert!(
        stderr.contains(&format!("playing {}", step.display())),
        "the checkpoint the run folder names: {stderr}"
    );
    assert!(
        stderr.contains("trainer serve (trained checkpoint) listening on"),
        "{stderr}"
    );
    assert!(out.join("trainer-trained.log").is_file());

    // Two model teams, each with its own server and the name it is served under.
    let agents = report["agents"].as_array().expect("agents");
    assert_eq!(agents.len(), 2, "{agents:?}");
    let agent = |team: &str| {
        agents
            .iter()
            .find(|a| a["team"] == team)
            .unwrap_or_else(|| panic!("{team} in {agents:?}"))
    };
    let (base, trained) = (agent("agent"), agent("agent-trained"));
    assert_eq!(base["model"], "SmolLM2-135M-Instruct");
    assert_eq!(trained["model"], "step-000001");
    assert_ne!(base["endpoint"], trained["endpoint"]);
    assert_eq!(trained["name"], "SmolLM2-135M-Instruct trained (agent)");
    assert!(trained["error"].is_null(), "{trained}");
    // Both placed among two model teams, three scripted ones and one guest.
    let standings = report["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 6);
    for team in ["agent", "agent-trained"] {
        let row = standings
            .iter()
            .find(|r| r["team"] == team)
            .unwrap_or_else(|| panic!("{team} in {standings:?}"));
        assert_eq!(row["kind"], "agent");
        assert_eq!(agent(team)["rank"], row["rank"]);
    }
    assert_eq!(stdout.matches("<- agent").count(), 2, "{stdout}");
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(md.contains("trained (agent)** (`step-000001`)"), "{md}");
    let svg = std::fs::read_to_string(out.join("board.svg")).expect("board.svg");
    assert_eq!(svg.matches("<polyline").count(), 6);

    // The trained team's own records: its play, and its run's manifest naming the
    // checkpoint's server; the model was asked.
    let run = out.join("agent-trained");
    played(&run);
    let manifest = agent::trajectory::RunDir::open(&run)
        .expect("the run folder")
        .manifest()
        .expect("manifest.json")
        .expect("a manifest");
    assert_eq!(manifest.model.name, "step-000001");
    assert_eq!(
        Some(manifest.model.endpoint.as_str()),
        trained["endpoint"].as_str()
    );
    played(&out.join("agent-base"));
}

/// `agent demo --db postgres://...`: the contest lives in a PostgreSQL database of its own
/// (no SQLite file), and the board the report shows is the database's. The model is a
/// stand-in (labelled: it answers with each package's accepted reference solution), so
/// the agent's submissions are accepted and the test stays short.
#[test]
fn a_demo_on_postgresql_keeps_the_contest_and_its_board_in_the_database() {
    let Some(bin) = common::sandboxed(&["judge", "agent"]) else {
        return;
    };
    let Some(db) = common::Database::create("arena_demo") else {
        return;
    };
    // A two-problem contest: sum and pairsums, linked into a folder of packages.
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("problems");
    std::fs::create_dir_all(&problems).expect("mkdir");
    let packages = common::workspace().join("problems/packages");
    let mut replies = Vec::new();
    for (id, name, reference) in [
        ("sum", "Sum of Numbers", "sum.py"),
        ("pairsums", "Pair Sums", "hash.py"),
    ] {
        std::os::unix::fs::symlink(packages.join(id), problems.join(id)).expect("symlink");
        let source = std::fs::read_to_string(
            packages
                .join(id)
                .join("submissions/accepted")
                .join(reference),
        )
        .expect("the reference solution");
        replies.push((name, format!("The reference.\n\n```python\n{source}```\n")));
    }
    let base = common::stand_in(move |messages| {
        let text = messages.join("\n");
        replies
            .iter()
            .find(|(name, _)| text.contains(&format!("Problem: {name}")))
            .map_or_else(
                || "I cannot tell which problem this is.".to_owned(),
                |(_, r)| r.clone(),
            )
    });
    let out = dir.path().join("demo");
    let (stdout, _, report) = demo(
        &bin,
        &out,
        &[
            "--duration",
            "40",
            "--backend",
            "bwrap",
            "--guests",
            "1",
            "--problems",
            problems.to_str().expect("utf-8"),
            "--db",
            &db.url,
            "--model-url",
            &base,
            "--model-name",
            common::STAND_IN,
        ],
    );
    assert!(!out.join("contest.db").exists(), "no SQLite file");
    assert!(stdout.contains("<- agent"), "{stdout}");

    // Everything submitted is in the database and judged there.
    let count = |sql: &str| -> u64 { db.query(sql).parse().expect("a count") };
    let submissions = count("SELECT count(*) FROM submissions WHERE contest_id = 'demo'");
    let sent = report["scripted_submissions"]["sent"]
        .as_u64()
        .expect("sent");
    let agent = &report["agents"][0];
    let by_agent = agent["submissions"]
        .as_u64()
        .expect("the agent's submissions");
    assert_eq!(submissions, sent + by_agent, "{report}");
    let unjudged = count(
        "SELECT count(*) FROM submissions s WHERE s.contest_id = 'demo' AND NOT EXISTS \
         (SELECT 1 FROM judgements j WHERE j.contest_id = s.contest_id AND j.submission_id = s.id)",
    );
    assert_eq!(unjudged, 0);

    // The report's board is the database's: each team's solved problems are those with an
    // accepted judgement there.
    let accepted = db.query(
        "SELECT DISTINCT s.team_id || ' ' || s.problem_id FROM submissions s JOIN judgements j \
         ON j.contest_id = s.contest_id AND j.submission_id = s.id \
         WHERE s.contest_id = 'demo' AND j.judgement_type_id = 'AC'",
    );
    let accepted: Vec<(&str, &str)> = accepted
        .lines()
        .map(|l| l.split_once(' ').expect("team problem"))
        .collect();
    let standings = report["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 5, "agent, three scripted teams, one guest");
    for row in standings {
        let team = row["team"].as_str().expect("team");
        let solved = accepted.iter().filter(|(t, _)| *t == team).count() as u64;
        assert_eq!(row["solved"].as_u64(), Some(solved), "{team}: {row}");
    }
    // The scripted leader solves both; the stand-in-driven agent solves at least one,
    // and each problem it names as solved is accepted in the database.
    assert_eq!(
        standings
            .iter()
            .find(|r| r["team"] == "scripted-ada")
            .expect("ada")["solved"],
        2
    );
    let solved: Vec<&str> = agent["solved_problems"]
        .as_array()
        .expect("solved problems")
        .iter()
        .map(|p| p.as_str().expect("a problem id"))
        .collect();
    assert!(!solved.is_empty(), "{agent}");
    for problem in solved {
        assert!(
            accepted.contains(&("agent", problem)),
            "{problem}: {accepted:?}"
        );
    }
    played(&out.join("agent-base"));
}
