//! `agent report`: a run folder summarised (problems solved, submissions, tokens per
//! solve, time per stage split into model, judge and the agent's own time) and one
//! problem's trajectory in readable form; both also as JSON.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::error::Result;
use crate::pipeline::Stage;
use crate::step::{Count, End, Outcome, Step, TestRecord, Timing};
use crate::trajectory::{Line, Manifest, RunDir};

/// Time and steps of one stage, over a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StageTime {
    /// Steps recorded.
    pub steps: u64,
    /// Model calls.
    pub model_calls: u64,
    /// Where the time went.
    pub timing: Timing,
}

/// One problem's line in the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemLine {
    /// Its id.
    pub id: String,
    /// Finished (has an outcome).
    pub finished: bool,
    /// Solved.
    pub solved: bool,
    /// The last verdict.
    pub verdict: Option<String>,
    /// Hidden tests passed.
    pub hidden: Option<Count>,
    /// Why it ended (`solved`, `pipeline_done`, `budget`, ...).
    pub end: Option<String>,
    /// Attempts.
    pub attempts: u32,
    /// Steps over every attempt.
    pub steps: u64,
    /// Submissions.
    pub submissions: u64,
    /// Tokens (prompt and completion).
    pub tokens: u64,
    /// Wall time of the last attempt, in milliseconds.
    pub wall_ms: f64,
    /// Lines that did not parse (cut by a crash).
    pub unreadable_lines: usize,
}

/// A run's summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The manifest.
    pub manifest: Manifest,
    /// Problems with a trajectory.
    pub problems: usize,
    /// Finished problems.
    pub finished: usize,
    /// Solved problems.
    pub solved: usize,
    /// Submissions.
    pub submissions: u64,
    /// Model calls.
    pub model_calls: u64,
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// All tokens over solved problems (`None` when nothing was solved).
    pub tokens_per_solve: Option<f64>,
    /// Time per stage, in pipeline order.
    pub stages: BTreeMap<String, StageTime>,
    /// Where all the time went.
    pub timing: Timing,
    /// Per problem.
    pub per_problem: Vec<ProblemLine>,
}

/// The short name of an end.
pub fn end_name(end: &End) -> String {
    match end {
        End::Solved => "solved".into(),
        End::PipelineDone => "pipeline_done".into(),
        End::Budget { exhausted } => format!("budget ({exhausted})"),
        End::ModelFailed { .. } => "model_failed".into(),
        End::RunnerFailed { .. } => "runner_failed".into(),
        End::RecordFailed { .. } => "record_failed".into(),
        End::Unloadable { .. } => "unloadable".into(),
    }
}

/// Summarise a run folder.
pub fn summarize(run: &RunDir) -> Result<Summary> {
    let manifest = run.manifest()?.ok_or_else(|| crate::Error::Format {
        path: run.path.clone(),
        reason: "no manifest.json".into(),
    })?;
    let mut summary = Summary {
        manifest,
        problems: 0,
        finished: 0,
        solved: 0,
        submissions: 0,
        model_calls: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        tokens_per_solve: None,
        stages: BTreeMap::new(),
        timing: Timing::default(),
        per_problem: Vec::new(),
    };
    let mut solved_tokens = 0;
    for id in run.problems()? {
        let (lines, bad) = run.read(&id)?;
        let mut line = ProblemLine {
            id: id.clone(),
            finished: false,
            solved: false,
            verdict: None,
            hidden: None,
            end: None,
            attempts: 0,
            steps: 0,
            submissions: 0,
            tokens: 0,
            wall_ms: 0.0,
            unreadable_lines: bad,
        };
        let mut last: Option<&Outcome> = None;
        for l in &lines {
            match l {
                Line::Step(s) => {
                    line.steps += 1;
                    line.attempts = line.attempts.max(s.attempt);
                    let tokens = s.usage.prompt_tokens + s.usage.completion_tokens;
                    line.tokens += tokens;
                    summary.prompt_tokens += s.usage.prompt_tokens;
                    summary.completion_tokens += s.usage.completion_tokens;
                    if s.action == "submit" {
                        line.submissions += 1;
                    }
                    let stage = summary.stages.entry(s.stage.name().to_owned()).or_default();
                    stage.steps += 1;
                    if s.call.is_some() {
                        stage.model_calls += 1;
                        summary.model_calls += 1;
                    }
                    stage.timing.add(&s.timing);
                    summary.timing.add(&s.timing);
                }
                Line::Outcome(o) => {
                    line.attempts = line.attempts.max(o.attempt);
                    last = Some(o);
                }
            }
        }
        if let Some(o) = last {
            line.finished = true;
            line.solved = o.solved;
            line.verdict = o.verdict.map(|v| v.clics_id().to_owned());
            line.hidden = o.hidden;
            line.end = Some(end_name(&o.end));
            line.wall_ms = o.wall_ms;
        }
        summary.problems += 1;
        summary.finished += usize::from(line.finished);
        summary.solved += usize::from(line.solved);
        summary.submissions += line.submissions;
        if line.solved {
            solved_tokens += line.tokens;
        }
        summary.per_problem.push(line);
    }
    if summary.solved > 0 {
        summary.tokens_per_solve = Some(solved_tokens as f64 / summary.solved as f64);
    }
    Ok(summary)
}

fn secs(ms: f64) -> String {
    format!("{:.1} s", ms / 1000.0)
}

fn share(part: f64, all: f64) -> String {
    if all <= 0.0 {
        "-".into()
    } else {
        format!("{:.0}%", 100.0 * part / all)
    }
}

/// The summary as text.
pub fn render_summary(s: &Summary) -> String {
    let mut out = String::new();
    let m = &s.manifest;
    let _ = writeln!(
        out,
        "run {} — model {} at {}, pipeline {}, seed {}, backend {}",
        m.run, m.model.name, m.model.endpoint, m.pipeline.name, m.seed, m.backend
    );
    let _ = writeln!(
        out,
        "problems: {} ({} finished), solved: {}, submissions: {}, model calls: {}",
        s.problems, s.finished, s.solved, s.submissions, s.model_calls
    );
    let _ = writeln!(
        out,
        "tokens: {} prompt + {} completion; per solve: {}",
        s.prompt_tokens,
        s.completion_tokens,
        s.tokens_per_solve
            .map(|t| format!("{t:.0}"))
            .unwrap_or_else(|| "- (nothing solved)".into())
    );
    let total = s.timing.total_ms();
    let _ = writeln!(
        out,
        "time: {} — model {} ({}), judge {} ({}), agent {} ({})",
        secs(total),
        secs(s.timing.model_ms),
        share(s.timing.model_ms, total),
        secs(s.timing.judge_ms),
        share(s.timing.judge_ms, total),
        secs(s.timing.agent_ms),
        share(s.timing.agent_ms, total),
    );
    let _ = writeln!(
        out,
        "\nper stage:          steps  calls      model      judge      agent"
    );
    let order = [
        Stage::Restate,
        Stage::Approaches,
        Stage::Code,
        Stage::Tests,
        Stage::Check,
        Stage::Submit,
    ];
    for stage in order {
        if let Some(t) = s.stages.get(stage.name()) {
            let _ = writeln!(
                out,
                "  {:<16} {:>6} {:>6} {:>10} {:>10} {:>10}",
                stage.name(),
                t.steps,
                t.model_calls,
                secs(t.timing.model_ms),
                secs(t.timing.judge_ms),
                format!("{:.1} ms", t.timing.agent_ms)
            );
        }
    }
    let _ = writeln!(out, "\nper problem:");
    for p in &s.per_problem {
        let _ = writeln!(
            out,
            "  {:<20} {:<8} verdict {:<4} hidden {:<7} submissions {} tokens {} attempts {} {}{}",
            p.id,
            if p.solved {
                "solved"
            } else if p.finished {
                "unsolved"
            } else {
                "running"
            },
            p.verdict.as_deref().unwrap_or("-"),
            p.hidden
                .map(|c| format!("{}/{}", c.passed, c.total))
                .unwrap_or_else(|| "-".into()),
            p.submissions,
            p.tokens,
            p.attempts,
            p.end.as_deref().unwrap_or("unfinished"),
            if p.unreadable_lines > 0 {
                format!(" ({} unreadable line(s))", p.unreadable_lines)
            } else {
                String::new()
            }
        );
    }
    out
}

/// A step's signals in a few words.
pub fn signals_text(step: &Step) -> String {
    let s = &step.signals;
    let mut parts = Vec::new();
    let count =
        |name: &str, c: &Option<Count>| c.map(|c| format!("{name} {}/{}", c.passed, c.total));
    if let Some(x) = s.code_extracted {
        parts.push(format!("code {}", if x { "yes" } else { "none" }));
    }
    if let Some(x) = s.compiled {
        parts.push(format!("compiled {}", if x { "yes" } else { "no" }));
    }
    parts.extend(count("samples", &s.samples));
    parts.extend(count("brute on samples", &s.brute_samples));
    parts.extend(count("valid inputs", &s.valid_inputs));
    parts.extend(count("own tests", &s.own_tests));
    parts.extend(count("stress", &s.stress));
    parts.extend(count("max-size", &s.max_inputs));
    if s.reverted == Some(true) {
        parts.push("REVERTED".into());
    }
    if let Some(v) = s.verdict {
        parts.push(format!("verdict {}", v.clics_id()));
    }
    parts.extend(count("hidden", &s.hidden));
    parts.join(", ")
}

fn indent(text: &str, max: usize) -> String {
    crate::prompt::cut(text.trim_end(), max)
        .lines()
        .map(|l| format!("    | {l}\n"))
        .collect()
}

/// One problem's trajectory as text.
pub fn render_problem(run: &RunDir, id: &str) -> Result<String> {
    let (lines, bad) = run.read(id)?;
    let mut out = String::new();
    let _ = writeln!(out, "problem {id}");
    if bad > 0 {
        let _ = writeln!(out, "({bad} unreadable line(s) skipped)");
    }
    for line in &lines {
        match line {
            Line::Step(s) => {
                let _ = writeln!(
                    out,
                    "\n[attempt {} step {}] {}/{}  {}  (model {}, judge {}, agent {:.1} ms)",
                    s.attempt,
                    s.step,
                    s.stage.name(),
                    s.action,
                    signals_text(s),
                    secs(s.timing.model_ms),
                    secs(s.timing.judge_ms),
                    s.timing.agent_ms
                );
                if !s.note.is_empty() {
                    let _ = writeln!(out, "  note: {}", s.note);
                }
                if let Some(call) = &s.call {
                    if let Some(last) = call.messages.last() {
                        let _ = writeln!(out, "  asked:");
                        out.push_str(&indent(&last.content, 600));
                    }
                    match (&call.reply, &call.error) {
                        (Some(reply), _) => {
                            let text = reply
                                .completions
                                .first()
                                .map(|c| c.text.as_str())
                                .unwrap_or("");
                            let ids = reply
                                .completions
                                .first()
                                .and_then(|c| c.tokens.as_ref())
                                .map(|t| t.iter().filter(|t| t.id.is_some()).count())
                                .unwrap_or(0);
                            let _ = writeln!(
                                out,
                                "  reply ({} prompt + {} completion tokens, {} with ids, {} retries):",
                                reply.usage.prompt_tokens,
                                reply.usage.completion_tokens,
                                ids,
                                reply.retries
                            );
                            out.push_str(&indent(text, 1200));
                        }
                        (None, Some(err)) => {
                            let _ = writeln!(out, "  model error: {err}");
                        }
                        (None, None) => {}
                    }
                }
                if let Some(log) = &s.compile_log {
                    let _ = writeln!(out, "  compiler:");
                    out.push_str(&indent(log, 600));
                }
                for t in &s.tests {
                    match t {
                        TestRecord::Case { program, outcome } => {
                            let _ = writeln!(
                                out,
                                "  {program} on {}: {} ({:.0} ms, {} KiB)",
                                outcome.name,
                                outcome.verdict.clics_id(),
                                outcome.cpu_ms,
                                outcome.peak_kib
                            );
                        }
                        TestRecord::Run {
                            program,
                            name,
                            outcome,
                        } => {
                            let _ = writeln!(
                                out,
                                "  {program} run {name}: {} ({:.0} ms, {} bytes out)",
                                outcome.status.clics_id(),
                                outcome.cpu_ms,
                                outcome.stdout.len()
                            );
                        }
                    }
                }
            }
            Line::Outcome(o) => {
                let _ = writeln!(
                    out,
                    "\n== attempt {} ended: {}{} — {} steps, {} model calls, {} submissions, {} tokens, {} (model {}, judge {}, agent {})",
                    o.attempt,
                    end_name(&o.end),
                    match &o.end {
                        End::ModelFailed { error }
                        | End::RunnerFailed { error }
                        | End::RecordFailed { error }
                        | End::Unloadable { error } => format!(": {error}"),
                        _ => String::new(),
                    },
                    o.steps,
                    o.model_calls,
                    o.submissions,
                    o.usage.prompt_tokens + o.usage.completion_tokens,
                    secs(o.wall_ms),
                    secs(o.timing.model_ms),
                    secs(o.timing.judge_ms),
                    secs(o.timing.agent_ms),
                );
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::RunLedger;
    use crate::fake::{FakeJudge, FakeRunner, ScriptedModel};
    use crate::pipeline::Pipeline;
    use crate::series::{Batch, Item, run_all};
    use crate::trajectory::{FORMAT, ModelInfo, ProblemEntry};

    #[tokio::test]
    async fn a_run_is_summarised_and_a_trajectory_rendered() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let run = RunDir::create(tmp.path()).expect("run dir");
        let pipeline = Pipeline::short();
        run.start(Manifest {
            format: FORMAT,
            run: "r".into(),
            created: "2026-01-01T00:00:00Z".into(),
            version: "0".into(),
            model: ModelInfo {
                name: "scripted".into(),
                endpoint: "local".into(),
                client: serde_json::Value::Null,
            },
            seed: 0,
            pipeline: pipeline.clone(),
            run_budget: Default::default(),
            backend: "fake".into(),
            concurrency: 1,
            problems: vec![ProblemEntry {
                id: "sum".into(),
                source: "problems/packages/sum".into(),
            }],
        })
        .expect("manifest");
        let sum =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
        // The first program prints 0 (fails the samples), the revision is right.
        let model = ScriptedModel::replies([
            "```python\nprint(0)\n```",
            "```python\nimport sys\n# RIGHT\nprint(sum(map(int, sys.stdin.read().split()[1:])))\n```",
        ]);
        let runner = FakeRunner::new(|program, input| {
            let total: i64 = input
                .stdin
                .split_whitespace()
                .skip(1)
                .filter_map(|w| w.parse::<i64>().ok())
                .sum();
            let out = if program.source.contains("RIGHT") {
                total
            } else {
                0
            };
            (format!("{out}\n"), problems::Verdict::AC)
        });
        let judge = FakeJudge {
            runner: &runner,
            hidden: Vec::new(),
        };
        let ledger = RunLedger::new(Default::default());
        let batch = Batch {
            model: &model,
            runner: &runner,
            submitter: &judge,
            pipeline: &pipeline,
            ledger: &ledger,
            run: &run,
            run_id: "r".into(),
            seed: 0,
            concurrency: 1,
            watcher: None,
        };
        run_all(&batch, &[Item::load(sum)]).await.expect("runs");

        let s = summarize(&run).expect("summary");
        assert_eq!((s.problems, s.finished, s.solved), (1, 1, 1));
        assert_eq!(s.submissions, 1);
        assert_eq!(s.model_calls, 2);
        let tokens = s.prompt_tokens + s.completion_tokens;
        assert_eq!(s.tokens_per_solve, Some(tokens as f64));
        assert_eq!(
            s.stages.keys().collect::<Vec<_>>(),
            ["check", "code", "submit"]
        );
        assert_eq!(s.stages["check"].steps, 3, "run, debug, run");
        assert_eq!(s.stages["check"].model_calls, 1);
        let text = render_summary(&s);
        assert!(
            text.contains("problems: 1 (1 finished), solved: 1, submissions: 1, model calls: 2"),
            "{text}"
        );
        assert!(text.contains("sum                  solved"), "{text}");

        let one = render_problem(&run, "sum").expect("trajectory");
        assert!(
            one.contains("[attempt 1 step 2] check/run  compiled yes, samples 0/2"),
            "{one}"
        );
        assert!(
            one.contains("[attempt 1 step 3] check/debug  code yes"),
            "{one}"
        );
        assert!(one.contains("It fails sample 1 (WA)"), "{one}");
        assert!(one.contains("candidate on sample 2: AC"), "{one}");
        assert!(one.contains("== attempt 1 ended: solved"), "{one}");
    }
}
