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
    #[error("{} is not a valid problem package: {}", path.display(), errors(diagnostics))]
    Invalid {
        /// The package folder.
        path: PathBuf,
        /// Every problem found.
        diagnostics: Vec<crate::Diagnostic>,
    },
}

/// The errors, each with its file and why, and how many warnings there are beside them
/// (every diagnostic stays in [`Error::Invalid::diagnostics`]).
fn errors(diagnostics: &[crate::Diagnostic]) -> String {
    let (errors, warnings): (Vec<_>, Vec<_>) = diagnostics
        .iter()
        .partition(|d| d.severity == crate::Severity::Error);
    let mut res = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    match warnings.len() {
        0 => {}
        1 => res.push_str(" (and 1 warning)"),
        n => res.push_str(&format!(" (and {n} warnings)")),
    }
    res
}

/// The result type of the `problems` crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::{Diagnostic, Severity};

    #[test]
    fn an_invalid_package_says_each_error_with_its_file() {
        let diagnostic = |severity, path: &str, message: &str| Diagnostic {
            severity,
            path: PathBuf::from(path),
            message: message.to_owned(),
        };
        let err = super::Error::Invalid {
            path: "/p/sum".into(),
            diagnostics: vec![
                diagnostic(Severity::Warning, "problem.yaml", "unknown key `foo`"),
                diagnostic(Severity::Error, "data/secret", "has no test cases"),
                diagnostic(
                    Severity::Error,
                    "data/sample/1.in",
                    "test case has no answer file 1.ans",
                ),
                diagnostic(Severity::Warning, "statement", "no statement"),
            ],
        };
        assert_eq!(
            err.to_string(),
            "/p/sum is not a valid problem package: error: data/secret: has no test cases; \
             error: data/sample/1.in: test case has no answer file 1.ans (and 2 warnings)"
        );
    }
}
