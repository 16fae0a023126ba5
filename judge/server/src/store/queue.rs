//! The judging queue's writes: a submission stored with its event, claims and leases,
//! a judgement written only by the worker that still holds its lease (rejudgings are
//! `rejudgings`).

use super::events::insert_event;
use super::{
    Dialect, Finished, JudgementRow, NewEvent, NewSubmission, QueueState, Result, RunDetail,
    RunRow, Store, SubmissionRow, submission_columns,
};

impl Store {
    /// Stores a new submission and its event (built by `event` from the stored row) in
    /// one transaction; returns the row. A client-chosen id already used is `Ok(None)`.
    pub async fn insert_submission(
        &self,
        new: &NewSubmission,
        event: impl FnOnce(&SubmissionRow) -> NewEvent,
    ) -> Result<Option<SubmissionRow>> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        if let Some(id) = &new.id {
            let taken =
                sqlx::query("SELECT seq FROM submissions WHERE contest_id = $1 AND id = $2")
                    .bind(&new.contest_id)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            if taken.is_some() {
                return Ok(None);
            }
        }
        let placeholder = new
            .id
            .clone()
            .unwrap_or_else(|| format!("pending-{}", rand::random::<u64>()));
        let state = QueueState::Queued;
        let seq: i64 = sqlx::query_scalar(
            "INSERT INTO submissions (id, contest_id, team_id, problem_id, language_id, source, \
             time_ms, contest_time_ms, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             RETURNING seq",
        )
        .bind(&placeholder)
        .bind(&new.contest_id)
        .bind(&new.team_id)
        .bind(&new.problem_id)
        .bind(&new.language_id)
        .bind(&new.source)
        .bind(new.time_ms)
        .bind(new.contest_time_ms)
        .bind(state.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let id = match &new.id {
            Some(id) => id.clone(),
            None => {
                let id = seq.to_string();
                sqlx::query("UPDATE submissions SET id = $1 WHERE seq = $2")
                    .bind(&id)
                    .bind(seq)
                    .execute(&mut *tx)
                    .await?;
                id
            }
        };
        let stored = SubmissionRow {
            seq,
            id,
            contest_id: new.contest_id.clone(),
            team_id: new.team_id.clone(),
            problem_id: new.problem_id.clone(),
            language_id: new.language_id.clone(),
            source: new.source.clone(),
            time_ms: new.time_ms,
            contest_time_ms: new.contest_time_ms,
            state,
            attempts: 0,
        };
        let last = insert_event(&mut tx, &new.contest_id, &event(&stored)).await?;
        self.commit_events(tx, last).await?;
        Ok(Some(stored))
    }

    /// Takes the oldest submission that is queued or whose lease expired, for `worker`
    /// until `lease_until` (Unix ms).
    pub async fn claim(
        &self,
        worker: &str,
        now_ms: i64,
        lease_until: i64,
    ) -> Result<Option<SubmissionRow>> {
        let lock = match self.dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        let sql = format!(
            "UPDATE submissions SET state = $1, worker = $2, lease_until = $3, attempts = attempts + 1 \
             WHERE seq = (SELECT seq FROM submissions WHERE state = $4 \
             OR (state = $5 AND lease_until < $6) ORDER BY seq LIMIT 1{lock}) \
             RETURNING {}",
            submission_columns("source")
        );
        let row = sqlx::query_as(&sql)
            .bind(QueueState::Judging.as_str())
            .bind(worker)
            .bind(lease_until)
            .bind(QueueState::Queued.as_str())
            .bind(QueueState::Judging.as_str())
            .bind(now_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row)
    }

    /// Extends `worker`'s lease on submission `seq`; false when it no longer holds it.
    pub async fn renew(&self, seq: i64, worker: &str, lease_until: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE submissions SET lease_until = $1 WHERE seq = $2 AND worker = $3 AND state = $4",
        )
        .bind(lease_until)
        .bind(seq)
        .bind(worker)
        .bind(QueueState::Judging.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts every submission being judged back in the queue (SQLite at start: one
    /// process owns the file, so whatever it was judging died with it).
    pub async fn requeue_all_judging(&self) -> Result<u64> {
        let done = sqlx::query("UPDATE submissions SET state = $1, worker = NULL WHERE state = $2")
            .bind(QueueState::Queued.as_str())
            .bind(QueueState::Judging.as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Records `finished` for submission `seq` if `worker` still holds it, and sets the
    /// submission `done` (or back to `queued` when `requeue`, after a judge error).
    /// `events` builds the events from the stored judgement and runs. Returns false (and
    /// writes nothing) when the lease was lost.
    pub async fn finish(
        &self,
        contest_id: &str,
        seq: i64,
        worker: &str,
        mut finished: Finished,
        requeue: bool,
        events: impl FnOnce(&JudgementRow, &[RunRow]) -> Vec<NewEvent>,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let state = if requeue {
            QueueState::Queued
        } else {
            QueueState::Done
        };
        let owned = sqlx::query(
            "UPDATE submissions SET state = $1, worker = NULL WHERE seq = $2 AND worker = $3 AND state = $4",
        )
        .bind(state.as_str())
        .bind(seq)
        .bind(worker)
        .bind(QueueState::Judging.as_str())
        .execute(&mut *tx)
        .await?;
        if owned.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.lock_events(&mut tx).await?;
        let j = &mut finished.judgement;
        j.seq = sqlx::query_scalar(
            "INSERT INTO judgements (id, contest_id, submission_id, judgement_type_id, score, subtask_scores, \
             start_ms, end_ms, max_run_time, worker) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq",
        )
        .bind(format!("pending-{}", rand::random::<u64>()))
        .bind(contest_id)
        .bind(&j.submission_id)
        .bind(j.verdict.clics_id())
        .bind(j.score)
        .bind(&j.subtask_scores)
        .bind(j.start_ms)
        .bind(j.end_ms)
        .bind(j.max_run_time)
        .bind(worker)
        .fetch_one(&mut *tx)
        .await?;
        j.id = j.seq.to_string();
        sqlx::query("UPDATE judgements SET id = $1 WHERE seq = $2")
            .bind(&j.id)
            .bind(j.seq)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE judgements SET compile_log = $1 WHERE seq = $2")
            .bind(&finished.compile_log)
            .bind(j.seq)
            .execute(&mut *tx)
            .await?;
        let none = RunDetail::default();
        for (i, run) in finished.runs.iter_mut().enumerate() {
            run.judgement_id = j.id.clone();
            run.id = format!("{}-{}", j.id, run.ordinal);
            let detail = finished.details.get(i).unwrap_or(&none);
            sqlx::query(
                "INSERT INTO runs (id, contest_id, judgement_id, ordinal, judgement_type_id, time_ms, run_time, \
                 test_name, wall_time, memory_kib, message, output_head) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(&run.id)
            .bind(contest_id)
            .bind(&run.judgement_id)
            .bind(run.ordinal)
            .bind(run.verdict.clics_id())
            .bind(run.time_ms)
            .bind(run.run_time)
            .bind(&detail.test_name)
            .bind(detail.wall_time)
            .bind(detail.memory_kib)
            .bind(&detail.message)
            .bind(&detail.output_head)
            .execute(&mut *tx)
            .await?;
        }
        let mut last = 0;
        for event in events(&finished.judgement, &finished.runs) {
            last = insert_event(&mut tx, contest_id, &event).await?;
        }
        self.commit_events(tx, last).await?;
        Ok(true)
    }
}
