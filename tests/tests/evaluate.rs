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
//!   the humans' standings restricted to those six.
//!
//! Under `CI=true` a missing bubblewrap, binary or data folder fails the tests.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

mod common;
use common::{read_request, respond};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace")
}

fn agent_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().expect("the test binary");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .join("agent");
    let why =
        (!path.is_file()).then(|| format!("{} not built (cargo build -p agent)", path.display()));
    ci::require::present("the agent binary", why.as_deref()).then_some(path)
}

fn bubblewrap_here() -> bool {
    let missing = (!Path::new("/usr/bin/bwrap").is_file())
        .then_some("bubblewrap is not installed (run ci/setup)");
    ci::require::present("bubblewrap", missing)
}

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
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Some((line, body)) = read_request(&mut stream) else {
                    continue;
                };
                if line.starts_with("GET") {
                    respond(
                        &mut stream,
                        &json!({"object": "list", "data": [{"id": "reference-stand-in", "object": "model"}]}),
                    );
                    continue;
                }
                let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let text: String = request["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|m| m["content"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n");
                let content = replies
                    .iter()
                    .find(|(name, _)| text.contains(&format!("Problem: {name}")))
                    .map_or("I cannot tell which problem this is.", |(_, r)| r.as_str());
                respond(
                    &mut stream,
                    &json!({
                        "id": "stand-in", "object": "chat.completion", "created": 0,
                        "model": "reference-stand-in",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}
                    }),
                );
            }
        });
        StandIn { base }
    }
}

fn evaluate(agent: &Path, stand_in: &StandIn, args: &[&str]) -> Value {
    let out = Command::new(agent)
        .arg("evaluate")
        .args([
            "--model-url",
            &stand_in.base,
            "--model-name",
            "reference-stand-in",
        ])
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
    if !bubblewrap_here() {
        return;
    }
    let Some(agent) = agent_binary() else {
        return;
    };
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

#[test]
fn a_reference_stand_in_is_placed_among_the_pacnw_2022_humans_on_six_problems() {
    if !bubblewrap_here() {
        return;
    }
    let Some(agent) = agent_binary() else {
        return;
    };
    let data = workspace().join("../shared/data");
    let feed = data.join("clics/pacnw-2022-d1-event-feed.ndjson");
    let packages = data.join("contests/rmrc-2022-23");
    let why = (!feed.is_file() || !packages.is_dir())
        .then_some("../shared/data (the PacNW 2022 feed and the RMRC packages) is not there");
    if !ci::require::present("the real contest data", why) {
        return;
    }
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
    eprintln!(
        "time scale 60: solved {solved}, penalty {penalty}, placement {}",
        run["placement"]
    );
    assert!(
        md.contains("Contamination: the contest took place at 2023-02-25"),
        "{md}"
    );
}
