//! The `trainer` command line: `trainer serve --model DIR [--listen ADDR] [--device D]
//! [--dtype T] [--max-batch N]`.
//! It prints `listening on http://ADDR` once the server accepts connections.
//! Exit code 0 on a clean stop, 2 when it cannot start (bad model folder, address in use).
//!
//! `trainer train --problems DIR --model DIR --out DIR [--config FILE] [--resume]
//! [--device cpu|cuda|auto] [--stop-after N]`: GRPO through the agent (see `trainer::train`),
//! a status line per step on stderr; exit 0 when the steps are done (or the configured time
//! budget ran out, with a checkpoint of the last step), 2 on an error.
//!
//! `trainer eval --model DIR --problems DIR [--split held-out|training] --samples K
//! --config FILE --out FILE.json [--seed S] [--device cpu|cuda|auto]`: K episodes of every
//! problem of the split, no training (see `trainer::train::eval`), a line per finished
//! episode on stderr, pass@1 on stdout.
//!
//! `trainer report --run OUTDIR --before FILE.json --after FILE.json --out DIR
//! [--resamples R] [--seed S]`: `DIR/report.json`, `DIR/report.md` and the learning curves
//! (see `trainer::train::report`). Both exit 0 on success, 2 on an error.
//!
//! `trainer compare-toy --out DIR [--seeds N] [--steps N] [--dtype f32|bf16] ...`: outcome,
//! process and Agentic GRPO on the toy task (`trainer::toy::compare`); prints the files
//! written.
//!
//! `--dtype auto|f32|bf16|f16` on `serve`, `train`, `eval` and `bench` sets the matrix
//! products' precision (`trainer::precision`); `auto`, the default, takes bf16 where the
//! CPU has AMX or AVX512-BF16 (or on CUDA) and says on stderr which path it took and why.
//!
//! `trainer bench --model DIR [--replay FILE] [--llama-python PY --gguf LABEL=PATH]`:
//! float32 against mixed precision side by side (`trainer::bench::precision`); its last
//! line is `bf16 over float32: update N.NNx, generate b1 N.NNx, ...`.
//! `trainer bench-transformers` and `trainer bench-prompt` compare against transformers
//! and the shared prompt; `trainer gpu-check` checks a CUDA device (`ci/gpu-check`);
//! `trainer bench-memory [--lora] [--checkpointing]` measures one update's peak memory on
//! a random model of Qwen2.5-0.5B's shape.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};
use trainer::precision::{self, Dtype};

#[derive(Parser)]
#[command(
    name = "trainer",
    about = "The policy model: serve it over an OpenAI-compatible API"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the model at /v1/chat/completions and /v1/models.
    Serve(ServeArgs),
    /// Train the policy with (Agentic) GRPO through the agent on judged problems.
    Train(TrainArgs),
    /// Outcome-only, process-reward and Agentic GRPO on the toy task, every variant on
    /// every seed: writes toy.json, toy.md and SVG plots (see `trainer::toy::compare`).
    CompareToy(CompareToyArgs),
    /// Evaluate a model (a starting model or a checkpoint): K episodes of every problem
    /// through the agent and the judge, no training; writes a JSON file with pass@1,
    /// pass@k, the fraction of hidden tests passed and the compiled share, per problem and
    /// over problems, with 95% intervals. Resumes from its per-episode records; reuses a
    /// cached evaluation of the same key.
    Eval(EvalArgs),
    /// The reference solutions' negative log-likelihood per reply token, each in the
    /// agent's own code request (one forward pass per solution, no sampling): a cheap,
    /// paired measure of a model on one list of the split. Never used to pick a checkpoint.
    Nll(NllArgs),
    /// Compare two evaluations of a training run: every measure (pass@1, pass@k, the
    /// fraction of hidden tests passed, the compiled share) before, after and their
    /// difference with 95% intervals from a paired bootstrap over problems, overall,
    /// in-family and out-of-family; the run's steps, configuration and time; JSON,
    /// Markdown and a plot.
    Report(ReportArgs),
    /// A group's update with its shared prompt computed once against every row in full
    /// (forward and backward of the log-probabilities, on the same weights, in one run).
    BenchPrompt(BenchPromptArgs),
    /// float32 against mixed precision side by side, each path in its own process on the
    /// same weights and batch: the GRPO update on a real step's shape (and GFLOP/s against
    /// the matrix-product ceiling), greedy generation at several batch sizes, a recorded
    /// step replayed, peak memory, and the log-probability gap on real prompts.
    Bench(BenchArgs),
    /// One path of `trainer bench` (run by it in a child process): prints its figures as
    /// JSON.
    #[command(hide = true)]
    BenchPath(BenchPathArgs),
    /// The trainer on CUDA against the CPU (a random model of SmolLM2's shapes, nothing
    /// downloaded): log-probability parity in float32 and bf16, one GRPO update, tokens per
    /// second. Without a CUDA device it says so and exits 0.
    GpuCheck,
    /// The peak memory of one GRPO update on a random model of a published shape
    /// (Qwen2.5-0.5B unless --config names a config.json): full or LoRA, with or without
    /// activation checkpointing; prints JSON.
    BenchMemory(BenchMemoryArgs),
    /// Tokens per second and a training step, against transformers on the same weights.
    BenchTransformers(BenchTransformersArgs),
}

/// `trainer serve`'s arguments.
#[derive(Args)]
struct ServeArgs {
    /// A Hugging Face folder (config.json, model.safetensors, tokenizer.json).
    #[arg(long)]
    model: PathBuf,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8000")]
    listen: String,
    /// Where to run the model.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
    /// The weights' and matrix products' precision (auto: bf16 where the CPU has
    /// AMX or AVX512-BF16, or on CUDA; else f32).
    #[arg(long, value_enum, default_value = "auto")]
    dtype: Dtype,
    /// The most sequences decoded together (continuous batching).
    #[arg(long, default_value_t = 32)]
    max_batch: usize,
}

/// `trainer train`'s arguments.
#[derive(Args)]
struct TrainArgs {
    /// Problem packages: a folder of packages (with `split.yaml`: its training list
    /// trains; validation and held-out problems never do), or one package.
    #[arg(long)]
    problems: PathBuf,
    /// The starting model (a Hugging Face folder).
    #[arg(long)]
    model: PathBuf,
    /// The run's folder: checkpoints, metrics.jsonl, metrics.svg, rollouts/.
    #[arg(long)]
    out: PathBuf,
    /// The configuration file (YAML or JSON; every field optional).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Continue the run in --out from its latest checkpoint.
    #[arg(long)]
    resume: bool,
    /// Where to train and decode.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
    /// Stop after this many steps of this invocation (the run can be resumed).
    #[arg(long)]
    stop_after: Option<u64>,
    /// The matrix products' precision; the master weights and AdamW stay float32
    /// (auto: bf16 where the CPU has AMX or AVX512-BF16, or on CUDA; else f32).
    #[arg(long, value_enum, default_value = "auto")]
    dtype: Dtype,
    /// Write the first update's batch to this JSON file (for `trainer bench --replay`).
    #[arg(long)]
    dump_update: Option<PathBuf>,
}

/// `trainer compare-toy`'s arguments.
#[derive(Args)]
struct CompareToyArgs {
    /// Seeds per variant.
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    /// Training steps per run.
    #[arg(long, default_value_t = 150)]
    steps: usize,
    /// Episodes per problem and step (G).
    #[arg(long, default_value_t = 8)]
    group_size: usize,
    /// Peak learning rate (chosen on seeds 101 to 104, away from the reported ones).
    #[arg(long, default_value_t = 0.002)]
    lr: f64,
    /// Agentic: corrections older than this many updates are dropped.
    #[arg(long, default_value_t = 16)]
    staleness_cap: u64,
    /// The score to reach, as a fraction of the best (1.5).
    #[arg(long, default_value_t = 0.6)]
    threshold: f64,
    /// Torch threads (1: the runs do not compete with each other for cores).
    #[arg(long, default_value_t = 1)]
    threads: i32,
    /// The matrix products' format (f32 by default: the toy's matrices are too small
    /// for bf16 to pay; bf16 checks that the conclusions hold in it).
    #[arg(long, value_enum, default_value = "f32")]
    dtype: Dtype,
    /// The output folder.
    #[arg(long)]
    out: PathBuf,
}

/// `trainer eval`'s arguments.
#[derive(Args)]
struct EvalArgs {
    /// A Hugging Face folder: the starting model or a checkpoint of `trainer train`
    /// (its tokenizer, if missing, comes from the run's starting model).
    #[arg(long)]
    model: PathBuf,
    /// Problem packages, as for `trainer train` (with `split.yaml`, the --split list;
    /// without, every package).
    #[arg(long)]
    problems: PathBuf,
    /// Which list of `split.yaml` to evaluate.
    #[arg(long, value_enum, default_value = "held-out")]
    split: trainer::train::eval::Split,
    /// Episodes per problem (at least 8 for pass@8).
    #[arg(long, default_value_t = 8)]
    samples: usize,
    /// The training configuration whose pipeline, sampling, `max_batch` and rewards
    /// the episodes use.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The JSON file to write; each finished episode goes to NAME.episodes.jsonl
    /// beside it, from which an interrupted evaluation resumes.
    #[arg(long)]
    out: PathBuf,
    /// The cache of finished evaluations, reused when the model, precision, problems,
    /// sampling, samples and seed match (default: $ARENA_CACHE/evals).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Neither reuse nor keep a cached evaluation.
    #[arg(long, conflicts_with = "cache")]
    no_cache: bool,
    /// The seed every episode's sampling seed derives from (default: the config's).
    #[arg(long)]
    seed: Option<u64>,
    /// The sampling temperature of the episodes, instead of the configuration's (0:
    /// greedy); part of the evaluation's key, so a cached evaluation at another
    /// temperature is not reused.
    #[arg(long)]
    temperature: Option<f32>,
    /// Where to decode.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
    /// The weights' and matrix products' precision (auto: bf16 where the CPU has
    /// AMX or AVX512-BF16, or on CUDA; else f32).
    #[arg(long, value_enum, default_value = "auto")]
    dtype: Dtype,
}

/// `trainer nll`'s arguments.
#[derive(Args)]
struct NllArgs {
    /// A Hugging Face folder (the starting model or a checkpoint).
    #[arg(long)]
    model: PathBuf,
    /// Problem packages, as for `trainer train`.
    #[arg(long)]
    problems: PathBuf,
    /// Which list of `split.yaml` to measure.
    #[arg(long, value_enum, default_value = "held-out")]
    split: trainer::train::eval::Split,
    /// The training configuration whose pipeline renders the request.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The JSON file to write.
    #[arg(long)]
    out: PathBuf,
    /// Where to compute.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
    /// The matrix products' precision.
    #[arg(long, value_enum, default_value = "auto")]
    dtype: Dtype,
}

/// `trainer report`'s arguments.
#[derive(Args)]
struct ReportArgs {
    /// The run's folder (`trainer train --out`).
    #[arg(long)]
    run: PathBuf,
    /// `trainer eval` of the starting model.
    #[arg(long)]
    before: PathBuf,
    /// `trainer eval` of the trained checkpoint.
    #[arg(long)]
    after: PathBuf,
    /// The folder for report.json, report.md and learning_curves.svg.
    #[arg(long)]
    out: PathBuf,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 10_000)]
    resamples: usize,
    /// The bootstrap's seed (default: the run's).
    #[arg(long)]
    seed: Option<u64>,
}

/// `trainer bench-prompt`'s arguments.
#[derive(Args)]
struct BenchPromptArgs {
    /// A Hugging Face folder.
    #[arg(long)]
    model: PathBuf,
    /// Rows: a group's replies to one prompt.
    #[arg(long, default_value_t = 8)]
    rows: usize,
    /// Prompt tokens (the easy set's prompt with its worked example is about 700).
    #[arg(long, default_value_t = 700)]
    prompt: usize,
    /// The longest reply (lengths spread up to it).
    #[arg(long, default_value_t = 256)]
    reply: usize,
    /// Rounds of the two ways taking turns (the median is reported).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// torch's threads (default: torch's own choice).
    #[arg(long)]
    threads: Option<i32>,
}

/// `trainer bench`'s arguments.
#[derive(Args)]
struct BenchArgs {
    /// A Hugging Face folder.
    #[arg(long)]
    model: PathBuf,
    /// The path compared with float32 (auto: bf16 where the CPU has AMX or
    /// AVX512-BF16, or on CUDA).
    #[arg(long, value_enum, default_value = "auto")]
    dtype: Dtype,
    /// Update: rows sharing one prompt.
    #[arg(long, default_value_t = 8)]
    rows: usize,
    /// Update: the shared prompt's tokens.
    #[arg(long, default_value_t = 700)]
    prompt: usize,
    /// Update: the longest reply (lengths spread up to it; 400 gives rows of about 900
    /// tokens on average).
    #[arg(long, default_value_t = 400)]
    reply: usize,
    /// Generation: tokens per sequence.
    #[arg(long, default_value_t = 64)]
    new_tokens: usize,
    /// Generation: batch sizes.
    #[arg(long, value_delimiter = ',', default_value = "1,8,16")]
    batches: Vec<usize>,
    /// Timed repeats of each measurement (the median), after a warm-up.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// A batch written by `trainer train --dump-update`, replayed through the update.
    #[arg(long)]
    replay: Option<PathBuf>,
    /// Packages whose statements and reference solutions are the real prompts of the
    /// log-probability gap.
    #[arg(long, default_value = "problems/packages")]
    prompts: PathBuf,
    /// A Python with llama-cpp-python (`trainer/scripts/bench-llama-cpp` makes one):
    /// llama.cpp's greedy batch-1 tokens per second on the same prompt, in this run.
    #[arg(long)]
    llama_python: Option<PathBuf>,
    /// GGUF files for llama.cpp, each `LABEL=PATH`.
    #[arg(long)]
    gguf: Vec<String>,
    /// torch's threads in both paths (default: torch's own choice).
    #[arg(long)]
    threads: Option<i32>,
    /// Where both paths run.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
}

/// `trainer bench-path`'s arguments.
#[derive(Args)]
struct BenchPathArgs {
    #[arg(long)]
    model: PathBuf,
    /// `f32`, `bf16` or `f16`.
    #[arg(long, value_enum)]
    dtype: Dtype,
    /// The settings, as JSON.
    #[arg(long)]
    settings: String,
    #[arg(long)]
    threads: Option<i32>,
    /// `cpu`, `cuda` or `cuda:N`.
    #[arg(long, default_value = "cpu")]
    device: String,
}

/// `trainer bench-transformers`'s arguments.
#[derive(Args)]
struct BenchTransformersArgs {
    /// A Hugging Face folder.
    #[arg(long)]
    model: PathBuf,
    /// Tokens generated per sequence.
    #[arg(long, default_value_t = 32)]
    new_tokens: usize,
    /// Batch sizes for generation.
    #[arg(long, value_delimiter = ',', default_value = "1,8")]
    batches: Vec<usize>,
    /// Sequences in the training step.
    #[arg(long, default_value_t = 8)]
    train_batch: i64,
    /// Tokens per sequence in the training step.
    #[arg(long, default_value_t = 64)]
    train_seq: i64,
    /// The venv's python with transformers (default: $ARENA_PYTHON).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Rollouts: groups decoded in the measured training step.
    #[arg(long, default_value_t = 2)]
    groups: usize,
    /// Rollouts: G, replies per group.
    #[arg(long, default_value_t = 8)]
    group_size: usize,
    /// Rollouts: the longest reply (a group's lengths are spread up to it).
    #[arg(long, default_value_t = 96)]
    rollout_tokens: usize,
    /// Rollouts: sequences decoded together (static batch size, batcher slots).
    #[arg(long, default_value_t = 8)]
    max_batch: usize,
    /// Optimization step: rollouts in the batch.
    #[arg(long, default_value_t = 8)]
    step_rows: usize,
    /// Optimization step: prompt tokens of each rollout.
    #[arg(long, default_value_t = 64)]
    step_prompt: usize,
    /// Optimization step: the longest reply (lengths spread up to it).
    #[arg(long, default_value_t = 128)]
    step_reply: usize,
    /// Optimization step: timed steps (the median is reported), after a warm-up.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Rollouts: rounds of the three ways taking turns (the median is reported).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// torch's threads on both sides (default: torch's own choice).
    #[arg(long)]
    threads: Option<i32>,
}

/// `trainer bench-memory`'s arguments.
#[derive(Args)]
struct BenchMemoryArgs {
    /// A config.json whose shape to build (default: Qwen2.5-0.5B's).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The rollout's tokens (one micro-batch of one row).
    #[arg(long, default_value_t = 1024)]
    tokens: usize,
    /// Train LoRA adapters (rank 16 on all seven projections) instead of every weight.
    #[arg(long)]
    lora: bool,
    /// Recompute the layers in the backward pass instead of keeping their activations.
    #[arg(long)]
    checkpointing: bool,
    /// Where to run.
    #[arg(long, value_enum, default_value = "cpu")]
    device: DeviceArg,
    /// The matrix products' precision (float32 master weights and AdamW state either way).
    #[arg(long, value_enum, default_value = "f32")]
    dtype: Dtype,
}

#[derive(Clone, Copy, ValueEnum)]
enum DeviceArg {
    /// The CPU.
    Cpu,
    /// The first CUDA device (an error when none is available).
    Cuda,
    /// The first CUDA device when one is available, else the CPU (the choice is printed).
    Auto,
}

/// A fresh folder under the system's temporary directory for the bench's batch file.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("trainer-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

fn main() -> ExitCode {
    match dispatch(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("trainer: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn device_of(device: DeviceArg) -> anyhow::Result<tch::Device> {
    Ok(trainer::optim::parse_device(match device {
        DeviceArg::Cpu => "cpu",
        DeviceArg::Cuda => "cuda",
        DeviceArg::Auto => {
            let name = if tch::Cuda::is_available() {
                "cuda"
            } else {
                "cpu"
            };
            eprintln!("--device auto: {name}");
            name
        }
    })?)
}

fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Nll(args) => nll(args),
        Command::Eval(args) => eval(args),
        Command::Report(args) => report(args),
        Command::Train(args) => train(args),
        Command::CompareToy(args) => compare_toy(args),
        Command::BenchPrompt(args) => bench_prompt(args),
        Command::Bench(args) => bench(args),
        Command::BenchPath(args) => bench_path(args),
        Command::GpuCheck => gpu_check(),
        Command::BenchMemory(args) => bench_memory(&args),
        Command::BenchTransformers(args) => bench_transformers(args),
        Command::Serve(args) => serve(args),
    }
}

fn nll(args: NllArgs) -> anyhow::Result<()> {
    let NllArgs {
        model,
        problems,
        split,
        config,
        out,
        device,
        dtype,
    } = args;
    let device = device_of(device)?;
    let chosen = precision::choose(dtype, device);
    eprintln!("{}", chosen.describe());
    let train_config = match &config {
        Some(path) => trainer::train::TrainConfig::load(path)?,
        None => trainer::train::TrainConfig::default(),
    };
    let report = trainer::train::sft::nll_report(
        &model,
        &problems,
        split,
        &train_config,
        device,
        chosen.compute,
    )?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "reference NLL per token {:.4} (mean over {} problems {:.4}); {}",
        report["mean_over_tokens"].as_f64().unwrap_or(f64::NAN),
        report["problems"].as_array().map_or(0, Vec::len),
        report["mean_over_problems"].as_f64().unwrap_or(f64::NAN),
        out.display()
    );
    Ok(())
}

fn eval(args: EvalArgs) -> anyhow::Result<()> {
    let EvalArgs {
        model,
        problems,
        split,
        samples,
        config,
        out,
        cache,
        no_cache,
        seed,
        temperature,
        device,
        dtype,
    } = args;
    let device = device_of(device)?;
    let chosen = precision::choose(dtype, device);
    eprintln!("{}", chosen.describe());
    let mut train_config = match &config {
        Some(path) => trainer::train::TrainConfig::load(path)?,
        None => trainer::train::TrainConfig::default(),
    };
    if let Some(temperature) = temperature {
        train_config.temperature = temperature;
        train_config
            .validate()
            .context("trainer eval: --temperature")?;
    }
    let report = trainer::train::eval::run(&trainer::train::eval::EvalArgs {
        model,
        problems,
        split,
        samples,
        out: out.clone(),
        cache: (!no_cache).then(|| cache.unwrap_or_else(|| judge::cache_dir().join("evals"))),
        config: train_config,
        config_path: config,
        seed,
        device,
        compute: chosen.compute,
    })?;
    let text = serde_json::to_string_pretty(&report)? + "\n";
    std::fs::write(&out, text).with_context(|| format!("writing {}", out.display()))?;
    let interval = report
        .measures
        .as_ref()
        .and_then(|m| m.overall.as_ref())
        .map_or(String::new(), |m| {
            format!(" [{:.3}, {:.3}]", m.pass_at_1.low, m.pass_at_1.high)
        });
    println!(
        "pass@1 {:.3}{interval} over {} problems x {} samples ({} passed of {} scored, {} judge errors) in {:.1}s; {}",
        report.pass_at_1,
        report.totals.problems,
        report.samples_per_problem,
        report.totals.passed,
        report.totals.samples,
        report.totals.judge_errors,
        report.wall_s,
        out.display()
    );
    Ok(())
}

fn report(args: ReportArgs) -> anyhow::Result<()> {
    let ReportArgs {
        run,
        before,
        after,
        out,
        resamples,
        seed,
    } = args;
    let report = trainer::train::report::write(&trainer::train::report::ReportArgs {
        run,
        before,
        after,
        out: out.clone(),
        resamples,
        seed,
    })?;
    println!(
        "pass@1 before {:.3} {}, after {:.3} {}, difference {:+.3} {}; {}",
        report["pass_at_1_before"].as_f64().unwrap_or(f64::NAN),
        report["pass_at_1_before_ci95"],
        report["pass_at_1_after"].as_f64().unwrap_or(f64::NAN),
        report["pass_at_1_after_ci95"],
        report["difference"].as_f64().unwrap_or(f64::NAN),
        report["difference_ci95"],
        out.join("report.md").display()
    );
    Ok(())
}

fn train(args: TrainArgs) -> anyhow::Result<()> {
    let TrainArgs {
        problems,
        model,
        out,
        config,
        resume,
        device,
        stop_after,
        dtype,
        dump_update,
    } = args;
    let config = match config {
        Some(path) => trainer::train::TrainConfig::load(&path)?,
        None => trainer::train::TrainConfig::default(),
    };
    let device = device_of(device)?;
    let chosen = precision::choose(dtype, device);
    eprintln!("{}", chosen.describe());
    let paths = trainer::train::RunPaths {
        problems,
        model,
        out: out.clone(),
    };
    if config.algorithm == trainer::train::Algorithm::Sft {
        let mut w =
            trainer::train::sft::Warmstart::new(config, paths, device, chosen.compute, resume)?;
        w.run(stop_after.map(|n| w.step() + n))?;
        println!(
            "warm start to update {} of {}{}; checkpoint {}, metrics {}",
            w.step(),
            w.updates(),
            if w.budget_spent() {
                " (the time budget ran out)"
            } else {
                ""
            },
            out.join("latest").display(),
            out.join("metrics.jsonl").display()
        );
        return Ok(());
    }
    if config.algorithm == trainer::train::Algorithm::Rft {
        let summary =
            trainer::train::rft::run(&config, &paths, device, chosen.compute, resume, stop_after)?;
        println!(
            "rejection sampling: {} rounds{}; checkpoint {}",
            summary.rounds.len(),
            if summary.budget_spent {
                " (the time budget ran out)"
            } else {
                ""
            },
            summary.checkpoint.display()
        );
        return Ok(());
    }
    let mut t = trainer::train::Trainer::new(config, paths, device, chosen.compute, resume)?;
    if let Some(path) = dump_update {
        t.dump_next_update(path);
    }
    let until = stop_after.map(|n| t.step() + n);
    t.run(until)?;
    println!(
        "trained to step {}{}; checkpoint {}, metrics {}",
        t.step(),
        if t.budget_spent() {
            " (the time budget ran out)"
        } else {
            ""
        },
        out.join("latest").display(),
        out.join("metrics.jsonl").display()
    );
    Ok(())
}

fn compare_toy(args: CompareToyArgs) -> anyhow::Result<()> {
    let CompareToyArgs {
        seeds,
        first_seed,
        steps,
        group_size,
        lr,
        staleness_cap,
        threshold,
        threads,
        dtype,
        out,
    } = args;
    let chosen = precision::choose(dtype, tch::Device::Cpu);
    eprintln!("{}", chosen.describe());
    let config = trainer::toy::compare::CompareConfig {
        precision: chosen.name().to_owned(),
        seeds,
        first_seed,
        steps,
        group_size,
        lr,
        staleness_cap,
        threshold,
    };
    tch::set_num_threads(threads);
    let curves = trainer::toy::compare::run(&config, |c| {
        let last = c.points.last().map_or(0.0, |p| p.score);
        eprintln!("{:?} seed {}: score {last:.3}", c.algorithm, c.seed);
    })?;
    let written = trainer::toy::compare::write(&out, &config, &curves)
        .with_context(|| format!("writing the report into {}", out.display()))?;
    for path in written {
        println!("{}", path.display());
    }
    Ok(())
}

fn bench_prompt(args: BenchPromptArgs) -> anyhow::Result<()> {
    let BenchPromptArgs {
        model,
        rows,
        prompt,
        reply,
        rounds,
        threads,
    } = args;
    if let Some(n) = threads {
        tch::set_num_threads(n);
    }
    let weights = trainer::model::Model::load(&model, trainer::bench::device())
        .with_context(|| format!("loading the model from {}", model.display()))?;
    let f = trainer::bench::shared_prompt(&weights, rows, prompt, reply, rounds)?;
    println!(
        "a group's log-probabilities, forward and backward: {} rows sharing a {}-token prompt, {} tokens in all, replies up to {reply}; float32, CPU threads {}; median of {rounds} rounds",
        f.rows,
        f.prompt,
        f.tokens,
        tch::get_num_threads()
    );
    println!("{:<34} {:>10} {:>8}", "", "seconds", "ratio");
    println!(
        "{:<34} {:>10.3} {:>8.2}",
        "every row in full", f.unshared, 1.0
    );
    println!(
        "{:<34} {:>10.3} {:>8.2}",
        "the prompt once",
        f.shared,
        f.unshared / f.shared
    );
    println!(
        "(ratio: speed over every row in full; largest log-probability difference {:.2e})",
        f.max_abs_diff
    );
    Ok(())
}

fn bench(args: BenchArgs) -> anyhow::Result<()> {
    let BenchArgs {
        model,
        dtype,
        rows,
        prompt,
        reply,
        new_tokens,
        batches,
        repeats,
        replay,
        prompts,
        llama_python,
        gguf,
        threads,
        device,
    } = args;
    trainer::bench::set_device(device_of(device)?);
    let exe = std::env::current_exe().context("finding the trainer binary")?;
    let chosen = precision::choose(dtype, trainer::bench::device());
    eprintln!("{}", chosen.describe());
    let compare = trainer::bench::precision::Compare {
        exe,
        model,
        dtype,
        settings: trainer::bench::precision::Settings {
            rows,
            prompt,
            reply,
            new_tokens,
            batches,
            repeats,
            replay,
        },
        prompts,
        llama_python,
        gguf,
        threads,
    };
    let report = trainer::bench::precision::compare(&compare, chosen.compute)?;
    print!("{report}");
    Ok(())
}

fn bench_path(args: BenchPathArgs) -> anyhow::Result<()> {
    let BenchPathArgs {
        model,
        dtype,
        settings,
        threads,
        device,
    } = args;
    trainer::bench::set_device(trainer::optim::parse_device(&device)?);
    if let Some(n) = threads {
        tch::set_num_threads(n);
    }
    let settings: trainer::bench::precision::Settings =
        serde_json::from_str(&settings).context("--settings")?;
    let compute = precision::choose(dtype, trainer::bench::device()).compute;
    let figures = trainer::bench::precision::measure_path(&model, compute, &settings)?;
    println!("{}", serde_json::to_string(&figures)?);
    Ok(())
}

fn bench_memory(args: &BenchMemoryArgs) -> anyhow::Result<()> {
    let config = match &args.config {
        Some(path) => trainer::family::load(path)?.0,
        None => trainer::bench::memory::qwen25_05b_shape(),
    };
    let device = device_of(args.device)?;
    let chosen = precision::choose(args.dtype, device);
    eprintln!("{}", chosen.describe());
    let figures = trainer::bench::memory::measure(
        config,
        device,
        chosen.compute,
        args.tokens,
        args.lora,
        args.checkpointing,
    )?;
    println!(
        "{}",
        serde_json::json!({
            "device": format!("{device:?}"), "tokens": args.tokens, "lora": args.lora,
            "checkpointing": args.checkpointing,
            "compute": trainer::precision::kind_name(chosen.compute), "figures": figures,
        })
    );
    Ok(())
}

fn gpu_check() -> anyhow::Result<()> {
    if !trainer::bench::gpu::check(&mut std::io::stdout())? {
        println!("gpu-check: no CUDA device is available here; nothing to check");
    }
    Ok(())
}

fn bench_transformers(args: BenchTransformersArgs) -> anyhow::Result<()> {
    let BenchTransformersArgs {
        model,
        new_tokens,
        batches,
        train_batch,
        train_seq,
        python,
        groups,
        group_size,
        rollout_tokens,
        max_batch,
        step_rows,
        step_prompt,
        step_reply,
        repeats,
        rounds,
        threads,
    } = args;
    if let Some(n) = threads {
        tch::set_num_threads(n);
    }
    let python = python
        .or_else(|| std::env::var_os("ARENA_PYTHON").map(PathBuf::from))
        .context("no python: pass --python or set ARENA_PYTHON (ci/setup writes it)")?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench_transformers.py");
    let weights = trainer::model::Model::load(&model, trainer::bench::device())
        .with_context(|| format!("loading the model from {}", model.display()))?;
    let ours = trainer::bench::measure(&weights, new_tokens, &batches, train_batch, train_seq)?;
    drop(weights);
    let theirs = trainer::bench::transformers(
        &python,
        &script,
        &model,
        new_tokens,
        &batches,
        train_batch,
        train_seq,
    )?;
    println!(
        "model {}, {new_tokens} new tokens per sequence, greedy, float32, CPU threads {} (torch)",
        model.display(),
        tch::get_num_threads()
    );
    println!(
        "{:<34} {:>12} {:>14} {:>8}",
        "", "trainer", "transformers", "ratio"
    );
    for (batch, tps) in &ours.generate {
        let other = theirs["generate"][batch.to_string()]
            .as_f64()
            .unwrap_or(f64::NAN);
        println!(
            "{:<34} {tps:>12.1} {other:>14.1} {:>8.2}",
            format!("generate tokens/s, batch {batch}"),
            tps / other
        );
    }
    let other = theirs["train_step_seconds"].as_f64().unwrap_or(f64::NAN);
    println!(
        "{:<34} {:>12.3} {other:>14.3} {:>8.2}",
        format!("forward+backward s, {train_batch}x{train_seq}"),
        ours.train_step_seconds,
        other / ours.train_step_seconds
    );
    println!("(ratio: trainer speed over transformers speed; above 1 means the trainer is faster)");

    // Rollouts three ways, then the optimization step against PyTorch's.
    let weights = trainer::model::Model::load(&model, trainer::bench::device())
        .with_context(|| format!("loading the model from {}", model.display()))?;
    let r = trainer::bench::rollouts(
        &weights,
        groups,
        group_size,
        rollout_tokens,
        max_batch,
        rounds,
    )?;
    println!(
        "\nrollouts: {} requests ({groups} groups of G = {group_size}, replies up to {rollout_tokens} tokens, {} in all), temperature 1, {} decoded together",
        r.requests, r.tokens, r.max_batch
    );
    println!("{:<34} {:>12} {:>8}", "", "tokens/s", "ratio");
    for (name, tps) in [
        ("one request at a time", r.sequential),
        ("static batches", r.static_batch),
        ("continuous batching", r.continuous),
    ] {
        println!("{name:<34} {tps:>12.1} {:>8.2}", tps / r.sequential);
    }
    println!(
        "(ratio: over one request at a time; median of {rounds} rounds; batcher: {} steps, {} rows decoded, {} cache rebuilds)",
        r.stats.steps, r.stats.rows_decoded, r.stats.rebuilds
    );
    let dir = tempfile_dir()?;
    let batch_file = dir.join("grpo_batch.safetensors");
    let ours = trainer::bench::optimization_step(
        &weights,
        step_rows,
        step_prompt,
        step_reply,
        repeats,
        &batch_file,
    )?;
    drop(weights);
    let step_script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/grpo_bench.py");
    let theirs = trainer::bench::pytorch_step(&python, &step_script, &model, &batch_file, repeats)?;
    let _ = std::fs::remove_dir_all(&dir);
    let other = theirs["seconds"].as_f64().unwrap_or(f64::NAN);
    println!(
        "\noptimization step: {} rollouts, {} tokens ({} action tokens), median of {repeats}",
        ours.rows, ours.tokens, ours.action_tokens
    );
    println!(
        "{:<34} {:>12} {:>14} {:>8}",
        "", "trainer", "pytorch", "ratio"
    );
    println!(
        "{:<34} {:>12.3} {other:>14.3} {:>8.2}",
        "seconds per step",
        ours.seconds,
        other / ours.seconds
    );
    println!(
        "{:<34} {:>12.1} {:>14.1} {:>8.2}",
        "tokens/s",
        ours.tokens as f64 / ours.seconds,
        ours.tokens as f64 / other,
        other / ours.seconds
    );
    Ok(())
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let ServeArgs {
        model,
        listen,
        device,
        dtype,
        max_batch,
    } = args;
    let device = device_of(device)?;
    let chosen = precision::choose(dtype, device);
    eprintln!("{}", chosen.describe());
    let kind = chosen.compute;
    let name = model
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".to_owned());
    let tokenizer = trainer::tokenizer::ChatTokenizer::load(&model)
        .with_context(|| format!("loading the tokenizer from {}", model.display()))?;
    let weights = trainer::model::Model::load_as(&model, device, kind)
        .with_context(|| format!("loading the model from {}", model.display()))?;
    // A checkpoint of `trainer train` says its policy version; a starting model is 0.
    let version = if model.join("trainer_state.json").is_file() {
        trainer::checkpoint::read_state(&model)
            .with_context(|| format!("reading the checkpoint state in {}", model.display()))?
            .version
    } else {
        0
    };
    let config = trainer::server::ServeConfig { max_batch, version };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&listen)
            .await
            .with_context(|| format!("binding {listen}"))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        println!("listening on http://{addr}");
        use std::io::Write;
        std::io::stdout().flush().context("stdout")?;
        trainer::server::serve(listener, weights, tokenizer, name, config)
            .await
            .context("serving")
    })
}
