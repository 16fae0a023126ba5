//! The trainer: a tch policy model that loads Hugging Face Llama, Qwen2 and Qwen3 checkpoints
//! (`config.json` + safetensors) and decodes with a KV cache; the ground for Agentic GRPO.
//!
//! The only crate that links libtorch. Shape mistakes inside `forward` are programmer
//! errors (tch panics); loading and decoding return [`Error`].

pub mod batching;
pub mod bench;
pub mod checkpoint;
pub mod config;
pub mod decoder;
mod error;
pub mod family;
pub mod generate;
pub mod grpo;
pub mod lora;
pub mod metrics;
pub mod model;
pub mod optim;
pub mod policy;
pub mod precision;
pub mod rng;
pub mod rope;
pub mod server;
pub mod tokenizer;
pub mod toy;
pub mod train;

pub use error::{Error, Result};
