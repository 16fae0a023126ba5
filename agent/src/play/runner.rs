//! The runner of live play: the sandbox runner it is given, and, for a problem the
//! server offers no samples for (so no package could be written: a package needs test
//! data), judging made-up cases by running the program on their inputs in the sandbox
//! and checking each output against the answer with the default output validator (what
//! the judge does with a problem that has no validator of its own; the API says nothing
//! of custom ones). Input validation is then unknown (`None`: every input counts).

use futures_util::future::BoxFuture;
use problems::Verdict;
use problems::default_validator::{self, DefaultFlags};

use crate::runner::{
    Case, CaseOutcome, CompileOutcome, Limits, Program, RunError, RunInput, RunOutcome, Runner,
};
use crate::task::Task;

/// How much of a program's output a case's record keeps.
const OUTPUT_BYTES: usize = 64 * 1024;

/// `inner`, with made-up cases judged by the default validator for tasks without a
/// package.
pub struct LiveRunner<'a> {
    inner: &'a dyn Runner,
}

impl<'a> LiveRunner<'a> {
    /// Wraps `inner`.
    pub fn new(inner: &'a dyn Runner) -> LiveRunner<'a> {
        LiveRunner { inner }
    }
}

fn cut(text: &str) -> String {
    if text.len() <= OUTPUT_BYTES {
        return text.to_owned();
    }
    let mut end = OUTPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// A case's outcome from the program's run on its input.
fn judged(case: &Case, run: &RunOutcome) -> CaseOutcome {
    let (verdict, message) = if run.ok() {
        match default_validator::check(
            case.answer.as_bytes(),
            run.stdout.as_bytes(),
            &DefaultFlags::default(),
        ) {
            default_validator::Outcome::Accepted => (Verdict::AC, String::new()),
            default_validator::Outcome::WrongAnswer(why) => (Verdict::WA, why),
        }
    } else {
        (run.status, String::new())
    };
    CaseOutcome {
        name: case.name.clone(),
        verdict,
        output: cut(&run.stdout),
        message,
        cpu_ms: run.cpu_ms,
        peak_kib: run.peak_kib,
    }
}

impl Runner for LiveRunner<'_> {
    fn compile<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<CompileOutcome, RunError>> {
        self.inner.compile(task, program)
    }

    fn run<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        inputs: &'a [RunInput],
        limits: Limits,
    ) -> BoxFuture<'a, Result<Vec<RunOutcome>, RunError>> {
        self.inner.run(task, program, inputs, limits)
    }

    fn judge<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        cases: &'a [Case],
    ) -> BoxFuture<'a, Result<Vec<CaseOutcome>, RunError>> {
        if task.package.is_some() {
            return self.inner.judge(task, program, cases);
        }
        Box::pin(async move {
            if cases.is_empty() {
                return Ok(Vec::new());
            }
            let compiled = self.inner.compile(task, program).await?;
            if !compiled.ok {
                return Ok(cases
                    .iter()
                    .map(|c| CaseOutcome {
                        name: c.name.clone(),
                        verdict: Verdict::CE,
                        output: String::new(),
                        message: compiled.log.clone(),
                        cpu_ms: 0.0,
                        peak_kib: 0,
                    })
                    .collect());
            }
            let inputs: Vec<RunInput> = cases
                .iter()
                .map(|c| RunInput {
                    stdin: c.input.clone(),
                    args: Vec::new(),
                })
                .collect();
            let runs = self.inner.run(task, program, &inputs, Limits::Task).await?;
            Ok(cases.iter().zip(&runs).map(|(c, r)| judged(c, r)).collect())
        })
    }

    fn validate_inputs<'a>(
        &'a self,
        task: &'a Task,
        inputs: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<bool>>, RunError>> {
        if task.package.is_some() {
            return self.inner.validate_inputs(task, inputs);
        }
        Box::pin(async { Ok(None) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::FakeRunner;
    use std::time::Duration;

    fn task() -> Task {
        Task {
            id: "sum".into(),
            name: "Sum".into(),
            statement: String::new(),
            statement_format: "contest".into(),
            samples: Vec::new(),
            time_limit: Duration::from_secs(1),
            memory_bytes: 1 << 28,
            package: None,
        }
    }

    fn case(name: &str, input: &str, answer: &str) -> Case {
        Case {
            name: name.into(),
            input: input.into(),
            answer: answer.into(),
        }
    }

    #[tokio::test]
    async fn without_a_package_cases_are_checked_by_the_default_validator() {
        // The fake "program" echoes its input; "crash" in the input makes it crash.
        let inner = FakeRunner::new(|_, input| {
            if input.stdin.contains("crash") {
                (String::new(), Verdict::RTE)
            } else {
                (input.stdin.clone(), Verdict::AC)
            }
        });
        let runner = LiveRunner::new(&inner);
        let program = Program {
            language: "python3".into(),
            source: "print(input())".into(),
        };
        let cases = [
            case("same", "1 2\n", "1   2"),
            case("other", "1 2\n", "3\n"),
            case("crash", "crash\n", "0\n"),
        ];
        let outcomes = runner.judge(&task(), &program, &cases).await.unwrap();
        let verdicts: Vec<(&str, Verdict)> = outcomes
            .iter()
            .map(|o| (o.name.as_str(), o.verdict))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("same", Verdict::AC),
                ("other", Verdict::WA),
                ("crash", Verdict::RTE)
            ]
        );
        assert!(!outcomes[1].message.is_empty(), "the validator says why");
        assert!(
            runner
                .judge(&task(), &program, &[])
                .await
                .unwrap()
                .is_empty()
        );
        let broken = Program {
            language: "cpp".into(),
            source: "DOES NOT COMPILE".into(),
        };
        let outcomes = runner.judge(&task(), &broken, &cases[..1]).await.unwrap();
        assert_eq!(outcomes[0].verdict, Verdict::CE);
        assert_eq!(
            runner
                .validate_inputs(&task(), &["1\n".to_owned()])
                .await
                .unwrap(),
            None
        );
    }
}
