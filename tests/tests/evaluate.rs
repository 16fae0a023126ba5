//! End-to-end tests of `agent evaluate`: the real `agent` binary solves problem packages
//! offline in the real sandbox (bubblewrap) and places the result among human standings.
//!
//! The model is a stand-in, labelled as such: a small OpenAI-compatible HTTP server in
//! this test that answers each request with the package's own accepted reference
//! solution (or, for problems named in `wrong`, a program that prints 0). It makes the
//! runs fast and their outcome known, so the placement can be checked against standings
//! computed here from the raw files; it says nothing about any real model.
//!
//! - the team's own problems (`sum`, `pairsums`) with standings made for the test: a
//!   CLICS feed of three teams and Codeforces rows with ratings;
//! - the real data: the 2022 ICPC Pacific Northwest Division 1 final event feed and six
//!   of its thirteen problems' public packages (`../shared/data/`, see its README;
//!   `colortubes` gets the output validator of `judge/cli/tests/fixtures/colortubes`),
//!   the humans' standings restricted to those six;
//! - a real Codeforces points round (Global Round 7's rated rows, `../shared/data/codeforces`)
//!   with `sum` and `pairsums` standing in as its problems at points the test gives: the
//!   model's decayed points and its place counted here from the raw rows, `--match`, and
//!   the clear errors when the rows and `--problem-points` disagree on how the round is
//!   scored.
//!
//! Under `CI=true` a missing bubblewrap, binary or data folder fails the tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

mod common;
use common::{STAND_IN, workspace};

/// The reference solution a package ships: C++ first (fast on every test), then Python (fence tag, source).
fn reference(package: &Path) -> (String, String) {
    let dir = package.join("submissions/accepted");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for (ext, tag) in [("cpp", "cpp"), ("cc", "cpp"), ("py", "python")] {
        if let Some(f) = files
            .iter()
            .find(|f| f.extension().and_then(|e| e.to_str()) == Some(ext))
        {
            return (tag.to_owned(), std::fs::read_to_string(f).expect("source"));
        }
    }
    panic!("{}: no Python or C++ reference", dir.display());
}

/// The stand-in model: each problem's name (as the prompt says it, `Problem: NAME`) to the
/// reply it gives.
struct StandIn {
    base: String,
}

impl StandIn {
    /// `packages`: (package folder, problem name); names in `wrong` get a wrong program.
    fn start(packages: &[(PathBuf, String)], wrong: &[&str]) -> StandIn {
        let replies: BTreeMap<String, String> = packages
            .iter()
            .map(|(dir, name)| {
                let reply = if wrong.contains(&name.as_str()) {
                    "```python\nprint(0)\n```\n".to_owned()
                } else {
                    let (tag, source) = reference(dir);
                    format!("The reference solution.\n\n```{tag}\n{source}\n```\n")
                };
                (name.clone(), reply)
            })
            .collect();
        let base = common::stand_in(move |messages| {
            let text = messages.join("\n");
            replies
                .iter()
                .find(|(name, _)| text.contains(&format!("Problem: {name}")))
                .map_or("I cannot tell which problem this is.", |(_, r)| r.as_str())
                .to_owned()
        });
        StandIn { base }
    }
}

fn evaluate(agent: &Path, stand_in: &StandIn, args: &[&str]) -> Value {
    let out = Command::new(agent)
        .arg("evaluate")
        .args(["--model-url", &stand_in.base, "--model-name", STAND_IN])
        .args(["--backend", "bwrap", "--pipeline", "short"])
        .args(args)
        .output()
        .expect("agent evaluate runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "agent evaluate: {stdout}\n{stderr}");
    assert!(stdout.contains("Timing policy: measured"), "{stdout}");
    let dir = args
        .iter()
        .position(|a| *a == "--out")
        .map(|i| PathBuf::from(args[i + 1]))
        .expect("--out");
    assert!(dir.join("evaluation.md").is_file());
    serde_json::from_str(&std::fs::read_to_string(dir.join("evaluation.json")).expect("json"))
        .expect("evaluation.json parses")
}

/// A CLICS 2023-06 feed of three teams on `sum` and `pairsums`.
fn own_feed(path: &Path) {
    let mut lines = vec![
        json!({"type": "contest", "id": "own", "data": {"id": "own", "name": "Own", "start_time": "2024-05-01T10:00:00Z", "duration": "1:00:00", "penalty_time": 20}}),
        json!({"type": "judgement-types", "id": "AC", "data": {"id": "AC", "name": "Accepted", "penalty": false, "solved": true}}),
        json!({"type": "judgement-types", "id": "WA", "data": {"id": "WA", "name": "Wrong", "penalty": true, "solved": false}}),
        json!({"type": "problems", "id": "sum", "data": {"id": "sum", "label": "A", "name": "Sum of Numbers", "ordinal": 1}}),
        json!({"type": "problems", "id": "pairsums", "data": {"id": "pairsums", "label": "B", "name": "Pair Sums", "ordinal": 2}}),
    ];
    for (id, name) in [("t1", "Both"), ("t2", "One"), ("t3", "None")] {
        lines.push(json!({"type": "teams", "id": id, "data": {"id": id, "name": name}}));
    }
    // t1: both (A at 10, B at 40 after one WA); t2: A at 30; t3: one WA.
    let subs = [
        ("s1", "t1", "sum", "0:10:00", "AC"),
        ("s2", "t1", "pairsums", "0:30:00", "WA"),
        ("s3", "t1", "pairsums", "0:40:00", "AC"),
        ("s4", "t2", "sum", "0:30:00", "AC"),
        ("s5", "t3", "sum", "0:20:00", "WA"),
    ];
    for (id, team, problem, time, verdict) in subs {
        lines.push(json!({"type": "submissions", "id": id, "data": {
            "id": id, "language_id": "cpp", "problem_id": problem, "team_id": team,
            "time": "2024-05-01T10:00:00Z", "contest_time": time}}));
        lines.push(
            json!({"type": "judgements", "id": format!("j{id}"), "data": {
            "id": format!("j{id}"), "submission_id": id, "judgement_type_id": verdict,
            "start_time": "2024-05-01T10:00:00Z", "start_contest_time": time}}),
        );
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).expect("feed");
}

#[test]
fn the_teams_own_problems_are_placed_in_a_feed_and_among_rated_rows() {
    let Some(bin) = common::sandboxed(&["agent"]) else {
        return;
    };
    let agent = bin.join("agent");
    let dir = tempfile::tempdir().expect("tempdir");
    let sum = workspace().join("problems/packages/sum");
    let pair = workspace().join("problems/packages/pairsums");
    // The stand-in solves sum and gets pairsums wrong.
    let stand_in = StandIn::start(
        &[
            (sum.clone(), "Sum of Numbers".to_owned()),
            (pair.clone(), "Pair Sums".to_owned()),
        ],
        &["Pair Sums"],
    );
    let feed = dir.path().join("feed.ndjson");
    own_feed(&feed);
    let out = dir.path().join("eval");
    let sum_s = sum.to_str().expect("utf-8");
    let pair_s = pair.to_str().expect("utf-8");
    let feed_s = feed.to_str().expect("utf-8");
    let out_s = out.to_str().expect("utf-8");
    let report = evaluate(
        &agent,
        &stand_in,
        &[
            "--problems",
            sum_s,
            pair_s,
            "--feed",
            feed_s,
            "--out",
            out_s,
            "--runs",
            "2",
            "--training-cutoff",
            "2023-12-01",
        ],
    );
    // Two runs of the same model: one row of the table, with an interval.
    let models = report["models"].as_array().expect("models");
    assert_eq!(models.len(), 1);
    assert_eq!(models[0]["runs"], 2);
    assert_eq!(models[0]["solved_mean"], 1.0);
    assert!(models[0]["solved_interval"].is_array());
    assert_eq!(report["humans"], 3);
    assert!(report["restriction"].is_null(), "every problem given");
    assert!(
        report["contamination"]
            .as_str()
            .is_some_and(|c| c.contains("2024-05-01") && c.contains("before the contest")),
        "{}",
        report["contamination"]
    );
    for run in report["runs"].as_array().expect("runs") {
        // Sum solved without rejection within minutes of agent time; pairsums wrong.
        let results = run["results"].as_array().expect("results");
        assert_eq!(results[0]["solved"], true);
        assert_eq!(results[0]["rejected"], 0);
        assert_eq!(results[1]["solved"], false);
        assert!(results[1]["rejected"].as_u64().expect("rejected") >= 1);
        let minute = results[0]["accept_minute"].as_u64().expect("minute");
        // One solve at minute m < 30 with no rejection: behind t1 (two solved), ahead of
        // t2 (one solved at 30) and t3 (none).
        assert!(minute < 30, "{minute}");
        let placement = &run["placement"];
        assert_eq!(placement["place_lo"], 2, "{placement}");
        assert_eq!(placement["place_hi"], 2);
        assert_eq!(placement["humans"], 3);
        assert!((placement["percentile"].as_f64().expect("pct") - 200.0 / 3.0).abs() < 1e-9);
        let tokens = run["tokens"].as_f64().expect("tokens");
        assert!(tokens >= 300.0, "at least two calls of 150 tokens");
        assert_eq!(run["tokens_per_solve"].as_f64(), Some(tokens), "one solve");
    }

    // The same runs among Codeforces rows with ratings (a 10-minute penalty, 2 hours).
    let rows = dir.path().join("rows.json");
    std::fs::write(
        &rows,
        r#"[["a", 2, 30, 1900, 0], ["b", 1, 45, 1600, 0], ["c", 1, 50, 1500, 0], ["d", 0, 0, 1300, 0]]"#,
    )
    .expect("rows");
    let out2 = dir.path().join("eval-cf");
    let report = evaluate(
        &agent,
        &stand_in,
        &[
            "--codeforces",
            rows.to_str().expect("utf-8"),
            "--out",
            out2.to_str().expect("utf-8"),
            "--from",
            out.join("run-1").to_str().expect("utf-8"),
            out.join("run-2").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(report["humans"], 4);
    for run in report["runs"].as_array().expect("runs") {
        assert_eq!(run["placement"]["place_hi"], 2, "{}", run["placement"]);
        let ratings = &run["ratings"];
        let codeelo = ratings["codeelo_rating"].as_f64().expect("codeelo_rating");
        assert!((1300.0..=2000.0).contains(&codeelo), "{codeelo}");
        let perf = ratings["codeforces_performance"]
            .as_i64()
            .expect("codeforces_performance");
        assert!((1300..=2300).contains(&perf), "{perf}");
    }
    assert!(report["models"][0]["codeelo_rating"].is_array());
}

/// The real packages with colortubes' output validator added (the published package
/// ships none), in a folder of the test.
fn rmrc_packages(data: &Path, into: &Path) -> Vec<PathBuf> {
    let status = Command::new("cp")
        .arg("-r")
        .arg(data)
        .arg(into)
        .status()
        .expect("cp");
    assert!(status.success());
    let validator = into.join("colortubes/output_validators/colortubes");
    std::fs::create_dir_all(&validator).expect("validator folder");
    let fixtures = workspace().join("judge/cli/tests/fixtures/colortubes");
    for f in ["validate.cc", "validate.h"] {
        std::fs::copy(fixtures.join(f), validator.join(f)).expect("validator file");
    }
    [
        "champernownecount",
        "trianglecontainment",
        "colortubes",
        "foodprocessor",
        "branchmanager",
        "sunandmoon",
    ]
    .iter()
    .map(|p| into.join(p))
    .collect()
}

/// Each team's (solved, penalty) on the problems labelled `labels`, straight from the
/// feed's lines (first accept per problem, penalised rejections before it, 20 minutes
/// each; submissions after the end left out): an independent count.
fn raw_standings(feed: &str, labels: &[&str]) -> Vec<(u32, i64)> {
    let mut problems = BTreeMap::new();
    let mut penalised = BTreeMap::new();
    let mut teams = Vec::new();
    let mut subs = Vec::new();
    let mut verdicts = BTreeMap::new();
    let minutes = |t: &str| -> i64 {
        let parts: Vec<f64> = t.split(':').map(|p| p.parse().expect("time")).collect();
        ((parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]) / 60.0).floor() as i64
    };
    for line in feed.lines() {
        let v: Value = serde_json::from_str(line).expect("json");
        let d = &v["data"];
        match v["type"].as_str() {
            Some("problems") if labels.contains(&d["label"].as_str().expect("label")) => {
                problems.insert(d["id"].as_str().expect("id").to_owned(), ());
            }
            Some("judgement-types") => {
                penalised.insert(
                    d["id"].as_str().expect("id").to_owned(),
                    d["penalty"].as_bool().expect("penalty"),
                );
            }
            Some("teams") => teams.push(d["id"].as_str().expect("id").to_owned()),
            Some("submissions") => subs.push((
                d["id"].as_str().expect("id").to_owned(),
                d["team_id"].as_str().expect("team").to_owned(),
                d["problem_id"].as_str().expect("problem").to_owned(),
                minutes(d["contest_time"].as_str().expect("time")),
                d["contest_time"].as_str().expect("time").to_owned(),
            )),
            Some("judgements") => {
                if let Some(t) = d["judgement_type_id"].as_str() {
                    verdicts.insert(
                        d["submission_id"].as_str().expect("sub").to_owned(),
                        t.to_owned(),
                    );
                }
            }
            _ => {}
        }
    }
    subs.sort_by(|a, b| a.4.cmp(&b.4));
    teams
        .iter()
        .map(|team| {
            let mut solved = 0;
            let mut penalty = 0;
            for problem in problems.keys() {
                let mut tries = 0;
                for (id, _, _, minute, _) in subs
                    .iter()
                    .filter(|s| &s.1 == team && &s.2 == problem && s.3 < 300)
                {
                    match verdicts.get(id).map(String::as_str) {
                        Some("AC") => {
                            solved += 1;
                            penalty += minute + 20 * tries;
                            break;
                        }
                        Some(t) if penalised.get(t) == Some(&true) => tries += 1,
                        _ => {}
                    }
                }
            }
            (solved, penalty)
        })
        .collect()
}

/// The humans the run's placement puts ahead of the model are those with a better
/// (solved, penalty) counted here, plus possibly some equal on both (ordered by the last
/// accept, which this count leaves open).
fn assert_ahead_within(humans: &[(u32, i64)], run: &Value) {
    let solved = run["solved"].as_u64().expect("solved") as u32;
    let penalty = run["penalty"].as_f64().expect("penalty") as i64;
    let ahead = humans
        .iter()
        .filter(|(s, p)| *s > solved || (*s == solved && *p < penalty))
        .count() as u64;
    let same = humans
        .iter()
        .filter(|(s, p)| *s == solved && *p == penalty)
        .count() as u64;
    let got = run["placement"]["ahead"].as_u64().expect("ahead");
    assert!(
        (ahead..=ahead + same).contains(&got),
        "{ahead}..={} humans ahead, got {got}: {}",
        ahead + same,
        run["placement"]
    );
}

#[test]
fn a_reference_stand_in_is_placed_among_the_pacnw_2022_humans_on_six_problems() {
    let Some(bin) = common::sandboxed(&["agent"]) else {
        return;
    };
    let agent = bin.join("agent");
    let (feed, packages) = (
        "clics/pacnw-2022-d1-event-feed.ndjson",
        "contests/rmrc-2022-23",
    );
    let Some(data) = common::shared_data(&[feed, packages]) else {
        return;
    };
    let (feed, packages) = (data.join(feed), data.join(packages));
    let dir = tempfile::tempdir().expect("tempdir");
    let dirs = rmrc_packages(&packages, &dir.path().join("rmrc"));
    // The names the prompts give (problem.yaml's, typos included: "Triangle Contaiment").
    let named: Vec<(PathBuf, String)> = dirs
        .iter()
        .map(|d| {
            let item = agent::series::Item::load(d.clone());
            let task = item.task.unwrap_or_else(|e| panic!("{}: {e}", d.display()));
            (d.clone(), task.name)
        })
        .collect();
    let stand_in = StandIn::start(&named, &[]);
    let out = dir.path().join("eval");
    let mut args: Vec<String> = vec!["--problems".into()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    args.extend(
        [
            "--feed",
            feed.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let report = evaluate(&agent, &stand_in, &args);

    assert_eq!(report["humans"], 54);
    assert!(
        report["restriction"]
            .as_str()
            .is_some_and(|r| r.contains("6 problems given (C, D, E, F, H, J of 13)")),
        "{}",
        report["restriction"]
    );
    let run = &report["runs"][0];
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 6);
    let solved = results.iter().filter(|r| r["solved"] == true).count();
    // The reference solutions solve every problem (colortubes with the written
    // validator); the stand-in's accepts come within the contest's five hours.
    assert_eq!(solved, 6, "{results:?}");
    let penalty = run["penalty"].as_f64().expect("penalty") as i64;

    // The place against the humans' standings on the six problems, counted here.
    let text = std::fs::read_to_string(&feed).expect("feed");
    let humans = raw_standings(&text, &["C", "D", "E", "F", "H", "J"]);
    assert_eq!(humans.len(), 54);
    let ahead = humans
        .iter()
        .filter(|(s, p)| *s > 6 || (*s == 6 && *p < penalty))
        .count();
    let placement = &run["placement"];
    assert_eq!(
        placement["ahead"].as_u64(),
        Some(ahead as u64),
        "{placement}"
    );
    assert_eq!(placement["place_lo"].as_u64(), Some(ahead as u64 + 1));
    // Someone solved all six (or the model, with every problem, is first).
    let best = humans.iter().map(|h| h.0).max().expect("a human");
    assert!(best <= 6);
    let md = std::fs::read_to_string(out.join("evaluation.md")).expect("evaluation.md");
    eprintln!("{md}");

    // The same run with one agent second as one contest minute: later accepts, a place
    // among the humans checked against the count here (equal solves and penalty are
    // ordered by the last accept, which this count leaves open).
    let slow = dir.path().join("eval-slow");
    let report = evaluate(
        &agent,
        &stand_in,
        &[
            "--feed",
            feed.to_str().expect("utf-8"),
            "--out",
            slow.to_str().expect("utf-8"),
            "--from",
            out.join("run-1").to_str().expect("utf-8"),
            "--time-scale",
            "60",
        ],
    );
    let run = &report["runs"][0];
    assert_ahead_within(&humans, run);
    eprintln!(
        "time scale 60: solved {}, penalty {}, placement {}",
        run["solved"], run["penalty"], run["placement"]
    );
    assert!(
        md.contains("Contamination: the contest took place at 2023-02-25"),
        "{md}"
    );
}

/// `agent evaluate` exits 2 with `args`; its stderr.
fn evaluate_fails(agent: &Path, args: &[&str]) -> String {
    let out = Command::new(agent)
        .arg("evaluate")
        .args(args)
        .output()
        .expect("agent evaluate runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Points of a problem worth `worth` accepted at `minute` of a `length`-minute round
/// after `rejected` rejections, by Codeforces' published rule, written out here for an
/// independent check.
fn decayed(worth: f64, minute: f64, length: f64, rejected: f64) -> f64 {
    let lost = (worth * minute * 120.0 / (250.0 * length)).floor();
    (worth - lost - 50.0 * rejected).max(0.3 * worth)
}

#[test]
fn a_points_round_places_the_model_by_its_decayed_points_among_real_rows() {
    let Some(bin) = common::sandboxed(&["agent"]) else {
        return;
    };
    let agent = bin.join("agent");
    // Codeforces Global Round 7 (contest 1326), a points round: its rated rows, points
    // with hacks and no penalty (../shared/data/codeforces, from meooow25/carrot, MIT).
    let (round, educational) = (
        "codeforces/round-1326-global-7-data.json",
        "codeforces/round-1342-edu-86-data.json",
    );
    let Some(data) = common::shared_data(&[round, educational]) else {
        return;
    };
    let (round, educational) = (data.join(round), data.join(educational));
    let rows: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&round).expect("rows")).expect("json");
    let human_points: Vec<f64> = rows
        .iter()
        .map(|r| r[1].as_f64().expect("points"))
        .collect();

    // The round's own problems are not packaged here: `sum` and `pairsums` stand in as
    // its problems A and B, worth what --problem-points says (the test's choice: the rows
    // hold only totals). The stand-in solves sum and gets pairsums wrong.
    let dir = tempfile::tempdir().expect("tempdir");
    let sum = workspace().join("problems/packages/sum");
    let pair = workspace().join("problems/packages/pairsums");
    let stand_in = StandIn::start(
        &[
            (sum.clone(), "Sum of Numbers".to_owned()),
            (pair.clone(), "Pair Sums".to_owned()),
        ],
        &["Pair Sums"],
    );
    let out = dir.path().join("eval");
    let round_s = round.to_str().expect("utf-8");
    let points_args = ["--problem-points", "500", "1000", "1500"];
    let mut args = vec![
        "--problems",
        sum.to_str().expect("utf-8"),
        pair.to_str().expect("utf-8"),
        "--codeforces",
        round_s,
        "--contest-minutes",
        "150",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend(points_args);
    let report = evaluate(&agent, &stand_in, &args);
    assert_eq!(
        report["rule"],
        json!({"rule": "codeforces", "duration_minutes": 150})
    );
    assert_eq!(report["humans"].as_u64(), Some(rows.len() as u64));
    assert!(
        report["restriction"]
            .as_str()
            .is_some_and(|r| r.contains("2 of the round's 3 problems (A, B)")),
        "{}",
        report["restriction"]
    );
    let run = &report["runs"][0];
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "one result per problem of the round");
    assert_eq!(results[0]["solved"], true);
    assert_eq!(results[0]["rejected"], 0);
    assert_eq!(results[1]["solved"], false);
    assert_eq!(results[2]["solved"], false, "C was not given");
    let minute = results[0]["accept_minute"].as_f64().expect("minute");

    // The model's points and place, counted here from the raw rows: humans with more
    // points are ahead, equal ones too (the default tie policy, CodeElo's).
    let check = |report: &Value, points: f64| {
        let run = &report["runs"][0];
        assert_eq!(run["points"].as_f64(), Some(points), "{run}");
        let ahead = human_points.iter().filter(|&&p| p > points).count() as u64;
        let equal = human_points.iter().filter(|&&p| p == points).count() as u64;
        let placement = &run["placement"];
        assert_eq!(placement["ahead"].as_u64(), Some(ahead), "{placement}");
        assert_eq!(placement["equal"].as_u64(), Some(equal), "{placement}");
        assert_eq!(placement["place_hi"].as_u64(), Some(ahead + equal + 1));
        // Somewhere in the middle of the round, not first and not last.
        assert!(ahead > 0 && ahead + equal < human_points.len() as u64);
        assert!(run["ratings"]["codeforces_performance"].is_i64(), "{run}");
    };
    let points = decayed(500.0, minute, 150.0, 0.0);
    check(&report, points);
    assert_eq!(report["models"][0]["points_mean"].as_f64(), Some(points));
    let md = std::fs::read_to_string(out.join("evaluation.md")).expect("evaluation.md");
    eprintln!("{md}");
    assert!(
        md.contains(&format!("| 1.0 ({points:.1} points) |")),
        "{md}"
    );
    assert!(md.contains("costs 50 points"), "{md}");

    // The same run with sum as the round's C (1500 points), by --match.
    let run_1 = out.join("run-1");
    let run_s = run_1.to_str().expect("utf-8");
    let as_c = dir.path().join("eval-c");
    let mut args = vec![
        "--codeforces",
        round_s,
        "--contest-minutes",
        "150",
        "--match",
        "sum=C",
        "--match",
        "pairsums=A",
        "--out",
        as_c.to_str().expect("utf-8"),
        "--from",
        run_s,
    ];
    args.extend(points_args);
    let report = evaluate(&agent, &stand_in, &args);
    check(&report, decayed(1500.0, minute, 150.0, 0.0));

    // Points rows without the problems' points, and points for an ICPC-style round
    // (Educational Round 86: solved counts and penalty minutes): said, not guessed.
    let stderr = evaluate_fails(
        &agent,
        &[
            "--codeforces",
            round_s,
            "--out",
            dir.path().join("x").to_str().expect("utf-8"),
            "--from",
            run_s,
        ],
    );
    assert!(
        stderr.contains("so the round is scored by points") && stderr.contains("--problem-points"),
        "{stderr}"
    );
    let out_y = dir.path().join("y");
    let mut args = vec![
        "--codeforces",
        educational.to_str().expect("utf-8"),
        "--out",
        out_y.to_str().expect("utf-8"),
        "--from",
        run_s,
    ];
    args.extend(points_args);
    let stderr = evaluate_fails(&agent, &args);
    assert!(stderr.contains("leave --problem-points out"), "{stderr}");
}

/// Each contestant team's (solved, penalty, last accept) on the problems labelled
/// `labels`, straight from NWERC 2023's `scoreboard.json`, `teams.json` and
/// `problems.json` (a solved cell costs its minute plus 20 per try before the accept):
/// an independent count of the restricted standings.
fn raw_package_standings(clics: &Path, labels: &[&str]) -> Vec<(u32, i64, i64)> {
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(clics.join(name)).expect(name)).expect(name)
    };
    let (problems, teams, board) = (
        read("problems.json"),
        read("teams.json"),
        read("scoreboard.json"),
    );
    let ids: Vec<&str> = problems
        .as_array()
        .expect("problems")
        .iter()
        .filter(|p| labels.contains(&p["label"].as_str().expect("label")))
        .map(|p| p["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.len(), labels.len());
    let contestants: Vec<&str> = teams
        .as_array()
        .expect("teams")
        .iter()
        .filter(|t| t["group_ids"][0] == "contestants")
        .map(|t| t["id"].as_str().expect("id"))
        .collect();
    board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| contestants.contains(&r["team_id"].as_str().expect("team")))
        .map(|r| {
            let (mut solved, mut penalty, mut last) = (0, 0, 0);
            for cell in r["problems"].as_array().expect("cells") {
                if ids.contains(&cell["problem_id"].as_str().expect("id")) && cell["solved"] == true
                {
                    let minute = cell["time"].as_i64().expect("time");
                    solved += 1;
                    penalty += minute + 20 * (cell["num_judged"].as_i64().expect("tries") - 1);
                    last = last.max(minute);
                }
            }
            (solved, penalty, last)
        })
        .collect()
}

/// Humans ahead of a model with (solved, penalty, last accept) under ICPC's order, and
/// those equal to it.
fn ahead_and_equal(humans: &[(u32, i64, i64)], model: (u32, i64, i64)) -> (usize, usize) {
    let key = |h: &(u32, i64, i64)| (std::cmp::Reverse(h.0), h.1, h.2);
    let ahead = humans.iter().filter(|h| key(h) < key(&model)).count();
    let equal = humans.iter().filter(|h| key(h) == key(&model)).count();
    (ahead, equal)
}

/// The model's (solved, penalty, last accept) from a run of the report.
fn model_key(run: &Value) -> (u32, i64, i64) {
    let results = run["results"].as_array().expect("results");
    let last = results
        .iter()
        .filter(|r| r["solved"] == true)
        .map(|r| r["accept_minute"].as_i64().expect("minute"))
        .max()
        .unwrap_or(0);
    (
        run["solved"].as_u64().expect("solved") as u32,
        run["penalty"].as_f64().expect("penalty") as i64,
        last,
    )
}

/// One `agent evaluate` over both real contests, then each contest's placement against
/// the raw standings and the summary across them. It is long because it is one story:
/// the run is the expensive part (judging NWERC's test sets), so every check reads the
/// same report.
#[test]
fn a_reference_stand_in_is_placed_in_nwerc_2023_and_pacnw_2022_in_one_report() {
    let Some(bin) = common::sandboxed(&["agent"]) else {
        return;
    };
    let agent = bin.join("agent");
    let (clics, nwerc, feed, rmrc) = (
        "clics/nwerc-2023",
        "contests/nwerc-2023",
        "clics/pacnw-2022-d1-event-feed.ndjson",
        "contests/rmrc-2022-23",
    );
    let Some(data) = common::shared_data(&[clics, nwerc, feed, rmrc]) else {
        return;
    };
    let (clics, nwerc, feed) = (data.join(clics), data.join(nwerc), data.join(feed));
    let dir = tempfile::tempdir().expect("tempdir");
    let rmrc_dirs = rmrc_packages(&data.join(rmrc), &dir.path().join("rmrc"));
    let mut named: Vec<(PathBuf, String)> = Vec::new();
    let mut nwerc_dirs: Vec<PathBuf> = std::fs::read_dir(&nwerc)
        .expect("nwerc packages")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    nwerc_dirs.sort();
    for d in nwerc_dirs.iter().chain(&rmrc_dirs) {
        let task = agent::series::Item::load(d.clone())
            .task
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        named.push((d.clone(), task.name));
    }
    assert_eq!(named.len(), 14);
    // The stand-in answers with each package's C++ reference solution (every NWERC
    // package here has one). higherarithmetic's build-and-run output validator is the
    // judge's newest feature, so the check below asks for at least 7 of 8.
    let stand_in = StandIn::start(&named, &[]);
    let out = dir.path().join("eval");
    let nwerc_spec = format!("{}={}@contestants", nwerc.display(), clics.display());
    let pacnw_spec = format!("{}={}", dir.path().join("rmrc").display(), feed.display());
    let report = evaluate(
        &agent,
        &stand_in,
        &[
            "--contest",
            &nwerc_spec,
            "--contest",
            &pacnw_spec,
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    let contests = report["contests"].as_array().expect("contests");
    assert_eq!(contests.len(), 2);

    // NWERC 2023: 143 contestants on the eight problems with packages.
    let n = &contests[0];
    assert_eq!(n["humans"], 143);
    assert_eq!(n["problems_given"], 8);
    assert!(
        n["restriction"]
            .as_str()
            .is_some_and(|r| r.contains("recomputed") && r.contains("D, E, F, H, I, J, K, L of 12")),
        "{}",
        n["restriction"]
    );
    let limits = n["time_limits"].as_array().expect("time limits");
    let source = |label: &str| {
        limits
            .iter()
            .find(|l| l["label"] == label)
            .map(|l| l["source"].as_str().unwrap_or_default().to_owned())
            .expect("a limit")
    };
    assert_eq!(source("F"), "the contest's problems.json");
    assert_eq!(source("I"), "the contest's problems.json");
    // datepicker gives no time limit, in problems.json or its package: it is derived as
    // `judge serve` derives it, from the slowest accepted submission (PyPy for a legacy
    // package's Python), and the limit is that time times the factor, rounded up.
    let d = source("D");
    assert!(
        d.starts_with("derived from the package's accepted submissions")
            && d.contains("Python as pypy3"),
        "{d}"
    );
    let number_after = |key: &str| -> f64 {
        let rest = &d[d.find(key).unwrap_or_else(|| panic!("{key} in {d}")) + key.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        rest[..end]
            .parse()
            .unwrap_or_else(|e| panic!("{key} in {d}: {e}"))
    };
    let (factor, slowest_ms) = (number_after(": "), number_after("the slowest ("));
    let limit_d = limits.iter().find(|l| l["label"] == "D").expect("D")["time_limit_s"]
        .as_f64()
        .expect("D's limit");
    assert!(
        limit_d >= factor * slowest_ms / 1000.0 - 0.001
            && limit_d <= factor * slowest_ms / 1000.0 + 1.0,
        "{limit_d} s against {factor} x {slowest_ms} ms"
    );
    let run = &n["runs"][0];
    let humans = raw_package_standings(&clics, &["D", "E", "F", "H", "I", "J", "K", "L"]);
    assert_eq!(humans.len(), 143);
    let model = model_key(run);
    // Every reference is accepted, at least every one but higherarithmetic's (the
    // interactive lateraldamage included).
    assert!(model.0 >= 7, "{model:?}: {}", run["results"]);
    let (ahead, equal) = ahead_and_equal(&humans, model);
    let placement = &run["placement"];
    assert_eq!(
        placement["ahead"].as_u64(),
        Some(ahead as u64),
        "{placement}"
    );
    assert_eq!(
        placement["equal"].as_u64(),
        Some(equal as u64),
        "{placement}"
    );
    assert_eq!(
        placement["place_hi"].as_u64(),
        Some((ahead + equal + 1) as u64)
    );
    eprintln!("NWERC 2023: the stand-in {model:?}, {placement}");

    // PacNW 2022: 54 teams on six problems, from the raw feed.
    let p = &contests[1];
    assert_eq!(p["humans"], 54);
    assert_eq!(p["problems_given"], 6);
    let run = &p["runs"][0];
    let pac = raw_standings(
        &std::fs::read_to_string(&feed).expect("feed"),
        &["C", "D", "E", "F", "H", "J"],
    );
    assert_ahead_within(&pac, run);

    // Across the two contests: the mean of the two percentiles, no interval, and why.
    let across = &report["across_contests"];
    let m = &across["models"][0];
    let pcts: Vec<f64> = contests
        .iter()
        .map(|c| {
            c["runs"][0]["placement"]["percentile"]
                .as_f64()
                .expect("pct")
        })
        .collect();
    let mean = m["percentile_mean"].as_f64().expect("mean");
    assert!(
        (mean - (pcts[0] + pcts[1]) / 2.0).abs() < 1e-9,
        "{mean} {pcts:?}"
    );
    assert!(m["percentile_interval"].is_null());
    assert!(
        across["interval"]
            .as_str()
            .is_some_and(|t| t.contains("2 contest(s)")),
        "{}",
        across["interval"]
    );
    let given: u64 = m["bands"]
        .as_array()
        .expect("bands")
        .iter()
        .map(|b| b["given"].as_u64().expect("given"))
        .sum();
    assert_eq!(given, 14);
    let md = std::fs::read_to_string(out.join("evaluation.md")).expect("evaluation.md");
    eprintln!("{md}");

    // `--from` re-evaluates both runs without solving again; each run folder goes to the
    // contest whose packages it holds, whatever the order given.
    let again = dir.path().join("again");
    let report2 = evaluate(
        &agent,
        &stand_in,
        &[
            "--contest",
            &nwerc_spec,
            "--contest",
            &pacnw_spec,
            "--out",
            again.to_str().expect("utf-8"),
            "--from",
            out.join("contest-2/run-1").to_str().expect("utf-8"),
            out.join("contest-1/run-1").to_str().expect("utf-8"),
        ],
    );
    for k in 0..2 {
        assert_eq!(
            report2["contests"][k]["runs"][0]["placement"],
            report["contests"][k]["runs"][0]["placement"]
        );
    }
    assert!(
        !again.join("contest-1/run-1").exists(),
        "nothing solved again"
    );
}

/// Bad contest packages are refused before anything is solved, the error naming the file
/// and the field: a scoreboard row that disagrees with its cells, a scoreboard team that
/// `teams.json` lacks, a `--match` label that `problems.json` lacks, an unknown group.
#[test]
fn bad_contest_packages_are_refused_naming_the_file_and_the_field() {
    let Some(bin) = common::binaries(&["agent"]) else {
        return;
    };
    let agent = bin.join("agent");
    let Some(data) = common::shared_data(&["clics/nwerc-2023", "contests/nwerc-2023"]) else {
        return;
    };
    let packages = data.join("contests/nwerc-2023");
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("nwerc");
    std::fs::create_dir(&copy).expect("folder");
    for f in [
        "api.json",
        "contest.json",
        "problems.json",
        "teams.json",
        "groups.json",
        "organizations.json",
        "scoreboard.json",
    ] {
        std::fs::copy(data.join("clics/nwerc-2023").join(f), copy.join(f)).expect("copy");
    }
    let out = dir.path().join("out");
    let fails = |spec: &str, extra: &[&str]| {
        let mut args = vec![
            "--contest",
            spec,
            "--out",
            out.to_str().expect("utf-8"),
            "--model-url",
            "http://127.0.0.1:9",
            "--model-name",
            "unused",
        ];
        args.extend_from_slice(extra);
        evaluate_fails(&agent, &args)
    };
    let spec = format!("{}={}@contestants", packages.display(), copy.display());
    let err = fails(&spec, &["--match", "datepicker=Z"]);
    assert!(
        err.contains("problems.json: no problem has the `label` or `id` Z"),
        "{err}"
    );
    let err = fails(
        &format!("{}={}@judges", packages.display(), copy.display()),
        &[],
    );
    assert!(
        err.contains("groups.json: no group has the `id` judges"),
        "{err}"
    );

    // The third row's penalty time one minute off.
    let path = copy.join("scoreboard.json");
    let board: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    let mut changed = board.clone();
    let time = changed["rows"][2]["score"]["total_time"]
        .as_u64()
        .expect("time");
    changed["rows"][2]["score"]["total_time"] = json!(time + 1);
    std::fs::write(&path, changed.to_string()).expect("write");
    let err = fails(&spec, &[]);
    assert!(
        err.contains("scoreboard.json: row 3, `score.total_time`"),
        "{err}"
    );
    // A team the scoreboard names and teams.json lacks.
    let mut changed = board;
    changed["rows"][4]["team_id"] = json!("no-such-team");
    std::fs::write(&path, changed.to_string()).expect("write");
    let err = fails(&spec, &[]);
    assert!(
        err.contains("scoreboard.json: row 5, `team_id`: team no-such-team is not in teams.json"),
        "{err}"
    );
    assert!(!out.join("contest-1").exists(), "nothing was solved");
}
