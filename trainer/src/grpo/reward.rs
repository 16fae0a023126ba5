//! Rewards from the agent's verification ladder: each stage signal the agent records
//! ([`agent::step::Signals`]) becomes a reward tier with a weight, and the final verdict
//! the delayed reward.
//!
//! - The **level** after a step is the sum of the weights of the tiers reached in any step
//!   so far (it never drops, so an episode that stopped keeps what it earned): compiled;
//!   every sample passed; every own test passed (the agent records own tests only when its
//!   brute force passes the samples, so they count only as the agent defines them); every
//!   stress comparison agreed. These are [`super::credit`]'s `L_{i,t}`.
//! - The **final reward** defaults to "every hidden test passes" (1 or 0), with per-test
//!   partial credit (`passed / total`) as an option; on a live contest, where hidden
//!   counts are not known, an accepted verdict is 1. An episode that never submitted gets 0.
//! - A **judge error** is no reward: [`final_reward`] says so, and the caller removes the
//!   episode from its group ([`super::credit::GroupCredit::leave`]), never scoring it 0.

use agent::step::Signals;
use problems::Verdict;

/// How the final verdict is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalReward {
    /// 1 when every hidden test passes, else 0 (DeepCoder's rule).
    AllHidden,
    /// The fraction of hidden tests passed.
    PerTest,
}

/// The weight of each tier and the final reward's rule.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RewardWeights {
    /// The program compiled.
    pub compiled: f64,
    /// Every sample passed.
    pub samples: f64,
    /// Every own test passed.
    pub own_tests: f64,
    /// Every stress comparison agreed.
    pub stress: f64,
    /// The rule of the final reward.
    pub final_reward: FinalReward,
    /// Its weight.
    pub final_weight: f64,
}

impl Default for RewardWeights {
    fn default() -> Self {
        RewardWeights {
            compiled: 0.05,
            samples: 0.1,
            own_tests: 0.1,
            stress: 0.1,
            final_reward: FinalReward::AllHidden,
            final_weight: 1.0,
        }
    }
}

/// The tiers an episode has reached so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ladder {
    /// Compiled at least once.
    pub compiled: bool,
    /// Passed every sample at least once.
    pub samples: bool,
    /// Passed every own test at least once.
    pub own_tests: bool,
    /// Agreed on every stress input at least once.
    pub stress: bool,
}

impl Ladder {
    /// Takes in one step's signals.
    pub fn observe(&mut self, signals: &Signals) {
        self.compiled |= signals.compiled == Some(true);
        self.samples |= signals.samples.is_some_and(|c| c.all());
        self.own_tests |= signals.own_tests.is_some_and(|c| c.all());
        self.stress |= signals.stress.is_some_and(|c| c.all());
    }

    /// The level: the weights of the tiers reached.
    pub fn level(&self, weights: &RewardWeights) -> f64 {
        [
            (self.compiled, weights.compiled),
            (self.samples, weights.samples),
            (self.own_tests, weights.own_tests),
            (self.stress, weights.stress),
        ]
        .iter()
        .filter(|(reached, _)| *reached)
        .map(|(_, w)| w)
        .sum()
    }
}

/// The final reward of an episode, or why it has none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Final {
    /// Its reward.
    Reward(f64),
    /// A judge error: the episode leaves its group.
    JudgeError,
}

/// The final reward from every step's signals of one episode (in order).
pub fn final_reward<'a>(
    steps: impl IntoIterator<Item = &'a Signals>,
    weights: &RewardWeights,
) -> Final {
    let mut hidden = None;
    let mut verdict = None;
    for s in steps {
        if s.verdict == Some(Verdict::JE) {
            return Final::JudgeError;
        }
        if s.hidden.is_some() {
            hidden = s.hidden;
        }
        if s.verdict.is_some() {
            verdict = s.verdict;
        }
    }
    let score = match (hidden, verdict) {
        (Some(count), _) => match weights.final_reward {
            FinalReward::AllHidden => f64::from(u8::from(count.all())),
            FinalReward::PerTest if count.total > 0 => count.passed as f64 / count.total as f64,
            FinalReward::PerTest => 0.0,
        },
        (None, Some(v)) => f64::from(u8::from(v == Verdict::AC)),
        (None, None) => 0.0,
    };
    Final::Reward(score * weights.final_weight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent::step::Count;

    fn count(passed: usize, total: usize) -> Option<Count> {
        Some(Count { passed, total })
    }

    #[test]
    fn levels_only_rise_and_own_tests_count_as_the_agent_records_them() {
        let w = RewardWeights::default();
        let mut ladder = Ladder::default();
        let steps = [
            Signals {
                compiled: Some(true),
                samples: count(1, 2),
                ..Default::default()
            },
            Signals {
                compiled: Some(true),
                samples: count(2, 2),
                ..Default::default()
            },
            // A later revision fails a sample: the tier stays earned.
            Signals {
                compiled: Some(true),
                samples: count(0, 2),
                own_tests: count(5, 5),
                stress: count(9, 10),
                ..Default::default()
            },
        ];
        let levels: Vec<f64> = steps
            .iter()
            .map(|s| {
                ladder.observe(s);
                ladder.level(&w)
            })
            .collect();
        for (got, want) in levels.iter().zip([0.05, 0.15, 0.25]) {
            assert!((got - want).abs() < 1e-12, "{levels:?}");
        }
        // No own tests recorded (the brute force failed a sample): that tier is not paid.
        let mut other = Ladder::default();
        other.observe(&Signals {
            samples: count(2, 2),
            brute_samples: count(1, 2),
            ..Default::default()
        });
        assert!(!other.own_tests);
        // An empty count is not "all passed".
        other.observe(&Signals {
            stress: count(0, 0),
            ..Default::default()
        });
        assert!(!other.stress);
    }

    #[test]
    fn the_final_reward_all_hidden_per_test_live_verdicts_and_judge_errors() {
        let all = RewardWeights::default();
        let partial = RewardWeights {
            final_reward: FinalReward::PerTest,
            ..Default::default()
        };
        let hidden = [Signals {
            verdict: Some(Verdict::WA),
            hidden: count(7, 10),
            ..Default::default()
        }];
        assert_eq!(final_reward(&hidden, &all), Final::Reward(0.0));
        assert_eq!(final_reward(&hidden, &partial), Final::Reward(0.7));
        let passed = [Signals {
            verdict: Some(Verdict::AC),
            hidden: count(10, 10),
            ..Default::default()
        }];
        assert_eq!(final_reward(&passed, &all), Final::Reward(1.0));
        let live = [Signals {
            verdict: Some(Verdict::AC),
            ..Default::default()
        }];
        assert_eq!(final_reward(&live, &partial), Final::Reward(1.0));
        assert_eq!(
            final_reward(&[Signals::default()], &all),
            Final::Reward(0.0)
        );
        let je = [
            Signals {
                verdict: Some(Verdict::JE),
                ..Default::default()
            },
            passed[0].clone(),
        ];
        assert_eq!(final_reward(&je, &all), Final::JudgeError);
    }
}
