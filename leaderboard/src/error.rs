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
    /// A feed's submission names a team or problem the feed never defined.
    #[error("{source_name}: submission {submission}: unknown {field} {id}")]
    UnknownReference {
        /// The feed (its file name).
        source_name: String,
        /// The submission's id.
        submission: String,
        /// The field that refers: `problem_id`, `team_id`, `judgement_type_id`.
        field: &'static str,
        /// The id it refers to.
        id: String,
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
