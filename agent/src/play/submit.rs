//! Submitting during live play: the solve loop's [`crate::runner::Submitter`] that posts
//! to the contest server (waiting out a rate limit), polls the team's judgements until
//! the verdict comes, and records each submission in `play.jsonl`.

use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use leaderboard::clics::JudgementType;

use super::log::{PlayEvent, PlayLog};
use super::record::verdict_of;
use crate::client::contest::{ContestClient, ContestError};
use crate::runner::{Judgement, Program, RunError, Submitter};
use crate::task::Task;

/// Posts to the contest server and waits for the verdict.
pub(super) struct ServerSubmitter<'a> {
    pub(super) client: &'a ContestClient,
    pub(super) types: &'a [JudgementType],
    pub(super) log: &'a PlayLog,
    pub(super) poll: Duration,
    pub(super) patience: Duration,
}

impl Submitter for ServerSubmitter<'_> {
    fn submit<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<Judgement, RunError>> {
        Box::pin(async move {
            let posted = loop {
                match self
                    .client
                    .submit(&task.id, &program.language, &program.source)
                    .await
                {
                    Ok(posted) => break posted,
                    Err(ContestError::RateLimited { retry_after, .. }) => {
                        tokio::time::sleep(retry_after.unwrap_or(Duration::from_secs(10))).await;
                    }
                    Err(err) => return Err(RunError(err.to_string())),
                }
            };
            let asked = Instant::now();
            let judged = self
                .client
                .wait_for_judgement(&posted.id, self.poll, self.patience)
                .await
                .map_err(|err| RunError(err.to_string()))?;
            let waited_ms = u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX);
            let judgement = judged.and_then(|j| j.judgement_type_id);
            self.log
                .write(&PlayEvent::Submission {
                    problem: task.id.clone(),
                    id: posted.id.clone(),
                    language: program.language.clone(),
                    contest_ms: posted.contest_time.millis(),
                    judgement: judgement.clone(),
                    waited_ms,
                })
                .map_err(|err| RunError(err.to_string()))?;
            let Some(type_id) = judgement else {
                return Err(RunError(format!(
                    "submission {} was not judged within {:?}",
                    posted.id, self.patience
                )));
            };
            Ok(Judgement {
                verdict: verdict_of(&type_id, self.types),
                passed: None,
                total: None,
                message: String::new(),
                submission_id: Some(posted.id),
            })
        })
    }
}
