//! End-to-end tests of the `leaderboard` binary on the real data in `../shared/data/`
//! (Codeforces round 1342, Educational 86, from meooow25/carrot, MIT; the EUC 2025 feed
//! from icpc/live-v3, MIT).

use std::path::PathBuf;
use std::process::Command;

fn data() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data"));
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    if !dir.is_dir() {
        assert!(
            !ci,
            "{} is missing (CI=true makes this a failure)",
            dir.display()
        );
        eprintln!("skipping: {} is missing", dir.display());
        return None;
    }
    Some(dir)
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

#[test]
fn placing_a_model_in_an_educational_round() {
    let Some(dir) = data() else { return };
    let rows = dir.join("codeforces/round-1342-edu-86-data.json");
    let work = tempfile::tempdir().expect("tempdir");
    let place_of = |solved: usize| {
        let results: Vec<serde_json::Value> = (0..6)
            .map(|i| serde_json::json!({"solved": i < solved, "rejected": if i == 0 { 1 } else { 0 }, "accept_minute": 0}))
            .collect();
        let model = serde_json::json!({"rule": {"rule": "icpc", "penalty_minutes": 10}, "results": results});
        let path = work.path().join(format!("model-{solved}.json"));
        std::fs::write(&path, model.to_string()).expect("write");
        let (code, stdout, stderr) = leaderboard(&[
            "place",
            "--rows",
            rows.to_str().expect("utf-8"),
            "--model",
            path.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).expect("json")
    };
    let three = place_of(3);
    let four = place_of(4);
    // Three problems with one rejected attempt at minute 0 (CodeElo's timing policy):
    // 10 penalty minutes.
    assert_eq!(three["score"]["points"], 3.0);
    assert_eq!(three["score"]["penalty"], 10.0);
    let place3 = three["placement"]["place_hi"].as_u64().expect("place");
    let place4 = four["placement"]["place_hi"].as_u64().expect("place");
    assert!(place4 < place3 && place3 < 14939, "{place3} {place4}");
    let r3 = three["codeelo_rating"].as_f64().expect("rating");
    let r4 = four["codeelo_rating"].as_f64().expect("rating");
    assert!(r4 > r3, "{r3} {r4}");
    let p3 = three["codeforces_performance"]
        .as_f64()
        .expect("performance");
    assert!(
        (p3 - r3).abs() < 400.0,
        "the two ratings should be in the same region: {p3} vs {r3}"
    );
}

#[test]
fn scoreboard_and_codeforces_commands() {
    let Some(dir) = data() else { return };
    let feed = dir.join("clics/euc-2025-event-feed.ndjson");
    let (code, stdout, stderr) =
        leaderboard(&["scoreboard", "--event-feed", feed.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0), "{stderr}");
    let first: serde_json::Value =
        serde_json::from_str(stdout.lines().next().expect("a row")).expect("json");
    assert_eq!(first["place"]["lo"], 1);
    let rows = dir.join("codeforces/round-1305-ozon-2020-div1+2-data.json");
    let (code, stdout, _) = leaderboard(&["codeforces", "--rows", rows.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0));
    let out: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(out["exact"], out["published_deltas"]);
}

#[test]
fn bad_input_is_named() {
    let work = tempfile::tempdir().expect("tempdir");
    let bad = work.path().join("rows.json");
    std::fs::write(&bad, r#"[["a", 1, 0, 1500, 3], ["b", 2]]"#).expect("write");
    let (code, _, stderr) = leaderboard(&["codeforces", "--rows", bad.to_str().expect("utf-8")]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("rows.json: row 2"), "{stderr}");
    let (code, stdout, _) = leaderboard(&["pass-at-k", "--n", "10", "--c", "3", "--k", "1"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("\"pass_at_k\":0.3"), "{stdout}");
}
