//! `judge bench`: the per-test cost of judging a trivial program over N tests on each
//! backend, side by side in one run, against a bare fork+exec of the same binary and a
//! naive `docker run` per test. Each backend is timed end to end through the library
//! (`judge::judge`, compile cache warm) on an N-test and a 1-test package: the amortized
//! cost is total/N, the marginal cost (total(N) - total(1)) / (N - 1).
//!
//! In the same rounds, the agent's stress run through the workbench: the same program on
//! N inputs through `Workbench::run_inputs` and on N cases made on the fly through
//! `Workbench::judge_cases`, each against the N-test judging through `judge::judge`, as
//! a ratio of totals.

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::{Context, bail};
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::{Case, Compiled, Program, RunInput, RunLimits, RunStatus, Workbench};
use judge::{Options, Submission};

const PROGRAM: &str = "#include <stdio.h>\nint main(void){long a; if (scanf(\"%ld\", &a) != 1) return 1; printf(\"%ld\\n\", a * 2); return 0;}\n";

fn package(root: &Path, tests: usize) -> anyhow::Result<()> {
    std::fs::create_dir_all(root.join("data/secret"))?;
    std::fs::write(
        root.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Double\nuuid: bench\nlimits:\n  time_limit: 1\n  memory: 256\n",
    )?;
    for i in 0..tests {
        std::fs::write(
            root.join(format!("data/secret/{i:03}.in")),
            format!("{i}\n"),
        )?;
        std::fs::write(
            root.join(format!("data/secret/{i:03}.ans")),
            format!("{}\n", 2 * i),
        )?;
    }
    Ok(())
}

async fn time_backend(
    backend: BackendKind,
    config: &SandboxConfig,
    dir: &Path,
    source: &Path,
    cache: &Path,
) -> anyhow::Result<f64> {
    let (problem, _) = judge::problems::load(dir)?;
    let submission = Submission::from_file(source, None, problem.limits.code_bytes)?;
    let options = Options {
        backend,
        run_all: true,
        cache_dir: Some(cache.to_path_buf()),
    };
    let started = Instant::now();
    let report = judge::judge(&problem, &submission, config, &options, &mut |_| {}).await?;
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    if report.verdict != judge::problems::Verdict::AC {
        bail!(
            "the benchmark program got {} on {}",
            report.verdict,
            backend.name()
        );
    }
    Ok(elapsed)
}

/// The workbench's side of a round on one backend: the total milliseconds of the stress
/// run through `run_inputs` and of the made cases through `judge_cases`, each checked.
async fn time_workbench(
    bench: &Workbench,
    program: &Program,
    problem: &judge::problems::Problem,
    inputs: &[RunInput],
    cases: &[Case],
) -> anyhow::Result<(f64, f64)> {
    let name = bench.backend().name();
    let started = Instant::now();
    let runs = bench
        .run_inputs(program, inputs, &RunLimits::of(problem))
        .await?;
    let run_ms = started.elapsed().as_secs_f64() * 1000.0;
    for (i, run) in runs.iter().enumerate() {
        if run.status != RunStatus::Ok || run.stdout != format!("{}\n", 2 * i) {
            bail!("the stress run on {name} went wrong on input {i}: {run:?}");
        }
    }
    let started = Instant::now();
    let results = bench.judge_cases(problem, program, cases).await?;
    let cases_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Some(bad) = results
        .iter()
        .find(|r| r.verdict != judge::problems::Verdict::AC)
    {
        bail!("judge_cases on {name}: {bad:?}");
    }
    Ok((run_ms, cases_ms))
}

/// `judge bench`: every backend and the workbench timed in rounds, printed as one table.
/// It is long because it is one measuring script: each round times the same steps in the
/// same order on the same work folders and packages, and the table needs all of them.
pub(crate) async fn run(
    tests: usize,
    docker_run_tests: usize,
    rounds: usize,
) -> anyhow::Result<ExitCode> {
    if tests < 2 {
        bail!("--tests must be at least 2");
    }
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let config = SandboxConfig::discover()?;
    let work = tempfile::tempdir()?;
    let many = work.path().join("many");
    let one = work.path().join("one");
    package(&many, tests)?;
    package(&one, 1)?;
    let source = work.path().join("double.c");
    std::fs::write(&source, PROGRAM)?;
    let cache = work.path().join("cache");

    // Bare fork+exec of the same program compiled on the host.
    let binary = work.path().join("double");
    let status = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .context("gcc")?;
    if !status.success() {
        bail!("gcc failed");
    }
    let bare_once = || -> anyhow::Result<f64> {
        let started = Instant::now();
        for i in 0..tests {
            let input = std::fs::File::open(many.join(format!("data/secret/{i:03}.in")))?;
            let out = Command::new(&binary)
                .stdin(input)
                .stdout(Stdio::piped())
                .output()?;
            if !out.status.success() {
                bail!("bare run failed");
            }
        }
        Ok(started.elapsed().as_secs_f64() * 1000.0 / tests as f64)
    };

    // Each measurement is taken `rounds` times, the rounds interleaved so that a burst of
    // other work on the machine hits every row alike; the median is reported.
    let backends = [BackendKind::Docker, BackendKind::Bwrap];
    for backend in backends {
        // Warm the compile cache.
        time_backend(backend, &config, &one, &source, &cache).await?;
    }
    // The workbench: the same program, the same inputs and answers as the N-test package.
    let (many_problem, _) = judge::problems::load(&many)?;
    let inputs: Vec<RunInput> = (0..tests)
        .map(|i| RunInput::stdin(format!("{i}\n")))
        .collect();
    let cases: Vec<Case> = (0..tests)
        .map(|i| Case {
            input: format!("{i}\n"),
            answer: format!("{}\n", 2 * i),
        })
        .collect();
    let mut benches = Vec::with_capacity(backends.len());
    for backend in backends {
        let bench = Workbench::new(config.clone(), backend, Some(cache.clone()))?;
        let program = match bench.compile("c", PROGRAM).await? {
            Compiled::Ok(program) => program,
            Compiled::Failed { message } => bail!("the benchmark program: {message}"),
        };
        benches.push((bench, program));
    }
    let mut run_samples = vec![Vec::with_capacity(rounds); backends.len()];
    let mut case_samples = vec![Vec::with_capacity(rounds); backends.len()];
    let mut bare_samples = Vec::with_capacity(rounds);
    let mut many_samples = vec![Vec::with_capacity(rounds); backends.len()];
    let mut one_samples = vec![Vec::with_capacity(rounds); backends.len()];
    for round in 0..rounds {
        bare_samples.push(bare_once()?);
        for (idx, backend) in backends.iter().enumerate() {
            // The workbench goes first in every other round, so that neither side always
            // follows the other.
            let (bench, program) = &benches[idx];
            let workbench_first = round % 2 == 1;
            let mut times = None;
            if workbench_first {
                times = Some(time_workbench(bench, program, &many_problem, &inputs, &cases).await?);
            }
            many_samples[idx].push(time_backend(*backend, &config, &many, &source, &cache).await?);
            one_samples[idx].push(time_backend(*backend, &config, &one, &source, &cache).await?);
            let (run_ms, cases_ms) = match times {
                Some(times) => times,
                None => time_workbench(bench, program, &many_problem, &inputs, &cases).await?,
            };
            run_samples[idx].push(run_ms);
            case_samples[idx].push(cases_ms);
        }
    }
    // Per backend: the medians of the totals, and two estimates that resist other work on
    // the machine: the median of each round's own ratio (both sides of a ratio ran
    // seconds apart) and the ratio of the fastest rounds.
    let mut stress_rows = Vec::with_capacity(backends.len());
    for (idx, backend) in backends.iter().enumerate() {
        let judged = &many_samples[idx];
        let paired = |side: &[f64]| {
            let mut ratios: Vec<f64> = side.iter().zip(judged).map(|(w, j)| w / j).collect();
            median(&mut ratios)
        };
        let fastest = |side: &[f64]| side.iter().copied().fold(f64::INFINITY, f64::min);
        stress_rows.push(StressRow {
            backend: backend.name(),
            judged: median(&mut judged.clone()),
            run: median(&mut run_samples[idx].clone()),
            cases: median(&mut case_samples[idx].clone()),
            run_paired: paired(&run_samples[idx]),
            cases_paired: paired(&case_samples[idx]),
            run_fastest: fastest(&run_samples[idx]) / fastest(judged),
            cases_fastest: fastest(&case_samples[idx]) / fastest(judged),
        });
    }
    let bare = median(&mut bare_samples);
    let mut rows = vec![("bare fork+exec".to_owned(), bare, bare)];
    for (idx, backend) in backends.iter().enumerate() {
        let total_many = median(&mut many_samples[idx]);
        let total_one = median(&mut one_samples[idx]);
        let amortized = total_many / tests as f64;
        let marginal = (total_many - total_one) / (tests - 1) as f64;
        rows.push((format!("{} backend", backend.name()), amortized, marginal));
    }

    // Naive: one `docker run` per test.
    if docker_run_tests > 0 {
        let dir = binary
            .parent()
            .expect("invariant: the binary is in the work folder");
        let started = Instant::now();
        for i in 0..docker_run_tests {
            let input = std::fs::File::open(many.join(format!("data/secret/{:03}.in", i % tests)))?;
            let out = Command::new("docker")
                .args(["run", "--rm", "-i", "--network", "none", "-v"])
                .arg(format!("{}:/bench:ro", dir.display()))
                .args([config.image.as_str(), "/bench/double"])
                .stdin(input)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .output()?;
            if !out.status.success() {
                bail!(
                    "docker run failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        let per = started.elapsed().as_secs_f64() * 1000.0 / docker_run_tests as f64;
        rows.push((
            format!("naive docker run per test ({docker_run_tests} runs)"),
            per,
            per,
        ));
    }

    println!(
        "judging a trivial C program over {tests} tests (per test, milliseconds, median of {rounds} rounds)"
    );
    println!(
        "{:<42} {:>12} {:>10} {:>12} {:>10}",
        "", "amortized", "x bare", "marginal", "x bare"
    );
    for (name, amortized, marginal) in rows {
        println!(
            "{name:<42} {amortized:>12.2} {:>10.1} {marginal:>12.2} {:>10.1}",
            amortized / bare,
            marginal / bare
        );
    }
    println!();
    println!(
        "the agent's stress run: {tests} inputs through the workbench against {tests} tests through judge::judge (total milliseconds, median of {rounds} rounds)"
    );
    println!(
        "{:<10} {:>13} {:>11} {:>12} {:>7} {:>8} {:>8}",
        "backend", "judge::judge", "workbench", "total", "ratio", "paired", "fastest"
    );
    for row in stress_rows {
        for (what, total, paired, fastest) in [
            ("run_inputs", row.run, row.run_paired, row.run_fastest),
            (
                "judge_cases",
                row.cases,
                row.cases_paired,
                row.cases_fastest,
            ),
        ] {
            println!(
                "{:<10} {:>13.1} {what:>11} {total:>12.1} {:>7.2} {paired:>8.2} {fastest:>8.2}",
                row.backend,
                row.judged,
                total / row.judged,
            );
        }
    }
    println!(
        "ratio: of the medians; paired: median of each round's own ratio; fastest: of the fastest rounds"
    );
    Ok(ExitCode::SUCCESS)
}

/// One backend's line of the stress-run table (milliseconds and ratios).
struct StressRow {
    backend: &'static str,
    judged: f64,
    run: f64,
    cases: f64,
    run_paired: f64,
    cases_paired: f64,
    run_fastest: f64,
    cases_fastest: f64,
}

/// The median of the samples (the mean of the middle two for an even count).
fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let mid = samples.len() / 2;
    if samples.len().is_multiple_of(2) {
        (samples[mid - 1] + samples[mid]) / 2.0
    } else {
        samples[mid]
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
    }
}
