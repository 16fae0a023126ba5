//! The tests stage: a generator and a brute force asked for in Python, the brute force
//! judged on the samples (trusted only when it passes every one), the generated inputs
//! kept when the package's input validators accept them and answered by the brute force,
//! and maximum-size inputs for time.

use super::*;

impl State<'_, '_> {
    /// The `tests` stage.
    pub(super) async fn tests(&mut self) -> Flow<()> {
        let task = self.ep.task;
        // The generator.
        let mut p = Pending::new(Stage::Tests, "generator");
        let mut messages = self.base.clone();
        messages.push(Message::user(prompt::generator()));
        let flow = self.ask_program(&mut p, messages, Some("python3")).await;
        let generator = match flow {
            Ok(g) => g,
            Err(end) => return self.finish(p, Err(end)),
        };
        if let Some(g) = &generator {
            let flow = self.compile(&mut p, g).await;
            match flow {
                Ok((true, _)) => self.bench.generator = generator.clone(),
                Ok((false, _)) => p.note = "the generator does not compile".into(),
                Err(end) => return self.finish(p, Err(end)),
            }
        }
        self.record(p)?;

        // The brute force, checked on the samples.
        let mut p = Pending::new(Stage::Tests, "brute");
        let mut messages = self.base.clone();
        messages.push(Message::user(prompt::brute()));
        let flow = self.ask_program(&mut p, messages, Some("python3")).await;
        let brute = match flow {
            Ok(b) => b,
            Err(end) => return self.finish(p, Err(end)),
        };
        if let Some(b) = &brute {
            match self.compile(&mut p, b).await {
                Ok((true, _)) => {
                    let cases = sample_cases(task);
                    let at = Instant::now();
                    let result = self.ep.runner.judge(task, b, &cases).await;
                    p.judge += at.elapsed();
                    match result {
                        Ok(outcomes) => {
                            let passed =
                                outcomes.iter().filter(|o| o.verdict == Verdict::AC).count();
                            let count = Count {
                                passed,
                                total: cases.len(),
                            };
                            p.signals.brute_samples = Some(count);
                            // No samples: nothing to trust it on.
                            self.bench.brute_trusted = count.all();
                            if !self.bench.brute_trusted {
                                p.note = "the brute force does not pass every sample: its answers are not trusted as tests".into();
                            }
                            p.tests
                                .extend(outcomes.into_iter().map(|outcome| TestRecord::Case {
                                    program: "brute".into(),
                                    outcome: short_case(outcome),
                                }));
                            self.bench.brute = brute.clone();
                        }
                        Err(e) => {
                            return self.finish(
                                p,
                                Err(End::RunnerFailed {
                                    error: e.to_string(),
                                }),
                            );
                        }
                    }
                }
                Ok((false, _)) => p.note = "the brute force does not compile".into(),
                Err(end) => return self.finish(p, Err(end)),
            }
        }
        self.record(p)?;

        // Generated inputs: validated, answered by the brute force.
        let Some(generator) = self.bench.generator.clone() else {
            return Ok(());
        };
        let mut p = Pending::new(Stage::Tests, "generate");
        let flow = self.generate(&mut p, &generator).await;
        self.finish(p, flow)
    }

    pub(super) async fn generate(&mut self, p: &mut Pending, generator: &Program) -> Flow<()> {
        let task = self.ep.task;
        let n = self.ep.pipeline.stress_inputs as u64;
        let m = self.ep.pipeline.max_inputs as u64;
        let base_seed = self.ep.seed.wrapping_mul(7919);
        let mut runs: Vec<RunInput> = (0..n)
            .map(|i| RunInput {
                stdin: String::new(),
                args: vec![(base_seed.wrapping_add(i) % 1_000_000_007).to_string()],
            })
            .collect();
        runs.extend((0..m).map(|i| RunInput {
            stdin: String::new(),
            args: vec![
                (base_seed.wrapping_add(n + i) % 1_000_000_007).to_string(),
                "max".to_owned(),
            ],
        }));
        let at = Instant::now();
        let result = self
            .ep
            .runner
            .run(task, generator, &runs, Limits::Tool)
            .await;
        p.judge += at.elapsed();
        let outcomes = result.map_err(|e| End::RunnerFailed {
            error: e.to_string(),
        })?;
        let mut inputs = Vec::new(); // (is_max, input)
        for (i, o) in outcomes.iter().enumerate() {
            let is_max = i as u64 >= n;
            p.tests.push(TestRecord::Run {
                program: "generator".into(),
                name: format!(
                    "{} {}",
                    if is_max { "max" } else { "seed" },
                    runs[i].args[0]
                ),
                outcome: short_run(o.clone()),
            });
            if o.ok() && !o.stdout.trim().is_empty() {
                inputs.push((is_max, o.stdout.clone()));
            }
        }
        let texts: Vec<String> = inputs.iter().map(|(_, s)| s.clone()).collect();
        let at = Instant::now();
        let result = self.ep.runner.validate_inputs(task, &texts).await;
        p.judge += at.elapsed();
        // A package whose input validators cannot run (one does not build in the
        // sandbox) leaves the inputs unchecked: kept, and no validity signal.
        let valid = match result {
            Ok(Some(valid)) => {
                p.signals.valid_inputs = Some(Count {
                    passed: valid.iter().filter(|v| **v).count(),
                    total: outcomes.len(),
                });
                valid
            }
            Ok(None) => {
                p.signals.valid_inputs = Some(Count {
                    passed: texts.len(),
                    total: outcomes.len(),
                });
                vec![true; texts.len()]
            }
            Err(e) => {
                p.note =
                    format!("the input validators could not run ({e}); inputs kept unchecked; ");
                vec![true; texts.len()]
            }
        };
        let small: Vec<String> = inputs
            .iter()
            .zip(&valid)
            .filter(|((is_max, _), ok)| !is_max && **ok)
            .map(|((_, s), _)| s.clone())
            .collect();
        self.bench.max_inputs = inputs
            .iter()
            .zip(&valid)
            .filter(|((is_max, _), ok)| *is_max && **ok)
            .map(|((_, s), _)| s.clone())
            .collect();
        // Answers from the brute force.
        if let Some(brute) = self.bench.brute.clone() {
            let runs: Vec<RunInput> = small
                .iter()
                .map(|s| RunInput {
                    stdin: s.clone(),
                    args: Vec::new(),
                })
                .collect();
            let at = Instant::now();
            let result = self.ep.runner.run(task, &brute, &runs, Limits::Tool).await;
            p.judge += at.elapsed();
            let answers = result.map_err(|e| End::RunnerFailed {
                error: e.to_string(),
            })?;
            let mut cases = Vec::new();
            for (i, (input, answer)) in small.iter().zip(&answers).enumerate() {
                p.tests.push(TestRecord::Run {
                    program: "brute".into(),
                    name: format!("own {}", i + 1),
                    outcome: short_run(answer.clone()),
                });
                if answer.ok() {
                    cases.push(Case {
                        name: format!("own test {}", i + 1),
                        input: input.clone(),
                        answer: answer.stdout.clone(),
                    });
                }
            }
            self.bench.stress_cases = cases.clone();
            if self.bench.brute_trusted {
                self.bench.own_cases = cases;
            }
            p.note += &format!(
                "{} own tests ({}), {} maximum-size inputs",
                self.bench.stress_cases.len(),
                if self.bench.brute_trusted {
                    "trusted"
                } else {
                    "not trusted: the brute force fails a sample"
                },
                self.bench.max_inputs.len()
            );
        }
        Ok(())
    }
}
