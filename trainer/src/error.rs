//! The trainer's error type: loading and decoding failures, with their context.

use std::path::PathBuf;

/// What went wrong loading or running a model.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read (the cause is the source, printed by the chain, not here).
    #[error("cannot read {}", path.display())]
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
    /// libtorch failed: its own message, once.
    #[error(transparent)]
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
    /// An optimization step failed (the cause is the source).
    #[error("the optimization step failed")]
    Optimize(#[source] crate::grpo::GrpoError),
    /// The decoder thread stopped, or a decoding step failed (its message).
    #[error("decoding failed: {0}")]
    Decoder(String),
}

/// The trainer's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_leaves_its_cause_to_the_chain() {
        let err = Error::Io {
            path: "/m/config.json".into(),
            source: std::io::Error::other("boom"),
        };
        assert_eq!(err.to_string(), "cannot read /m/config.json");
        let chain = format!("{:#}", anyhow::Error::new(err));
        assert_eq!(chain, "cannot read /m/config.json: boom");
    }
}
