//! The `judge` command line: `run`, `verify`, `languages`, `selftest`, `bench`,
//! `accounting`, `serve` (the contest server) and `sandbox` (the reward service of
//! `judge-sandbox`: SandboxFusion's, Judge0's and the native API).
//!
//! Exit codes: 0 accepted (or every check passed), 1 a rejected verdict (or a failed
//! check), 2 the judge itself failed (a judge error, JE, included).

mod accounting;
mod bench;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use judge::problems::{TimeLimitSource, Verdict};
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::{Options, Submission};

#[derive(Parser)]
#[command(
    name = "judge",
    about = "Compile and run submissions against problem packages in a sandbox"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge one source file against a problem package.
    Run(RunArgs),
    /// Check that every reference submission gets the verdict its folder names.
    Verify {
        /// The sandbox backend.
        #[arg(long, value_enum, default_value = "docker")]
        backend: BackendKind,
        /// Submissions judged at once.
        #[arg(long, default_value_t = 2)]
        parallel: usize,
        /// CPUs' worth of time each submission's sandbox may use per second of wall time
        /// (a kernel quota on both backends; default: 1).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        cpus: Option<u32>,
        /// The interpreter of Python 3 (`.py`) files: the package's accepted submissions
        /// measured for a derived time limit and every `.py` submission (default: pypy3 for a legacy package,
        /// as problemtools runs Python 3; python3, CPython, otherwise).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(judge::lang::PYTHONS))]
        python: Option<String>,
        /// Problem package folders.
        #[arg(required = true)]
        packages: Vec<PathBuf>,
    },
    /// List the languages with the toolchain versions found in the sandbox.
    Languages {
        /// The sandbox backend.
        #[arg(long, value_enum, default_value = "docker")]
        backend: BackendKind,
    },
    /// Compile and run every language's self-test program (an echo) in the sandbox.
    Selftest {
        /// The sandbox backend.
        #[arg(long, value_enum, default_value = "docker")]
        backend: BackendKind,
    },
    /// Serve contests over HTTP: the CLICS Contest API under /api and a judging queue.
    Serve {
        /// Contest definition files (YAML or JSON) to load at start.
        #[arg(long)]
        contest: Vec<PathBuf>,
        /// Database: a SQLite file (`sqlite://FILE` or a path) or `postgres://...`.
        #[arg(long, default_value = "sqlite://arena.db")]
        db: String,
        /// Address to listen on (port 0 picks a free one; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// Judging workers in this process.
        #[arg(long, default_value_t = 2)]
        workers: usize,
        /// The sandbox backend.
        #[arg(long, value_enum, default_value = "docker")]
        backend: BackendKind,
        /// The admin token (default: the ARENA_ADMIN_TOKEN variable).
        #[arg(long, env = "ARENA_ADMIN_TOKEN", hide_env_values = true)]
        admin_token: String,
        /// Seconds a worker's claim on a submission lasts without renewal.
        #[arg(long, default_value_t = 30)]
        lease_seconds: u64,
        /// Times a submission is taken before a judge error stands as its verdict.
        #[arg(long, default_value_t = 3)]
        max_attempts: i64,
        /// CPUs' worth of time each submission's sandbox may use per second of wall time
        /// (a kernel quota on both backends; default: 1, or the contest files' `cpus`).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        cpus: Option<u32>,
        /// Nice steps below judging at which HTTP is served (0..=19; 0: the same
        /// priority), so that polling clients cannot starve the workers.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=19))]
        http_nice: u8,
        /// Marks the web page's session cookie `Secure`: for a server behind an HTTPS
        /// proxy (`judge serve` itself speaks plain HTTP).
        #[arg(long)]
        secure_cookies: bool,
    },
    /// Serve the judge as a code-execution and reward service for RL trainers:
    /// SandboxFusion's /run_code, Judge0 CE's /submissions and the native /v1/evaluate.
    Sandbox(SandboxArgs),
    /// Per-test cost of each backend against a bare fork+exec (see BENCHMARKS.md).
    Bench {
        /// Number of tests.
        #[arg(long, default_value_t = 100)]
        tests: usize,
        /// Also time a naive `docker run` per test over this many tests.
        #[arg(long, default_value_t = 20)]
        docker_run_tests: usize,
        /// Take every measurement this many times and report the median.
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    /// Time and memory accounting on each backend against bare runs; writes its section
    /// of BENCHMARKS.md (see BENCHMARKS.md). Run it alone.
    Accounting {
        /// Runs of the calibrated program per backend (and bare runs on the host).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Runs of each program at 0.9x and 1.1x of a limit, per backend.
        #[arg(long, default_value_t = 10)]
        limit_runs: usize,
        /// The backends to measure (default: both).
        #[arg(long, value_enum)]
        backend: Vec<BackendKind>,
        /// The Markdown file whose accounting section is written.
        #[arg(long, default_value = "BENCHMARKS.md")]
        out: PathBuf,
    },
}

/// `judge run`'s arguments, as parsed.
#[derive(clap::Args)]
struct RunArgs {
    /// The problem package folder.
    #[arg(long)]
    problem: PathBuf,
    /// The language id (default: from the file's extension).
    #[arg(long)]
    lang: Option<String>,
    /// The sandbox backend.
    #[arg(long, value_enum, default_value = "docker")]
    backend: BackendKind,
    /// Run every test even after a failure.
    #[arg(long)]
    all: bool,
    /// One JSON line per test as it finishes, then one for the submission.
    #[arg(long)]
    json: bool,
    /// Do not use the compile cache.
    #[arg(long)]
    no_cache: bool,
    /// CPUs' worth of time each submission's sandbox may use per second of wall time
    /// (a kernel quota on both backends; default: 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    cpus: Option<u32>,
    /// The interpreter of Python 3 (`.py`) files: the package's accepted submissions
    /// measured for a derived time limit, and the source file when `--lang` is not given (default: pypy3 for a legacy package,
    /// as problemtools runs Python 3; python3, CPython, otherwise).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(judge::lang::PYTHONS))]
    python: Option<String>,
    /// The source file.
    file: PathBuf,
}

/// `judge sandbox`'s arguments, as parsed.
#[derive(clap::Args)]
struct SandboxArgs {
    /// Address to listen on (port 0 picks a free one; `listening on http://ADDR` is
    /// printed once bound). Loopback unless told otherwise.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// A problem package, or a folder of packages, that /v1/evaluate may name (repeatable).
    #[arg(long)]
    problems: Vec<PathBuf>,
    /// The bearer token every route but /v1/ping needs (default: the
    /// ARENA_SANDBOX_TOKEN variable; none: no token needed).
    #[arg(long, env = "ARENA_SANDBOX_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Requests that may wait for a worker beyond those being judged; more get 503.
    #[arg(long, default_value_t = judge_sandbox::DEFAULT_QUEUE)]
    queue: usize,
    /// Programs judged at once (default: the machine's CPUs).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    workers: Option<u32>,
    /// Seconds a /run_code request may wait for a worker before it is answered 504
    /// (which verl retries).
    #[arg(long, default_value_t = judge_sandbox::DEFAULT_QUEUE_TIMEOUT_S)]
    queue_timeout: u64,
    /// CPUs' worth of time each sandbox may use per second of wall time (a kernel quota
    /// on both backends; default: 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    cpus: Option<u32>,
    /// The sandbox backend.
    #[arg(long, value_enum, default_value = "docker")]
    backend: BackendKind,
    /// The largest source accepted, in bytes (413 above).
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_source_bytes)]
    max_source_bytes: usize,
    /// The largest standard input (or inline test input) accepted, in bytes.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_stdin_bytes)]
    max_stdin_bytes: usize,
    /// The largest request body accepted, in bytes.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_body_bytes)]
    max_body_bytes: usize,
    /// Standard output kept per run on /run_code and Judge0, in bytes; more is OLE.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().stdout_bytes)]
    stdout_bytes: usize,
    /// Tests per program in one request.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_tests)]
    max_tests: usize,
    /// Programs in one /v1/evaluate request.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_programs)]
    max_programs: usize,
    /// Output one /v1/evaluate program may write over all its tests, in bytes.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_total_output_bytes)]
    max_total_output_bytes: u64,
    /// The most CPU seconds a request may ask per run.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_time_s)]
    max_time: f64,
    /// The most MiB a request may ask per run.
    #[arg(long, default_value_t = judge_sandbox::Limits::default().max_memory_mb)]
    max_memory: f64,
    /// Wall seconds a compile may take (/run_code, Judge0, inline tests; a package
    /// problem's own limit applies to it).
    #[arg(long, default_value_t = judge_sandbox::Limits::default().compile_time_s)]
    compile_time: f64,
    /// MiB a compile may use (likewise).
    #[arg(long, default_value_t = judge_sandbox::Limits::default().compile_memory_mb)]
    compile_memory: f64,
}

/// `judge sandbox`: the reward service until the process is stopped.
async fn sandbox(args: SandboxArgs) -> anyhow::Result<ExitCode> {
    let mut opts = judge_sandbox::ServeOptions::new(args.backend);
    opts.listen = args.listen;
    opts.problems = args.problems;
    opts.token = args.token;
    opts.queue = args.queue;
    if let Some(workers) = args.workers {
        opts.workers = workers as usize;
    }
    opts.queue_timeout = std::time::Duration::from_secs(args.queue_timeout.max(1));
    opts.limits = judge_sandbox::Limits {
        max_source_bytes: args.max_source_bytes,
        max_stdin_bytes: args.max_stdin_bytes,
        max_body_bytes: args.max_body_bytes,
        stdout_bytes: args.stdout_bytes,
        max_tests: args.max_tests,
        max_programs: args.max_programs,
        max_total_output_bytes: args.max_total_output_bytes,
        max_time_s: args.max_time,
        max_memory_mb: args.max_memory,
        default_memory_mb: judge_sandbox::Limits::default()
            .default_memory_mb
            .min(args.max_memory),
        compile_time_s: args.compile_time,
        compile_memory_mb: args.compile_memory,
    };
    let mut config = SandboxConfig::discover()?;
    config.cpus = args.cpus;
    judge_sandbox::serve(opts, config).await?;
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("judge: cannot start the async runtime: {err}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(dispatch(cli.command)) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("judge: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Derived time limits, one file per package identity ([`judge::timelimit`]).
fn timelimit_dir() -> PathBuf {
    judge::timelimit::default_cache()
}

async fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Run(args) => run(&args).await,
        Command::Verify {
            backend,
            parallel,
            cpus,
            python,
            packages,
        } => verify(backend, parallel, cpus, python.as_deref(), &packages).await,
        Command::Languages { backend } => languages(backend).await,
        Command::Selftest { backend } => selftest(backend).await,
        Command::Serve {
            contest,
            db,
            listen,
            workers,
            backend,
            admin_token,
            lease_seconds,
            max_attempts,
            cpus,
            http_nice,
            secure_cookies,
        } => {
            let opts = judge_server::ServeOptions {
                contests: contest,
                db,
                listen,
                workers,
                judge: Options {
                    backend,
                    run_all: false,
                    cache_dir: Some(judge::compile_cache_dir()),
                },
                admin_token,
                lease: std::time::Duration::from_secs(lease_seconds.max(1)),
                max_attempts: max_attempts.max(1),
                max_body: 2 << 20,
                http_nice,
                secure_cookies,
            };
            let mut config = SandboxConfig::discover()?;
            config.cpus = cpus;
            judge_server::serve(opts, config).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sandbox(args) => sandbox(args).await,
        Command::Bench {
            tests,
            docker_run_tests,
            rounds,
        } => bench::run(tests, docker_run_tests, rounds).await,
        Command::Accounting {
            runs,
            limit_runs,
            backend,
            out,
        } => {
            let backends = if backend.is_empty() {
                vec![BackendKind::Docker, BackendKind::Bwrap]
            } else {
                backend
            };
            accounting::run(accounting::Config {
                runs,
                limit_runs,
                backends,
                out,
            })
            .await
        }
    }
}

/// `judge run`: loads the package, judges the file, prints a line per test and the
/// verdict (or JSON lines), and returns the exit code of the verdict.
async fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let (problem_dir, file) = (&args.problem, &args.file);
    let python = args.python.as_deref();
    let (mut problem, warnings) = judge::problems::load_for_judging(problem_dir)?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    // One Python per package: the interpreter `--python` names, else the package's
    // (PyPy for a legacy package, as `verify` and the derived limit use), runs a `.py`
    // file unless `--lang` names a language.
    let python = judge::lang::python_for(problem_dir, python)?;
    let lang = args
        .lang
        .as_deref()
        .or_else(|| judge::lang::reference_language(file, python));
    let submission = Submission::from_file(file, lang, problem.limits.code_bytes)?;
    let mut config = SandboxConfig::discover()?;
    config.cpus = args.cpus;
    let options = Options {
        backend: args.backend,
        run_all: args.all,
        cache_dir: (!args.no_cache).then(judge::compile_cache_dir),
    };
    if problem.limits.time_source == TimeLimitSource::Default {
        eprintln!(
            "no time limit in {}: it comes from the package's accepted submissions, measured \
             once and kept in {}",
            problem_dir.display(),
            timelimit_dir().display()
        );
    }
    let time_limit = judge::timelimit::resolve(
        &mut problem,
        &config,
        &options,
        Some(&timelimit_dir()),
        python,
    )
    .await?;
    let mut stdout = std::io::stdout();
    let mut on_test = |test: &judge::TestResult| {
        let line = if args.json {
            serde_json::to_string(test).expect("invariant: a TestResult serializes")
        } else {
            format!(
                "{:<28} {:<4} {:>8.0} ms cpu {:>8.0} ms wall {:>9} KiB  {}",
                test.name, test.verdict, test.cpu_ms, test.wall_ms, test.peak_kib, test.message
            )
        };
        let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    };
    let report = judge::judge(&problem, &submission, &config, &options, &mut on_test).await?;
    if args.json {
        let mut value = serde_json::to_value(&report).context("serializing the report")?;
        if let Some(object) = value.as_object_mut() {
            object.insert(
                "time_limit".to_owned(),
                serde_json::to_value(&time_limit).context("serializing the time limit")?,
            );
        }
        println!("{value}");
    } else {
        if !report.compile.ok {
            println!("{}", report.compile.log.trim_end());
        }
        println!(
            "verdict {} ({} of {} tests passed, score {})",
            report.verdict, report.passed, report.total, report.score
        );
        println!("{time_limit}");
    }
    Ok(match report.verdict {
        Verdict::AC => ExitCode::SUCCESS,
        // A judge error (e.g. a crashing output validator) is the judge's failure.
        Verdict::JE => ExitCode::from(2),
        _ => ExitCode::from(1),
    })
}

async fn verify(
    backend: BackendKind,
    parallel: usize,
    cpus: Option<u32>,
    python: Option<&str>,
    packages: &[PathBuf],
) -> anyhow::Result<ExitCode> {
    let mut config = SandboxConfig::discover()?;
    config.cpus = cpus;
    let options = Options {
        backend,
        run_all: false,
        cache_dir: Some(judge::compile_cache_dir()),
    };
    let mut failures = 0;
    let mut judge_errors = 0;
    println!(
        "{:<20} {:<52} {:<12} {:<5} {:>8}  result",
        "problem", "submission", "expected", "got", "max cpu"
    );
    for dir in packages {
        let timelimits = timelimit_dir();
        let verification = match judge::verify::verify(
            dir,
            &config,
            &options,
            parallel,
            Some(&timelimits),
            python,
        )
        .await
        {
            Ok(it) => it,
            Err(err) => {
                println!("{:<20} package error: {}", dir.display(), err.with_causes());
                failures += 1;
                continue;
            }
        };
        println!("{:<20} {}", dir.display(), verification.time_limit);
        println!(
            "{:<20} .py submissions run as {} (problem format {})",
            dir.display(),
            verification.python,
            verification.format
        );
        let inputs = &verification.inputs;
        for skipped in &inputs.skipped {
            println!(
                "{:<20} warning: input validator not run: {skipped}",
                dir.display()
            );
        }
        let validators: std::collections::BTreeSet<&str> =
            inputs.checks.iter().map(|c| c.validator.as_str()).collect();
        let invalid: Vec<_> = inputs.invalid().collect();
        println!(
            "{:<20} input validation: {} inputs checked by {} validator(s), {} invalid",
            dir.display(),
            inputs.checks.len(),
            validators.len(),
            invalid.len()
        );
        for check in invalid {
            failures += 1;
            let args = if check.args.is_empty() {
                String::new()
            } else {
                format!(" with arguments `{}`", check.args.join(" "))
            };
            println!(
                "{:<20} INVALID INPUT {} ({}{args}): {}",
                dir.display(),
                check.case,
                check.validator,
                check.message
            );
        }
        for row in verification.rows {
            let expected = row
                .expected
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("|");
            let result = match (&row.error, row.ok()) {
                (Some(err), _) => {
                    judge_errors += 1;
                    format!("JUDGE ERROR: {err}")
                }
                (None, true) => "ok".to_owned(),
                (None, false) => {
                    failures += 1;
                    "MISMATCH".to_owned()
                }
            };
            println!(
                "{:<20} {:<52} {:<12} {:<5} {:>5.0} ms  {result}",
                row.problem,
                row.submission.display(),
                expected,
                row.got.to_string(),
                row.max_cpu_ms
            );
        }
    }
    println!("{failures} mismatches, {judge_errors} judge errors");
    Ok(if judge_errors > 0 {
        ExitCode::from(2)
    } else if failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

async fn languages(backend: BackendKind) -> anyhow::Result<ExitCode> {
    let config = SandboxConfig::discover()?;
    for (lang, version) in judge::probe::versions(backend, &config).await? {
        println!(
            "{:<8} {:<22} {:<10} {}",
            lang.id,
            lang.name,
            lang.extensions.join(","),
            version
        );
        let command = |template: &[String]| lang.command(template, "", 256).join(" ");
        println!("{:<8} compile: {}", "", command(&lang.compile));
        println!("{:<8} run:     {}", "", command(&lang.run));
    }
    println!("\n{}", judge::grade::rules());
    println!("\nIn the package format's language list but not runnable here:");
    for spec in judge::lang::unsupported()? {
        println!(
            "{:<12} {:<14} .{:<20} {}",
            spec.code,
            spec.name,
            spec.extensions.join(" ."),
            spec.why.unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

async fn selftest(backend: BackendKind) -> anyhow::Result<ExitCode> {
    let config = SandboxConfig::discover()?;
    let mut ok = true;
    for (lang, res) in judge::probe::self_tests(backend, &config).await? {
        let line = match res {
            Ok(report) if report.verdict == Verdict::AC => "ok".to_owned(),
            Ok(report) => {
                ok = false;
                format!("FAILED: {} {}", report.verdict, report.compile.log.trim())
            }
            Err(err) => {
                ok = false;
                format!("FAILED: {}", err.with_causes())
            }
        };
        println!("{:<8} {line}", lang.id);
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
