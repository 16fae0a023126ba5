//! Budget accounting: what one problem has spent ([`Ledger`]) against its [`Budget`],
//! and what the whole run has spent ([`RunLedger`], shared by every problem of a run,
//! counted with atomics so concurrent problems draw from one pool).
//!
//! The loop asks before each model call ([`Ledger::may_call`]) and each submission
//! ([`Ledger::may_submit`]); a refusal names what ran out and where ([`Exhausted`]),
//! and ends the problem as a recorded outcome.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::pipeline::Budget;

/// What ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// Model calls.
    ModelCalls,
    /// Tokens.
    Tokens,
    /// Wall time.
    Wall,
    /// Submissions.
    Submissions,
}

/// Whose budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The problem's.
    Problem,
    /// The run's.
    Run,
}

/// A budget that ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exhausted {
    /// What.
    pub resource: Resource,
    /// Whose.
    pub scope: Scope,
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.resource {
            Resource::ModelCalls => "model calls",
            Resource::Tokens => "tokens",
            Resource::Wall => "wall time",
            Resource::Submissions => "submissions",
        };
        let whose = match self.scope {
            Scope::Problem => "problem",
            Scope::Run => "run",
        };
        write!(f, "the {whose}'s budget of {what} is spent")
    }
}

/// A whole run's spending, shared by its problems.
#[derive(Debug)]
pub struct RunLedger {
    budget: Budget,
    started: Instant,
    calls: AtomicU64,
    tokens: AtomicU64,
    submissions: AtomicU64,
}

impl RunLedger {
    /// A fresh ledger for a run with this budget.
    pub fn new(budget: Budget) -> RunLedger {
        RunLedger {
            budget,
            started: Instant::now(),
            calls: AtomicU64::new(0),
            tokens: AtomicU64::new(0),
            submissions: AtomicU64::new(0),
        }
    }

    /// The run's budget.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    fn check(&self, resource: Resource) -> Result<(), Exhausted> {
        let over = |limit: Option<u64>, spent: &AtomicU64| {
            limit.is_some_and(|l| spent.load(Ordering::Relaxed) >= l)
        };
        let out = match resource {
            Resource::ModelCalls => over(self.budget.model_calls, &self.calls),
            Resource::Tokens => over(self.budget.tokens, &self.tokens),
            Resource::Submissions => over(self.budget.submissions, &self.submissions),
            Resource::Wall => self
                .budget
                .wall()
                .is_some_and(|w| self.started.elapsed() >= w),
        };
        if out {
            Err(Exhausted {
                resource,
                scope: Scope::Run,
            })
        } else {
            Ok(())
        }
    }

    fn tokens_left(&self) -> Option<u64> {
        self.budget
            .tokens
            .map(|l| l.saturating_sub(self.tokens.load(Ordering::Relaxed)))
    }
}

/// One problem's spending (and the run's, when it has one).
#[derive(Debug)]
pub struct Ledger<'a> {
    budget: Budget,
    run: Option<&'a RunLedger>,
    started: Instant,
    /// Model calls made.
    pub model_calls: u64,
    /// Tokens spent (prompt and completion).
    pub tokens: u64,
    /// Submissions made.
    pub submissions: u64,
}

impl<'a> Ledger<'a> {
    /// A fresh ledger for a problem, drawing on the run's too.
    pub fn new(budget: Budget, run: Option<&'a RunLedger>) -> Ledger<'a> {
        Ledger {
            budget,
            run,
            started: Instant::now(),
            model_calls: 0,
            tokens: 0,
            submissions: 0,
        }
    }

    /// Time since the problem started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn check(&self, resource: Resource) -> Result<(), Exhausted> {
        let over = |limit: Option<u64>, spent: u64| limit.is_some_and(|l| spent >= l);
        let out = match resource {
            Resource::ModelCalls => over(self.budget.model_calls, self.model_calls),
            Resource::Tokens => over(self.budget.tokens, self.tokens),
            Resource::Submissions => over(self.budget.submissions, self.submissions),
            Resource::Wall => self.budget.wall().is_some_and(|w| self.elapsed() >= w),
        };
        if out {
            return Err(Exhausted {
                resource,
                scope: Scope::Problem,
            });
        }
        match self.run {
            Some(run) => run.check(resource),
            None => Ok(()),
        }
    }

    /// Whether time is left (problem and run).
    pub fn time_left(&self) -> Result<(), Exhausted> {
        self.check(Resource::Wall)
    }

    /// Whether another model call may be made: calls, tokens and time left.
    pub fn may_call(&self) -> Result<(), Exhausted> {
        self.check(Resource::Wall)?;
        self.check(Resource::ModelCalls)?;
        self.check(Resource::Tokens)
    }

    /// Whether another submission may be made.
    pub fn may_submit(&self) -> Result<(), Exhausted> {
        self.check(Resource::Wall)?;
        self.check(Resource::Submissions)
    }

    /// The most tokens a reply may have: `wanted`, capped by what the problem and the
    /// run have left (prompt tokens count too, so this is an upper bound).
    pub fn cap_tokens(&self, wanted: u32) -> u32 {
        let problem_left = self.budget.tokens.map(|l| l.saturating_sub(self.tokens));
        let run_left = self.run.and_then(RunLedger::tokens_left);
        [problem_left, run_left]
            .into_iter()
            .flatten()
            .fold(u64::from(wanted), u64::min)
            .max(1) as u32
    }

    /// Count a model call and its tokens.
    pub fn spend_call(&mut self, tokens: u64) {
        self.model_calls += 1;
        self.tokens += tokens;
        if let Some(run) = self.run {
            run.calls.fetch_add(1, Ordering::Relaxed);
            run.tokens.fetch_add(tokens, Ordering::Relaxed);
        }
    }

    /// Count a submission.
    pub fn spend_submission(&mut self) {
        self.submissions += 1;
        if let Some(run) = self.run {
            run.submissions.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_budget_runs_out_by_resource() {
        let budget = Budget {
            model_calls: Some(2),
            tokens: Some(100),
            wall_seconds: None,
            submissions: Some(1),
        };
        let mut ledger = Ledger::new(budget, None);
        assert_eq!(ledger.may_call(), Ok(()));
        assert_eq!(ledger.cap_tokens(500), 100);
        ledger.spend_call(30);
        assert_eq!(ledger.cap_tokens(500), 70);
        assert_eq!(ledger.cap_tokens(50), 50);
        ledger.spend_call(10);
        let out = ledger.may_call().unwrap_err();
        assert_eq!(out.resource, Resource::ModelCalls);
        assert_eq!(out.scope, Scope::Problem);
        assert_eq!(
            out.to_string(),
            "the problem's budget of model calls is spent"
        );
        assert_eq!(ledger.may_submit(), Ok(()));
        ledger.spend_submission();
        assert_eq!(
            ledger.may_submit().unwrap_err().resource,
            Resource::Submissions
        );
    }

    #[test]
    fn tokens_run_out_before_calls() {
        let budget = Budget {
            tokens: Some(10),
            ..Budget::default()
        };
        let mut ledger = Ledger::new(budget, None);
        ledger.spend_call(11);
        assert_eq!(ledger.may_call().unwrap_err().resource, Resource::Tokens);
        assert_eq!(ledger.cap_tokens(5), 1);
    }

    #[test]
    fn the_run_budget_is_shared_by_its_problems() {
        let run = RunLedger::new(Budget {
            model_calls: Some(3),
            ..Budget::default()
        });
        let mut one = Ledger::new(Budget::default(), Some(&run));
        let mut two = Ledger::new(Budget::default(), Some(&run));
        one.spend_call(1);
        two.spend_call(1);
        assert_eq!(one.may_call(), Ok(()));
        one.spend_call(1);
        let out = two.may_call().unwrap_err();
        assert_eq!(
            out,
            Exhausted {
                resource: Resource::ModelCalls,
                scope: Scope::Run
            }
        );
        assert_eq!(two.model_calls, 1);
    }

    #[test]
    fn wall_time_zero_is_spent_at_once() {
        let ledger = Ledger::new(
            Budget {
                wall_seconds: Some(0),
                ..Budget::default()
            },
            None,
        );
        assert_eq!(ledger.may_call().unwrap_err().resource, Resource::Wall);
        assert_eq!(ledger.may_submit().unwrap_err().resource, Resource::Wall);
    }
}
