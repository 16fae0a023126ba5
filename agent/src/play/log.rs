//! `play.jsonl`, the play's own record: one [`PlayEvent`] a line, appended and flushed as
//! written ([`PlayLog`]), read back on a resume ([`read_log`]) to count the visits an
//! earlier play left unsolved.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::strategy::{ProblemState, Visit};
use super::{PlayError, StopReason};
use crate::step::Outcome;

/// One line of `play.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PlayEvent {
    /// The play started (or started again on the same run folder).
    Start {
        /// The run.
        run: String,
        /// The contest server.
        server: String,
        /// The contest id.
        contest: String,
        /// Its name.
        name: String,
        /// Wall clock, Unix milliseconds.
        at_ms: u64,
        /// Whether `play.jsonl` already held a play.
        resumed: bool,
    },
    /// A problem as read.
    Problem {
        /// Its id.
        problem: String,
        /// Its label.
        label: String,
        /// Its name.
        name: String,
        /// Statement length in characters.
        statement_chars: usize,
        /// Where the statement came from (`contest`, or `none` for a PDF-only one).
        statement_format: String,
        /// Samples offered.
        samples: usize,
        /// A problem worth a note (no samples, no text statement).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The server's record of a problem when the play (re)starts.
    Record {
        /// The problem's state.
        state: ProblemState,
    },
    /// The order chosen before a visit.
    Order {
        /// Contest time in milliseconds.
        contest_ms: i64,
        /// Solves per problem on the board (other teams).
        solves: BTreeMap<String, u32>,
        /// The open problems, in the order chosen.
        order: Vec<String>,
    },
    /// A visit begins.
    Visit {
        /// The problem.
        problem: String,
        /// The attempt number (visits so far plus one).
        attempt: u32,
        /// Its plan.
        plan: Visit,
    },
    /// A submission and its verdict.
    Submission {
        /// The problem.
        problem: String,
        /// The server's submission id.
        id: String,
        /// The language id.
        language: String,
        /// Contest time of the submission in milliseconds.
        contest_ms: i64,
        /// The judgement type id (`AC`, `WA`, ...), `None` when not judged in time.
        judgement: Option<String>,
        /// How long the verdict took, in milliseconds.
        waited_ms: u64,
    },
    /// A visit ended.
    VisitEnd {
        /// The loop's outcome.
        outcome: Box<Outcome>,
    },
    /// The play stopped.
    Stop {
        /// Why.
        reason: StopReason,
        /// Problems solved (the server's record).
        solved: Vec<String>,
        /// Submissions the team has made (the server's record).
        submissions: usize,
    },
}

/// The name of the play's own record in the run folder.
pub const PLAY_LOG: &str = "play.jsonl";

/// `play.jsonl`: appended to, one event a line, flushed as written.
#[derive(Debug)]
pub struct PlayLog {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl PlayLog {
    /// Opens (creating) the log in `dir` for appending.
    pub fn open(dir: &Path) -> Result<PlayLog, PlayError> {
        let path = dir.join(PLAY_LOG);
        let record = |source| PlayError::Record {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(|source| PlayError::Record {
            path: dir.to_path_buf(),
            source,
        })?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(record)?;
        Ok(PlayLog {
            path,
            file: Mutex::new(file),
        })
    }

    /// Appends `event` and flushes it.
    pub fn write(&self, event: &PlayEvent) -> Result<(), PlayError> {
        let mut line = serde_json::to_string(event).map_err(|err| PlayError::Record {
            path: self.path.clone(),
            source: std::io::Error::other(err),
        })?;
        line.push('\n');
        let mut file = self.file.lock().map_err(|_| PlayError::Record {
            path: self.path.clone(),
            source: std::io::Error::other("the log's lock is poisoned"),
        })?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|source| PlayError::Record {
                path: self.path.clone(),
                source,
            })
    }
}

/// The events of `play.jsonl` in `dir` (none when there is no such file); a line that
/// is not an event (cut by a kill mid-write) is skipped.
pub fn read_log(dir: &Path) -> Result<Vec<PlayEvent>, PlayError> {
    let path = dir.join(PLAY_LOG);
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(PlayError::Record { path, source }),
    };
    let mut events = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|source| PlayError::Record {
            path: path.clone(),
            source,
        })?;
        if let Ok(event) = serde_json::from_str(&line) {
            events.push(event);
        }
    }
    Ok(events)
}

/// Visits left unsolved per problem, by an earlier play's `play.jsonl`.
pub(super) fn earlier_visits(events: &[PlayEvent]) -> BTreeMap<String, u32> {
    let mut visits = BTreeMap::new();
    for event in events {
        if let PlayEvent::VisitEnd { outcome } = event
            && !outcome.solved
        {
            *visits.entry(outcome.problem.clone()).or_insert(0) += 1;
        }
    }
    visits
}
