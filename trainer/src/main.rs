//! The `trainer` command line: `trainer serve --model DIR [--listen ADDR] [--device D]`.
//! It prints `listening on http://ADDR` once the server accepts connections.
//! Exit code 0 on a clean stop, 2 when it cannot start (bad model folder, address in use).

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
    },
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
        Command::Serve {
            model,
            listen,
            device,
        } => {
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
            let weights = trainer::model::Model::load(&model, device)
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
                axum::serve(listener, trainer::server::app(weights, tokenizer, name))
                    .await
                    .context("serving")
            })
        }
    }
}
