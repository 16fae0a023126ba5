//! What `load` reports about a package: [`Diagnostic`] with its [`Severity`], and the
//! collector that gathers them while a package is read, each naming its file relative to
//! the package folder.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{LoadMode, Problem};

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Severity {
    /// The package cannot be judged correctly.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// One problem found in a package, with the file it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// The file or folder concerned.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{level}: {}: {}", self.path.display(), self.message)
    }
}

/// Collects diagnostics while a package is read.
pub(super) struct Ctx {
    root: PathBuf,
    mode: LoadMode,
    diagnostics: Vec<Diagnostic>,
}

impl Ctx {
    /// A collector for the package in `root`, which every diagnostic's path is made
    /// relative to.
    pub(super) fn new(root: PathBuf, mode: LoadMode) -> Ctx {
        Ctx {
            root,
            mode,
            diagnostics: Vec::new(),
        }
    }

    /// What the package is loaded for.
    pub(super) fn mode(&self) -> LoadMode {
        self.mode
    }

    /// Under [`LoadMode::Judge`], turns every error reported after `mark` into a warning:
    /// they concern parts of the package that judging does not read (the reference
    /// submissions, the statement, the input validators).
    pub(super) fn only_for_authors_since(&mut self, mark: usize) {
        if self.mode == LoadMode::Judge {
            for diagnostic in &mut self.diagnostics[mark..] {
                diagnostic.severity = Severity::Warning;
            }
        }
    }

    pub(super) fn error(&mut self, path: &Path, message: impl Into<String>) {
        self.push(Severity::Error, path, message.into());
    }

    pub(super) fn warning(&mut self, path: &Path, message: impl Into<String>) {
        self.push(Severity::Warning, path, message.into());
    }

    fn push(&mut self, severity: Severity, path: &Path, message: String) {
        let path = path
            .strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| path.to_path_buf());
        self.diagnostics.push(Diagnostic {
            severity,
            path,
            message,
        });
    }

    /// How many diagnostics there are so far, to [`Ctx::discard_since`] later.
    pub(super) fn mark(&self) -> usize {
        self.diagnostics.len()
    }

    /// Drops every diagnostic reported after `mark`.
    pub(super) fn discard_since(&mut self, mark: usize) {
        self.diagnostics.truncate(mark);
    }

    /// The loaded problem with its warnings, or [`crate::Error::Invalid`] with every
    /// diagnostic when any of them is an error.
    pub(super) fn finish(self, problem: Problem) -> crate::Result<(Problem, Vec<Diagnostic>)> {
        if self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return Err(crate::Error::Invalid {
                path: problem.root,
                diagnostics: self.diagnostics,
            });
        }
        Ok((problem, self.diagnostics))
    }
}
