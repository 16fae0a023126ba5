//! The error type of the `problems` crate: failures that stop a package from loading at all.

use std::path::PathBuf;

/// A failure that prevents loading a package; lesser problems are [`crate::Diagnostic`]s.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read; the cause is the source, not in the message.
    #[error("cannot read {}", path.display())]
    Io {
        /// The path that could not be read.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The package has errors severe enough that no problem could be built.
    #[error("{} is not a valid problem package: {}", path.display(), first_message(diagnostics))]
    Invalid {
        /// The package folder.
        path: PathBuf,
        /// Every problem found.
        diagnostics: Vec<crate::Diagnostic>,
    },
}

fn first_message(diagnostics: &[crate::Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The result type of the `problems` crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
