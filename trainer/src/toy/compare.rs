//! Outcome-only, process-reward and Agentic GRPO against each other on the toy task
//! (`trainer compare-toy`): every variant runs every seed on the same budget (the same
//! episodes per step, the same steps, the same starting weights and settings per seed),
//! and each step records the exact expected reward, the mean sampled reward, the wall time
//! of training (sampling and updates; the exact score is not counted), the judge calls and
//! the updates.
//!
//! The three variants use the settings and the update schedule of `trainer train`
//! ([`TrainConfig`]'s step, optimizer and schedule settings; [`schedule::plan`] decides
//! every update and [`step::update`] makes it), with a training step of [`PROBLEMS`]
//! groups (one per problem) of `group_size` episodes:
//! - [`Algorithm::Outcome`]: both turns are played, then one update per group, every
//!   turn's tokens with the episode's leave-one-out final verdict.
//! - [`Algorithm::Process`]: both turns are played, then one update per group with the
//!   return-to-go advantages (stage levels and the verdict).
//! - [`Algorithm::Agentic`]: turn 1 of every group, then each group's provisional update
//!   of turn 1 from its stage levels; turn 2 by the updated policy; then each group's
//!   provisional update of turn 2 and, with the verdicts, its correction (one update, each
//!   turn's rows under that turn's provisional normalizer).
//!
//! The environment answers two judge calls per episode in every variant: the stage check
//! after turn 1 (its reply is turn 2's observation) and the final verdict. What differs is
//! what the learner uses, and when.

use std::path::Path;
use std::time::Instant;

use leaderboard::numeric::{Welch, spread, welch};
use serde::{Deserialize, Serialize};

use super::{
    Episode, MAX_SCORE, PROBLEMS, TURNS, first_turns, play, score, second_turns, tiny_model,
};
use crate::grpo::GrpoError;
use crate::grpo::loss::Normalizer;
use crate::grpo::schedule::{self, Done, Ending, GroupEvents, Plan, Rule, Settings, TurnEvent};
use crate::grpo::step::{self, Rollout, StepConfig};
use crate::metrics::{Band, BandPoint, render_bands};
use crate::model::Model;
use crate::optim::AdamW;
use crate::train::{Algorithm, TrainConfig};

/// The variants, in table order.
pub const ALGORITHMS: [Algorithm; 3] = [Algorithm::Outcome, Algorithm::Process, Algorithm::Agentic];

/// What a comparison runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareConfig {
    /// Seeds per variant.
    pub seeds: u64,
    /// The first seed (the others follow it).
    pub first_seed: u64,
    /// Training steps per run.
    pub steps: usize,
    /// Episodes per problem and step (G).
    pub group_size: usize,
    /// The peak learning rate (the other settings are `trainer train`'s defaults).
    pub lr: f64,
    /// Agentic: corrections older than this many updates are dropped.
    pub staleness_cap: u64,
    /// The score to reach, as a fraction of [`MAX_SCORE`].
    pub threshold: f64,
    /// The matrix products' format: `f32` (the default: the toy's matrices are too
    /// small for bf16 to pay) or `bf16` (`crate::precision`).
    #[serde(default = "f32_name")]
    pub precision: String,
}

fn f32_name() -> String {
    "f32".to_owned()
}

impl CompareConfig {
    /// The `trainer train` settings of `algorithm` in this comparison.
    pub fn train_config(&self, algorithm: Algorithm) -> TrainConfig {
        TrainConfig {
            algorithm,
            group_size: self.group_size,
            problems_per_step: PROBLEMS as usize,
            steps: self.steps as u64,
            lr: self.lr,
            staleness_cap: self.staleness_cap,
            micro_batch: 64,
            ..TrainConfig::default()
        }
    }

    /// Judge calls per step: a stage check and a verdict per episode.
    pub fn judge_calls_per_step(&self) -> u64 {
        (TURNS * self.group_size * PROBLEMS as usize) as u64
    }

    fn validate(&self) -> Result<(), GrpoError> {
        let bad = |name, message: &str| {
            Err(GrpoError::Setting {
                name,
                message: message.to_owned(),
            })
        };
        if self.seeds == 0 {
            return bad("seeds", "must be at least 1");
        }
        if self.steps == 0 {
            return bad("steps", "must be at least 1");
        }
        if self.threshold.is_nan() || self.threshold <= 0.0 || self.threshold > 1.0 {
            return bad("threshold", "must be a fraction in (0, 1]");
        }
        if !["f32", "bf16", "f16"].contains(&self.precision.as_str()) {
            return bad("precision", "must be f32, bf16 or f16");
        }
        self.train_config(Algorithm::Agentic)
            .validate()
            .map_err(|e| GrpoError::Setting {
                name: "settings",
                message: e.to_string(),
            })
    }
}

/// The state of a run after a step (the counts and the time are totals since the start).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Steps done (0: before training).
    pub step: usize,
    /// The exact expected reward.
    pub score: f64,
    /// The mean reward of the step's sampled episodes (`None` at step 0).
    pub reward: Option<f64>,
    /// Seconds of training.
    pub wall_s: f64,
    /// Environment checks asked: stage checks and final verdicts.
    pub judge_calls: u64,
    /// Optimizer updates made.
    pub updates: u64,
    /// Updates skipped because every advantage was 0 (`drop_uniform`).
    pub skipped: u64,
    /// Agentic corrections dropped as older than the staleness cap.
    pub stale: u64,
}

impl Point {
    /// Step 0: the score before training, nothing spent.
    pub fn start(score: f64) -> Point {
        Point {
            step: 0,
            score,
            reward: None,
            wall_s: 0.0,
            judge_calls: 0,
            updates: 0,
            skipped: 0,
            stale: 0,
        }
    }
}

/// One run: a variant and a seed, a point per step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// The variant.
    pub algorithm: Algorithm,
    /// The seed.
    pub seed: u64,
    /// Step 0, then one per step.
    pub points: Vec<Point>,
}

/// The policy and its optimizer, with the counts of a run.
struct Learner {
    model: Model,
    optimizer: AdamW,
    schedule: Settings,
    step: StepConfig,
    updates: u64,
    skipped: u64,
    stale: u64,
}

impl Learner {
    fn version(&self) -> u64 {
        self.optimizer.steps()
    }

    /// Makes every update the schedule plans for a group after its latest events, each
    /// pick as its episode's turn row ([`Episode::turn_row`]).
    fn advance(
        &mut self,
        group: &[Episode],
        events: &GroupEvents,
        done: &mut Done,
    ) -> Result<(), GrpoError> {
        loop {
            let Plan {
                updates,
                done: next,
                stale,
                skipped_uniform,
                ..
            } = schedule::plan(events, done, &self.schedule, self.version())?;
            *done = next;
            self.stale += stale as u64;
            self.skipped += skipped_uniform as u64;
            if updates.is_empty() {
                return Ok(());
            }
            for u in &updates {
                let batches: Vec<(Vec<Rollout>, Normalizer)> = u
                    .parts
                    .iter()
                    .map(|p| {
                        let rows = p
                            .picks
                            .iter()
                            .map(|k| group[k.episode].turn_row(k.turn, k.advantage))
                            .collect();
                        (rows, p.normalizer)
                    })
                    .collect();
                step::update(&self.model, None, &mut self.optimizer, &batches, &self.step)?;
                self.updates += 1;
            }
        }
    }
}

/// Turn `turn` of every episode of a group, generated by policy `version`.
fn record_turn(events: &mut GroupEvents, group: &[Episode], version: u64) -> Result<(), GrpoError> {
    for (i, e) in group.iter().enumerate() {
        events.turn(
            i,
            TurnEvent {
                level: e.stage(),
                version,
                action_tokens: 1,
            },
        )?;
    }
    Ok(())
}

fn record_verdicts(events: &mut GroupEvents, group: &[Episode]) -> Result<(), GrpoError> {
    for (i, e) in group.iter().enumerate() {
        events.end(i, Ending::Verdict(e.verdict()))?;
    }
    Ok(())
}

fn mean_reward(groups: &[Vec<Episode>]) -> f64 {
    let all: Vec<f64> = groups.iter().flatten().map(Episode::reward).collect();
    all.iter().sum::<f64>() / all.len().max(1) as f64
}

/// Outcome and process: both turns of every group are played, then each group's events
/// go to the schedule at once (its one update).
fn whole_episodes_step(learner: &mut Learner, group: usize) -> Result<f64, GrpoError> {
    let version = learner.version();
    let groups = play(&learner.model, group);
    for g in &groups {
        let mut events = GroupEvents::new(group);
        for _ in 0..TURNS {
            record_turn(&mut events, g, version)?;
        }
        record_verdicts(&mut events, g)?;
        learner.advance(g, &events, &mut Done::default())?;
    }
    Ok(mean_reward(&groups))
}

/// Agentic: turn 1 of every group, then each group's schedule (turn 1's provisional
/// update); turn 2 by the updated policy, then each group's schedule as turn 2 arrives
/// (its provisional update) and as the verdicts do (the corrections).
fn agentic_step(learner: &mut Learner, group: usize) -> Result<f64, GrpoError> {
    let version = learner.version();
    let mut groups = first_turns(&learner.model, group);
    let mut states = Vec::with_capacity(groups.len());
    for g in &groups {
        let mut events = GroupEvents::new(group);
        let mut done = Done::default();
        record_turn(&mut events, g, version)?;
        learner.advance(g, &events, &mut done)?;
        states.push((events, done));
    }
    second_turns(&learner.model, &mut groups);
    let version = learner.version();
    for (g, (events, done)) in groups.iter().zip(&mut states) {
        record_turn(events, g, version)?;
        learner.advance(g, events, done)?;
        record_verdicts(events, g)?;
        learner.advance(g, events, done)?;
    }
    Ok(mean_reward(&groups))
}

/// One run of `algorithm` from seed `seed`: the starting weights come from the seed (the
/// same for every variant), then the sampler's generator is seeded from it.
pub fn run_one(
    config: &CompareConfig,
    algorithm: Algorithm,
    seed: u64,
) -> Result<Curve, GrpoError> {
    config.validate()?;
    let train = config.train_config(algorithm);
    let mut model = tiny_model(seed as i64);
    model.set_compute(match config.precision.as_str() {
        "bf16" => tch::Kind::BFloat16,
        "f16" => tch::Kind::Half,
        _ => tch::Kind::Float,
    });
    let optimizer = AdamW::new(
        &model.vs,
        train.optim(train.steps * train.updates_per_step(TURNS) as u64),
    )?;
    let mut learner = Learner {
        schedule: train.schedule(TURNS).map_err(|e| GrpoError::Setting {
            name: "algorithm",
            message: e.to_string(),
        })?,
        step: train.step(),
        model,
        optimizer,
        updates: 0,
        skipped: 0,
        stale: 0,
    };
    // The sampler's generator from a mix of the seed (splitmix64, kept non-negative).
    tch::manual_seed((crate::rng::mix(seed) >> 1) as i64);
    let mut points = vec![Point::start(score(&learner.model))];
    let mut wall_s = 0.0;
    for step in 1..=config.steps {
        let began = Instant::now();
        let reward = match learner.schedule.rule {
            Rule::Agentic => agentic_step(&mut learner, config.group_size)?,
            Rule::Outcome(_) | Rule::Process => {
                whole_episodes_step(&mut learner, config.group_size)?
            }
        };
        wall_s += began.elapsed().as_secs_f64();
        points.push(Point {
            step,
            score: score(&learner.model),
            reward: Some(reward),
            wall_s,
            judge_calls: step as u64 * config.judge_calls_per_step(),
            updates: learner.updates,
            skipped: learner.skipped,
            stale: learner.stale,
        });
    }
    Ok(Curve {
        algorithm,
        seed,
        points,
    })
}

/// Every variant on every seed (seed by seed, the variants in turn, so a change of the
/// machine's load falls on all of them); `progress` sees each run as it ends.
pub fn run(
    config: &CompareConfig,
    mut progress: impl FnMut(&Curve),
) -> Result<Vec<Curve>, GrpoError> {
    config.validate()?;
    let mut curves = Vec::new();
    for seed in config.first_seed..config.first_seed + config.seeds {
        for algorithm in ALGORITHMS {
            let curve = run_one(config, algorithm, seed)?;
            progress(&curve);
            curves.push(curve);
        }
    }
    Ok(curves)
}

/// The figures of one run that the table compares.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunFigures {
    /// The score after the last step.
    pub final_score: f64,
    /// The area under the score curve over the steps, divided by the steps (the mean of
    /// the trapezoids: 1.5 would be the best score from the start).
    pub auc: f64,
    /// The mean sampled reward of the last 5 steps (or fewer when the run is shorter).
    pub final_reward: f64,
    /// The first step at which the score reached the threshold.
    pub steps_to_threshold: Option<f64>,
    /// The judge calls made by then.
    pub judge_calls_to_threshold: Option<f64>,
    /// The training seconds spent by then.
    pub wall_s_to_threshold: Option<f64>,
    /// The run's training seconds.
    pub wall_s: f64,
    /// The updates made.
    pub updates: f64,
}

/// The figures of `curve` against `threshold` (an absolute score).
pub fn figures(curve: &Curve, threshold: f64) -> RunFigures {
    let p = &curve.points;
    let last = p.last().copied().unwrap_or(Point::start(0.0));
    let auc = if p.len() < 2 {
        last.score
    } else {
        p.windows(2)
            .map(|w| (w[0].score + w[1].score) / 2.0)
            .sum::<f64>()
            / (p.len() - 1) as f64
    };
    let rewards: Vec<f64> = p.iter().filter_map(|x| x.reward).collect();
    let tail = &rewards[rewards.len().saturating_sub(5)..];
    let reach = p.iter().find(|x| x.score >= threshold);
    RunFigures {
        final_score: last.score,
        auc,
        final_reward: tail.iter().sum::<f64>() / tail.len().max(1) as f64,
        steps_to_threshold: reach.map(|x| x.step as f64),
        judge_calls_to_threshold: reach.map(|x| x.judge_calls as f64),
        wall_s_to_threshold: reach.map(|x| x.wall_s),
        wall_s: last.wall_s,
        updates: last.updates as f64,
    }
}

/// A measure of the table: its name, and how to read it off a run's figures.
type Measure = (&'static str, fn(&RunFigures) -> Option<f64>);

/// The measures, in column order.
pub const MEASURES: [Measure; 8] = [
    ("final score", |f| Some(f.final_score)),
    ("area under the score curve", |f| Some(f.auc)),
    ("training reward, last 5 steps", |f| Some(f.final_reward)),
    ("steps to threshold", |f| f.steps_to_threshold),
    ("judge calls to threshold", |f| f.judge_calls_to_threshold),
    ("wall s to threshold", |f| f.wall_s_to_threshold),
    ("wall s, whole run", |f| Some(f.wall_s)),
    ("updates, whole run", |f| Some(f.updates)),
];

/// Mean and sample standard deviation of one measure over a variant's runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    /// Runs with a value (the threshold measures leave out runs that never reached it).
    pub n: usize,
    /// The mean (`NaN` for none).
    pub mean: f64,
    /// The sample standard deviation (`NaN` for fewer than 2).
    pub sd: f64,
}

/// One variant's line of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantSummary {
    /// The variant.
    pub algorithm: Algorithm,
    /// Its runs.
    pub runs: usize,
    /// One cell per [`MEASURES`] entry, in order.
    pub cells: Vec<Cell>,
}

/// One difference between two variants on one measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// The measure.
    pub measure: String,
    /// The first variant.
    pub a: Algorithm,
    /// The second.
    pub b: Algorithm,
    /// Welch's test of `mean(a) - mean(b)` at 95% (`None`: fewer than 2 values on a
    /// side, or no variance at all).
    pub welch: Option<Welch>,
}

/// The table and the differences.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The threshold as a score.
    pub threshold: f64,
    /// One line per variant.
    pub variants: Vec<VariantSummary>,
    /// Agentic against each baseline, and process against outcome, on every measure.
    pub differences: Vec<Difference>,
}

fn values(curves: &[Curve], algorithm: Algorithm, threshold: f64, measure: &Measure) -> Vec<f64> {
    curves
        .iter()
        .filter(|c| c.algorithm == algorithm)
        .filter_map(|c| (measure.1)(&figures(c, threshold)))
        .collect()
}

/// The summary of some runs.
pub fn summarise(config: &CompareConfig, curves: &[Curve]) -> Summary {
    let threshold = config.threshold * MAX_SCORE;
    let variants = ALGORITHMS
        .iter()
        .map(|a| VariantSummary {
            algorithm: *a,
            runs: curves.iter().filter(|c| c.algorithm == *a).count(),
            cells: MEASURES
                .iter()
                .map(|m| {
                    let v = values(curves, *a, threshold, m);
                    let mean = if v.is_empty() {
                        f64::NAN
                    } else {
                        v.iter().sum::<f64>() / v.len() as f64
                    };
                    Cell {
                        n: v.len(),
                        mean,
                        sd: spread(&v).map_or(f64::NAN, |s| s.std_dev),
                    }
                })
                .collect(),
        })
        .collect();
    let pairs = [
        (Algorithm::Agentic, Algorithm::Outcome),
        (Algorithm::Agentic, Algorithm::Process),
        (Algorithm::Process, Algorithm::Outcome),
    ];
    let differences = MEASURES
        .iter()
        .flat_map(|m| {
            pairs.iter().map(move |(a, b)| Difference {
                measure: m.0.to_owned(),
                a: *a,
                b: *b,
                welch: welch(
                    &values(curves, *a, threshold, m),
                    &values(curves, *b, threshold, m),
                    0.95,
                ),
            })
        })
        .collect();
    Summary {
        threshold,
        variants,
        differences,
    }
}

fn name(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Outcome => "outcome",
        Algorithm::Process => "process",
        Algorithm::Agentic => "agentic",
        Algorithm::Sft => "sft",
        Algorithm::Rft => "rft",
        Algorithm::Hindsight => "hindsight",
    }
}

/// A number with 3 significant digits or so.
fn num(v: f64) -> String {
    if v.is_nan() {
        "—".to_owned()
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

fn p_value(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_owned()
    } else {
        format!("{p:.3}")
    }
}

/// The Markdown report: the settings, the table, and the differences with their tests.
pub fn markdown(config: &CompareConfig, summary: &Summary) -> String {
    let mut out = format!(
        "# Outcome, process and Agentic GRPO on the toy task\n\n\
         {} seeds per variant (from seed {}), {} steps, {} problems x G = {} episodes per step, \
         {} judge calls per step (a stage check and a verdict per episode), learning rate {}.\n\
         Threshold: a score of {} ({} of the best, {}).\n\
         Cells: mean ± sample sd over seeds; the threshold columns count only the runs that reached it (`reached`).\n\n",
        config.seeds,
        config.first_seed,
        config.steps,
        PROBLEMS,
        config.group_size,
        config.judge_calls_per_step(),
        config.lr,
        num(summary.threshold),
        config.threshold,
        MAX_SCORE
    );
    out.push_str("| variant | runs | reached |");
    for m in &MEASURES {
        out.push_str(&format!(" {} |", m.0));
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|".repeat(MEASURES.len()));
    out.push('\n');
    for v in &summary.variants {
        let reached = v.cells[3].n;
        out.push_str(&format!(
            "| {} | {} | {reached}/{} |",
            name(v.algorithm),
            v.runs,
            v.runs
        ));
        for c in &v.cells {
            out.push_str(&format!(" {} ± {} |", num(c.mean), num(c.sd)));
        }
        out.push('\n');
    }
    out.push_str(
        "\nDifferences (Welch's t-test, two-sided; 95% interval of the difference of means):\n\n\
         | measure | difference | mean difference | 95% interval | t | df | p |\n|---|---|---|---|---|---|---|\n",
    );
    for d in &summary.differences {
        let label = format!("{} − {}", name(d.a), name(d.b));
        match &d.welch {
            Some(w) => out.push_str(&format!(
                "| {} | {label} | {} | [{}, {}] | {:.2} | {:.1} | {} |\n",
                d.measure,
                num(w.difference),
                num(w.lo),
                num(w.hi),
                w.t,
                w.df,
                p_value(w.p)
            )),
            None => out.push_str(&format!(
                "| {} | {label} | — | — | — | — | — |\n",
                d.measure
            )),
        }
    }
    out
}

/// The x axes of the plots: file stem, axis label, and how to read x off a point.
type Axis = (&'static str, &'static str, fn(&Point) -> f64);

/// The plots written: the score against steps, wall time and judge calls, and the
/// training reward against steps.
pub const PLOTS: [(&str, &str, Axis); 4] = [
    ("score", "score", ("steps", "step", |p| p.step as f64)),
    ("score", "score", ("wall", "training seconds", |p| p.wall_s)),
    (
        "score",
        "score",
        ("judge", "judge calls", |p| p.judge_calls as f64),
    ),
    (
        "reward",
        "training reward",
        ("steps", "step", |p| p.step as f64),
    ),
];

/// One band per variant of `y` against `axis`: the mean over seeds at each step (x too is
/// the mean, for the wall time), and the smallest and largest over seeds.
fn bands(curves: &[Curve], axis: &Axis, y: fn(&Point) -> Option<f64>) -> Vec<Band> {
    ALGORITHMS
        .iter()
        .map(|a| {
            let runs: Vec<&Curve> = curves.iter().filter(|c| c.algorithm == *a).collect();
            let steps = runs.iter().map(|c| c.points.len()).min().unwrap_or(0);
            let points = (0..steps)
                .filter_map(|s| {
                    let ys: Vec<f64> = runs.iter().filter_map(|c| y(&c.points[s])).collect();
                    if ys.is_empty() {
                        return None;
                    }
                    let xs: Vec<f64> = runs.iter().map(|c| (axis.2)(&c.points[s])).collect();
                    Some(BandPoint {
                        x: xs.iter().sum::<f64>() / xs.len() as f64,
                        mean: ys.iter().sum::<f64>() / ys.len() as f64,
                        lo: ys.iter().copied().fold(f64::INFINITY, f64::min),
                        hi: ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    })
                })
                .collect();
            Band {
                label: name(*a).to_owned(),
                points,
            }
        })
        .collect()
}

/// Writes `toy.json` (the settings, every curve, the summary), `toy.md` and the plots
/// (`toy-<y>-<x>.svg`) into `dir`; returns the files written.
pub fn write(
    dir: &Path,
    config: &CompareConfig,
    curves: &[Curve],
) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let summary = summarise(config, curves);
    let json = serde_json::json!({
        "config": config,
        "max_score": MAX_SCORE,
        "judge_calls_per_step": config.judge_calls_per_step(),
        "curves": curves,
        "summary": summary,
    });
    let mut written = vec![dir.join("toy.json"), dir.join("toy.md")];
    std::fs::write(&written[0], serde_json::to_string_pretty(&json)?)?;
    let mut md = markdown(config, &summary);
    md.push_str("\nPlots (mean over seeds, band: smallest to largest):");
    for (y_key, y_label, axis) in &PLOTS {
        let file = format!("toy-{y_key}-{}.svg", axis.0);
        let y: fn(&Point) -> Option<f64> = if *y_key == "score" {
            |p| Some(p.score)
        } else {
            |p| p.reward
        };
        let svg = render_bands(
            &format!("{y_label} against {}, {} seeds", axis.1, config.seeds),
            axis.1,
            y_label,
            &bands(curves, axis, y),
        );
        std::fs::write(dir.join(&file), svg)?;
        md.push_str(&format!(" [{file}]({file})"));
        written.push(dir.join(file));
    }
    md.push('\n');
    std::fs::write(&written[1], md)?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(step: usize, score: f64) -> Point {
        Point {
            step,
            score,
            reward: (step > 0).then_some(score),
            wall_s: step as f64 * 0.5,
            judge_calls: step as u64 * 64,
            updates: step as u64 * 4,
            skipped: 0,
            stale: 0,
        }
    }

    fn curve(algorithm: Algorithm, seed: u64, scores: &[f64]) -> Curve {
        Curve {
            algorithm,
            seed,
            points: scores
                .iter()
                .enumerate()
                .map(|(s, v)| point(s, *v))
                .collect(),
        }
    }

    #[test]
    fn figures_of_a_curve_by_hand() {
        let c = curve(Algorithm::Outcome, 1, &[0.0, 0.5, 1.0, 1.0]);
        let f = figures(&c, 0.9);
        assert_eq!(f.final_score, 1.0);
        // Trapezoids: 0.25, 0.75, 1.0 over 3 steps.
        assert!((f.auc - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(f.final_reward, (0.5 + 1.0 + 1.0) / 3.0);
        assert_eq!(f.steps_to_threshold, Some(2.0));
        assert_eq!(f.judge_calls_to_threshold, Some(128.0));
        assert_eq!(f.wall_s_to_threshold, Some(1.0));
        assert_eq!(figures(&c, 1.2).steps_to_threshold, None);
    }

    #[test]
    fn the_summary_leaves_unreached_runs_out_of_the_threshold_columns() {
        let config = CompareConfig {
            seeds: 2,
            first_seed: 1,
            steps: 3,
            group_size: 4,
            lr: 0.01,
            staleness_cap: 16,
            threshold: 0.6,
            precision: "f32".to_owned(),
        };
        let curves = vec![
            curve(Algorithm::Outcome, 1, &[0.0, 0.2, 0.4, 0.6]),
            curve(Algorithm::Outcome, 2, &[0.0, 0.3, 0.6, 0.95]),
            curve(Algorithm::Agentic, 1, &[0.0, 0.9, 1.0, 1.1]),
            curve(Algorithm::Agentic, 2, &[0.0, 0.5, 1.0, 1.2]),
        ];
        let s = summarise(&config, &curves);
        assert!((s.threshold - 0.9).abs() < 1e-12);
        let outcome = &s.variants[0];
        assert_eq!((outcome.algorithm, outcome.runs), (Algorithm::Outcome, 2));
        assert_eq!(outcome.cells[3].n, 1, "one outcome run reached 0.9");
        assert_eq!(outcome.cells[3].mean, 3.0);
        assert!(outcome.cells[3].sd.is_nan());
        let agentic = &s.variants[2];
        assert_eq!(agentic.cells[3].n, 2);
        assert_eq!(agentic.cells[3].mean, 1.5);
        assert_eq!(s.variants[1].runs, 0);
        let d = s
            .differences
            .iter()
            .find(|d| {
                d.measure == "final score" && d.a == Algorithm::Agentic && d.b == Algorithm::Outcome
            })
            .expect("agentic - outcome");
        let w = d.welch.expect("two runs each");
        assert!((w.difference - (1.15 - 0.775)).abs() < 1e-12);
        let md = markdown(&config, &s);
        assert!(md.contains("| outcome | 2 | 1/2 |"), "{md}");
        assert!(
            md.contains("| steps to threshold | agentic − outcome | — |"),
            "{md}"
        );
    }
}
