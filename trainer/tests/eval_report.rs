//! `trainer eval` and `trainer report` end to end, and `trainer train`'s time budget.
//!
//! - `trainer eval` runs the real SmolLM2 (`ARENA_MODEL_DIR`) through the agent and the
//!   bubblewrap sandbox on two easy problems (a `split.yaml` of its own), K = 2 episodes
//!   each with 24-token replies: the JSON's per-problem counts, families, in-family marks,
//!   measures with intervals, totals and pass@1 agree with each other, with the progress
//!   lines and with the per-episode records file.
//! - An interruption, simulated by a records file holding two of the four episodes and a
//!   torn line: `trainer eval` runs only the other two, keeps the two as they were, and
//!   its totals agree with the records. The same evaluation again is taken from the cache
//!   (`--cache`, a folder of the test's own) without running an episode; at another
//!   `--temperature` (greedy) it is not, and a temperature below 0 is refused.
//! - A tiny random model trains under a time budget far below one step: the run stops
//!   after step 1 of 3, says so, and leaves that step's checkpoint (and its held-out
//!   evaluation, `eval_every: 1` with two samples per problem); the checkpoint, its
//!   tokenizer files removed, is evaluated as `--model` (the tokenizer comes from the
//!   run's starting model).
//! - `trainer report` on the two eval files and the run: report.json's figures, intervals
//!   and run facts, report.md with the learning curves' SVG, the same output again.
//!
//! Under `CI=true` a missing model or bubblewrap fails the test.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const HELD_OUT: [(&str, &str); 2] = [("hms", "arithmetic"), ("gcd", "math")];

fn trainer(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_trainer"));
    for a in args {
        cmd.arg(a);
    }
    let res = cmd.output().expect("trainer runs");
    assert!(
        res.status.success(),
        "trainer {:?} failed: {}",
        args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
        String::from_utf8_lossy(&res.stderr)
    );
    res
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A problem folder with a split of its own: `aplusb` trains, [`HELD_OUT`] are held out.
fn problems(root: &Path) -> PathBuf {
    let easy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/easy");
    let dir = root.join("problems");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut split = "training:\n  - {name: aplusb, family: arithmetic}\nheld_out:\n".to_owned();
    for (name, family) in HELD_OUT {
        split.push_str(&format!("  - {{name: {name}, family: {family}}}\n"));
    }
    std::fs::write(dir.join("split.yaml"), split).expect("split");
    for name in ["aplusb", HELD_OUT[0].0, HELD_OUT[1].0] {
        std::os::unix::fs::symlink(easy.join(name), dir.join(name)).expect("symlink");
    }
    dir
}

/// The records file's lines.
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect()
}

/// The eval file's agreement with its records file (every episode once, and the counts).
fn check_records(eval: &Value, records: &[Value], samples: u64) {
    assert_eq!(records.len() as u64, HELD_OUT.len() as u64 * samples);
    for (p, (name, _)) in eval["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .zip(HELD_OUT)
    {
        let mine: Vec<&Value> = records.iter().filter(|r| r["problem"] == name).collect();
        let mut seen: Vec<u64> = mine
            .iter()
            .map(|r| r["sample"].as_u64().expect("sample"))
            .collect();
        seen.sort();
        assert_eq!(seen, (0..samples).collect::<Vec<_>>(), "{name}: {mine:?}");
        let count = |key: &str| mine.iter().filter(|r| r[key] == true).count() as u64;
        assert_eq!(p["passed"], count("solved"), "{name}");
        assert_eq!(p["compiled"], count("compiled"), "{name}");
        assert!(mine.iter().all(|r| r["key"] == eval["key"]["id"]), "{name}");
    }
}

/// The eval file's internal agreement.
fn check_eval(eval: &Value, samples: u64) {
    let problems = eval["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), HELD_OUT.len(), "{eval}");
    let mut rates = Vec::new();
    let (mut passed, mut tokens) = (0, 0);
    for (p, (name, family)) in problems.iter().zip(HELD_OUT) {
        assert_eq!(p["name"], name);
        assert_eq!(p["family"], family);
        let scored = p["samples"].as_u64().expect("samples");
        assert_eq!(
            scored + p["judge_errors"].as_u64().expect("judge errors"),
            samples
        );
        assert!(scored > 0, "{name}: every episode a judge error: {p}");
        let n = p["passed"].as_u64().expect("passed");
        for key in ["passed", "compiled", "samples_passed"] {
            assert!(p[key].as_u64().expect(key) <= scored, "{key}: {p}");
        }
        passed += n;
        tokens += p["tokens"].as_u64().expect("tokens");
        rates.push(n as f64 / scored as f64);
    }
    assert!(tokens > 0, "no reply tokens: {eval}");
    assert_eq!(eval["totals"]["passed"], passed);
    assert_eq!(eval["totals"]["tokens"], tokens);
    let mean = rates.iter().sum::<f64>() / rates.len() as f64;
    let pass = eval["pass_at_1"].as_f64().expect("pass@1");
    assert!((pass - mean).abs() < 1e-12, "{pass} != {mean}");
    assert_eq!(eval["samples_per_problem"], samples);
    assert_eq!(eval["split"], "held-out");
    assert_eq!(eval["sampling"]["sampling"]["max_tokens"], 24);
    assert!(eval["wall_s"].as_f64().expect("wall") > 0.0);

    // hms's family (arithmetic) is trained on (aplusb), gcd's (math) is not.
    assert_eq!(problems[0]["in_family"], true);
    assert_eq!(problems[1]["in_family"], false);
    let within = |i: &Value| {
        let (low, x, high) = (
            i["low"].as_f64().expect("low"),
            i["estimate"].as_f64().expect("estimate"),
            i["high"].as_f64().expect("high"),
        );
        assert!(0.0 <= low && low <= x && x <= high && high <= 1.0, "{i}");
        x
    };
    for p in problems {
        let m = &p["measures"];
        let rate = p["passed"].as_f64().expect("passed") / p["samples"].as_f64().expect("n");
        assert!((within(&m["pass_at_1"]) - rate).abs() < 1e-12, "{p}");
        let tests = within(&m["tests_passed"]);
        assert!((tests - p["tests_passed"].as_f64().expect("tests")).abs() < 1e-12);
        assert!(
            tests >= rate - 1e-12,
            "a solved episode passed every test: {p}"
        );
        within(&m["compiled"]);
        let ks: Vec<&String> = m["pass_at_k"].as_object().expect("pass@k").keys().collect();
        assert_eq!(ks, ["1", "2"], "k up to the samples: {p}");
    }
    let measures = &eval["measures"];
    assert!(
        measures["method"]
            .as_str()
            .expect("method")
            .contains("10000 resamples")
    );
    let overall = &measures["overall"];
    assert_eq!(overall["problems"], 2);
    let pass = eval["pass_at_1"].as_f64().expect("pass@1");
    assert!((within(&overall["pass_at_1"]) - pass).abs() < 1e-12);
    for group in ["in_family", "out_of_family"] {
        assert_eq!(measures[group]["problems"], 1, "{group}");
    }
    let key = &eval["key"];
    assert_eq!(key["id"].as_str().expect("key").len(), 16);
    assert_eq!(
        (&key["samples"], &key["split"]),
        (&Value::from(samples), &Value::from("held-out"))
    );
}

#[test]
fn eval_and_report_on_the_real_model_and_a_budgeted_run() {
    let Some(base) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    if !ci::require::bwrap() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let problems = problems(tmp.path());
    let config = tmp.path().join("eval.yaml");
    std::fs::write(&config, "max_tokens: 24\nmodel_calls: 1\nseed: 5\n").expect("config");

    // Before: the real model.
    let cache = tmp.path().join("cache");
    let eval_base = |out: &Path, cache_args: &[&dyn AsRef<std::ffi::OsStr>]| {
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![
            &"eval",
            &"--model",
            &base,
            &"--problems",
            &problems,
            &"--samples",
            &"2",
            &"--config",
            &config,
            &"--seed",
            &"3",
            &"--out",
        ];
        args.push(&out);
        args.extend_from_slice(cache_args);
        trainer(&args)
    };
    let before = tmp.path().join("before.json");
    let res = eval_base(&before, &[&"--cache", &cache]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        (1..=4).all(|k| stderr.contains(&format!("eval {k}/4 "))),
        "a progress line per episode: {stderr}"
    );
    assert!(stderr.contains("kept in the cache"), "{stderr}");
    let before_json = json(&before);
    check_eval(&before_json, 2);
    let before_records = records(&tmp.path().join("before.episodes.jsonl"));
    check_records(&before_json, &before_records, 2);
    assert_eq!(before_json["seed"], 3);
    assert_eq!(before_json["resumed_episodes"], 0);
    assert_eq!(
        before_json["model"].as_str(),
        Some(base.to_str().expect("utf-8"))
    );

    // An interrupted evaluation: two episodes recorded, a third torn mid-line.
    let resumed = tmp.path().join("resumed.json");
    let resumed_records = tmp.path().join("resumed.episodes.jsonl");
    let mut kept: Vec<String> = before_records[..2].iter().map(Value::to_string).collect();
    kept.push("{\"key\":\"".to_owned());
    std::fs::write(&resumed_records, kept.join("\n")).expect("records");
    let res = eval_base(&resumed, &[&"--no-cache"]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("2 of 4 episodes done, 2 to run (1 unreadable lines dropped)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("eval 3/4 ")
            && stderr.contains("eval 4/4 ")
            && !stderr.contains("eval 2/4 "),
        "only the missing episodes run: {stderr}"
    );
    let resumed_json = json(&resumed);
    check_eval(&resumed_json, 2);
    assert_eq!(resumed_json["resumed_episodes"], 2);
    assert_eq!(
        resumed_json["key"], before_json["key"],
        "the same evaluation"
    );
    let after_resume = records(&resumed_records);
    assert_eq!(
        after_resume[..2],
        before_records[..2],
        "the kept episodes stay"
    );
    check_records(&resumed_json, &after_resume, 2);

    // The same evaluation again: the cache's, no episode run.
    let cached = tmp.path().join("cached.json");
    let res = eval_base(&cached, &[&"--cache", &cache]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("reusing the cached evaluation") && !stderr.contains("eval 1/4 "),
        "{stderr}"
    );
    let cached_json = json(&cached);
    assert_eq!(cached_json["problems"], before_json["problems"]);
    assert_eq!(cached_json["key"], before_json["key"]);

    // Another temperature (--temperature over the configuration's) is another
    // evaluation: not the cache's, and its key and sampling say so.
    let greedy = tmp.path().join("greedy.json");
    let res = eval_base(&greedy, &[&"--cache", &cache, &"--temperature", &"0"]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        !stderr.contains("reusing the cached evaluation") && stderr.contains("eval 4/4 "),
        "{stderr}"
    );
    let greedy_json = json(&greedy);
    check_eval(&greedy_json, 2);
    assert_ne!(greedy_json["key"], before_json["key"]);
    assert_eq!(greedy_json["sampling"]["sampling"]["temperature"], 0.0);
    assert_ne!(before_json["sampling"]["sampling"]["temperature"], 0.0);
    // A temperature below zero is refused before any episode, naming the flag.
    let res = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["eval", "--model"])
        .arg(&base)
        .arg("--problems")
        .arg(&problems)
        .arg("--out")
        .arg(tmp.path().join("refused.json"))
        .arg("--temperature=-1")
        .output()
        .expect("trainer runs");
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        !res.status.success() && stderr.contains("--temperature") && stderr.contains("-1"),
        "{stderr}"
    );
    assert!(!tmp.path().join("refused.episodes.jsonl").exists());

    // A run stopped by its time budget after its first step.
    let tiny = tmp.path().join("tiny");
    support::tiny_model(&base, &tiny, 9, 2048);
    let train_config = tmp.path().join("train.yaml");
    std::fs::write(
        &train_config,
        "group_size: 2\nproblems_per_step: 1\nsteps: 3\nmax_tokens: 16\nmodel_calls: 1\n\
         time_budget_minutes: 0.0001\nseed: 4\neval_every: 1\neval_samples: 2\n",
    )
    .expect("config");
    let run = tmp.path().join("run");
    let res = trainer(&[
        &"train",
        &"--problems",
        &problems,
        &"--model",
        &tiny,
        &"--out",
        &run,
        &"--config",
        &train_config,
    ]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert!(
        stderr.contains("step 1/3") && !stderr.contains("step 2/3"),
        "{stderr}"
    );
    assert!(
        stderr.contains("time budget of 0.0001 min spent")
            && stderr.contains("stopping after step 1 of 3"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&res.stdout).contains("the time budget ran out"));
    assert_eq!(
        std::fs::read_to_string(run.join("latest")).expect("latest"),
        "checkpoints/step-000001\n"
    );
    let checkpoint = run.join("checkpoints/step-000001");
    let state = json(&checkpoint.join("trainer_state.json"));
    assert_eq!(state["step"], 1);
    assert_eq!(state["config"]["steps"], 3, "the schedule keeps its length");
    // The loop's held-out evaluation (the same code as trainer eval) ran after the step.
    let metrics = std::fs::read_to_string(run.join("metrics.jsonl")).expect("metrics");
    let line: Value = serde_json::from_str(metrics.trim()).expect("one line");
    let rate = line["eval_pass_rate"]
        .as_f64()
        .expect("a held-out pass rate");
    assert!((0.0..=1.0).contains(&rate), "{line}");
    assert!(
        run.join("best/model.safetensors").is_file(),
        "the first evaluation is the best"
    );

    // After: the checkpoint, its tokenizer only in the starting model.
    for f in [
        "tokenizer.json",
        "tokenizer_config.json",
        "chat_template.jinja",
    ] {
        let _ = std::fs::remove_file(checkpoint.join(f));
    }
    let after = tmp.path().join("after.json");
    trainer(&[
        &"eval",
        &"--model",
        &checkpoint,
        &"--problems",
        &problems,
        &"--samples",
        &"2",
        &"--config",
        &config,
        &"--out",
        &after,
        &"--seed",
        &"3",
        &"--cache",
        &cache,
    ]);
    let after_json = json(&after);
    check_eval(&after_json, 2);
    assert_ne!(after_json["key"]["model"], before_json["key"]["model"]);

    // The report, twice.
    let report_dir = tmp.path().join("report");
    let report = |out: &Path| {
        trainer(&[
            &"report",
            &"--run",
            &run,
            &"--before",
            &before,
            &"--after",
            &after,
            &"--out",
            &out,
            &"--resamples",
            &"2000",
            &"--seed",
            &"8",
        ])
    };
    let res = report(&report_dir);
    assert!(String::from_utf8_lossy(&res.stdout).contains("pass@1 before"));
    let r = json(&report_dir.join("report.json"));
    let close = |a: &Value, b: &Value| {
        let (a, b) = (a.as_f64().expect("a number"), b.as_f64().expect("a number"));
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    };
    close(&r["pass_at_1_before"], &before_json["pass_at_1"]);
    close(&r["pass_at_1_after"], &after_json["pass_at_1"]);
    let diff = r["pass_at_1_after"].as_f64().expect("after")
        - r["pass_at_1_before"].as_f64().expect("before");
    close(&r["difference"], &Value::from(diff));
    for (key, estimate) in [
        ("pass_at_1_before", "pass_at_1_before"),
        ("pass_at_1_after", "pass_at_1_after"),
        ("difference", "difference"),
    ] {
        let ci = r[format!("{key}_ci95")].as_array().expect("an interval");
        let (low, high) = (ci[0].as_f64().expect("low"), ci[1].as_f64().expect("high"));
        let x = r[estimate].as_f64().expect("estimate");
        assert!(
            low <= x + 1e-12 && x <= high + 1e-12,
            "{key}: {x} outside {ci:?}"
        );
    }
    let method = r["method"].as_str().expect("method");
    assert!(
        method.contains("paired bootstrap")
            && method.contains("2000 resamples")
            && method.contains("seed 8"),
        "{method}"
    );
    assert_eq!(r["problems"].as_array().expect("problems").len(), 2);
    assert_eq!(r["problems"][1]["name"], "gcd");
    assert_eq!(
        r["problems"][1]["before"]["passed"],
        before_json["problems"][1]["passed"]
    );
    assert_eq!(r["steps"], 1);
    assert_eq!(r["steps_scheduled"], 3);
    assert_eq!(r["algorithm"], "agentic");
    assert_eq!(r["seed"], 4);
    assert_eq!(r["config"]["time_budget_minutes"], 0.0001);
    assert!(r["time"]["training_s"].as_f64().expect("training time") > 0.0);
    close(&r["time"]["eval_before_s"], &before_json["wall_s"]);
    // Every measure's paired comparison, overall and by family.
    let measures = &r["measures"];
    for group in ["overall", "in_family", "out_of_family"] {
        let g = &measures[group];
        for m in ["pass_at_1", "tests_passed", "compiled", "pass_at_2"] {
            for side in ["before", "after", "difference"] {
                assert!(g[m][side]["estimate"].is_f64(), "{group} {m} {side}: {g}");
            }
        }
        assert!(g["pass_at_8"].is_null(), "two samples: no pass@8");
    }
    close(
        &measures["overall"]["pass_at_1"]["difference"]["estimate"],
        &r["difference"],
    );
    assert_eq!(r["eval"]["before"]["key"], before_json["key"]);
    let md = std::fs::read_to_string(report_dir.join("report.md")).expect("report.md");
    for needle in [
        "# Training report",
        "| before |",
        "| difference |",
        "](learning_curves.svg)",
        "| gcd | math |",
        "| out-of-family (1) | tests_passed |",
        "time_budget_minutes: 0.0001",
    ] {
        assert!(
            md.contains(needle),
            "{needle} missing from report.md:\n{md}"
        );
    }
    let svg = std::fs::read_to_string(report_dir.join("learning_curves.svg")).expect("the plot");
    assert!(svg.starts_with("<svg") && svg.contains("<circle"), "{svg}");
    let again = tmp.path().join("again");
    report(&again);
    assert_eq!(
        std::fs::read_to_string(again.join("report.json")).expect("again"),
        std::fs::read_to_string(report_dir.join("report.json")).expect("first"),
        "a seed gives the same report"
    );
}
