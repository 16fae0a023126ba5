//! The `trainer` command line: `trainer serve --model DIR [--listen ADDR] [--device D]`.
//! It prints `listening on http://ADDR` once the server accepts connections.
//! Exit code 0 on a clean stop, 2 when it cannot start (bad model folder, address in use).
//!
//! `trainer train --problems DIR --model DIR --out DIR [--config FILE] [--resume]
//! [--device cpu|cuda] [--stop-after N]`: GRPO through the agent (see `trainer::train`),
//! a status line per step on stderr; exit 0 when the steps are done, 2 on an error.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};

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
    Serve {
        /// A Hugging Face folder (config.json, model.safetensors, tokenizer.json).
        #[arg(long)]
        model: PathBuf,
        /// Address to listen on (port 0 picks a free port).
        #[arg(long, default_value = "127.0.0.1:8000")]
        listen: String,
        /// Where to run the model.
        #[arg(long, value_enum, default_value = "cpu")]
        device: DeviceArg,
        /// The weights' precision.
        #[arg(long, value_enum, default_value = "f32")]
        dtype: DtypeArg,
    },
    /// Train the policy with (Agentic) GRPO through the agent on judged problems.
    Train {
        /// Problem packages: a folder of packages (with `split.yaml`: its training and
        /// held-out lists), or one package.
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
    },
    /// Tokens per second and a training step, against transformers on the same weights.
    Bench {
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
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DtypeArg {
    /// float32.
    F32,
    /// bfloat16 (normalisation, softmax and logprobs stay in float32).
    Bf16,
    /// float16 (for GPUs).
    F16,
}

#[derive(Clone, Copy, ValueEnum)]
enum DeviceArg {
    /// The CPU.
    Cpu,
    /// The first CUDA device (an error when none is available).
    Cuda,
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("trainer: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Train {
            problems,
            model,
            out,
            config,
            resume,
            device,
            stop_after,
        } => {
            let config = match config {
                Some(path) => trainer::train::TrainConfig::load(&path)?,
                None => trainer::train::TrainConfig::default(),
            };
            let device = trainer::optim::parse_device(match device {
                DeviceArg::Cpu => "cpu",
                DeviceArg::Cuda => "cuda",
            })?;
            let paths = trainer::train::RunPaths {
                problems,
                model,
                out: out.clone(),
            };
            let mut t = trainer::train::Trainer::new(config, paths, device, resume)?;
            let until = stop_after.map(|n| t.step() + n);
            t.run(until)?;
            println!(
                "trained to step {}; checkpoint {}, metrics {}",
                t.step(),
                out.join("latest").display(),
                out.join("metrics.jsonl").display()
            );
            Ok(())
        }
        Command::Bench {
            model,
            new_tokens,
            batches,
            train_batch,
            train_seq,
            python,
        } => {
            let python = python
                .or_else(|| std::env::var_os("ARENA_PYTHON").map(PathBuf::from))
                .context("no python: pass --python or set ARENA_PYTHON (ci/setup writes it)")?;
            let script =
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench_transformers.py");
            let weights = trainer::model::Model::load(&model, trainer::bench::device())
                .with_context(|| format!("loading the model from {}", model.display()))?;
            let ours =
                trainer::bench::measure(&weights, new_tokens, &batches, train_batch, train_seq)?;
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
            println!(
                "(ratio: trainer speed over transformers speed; above 1 means the trainer is faster)"
            );
            Ok(())
        }
        Command::Serve {
            model,
            listen,
            device,
            dtype,
        } => {
            let kind = match dtype {
                DtypeArg::F32 => tch::Kind::Float,
                DtypeArg::Bf16 => tch::Kind::BFloat16,
                DtypeArg::F16 => tch::Kind::Half,
            };
            let device = match device {
                DeviceArg::Cpu => tch::Device::Cpu,
                DeviceArg::Cuda if tch::Cuda::is_available() => tch::Device::Cuda(0),
                DeviceArg::Cuda => anyhow::bail!("--device cuda: no CUDA device is available"),
            };
            let name = model
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".to_owned());
            let tokenizer = trainer::tokenizer::ChatTokenizer::load(&model)
                .with_context(|| format!("loading the tokenizer from {}", model.display()))?;
            let weights = trainer::model::Model::load_as(&model, device, kind)
                .with_context(|| format!("loading the model from {}", model.display()))?;
            let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind(&listen)
                    .await
                    .with_context(|| format!("binding {listen}"))?;
                let addr = listener.local_addr().context("reading the bound address")?;
                println!("listening on http://{addr}");
                use std::io::Write;
                std::io::stdout().flush().context("stdout")?;
                trainer::server::serve(listener, weights, tokenizer, name)
                    .await
                    .context("serving")
            })
        }
    }
}
