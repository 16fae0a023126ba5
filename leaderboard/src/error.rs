//! The leaderboard's error type: bad input, named with where it was found.

use std::path::PathBuf;

/// What went wrong reading standings, feeds or results.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read. The message names the file; the cause is the source,
    /// printed once by whoever prints the chain (`{:#}`).
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A whole file is not the JSON expected.
    #[error("{source_name}: {message}")]
    File {
        /// The file (or API method) read.
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// A row of standings (a rows file, an API result, a scoreboard) is malformed.
    #[error("{source_name}: row {row}, `{field}`: {message}")]
    Row {
        /// The file (or API method) read.
        source_name: String,
        /// The row, 1-based.
        row: usize,
        /// The field at fault (`row` when the row's shape is wrong).
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A line of an event feed is malformed.
    #[error("{source_name}: line {line}: {message}")]
    Line {
        /// The feed.
        source_name: String,
        /// The line, 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A property of an event feed's line is missing or malformed.
    #[error("{source_name}: line {line}, `{field}`: {message}")]
    Feed {
        /// The feed.
        source_name: String,
        /// The line, 1-based.
        line: usize,
        /// The property at fault (`data` when the object's shape is wrong).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// An event feed lacks what its board needs.
    #[error("{source_name}: the feed has no {what}")]
    FeedMissing {
        /// The feed.
        source_name: String,
        /// What is missing: the contest, or its `penalty_time`.
        what: &'static str,
    },
    /// An object given to the ICPC fold names an object it was not given.
    #[error("{kind} {id}: unknown {field} {value}")]
    UnknownReference {
        /// The kind of object that refers: `submission` or `judgement`.
        kind: &'static str,
        /// Its id.
        id: String,
        /// The field that refers: `problem_id`, `team_id`, `judgement_type_id`.
        field: &'static str,
        /// The id it refers to.
        value: String,
    },
    /// A model result marks a problem solved without the accept time its timing policy
    /// needs.
    #[error(
        "model result, problem {problem} (0-based): solved, but `accept_minute` is missing under the `measured` timing policy"
    )]
    MissingAcceptTime {
        /// The problem's index in the results.
        problem: usize,
    },
    /// A model result has no `rule`, and the contest (a Codeforces round's rows) does not
    /// say how it was scored.
    #[error("the model result needs a `rule` to be placed in a Codeforces round")]
    MissingRule,
    /// A model result's problems are not the contest's problems one to one.
    #[error("the model has results for {results} problems, the contest has {problems}")]
    ProblemCount {
        /// Results in the model's result.
        results: usize,
        /// Problems in the contest.
        problems: usize,
    },
}

impl Error {
    pub(crate) fn file(source_name: &str, message: impl std::fmt::Display) -> Error {
        Error::File {
            source_name: source_name.to_owned(),
            message: message.to_string(),
        }
    }

    pub(crate) fn row(
        source_name: &str,
        row: usize,
        field: &'static str,
        message: impl std::fmt::Display,
    ) -> Error {
        Error::Row {
            source_name: source_name.to_owned(),
            row,
            field,
            message: message.to_string(),
        }
    }

    pub(crate) fn feed(
        source_name: &str,
        line: usize,
        field: &str,
        message: impl std::fmt::Display,
    ) -> Error {
        Error::Feed {
            source_name: source_name.to_owned(),
            line,
            field: field.to_owned(),
            message: message.to_string(),
        }
    }

    pub(crate) fn line(source_name: &str, line: usize, message: impl std::fmt::Display) -> Error {
        Error::Line {
            source_name: source_name.to_owned(),
            line,
            message: message.to_string(),
        }
    }
}

/// The leaderboard's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_message_names_what_and_where_and_leaves_the_cause_to_the_chain() {
        let err = Error::Io {
            path: PathBuf::from("rows/round.json"),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
        };
        assert_eq!(err.to_string(), "cannot read rows/round.json");
        let source = err.source().expect("the cause is the source");
        assert_eq!(source.to_string(), "no such file");
        // Printed as a chain, the cause appears once.
        let chain = format!("{:#}", anyhow::Error::new(err));
        assert_eq!(chain, "cannot read rows/round.json: no such file");
    }
}
