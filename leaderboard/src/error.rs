//! The leaderboard's error type: bad input, named with where it was found.

use std::path::PathBuf;

/// What went wrong reading standings, feeds or results.
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
    /// A file or line is not the JSON expected.
    #[error("{what}: {message}")]
    Format {
        /// Where: a file, a row, a feed line.
        what: String,
        /// What is wrong.
        message: String,
    },
    /// A computation was asked of data that cannot support it.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    pub(crate) fn format(what: impl Into<String>, message: impl std::fmt::Display) -> Error {
        Error::Format {
            what: what.into(),
            message: message.to_string(),
        }
    }
}

/// The leaderboard's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
