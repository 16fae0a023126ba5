//! The native API, `POST /v1/evaluate`: several programs at once (a GRPO group, or a
//! whole batch), each judged on every test of one problem, with per-test results and
//! ready-made scores.
//!
//! - The tests are given inline (`tests: [{input, output, group?}]`, with optional
//!   `limits` and a default-validator `checker`), or named by `problem`: a package of the
//!   server's `--problems`, judged with that package's own checker (the default validator
//!   with its flags, e.g. a float tolerance; its output validator; or its interactor)
//!   and limits, every test of it (samples first, then the secret data).
//! - Each distinct `(language, source)` of the request is judged once, its duplicates
//!   given the same result (`duplicate_of`); a build is compiled once and kept in the
//!   judge's compile cache, so later requests with the same program do not compile it
//!   again (`compile.cached`).
//! - Each program's `tests` give the verdict, CPU and wall time (seconds), peak memory
//!   (KiB) and exit code; `scores` give the fraction of tests passed, all or nothing,
//!   the IOI subtask score (each group's minimum, weighted by the group's points when the
//!   package gives some; inline tests are grouped by their `group`, all in one group by
//!   default) and, on scored packages, the points; `first_failure` gives the first
//!   failing test's input, expected answer and output (their first 4 KiB each) and the
//!   checker's message, for agents that debug.
//! - `stop_at_first_failure` stops a program at its first failing test; the tests not
//!   run count as failed in the scores.
//! - A judge fault is `"status": "judge_error"` with an `error` and no scores, never a
//!   verdict of the program: the trainer drops the sample. So is a test the judge could
//!   not decide (JE).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use judge::Report;
use judge::problems::{Problem, TestCase, TestGroup, Validation, Verdict};
use serde::{Deserialize, Serialize};

use crate::Limits;
use crate::engine::Engine;
use crate::error::Refusal;

/// Bytes of a test's input, answer and output kept in a `first_failure`.
pub const EXCERPT_BYTES: usize = 4096;

/// `POST /v1/evaluate`'s body.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The programs.
    pub programs: Vec<ProgramSpec>,
    /// A problem of the server's packages, by short name.
    #[serde(default)]
    pub problem: Option<String>,
    /// Inline tests (when no problem is named).
    #[serde(default)]
    pub tests: Option<Vec<InlineTest>>,
    /// Limits of inline tests.
    #[serde(default)]
    pub limits: Option<InlineLimits>,
    /// The default validator's options for inline tests.
    #[serde(default)]
    pub checker: Option<InlineChecker>,
    /// Stop each program at its first failing test.
    #[serde(default)]
    pub stop_at_first_failure: bool,
}

/// One program.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramSpec {
    /// A judge language id (`cpp`, `python3`, `pypy3`) or a SandboxFusion name (`python`).
    pub language: String,
    /// The source.
    #[serde(alias = "code")]
    pub source: String,
}

/// One inline test.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineTest {
    /// Standard input.
    pub input: String,
    /// The expected output.
    #[serde(alias = "expected_output", alias = "answer")]
    pub output: String,
    /// The subtask it belongs to, for the IOI score.
    #[serde(default)]
    pub group: Option<String>,
}

/// Limits of inline tests.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineLimits {
    /// CPU seconds per test (default 2).
    #[serde(default)]
    pub time_s: Option<f64>,
    /// MiB per test (default: the server's default memory).
    #[serde(default)]
    pub memory_mb: Option<f64>,
    /// MiB of output per test (default 8).
    #[serde(default)]
    pub output_mb: Option<f64>,
}

/// The default validator's options for inline tests: by default tokens are compared as
/// text, case-insensitively (the Kattis default validator's rule), whitespace amounts
/// ignored, no float tolerance.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineChecker {
    /// Tokens compare with case (default false: as the Kattis default validator).
    #[serde(default)]
    pub case_sensitive: bool,
    /// Whitespace must match exactly (default false).
    #[serde(default)]
    pub space_change_sensitive: bool,
    /// Floats within this absolute and relative tolerance are equal.
    #[serde(default)]
    pub float_tolerance: Option<f64>,
    /// Floats within this absolute tolerance are equal.
    #[serde(default)]
    pub float_absolute_tolerance: Option<f64>,
    /// Floats within this relative tolerance are equal.
    #[serde(default)]
    pub float_relative_tolerance: Option<f64>,
}

/// `POST /v1/evaluate`'s answer.
#[derive(Debug, Clone, Serialize)]
pub struct EvaluateResponse {
    /// The problem, when one was named.
    pub problem: Option<String>,
    /// Tests each program is judged on.
    pub total_tests: usize,
    /// Distinct programs judged.
    pub distinct_programs: usize,
    /// Programs whose build was already there: duplicates in the request and builds
    /// found in the compile cache.
    pub compile_cache_hits: usize,
    /// One per program, in the request's order.
    pub results: Vec<ProgramResult>,
}

/// One program's judgement.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramResult {
    /// The program's position in the request.
    pub index: usize,
    /// The judge's language id.
    pub language: String,
    /// `judged`, or `judge_error` (no verdict, no scores: drop the sample).
    pub status: &'static str,
    /// What failed, on `judge_error`.
    pub error: Option<String>,
    /// The program's verdict: the first failing test's, CE, or AC.
    pub verdict: Option<Verdict>,
    /// The index of the earlier identical program whose judgement this is.
    pub duplicate_of: Option<usize>,
    /// The compile step.
    pub compile: Option<CompileResult>,
    /// Per test, in judging order.
    pub tests: Vec<TestOutcome>,
    /// The ready-made scores.
    pub scores: Option<Scores>,
    /// The first failing test, with excerpts.
    pub first_failure: Option<Failure>,
}

/// The compile step.
#[derive(Debug, Clone, Serialize)]
pub struct CompileResult {
    /// It compiled.
    pub ok: bool,
    /// The build came from the cache (or from an identical program of the request).
    pub cached: bool,
    /// The compiler's output.
    pub message: String,
    /// Wall seconds of the compile (0 when cached).
    pub time: f64,
    /// The compile was killed at its time limit (`message` says so), not refused by the
    /// compiler: a loaded machine may cause it, and such an outcome is not cached.
    pub timed_out: bool,
}

/// One test's result.
#[derive(Debug, Clone, Serialize)]
pub struct TestOutcome {
    /// Position in judging order.
    pub index: usize,
    /// The test's name (`secret/group1/03`; inline: `secret/0003`).
    pub name: String,
    /// Its subtask.
    pub group: String,
    /// The verdict.
    pub verdict: Verdict,
    /// CPU seconds.
    pub cpu_time: f64,
    /// Wall seconds.
    pub wall_time: f64,
    /// Peak memory, KiB.
    pub memory_kb: u64,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Signal, when killed.
    pub signal: Option<i32>,
    /// Points of the test on a scored package.
    pub score: Option<f64>,
}

/// The ready-made scores, all in `[0, 1]` but `points`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Scores {
    /// Tests accepted.
    pub passed: usize,
    /// Tests of the problem.
    pub total: usize,
    /// `passed / total`.
    pub fraction: f64,
    /// 1 when every test is accepted, else 0.
    pub all_or_nothing: f64,
    /// The IOI subtask score: each group's minimum, weighted by its points.
    pub ioi: f64,
    /// The judge's points, on a scored package.
    pub points: Option<f64>,
    /// The most points, on a scored package.
    pub max_points: Option<f64>,
}

/// The first failing test, for an agent that debugs.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Its position.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its verdict.
    pub verdict: Verdict,
    /// The input's first [`EXCERPT_BYTES`].
    pub input: String,
    /// The expected answer's first [`EXCERPT_BYTES`].
    pub expected: String,
    /// The program's output's first [`EXCERPT_BYTES`].
    pub got: String,
    /// The checker's or the judge's message.
    pub message: String,
}

/// The problem a request is judged on, with the folder of inline tests kept alive.
#[derive(Debug)]
struct Target {
    problem: Arc<Problem>,
    _data: Option<tempfile::TempDir>,
    /// Group of each test, by index; and each group's weight.
    groups: Vec<String>,
    weights: BTreeMap<String, f64>,
}

/// `GET /v1/problems`: the server's problems.
pub fn problem_list(engine: &Engine) -> Vec<serde_json::Value> {
    engine
        .problems
        .values()
        .map(|problem| {
            let checker = match &problem.validation {
                Validation::Default(_) => "default",
                Validation::Custom {
                    interactive: true, ..
                } => "interactor",
                Validation::Custom { .. } => "output_validator",
            };
            serde_json::json!({
                "name": problem.short_name,
                "title": problem.name,
                "tests": problem.test_cases().len(),
                "time_limit_s": problem.limits.time.as_secs_f64(),
                "memory_mb": problem.limits.memory_bytes >> 20,
                "checker": checker,
                "scoring": problem.scoring,
            })
        })
        .collect()
}

/// Checks the request's sizes and builds the problem it is judged on.
fn target(engine: &Engine, req: &EvaluateRequest, limits: &Limits) -> Result<Target, Refusal> {
    match (&req.problem, &req.tests) {
        (Some(_), Some(_)) => Err(Refusal::invalid(
            "tests",
            "give either `problem` or `tests`, not both",
        )),
        (None, None) => Err(Refusal::invalid(
            "problem",
            "give `problem` (a problem of the server's packages, see GET /v1/problems) or inline `tests`",
        )),
        (Some(name), None) => {
            if req.limits.is_some() || req.checker.is_some() {
                return Err(Refusal::invalid(
                    if req.limits.is_some() {
                        "limits"
                    } else {
                        "checker"
                    },
                    "a package problem is judged with its own limits and checker",
                ));
            }
            let problem = engine.problems.get(name).ok_or_else(|| {
                let known: Vec<&str> = engine.problems.keys().map(String::as_str).collect();
                Refusal::NotFound(format!(
                    "problem `{name}` is not among the server's packages ({})",
                    if known.is_empty() {
                        "none: start it with --problems".to_owned()
                    } else {
                        known.join(", ")
                    }
                ))
            })?;
            let cases = problem.test_cases();
            let tests = cases.len();
            Refusal::check_count("tests", tests, limits.max_tests, "--max-tests")?;
            check_output(tests, problem.limits.output_bytes, limits)?;
            let groups = cases.iter().map(|case| group_of(&case.name)).collect();
            let mut weights = BTreeMap::new();
            collect_weights(&problem.secret, &mut weights);
            Ok(Target {
                problem: Arc::clone(problem),
                _data: None,
                groups,
                weights,
            })
        }
        (None, Some(tests)) => inline_target(req, tests, limits),
    }
}

/// Checks that `tests` runs of `output_bytes` each stay within the total output limit.
fn check_output(tests: usize, output_bytes: u64, limits: &Limits) -> Result<(), Refusal> {
    let total = (tests as u64).saturating_mul(output_bytes);
    if total > limits.max_total_output_bytes {
        return Err(Refusal::TooLarge {
            what: format!("the output a program may write ({tests} tests of {output_bytes} bytes)"),
            size: total,
            limit: limits.max_total_output_bytes,
            option: "--max-total-output-bytes",
        });
    }
    Ok(())
}

/// The group of a test by its name: its folder (`secret/group1/03` is `secret/group1`).
fn group_of(name: &str) -> String {
    name.rsplit_once('/')
        .map_or_else(|| name.to_owned(), |(folder, _)| folder.to_owned())
}

/// The points of each secret group that declares some.
fn collect_weights(group: &TestGroup, out: &mut BTreeMap<String, f64>) {
    if let Some(score) = group.score {
        out.insert(group.name.clone(), score);
    }
    for sub in &group.groups {
        collect_weights(sub, out);
    }
}

/// A problem made of inline tests, written to a temporary folder.
fn inline_target(
    req: &EvaluateRequest,
    tests: &[InlineTest],
    limits: &Limits,
) -> Result<Target, Refusal> {
    if tests.is_empty() {
        return Err(Refusal::invalid("tests", "give at least one test"));
    }
    Refusal::check_count("tests", tests.len(), limits.max_tests, "--max-tests")?;
    for (idx, test) in tests.iter().enumerate() {
        limits.check_stdin(format!("tests[{idx}].input"), &test.input)?;
    }
    let given = req.limits.clone().unwrap_or_default();
    let time = limits.time("limits.time_s", given.time_s.unwrap_or(2.0))?;
    let memory_bytes = limits.memory("limits.memory_mb", given.memory_mb)?;
    let output_mb = given.output_mb.unwrap_or(8.0);
    if !output_mb.is_finite() || output_mb <= 0.0 || output_mb > 1024.0 {
        return Err(Refusal::invalid(
            "limits.output_mb",
            format!("{output_mb} MiB is out of range: above 0 and at most 1024"),
        ));
    }
    let output_bytes = (output_mb * 1024.0 * 1024.0) as u64;
    check_output(tests.len(), output_bytes, limits)?;
    let checker = req.checker.clone().unwrap_or_default();
    let tolerance = |value: Option<f64>, field: &str| -> Result<Option<f64>, Refusal> {
        match value {
            Some(eps) if !eps.is_finite() || eps < 0.0 => Err(Refusal::invalid(
                format!("checker.{field}"),
                format!("{eps} is not a tolerance (a number at least 0)"),
            )),
            other => Ok(other),
        }
    };
    let both = tolerance(checker.float_tolerance, "float_tolerance")?;
    let flags = problems::default_validator::DefaultFlags {
        case_sensitive: checker.case_sensitive,
        space_change_sensitive: checker.space_change_sensitive,
        float_absolute_tolerance: tolerance(
            checker.float_absolute_tolerance,
            "float_absolute_tolerance",
        )?
        .or(both),
        float_relative_tolerance: tolerance(
            checker.float_relative_tolerance,
            "float_relative_tolerance",
        )?
        .or(both),
    };
    let dir = tempfile::Builder::new()
        .prefix("judge-sandbox-tests-")
        .tempdir()
        .map_err(|err| Refusal::invalid("tests", format!("cannot write the tests: {err}")))?;
    let cases = write_cases(dir.path(), tests)
        .map_err(|err| Refusal::invalid("tests", format!("cannot write the tests: {err}")))?;
    let groups = tests
        .iter()
        .map(|test| test.group.clone().unwrap_or_else(|| "all".to_owned()))
        .collect();
    let problem_limits = problems::Limits {
        time,
        memory_bytes,
        output_bytes,
        code_bytes: limits.max_source_bytes as u64,
        compilation_time: Duration::from_secs_f64(limits.compile_time_s.clamp(1.0, 3600.0)),
        compilation_memory_bytes: (limits.compile_memory_mb.max(64.0) * 1024.0 * 1024.0) as u64,
        ..problems::package::DEFAULT_LIMITS
    };
    let group = |name: &str, cases: Vec<TestCase>| TestGroup {
        name: name.to_owned(),
        cases,
        groups: Vec::new(),
        score: None,
        aggregation: None,
        output_validator_args: None,
    };
    let problem = Problem {
        root: dir.path().to_path_buf(),
        short_name: "inline".to_owned(),
        name: "inline tests".to_owned(),
        limits: problem_limits,
        validation: Validation::Default(flags),
        sha256: String::new(),
        statement: None,
        sample: group("sample", Vec::new()),
        secret: group("secret", cases),
        input_validators: Vec::new(),
        output_validator: None,
        submissions: Vec::new(),
        scoring: false,
    };
    Ok(Target {
        problem: Arc::new(problem),
        _data: Some(dir),
        groups,
        weights: BTreeMap::new(),
    })
}

fn write_cases(dir: &Path, tests: &[InlineTest]) -> std::io::Result<Vec<TestCase>> {
    let data = dir.join("data/secret");
    std::fs::create_dir_all(&data)?;
    let mut cases = Vec::with_capacity(tests.len());
    for (idx, test) in tests.iter().enumerate() {
        let input = data.join(format!("{idx:04}.in"));
        let answer = data.join(format!("{idx:04}.ans"));
        std::fs::write(&input, test.input.as_bytes())?;
        std::fs::write(&answer, test.output.as_bytes())?;
        cases.push(TestCase {
            name: format!("secret/{idx:04}"),
            input,
            answer,
            is_sample: false,
            output_validator_args: None,
        });
    }
    Ok(cases)
}

/// Judges a request: admitted, then each distinct program judged once as workers free
/// up.
pub async fn evaluate(
    engine: &Arc<Engine>,
    req: EvaluateRequest,
    limits: &Limits,
) -> Result<EvaluateResponse, Refusal> {
    engine.metrics.request("evaluate");
    if req.programs.is_empty() {
        return Err(Refusal::invalid("programs", "give at least one program"));
    }
    Refusal::check_count(
        "programs",
        req.programs.len(),
        limits.max_programs,
        "--max-programs",
    )?;
    let mut languages = Vec::with_capacity(req.programs.len());
    for (idx, program) in req.programs.iter().enumerate() {
        let language = crate::languages::native(&program.language).ok_or_else(|| {
            Refusal::invalid(
                format!("programs[{idx}].language"),
                format!(
                    "`{}` is not a language this server runs; it runs {}",
                    program.language,
                    crate::languages::native_names().join(", ")
                ),
            )
        })?;
        limits.check_source(format!("programs[{idx}].source"), &program.source)?;
        languages.push(language);
    }
    let target = target(engine, &req, limits)?;
    let _ticket = engine.admit().map_err(Refusal::Busy)?;
    // The first program of each distinct (language, source), and each program's first.
    let mut first_of: HashMap<(&str, &str), usize> = HashMap::new();
    let mut original = Vec::with_capacity(req.programs.len());
    for (idx, program) in req.programs.iter().enumerate() {
        let key = (languages[idx].id.as_str(), program.source.as_str());
        original.push(*first_of.entry(key).or_insert(idx));
    }
    let distinct: Vec<usize> = (0..req.programs.len())
        .filter(|idx| original[*idx] == *idx)
        .collect();
    let stop = req.stop_at_first_failure;
    let judged = futures_util::future::join_all(distinct.iter().map(|&idx| {
        let language = languages[idx].clone();
        let source = req.programs[idx].source.as_str();
        let problem = &target.problem;
        async move {
            let _worker = engine.worker(None).await;
            (idx, engine.judge(problem, language, source, stop).await)
        }
    }))
    .await;
    let mut hits = req.programs.len() - distinct.len();
    let mut by_index: HashMap<usize, ProgramResult> = HashMap::new();
    for (idx, judged) in judged {
        let result = result_of(engine, &target, idx, &languages[idx].id, judged);
        if result.compile.as_ref().is_some_and(|c| c.cached) {
            hits += 1;
        }
        by_index.insert(idx, result);
    }
    engine.metrics.cache_hits.fetch_add(
        (req.programs.len() - distinct.len()) as u64,
        std::sync::atomic::Ordering::Relaxed,
    );
    let results = (0..req.programs.len())
        .map(|idx| {
            let first = original[idx];
            let mut it = by_index
                .get(&first)
                .cloned()
                .unwrap_or_else(|| ProgramResult {
                    index: idx,
                    language: languages[idx].id.clone(),
                    status: "judge_error",
                    error: Some("the program was not judged".to_owned()),
                    verdict: None,
                    duplicate_of: None,
                    compile: None,
                    tests: Vec::new(),
                    scores: None,
                    first_failure: None,
                });
            it.index = idx;
            if first != idx {
                it.duplicate_of = Some(first);
                if let Some(compile) = &mut it.compile {
                    compile.cached = true;
                    compile.time = 0.0;
                }
            }
            it
        })
        .collect();
    Ok(EvaluateResponse {
        problem: req.problem.clone(),
        total_tests: target.groups.len(),
        distinct_programs: distinct.len(),
        compile_cache_hits: hits,
        results,
    })
}

/// One distinct program's result, its counters added to the metrics.
fn result_of(
    engine: &Engine,
    target: &Target,
    index: usize,
    language: &str,
    judged: judge::Result<Report>,
) -> ProgramResult {
    use std::sync::atomic::Ordering::Relaxed;
    let metrics = &engine.metrics;
    metrics.programs.fetch_add(1, Relaxed);
    let mut res = ProgramResult {
        index,
        language: language.to_owned(),
        status: "judge_error",
        error: None,
        verdict: None,
        duplicate_of: None,
        compile: None,
        tests: Vec::new(),
        scores: None,
        first_failure: None,
    };
    let report = match judged {
        Ok(report) => report,
        Err(err) => {
            metrics.judge_errors.fetch_add(1, Relaxed);
            res.error = Some(crate::fusion::error_chain(&err));
            return res;
        }
    };
    let counter = if report.compile.cached {
        &metrics.cache_hits
    } else {
        &metrics.cache_misses
    };
    counter.fetch_add(1, Relaxed);
    res.compile = Some(CompileResult {
        ok: report.compile.ok,
        cached: report.compile.cached,
        message: report.compile.log.clone(),
        timed_out: !report.compile.ok && crate::engine::compile_timed_out(&report.compile.log),
        time: if report.compile.cached {
            0.0
        } else {
            report.compile.wall_ms / 1000.0
        },
    });
    metrics.tests_done(report.tests.len() as u64);
    for test in &report.tests {
        metrics.verdict(&test.verdict.to_string());
    }
    if report.verdict == Verdict::CE {
        metrics.verdict("CE");
    }
    if let Some(je) = report.tests.iter().find(|t| t.verdict == Verdict::JE) {
        metrics.judge_errors.fetch_add(1, Relaxed);
        res.error = Some(format!(
            "the judge failed on test {}: {}",
            je.name, je.message
        ));
        return res;
    }
    if report.verdict == Verdict::JE {
        metrics.judge_errors.fetch_add(1, Relaxed);
        res.error = Some(format!("the judge failed: {}", report.compile.log));
        return res;
    }
    res.status = "judged";
    res.verdict = Some(report.verdict);
    let cases = target.problem.test_cases();
    res.tests = report
        .tests
        .iter()
        .map(|test| TestOutcome {
            index: test.index,
            name: test.name.clone(),
            group: target.groups.get(test.index).cloned().unwrap_or_default(),
            verdict: test.verdict,
            cpu_time: test.cpu_ms / 1000.0,
            wall_time: test.wall_ms / 1000.0,
            memory_kb: test.peak_kib,
            exit_code: test.exit_code,
            signal: test.signal,
            score: test.score,
        })
        .collect();
    res.first_failure = report
        .tests
        .iter()
        .find(|t| t.verdict != Verdict::AC)
        .map(|test| Failure {
            index: test.index,
            name: test.name.clone(),
            verdict: test.verdict,
            input: cases
                .get(test.index)
                .map(|c| head(&c.input))
                .unwrap_or_default(),
            expected: cases
                .get(test.index)
                .map(|c| head(&c.answer))
                .unwrap_or_default(),
            got: test.output_head.clone().unwrap_or_default(),
            message: cap(&test.message, EXCERPT_BYTES),
        });
    res.scores = Some(scores(&report, target));
    res
}

/// The scores of a report: tests not run count as failed.
fn scores(report: &Report, target: &Target) -> Scores {
    let total = target.groups.len();
    let passed_at: Vec<bool> = (0..total)
        .map(|idx| {
            report
                .tests
                .iter()
                .any(|t| t.index == idx && t.verdict == Verdict::AC)
        })
        .collect();
    let passed = passed_at.iter().filter(|p| **p).count();
    let fraction = if total == 0 {
        0.0
    } else {
        passed as f64 / total as f64
    };
    let compiled = report.verdict != Verdict::CE;
    // Each group's minimum; samples count only when there is nothing else.
    let mut minimum: BTreeMap<&str, bool> = BTreeMap::new();
    let only_samples = target.groups.iter().all(|g| g.starts_with("sample"));
    for (idx, group) in target.groups.iter().enumerate() {
        if group.starts_with("sample") && !only_samples {
            continue;
        }
        let ok = passed_at.get(idx).copied().unwrap_or(false);
        let entry = minimum.entry(group.as_str()).or_insert(true);
        *entry = *entry && ok;
    }
    let weight = |group: &str| {
        // A group's points, or those of the nearest enclosing group that has some.
        let mut name = group;
        loop {
            if let Some(w) = target.weights.get(name) {
                return *w;
            }
            match name.rsplit_once('/') {
                Some((parent, _)) => name = parent,
                None => return 1.0,
            }
        }
    };
    let (mut got, mut max) = (0.0, 0.0);
    for (group, ok) in &minimum {
        let w = weight(group);
        max += w;
        if *ok {
            got += w;
        }
    }
    let ioi = if max > 0.0 && compiled {
        got / max
    } else {
        0.0
    };
    Scores {
        passed,
        total,
        fraction: if compiled { fraction } else { 0.0 },
        all_or_nothing: if compiled && total > 0 && passed == total {
            1.0
        } else {
            0.0
        },
        ioi,
        points: report.max_score.map(|_| report.score),
        max_points: report.max_score,
    }
}

/// The first [`EXCERPT_BYTES`] of a file as text.
fn head(path: &Path) -> String {
    judge::grade::read_head(path, EXCERPT_BYTES)
        .map(|(text, _)| text)
        .unwrap_or_default()
}

/// `text` cut to at most `limit` bytes at a character boundary.
fn cap(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// Seconds as a duration, for tests.
#[cfg(test)]
fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(verdicts: &[Verdict], overall: Verdict) -> Report {
        let tests = verdicts
            .iter()
            .enumerate()
            .map(|(index, verdict)| judge::TestResult {
                index,
                name: format!("secret/{index:04}"),
                verdict: *verdict,
                cpu_ms: 1.0,
                wall_ms: 2.0,
                peak_kib: 3,
                output_bytes: 0,
                exit_code: Some(0),
                signal: None,
                message: String::new(),
                score: None,
                passes: 1,
                output_head: None,
            })
            .collect();
        Report {
            verdict: overall,
            score: 0.0,
            max_score: None,
            groups: Vec::new(),
            passed: 0,
            total: verdicts.len(),
            language: "cpp".to_owned(),
            compile: judge::grade::CompileInfo {
                cached: false,
                ok: true,
                log: String::new(),
                cpu_ms: 0.0,
                wall_ms: 0.0,
            },
            tests,
        }
    }

    fn target_with(groups: &[&str], weights: &[(&str, f64)]) -> Target {
        let req = EvaluateRequest {
            programs: Vec::new(),
            problem: None,
            tests: None,
            limits: None,
            checker: None,
            stop_at_first_failure: false,
        };
        let tests: Vec<InlineTest> = groups
            .iter()
            .map(|g| InlineTest {
                input: String::new(),
                output: String::new(),
                group: Some((*g).to_owned()),
            })
            .collect();
        let mut it = inline_target(&req, &tests, &Limits::default()).expect("target");
        it.weights = weights.iter().map(|(g, w)| ((*g).to_owned(), *w)).collect();
        it
    }

    #[test]
    fn scores_count_fraction_all_or_nothing_and_subtask_minimum() {
        use Verdict::*;
        let target = target_with(&["a", "a", "b", "b"], &[]);
        let it = scores(&report(&[AC, AC, AC, WA], WA), &target);
        assert_eq!((it.passed, it.total), (3, 4));
        assert_eq!(it.fraction, 0.75);
        assert_eq!(it.all_or_nothing, 0.0);
        assert_eq!(it.ioi, 0.5);
        let all = scores(&report(&[AC, AC, AC, AC], AC), &target);
        assert_eq!((all.fraction, all.all_or_nothing, all.ioi), (1.0, 1.0, 1.0));
        // Stopped at the first failure: the tests not run count as failed.
        let stopped = scores(&report(&[WA], WA), &target);
        assert_eq!(
            (stopped.passed, stopped.fraction, stopped.ioi),
            (0, 0.0, 0.0)
        );
        let ce = scores(&report(&[], CE), &target);
        assert_eq!((ce.fraction, ce.ioi), (0.0, 0.0));
    }

    #[test]
    fn subtasks_weigh_by_their_points() {
        use Verdict::*;
        let target = target_with(&["a", "b", "b"], &[("a", 30.0), ("b", 70.0)]);
        let it = scores(&report(&[AC, AC, WA], WA), &target);
        assert!((it.ioi - 0.3).abs() < 1e-12, "{}", it.ioi);
    }

    #[test]
    fn inline_requests_are_checked() {
        let limits = Limits::default();
        let req = |json: serde_json::Value| -> EvaluateRequest {
            serde_json::from_value(json).expect("parses")
        };
        let tests = vec![InlineTest {
            input: "1\n".to_owned(),
            output: "1\n".to_owned(),
            group: None,
        }];
        let bad = req(serde_json::json!({"programs": [], "limits": {"time_s": -1}}));
        assert!(inline_target(&bad, &tests, &limits).is_err());
        let tol = req(serde_json::json!({"programs": [], "checker": {"float_tolerance": 1e-6}}));
        let made = inline_target(&tol, &tests, &limits).expect("valid");
        match &made.problem.validation {
            Validation::Default(flags) => {
                assert_eq!(flags.float_absolute_tolerance, Some(1e-6));
                assert_eq!(flags.float_relative_tolerance, Some(1e-6));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(made.problem.limits.time, secs(2.0));
        let many = vec![tests[0].clone(); limits.max_tests + 1];
        let err = inline_target(&tol, &many, &limits).expect_err("too many");
        assert_eq!(err.status(), 413);
        let unknown: Result<EvaluateRequest, _> =
            serde_json::from_value(serde_json::json!({"programs": [], "stop_on_first_fail": true}));
        assert!(
            unknown
                .expect_err("unknown field")
                .to_string()
                .contains("stop_on_first_fail")
        );
    }

    #[test]
    fn groups_are_test_folders() {
        assert_eq!(group_of("secret/group1/03"), "secret/group1");
        assert_eq!(group_of("sample/1"), "sample");
    }
}
