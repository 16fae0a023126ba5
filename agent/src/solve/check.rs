//! The check stage: the candidate run on the samples, the own tests (when the brute force
//! is trusted) and the maximum-size inputs; debug rounds on the smallest failing case,
//! a revision kept only under the revert rule ([`super::revision_kept`]).

use super::*;

impl State<'_, '_> {
    /// Run the candidate on every test into `p`; `None` when it does not compile.
    pub(super) async fn run_all(
        &mut self,
        p: &mut Pending,
        program: &Program,
    ) -> Flow<Option<Checked>> {
        let task = self.ep.task;
        let (ok, _log) = self.compile(p, program).await?;
        if !ok {
            return Ok(None);
        }
        let samples = sample_cases(task);
        let mut cases = samples.clone();
        cases.extend(self.bench.stress_cases.iter().cloned());
        let at = Instant::now();
        let result = self.ep.runner.judge(task, program, &cases).await;
        p.judge += at.elapsed();
        let outcomes = result.map_err(|e| End::RunnerFailed {
            error: e.to_string(),
        })?;
        let ns = samples.len();
        let passed: Vec<bool> = outcomes.iter().map(|o| o.verdict == Verdict::AC).collect();
        p.signals.samples = Some(Count {
            passed: passed[..ns.min(passed.len())]
                .iter()
                .filter(|x| **x)
                .count(),
            total: ns,
        });
        if !self.bench.stress_cases.is_empty() {
            let agree = passed[ns.min(passed.len())..]
                .iter()
                .filter(|x| **x)
                .count();
            let count = Count {
                passed: agree,
                total: self.bench.stress_cases.len(),
            };
            p.signals.stress = Some(count);
            if self.bench.brute_trusted {
                p.signals.own_tests = Some(count);
            }
        }
        // Anchors: samples, then trusted own tests.
        let anchors = if self.bench.brute_trusted {
            cases.len()
        } else {
            ns
        };
        let mut results: Vec<bool> = passed.iter().take(anchors).copied().collect();
        // The smallest failing anchor.
        let failure = cases
            .iter()
            .zip(&outcomes)
            .take(anchors)
            .filter(|(_, o)| o.verdict != Verdict::AC)
            .min_by_key(|(c, _)| c.input.len())
            .map(|(c, o)| Failure::Case {
                name: c.name.clone(),
                input: c.input.clone(),
                expected: c.answer.clone(),
                got: o.output.clone(),
                verdict: o.verdict.clics_id().to_owned(),
                message: o.message.clone(),
            });
        p.tests
            .extend(outcomes.into_iter().map(|outcome| TestRecord::Case {
                program: "candidate".into(),
                outcome: short_case(outcome),
            }));
        // Maximum-size inputs, for time.
        let mut slow = None;
        if !self.bench.max_inputs.is_empty() {
            let runs: Vec<RunInput> = self
                .bench
                .max_inputs
                .iter()
                .map(|s| RunInput {
                    stdin: s.clone(),
                    args: Vec::new(),
                })
                .collect();
            let at = Instant::now();
            let result = self.ep.runner.run(task, program, &runs, Limits::Task).await;
            p.judge += at.elapsed();
            let outs = result.map_err(|e| End::RunnerFailed {
                error: e.to_string(),
            })?;
            let within: Vec<bool> = outs
                .iter()
                .map(|o| !matches!(o.status, Verdict::TLE | Verdict::MLE))
                .collect();
            p.signals.max_inputs = Some(Count {
                passed: within.iter().filter(|x| **x).count(),
                total: within.len(),
            });
            for (i, (o, input)) in outs.iter().zip(&self.bench.max_inputs).enumerate() {
                if slow.is_none() && !within[i] {
                    slow = Some(Failure::Slow {
                        bytes: input.len(),
                        head: input.chars().take(200).collect(),
                        status: o.status.clics_id().to_owned(),
                    });
                }
                p.tests.push(TestRecord::Run {
                    program: "candidate".into(),
                    name: format!("max {}", i + 1),
                    outcome: short_run(o.clone()),
                });
            }
            results.extend(within);
        }
        Ok(Some(Checked {
            passed: results,
            failure: failure.or(slow),
        }))
    }

    /// The `check` stage: run everything; debug while something fails (or the judge
    /// rejected the program: `verdict`), under the revert rule.
    pub(super) async fn check(&mut self, mut verdict: Option<Failure>) -> Flow<()> {
        // Check the current candidate once.
        if !self.candidate.checked
            && let Some(program) = self.candidate.program.clone()
        {
            let mut p = Pending::new(Stage::Check, "run");
            p.program = Some(program.clone());
            let flow = self.run_all(&mut p, &program).await;
            let checked = match flow {
                Ok(c) => c,
                Err(end) => return self.finish(p, Err(end)),
            };
            self.set_candidate_results(checked, &p);
            self.candidate.checked = true;
            self.record(p)?;
        }
        for _round in 0..self.ep.pipeline.debug_rounds {
            let failure = match (
                &self.candidate.program,
                verdict.take(),
                &self.candidate.failure,
            ) {
                (_, Some(v), _) => Some(v),
                (Some(_), None, f) => f.clone(),
                (None, None, _) => None,
            };
            if self.candidate.program.is_some() && failure.is_none() {
                return Ok(());
            }
            // Ask for a revision (or, with no candidate, for the program again).
            let mut p = Pending::new(Stage::Check, "debug");
            let mut messages = self.base.clone();
            let (ask, wanted) = match (&self.candidate.program, &failure) {
                (Some(program), Some(f)) => (
                    prompt::debug(&program.source, &program.language, f),
                    Some(program.language.clone()),
                ),
                _ => (
                    prompt::no_code("no program yet", self.language.as_deref()),
                    self.language.clone(),
                ),
            };
            messages.push(Message::user(ask));
            let flow = self.ask_program(&mut p, messages, wanted.as_deref()).await;
            let revision = match flow {
                Ok(r) => r,
                Err(end) => return self.finish(p, Err(end)),
            };
            self.record(p)?;
            let Some(revision) = revision else {
                continue;
            };
            if Some(&revision) == self.candidate.program.as_ref() {
                let mut p = Pending::new(Stage::Check, "revert");
                p.signals.reverted = Some(true);
                p.note = "the revision is the same program".into();
                self.record(p)?;
                continue;
            }
            let mut p = Pending::new(Stage::Check, "run");
            p.program = Some(revision.clone());
            let flow = self.run_all(&mut p, &revision).await;
            let checked = match flow {
                Ok(c) => c,
                Err(end) => return self.finish(p, Err(end)),
            };
            let before = if self.candidate.program.is_some() {
                self.candidate.results.as_deref()
            } else {
                None
            };
            let after = checked.as_ref().map(|c| c.passed.as_slice());
            let keep = self.candidate.program.is_none() || revision_kept(before, after);
            p.signals.reverted = Some(!keep);
            if keep {
                self.language = Some(revision.language.clone());
                self.candidate.program = Some(revision);
                self.set_candidate_results(checked, &p);
                self.candidate.checked = true;
            } else if checked.is_none() {
                p.note =
                    "reverted: the revision does not compile and the program before it did".into();
            } else {
                p.note = "reverted: the revision fails a test the program before it passed".into();
            }
            self.record(p)?;
        }
        Ok(())
    }

    pub(super) fn set_candidate_results(&mut self, checked: Option<Checked>, p: &Pending) {
        match checked {
            Some(c) => {
                self.candidate.results = Some(c.passed);
                self.candidate.failure = c.failure;
            }
            None => {
                self.candidate.results = None;
                self.candidate.failure = Some(Failure::Compile {
                    log: p.compile_log.clone().unwrap_or_default(),
                });
            }
        }
    }
}
