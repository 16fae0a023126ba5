//! Every query that only reads: submissions, judgements, runs, clarifications and
//! events, filtered by who is asking ([`crate::viewer::Viewer`]), and the queue's counts.

use super::{
    ClarificationRow, EventRow, JudgementRow, JuryRun, ListedSubmission, LogEvent, QueueCounts,
    QueueState, Result, RunRow, Store, SubmissionFilter, SubmissionRow, submission_columns,
    visibility,
};
use crate::viewer::Viewer;

impl Store {
    /// How many submissions `team` made since `since_ms` (Unix ms).
    pub async fn submissions_since(
        &self,
        contest_id: &str,
        team_id: &str,
        since_ms: i64,
    ) -> Result<i64> {
        let n = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE contest_id = $1 AND team_id = $2 AND time_ms >= $3",
        )
        .bind(contest_id)
        .bind(team_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Whether a submission of the contest is not `done` yet (queued or being judged).
    pub async fn any_pending(&self, contest_id: &str) -> Result<bool> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE contest_id = $1 AND state <> $2",
        )
        .bind(contest_id)
        .bind(QueueState::Done.as_str())
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// The submissions of a contest in order, those `viewer` may see.
    pub async fn submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
    ) -> Result<Vec<SubmissionRow>> {
        self.select_submissions(contest_id, viewer, "source").await
    }

    /// The submissions of a contest without their source text (for the scoreboard).
    pub async fn submissions_for_scoring(&self, contest_id: &str) -> Result<Vec<SubmissionRow>> {
        self.select_submissions(contest_id, &Viewer::Admin, "'' AS source")
            .await
    }

    async fn select_submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
        source: &str,
    ) -> Result<Vec<SubmissionRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(&format!(
            "SELECT {} FROM submissions WHERE contest_id = $1 AND ($2 = 1 OR team_id = $3) ORDER BY seq",
            submission_columns(source)
        ))
        .bind(contest_id)
        .bind(all)
        .bind(team)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// One page of the jury's submission list, newest first: the submissions `filter`
    /// selects, `limit` of them after skipping `offset`, each with its newest verdict;
    /// and how many the filter selects in all. One query per answer part, whatever the
    /// contest's size (the newest judgement by the `judgements_by_submission` index).
    pub async fn submission_page(
        &self,
        contest_id: &str,
        filter: &SubmissionFilter,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<ListedSubmission>, i64)> {
        let listed = format!(
            "SELECT s.seq, s.id, s.team_id, s.problem_id, s.language_id, s.contest_time_ms, \
             CASE WHEN s.state <> '{done}' THEN 'pending' ELSE COALESCE((SELECT j.judgement_type_id \
             FROM judgements j WHERE j.contest_id = s.contest_id AND j.submission_id = s.id \
             ORDER BY j.seq DESC LIMIT 1), 'pending') END AS verdict, \
             (SELECT COUNT(*) FROM judgements j WHERE j.contest_id = s.contest_id \
             AND j.submission_id = s.id) AS judgements \
             FROM submissions s WHERE s.contest_id = $1 AND ($2 = '' OR s.team_id = $2) \
             AND ($3 = '' OR s.problem_id = $3) AND ($4 = '' OR s.language_id = $4)",
            done = QueueState::Done.as_str()
        );
        let rows = sqlx::query_as(&format!(
            "SELECT * FROM ({listed}) t WHERE ($5 = '' OR t.verdict = $5) \
             ORDER BY t.seq DESC LIMIT $6 OFFSET $7"
        ))
        .bind(contest_id)
        .bind(&filter.team_id)
        .bind(&filter.problem_id)
        .bind(&filter.language_id)
        .bind(&filter.verdict)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let total = if filter.verdict.is_empty() {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM submissions s WHERE s.contest_id = $1 \
                 AND ($2 = '' OR s.team_id = $2) AND ($3 = '' OR s.problem_id = $3) \
                 AND ($4 = '' OR s.language_id = $4)",
            )
            .bind(contest_id)
            .bind(&filter.team_id)
            .bind(&filter.problem_id)
            .bind(&filter.language_id)
            .fetch_one(&self.pool)
            .await?
        } else {
            sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM ({listed}) t WHERE t.verdict = $5"
            ))
            .bind(contest_id)
            .bind(&filter.team_id)
            .bind(&filter.problem_id)
            .bind(&filter.language_id)
            .bind(&filter.verdict)
            .fetch_one(&self.pool)
            .await?
        };
        Ok((rows, total))
    }

    /// The clarifications of a contest that `viewer` may read, in order: admins all; a
    /// team what it asked, what the jury wrote to it, and what the jury wrote to
    /// everyone; the public what the jury wrote to everyone.
    pub async fn clarifications(
        &self,
        contest_id: &str,
        viewer: &Viewer,
    ) -> Result<Vec<ClarificationRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(
            "SELECT seq, id, from_team_id, to_team_id, reply_to_id, problem_id, text, time_ms, \
             contest_time_ms FROM clarifications WHERE contest_id = $1 AND ($2 = 1 \
             OR from_team_id = $3 OR to_team_id = $3 \
             OR (from_team_id IS NULL AND to_team_id IS NULL)) ORDER BY seq",
        )
        .bind(contest_id)
        .bind(all)
        .bind(team)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The newest event token of a contest (0 when none): every change that moves the
    /// scoreboard writes an event, so an unchanged token means an unchanged board.
    pub async fn last_token(&self, contest_id: &str) -> Result<i64> {
        let seq =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE contest_id = $1")
                .bind(contest_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(seq)
    }

    /// Every judgement of a contest, in order.
    pub async fn judgements(&self, contest_id: &str) -> Result<Vec<JudgementRow>> {
        let rows = sqlx::query_as(
            "SELECT seq, id, submission_id, judgement_type_id, score, subtask_scores, start_ms, end_ms, \
             max_run_time FROM judgements WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Every run of a contest, in order.
    pub async fn runs(&self, contest_id: &str) -> Result<Vec<RunRow>> {
        let rows = sqlx::query_as(
            "SELECT id, judgement_id, ordinal, judgement_type_id, time_ms, run_time FROM runs \
             WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Submission `id` of the contest with its source, when there is one (the jury's
    /// view of one submission: one row, not the contest's).
    pub async fn submission(&self, contest_id: &str, id: &str) -> Result<Option<SubmissionRow>> {
        let row = sqlx::query_as(&format!(
            "SELECT {} FROM submissions WHERE contest_id = $1 AND id = $2",
            submission_columns("source")
        ))
        .bind(contest_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row)
    }

    /// The judgements of submission `submission_id`, in the order they were written
    /// (through the `judgements_by_submission` index).
    pub async fn judgements_of(
        &self,
        contest_id: &str,
        submission_id: &str,
    ) -> Result<Vec<JudgementRow>> {
        let rows = sqlx::query_as(
            "SELECT seq, id, submission_id, judgement_type_id, score, subtask_scores, start_ms, end_ms, \
             max_run_time FROM judgements WHERE contest_id = $1 AND submission_id = $2 ORDER BY seq",
        )
        .bind(contest_id)
        .bind(submission_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The compiler's output of judgement `judgement_id` (empty when there was none or
    /// the judgement is unknown).
    pub async fn compile_log(&self, contest_id: &str, judgement_id: &str) -> Result<String> {
        let log: Option<String> = sqlx::query_scalar(
            "SELECT compile_log FROM judgements WHERE contest_id = $1 AND id = $2",
        )
        .bind(contest_id)
        .bind(judgement_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(log.unwrap_or_default())
    }

    /// The runs of judgement `judgement_id` with their details, in order (for the jury).
    pub async fn jury_runs(&self, contest_id: &str, judgement_id: &str) -> Result<Vec<JuryRun>> {
        let rows = sqlx::query_as(
            "SELECT id, judgement_id, ordinal, judgement_type_id, time_ms, run_time, test_name, \
             wall_time, memory_kib, message, output_head FROM runs \
             WHERE contest_id = $1 AND judgement_id = $2 ORDER BY ordinal",
        )
        .bind(contest_id)
        .bind(judgement_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Events after token `after` that `viewer` may see, at most `limit`.
    pub async fn events_since(
        &self,
        contest_id: &str,
        after: i64,
        viewer: &Viewer,
        limit: i64,
    ) -> Result<Vec<EventRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(
            "SELECT seq, type, obj_id, data FROM events WHERE contest_id = $1 AND seq > $2 \
             AND ($3 = 1 OR team_id IS NULL OR team_id = $4) ORDER BY seq LIMIT $5",
        )
        .bind(contest_id)
        .bind(after)
        .bind(all)
        .bind(team)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Events of every contest after token `after`, at most `limit`, in token order,
    /// with whom each concerns (what the in-memory feed publishes).
    pub async fn events_after(&self, after: i64, limit: i64) -> Result<Vec<LogEvent>> {
        let rows = sqlx::query_as(
            "SELECT seq, contest_id, type, obj_id, team_id, data FROM events WHERE seq > $1 \
             ORDER BY seq LIMIT $2",
        )
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The newest event token of any contest (0 when none).
    pub async fn newest_token(&self) -> Result<i64> {
        let seq = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events")
            .fetch_one(&self.pool)
            .await?;
        Ok(seq)
    }

    /// The data of the newest event of `kind` (for `state`: what the feed last said).
    pub async fn last_event(&self, contest_id: &str, kind: &str) -> Result<Option<String>> {
        let data: Option<Option<String>> = sqlx::query_scalar(
            "SELECT data FROM events WHERE contest_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1",
        )
        .bind(contest_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        Ok(data.flatten())
    }

    /// How many submissions are in each queue state.
    pub async fn queue_counts(&self) -> Result<QueueCounts> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT state, COUNT(*) FROM submissions GROUP BY state")
                .fetch_all(&self.pool)
                .await?;
        let mut res = QueueCounts::default();
        for (state, n) in rows {
            let count = match QueueState::try_from(state) {
                Ok(QueueState::Queued) => &mut res.queued,
                Ok(QueueState::Judging) => &mut res.judging,
                Ok(QueueState::Done) | Err(_) => &mut res.done,
            };
            *count += n;
        }
        Ok(res)
    }
}
