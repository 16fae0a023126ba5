//! Evaluating a model's result in one contest: its score under the contest's rules, its
//! place among the humans, and the ratings that place implies.
//!
//! Two kinds of contest:
//! - a Codeforces round ([`in_round`]): rows with the humans' old ratings, so the result
//!   has every rating (CodeElo, Codeforces performance and change, Elo-MMR performance);
//! - an ICPC contest from its CLICS event feed ([`in_feed`]): final standings without
//!   ratings, so the result is the score and the place only; or from a CLICS contest
//!   package's standings of one group on some problems ([`in_standings`]).
//!
//! Everything that changes the numbers is an input: the model's [`Timing`], the
//! [`TiePolicy`], the humans' Elo-MMR uncertainty and the model's assumed old rating, all
//! in [`Options`]. The functions read no file and print nothing; the `leaderboard place`
//! command is their caller.

use serde::{Deserialize, Serialize};

use crate::clics::{Feed, Standings};
use crate::codeforces::{self, Row};
use crate::elo_mmr::{self, Belief};
use crate::place::{self, Placement, TiePolicy, Timing};
use crate::standings::{ProblemResult, Rule, Score};
use crate::{Error, Result};

/// The default of [`Options::assumed_old_rating`]: 1400, the rating Codeforces' formula
/// starts a newcomer at (since 2020; the rating shown starts at 0 and gets the difference
/// back over the first rounds).
pub const DEFAULT_ASSUMED_OLD_RATING: i32 = 1400;

/// The default of [`Options::human_sig`]: 80, Elo-MMR's floor for the uncertainty of a
/// seasoned player's rating.
pub const DEFAULT_HUMAN_SIG: f64 = 80.0;

/// A model's result in a contest, as the model's JSON file spells it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelResult {
    /// The contest's scoring rule. A Codeforces round needs it (rows do not say how the
    /// round was scored); for a CLICS feed it is ignored, the feed's ICPC rule applies.
    #[serde(default)]
    pub rule: Option<Rule>,
    /// When the model's accepts happened.
    pub timing: Timing,
    /// One result per problem, in problem order.
    pub results: Vec<ProblemResult>,
    /// Each problem's maximum points (Codeforces points rounds only).
    #[serde(default)]
    pub max_points: Vec<f64>,
}

/// How to evaluate: every choice that moves the numbers. [`Options::default`] gives the
/// defaults of the `leaderboard place` command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// How humans with exactly the model's score count (default
    /// [`TiePolicy::HumansAhead`], CodeElo's choice).
    pub tie_policy: TiePolicy,
    /// The uncertainty (standard deviation) of each human's rating in the Elo-MMR
    /// performance (default [`DEFAULT_HUMAN_SIG`]).
    pub human_sig: f64,
    /// The rating the model is taken to have before a Codeforces round (default
    /// [`DEFAULT_ASSUMED_OLD_RATING`]). The model joins the round as one more contestant
    /// with this old rating: its `codeforces_delta` is the change from it, and through the
    /// round's corrections it moves the `codeforces_performance` a little. The other
    /// ratings (CodeElo, Elo-MMR) do not use it.
    pub assumed_old_rating: i32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tie_policy: TiePolicy::HumansAhead,
            human_sig: DEFAULT_HUMAN_SIG,
            assumed_old_rating: DEFAULT_ASSUMED_OLD_RATING,
        }
    }
}

/// A model evaluated in a Codeforces round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RoundEvaluation {
    /// The model's score, as the round's rows are scored (no last-accept tiebreak).
    pub score: Score,
    /// The timing policy applied.
    pub timing: Timing,
    /// The tie policy applied.
    pub tie_policy: TiePolicy,
    /// The model's place among the humans.
    pub placement: Placement,
    /// The ratings the place implies.
    pub ratings: RoundRatings,
}

/// The ratings of a model in a Codeforces round, each named by its method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RoundRatings {
    /// CodeElo's expected-place rating ([`place::codeelo_rating`]) at the model's worst
    /// place, between 0 and the best human's old rating plus 100.
    pub codeelo_rating: f64,
    /// The old rating at which the Codeforces formula would give the model a change of 0
    /// (`None`: unbounded, alone in first place).
    pub codeforces_performance: Option<i32>,
    /// The Codeforces change of the model from `codeforces_assumed_old_rating`.
    pub codeforces_delta: i32,
    /// The model's old rating in the Codeforces formula ([`Options::assumed_old_rating`]).
    pub codeforces_assumed_old_rating: i32,
    /// The Elo-MMR performance against the humans (`None`: unbounded).
    pub elo_mmr_performance: Option<f64>,
    /// The humans' rating uncertainty it assumed ([`Options::human_sig`]).
    pub elo_mmr_human_sig: f64,
}

/// A model evaluated in an ICPC contest given by its CLICS event feed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FeedEvaluation {
    /// The model's score.
    pub score: Score,
    /// The timing policy applied.
    pub timing: Timing,
    /// The tie policy applied.
    pub tie_policy: TiePolicy,
    /// The feed's rule (ICPC with the feed's penalty minutes).
    pub rule: Rule,
    /// The model's place among the teams' final standings.
    pub placement: Placement,
}

/// Evaluates `model` in the Codeforces round of `rows`.
///
/// Errors: the model has no `rule`, or a solved result lacks the accept minute its timing
/// needs.
pub fn in_round(rows: &[Row], model: &ModelResult, options: &Options) -> Result<RoundEvaluation> {
    let rule = model.rule.ok_or(Error::MissingRule)?;
    let results = place::apply_timing(&model.results, model.timing)?;
    let mut score = rule.score(&results, &model.max_points);
    // Rows carry no time of last accept, so no last-accept tiebreak can apply.
    score.last_accept = 0.0;
    let humans: Vec<Score> = rows
        .iter()
        .map(|it| Score {
            points: it.points,
            penalty: it.penalty,
            last_accept: 0.0,
        })
        .collect();
    let placement = place::place(&rule, &humans, &score, options.tie_policy);
    let human_ratings: Vec<f64> = rows.iter().map(|it| f64::from(it.old_rating)).collect();
    // CodeElo's bounds: 0 to the best human's rating plus 100.
    let cap = human_ratings.iter().copied().fold(0.0, f64::max) + 100.0;
    let codeelo_rating = place::codeelo_rating(&human_ratings, placement.place_hi as f64, 0.0, cap);
    // The model joins the round as one more contestant, its score rounded the way the
    // standings are (an exact tie stays a tie).
    let mut with_model = rows.to_vec();
    with_model.push(Row {
        handle: "(model)".to_owned(),
        points: score.points,
        penalty: score.penalty,
        old_rating: options.assumed_old_rating,
        delta: None,
    });
    let codeforces = codeforces::entrant_rating(&with_model, rows.len())
        .expect("invariant: the model's row was just pushed");
    let opponents: Vec<(Belief, _)> = human_ratings
        .iter()
        .zip(elo_mmr::outcomes(
            &rule,
            &humans,
            &score,
            options.tie_policy,
        ))
        .map(|(&mu, outcome)| {
            let belief = Belief {
                mu,
                sig: options.human_sig,
            };
            (belief, outcome)
        })
        .collect();
    Ok(RoundEvaluation {
        score,
        timing: model.timing,
        tie_policy: options.tie_policy,
        placement,
        ratings: RoundRatings {
            codeelo_rating,
            codeforces_performance: codeforces.performance,
            codeforces_delta: codeforces.delta,
            codeforces_assumed_old_rating: options.assumed_old_rating,
            elo_mmr_performance: elo_mmr::performance(&opponents, elo_mmr::ELO_BETA),
            elo_mmr_human_sig: options.human_sig,
        },
    })
}

/// Evaluates `model` in the ICPC contest of `feed`, against its final standings.
/// `model.rule` is ignored: the feed's rule applies.
///
/// Errors: the model's results do not cover the contest's problems one to one, a solved
/// result lacks the accept minute its timing needs, or the feed's scoreboard cannot be
/// built.
pub fn in_feed(feed: &Feed, model: &ModelResult, options: &Options) -> Result<FeedEvaluation> {
    let rule = Rule::Icpc {
        penalty_minutes: feed.penalty_minutes()?,
    };
    if model.results.len() != feed.problems.len() {
        return Err(Error::ProblemCount {
            results: model.results.len(),
            problems: feed.problems.len(),
        });
    }
    let results = place::apply_timing(&model.results, model.timing)?;
    let score = rule.score(&results, &[]);
    let humans: Vec<Score> = feed.board(false)?.rows.iter().map(|it| it.score).collect();
    Ok(FeedEvaluation {
        score,
        timing: model.timing,
        tie_policy: options.tie_policy,
        rule,
        placement: place::place(&rule, &humans, &score, options.tie_policy),
    })
}

/// Evaluates `model` among a contest package's humans ([`Standings`]: one group, the
/// problems kept, ranked from their cells); the model's results are in the order of
/// [`Standings::problems`].
///
/// Errors: the model's results do not cover the problems kept one to one, or a solved
/// result lacks the accept minute its timing needs.
pub fn in_standings(
    standings: &Standings,
    model: &ModelResult,
    options: &Options,
) -> Result<FeedEvaluation> {
    if model.results.len() != standings.problems.len() {
        return Err(Error::ProblemCount {
            results: model.results.len(),
            problems: standings.problems.len(),
        });
    }
    let results = place::apply_timing(&model.results, model.timing)?;
    let rule = standings.rule;
    let score = rule.score(&results, &[]);
    Ok(FeedEvaluation {
        score,
        timing: model.timing,
        tie_policy: options.tie_policy,
        rule,
        placement: place::place(&rule, &standings.scores(), &score, options.tie_policy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codeforces::win_probability;

    fn human(handle: &str, points: f64, penalty: f64, old_rating: i32) -> Row {
        Row {
            handle: handle.to_owned(),
            points,
            penalty,
            old_rating,
            delta: None,
        }
    }

    /// Four humans of an educational round; b and c tie on 2 solved, 20 minutes.
    fn round() -> Vec<Row> {
        vec![
            human("a", 3.0, 10.0, 1500),
            human("b", 2.0, 20.0, 1600),
            human("c", 2.0, 20.0, 1400),
            human("d", 1.0, 0.0, 1300),
        ]
    }

    fn solved(rejected: u32, accept_minute: Option<u32>) -> ProblemResult {
        ProblemResult {
            solved: true,
            rejected,
            accept_minute,
            points: None,
        }
    }

    /// Two solved at minute 0, two rejected attempts before one of them: 2 solved, 20
    /// penalty minutes, tied with b and c.
    fn model() -> ModelResult {
        ModelResult {
            rule: Some(Rule::ExtendedIcpc {
                penalty_minutes: 10,
            }),
            timing: Timing::Instant,
            results: vec![solved(2, None), solved(0, None), ProblemResult::default()],
            max_points: Vec::new(),
        }
    }

    #[test]
    fn defaults_are_stated_once() {
        let options = Options::default();
        assert_eq!(options.assumed_old_rating, 1400);
        assert_eq!(options.human_sig, 80.0);
        assert_eq!(options.tie_policy, TiePolicy::HumansAhead);
    }

    #[test]
    fn a_hand_made_round_with_each_tie_policy() {
        let rows = round();
        let ahead = in_round(&rows, &model(), &Options::default()).expect("evaluates");
        assert_eq!(
            ahead.score,
            Score {
                points: 2.0,
                penalty: 20.0,
                last_accept: 0.0
            }
        );
        // Humans ahead: a, and b and c with the same score: 4th of 5, beat d alone.
        let placement = ahead.placement;
        assert_eq!(
            (placement.ahead, placement.equal, placement.humans),
            (1, 2, 4)
        );
        assert_eq!((placement.place_lo, placement.place_hi), (4, 4));
        assert_eq!(placement.percentile, 25.0);
        let options = Options {
            tie_policy: TiePolicy::Shared,
            ..Options::default()
        };
        let shared = in_round(&rows, &model(), &options).expect("evaluates");
        // Shared: places 2 to 4, d beaten and b and c half each: 2 of 4.
        assert_eq!(
            (shared.placement.place_lo, shared.placement.place_hi),
            (2, 4)
        );
        assert_eq!(shared.placement.percentile, 50.0);
        assert_eq!(shared.tie_policy, TiePolicy::Shared);
    }

    #[test]
    fn the_ratings_of_a_hand_made_round() {
        let rows = round();
        let ratings = in_round(&rows, &model(), &Options::default())
            .expect("evaluates")
            .ratings;
        // CodeElo: the expected place `1 + sum P(human beats R)` is the place, 4.
        let expected_place = 1.0
            + rows
                .iter()
                .map(|it| win_probability(f64::from(it.old_rating), ratings.codeelo_rating))
                .sum::<f64>();
        assert!((expected_place - 4.0).abs() < 1e-9, "{expected_place}");
        assert!(ratings.codeelo_rating < 1300.0, "{ratings:?}");
        // Codeforces: the model is the fifth row, rated from 1400.
        let mut with_model = rows.clone();
        with_model.push(human("(model)", 2.0, 20.0, 1400));
        assert_eq!(
            ratings.codeforces_delta,
            codeforces::rating_changes(&with_model)[4]
        );
        assert_eq!(
            ratings.codeforces_performance,
            codeforces::performances(&with_model)[4]
        );
        assert!(ratings.codeforces_delta < 0, "{ratings:?}");
        assert_eq!(ratings.codeforces_assumed_old_rating, 1400);
        // Elo-MMR: lost to three, beat one: bounded, below the CodeElo bound's top.
        let elo_mmr = ratings.elo_mmr_performance.expect("bounded");
        assert!(elo_mmr > 0.0 && elo_mmr < 1700.0, "{elo_mmr}");
        assert_eq!(ratings.elo_mmr_human_sig, 80.0);
    }

    #[test]
    fn the_assumed_old_rating_moves_the_codeforces_delta() {
        let rows = round();
        let at = |assumed_old_rating| {
            let options = Options {
                assumed_old_rating,
                ..Options::default()
            };
            in_round(&rows, &model(), &options)
                .expect("evaluates")
                .ratings
        };
        let (low, high) = (at(1000), at(2000));
        assert!(
            low.codeforces_delta > high.codeforces_delta,
            "{low:?} {high:?}"
        );
        assert_eq!(high.codeforces_assumed_old_rating, 2000);
        // The ratings that do not use it stay put.
        assert_eq!(low.codeelo_rating, high.codeelo_rating);
        assert_eq!(low.elo_mmr_performance, high.elo_mmr_performance);
    }

    #[test]
    fn a_round_needs_the_rule_and_the_accept_times() {
        let rows = round();
        let no_rule = ModelResult {
            rule: None,
            ..model()
        };
        let err = in_round(&rows, &no_rule, &Options::default()).expect_err("no rule");
        assert!(matches!(err, Error::MissingRule), "{err}");
        let measured = ModelResult {
            timing: Timing::Measured,
            ..model()
        };
        let err = in_round(&rows, &measured, &Options::default()).expect_err("no time");
        assert!(
            matches!(err, Error::MissingAcceptTime { problem: 0 }),
            "{err}"
        );
    }

    /// A two-problem ICPC feed: t1 solves both (one rejection first), t2 solves p1 at
    /// minute 30, t3 nothing.
    fn feed() -> Feed {
        let mut lines = vec![
            r#"{"type":"contest","id":null,"data":{"id":"c","name":"C","duration":"5:00:00.000","penalty_time":20}}"#.to_owned(),
            r#"{"type":"judgement-types","id":"AC","data":{"id":"AC","name":"ok","penalty":false,"solved":true}}"#.to_owned(),
            r#"{"type":"judgement-types","id":"WA","data":{"id":"WA","name":"wrong","penalty":true,"solved":false}}"#.to_owned(),
        ];
        for (ordinal, problem) in ["p1", "p2"].iter().enumerate() {
            lines.push(format!(
                r#"{{"type":"problems","id":"{problem}","data":{{"id":"{problem}","label":"{problem}","name":"{problem}","ordinal":{ordinal},"test_data_count":1}}}}"#
            ));
        }
        for team in ["t1", "t2", "t3"] {
            lines.push(format!(
                r#"{{"type":"teams","id":"{team}","data":{{"id":"{team}","name":"{}"}}}}"#,
                team.to_uppercase()
            ));
        }
        let submissions = [
            ("s1", "t1", "p1", "0:10:00", "WA"),
            ("s2", "t1", "p1", "0:20:00", "AC"),
            ("s3", "t1", "p2", "0:40:00", "AC"),
            ("s4", "t2", "p1", "0:30:00", "AC"),
        ];
        for (id, team, problem, time, verdict) in submissions {
            lines.push(format!(
                r#"{{"type":"submissions","id":"{id}","data":{{"id":"{id}","language_id":"c","team_id":"{team}","problem_id":"{problem}","time":"2025-01-01T00:00:00Z","contest_time":"{time}"}}}}"#
            ));
            lines.push(format!(
                r#"{{"type":"judgements","id":"j{id}","data":{{"id":"j{id}","submission_id":"{id}","judgement_type_id":"{verdict}","start_time":"2025-01-01T00:00:00Z","start_contest_time":"{time}"}}}}"#
            ));
        }
        crate::clics::read_feed(&lines.join("\n"), "hand-made").expect("reads")
    }

    #[test]
    fn a_hand_made_feed() {
        let feed = feed();
        // p1 at minute 30: tied with t2 (1 solved, 30 minutes, last accept 30).
        let model = ModelResult {
            rule: None,
            timing: Timing::Measured,
            results: vec![solved(0, Some(30)), ProblemResult::default()],
            max_points: Vec::new(),
        };
        let options = Options {
            tie_policy: TiePolicy::Shared,
            ..Options::default()
        };
        let res = in_feed(&feed, &model, &options).expect("evaluates");
        assert_eq!(
            res.rule,
            Rule::Icpc {
                penalty_minutes: 20
            }
        );
        assert_eq!((res.score.points, res.score.penalty), (1.0, 30.0));
        let placement = res.placement;
        assert_eq!((placement.ahead, placement.equal), (1, 1));
        assert_eq!((placement.place_lo, placement.place_hi), (2, 3));
        // Beat t3, half of t2: 1.5 of 3.
        assert_eq!(placement.percentile, 50.0);
        let err = in_feed(
            &feed,
            &ModelResult {
                results: vec![ProblemResult::default()],
                ..model
            },
            &options,
        )
        .expect_err("one result for two problems");
        assert_eq!(
            err.to_string(),
            "the model has results for 1 problems, the contest has 2"
        );
    }

    #[test]
    fn a_model_among_a_package_group_on_the_problems_kept() {
        use crate::clics::{Standings, StandingsRow};
        use crate::standings::Place;
        let rule = Rule::Icpc {
            penalty_minutes: 20,
        };
        let row = |id: &str, cells: Vec<ProblemResult>| StandingsRow {
            team_id: id.into(),
            score: rule.score(&cells, &[]),
            cells,
            place: Place { lo: 0, hi: 0 },
        };
        let standings = Standings {
            rule,
            problems: vec![0, 3],
            rows: vec![
                row("a", vec![solved(0, Some(10)), solved(0, Some(20))]),
                row("b", vec![solved(1, Some(10)), ProblemResult::default()]),
            ],
        };
        let model = ModelResult {
            rule: None,
            timing: Timing::Measured,
            results: vec![solved(0, Some(5)), ProblemResult::default()],
            max_points: vec![],
        };
        let e = in_standings(&standings, &model, &Options::default()).expect("placed");
        assert_eq!((e.score.points, e.score.penalty), (1.0, 5.0));
        // Behind a (2 solved), ahead of b (1 solved, 30 minutes).
        assert_eq!((e.placement.place_lo, e.placement.place_hi), (2, 2));
        let short = ModelResult {
            results: vec![solved(0, Some(5))],
            ..model
        };
        let err = in_standings(&standings, &short, &Options::default()).expect_err("one of two");
        assert!(err.to_string().contains("1 problems"), "{err}");
    }
}
