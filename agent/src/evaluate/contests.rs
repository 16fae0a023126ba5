//! Several contests in one `agent evaluate` (`--contest PACKAGES=STANDINGS[@GROUP]`,
//! repeated): each contest's packages solved into `--out/contest-N/run-K` (or its runs
//! found among `--from`'s folders by their problems), placed among that contest's humans,
//! then summed up across the contests.
//!
//! Per contest: the place range over the runs, the percentile of humans beaten (mean,
//! with its interval over the runs), the problems solved out of those given, the penalty,
//! and where each time limit came from (the contest's `problems.json`, else the package's
//! own, else derived from the package's accepted submissions as `judge serve` does).
//! Across contests, per model: the mean of the contests' mean percentiles (an interval
//! over contests only from [`MIN_CONTESTS_FOR_INTERVAL`] contests on; below that the
//! report says why there is none), and the solves by difficulty band, the band of a
//! problem being the share of the contest's humans who solved it (under 10%, 10 to 50%,
//! over 50%).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use agent::series::Item;
use anyhow::{Context, bail};
use judge::grade::Options;
use judge::sandbox::SandboxConfig;
use problems::TimeLimitSource;
use serde_json::{Value, json};

use super::runs::{self, TimeLimits};
use super::standings::{self, Aligned, Humans};
use super::{EvaluateArgs, placing, render};

/// Fewer contests than this give no interval across contests: the spread of so few
/// percentiles says little about the next contest.
pub(super) const MIN_CONTESTS_FOR_INTERVAL: usize = 5;

/// One `--contest` value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Spec {
    packages: PathBuf,
    standings: PathBuf,
    group: Option<String>,
}

/// Parses `PACKAGES=STANDINGS[@GROUP]`.
pub(super) fn parse(text: &str) -> anyhow::Result<Spec> {
    let (packages, rest) = text
        .split_once('=')
        .with_context(|| format!("--contest {text}: expected PACKAGES=STANDINGS[@GROUP]"))?;
    let (standings, group) = match rest.rsplit_once('@') {
        Some((s, g)) if !g.is_empty() && !g.contains('/') => (s, Some(g.to_owned())),
        _ => (rest, None),
    };
    if packages.is_empty() || standings.is_empty() {
        bail!("--contest {text}: expected PACKAGES=STANDINGS[@GROUP]");
    }
    Ok(Spec {
        packages: PathBuf::from(packages),
        standings: PathBuf::from(standings),
        group,
    })
}

/// The difficulty band of a problem solved by `share` of the humans.
pub(super) fn band(share: f64) -> &'static str {
    if share < 0.1 {
        "under 10%"
    } else if share <= 0.5 {
        "10 to 50%"
    } else {
        "over 50%"
    }
}

const BANDS: [&str; 3] = ["under 10%", "10 to 50%", "over 50%"];

/// Runs the evaluation of every `--contest` and writes the one report.
pub(super) async fn evaluate(args: &EvaluateArgs) -> anyhow::Result<()> {
    let specs: Vec<Spec> = args
        .contests
        .iter()
        .map(|c| parse(c))
        .collect::<anyhow::Result<_>>()?;
    let mut sections = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let what = format!("--contest {}", args.contests[i]);
        let section = one(args, spec, i + 1).await.with_context(|| what.clone())?;
        sections.push(section);
    }
    let summary = across(&sections);
    let report = json!({
        "contests": sections,
        "across_contests": summary,
        "interval": "per contest: mean over runs with a 95% normal-approximation interval (mean +- 1.96 sd/sqrt(n)); none for one run",
    });
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(
        args.out.join("evaluation.json"),
        serde_json::to_string_pretty(&report)? + "\n",
    )?;
    let md = markdown(&report);
    std::fs::write(args.out.join("evaluation.md"), &md)?;
    print!("{md}");
    Ok(())
}

/// One contest: its standings, its runs, their placing, as the report's object.
async fn one(args: &EvaluateArgs, spec: &Spec, index: usize) -> anyhow::Result<Value> {
    let standings::Standings {
        humans,
        problems,
        contest,
    } = standings::read_path(&spec.standings, spec.group.as_deref())?;
    let dirs = runs::package_dirs(std::slice::from_ref(&spec.packages))?;
    let items: Vec<Item> = dirs.iter().cloned().map(Item::load).collect();
    let named: Vec<(String, String)> = items
        .iter()
        .map(|i| {
            let name = i
                .task
                .as_ref()
                .map_or_else(|_| i.id.clone(), |t| t.name.clone());
            (i.id.clone(), name)
        })
        .collect();
    // A `--match` label of this contest's packages must be a label of its problems.json.
    if let Humans::Package(package, _) = &humans {
        for m in &args.matches {
            if let Some((pkg, label)) = m.split_once('=')
                && named.iter().any(|(id, _)| id == pkg)
            {
                package
                    .problem_index(label)
                    .with_context(|| format!("--match {m}"))?;
            }
        }
    }
    let order = standings::match_problems(&named, &problems, &args.matches)?;
    // Time limits: the contest's where its problems.json gives them, else the package's
    // own, else derived from the package's accepted submissions as `judge serve` does.
    let mut limits = TimeLimits::new();
    let mut limit_notes = Vec::new();
    let mut sandbox: Option<SandboxConfig> = None;
    for ((item, (id, _)), &k) in items.iter().zip(&named).zip(&order) {
        let given = match &humans {
            Humans::Package(p, _) => p.problems[k].time_limit,
            _ => None,
        };
        let own = item.task.as_ref().ok().and_then(|t| t.package.as_ref());
        let note = if let Some(limit) = given {
            let d = std::time::Duration::from_millis(limit.millis());
            limits.insert(id.clone(), d);
            json!({"problem": id, "label": problems[k].1, "time_limit_s": d.as_secs_f64(),
                   "source": "the contest's problems.json"})
        } else if let Some(problem) =
            own.filter(|p| p.limits.time_source == TimeLimitSource::Default)
        {
            let (limit, source) = derive_limit(args, problem, &mut sandbox).await?;
            if let Some(d) = limit {
                limits.insert(id.clone(), d);
            }
            json!({"problem": id, "label": problems[k].1,
                   "time_limit_s": limit.unwrap_or(problem.limits.time).as_secs_f64(),
                   "source": source})
        } else {
            json!({"problem": id, "label": problems[k].1,
                   "time_limit_s": own.map(|p| p.limits.time.as_secs_f64()),
                   "source": own.map_or_else(
                       || "unknown (the package does not load)".to_owned(),
                       |p| format!("the package ({})", p.limits.time_source))})
        };
        limit_notes.push(note);
    }
    let root = args.out.join(format!("contest-{index}"));
    let from = runs_of(&args.from, &named)?;
    if !args.from.is_empty() && from.is_empty() {
        bail!(
            "none of the --from folders holds this contest's problems ({})",
            named
                .iter()
                .map(|n| n.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let work = if from.is_empty() {
        dirs.clone()
    } else {
        Vec::new()
    };
    let runs = runs::gather_in(args, &work, &root, &from, &limits).await?;
    let first = &runs[0];
    let packages = runs::package_names(first);
    let aligned = standings::align(humans, &problems, &packages, &args.matches)?;
    let shares = solved_shares(&aligned)?;
    let per_run = placing::each_run(args, &contest, &aligned, &runs)?;
    let table = placing::across_models(&per_run, contest.rule);
    // Per model: the solves of each band, mean over its runs.
    let mut bands: BTreeMap<String, BTreeMap<&str, (usize, f64)>> = BTreeMap::new();
    let mut runs_of_model: BTreeMap<String, usize> = BTreeMap::new();
    for r in &per_run {
        *runs_of_model
            .entry(r["model"].as_str().unwrap_or_default().to_owned())
            .or_default() += 1;
    }
    for r in &per_run {
        let model = r["model"].as_str().unwrap_or_default().to_owned();
        let n = runs_of_model[&model] as f64;
        let entry = bands.entry(model).or_default();
        for (k, share) in shares.iter().enumerate() {
            let slot = entry.entry(band(*share)).or_insert((0, 0.0));
            if r["results"][k]["solved"].as_bool() == Some(true) {
                slot.1 += 1.0 / n;
            }
        }
    }
    let mut given_by_band: BTreeMap<&str, usize> = BTreeMap::new();
    for share in &shares {
        *given_by_band.entry(band(*share)).or_default() += 1;
    }
    let humans_count = per_run
        .first()
        .and_then(|r| r["placement"]["humans"].as_u64())
        .unwrap_or(0);
    let labels: Vec<&str> = {
        let mut keep = order.clone();
        keep.sort_unstable();
        keep.iter().map(|&i| problems[i].1.as_str()).collect()
    };
    Ok(json!({
        "contest": index,
        "standings": contest.source,
        "packages": spec.packages,
        "group": spec.group,
        "rule": contest.rule,
        "contest_minutes": contest.minutes,
        "humans": humans_count,
        "problems_given": packages.len(),
        "labels": labels,
        "solved_share": shares,
        "restriction": aligned.restriction,
        "time_limits": limit_notes,
        "policies": render::policies_json(args, &contest),
        "models": table,
        "bands": bands.iter().map(|(m, b)| (m.clone(), BANDS.iter().map(|name| {
            let solved = b.get(name).map_or(0.0, |s| s.1);
            json!({"band": name, "given": given_by_band.get(name).copied().unwrap_or(0), "solved_mean": solved})
        }).collect::<Vec<_>>())).collect::<BTreeMap<_, _>>(),
        "runs": per_run,
    }))
}

/// The time limit of a package that gives none (neither `problems.json` nor the package),
/// derived as `judge serve` derives it ([`judge::timelimit::resolve`], through the judge's
/// shared cache of derived limits), with its source for the report. The derivation runs
/// the package's `.py` submissions as the package's one Python
/// ([`judge::lang::python_for`]: PyPy for a legacy package), and the model's Python runs
/// as that interpreter too ([`agent::local::WorkbenchRunner::with_package_python`]).
/// When nothing can be derived, the package's default stays and the source says why.
/// `sandbox` is discovered at the first derivation and kept for the contest's others.
async fn derive_limit(
    args: &EvaluateArgs,
    problem: &problems::Problem,
    sandbox: &mut Option<SandboxConfig>,
) -> anyhow::Result<(Option<Duration>, String)> {
    let mut problem = problem.clone();
    let python = judge::lang::python_for(&problem.root, None)?;
    let config = match sandbox {
        Some(config) => config,
        None => sandbox.insert(SandboxConfig::discover().context("sandbox")?),
    };
    let options = Options {
        backend: args.backend,
        run_all: false,
        cache_dir: Some(judge::compile_cache_dir()),
    };
    let cache = judge::timelimit::default_cache();
    let default = problem.limits.time.as_secs_f64();
    eprintln!(
        "agent evaluate: {} gives no time limit; deriving it from its accepted submissions",
        problem.root.display()
    );
    match judge::timelimit::resolve(&mut problem, config, &options, Some(&cache), python).await {
        Ok(p) => match (&p.derivation, &p.not_derived) {
            (Some(d), _) => Ok((
                Some(problem.limits.time),
                format!(
                    "derived from the package's accepted submissions, as `judge serve` does: \
                     {} x the slowest ({} ms, {}), Python as {}{}",
                    d.ac_to_time_limit,
                    d.slowest_ms.round(),
                    d.slowest.display(),
                    d.python,
                    if p.cached {
                        "; from the judge's cache"
                    } else {
                        ""
                    }
                ),
            )),
            (None, why) => Ok((
                None,
                format!(
                    "the package's default of {default} s (not derived: {})",
                    why.as_deref().unwrap_or("no reason given")
                ),
            )),
        },
        Err(err) => Ok((
            None,
            format!(
                "the package's default of {default} s (not derived: the judge failed while \
                 measuring: {err})"
            ),
        )),
    }
}

/// The `--from` folders whose problems are this contest's packages (as a set).
fn runs_of(from: &[PathBuf], named: &[(String, String)]) -> anyhow::Result<Vec<PathBuf>> {
    let mut want: Vec<&str> = named.iter().map(|n| n.0.as_str()).collect();
    want.sort_unstable();
    let mut out = Vec::new();
    for dir in from {
        let mut ids = runs::run_problem_ids(dir)?;
        ids.sort_unstable();
        if ids == want {
            out.push(dir.clone());
        }
    }
    Ok(out)
}

/// The share of the humans who solved each problem of the aligned standings, in their
/// order.
fn solved_shares(aligned: &Aligned) -> anyhow::Result<Vec<f64>> {
    let (solvers, humans) = match &aligned.humans {
        Humans::Board(board) => (board.solvers(), board.rows.len()),
        Humans::Feed(feed) => {
            let board = feed.board(false)?;
            let solvers = (0..aligned.count)
                .map(|k| {
                    board
                        .rows
                        .iter()
                        .filter(|r| r.problems.get(k).is_some_and(|c| c.solved))
                        .count()
                })
                .collect();
            (solvers, board.rows.len())
        }
        Humans::Codeforces(_) | Humans::Package(..) => {
            bail!("a contest's standings are a contest package or an event feed")
        }
    };
    Ok(solvers
        .iter()
        .map(|&s| s as f64 / humans.max(1) as f64)
        .collect())
}

/// Across contests, per model: the mean percentile (an interval only from
/// [`MIN_CONTESTS_FOR_INTERVAL`] contests on) and the solves by band.
fn across(sections: &[Value]) -> Value {
    let mut pct: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut bands: BTreeMap<String, BTreeMap<String, (f64, f64)>> = BTreeMap::new();
    for s in sections {
        for m in s["models"].as_array().into_iter().flatten() {
            let model = m["model"].as_str().unwrap_or_default().to_owned();
            if let Some(p) = m["percentile_mean"].as_f64() {
                pct.entry(model).or_default().push(p);
            }
        }
        for (model, list) in s["bands"].as_object().into_iter().flatten() {
            for b in list.as_array().into_iter().flatten() {
                let slot = bands
                    .entry(model.clone())
                    .or_default()
                    .entry(b["band"].as_str().unwrap_or_default().to_owned())
                    .or_default();
                slot.0 += b["given"].as_f64().unwrap_or(0.0);
                slot.1 += b["solved_mean"].as_f64().unwrap_or(0.0);
            }
        }
    }
    let n = sections.len();
    let models: Vec<Value> = pct
        .iter()
        .map(|(model, values)| {
            let (mean, iv) = placing::interval(values);
            let interval = (values.len() >= MIN_CONTESTS_FOR_INTERVAL).then_some(iv).flatten();
            json!({
                "model": model,
                "contests": values.len(),
                "percentile_mean": mean,
                "percentile_interval": interval,
                "bands": BANDS.iter().map(|name| {
                    let (given, solved) = bands.get(model).and_then(|b| b.get(*name)).copied().unwrap_or_default();
                    json!({"band": name, "given": given as u64, "solved_mean": solved})
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    let why = (n < MIN_CONTESTS_FOR_INTERVAL).then(|| {
        format!(
            "no interval across contests: {n} contest(s), and an interval over contests needs at \
             least {MIN_CONTESTS_FOR_INTERVAL} (the spread of fewer percentiles says little about \
             the next contest); the intervals shown are over runs within each contest only"
        )
    });
    json!({
        "contests": n,
        "models": models,
        "interval": why.unwrap_or_else(|| "mean of the contests' mean percentiles with a 95% normal-approximation interval over the contests".to_owned()),
        "band": "a problem's band is the share of the contest's humans who solved it: under 10%, 10 to 50%, over 50%",
    })
}

fn num(v: &Value) -> String {
    v.as_f64()
        .map_or_else(|| "-".to_owned(), |x| format!("{x:.1}"))
}

fn with_interval(mean: &Value, iv: &Value) -> String {
    match iv.as_array() {
        Some(b) if b.len() == 2 => format!("{} [{}, {}]", num(mean), num(&b[0]), num(&b[1])),
        _ => num(mean),
    }
}

/// `evaluation.md`: one table of the contests, the summary across them, then each
/// contest's restriction, time limits and policies.
fn markdown(report: &Value) -> String {
    let mut md = String::from(
        "# Evaluation against human standings in several contests\n\n\
         | contest | model | runs | humans | place (best-worst, of humans and the model) | percentile of humans beaten | solved of given | penalty |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    let sections = report["contests"].as_array().cloned().unwrap_or_default();
    for s in &sections {
        for m in s["models"].as_array().into_iter().flatten() {
            md.push_str(&format!(
                "| {} | {} | {} | {} | {}-{} of {} | {} | {} of {} | {} |\n",
                s["contest"],
                m["model"].as_str().unwrap_or_default(),
                m["runs"],
                s["humans"],
                m["rank_best"],
                m["rank_worst"],
                s["humans"].as_u64().unwrap_or(0) + 1,
                with_interval(&m["percentile_mean"], &m["percentile_interval"]),
                with_interval(&m["solved_mean"], &m["solved_interval"]),
                s["problems_given"],
                num(&m["penalty_mean"]),
            ));
        }
    }
    let across = &report["across_contests"];
    md.push_str("\n## Across contests\n\n");
    for m in across["models"].as_array().into_iter().flatten() {
        md.push_str(&format!(
            "- {}: mean percentile {} over {} contest(s); solves by band (share of humans who solved the problem): {}.\n",
            m["model"].as_str().unwrap_or_default(),
            with_interval(&m["percentile_mean"], &m["percentile_interval"]),
            m["contests"],
            m["bands"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| format!(
                    "{} {} of {}",
                    b["band"].as_str().unwrap_or_default(),
                    num(&b["solved_mean"]),
                    b["given"]
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    md.push_str(&format!(
        "\nIntervals: {}.\n",
        across["interval"].as_str().unwrap_or_default()
    ));
    for s in &sections {
        md.push_str(&format!(
            "\n## Contest {}\n\nStandings: {}; rule {}; {} minutes.\n\n",
            s["contest"],
            s["standings"].as_str().unwrap_or_default(),
            s["rule"],
            s["contest_minutes"]
        ));
        if let Some(r) = s["restriction"].as_str() {
            md.push_str(&format!("Restriction: {r}.\n\n"));
        }
        let limits: Vec<String> = s["time_limits"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| {
                format!(
                    "{} {} s ({})",
                    l["label"].as_str().unwrap_or_default(),
                    num(&l["time_limit_s"]),
                    l["source"].as_str().unwrap_or_default()
                )
            })
            .collect();
        md.push_str(&format!("Time limits: {}.\n\n", limits.join("; ")));
        let p = &s["policies"];
        md.push_str(&format!(
            "Timing policy: {}.\n\nAttempt policy: {}.\n\nTie policy: {}.\n\nContamination: {}.\n",
            p["timing_policy"].as_str().unwrap_or_default(),
            p["attempt_policy"].as_str().unwrap_or_default(),
            p["tie_policy"].as_str().unwrap_or_default(),
            p["contamination"].as_str().unwrap_or_default(),
        ));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contest_spec_splits_into_packages_standings_and_group() {
        let s = parse("data/nwerc=clics/nwerc-2023@contestants").expect("parses");
        assert_eq!(s.packages, PathBuf::from("data/nwerc"));
        assert_eq!(s.standings, PathBuf::from("clics/nwerc-2023"));
        assert_eq!(s.group.as_deref(), Some("contestants"));
        let s = parse("p=feed.ndjson").expect("no group");
        assert_eq!(s.group, None);
        assert!(parse("p").is_err());
        assert!(parse("=x").is_err());
    }

    #[test]
    fn bands_split_at_ten_and_fifty_percent() {
        assert_eq!(band(0.0), "under 10%");
        assert_eq!(band(0.099), "under 10%");
        assert_eq!(band(0.1), "10 to 50%");
        assert_eq!(band(0.5), "10 to 50%");
        assert_eq!(band(0.51), "over 50%");
    }

    #[test]
    fn fewer_than_five_contests_give_no_interval_across_and_say_why() {
        let section = |pct: f64| {
            json!({"models": [{"model": "m", "percentile_mean": pct}],
                   "bands": {"m": [{"band": "under 10%", "given": 1, "solved_mean": 0.5},
                                   {"band": "over 50%", "given": 2, "solved_mean": 2.0}]}})
        };
        let two = across(&[section(40.0), section(60.0)]);
        assert_eq!(two["models"][0]["percentile_mean"], 50.0);
        assert!(two["models"][0]["percentile_interval"].is_null());
        assert!(
            two["interval"]
                .as_str()
                .is_some_and(|t| t.contains("2 contest(s)")),
            "{}",
            two["interval"]
        );
        let bands = &two["models"][0]["bands"];
        assert_eq!(bands[0]["given"], 2);
        assert_eq!(bands[0]["solved_mean"], 1.0);
        assert_eq!(bands[2]["solved_mean"], 4.0);
        let five: Vec<Value> = [10.0, 20.0, 30.0, 40.0, 50.0].map(section).to_vec();
        let five = across(&five);
        assert!(five["models"][0]["percentile_interval"].is_array());
    }
}
