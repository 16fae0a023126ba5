//! `trainer compare-toy` at 2 seeds and a few steps, as a user runs it: the files it
//! writes, their structure, and each variant's curve following its schedule (judge calls
//! and update attempts per step); bad settings are refused, naming the setting.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const STEPS: u64 = 4;
const SEEDS: u64 = 2;
/// 4 problems x G = 8 episodes, a stage check and a verdict each.
const JUDGE_CALLS_PER_STEP: u64 = 64;

fn compare(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["compare-toy", "--seeds", &SEEDS.to_string()])
        .args(["--steps", &STEPS.to_string(), "--group-size", "8"])
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("run trainer compare-toy")
}

/// Update attempts (made or skipped as uniform) per step: one per group, and agentic
/// three per group (the provisional update of each turn and the correction).
fn attempts_per_step(algorithm: &str) -> u64 {
    match algorithm {
        "outcome" | "process" => 4,
        "agentic" => 12,
        other => panic!("unknown algorithm {other}"),
    }
}

#[test]
fn two_seeds_of_every_variant_give_the_curves_the_table_and_the_plots() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("toy");
    let run = compare(&out, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    let files = [
        "toy.json",
        "toy.md",
        "toy-score-steps.svg",
        "toy-score-wall.svg",
        "toy-score-judge.svg",
        "toy-reward-steps.svg",
    ];
    for f in files {
        assert!(out.join(f).is_file(), "{f} written");
        assert!(stdout.contains(f), "{f} printed: {stdout}");
    }

    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("toy.json")).expect("read"))
            .expect("json");
    assert_eq!(json["judge_calls_per_step"], JUDGE_CALLS_PER_STEP);
    assert_eq!(json["config"]["seeds"], SEEDS);
    let curves = json["curves"].as_array().expect("curves");
    assert_eq!(curves.len() as u64, 3 * SEEDS);
    let mut start_scores = std::collections::BTreeMap::new();
    for c in curves {
        let algorithm = c["algorithm"].as_str().expect("algorithm");
        let seed = c["seed"].as_u64().expect("seed");
        let points = c["points"].as_array().expect("points");
        assert_eq!(points.len() as u64, STEPS + 1, "{algorithm} {seed}");
        let mut last_wall = 0.0;
        for (s, p) in points.iter().enumerate() {
            let s = s as u64;
            assert_eq!(p["step"], s);
            assert_eq!(
                p["judge_calls"],
                s * JUDGE_CALLS_PER_STEP,
                "{algorithm} {p}"
            );
            let made = p["updates"].as_u64().expect("updates");
            let skipped = p["skipped"].as_u64().expect("skipped");
            assert_eq!(
                made + skipped,
                s * attempts_per_step(algorithm),
                "{algorithm} seed {seed}: {p}"
            );
            assert_eq!(p["stale"], 0, "the staleness cap covers a step");
            let score = p["score"].as_f64().expect("score");
            assert!((0.0..=1.5).contains(&score), "{p}");
            match p["reward"].as_f64() {
                None => assert_eq!(s, 0, "only step 0 has no sampled reward"),
                Some(r) => assert!(s > 0 && (0.0..=1.5).contains(&r), "{p}"),
            }
            let wall = p["wall_s"].as_f64().expect("wall");
            assert!(wall >= last_wall);
            last_wall = wall;
        }
        // Every variant starts a seed from the same weights.
        let start = points[0]["score"].as_f64().expect("score");
        let first = *start_scores.entry(seed).or_insert(start);
        assert_eq!(first, start, "seed {seed}: {algorithm} starts elsewhere");
    }
    assert_eq!(start_scores.len() as u64, SEEDS);
    let variants = json["summary"]["variants"].as_array().expect("variants");
    let names: Vec<&str> = variants
        .iter()
        .map(|v| v["algorithm"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["outcome", "process", "agentic"]);
    for v in variants {
        assert_eq!(v["runs"], SEEDS);
        assert_eq!(v["cells"].as_array().expect("cells").len(), 8);
    }
    assert_eq!(
        json["summary"]["differences"]
            .as_array()
            .expect("differences")
            .len(),
        8 * 3
    );

    let md = std::fs::read_to_string(out.join("toy.md")).expect("md");
    for name in names {
        assert!(
            md.contains(&format!("| {name} | {SEEDS} | ")),
            "a row for {name}:\n{md}"
        );
    }
    assert!(md.contains("| final score | agentic − outcome |"), "{md}");
    for f in &files[2..] {
        let svg = std::fs::read_to_string(out.join(f)).expect("svg");
        assert!(svg.starts_with("<svg"), "{f}");
        assert_eq!(
            svg.matches("<polyline").count(),
            3,
            "{f}: a line per variant"
        );
        assert_eq!(
            svg.matches("<polygon").count(),
            3,
            "{f}: a band per variant"
        );
        assert!(md.contains(&format!("]({f})")), "toy.md links {f}");
    }
}

#[test]
fn bad_settings_are_refused_naming_them() {
    let dir = tempfile::tempdir().expect("tmp");
    for (flag, value, named) in [
        ("--seeds", "0", "seeds"),
        ("--threshold", "1.5", "threshold"),
        ("--group-size", "1", "group_size"),
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_trainer"))
            .args(["compare-toy", "--steps", "1", flag, value, "--out"])
            .arg(dir.path().join("bad"))
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(stderr.contains(named), "{flag} {value}: {stderr}");
        assert!(!dir.path().join("bad").exists(), "nothing written");
    }
}
