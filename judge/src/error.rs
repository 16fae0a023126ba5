//! The judge's error type: the judge itself failed (never the contestant's fault).

use std::path::PathBuf;

/// A failure of the judge, as opposed to a verdict.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The problem package could not be loaded.
    #[error(transparent)]
    Problem(#[from] problems::Error),
    /// A file could not be read or written.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The embedded language table is broken.
    #[error("the language table judge/languages.yaml is invalid: {0}")]
    LanguageTable(String),
    /// No language matches.
    #[error("unknown language for {what}; known: {known}")]
    UnknownLanguage {
        /// The file or id that did not match.
        what: String,
        /// The known extensions or ids.
        known: String,
    },
    /// The source is larger than the problem allows.
    #[error("source {} is {size} bytes, above the problem's code limit of {limit} bytes", path.display())]
    SourceTooLarge {
        /// The source file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The sandbox backend is not usable on this machine.
    #[error("the {backend} sandbox is not available: {why}")]
    Unavailable {
        /// `docker` or `bwrap`.
        backend: &'static str,
        /// What is missing.
        why: String,
    },
    /// The sandbox failed while judging.
    #[error("the {backend} sandbox failed: {why}")]
    Sandbox {
        /// `docker` or `bwrap`.
        backend: &'static str,
        /// What happened.
        why: String,
    },
    /// The problem needs a feature the judge does not have yet.
    #[error("not supported yet: {0}")]
    Unsupported(String),
}

/// The judge's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
