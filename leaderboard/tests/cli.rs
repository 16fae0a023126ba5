//! End-to-end tests of the `leaderboard` binary on the real data in `../shared/data/`
//! (Codeforces rounds 1305 and 1342, from meooow25/carrot `carrot/tests/data/`, MIT; the
//! EUC 2025 event feed from icpc/live-v3 `config/icpc-europe/euc-2024-2025/event-feed`,
//! MIT; the PacNW 2022 Division 1 feed from icpc/live-v3, MIT).

use std::path::{Path, PathBuf};
use std::process::Command;

use leaderboard::{codeforces, evaluate};

fn data() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data"));
    let missing = (!dir.is_dir()).then(|| format!("{} is missing", dir.display()));
    ci::require::present("the shared data", missing.as_deref()).then_some(dir)
}

fn leaderboard(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_leaderboard"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `leaderboard place` with `model` written to `work`, and returns its JSON output.
fn place(work: &Path, model: &serde_json::Value, args: &[&str]) -> serde_json::Value {
    let path = work.join("model.json");
    std::fs::write(&path, model.to_string()).expect("write");
    let mut all = vec!["place", "--model", path.to_str().expect("utf-8")];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = leaderboard(&all);
    assert_eq!(code, Some(0), "{stderr}");
    serde_json::from_str(&stdout).expect("json")
}

#[test]
fn placing_a_model_in_an_educational_round() {
    let Some(dir) = data() else { return };
    let rows = dir.join("codeforces/round-1342-edu-86-data.json");
    let work = tempfile::tempdir().expect("tempdir");
    let place_of = |solved: usize| {
        let results: Vec<serde_json::Value> = (0..6)
            .map(|i| serde_json::json!({"solved": i < solved, "rejected": if i == 0 { 1 } else { 0 }, "accept_minute": 0}))
            .collect();
        let model = serde_json::json!({"rule": {"rule": "extended_icpc", "penalty_minutes": 10}, "timing": "instant", "results": results});
        let svg = work.path().join(format!("plot-{solved}.svg"));
        let out = place(
            work.path(),
            &model,
            &[
                "--standings",
                rows.to_str().expect("utf-8"),
                "--svg",
                svg.to_str().expect("utf-8"),
            ],
        );
        let plot = std::fs::read_to_string(&svg).expect("svg written");
        assert!(plot.contains(">codeelo_rating "), "{plot}");
        (out, model)
    };
    let (three, model) = place_of(3);
    let (four, _) = place_of(4);
    // Three problems with one rejected attempt at minute 0 (CodeElo's timing policy):
    // 10 penalty minutes.
    assert_eq!(three["score"]["points"], 3.0);
    assert_eq!(three["score"]["penalty"], 10.0);
    let place3 = three["placement"]["place_hi"].as_u64().expect("place");
    let place4 = four["placement"]["place_hi"].as_u64().expect("place");
    assert!(place4 < place3 && place3 < 14939, "{place3} {place4}");
    let r3 = three["ratings"]["codeelo_rating"].as_f64().expect("rating");
    let r4 = four["ratings"]["codeelo_rating"].as_f64().expect("rating");
    assert!(r4 > r3, "{r3} {r4}");
    for name in ["codeforces_performance", "elo_mmr_performance"] {
        let p3 = three["ratings"][name].as_f64().expect("performance");
        assert!(
            (p3 - r3).abs() < 400.0,
            "{name} should be in the region of the CodeElo rating: {p3} vs {r3}"
        );
    }
    // The library gives the command's numbers, and the model's Codeforces change from
    // the assumed old rating beside them.
    let model: evaluate::ModelResult = serde_json::from_value(model).expect("model");
    let rows = codeforces::read_rows(&rows).expect("rows");
    let res = evaluate::in_round(&rows, &model, &evaluate::Options::default()).expect("evaluates");
    // Through text, as the command's output was: parsing may round a float's last bit,
    // the same way on both sides.
    let ours = serde_json::to_string(&res).expect("serializes");
    let ours: serde_json::Value = serde_json::from_str(&ours).expect("json");
    for field in ["score", "timing", "tie_policy", "placement"] {
        assert_eq!(ours[field], three[field], "{field}");
    }
    for name in [
        "codeelo_rating",
        "codeforces_performance",
        "elo_mmr_performance",
        "elo_mmr_human_sig",
    ] {
        assert_eq!(ours["ratings"][name], three["ratings"][name], "{name}");
    }
    assert_eq!(ours["ratings"]["codeforces_assumed_old_rating"], 1400);
    let mut with_model = rows.clone();
    with_model.push(codeforces::Row {
        handle: "(model)".to_owned(),
        points: res.score.points,
        penalty: res.score.penalty,
        old_rating: 1400,
        delta: None,
    });
    let deltas = codeforces::rating_changes(&with_model);
    assert_eq!(res.ratings.codeforces_delta, deltas[rows.len()]);
}

#[test]
fn scoreboard_command() {
    let Some(dir) = data() else { return };
    let feed = dir.join("clics/euc-2025-event-feed.ndjson");
    let (code, stdout, stderr) =
        leaderboard(&["scoreboard", "--event-feed", feed.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0), "{stderr}");
    let first: serde_json::Value =
        serde_json::from_str(stdout.lines().next().expect("a row")).expect("json");
    assert_eq!(first["place"]["lo"], 1);
    // The PacNW 2022 feed (the 2020-03 form): 54 rows, its winner first.
    let feed = dir.join("clics/pacnw-2022-d1-event-feed.ndjson");
    let (code, stdout, stderr) =
        leaderboard(&["scoreboard", "--event-feed", feed.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.lines().count(), 54);
    let first: serde_json::Value =
        serde_json::from_str(stdout.lines().next().expect("a row")).expect("json");
    assert_eq!(first["team"], "Golden State Geeks (UC Berkeley)");
    assert_eq!(
        (&first["score"]["points"], &first["score"]["penalty"]),
        (&serde_json::json!(9.0), &serde_json::json!(1304.0))
    );
    // A feed it cannot read is an error naming the line and the field.
    let work = tempfile::tempdir().expect("tempdir");
    let bad = work.path().join("feed.ndjson");
    std::fs::write(
        &bad,
        "{\"type\":\"contest\",\"id\":null,\"data\":{\"id\":\"c\",\"name\":\"C\",\"duration\":\"5 hours\"}}\n",
    )
    .expect("write");
    let (code, _, stderr) =
        leaderboard(&["scoreboard", "--event-feed", bad.to_str().expect("utf-8")]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("feed.ndjson: line 1, `duration`"),
        "{stderr}"
    );
}

#[test]
fn rate_prints_changes_and_performances() {
    let Some(dir) = data() else { return };
    let rows = dir.join("codeforces/round-1305-ozon-2020-div1+2-data.json");
    let rows = rows.to_str().expect("utf-8");
    let (code, stdout, stderr) =
        leaderboard(&["rate", "--system", "codeforces", "--rows", rows, "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let out: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("json array");
    let published: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(rows).expect("rows")).expect("rows json");
    assert_eq!(out.len(), published.len());
    let exact = out
        .iter()
        .zip(&published)
        .filter(|(ours, row)| ours["handle"] == row[0] && ours["delta"] == row[4])
        .count();
    assert!(exact * 1000 >= out.len() * 999, "{exact} of {}", out.len());
    // Alone in first place: the performance is unbounded, written null.
    assert!(out[0]["performance"].is_null());
    assert!(out[1]["performance"].is_i64());
    let (code, markdown, _) = leaderboard(&["rate", "--rows", rows]);
    assert_eq!(code, Some(0));
    assert!(markdown.contains("| handle | rank |"), "{markdown}");
    let (code, stdout, stderr) = leaderboard(&[
        "codeelo",
        "--ratings",
        "1200,1500,1350",
        "--population",
        rows,
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let out: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let percentile = out["codeelo"]["percentile"].as_f64().expect("percentile");
    assert!(percentile > 0.0 && percentile < 100.0, "{out}");
    assert_eq!(out["population_size"], published.len());
}

#[test]
fn placing_a_model_in_the_euc_2025_standings() {
    let Some(dir) = data() else { return };
    let feed = dir.join("clics/euc-2025-event-feed.ndjson");
    let work = tempfile::tempdir().expect("tempdir");
    let place_with = |solved: usize, timing: &str| {
        let results: Vec<serde_json::Value> = (0..11)
            .map(|i| serde_json::json!({"solved": i < solved, "rejected": 0, "accept_minute": 60 + 10 * i}))
            .collect();
        let model = serde_json::json!({"timing": timing, "results": results});
        let feed = feed.to_str().expect("utf-8");
        place(
            work.path(),
            &model,
            &["--event-feed", feed, "--ties", "shared"],
        )
    };
    let all = place_with(11, "measured");
    assert_eq!(all["placement"]["place_lo"], 1);
    assert_eq!(all["placement"]["ahead"], 0);
    let none = place_with(0, "measured");
    let instant = place_with(3, "instant");
    let measured = place_with(3, "measured");
    // No problem solved: tied with every team that solved nothing, behind all others.
    assert_eq!(
        none["placement"]["place_hi"].as_u64(),
        none["placement"]["humans"].as_u64().map(|n| n + 1)
    );
    // Solving at minute 0 cannot place worse than solving the same problems later.
    assert!(instant["placement"]["ahead"].as_u64() <= measured["placement"]["ahead"].as_u64());
    assert_eq!(measured["score"]["penalty"], 60.0 + 70.0 + 80.0);
}

#[test]
fn bad_input_is_named() {
    let work = tempfile::tempdir().expect("tempdir");
    let bad = work.path().join("rows.json");
    std::fs::write(&bad, r#"[["a", 1, 0, 1500, 3], ["b", 2]]"#).expect("write");
    let (code, _, stderr) = leaderboard(&["rate", "--rows", bad.to_str().expect("utf-8")]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("rows.json: row 2"), "{stderr}");
    let model = work.path().join("model.json");
    std::fs::write(
        &model,
        r#"{"rule": {"rule": "icpc", "penalty_minutes": 20}, "timing": "measured", "results": [{"solved": true}]}"#,
    )
    .expect("write");
    let good = work.path().join("good.json");
    std::fs::write(&good, r#"[["a", 1, 0, 1500, 3], ["b", 2, 0, 1500, -3]]"#).expect("write");
    // Bad standings, then good standings with a solved problem lacking its time.
    for (standings, want) in [(&bad, "rows.json: row 2"), (&good, "problem 0 (0-based)")] {
        let (code, _, stderr) = leaderboard(&[
            "place",
            "--standings",
            standings.to_str().expect("utf-8"),
            "--model",
            model.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, Some(2));
        assert!(stderr.contains(want), "{stderr}");
    }
    let (code, stdout, _) = leaderboard(&["pass-at-k", "--n", "10", "--c", "3", "--k", "1"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("\"pass_at_k\":0.3"), "{stdout}");
}

#[test]
fn bench_agrees_with_the_quadratic_transcription() {
    let (code, stdout, stderr) = leaderboard(&["bench", "--n", "400", "--both", "50,120"]);
    assert_eq!(code, Some(0), "{stderr}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_end().ends_with("true"))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
}
