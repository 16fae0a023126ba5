//! `trainer report`: a training run's before/after comparison from two `trainer eval`
//! files and the run folder, as `report.json`, `report.md` and the learning curves
//! (`learning_curves.svg`, drawn by [`crate::metrics::plot`] from the run's
//! `metrics.jsonl`).
//!
//! The intervals come from [`super::bootstrap::paired`] over the problems both files
//! scored, for every measure of [`super::measure`] that both files hold (pass@1, the
//! fraction of hidden tests passed, the compiled share, pass@k for k = 2, 4, 8 where both
//! have k samples of every problem), over all problems and over the in-family and
//! out-of-family ones apart (`measures` in `report.json`; files written before a problem's
//! family was marked take it from the committed easy split); the run's steps, configuration and seed from its latest checkpoint's
//! `trainer_state.json` (what `trainer train` writes); the training time is the sum of the
//! steps' `wall_s` in `metrics.jsonl`, the evaluation times the eval files' `wall_s`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::bootstrap::{self, Interval, LEVEL};
use super::eval::{EvalReport, ProblemResult, easy_training_families, in_family};
use super::measure::{Measure, ProblemValues};
use crate::{checkpoint, metrics};

/// What `trainer report` was asked.
#[derive(Debug, Clone)]
pub struct ReportArgs {
    /// The run folder of `trainer train`.
    pub run: PathBuf,
    /// `trainer eval` of the starting model.
    pub before: PathBuf,
    /// `trainer eval` of the trained checkpoint.
    pub after: PathBuf,
    /// The folder written.
    pub out: PathBuf,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// The bootstrap's seed (the run's when not given).
    pub seed: Option<u64>,
}

fn read_eval(path: &Path) -> anyhow::Result<EvalReport> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a trainer eval file: {e}", path.display()))
}

/// One problem before and after.
#[derive(Debug)]
struct Pair<'a> {
    before: &'a ProblemResult,
    after: &'a ProblemResult,
}

/// The problems of both files, in the order of `before`; a problem in only one is an
/// error naming it.
fn pair<'a>(
    before: &'a EvalReport,
    after: &'a EvalReport,
    paths: (&Path, &Path),
) -> anyhow::Result<Vec<Pair<'a>>> {
    if let Some(extra) = after
        .problems
        .iter()
        .find(|a| !before.problems.iter().any(|b| b.name == a.name))
    {
        anyhow::bail!(
            "problem {} is in {} but not in {}",
            extra.name,
            paths.1.display(),
            paths.0.display()
        );
    }
    before
        .problems
        .iter()
        .map(|b| {
            let a = after
                .problems
                .iter()
                .find(|a| a.name == b.name)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "problem {} is in {} but not in {}",
                        b.name,
                        paths.0.display(),
                        paths.1.display()
                    )
                })?;
            Ok(Pair {
                before: b,
                after: a,
            })
        })
        .collect()
}

fn side(r: &ProblemResult) -> Value {
    json!({
        "samples": r.samples,
        "passed": r.passed,
        "compiled": r.compiled,
        "samples_passed": r.samples_passed,
        "judge_errors": r.judge_errors,
        "rate": r.rate(),
    })
}

/// Whether `r` of `eval` is in-family: as the file says, or for an older held-out file
/// from the committed easy split's training families.
fn in_family_of(eval: &EvalReport, r: &ProblemResult) -> Option<bool> {
    r.in_family.or_else(|| {
        (eval.split == "held-out")
            .then(|| in_family(r.family.as_deref(), &easy_training_families()))
            .flatten()
    })
}

/// Every measure's paired bootstrap over `pairs` (problems scored on both sides), as
/// `{"problems": n, "pass_at_1": {"before", "after", "difference"}, ...}`; a measure one
/// side lacks for some problem is left out. `None` when `pairs` is empty.
fn compare(
    pairs: &[&Pair<'_>],
    resamples: usize,
    seed: u64,
) -> anyhow::Result<Option<serde_json::Map<String, Value>>> {
    if pairs.is_empty() {
        return Ok(None);
    }
    let before: Vec<ProblemValues> = pairs.iter().map(|p| p.before.values()).collect();
    let after: Vec<ProblemValues> = pairs.iter().map(|p| p.after.values()).collect();
    let mut out = serde_json::Map::new();
    out.insert("problems".to_owned(), json!(pairs.len()));
    for m in Measure::all() {
        let (Some(b), Some(a)) = (
            m.values(&before.iter().collect::<Vec<_>>()),
            m.values(&after.iter().collect::<Vec<_>>()),
        ) else {
            continue;
        };
        let boot = bootstrap::paired(&b, &a, resamples, seed)?;
        out.insert(m.name(), serde_json::to_value(boot)?);
    }
    Ok(Some(out))
}

fn pair_of(i: &Interval) -> [f64; 2] {
    [i.low, i.high]
}

/// Writes `report.json`, `report.md` and `learning_curves.svg` into `args.out` and
/// returns the JSON.
pub fn write(args: &ReportArgs) -> anyhow::Result<Value> {
    let before = read_eval(&args.before)?;
    let after = read_eval(&args.after)?;
    let pairs = pair(&before, &after, (&args.before, &args.after))?;
    let (scored, excluded): (Vec<&Pair<'_>>, Vec<&Pair<'_>>) = pairs
        .iter()
        .partition(|p| p.before.rate().is_some() && p.after.rate().is_some());
    if scored.is_empty() {
        anyhow::bail!(
            "{} and {}: no problem has a scored episode in both",
            args.before.display(),
            args.after.display()
        );
    }
    let rate = |r: &ProblemResult| r.rate().expect("invariant: scored pairs have rates");
    let rates_before: Vec<f64> = scored.iter().map(|p| rate(p.before)).collect();
    let rates_after: Vec<f64> = scored.iter().map(|p| rate(p.after)).collect();
    let checkpoint = checkpoint::latest(&args.run)?.ok_or_else(|| {
        anyhow::anyhow!(
            "--run {}: no checkpoint (no `latest` file): not a trainer train folder",
            args.run.display()
        )
    })?;
    let state = checkpoint::read_state(&checkpoint)?;
    let seed = args.seed.unwrap_or(state.seed);
    let boot = bootstrap::paired(&rates_before, &rates_after, args.resamples, seed)?;
    let family = |p: &&Pair<'_>| {
        // A problem counts in a family group when both files agree on it.
        let (b, a) = (
            in_family_of(&before, p.before),
            in_family_of(&after, p.after),
        );
        (b == a).then_some(b).flatten()
    };
    let group = |want: Option<bool>| {
        let chosen: Vec<&Pair<'_>> = scored
            .iter()
            .copied()
            .filter(|p| want.is_none() || family(p) == want)
            .collect();
        compare(&chosen, args.resamples, seed)
    };
    let measures = json!({
        "overall": group(None)?,
        "in_family": group(Some(true))?,
        "out_of_family": group(Some(false))?,
    });
    let metrics_path = metrics_of(&args.run)?;
    let rows = metrics::read(&metrics_path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", metrics_path.display()))?;
    let training_s: f64 = rows.iter().filter_map(|r| r["wall_s"].as_f64()).sum();
    let config = &state.config;
    // A warm start (`algorithm: sft`) plans its updates from its examples and epochs;
    // each metrics line says how many (`updates_planned`).
    let steps_scheduled = rows
        .iter()
        .rev()
        .find_map(|r| r["updates_planned"].as_u64())
        .or_else(|| config["steps"].as_u64());
    let method = format!(
        "paired bootstrap over {} problems, each problem's rate from its samples; percentile interval; {} resamples; seed {seed}",
        if before.split == "all" {
            "the evaluated"
        } else {
            "held-out"
        },
        args.resamples
    );
    let report = json!({
        "pass_at_1_before": boot.before.estimate,
        "pass_at_1_before_ci95": pair_of(&boot.before),
        "pass_at_1_after": boot.after.estimate,
        "pass_at_1_after_ci95": pair_of(&boot.after),
        "difference": boot.difference.estimate,
        "difference_ci95": pair_of(&boot.difference),
        "method": method,
        "bootstrap": {"resamples": args.resamples, "seed": seed, "level": LEVEL},
        "measures": measures,
        "problems": pairs.iter().map(|p| json!({
            "name": p.before.name,
            "family": p.before.family,
            "before": side(p.before),
            "after": side(p.after),
        })).collect::<Vec<_>>(),
        "problems_scored": scored.len(),
        "problems_excluded": excluded.iter().map(|p| &p.before.name).collect::<Vec<_>>(),
        "steps": state.step,
        "steps_scheduled": steps_scheduled,
        "policy_version": state.version,
        "algorithm": config["algorithm"],
        "config": config,
        "seed": state.seed,
        "base_model": state.base_model,
        "checkpoint": checkpoint,
        "eval": {
            "before": {"model": before.model, "seed": before.seed, "samples_per_problem": before.samples_per_problem, "split": before.split, "sampling": before.sampling, "precision": before.precision, "key": before.key},
            "after": {"model": after.model, "seed": after.seed, "samples_per_problem": after.samples_per_problem, "split": after.split, "sampling": after.sampling, "precision": after.precision, "key": after.key},
        },
        "time": {
            "training_s": training_s,
            "eval_before_s": before.wall_s,
            "eval_after_s": after.wall_s,
            "total_s": training_s + before.wall_s + after.wall_s,
        },
        "run": args.run,
    });
    std::fs::create_dir_all(&args.out)
        .map_err(|e| anyhow::anyhow!("--out {}: {e}", args.out.display()))?;
    metrics::plot(&metrics_path, &args.out.join("learning_curves.svg"))
        .map_err(|e| anyhow::anyhow!("plotting {}: {e}", metrics_path.display()))?;
    let json_path = args.out.join("report.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&report)? + "\n")
        .map_err(|e| anyhow::anyhow!("{}: {e}", json_path.display()))?;
    let md_path = args.out.join("report.md");
    std::fs::write(&md_path, markdown(&report, &boot))
        .map_err(|e| anyhow::anyhow!("{}: {e}", md_path.display()))?;
    Ok(report)
}

/// The table of every measure's before, after and difference with their intervals, by
/// group (empty when the report has no measures).
fn measures_table(measures: &Value) -> String {
    let mut md = String::new();
    let cell = |i: &Value| {
        format!(
            "{:.3} [{:.3}, {:.3}]",
            i["estimate"].as_f64().unwrap_or(f64::NAN),
            i["low"].as_f64().unwrap_or(f64::NAN),
            i["high"].as_f64().unwrap_or(f64::NAN)
        )
    };
    for (group, title) in [
        ("overall", "all problems"),
        ("in_family", "in-family"),
        ("out_of_family", "out-of-family"),
    ] {
        let g = &measures[group];
        if g.is_null() {
            continue;
        }
        if md.is_empty() {
            md.push_str("\n## Measures (95% intervals, paired bootstrap over problems)\n\n");
            md.push_str(
                "| problems | measure | before | after | difference |\n|---|---|---|---|---|\n",
            );
        }
        for m in Measure::all() {
            let p = &g[m.name()];
            if p.is_null() {
                continue;
            }
            let _ = writeln!(
                md,
                "| {title} ({}) | {} | {} | {} | {} |",
                g["problems"],
                m.name(),
                cell(&p["before"]),
                cell(&p["after"]),
                cell(&p["difference"])
            );
        }
    }
    md
}

fn fmt_rate(r: &Value) -> String {
    r["rate"]
        .as_f64()
        .map_or("-".to_owned(), |x| format!("{x:.3}"))
}

/// The report as Markdown (one sentence per line; tables for the figures).
fn markdown(report: &Value, boot: &bootstrap::Paired) -> String {
    let mut md = String::new();
    let row = |name: &str, i: &Interval| {
        format!(
            "| {name} | {:.3} | [{:.3}, {:.3}] |\n",
            i.estimate, i.low, i.high
        )
    };
    let _ = writeln!(md, "# Training report\n");
    let _ = writeln!(
        md,
        "Run `{}`: {} for {} of {} steps (policy version {}), seed {}.",
        report["run"].as_str().unwrap_or_default(),
        report["algorithm"].as_str().unwrap_or("?"),
        report["steps"],
        report["steps_scheduled"],
        report["policy_version"],
        report["seed"]
    );
    let (pb, pa) = (
        report["eval"]["before"]["precision"]
            .as_str()
            .unwrap_or("f32"),
        report["eval"]["after"]["precision"]
            .as_str()
            .unwrap_or("f32"),
    );
    if pb == pa {
        let _ = writeln!(md, "Both evaluations decoded in {pb}.");
    } else {
        let _ = writeln!(
            md,
            "The evaluations decoded in different precisions (before {pb}, after {pa}): the difference mixes training with precision."
        );
    }
    let _ = writeln!(md, "\n## pass@1\n");
    md.push_str("| | estimate | 95% interval |\n|---|---|---|\n");
    md.push_str(&row("before", &boot.before));
    md.push_str(&row("after", &boot.after));
    md.push_str(&row("difference", &boot.difference));
    let _ = writeln!(
        md,
        "\nMethod: {}.",
        report["method"].as_str().unwrap_or_default()
    );
    let excluded: Vec<&str> = report["problems_excluded"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let _ = writeln!(
        md,
        "Problems scored on both sides: {}; left out (no scored episode on a side): {}.",
        report["problems_scored"],
        if excluded.is_empty() {
            "none".to_owned()
        } else {
            excluded.join(", ")
        }
    );
    let eval = &report["eval"];
    for side in ["before", "after"] {
        let e = &eval[side];
        let _ = writeln!(
            md,
            "Evaluation {side}: `{}`, {} samples per problem, seed {}, sampling `{}`{}.",
            e["model"].as_str().unwrap_or_default(),
            e["samples_per_problem"],
            e["seed"],
            e["sampling"],
            e["key"]["id"]
                .as_str()
                .map_or(String::new(), |id| format!(", key `{id}`"))
        );
    }
    md.push_str(&measures_table(&report["measures"]));
    let _ = writeln!(md, "\n## Learning curves\n");
    let _ = writeln!(
        md,
        "![learning curves: one panel per metric against the training step](learning_curves.svg)"
    );
    let _ = writeln!(md, "\n## Problems\n");
    md.push_str("| problem | family | before passed/samples | before | after passed/samples | after |\n|---|---|---|---|---|---|\n");
    for p in report["problems"].as_array().into_iter().flatten() {
        let (b, a) = (&p["before"], &p["after"]);
        let _ = writeln!(
            md,
            "| {} | {} | {}/{} | {} | {}/{} | {} |",
            p["name"].as_str().unwrap_or_default(),
            p["family"].as_str().unwrap_or("-"),
            b["passed"],
            b["samples"],
            fmt_rate(b),
            a["passed"],
            a["samples"],
            fmt_rate(a)
        );
    }
    let t = &report["time"];
    let minutes = |key: &str| t[key].as_f64().unwrap_or(0.0) / 60.0;
    let _ = writeln!(md, "\n## Time\n");
    let _ = writeln!(
        md,
        "Training {:.1} min (the steps' wall time), evaluation before {:.1} min and after {:.1} min, {:.1} min in all.",
        minutes("training_s"),
        minutes("eval_before_s"),
        minutes("eval_after_s"),
        minutes("total_s")
    );
    let _ = writeln!(md, "\n## Configuration\n");
    let yaml = serde_yaml::to_string(&report["config"]).unwrap_or_default();
    let _ = writeln!(md, "```yaml\n{yaml}```");
    md
}

/// The metrics file of a run folder: its own, or for rejection sampling (`algorithm:
/// rft`, whose `latest` names `round-R/checkpoints/...`) the last round's.
fn metrics_of(run: &Path) -> anyhow::Result<PathBuf> {
    let own = run.join("metrics.jsonl");
    if own.exists() || !run.join("rft-rounds.jsonl").exists() {
        return Ok(own);
    }
    let latest = std::fs::read_to_string(run.join("latest"))
        .map_err(|e| anyhow::anyhow!("{}: {e}", run.join("latest").display()))?;
    let round = Path::new(latest.trim())
        .components()
        .next()
        .ok_or_else(|| anyhow::anyhow!("{}: empty", run.join("latest").display()))?;
    Ok(run.join(round).join("metrics.jsonl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_sampling_run_reports_its_last_round_s_metrics() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        assert_eq!(metrics_of(run).unwrap(), run.join("metrics.jsonl"));
        std::fs::write(run.join("rft-rounds.jsonl"), "{}\n").unwrap();
        std::fs::write(run.join("latest"), "round-2/checkpoints/step-000010\n").unwrap();
        assert_eq!(
            metrics_of(run).unwrap(),
            run.join("round-2").join("metrics.jsonl")
        );
        // A run folder with its own metrics keeps them.
        std::fs::write(run.join("metrics.jsonl"), "").unwrap();
        assert_eq!(metrics_of(run).unwrap(), run.join("metrics.jsonl"));
    }

    fn eval(rates: &[(&str, usize, usize)]) -> EvalReport {
        let problems: Vec<ProblemResult> = rates
            .iter()
            .map(|(name, samples, passed)| ProblemResult {
                name: (*name).to_owned(),
                family: Some("math".to_owned()),
                samples: *samples,
                passed: *passed,
                compiled: *samples,
                samples_passed: *passed,
                judge_errors: 0,
                tokens: 5,
                tests_passed: None,
                in_family: None,
                measures: None,
            })
            .collect();
        EvalReport {
            model: PathBuf::from("m"),
            problems_dir: PathBuf::from("p"),
            split: "held-out".to_owned(),
            config: None,
            sampling: json!({}),
            seed: 1,
            samples_per_problem: 2,
            totals: super::super::eval::totals(&problems),
            pass_at_1: super::super::eval::pass_at_1(&problems),
            problems,
            wall_s: 1.0,
            precision: "f32".to_owned(),
            measures: None,
            key: None,
            resumed_episodes: 0,
            reused: Vec::new(),
        }
    }

    #[test]
    fn problems_pair_by_name_and_one_missing_is_named() {
        let a = eval(&[("gcd", 2, 1), ("lcm", 2, 0)]);
        let b = eval(&[("lcm", 2, 2), ("gcd", 2, 0)]);
        let paths = (Path::new("before.json"), Path::new("after.json"));
        let pairs = pair(&a, &b, paths).expect("paired");
        assert_eq!(pairs[1].before.name, "lcm");
        assert_eq!(pairs[1].after.passed, 2);
        let c = eval(&[("gcd", 2, 1)]);
        let err = pair(&a, &c, paths).expect_err("lcm missing").to_string();
        assert!(err.contains("lcm") && err.contains("after.json"), "{err}");
        let err = pair(&c, &a, paths).expect_err("lcm extra").to_string();
        assert!(err.contains("lcm") && err.contains("before.json"), "{err}");
    }

    #[test]
    fn every_measure_is_compared_and_families_come_from_the_file_or_the_easy_split() {
        let mut before = eval(&[("gcd", 8, 1), ("lcm", 8, 0), ("hms", 8, 2)]);
        let mut after = eval(&[("gcd", 8, 3), ("lcm", 8, 1), ("hms", 8, 2)]);
        for (side, tests) in [
            (&mut before, [0.25, 0.0, 0.5]),
            (&mut after, [0.5, 0.25, 0.5]),
        ] {
            for ((p, t), family) in side.problems.iter_mut().zip(tests).zip([true, true, false]) {
                p.tests_passed = Some(t);
                p.in_family = Some(family);
            }
        }
        let paths = (Path::new("before.json"), Path::new("after.json"));
        let pairs = pair(&before, &after, paths).expect("paired");
        let all: Vec<&Pair<'_>> = pairs.iter().collect();
        let m = compare(&all, 1000, 3)
            .expect("bootstrap")
            .expect("problems");
        assert_eq!(m["problems"], 3);
        let names: Vec<String> = Measure::all().iter().map(|m| m.name()).collect();
        assert_eq!(m.keys().filter(|k| *k != "problems").count(), names.len());
        let difference = |name: &str| m[name]["difference"]["estimate"].as_f64().expect(name);
        // pass@1: (2/8 + 1/8 + 0) / 3; tests: (0.25 + 0.25 + 0) / 3; compiled: 0.
        assert!((difference("pass_at_1") - 0.125).abs() < 1e-12, "{m:?}");
        assert!(
            (difference("tests_passed") - 0.5 / 3.0).abs() < 1e-12,
            "{m:?}"
        );
        assert_eq!(difference("compiled"), 0.0);
        let table = measures_table(&json!({"overall": m, "in_family": null}));
        assert!(
            table.contains("| problems | measure | before | after | difference |"),
            "{table}"
        );
        assert!(
            table.contains("| all problems (3) | pass_at_1 | 0.125 ["),
            "{table}"
        );
        assert_eq!(
            table.matches("| all problems (3) |").count(),
            names.len(),
            "{table}"
        );
        assert_eq!(measures_table(&json!(null)), "");
        for name in &names {
            let d = &m[name.as_str()]["difference"];
            let (low, high) = (
                d["low"].as_f64().expect("low"),
                d["high"].as_f64().expect("high"),
            );
            let x = d["estimate"].as_f64().expect("estimate");
            assert!(low <= x + 1e-12 && x <= high + 1e-12, "{name}: {d}");
        }
        // An older file has no tests fraction: that measure is left out.
        before.problems[0].tests_passed = None;
        let pairs = pair(&before, &after, paths).expect("paired");
        let all: Vec<&Pair<'_>> = pairs.iter().collect();
        let m = compare(&all, 1000, 3)
            .expect("bootstrap")
            .expect("problems");
        assert!(!m.contains_key("tests_passed") && m.contains_key("pass_at_8"));
        assert_eq!(compare(&[], 1000, 3).expect("nothing"), None);

        // Families: the file's mark wins; an older held-out file's come from the easy split.
        let split = problems::easy::split().expect("the committed split");
        let trained = split.training[0].family.clone();
        let unseen = split
            .unseen_families()
            .into_iter()
            .next()
            .expect("one")
            .to_owned();
        let mut old = eval(&[("a", 2, 1), ("b", 2, 1)]);
        old.problems[0].family = Some(trained);
        old.problems[1].family = Some(unseen);
        assert_eq!(in_family_of(&old, &old.problems[0]), Some(true));
        assert_eq!(in_family_of(&old, &old.problems[1]), Some(false));
        old.problems[1].in_family = Some(true);
        assert_eq!(in_family_of(&old, &old.problems[1]), Some(true));
        old.split = "all".to_owned();
        assert_eq!(in_family_of(&old, &old.problems[0]), None);
    }

    #[test]
    fn the_committed_evaluations_still_read_and_compare() {
        let benchmarks = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks");
        let read = |name: &str| read_eval(&benchmarks.join(name)).expect("an eval file");
        let before = read("ci-train-1/eval-before.json");
        for after in [
            "ci-train-1/eval-after.json",
            "ci-train-2/agentic/eval-after.json",
            "ci-train-2/outcome/eval-after.json",
            "ci-train-2/process/eval-after.json",
        ] {
            let after = read(after);
            assert!(after.measures.is_none() && after.key.is_none());
            let paths = (Path::new("before.json"), Path::new("after.json"));
            let pairs = pair(&before, &after, paths).expect("the same problems");
            let all: Vec<&Pair<'_>> = pairs.iter().collect();
            let m = compare(&all, 200, 1).expect("bootstrap").expect("problems");
            // Written before the tests fraction: every other measure is compared.
            assert!(!m.contains_key("tests_passed"), "{m:?}");
            assert!(
                m.contains_key("pass_at_8") && m.contains_key("compiled"),
                "{m:?}"
            );
            // Their problems' families split by the easy set's training families.
            let marks: Vec<Option<bool>> = pairs
                .iter()
                .map(|p| in_family_of(&before, p.before))
                .collect();
            assert!(
                marks.contains(&Some(true)) && marks.contains(&Some(false)),
                "{marks:?}"
            );
        }
    }
}
