//! The agent library's general error type: what stops the agent itself (a package that
//! does not load, a file that cannot be written, a pipeline file that does not parse).
//! The model, the client's configuration, the contest client and live play have error
//! types of their own beside their code (see the crate doc). What a model or a program
//! does wrong is data in the trajectory, never an [`Error`].

use std::path::PathBuf;

/// What went wrong, with where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem package did not load.
    #[error("problem package {path}: {source}")]
    Package {
        /// The package folder.
        path: PathBuf,
        /// Why.
        source: problems::Error,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A pipeline, budget or trajectory file is not what it should be.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the line or field.
        reason: String,
    },
    /// A run folder holds another run (another model or pipeline).
    #[error("{path}: {reason}")]
    Resume {
        /// The run folder.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
}

/// The agent's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
