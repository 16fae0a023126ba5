//! The submit stage: the candidate submitted (never the same source twice); on a
//! rejection, back to the check stage with the verdict while the budget lasts.

use super::*;

impl State<'_, '_> {
    /// The `submit` stage.
    pub(super) async fn submit(&mut self) -> Flow<()> {
        loop {
            let mut p = Pending::new(Stage::Submit, "submit");
            let Some(program) = self.candidate.program.clone() else {
                p.action = "skip";
                p.note = "nothing to submit: no program".into();
                return self.record(p);
            };
            if self.candidate.results.is_none() && self.candidate.checked {
                p.action = "skip";
                p.note = "not submitted: the program does not compile".into();
                return self.record(p);
            }
            if self.submissions.submitted.contains(&program.source) {
                p.action = "skip";
                p.note = "not submitted again: the same program was judged already".into();
                return self.record(p);
            }
            if !self.ep.pipeline.submit_failing && self.candidate.failure.is_some() {
                p.action = "skip";
                p.note = "not submitted: it fails a test of its own (submit_failing is off)".into();
                return self.record(p);
            }
            if let Err(exhausted) = self.ledger.may_submit() {
                p.action = "skip";
                p.note = format!("not submitted: {exhausted}");
                self.record(p)?;
                return Err(End::Budget { exhausted });
            }
            p.program = Some(program.clone());
            let at = Instant::now();
            let result = self.ep.submitter.submit(self.ep.task, &program).await;
            p.judge += at.elapsed();
            self.ledger.spend_submission();
            self.submissions.submitted.insert(program.source.clone());
            let judgement = match result {
                Ok(j) => j,
                Err(e) => {
                    p.note = e.to_string();
                    return self.finish(
                        p,
                        Err(End::RunnerFailed {
                            error: e.to_string(),
                        }),
                    );
                }
            };
            p.signals.verdict = Some(judgement.verdict);
            if let (Some(passed), Some(total)) = (judgement.passed, judgement.total) {
                p.signals.hidden = Some(Count { passed, total });
                self.submissions.hidden = Some(Count { passed, total });
            }
            if let Some(id) = &judgement.submission_id {
                p.note = format!("submission {id}");
            }
            self.submissions.verdict = Some(judgement.verdict);
            self.submissions.solved = judgement.verdict == Verdict::AC;
            self.record(p)?;
            if self.submissions.solved || !self.ep.pipeline.has(Stage::Check) {
                return Ok(());
            }
            // Rejected: back to check with the verdict, while the budget lasts.
            if self.exhausted.is_some() {
                return Ok(());
            }
            self.ledger
                .may_submit()
                .map_err(|exhausted| End::Budget { exhausted })?;
            let failure = Failure::Verdict {
                verdict: judgement.verdict.clics_id().to_owned(),
                message: judgement.message.clone(),
            };
            let flow = self.check(Some(failure)).await;
            self.soften(flow)?;
            if self
                .candidate
                .program
                .as_ref()
                .is_some_and(|c| self.submissions.submitted.contains(&c.source))
            {
                return Ok(());
            }
        }
    }
}
