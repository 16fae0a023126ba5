//! The rows of the contest database as the server reads and writes them: submissions
//! with their [`QueueState`], judgements (their verdicts stored as CLICS ids,
//! [`ClicsId`]), runs, events, clarifications, and what a write takes.

use problems::Verdict;

/// Where a submission is in the judging queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueState {
    /// Waiting for a worker.
    Queued,
    /// Taken by a worker, under its lease.
    Judging,
    /// Its final judgement is written.
    Done,
}

impl QueueState {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            QueueState::Queued => "queued",
            QueueState::Judging => "judging",
            QueueState::Done => "done",
        }
    }
}

/// A value in the database that no variant of its type names.
#[derive(Debug, thiserror::Error)]
#[error("unknown {what} `{value}` in the database")]
pub struct UnknownValue {
    what: &'static str,
    value: String,
}

impl TryFrom<String> for QueueState {
    type Error = UnknownValue;

    fn try_from(value: String) -> Result<QueueState, UnknownValue> {
        [QueueState::Queued, QueueState::Judging, QueueState::Done]
            .into_iter()
            .find(|it| it.as_str() == value)
            .ok_or(UnknownValue {
                what: "queue state",
                value,
            })
    }
}

/// A judgement type as stored: its CLICS id (`AC`, `WA`, ...), decoded into a
/// [`Verdict`].
#[derive(Debug, sqlx::Type)]
#[sqlx(transparent)]
pub struct ClicsId(String);

impl TryFrom<ClicsId> for Verdict {
    type Error = UnknownValue;

    fn try_from(ClicsId(value): ClicsId) -> Result<Verdict, UnknownValue> {
        Verdict::ALL
            .into_iter()
            .find(|it| it.clics_id() == value)
            .ok_or(UnknownValue {
                what: "judgement type",
                value,
            })
    }
}

/// A submission as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SubmissionRow {
    /// Sequence number (queue order).
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// Contest.
    pub contest_id: String,
    /// Team.
    pub team_id: String,
    /// Problem.
    pub problem_id: String,
    /// Language.
    pub language_id: String,
    /// Source text.
    pub source: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
    /// Where it is in the queue.
    #[sqlx(try_from = "String")]
    pub state: QueueState,
    /// How many times a worker took it.
    pub attempts: i64,
}

/// Which submissions the jury's list shows (each field empty: any).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubmissionFilter {
    /// Of this team.
    pub team_id: String,
    /// Of this problem.
    pub problem_id: String,
    /// In this language.
    pub language_id: String,
    /// With this newest verdict (a CLICS judgement type id), or `pending`.
    pub verdict: String,
}

/// One line of the jury's submission list: the submission and its newest judgement.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ListedSubmission {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// Team.
    pub team_id: String,
    /// Problem.
    pub problem_id: String,
    /// Language.
    pub language_id: String,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
    /// The newest judgement's type once done; `pending` before.
    pub verdict: String,
    /// How many judgements it has (more than one: rejudged).
    pub judgements: i64,
}

/// A submission to add.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    /// A client-chosen id (admins only), else the sequence number.
    pub id: Option<String>,
    /// Contest.
    pub contest_id: String,
    /// Team.
    pub team_id: String,
    /// Problem.
    pub problem_id: String,
    /// Language.
    pub language_id: String,
    /// Source text.
    pub source: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
}

/// A judgement as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JudgementRow {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// The submission.
    pub submission_id: String,
    /// The judgement type (CLICS `judgement_type_id`).
    #[sqlx(rename = "judgement_type_id", try_from = "ClicsId")]
    pub verdict: Verdict,
    /// Points (1/0 on pass-fail problems).
    pub score: f64,
    /// Points per top-level secret group (IOI), as JSON.
    pub subtask_scores: String,
    /// Start, Unix ms.
    pub start_ms: i64,
    /// End, Unix ms.
    pub end_ms: i64,
    /// Longest test run, seconds.
    pub max_run_time: f64,
}

/// A run (one test) as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RunRow {
    /// CLICS id.
    pub id: String,
    /// Its judgement.
    pub judgement_id: String,
    /// Position, from 1.
    pub ordinal: i64,
    /// The judgement type (CLICS `judgement_type_id`).
    #[sqlx(rename = "judgement_type_id", try_from = "ClicsId")]
    pub verdict: Verdict,
    /// When it finished, Unix ms.
    pub time_ms: i64,
    /// CPU time in seconds.
    pub run_time: f64,
}

/// An event of the feed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    /// The token.
    pub seq: i64,
    /// CLICS type (`submissions`, ...).
    #[sqlx(rename = "type")]
    pub kind: String,
    /// Object id, or `None` for singletons (`contest`, `state`).
    pub obj_id: Option<String>,
    /// The object as JSON, or `None` for a deletion.
    pub data: Option<String>,
}

/// An event of any contest as the log's reader sees it: with its contest and the team
/// whose private data it is.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LogEvent {
    /// The token.
    pub seq: i64,
    /// The contest.
    pub contest_id: String,
    /// CLICS type (`submissions`, ...).
    #[sqlx(rename = "type")]
    pub kind: String,
    /// Object id, or `None` for singletons (`contest`, `state`).
    pub obj_id: Option<String>,
    /// The team whose private data this is (`None`: public).
    pub team_id: Option<String>,
    /// The object as JSON, or `None` for a deletion.
    pub data: Option<String>,
}

/// A clarification as stored (and as it is added: `seq` and `id` are assigned then).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClarificationRow {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// The team that asked (`None`: the jury wrote it).
    pub from_team_id: Option<String>,
    /// The team it is for (`None`: everyone, when the jury wrote it; the jury, when a
    /// team did).
    pub to_team_id: Option<String>,
    /// The clarification it answers.
    pub reply_to_id: Option<String>,
    /// Its problem (`None`: general).
    pub problem_id: Option<String>,
    /// The text.
    pub text: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
}

/// Which done submissions a rejudging takes: those matching every field given.
#[derive(Debug, Clone, Default)]
pub struct RejudgeFilter {
    /// One submission.
    pub submission_id: Option<String>,
    /// Every submission of a problem.
    pub problem_id: Option<String>,
    /// Every submission of a team.
    pub team_id: Option<String>,
    /// Every submission whose counting judgement has this verdict (a CLICS id).
    pub verdict: Option<String>,
}

/// Who may see an event: everyone, or the team it concerns (and admins).
#[derive(Debug, Clone)]
pub struct NewEvent {
    /// CLICS type.
    pub kind: String,
    /// Object id.
    pub obj_id: Option<String>,
    /// The team whose private data this is, if any.
    pub team_id: Option<String>,
    /// The object as JSON.
    pub data: Option<serde_json::Value>,
}

/// What a worker finishes with.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The judgement (its `seq` and `id` are assigned here).
    pub judgement: JudgementRow,
    /// Its runs, in order (ids assigned here).
    pub runs: Vec<RunRow>,
    /// What the jury reads of each run besides its CLICS object, in the runs' order.
    pub details: Vec<RunDetail>,
    /// The compiler's output.
    pub compile_log: String,
}

/// What the jury reads of a run besides its CLICS object (the `runs` table's other
/// columns; an older database's runs read as zero and empty).
#[derive(Debug, Clone, Default, PartialEq, sqlx::FromRow)]
pub struct RunDetail {
    /// The test case (`secret/03-big`).
    pub test_name: String,
    /// Wall time in seconds.
    pub wall_time: f64,
    /// Peak memory in KiB.
    pub memory_kib: i64,
    /// The checker's or the judge's explanation.
    pub message: String,
    /// The beginning of the program's output on a test not accepted (see
    /// `judge::grade::OUTPUT_KEPT_BYTES`).
    pub output_head: Option<String>,
}

/// One run as the jury reads it: the CLICS run and its details.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JuryRun {
    /// The CLICS part.
    #[sqlx(flatten)]
    pub run: RunRow,
    /// The rest.
    #[sqlx(flatten)]
    pub detail: RunDetail,
}

/// How many submissions are in each queue state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// Waiting.
    pub queued: i64,
    /// Being judged.
    pub judging: i64,
    /// Judged.
    pub done: i64,
}
