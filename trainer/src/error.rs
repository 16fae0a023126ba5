//! The trainer's error type: loading and decoding failures, with their context.

use std::path::PathBuf;

/// What went wrong loading or running a model.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The configuration is malformed or not supported.
    #[error("unsupported or malformed model configuration: {0}")]
    Config(String),
    /// A weight is missing or has the wrong shape.
    #[error("weight {name}: {message}")]
    Weight {
        /// The Hugging Face tensor name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// libtorch failed.
    #[error("libtorch: {0}")]
    Torch(#[from] tch::TchError),
    /// The prompt does not fit the context.
    #[error(
        "{tokens} positions needed (the prompt and the tokens to generate), more than the context of {context}"
    )]
    TooLong {
        /// Prompt length.
        tokens: usize,
        /// Context length.
        context: usize,
    },
}

/// The trainer's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
