//! The judge's error type: the judge itself failed (never the contestant's fault).

use std::path::PathBuf;

/// A failure of the judge, as opposed to a verdict.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The problem package could not be loaded.
    #[error(transparent)]
    Problem(#[from] problems::Error),
    /// A file could not be read or written (the cause is the source, not in the message).
    #[error("{what} {}", path.display())]
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
    /// A submission made of a folder of files, which the judge does not compile.
    #[error("{} is a folder: a submission of several files, which this judge does not support (one source file per submission)", path.display())]
    FolderSubmission {
        /// The folder.
        path: PathBuf,
    },
    /// A language of the package format's list that the sandbox cannot run.
    #[error("{} is {name} (`{code}` in the package format's language list), which this judge cannot run: {why}", file.display())]
    UnsupportedLanguage {
        /// The source file.
        file: PathBuf,
        /// The language's name.
        name: String,
        /// Its code in the spec's list.
        code: String,
        /// Why the sandbox does not have it.
        why: String,
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
    /// A request to the workbench it cannot carry out (an argument holding a newline).
    #[error("invalid workbench request: {0}")]
    Request(String),
    /// The problem needs a feature the judge does not have yet.
    #[error("not supported yet: {0}")]
    Unsupported(String),
}

impl Error {
    /// The message followed by each of its causes after `: `, as anyhow's `{:#}` prints
    /// it: for showing an error on one line where it is not an `anyhow::Error`.
    pub fn with_causes(&self) -> String {
        let mut res = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(it) = cause {
            res.push_str(": ");
            res.push_str(&it.to_string());
            cause = it.source();
        }
        res
    }
}

/// The judge's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_leaves_its_cause_to_the_chain() {
        let err = Error::Io {
            what: "cannot read",
            path: "/x.c".into(),
            source: std::io::Error::other("boom"),
        };
        assert_eq!(err.to_string(), "cannot read /x.c");
        assert_eq!(err.with_causes(), "cannot read /x.c: boom");
        let err = Error::Unsupported("interactive scoring".to_owned());
        assert_eq!(err.with_causes(), "not supported yet: interactive scoring");
    }
}
