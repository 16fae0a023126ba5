//! `judge accounting`: how exactly the judge measures and enforces time and memory, on
//! each backend, through the library (`judge::judge`), against the same program measured
//! outside the judge.
//!
//! One C program does both kinds of work, chosen by its input: `c N` runs N steps of a
//! linear congruential generator (a dependent multiply-add chain, one core, no memory
//! traffic), `m B` allocates B bytes and writes every byte; both then print `done`.
//! The host compiles the same source with the same compiler command as the sandbox
//! (Debian's gcc, `-std=gnu17 -O2`) and calibrates the steps per millisecond from bare
//! runs, whose CPU time (user + system) is read with `getrusage(RUSAGE_CHILDREN)` before
//! and after each run.
//!
//! Measured, on each backend:
//! - accuracy: the CPU time the judge reports for a calibrated 500 ms run, against the
//!   mean of bare runs of the same binary on the host (half before, half after the
//!   judge's runs); each judge run must be within 5% or 10 ms of it;
//! - the time limit: runs at 0.9x and 1.1x of a 1 s limit (by the host calibration) must
//!   get AC and TLE every time;
//! - the memory limit: runs touching 0.9x and 1.1x of a 256 MiB limit must get AC and
//!   MLE every time, and 1.5x (above the cgroup's allowance of the limit plus
//!   `MEMORY_HEADROOM`, so the kernel kills it) MLE too.
//!
//! The section it writes to BENCHMARKS.md (between its own markers, replaced on each run)
//! says how each figure is measured. It must run alone: other work on the machine changes
//! CPU times (caches, frequency, a shared core), which is why the load average is written
//! beside the figures.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, bail};
use judge::problems::Verdict;
use judge::sandbox::{BackendKind, MEMORY_HEADROOM, SandboxConfig};
use judge::{Options, Submission, TestResult};

const PROGRAM: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char mode[8];
    unsigned long long n;
    if (scanf("%7s %llu", mode, &n) != 2) return 1;
    if (mode[0] == 'c') {
        unsigned long long x = 1;
        for (unsigned long long i = 0; i < n; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        if (x == 42) puts("unlikely");
    } else {
        char *p = malloc(n);
        if (!p) return 3;
        memset(p, 1, n);
        unsigned long long sum = 0;
        for (unsigned long long i = 0; i < n; i += 4096) sum += p[i];
        if (sum == 1) puts("unlikely");
    }
    puts("done");
    return 0;
}
"#;

/// The sandbox's C compile command, without its file names (see `languages.yaml`).
const COMPILE_FLAGS: &[&str] = &["-std=gnu17", "-O2", "-pipe"];

/// The CPU time of the accuracy runs.
const ACCURACY_TARGET_MS: f64 = 500.0;
/// The time limit of the limit runs.
const TIME_LIMIT_MS: f64 = 1000.0;
/// The memory limit of the limit runs.
const MEMORY_LIMIT_MIB: u64 = 256;
/// How close a judge's CPU time must be to the bare one: 5%, or 10 ms when that is more.
const TOLERANCE_FRACTION: f64 = 0.05;
const TOLERANCE_MS: f64 = 10.0;

const BEGIN_MARKER: &str = "<!-- judge accounting: begin (written by `judge accounting`) -->";
const END_MARKER: &str = "<!-- judge accounting: end -->";

/// The command line's settings.
pub(crate) struct Config {
    /// Accuracy runs per backend (and bare runs on the host).
    pub(crate) runs: usize,
    /// Runs of each program at a limit, per backend.
    pub(crate) limit_runs: usize,
    /// The backends to measure.
    pub(crate) backends: Vec<BackendKind>,
    /// The Markdown file whose section is replaced.
    pub(crate) out: PathBuf,
}

/// One backend's accuracy figures.
struct Accuracy {
    backend: BackendKind,
    judged_ms: Vec<f64>,
}

/// One program at a limit on one backend.
struct LimitRow {
    backend: BackendKind,
    what: String,
    wanted: Verdict,
    verdicts: Vec<Verdict>,
    /// The judge's CPU ms, or peak MiB, per run.
    figures: Vec<f64>,
    unit: &'static str,
    /// The judge's message on the first run that is not AC (how the limit was found).
    reason: String,
}

pub(crate) async fn run(config: Config) -> anyhow::Result<ExitCode> {
    if config.runs < 2 || config.limit_runs == 0 {
        bail!("--runs must be at least 2 and --limit-runs at least 1");
    }
    let sandbox = SandboxConfig::discover()?;
    let work = tempfile::tempdir()?;
    let source = work.path().join("work.c");
    std::fs::write(&source, PROGRAM)?;
    let binary = work.path().join("work");
    let status = Command::new("gcc")
        .args(COMPILE_FLAGS)
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .status()
        .context("gcc on the host")?;
    if !status.success() {
        bail!("gcc failed on the host");
    }
    let load_before = load_average();

    // Calibration: the median of three bare runs of 2e8 steps.
    let probe_steps: u64 = 200_000_000;
    let mut per_step = (0..3)
        .map(|_| {
            bare_cpu_ms(&binary, &format!("c {probe_steps}")).map(|ms| ms / probe_steps as f64)
        })
        .collect::<anyhow::Result<Vec<f64>>>()?;
    per_step.sort_by(f64::total_cmp);
    let ms_per_step = per_step[1];
    let steps_for = |ms: f64| (ms / ms_per_step).round() as u64;
    eprintln!("calibrated: {:.3} ns per step", ms_per_step * 1e6);

    let cache = work.path().join("cache");
    let judge_all = |dir: PathBuf, backend: BackendKind| {
        let source = source.clone();
        let cache = cache.clone();
        let sandbox = sandbox.clone();
        async move { judge_package(&dir, &source, backend, &sandbox, &cache).await }
    };

    // Accuracy.
    let accuracy_input = format!("c {}", steps_for(ACCURACY_TARGET_MS));
    let accuracy_dir = work.path().join("accuracy");
    package(&accuracy_dir, 2000, 512, &accuracy_input, config.runs)?;
    let mut bare = Vec::with_capacity(config.runs);
    for _ in 0..config.runs / 2 {
        bare.push(bare_cpu_ms(&binary, &accuracy_input)?);
    }
    let mut accuracy = Vec::new();
    for backend in &config.backends {
        let tests = judge_all(accuracy_dir.clone(), *backend).await?;
        if let Some(bad) = tests.iter().find(|t| t.verdict != Verdict::AC) {
            bail!(
                "the accuracy program got {} on {} ({})",
                bad.verdict,
                backend.name(),
                bad.message
            );
        }
        accuracy.push(Accuracy {
            backend: *backend,
            judged_ms: tests.iter().map(|t| t.cpu_ms).collect(),
        });
    }
    while bare.len() < config.runs {
        bare.push(bare_cpu_ms(&binary, &accuracy_input)?);
    }

    // Limits.
    let mut rows = Vec::new();
    let time_cases = [(0.9, Verdict::AC), (1.1, Verdict::TLE)];
    let mib = 1024.0 * 1024.0;
    let memory_cases = [(0.9, Verdict::AC), (1.1, Verdict::MLE), (1.5, Verdict::MLE)];
    for backend in &config.backends {
        for (factor, wanted) in time_cases {
            let dir = work.path().join(format!("time-{factor}"));
            let input = format!("c {}", steps_for(TIME_LIMIT_MS * factor));
            package(&dir, TIME_LIMIT_MS as u64, 512, &input, config.limit_runs)?;
            let tests = judge_all(dir, *backend).await?;
            rows.push(LimitRow {
                backend: *backend,
                what: format!(
                    "{factor}x the time limit ({:.0} ms CPU on the host)",
                    TIME_LIMIT_MS * factor
                ),
                wanted,
                verdicts: tests.iter().map(|t| t.verdict).collect(),
                figures: tests.iter().map(|t| t.cpu_ms).collect(),
                unit: "ms CPU",
                reason: reason(&tests),
            });
        }
        for (factor, wanted) in memory_cases {
            let dir = work.path().join(format!("memory-{factor}"));
            let bytes = (MEMORY_LIMIT_MIB as f64 * factor * mib) as u64;
            package(
                &dir,
                2000,
                MEMORY_LIMIT_MIB,
                &format!("m {bytes}"),
                config.limit_runs,
            )?;
            let tests = judge_all(dir, *backend).await?;
            rows.push(LimitRow {
                backend: *backend,
                what: format!(
                    "{factor}x the memory limit ({:.1} MiB written)",
                    bytes as f64 / mib
                ),
                wanted,
                verdicts: tests.iter().map(|t| t.verdict).collect(),
                figures: tests.iter().map(|t| t.peak_kib as f64 / 1024.0).collect(),
                unit: "MiB peak",
                reason: reason(&tests),
            });
        }
    }
    let load_after = load_average();

    let section = render(&Rendered {
        ms_per_step,
        bare: &bare,
        accuracy: &accuracy,
        rows: &rows,
        runs: config.runs,
        limit_runs: config.limit_runs,
        load: (load_before, load_after),
    });
    println!("{section}");
    write_section(&config.out, &section)?;
    eprintln!("wrote the accounting section of {}", config.out.display());
    let accurate = accuracy.iter().all(|a| {
        a.judged_ms
            .iter()
            .all(|ms| within_tolerance(*ms, mean(&bare)))
    });
    let enforced = rows
        .iter()
        .all(|r| r.verdicts.iter().all(|v| *v == r.wanted));
    Ok(if accurate && enforced {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn reason(tests: &[TestResult]) -> String {
    tests
        .iter()
        .find(|t| t.verdict != Verdict::AC)
        .map(|t| t.message.replace('|', "/"))
        .unwrap_or_default()
}

/// Writes a package with `tests` secret tests, all with the same input, each answered
/// `done`.
fn package(
    root: &Path,
    time_ms: u64,
    memory_mib: u64,
    input: &str,
    tests: usize,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(root.join("data/secret"))?;
    std::fs::write(
        root.join("problem.yaml"),
        format!(
            "problem_format_version: 2025-09\nname: Accounting\nuuid: accounting\n\
             limits:\n  time_limit: {}\n  memory: {memory_mib}\n",
            time_ms as f64 / 1000.0
        ),
    )?;
    for idx in 0..tests {
        std::fs::write(
            root.join(format!("data/secret/{idx:03}.in")),
            format!("{input}\n"),
        )?;
        std::fs::write(root.join(format!("data/secret/{idx:03}.ans")), "done\n")?;
    }
    Ok(())
}

/// Judges the program on every test of the package (all tests run), returning each
/// test's result.
async fn judge_package(
    dir: &Path,
    source: &Path,
    backend: BackendKind,
    sandbox: &SandboxConfig,
    cache: &Path,
) -> anyhow::Result<Vec<TestResult>> {
    let (problem, _) = judge::problems::load(dir)?;
    let submission = Submission::from_file(source, Some("c"), problem.limits.code_bytes)?;
    let options = Options {
        backend,
        run_all: true,
        cache_dir: Some(cache.to_path_buf()),
    };
    let report = judge::judge(&problem, &submission, sandbox, &options, &mut |_| {}).await?;
    if report.tests.len() != report.total {
        bail!(
            "{} ran {} of {} tests on {}",
            dir.display(),
            report.tests.len(),
            report.total,
            backend.name()
        );
    }
    Ok(report.tests)
}

/// Runs the host binary once with `input` on stdin and returns its CPU time (user +
/// system) in milliseconds, from `getrusage(RUSAGE_CHILDREN)` before and after.
fn bare_cpu_ms(binary: &Path, input: &str) -> anyhow::Result<f64> {
    use std::io::Write;
    let before = children_cpu_ms()?;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("starting the bare run")?;
    child
        .stdin
        .take()
        .context("the bare run's stdin")?
        .write_all(format!("{input}\n").as_bytes())?;
    let out = child.wait_with_output()?;
    let after = children_cpu_ms()?;
    if !out.status.success() || out.stdout != b"done\n" {
        bail!("the bare run failed: {}", out.status);
    }
    Ok(after - before)
}

/// CPU time (user + system) of every child this process has waited for, in milliseconds.
#[allow(unsafe_code)] // reason: one getrusage call; std cannot read a child's CPU time
fn children_cpu_ms() -> anyhow::Result<f64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes one rusage into the valid, writable buffer given.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) };
    if rc != 0 {
        bail!("getrusage: {}", std::io::Error::last_os_error());
    }
    // SAFETY: getrusage succeeded, so it filled the buffer (zeroed before anyway).
    let usage = unsafe { usage.assume_init() };
    let ms = |tv: libc::timeval| tv.tv_sec as f64 * 1000.0 + tv.tv_usec as f64 / 1000.0;
    Ok(ms(usage.ru_utime) + ms(usage.ru_stime))
}

fn within_tolerance(judged_ms: f64, bare_ms: f64) -> bool {
    (judged_ms - bare_ms).abs() <= (bare_ms * TOLERANCE_FRACTION).max(TOLERANCE_MS)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        })
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|it| it.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// The machine, as one line: cores, CPU model, kernel.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|r| r.trim_start_matches([' ', '\t', ':']).to_owned())
            })
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|it| it.trim().to_owned())
        .unwrap_or_else(|_| "?".to_owned());
    format!("{cores} cores (nproc), {model}, Linux {kernel}")
}

/// Today's date (UTC) from `date`, which every machine the judge runs on has.
fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|it| it.trim().to_owned())
        .unwrap_or_else(|| "unknown date".to_owned())
}

struct Rendered<'a> {
    ms_per_step: f64,
    bare: &'a [f64],
    accuracy: &'a [Accuracy],
    rows: &'a [LimitRow],
    runs: usize,
    limit_runs: usize,
    load: (String, String),
}

fn render(it: &Rendered<'_>) -> String {
    let bare_mean = mean(it.bare);
    let (bare_lo, bare_hi) = min_max(it.bare);
    let mut res = String::new();
    res += &format!("{BEGIN_MARKER}\n## judge accounting\n\n");
    res += &format!(
        "Command: `cargo build -p judge-cli && ~/.cache/arena/target/debug/judge accounting --runs {} --limit-runs {}` (writes this section; run it alone).\n",
        it.runs, it.limit_runs
    );
    res += &format!(
        "Machine: {}; run on {}; load average {} before and {} after (two cores shared with other work).\n\n",
        machine(),
        today(),
        it.load.0,
        it.load.1
    );
    res += "How it is measured:\n";
    res += "- One C program, compiled in the sandbox by the judge and on the host by the same compiler command (Debian gcc 12, `-std=gnu17 -O2`): input `c N` runs N dependent multiply-adds, `m B` writes B bytes of a `malloc`ed block; both print `done`.\n";
    res += &format!(
        "- Calibration on the host: three bare runs of 2e8 steps, median {:.3} ns per step; the step counts below come from it.\n",
        it.ms_per_step * 1e6
    );
    res += "- Bare CPU time: user + system time of the host binary, from `getrusage(RUSAGE_CHILDREN)` before and after each run (a plain fork+exec, no sandbox).\n";
    res += "- Judge CPU time: `cpu_ms` of each test as `judge::judge` reports it (the supervisor's `wait4` rusage of the program, user + system), one package of identical tests per figure, every test run.\n";
    res += "- Error of a judge run: its CPU time minus the mean bare CPU time (bare runs half before and half after the judge's runs); it must be within 5% or 10 ms, whichever is more.\n";
    res += &format!(
        "- Limits: the time limit is {TIME_LIMIT_MS:.0} ms, the memory limit {MEMORY_LIMIT_MIB} MiB (the cgroup allows {} MiB more for the supervisor and work folder: 1.5x is above that, so the kernel kills it); each program runs {} times per backend and must get the verdict shown every time.\n\n",
        MEMORY_HEADROOM >> 20,
        it.limit_runs
    );
    res += &format!(
        "Accuracy of a calibrated {ACCURACY_TARGET_MS:.0} ms program over {} runs: bare mean {bare_mean:.1} ms (range {bare_lo:.1} to {bare_hi:.1}).\n\n",
        it.runs
    );
    res += "| backend | judge mean (ms) | mean error | mean abs. error | max abs. error | every run within 5% or 10 ms |\n";
    res += "|---|---|---|---|---|---|\n";
    for acc in it.accuracy {
        let errors: Vec<f64> = acc.judged_ms.iter().map(|ms| ms - bare_mean).collect();
        let abs: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
        let max_abs = abs.iter().copied().fold(0.0, f64::max);
        let all_within = acc
            .judged_ms
            .iter()
            .all(|ms| within_tolerance(*ms, bare_mean));
        res += &format!(
            "| {} | {:.1} | {:+.2}% ({:+.1} ms) | {:.2}% | {:.2}% ({:.1} ms) | {} |\n",
            acc.backend.name(),
            mean(&acc.judged_ms),
            100.0 * mean(&errors) / bare_mean,
            mean(&errors),
            100.0 * mean(&abs) / bare_mean,
            100.0 * max_abs / bare_mean,
            max_abs,
            if all_within { "yes" } else { "no" }
        );
    }
    res += "\n| backend | program | wanted | verdicts | judge's figure (min to max) | every time | judge's message (first rejected run) |\n";
    res += "|---|---|---|---|---|---|---|\n";
    for row in it.rows {
        let mut counts: Vec<(Verdict, usize)> = Vec::new();
        for verdict in &row.verdicts {
            match counts.iter_mut().find(|(v, _)| v == verdict) {
                Some((_, n)) => *n += 1,
                None => counts.push((*verdict, 1)),
            }
        }
        let counts = counts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let (lo, hi) = min_max(&row.figures);
        let every = row.verdicts.iter().all(|v| *v == row.wanted);
        res += &format!(
            "| {} | {} | {} | {counts} | {lo:.1} to {hi:.1} {} | {} | {} |\n",
            row.backend.name(),
            row.what,
            row.wanted,
            row.unit,
            if every { "yes" } else { "no" },
            row.reason
        );
    }
    res += &format!("{END_MARKER}\n");
    res
}

/// Replaces the text between the markers in `path` with `section`, or appends it.
fn write_section(path: &Path, section: &str) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let res = match (text.find(BEGIN_MARKER), text.find(END_MARKER)) {
        (Some(begin), Some(end)) if begin < end => {
            let after = &text[end + END_MARKER.len()..];
            let after = after.strip_prefix('\n').unwrap_or(after);
            format!("{}{section}{after}", &text[..begin])
        }
        _ => {
            let sep = if text.is_empty() || text.ends_with("\n\n") {
                ""
            } else if text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            format!("{text}{sep}{section}")
        }
    };
    std::fs::write(path, res).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_replaced_not_repeated() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("BENCHMARKS.md");
        std::fs::write(&path, "# Benchmarks\n\n## other\n\ntext\n").expect("write");
        let section = |n: u32| format!("{BEGIN_MARKER}\nfigure {n}\n{END_MARKER}\n");
        write_section(&path, &section(1)).expect("first");
        write_section(&path, &section(2)).expect("second");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            format!("# Benchmarks\n\n## other\n\ntext\n\n{}", section(2))
        );
    }

    #[test]
    fn tolerance_is_five_percent_or_ten_ms() {
        assert!(within_tolerance(520.0, 500.0));
        assert!(!within_tolerance(530.0, 500.0));
        assert!(within_tolerance(109.0, 100.0));
        assert!(!within_tolerance(111.0, 100.0));
    }
}
