//! Rejudgings: the judged submissions a filter selects queued again, and the record of
//! it that the jury's rejudging page reads.
//!
//! Tables: `rejudgings` (one row per rejudging: who, what was asked, when; its id is its
//! `seq`) and `rejudged` (one row per submission taken, with the judgement that counted
//! when it was taken and that judgement's verdict). The requeue, both records, the audit
//! line and the `submissions` events commit in one transaction that holds the events
//! lock, so a rejudging is never half written and two hosts never take the same
//! submission twice at once.
//!
//! What a rejudging changed is read back, not stored: a submission's verdict after
//! rejudging R is the judgement that was counting when the next rejudging took it again,
//! or, when none has, its newest judgement once it is judged again
//! ([`RejudgedRow::after`]).

use super::events::insert_event;
use super::jury::insert_audit;
use super::{
    NewEvent, QueueState, RejudgeFilter, Result, Store, SubmissionRow, submission_columns,
};

/// A rejudging as the jury's pages list it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RejudgingRow {
    /// Its id (the row's sequence number).
    pub seq: i64,
    /// Who asked (`jury (web)`, `admin (API)`).
    pub actor: String,
    /// What was asked, in words (`problem sum, verdict WA`).
    pub what: String,
    /// When (milliseconds since the epoch).
    pub time_ms: i64,
    /// How many submissions it took.
    pub taken: i64,
}

/// Who rejudges, what they asked for in words, and when: the rejudging's record and its
/// audit line.
#[derive(Debug, Clone)]
pub struct RejudgeRecord {
    /// Who asked.
    pub actor: String,
    /// What was asked, in words.
    pub what: String,
    /// When (milliseconds since the epoch).
    pub time_ms: i64,
}

/// One submission a rejudging took, with what it read before and reads now.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RejudgedRow {
    /// The submission.
    pub submission_id: String,
    /// Its team.
    pub team_id: String,
    /// Its problem.
    pub problem_id: String,
    /// The judgement that counted when the rejudging took it.
    pub old_judgement: String,
    /// That judgement's verdict (a CLICS judgement type id).
    pub old_verdict: String,
    /// The submission's queue state now (`queued`, `judging`, `done`).
    pub state: String,
    /// Its newest judgement now.
    pub newest_judgement: Option<String>,
    /// That judgement's verdict.
    pub newest_verdict: Option<String>,
    /// The judgement a later rejudging found counting when it took the submission again.
    pub later_judgement: Option<String>,
    /// That judgement's verdict.
    pub later_verdict: Option<String>,
}

/// What a rejudging gave one submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    /// Not judged again yet.
    Pending,
    /// Judged again: the judgement and its verdict.
    Judged {
        /// The judgement's id.
        judgement: String,
        /// Its verdict (a CLICS judgement type id).
        verdict: String,
    },
}

impl RejudgedRow {
    /// The judgement this rejudging gave the submission: the one a later rejudging found
    /// counting (it takes only judged submissions, so that is this rejudging's result),
    /// else the newest once the submission is judged again, else pending.
    pub fn after(&self) -> After {
        if let (Some(judgement), Some(verdict)) = (&self.later_judgement, &self.later_verdict) {
            return After::Judged {
                judgement: judgement.clone(),
                verdict: verdict.clone(),
            };
        }
        match (&self.newest_judgement, &self.newest_verdict) {
            (Some(judgement), Some(verdict))
                if self.state == QueueState::Done.as_str() && *judgement != self.old_judgement =>
            {
                After::Judged {
                    judgement: judgement.clone(),
                    verdict: verdict.clone(),
                }
            }
            _ => After::Pending,
        }
    }

    /// Whether the rejudging changed the verdict (false while it is pending).
    pub fn changed(&self) -> bool {
        matches!(self.after(), After::Judged { verdict, .. } if verdict != self.old_verdict)
    }
}

impl Store {
    /// Queues again the judged (`done`) submissions of `contest_id` that `filter`
    /// selects, with their takes counted from zero, and writes the event `event` builds
    /// for each; when it took any, also the rejudging's record (each submission with the
    /// judgement counting until now) and its audit line, all in one transaction. Returns
    /// the rejudging's id (`None` when nothing matched) and the submissions. Their old
    /// judgements stay; the one the workers write next is the newest, which counts.
    pub async fn rejudge(
        &self,
        contest_id: &str,
        filter: &RejudgeFilter,
        record: &RejudgeRecord,
        event: impl Fn(&SubmissionRow) -> NewEvent,
    ) -> Result<(Option<i64>, Vec<SubmissionRow>)> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        // '' matches any value (a NULL bind would leave PostgreSQL without its type).
        let any = |v: &Option<String>| v.clone().unwrap_or_default();
        let mut rows: Vec<SubmissionRow> = sqlx::query_as(&format!(
            "UPDATE submissions SET state = $1, worker = NULL, lease_until = 0, attempts = 0 \
             WHERE contest_id = $2 AND state = $3 AND ($4 = '' OR id = $4) \
             AND ($5 = '' OR problem_id = $5) AND ($6 = '' OR team_id = $6) \
             AND ($7 = '' OR (SELECT j.judgement_type_id FROM judgements j \
             WHERE j.contest_id = submissions.contest_id AND j.submission_id = submissions.id \
             ORDER BY j.seq DESC LIMIT 1) = $7) RETURNING {}",
            submission_columns("'' AS source")
        ))
        .bind(QueueState::Queued.as_str())
        .bind(contest_id)
        .bind(QueueState::Done.as_str())
        .bind(any(&filter.submission_id))
        .bind(any(&filter.problem_id))
        .bind(any(&filter.team_id))
        .bind(any(&filter.verdict))
        .fetch_all(&mut *tx)
        .await?;
        rows.sort_by_key(|r| r.seq);
        if rows.is_empty() {
            tx.rollback().await?;
            return Ok((None, rows));
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO rejudgings (contest_id, actor, what, time_ms) VALUES ($1, $2, $3, $4) \
             RETURNING seq",
        )
        .bind(contest_id)
        .bind(&record.actor)
        .bind(&record.what)
        .bind(record.time_ms)
        .fetch_one(&mut *tx)
        .await?;
        // The judgement counting until now: the newest of each (a done submission has
        // one). The requeue above wrote none.
        for row in &rows {
            let (judgement, verdict): (String, String) = sqlx::query_as(
                "SELECT id, judgement_type_id FROM judgements WHERE contest_id = $1 \
                 AND submission_id = $2 ORDER BY seq DESC LIMIT 1",
            )
            .bind(contest_id)
            .bind(&row.id)
            .fetch_optional(&mut *tx)
            .await?
            .unwrap_or_default();
            sqlx::query(
                "INSERT INTO rejudged (contest_id, rejudging_seq, submission_id, old_judgement, \
                 old_verdict) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(contest_id)
            .bind(id)
            .bind(&row.id)
            .bind(&judgement)
            .bind(&verdict)
            .execute(&mut *tx)
            .await?;
        }
        let detail = format!(
            "rejudging {id}: {}; {} submission(s)",
            record.what,
            rows.len()
        );
        insert_audit(
            &mut tx,
            contest_id,
            &record.actor,
            "rejudge",
            &detail,
            record.time_ms,
        )
        .await?;
        let mut last = 0;
        for row in &rows {
            last = insert_event(&mut tx, contest_id, &event(row)).await?;
        }
        self.commit_events(tx, last).await?;
        Ok((Some(id), rows))
    }

    /// The rejudgings of `contest_id`, newest first, each with how many it took.
    pub async fn rejudgings(&self, contest_id: &str) -> Result<Vec<RejudgingRow>> {
        let rows = sqlx::query_as(
            "SELECT r.seq, r.actor, r.what, r.time_ms, (SELECT COUNT(*) FROM rejudged d \
             WHERE d.rejudging_seq = r.seq) AS taken FROM rejudgings r WHERE r.contest_id = $1 \
             ORDER BY r.seq DESC",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Rejudging `id` of `contest_id` and its submissions (in the order they came),
    /// each with its judgements before and now; `None` for no such rejudging.
    pub async fn rejudging(
        &self,
        contest_id: &str,
        id: i64,
    ) -> Result<Option<(RejudgingRow, Vec<RejudgedRow>)>> {
        let found: Option<RejudgingRow> = sqlx::query_as(
            "SELECT r.seq, r.actor, r.what, r.time_ms, (SELECT COUNT(*) FROM rejudged d \
             WHERE d.rejudging_seq = r.seq) AS taken FROM rejudgings r \
             WHERE r.contest_id = $1 AND r.seq = $2",
        )
        .bind(contest_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(found) = found else {
            return Ok(None);
        };
        // Per submission: its newest judgement, and the first later rejudging's record.
        let newest = |column: &str| {
            format!(
                "(SELECT j.{column} FROM judgements j WHERE j.contest_id = d.contest_id \
                 AND j.submission_id = d.submission_id ORDER BY j.seq DESC LIMIT 1)"
            )
        };
        let later = |column: &str| {
            format!(
                "(SELECT n.{column} FROM rejudged n WHERE n.contest_id = d.contest_id \
                 AND n.submission_id = d.submission_id AND n.rejudging_seq > d.rejudging_seq \
                 ORDER BY n.rejudging_seq LIMIT 1)"
            )
        };
        let rows = sqlx::query_as(&format!(
            "SELECT d.submission_id, s.team_id, s.problem_id, d.old_judgement, d.old_verdict, \
             s.state, {} AS newest_judgement, {} AS newest_verdict, {} AS later_judgement, \
             {} AS later_verdict FROM rejudged d JOIN submissions s \
             ON s.contest_id = d.contest_id AND s.id = d.submission_id \
             WHERE d.contest_id = $1 AND d.rejudging_seq = $2 ORDER BY s.seq",
            newest("id"),
            newest("judgement_type_id"),
            later("old_judgement"),
            later("old_verdict"),
        ))
        .bind(contest_id)
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(Some((found, rows)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(state: &str, newest: Option<(&str, &str)>, later: Option<(&str, &str)>) -> RejudgedRow {
        let own = |v: Option<(&str, &str)>, i: usize| v.map(|p| [p.0, p.1][i].to_owned());
        RejudgedRow {
            submission_id: "1".into(),
            team_id: "t".into(),
            problem_id: "p".into(),
            old_judgement: "10".into(),
            old_verdict: "WA".into(),
            state: state.into(),
            newest_judgement: own(newest, 0),
            newest_verdict: own(newest, 1),
            later_judgement: own(later, 0),
            later_verdict: own(later, 1),
        }
    }

    #[test]
    fn a_rejudgings_result_is_the_judgement_it_gave() {
        let judged = |j: &str, v: &str| After::Judged {
            judgement: j.into(),
            verdict: v.into(),
        };
        // Queued or being judged again: pending, unchanged.
        for state in ["queued", "judging"] {
            let r = row(state, Some(("10", "WA")), None);
            assert_eq!(r.after(), After::Pending, "{state}");
            assert!(!r.changed());
        }
        // A judge error retried: a newer judgement while still queued is not the result.
        assert_eq!(
            row("queued", Some(("11", "JE")), None).after(),
            After::Pending
        );
        // Judged again: the newest, changed or not.
        let r = row("done", Some(("11", "AC")), None);
        assert_eq!(r.after(), judged("11", "AC"));
        assert!(r.changed());
        assert!(!row("done", Some(("11", "WA")), None).changed());
        // Rejudged again since: the judgement the later rejudging found, whatever the
        // newest now is.
        let r = row("queued", Some(("12", "TLE")), Some(("11", "AC")));
        assert_eq!(r.after(), judged("11", "AC"));
        assert!(r.changed());
    }
}
