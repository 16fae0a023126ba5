//! The crate's errors: [`Error`], the server failing to start or serve, and [`Refusal`],
//! a request the server will not judge (full, too large, malformed), which each API
//! answers in its own dialect.

use std::path::PathBuf;

use crate::engine::Busy;

/// The server could not start or stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Serving stopped with an I/O error.
    #[error("the HTTP server stopped")]
    Serve(#[source] std::io::Error),
    /// A `--problems` folder could not be read.
    #[error("cannot read the problems folder {}", path.display())]
    ProblemsFolder {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A problem package did not load.
    #[error("problem package {}", path.display())]
    Problem {
        /// The package folder.
        path: PathBuf,
        /// The cause.
        source: problems::Error,
    },
    /// Two packages share a short name.
    #[error("two problem packages are named `{name}`: {} and {}", first.display(), second.display())]
    DuplicateProblem {
        /// The short name.
        name: String,
        /// The first package.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
    /// The judge could not be set up (its build cache).
    #[error(transparent)]
    Judge(#[from] judge::Error),
}

/// A request the server will not judge (or could not handle), with the HTTP status each
/// API gives it.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// The queue is full: 503 with `Retry-After`.
    Busy(Busy),
    /// The request waited for a worker longer than the queue timeout: 504 (verl retries
    /// 504) with `Retry-After: 1`.
    TimedOut,
    /// A part of the request is larger than a limit: 413, naming the limit.
    TooLarge {
        /// What is too large (`code`, `stdin`).
        what: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
        /// The command-line option that sets the limit.
        option: &'static str,
    },
    /// A request holds more items than a limit allows: 413, naming the limit.
    TooMany {
        /// What there are too many of (`tests`, `programs`, `submissions`).
        what: String,
        /// How many there are.
        count: usize,
        /// The limit.
        limit: usize,
        /// The command-line option that sets it (or the API's fixed rule).
        option: &'static str,
    },
    /// A field has a value the API does not take: 400 (422 on SandboxFusion's route, as
    /// its validation answers).
    Invalid {
        /// The field (`language`, `run_timeout`, `programs[2].language`).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// Something named does not exist: 404.
    NotFound(String),
    /// The server itself failed while handling the request (a task that panicked): 500.
    Internal(String),
}

impl Refusal {
    /// A field's value is not taken.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The HTTP status: 503, 504, 413, 400 or 404.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Busy(_) => 503,
            Refusal::TimedOut => 504,
            Refusal::TooLarge { .. } | Refusal::TooMany { .. } => 413,
            Refusal::Invalid { .. } => 400,
            Refusal::NotFound(_) => 404,
            Refusal::Internal(_) => 500,
        }
    }

    /// The `Retry-After` seconds, on 503 and 504.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::Busy(busy) => Some(busy.retry_after_s),
            Refusal::TimedOut => Some(1),
            _ => None,
        }
    }

    /// The message for people.
    pub fn message(&self) -> String {
        match self {
            Refusal::Busy(busy) => {
                format!("the queue is full; retry after {} s", busy.retry_after_s)
            }
            Refusal::TimedOut => "no worker became free within the queue timeout; retry".to_owned(),
            Refusal::TooLarge {
                what,
                size,
                limit,
                option,
            } => format!(
                "{what} is {size} bytes, above the limit of {limit} bytes (the server's {option})"
            ),
            Refusal::TooMany {
                what,
                count,
                limit,
                option,
            } => format!("{count} {what} in one request, above the limit of {limit} ({option})"),
            Refusal::Invalid { field, message } => format!("{field}: {message}"),
            Refusal::NotFound(what) | Refusal::Internal(what) => what.clone(),
        }
    }

    /// Checks a count against a limit.
    pub fn check_count(
        what: impl Into<String>,
        count: usize,
        limit: usize,
        option: &'static str,
    ) -> Result<(), Refusal> {
        if count > limit {
            return Err(Refusal::TooMany {
                what: what.into(),
                count,
                limit,
                option,
            });
        }
        Ok(())
    }

    /// Checks a size against a limit.
    pub fn check_size(
        what: impl Into<String>,
        size: usize,
        limit: usize,
        option: &'static str,
    ) -> Result<(), Refusal> {
        if size > limit {
            return Err(Refusal::TooLarge {
                what: what.into(),
                size: size as u64,
                limit: limit as u64,
                option,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_its_limit() {
        let err = Refusal::check_size("code", 10, 4, "--max-source-bytes").expect_err("too big");
        assert_eq!(err.status(), 413);
        assert_eq!(
            err.message(),
            "code is 10 bytes, above the limit of 4 bytes (the server's --max-source-bytes)"
        );
        assert!(Refusal::check_size("code", 4, 4, "--max-source-bytes").is_ok());
        assert_eq!(
            Refusal::Busy(Busy { retry_after_s: 3 }).retry_after(),
            Some(3)
        );
        assert_eq!(Refusal::TimedOut.status(), 504);
    }
}
