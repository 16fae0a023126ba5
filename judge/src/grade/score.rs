//! Points on scored problems: whether a problem is scored, the most points each secret
//! case can give, a test's points from its verdict and its validator's claim, and the
//! aggregation by test group (sum, min, pass-fail, max, avg) into the submission's score
//! and the scores of the groups below `data/secret`.

use std::collections::HashMap;

use problems::package::Aggregation;
use problems::{Problem, TestGroup, Validation, Verdict};
use serde::Serialize;

use super::TestResult;
use super::check::{Checked, Claim};

/// The points of `data/secret` when it declares none.
const SECRET_MAX: f64 = 100.0;

/// The points of one group directly below `data/secret` (an IOI subtask).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupScore {
    /// The group's name (`secret/group1`).
    pub name: String,
    /// Its points (see [`group_score`]).
    pub score: f64,
    /// Its maximum: its own `max_score`, or its share of `data/secret`'s points.
    pub max: f64,
}

/// Whether a problem is scored (see `problems::Problem::scoring`), or its validator
/// writes `score.txt`.
pub fn is_scored(problem: &Problem) -> bool {
    problem.scoring || matches!(problem.validation, Validation::Custom { score: true, .. })
}

/// The maximum of a part (a case or a subgroup without its own score) of `group`, whose
/// maximum is `max`: under `sum`, what is left of `max` after the subgroups with their own
/// score, shared equally among the other parts; under `min`, `max`, `avg` and
/// `pass-fail`, `max` itself (a case of a `min` group can reach the group's points).
fn part_max(group: &TestGroup, max: f64) -> f64 {
    if !matches!(
        group.aggregation.unwrap_or(Aggregation::Sum),
        Aggregation::Sum
    ) {
        return max;
    }
    let declared: f64 = group.groups.iter().filter_map(|g| g.score).sum();
    let undeclared = group.groups.iter().filter(|g| g.score.is_none()).count() + group.cases.len();
    if undeclared == 0 {
        0.0
    } else {
        (max - declared).max(0.0) / undeclared as f64
    }
}

/// The most points each case below `group` can give, by case name; `max` is the group's
/// maximum when it declares none (100 for `data/secret`).
pub fn case_maxima(group: &TestGroup, max: f64, out: &mut HashMap<String, f64>) {
    let max = group.score.unwrap_or(max);
    let part = part_max(group, max);
    for sub in &group.groups {
        case_maxima(sub, part, out);
    }
    for case in &group.cases {
        out.insert(case.name.clone(), part);
    }
}

/// The most points each secret case of `problem` can give; empty on pass-fail problems.
pub(super) fn secret_case_maxima(problem: &Problem) -> HashMap<String, f64> {
    let mut res = HashMap::new();
    if is_scored(problem) {
        case_maxima(&problem.secret, SECRET_MAX, &mut res);
    }
    res
}

/// A test group's points and its maximum, from its cases' verdicts and points (by name;
/// a case that did not run counts nothing).
///
/// The group's maximum is its `score` (`max_score`) or, when it has none, `default_max`
/// (100 for `data/secret`); its parts (subgroups and cases) have the maxima of
/// [`case_maxima`]. `sum` (the default) adds the parts' points; `min` gives the group its
/// maximum times the smallest fraction any part reached, `max` and `avg` (legacy) the
/// largest or the mean fraction; `pass-fail` gives the maximum when every case below the
/// group is AC and nothing otherwise.
pub fn group_score(
    group: &TestGroup,
    outcomes: &HashMap<&str, (Verdict, f64)>,
    default_max: f64,
) -> (f64, f64) {
    let max = group.score.unwrap_or(default_max);
    let part = part_max(group, max);
    // (points, maximum) of every part.
    let mut parts: Vec<(f64, f64)> = group
        .groups
        .iter()
        .map(|g| group_score(g, outcomes, part))
        .collect();
    parts.extend(group.cases.iter().map(|case| {
        let points = outcomes.get(case.name.as_str()).map_or(0.0, |it| it.1);
        (points, part)
    }));
    let fraction = |(points, max): &(f64, f64)| if *max > 0.0 { points / max } else { 1.0 };
    let score = match group.aggregation.unwrap_or(Aggregation::Sum) {
        Aggregation::Sum => parts.iter().map(|p| p.0).sum(),
        Aggregation::Min => max * parts.iter().map(fraction).fold(1.0, f64::min),
        Aggregation::PassFail => {
            if all_accepted(group, outcomes) {
                max
            } else {
                0.0
            }
        }
        Aggregation::Max => max * parts.iter().map(fraction).fold(0.0, f64::max),
        Aggregation::Avg => {
            if parts.is_empty() {
                max
            } else {
                max * parts.iter().map(fraction).sum::<f64>() / parts.len() as f64
            }
        }
    };
    (score, max)
}

/// Whether every case below `group` is AC.
fn all_accepted(group: &TestGroup, outcomes: &HashMap<&str, (Verdict, f64)>) -> bool {
    group
        .cases
        .iter()
        .all(|case| outcomes.get(case.name.as_str()).map(|it| it.0) == Some(Verdict::AC))
        && group.groups.iter().all(|g| all_accepted(g, outcomes))
}

/// A submission's points, as its [`super::Report`] carries them.
#[derive(Debug, PartialEq)]
pub(super) struct Points {
    pub(super) score: f64,
    pub(super) max_score: Option<f64>,
    pub(super) groups: Vec<GroupScore>,
}

/// The points of a submission whose verdict is `verdict` and whose tests gave `results`:
/// on a pass-fail problem 1 for AC and 0 otherwise; on a scored one the points of
/// `data/secret` (see [`group_score`]) and of each group directly below it.
pub(super) fn submission_points(
    problem: &Problem,
    verdict: Verdict,
    results: &[TestResult],
) -> Points {
    if !is_scored(problem) {
        return Points {
            score: if verdict == Verdict::AC { 1.0 } else { 0.0 },
            max_score: None,
            groups: Vec::new(),
        };
    }
    let outcomes: HashMap<&str, (Verdict, f64)> = results
        .iter()
        .map(|r| (r.name.as_str(), (r.verdict, r.score.unwrap_or(0.0))))
        .collect();
    let (score, max) = group_score(&problem.secret, &outcomes, SECRET_MAX);
    Points {
        score,
        max_score: Some(max),
        groups: secret_groups(&problem.secret, &outcomes),
    }
}

/// The groups' points of a submission that did not compile: what no test gives each group
/// directly below `data/secret`; empty on pass-fail problems.
pub(super) fn groups_without_tests(problem: &Problem) -> Vec<GroupScore> {
    if !is_scored(problem) {
        return Vec::new();
    }
    secret_groups(&problem.secret, &HashMap::new())
}

/// The points of each group directly below `secret`, as [`group_score`] of `secret` counts
/// them.
fn secret_groups(secret: &TestGroup, outcomes: &HashMap<&str, (Verdict, f64)>) -> Vec<GroupScore> {
    // What group_score gives a group below `data/secret` that declares no maximum.
    let part = part_max(secret, secret.score.unwrap_or(SECRET_MAX));
    secret
        .groups
        .iter()
        .map(|group| {
            let (score, max) = group_score(group, outcomes, part);
            GroupScore {
                name: group.name.clone(),
                score,
                max,
            }
        })
        .collect()
}

/// A secret test's verdict, message and points on a scored problem whose test can give at
/// most `max` points: an accepted test gets `max`, or what the validator's `score.txt`
/// (`score_multiplier.txt` times `max`) says; a testlib partial result (a WA) keeps its
/// points; any other test gets 0. Points above `max` make the test a judge error.
pub(super) fn test_score(checked: Checked, max: f64) -> (Verdict, String, Option<f64>) {
    let Checked {
        verdict,
        message,
        claim,
    } = checked;
    let points = match (verdict, claim) {
        (Verdict::AC | Verdict::WA, Some(Claim::Points(points))) => points,
        (Verdict::AC, Some(Claim::Multiplier(fraction))) => fraction * max,
        (Verdict::AC, None) => max,
        _ => 0.0,
    };
    if points > max + problems::ScoreRange::TOLERANCE {
        return (
            Verdict::JE,
            format!(
                "the validator gave {points} points, above the test's maximum of {max}: {message}"
            ),
            Some(0.0),
        );
    }
    (verdict, message, Some(points))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str) -> problems::TestCase {
        problems::TestCase {
            name: name.to_owned(),
            input: name.into(),
            answer: name.into(),
            is_sample: false,
            output_validator_args: None,
        }
    }

    fn group(
        name: &str,
        score: Option<f64>,
        aggregation: Option<Aggregation>,
        cases: &[&str],
    ) -> TestGroup {
        TestGroup {
            name: name.to_owned(),
            cases: cases.iter().map(|c| case(c)).collect(),
            groups: vec![],
            score,
            aggregation,
            output_validator_args: None,
        }
    }

    /// `data/secret` with two `min` groups of 20 and 30 points and a `sum` group of 50.
    fn secret() -> TestGroup {
        TestGroup {
            groups: vec![
                group(
                    "secret/1",
                    Some(20.0),
                    Some(Aggregation::Min),
                    &["a1", "a2"],
                ),
                group(
                    "secret/2",
                    Some(30.0),
                    Some(Aggregation::Min),
                    &["b1", "b2"],
                ),
                group("secret/3", Some(50.0), None, &["c1", "c2", "c3", "c4"]),
            ],
            ..group("secret", None, None, &[])
        }
    }

    const NAMES: [&str; 8] = ["a1", "a2", "b1", "b2", "c1", "c2", "c3", "c4"];

    /// The cases in `ok` get AC with their maximum, the others WA with nothing.
    fn outcomes(
        maxima: &HashMap<String, f64>,
        ok: &[&str],
    ) -> HashMap<&'static str, (Verdict, f64)> {
        NAMES
            .into_iter()
            .map(|n| match ok.contains(&n) {
                true => (n, (Verdict::AC, maxima[n])),
                false => (n, (Verdict::WA, 0.0)),
            })
            .collect()
    }

    #[test]
    fn scored_groups_sum_and_min() {
        let secret = secret();
        let mut maxima = HashMap::new();
        case_maxima(&secret, 100.0, &mut maxima);
        // A case of a min group can give the group's points; the sum group shares its 50.
        assert_eq!(
            (maxima["a1"], maxima["b2"], maxima["c3"]),
            (20.0, 30.0, 12.5)
        );
        let all = outcomes(&maxima, &NAMES);
        assert_eq!(group_score(&secret, &all, 100.0), (100.0, 100.0));
        // Group 1 complete, group 2 broken (min: nothing), half of the sum group.
        let some = outcomes(&maxima, &["a1", "a2", "b1", "c1", "c3"]);
        assert_eq!(group_score(&secret, &some, 100.0), (45.0, 100.0));
        assert_eq!(
            group_score(&secret, &outcomes(&maxima, &[]), 100.0),
            (0.0, 100.0)
        );
        // Validator points: a min group takes its weakest case's fraction.
        let mut partial = all.clone();
        partial.insert("a2", (Verdict::AC, 5.0));
        partial.insert("c4", (Verdict::WA, 2.5));
        assert_eq!(
            group_score(&secret, &partial, 100.0),
            (5.0 + 30.0 + 37.5 + 2.5, 100.0)
        );
    }

    #[test]
    fn pass_fail_groups_need_every_case() {
        let mut group = TestGroup {
            cases: vec![case("x"), case("y")],
            ..group("secret/1", Some(40.0), Some(Aggregation::PassFail), &[])
        };
        let outcomes = |y: Verdict| HashMap::from([("x", (Verdict::AC, 40.0)), ("y", (y, 0.0))]);
        assert_eq!(
            group_score(&group, &outcomes(Verdict::AC), 100.0),
            (40.0, 40.0)
        );
        assert_eq!(
            group_score(&group, &outcomes(Verdict::TLE), 100.0),
            (0.0, 40.0)
        );
        group.aggregation = Some(Aggregation::Sum);
        assert_eq!(
            group_score(&group, &outcomes(Verdict::TLE), 100.0),
            (40.0, 40.0)
        );
    }

    #[test]
    fn validator_points_become_the_test_score() {
        let checked = |verdict, claim| Checked {
            verdict,
            message: String::new(),
            claim,
        };
        let score = |verdict, claim| {
            let (verdict, _, points) = test_score(checked(verdict, claim), 20.0);
            (verdict, points)
        };
        assert_eq!(score(Verdict::AC, None), (Verdict::AC, Some(20.0)));
        assert_eq!(
            score(Verdict::AC, Some(Claim::Points(7.5))),
            (Verdict::AC, Some(7.5))
        );
        assert_eq!(
            score(Verdict::AC, Some(Claim::Multiplier(0.25))),
            (Verdict::AC, Some(5.0))
        );
        assert_eq!(
            score(Verdict::WA, Some(Claim::Points(3.0))),
            (Verdict::WA, Some(3.0))
        );
        assert_eq!(score(Verdict::WA, None), (Verdict::WA, Some(0.0)));
        assert_eq!(score(Verdict::TLE, None), (Verdict::TLE, Some(0.0)));
        assert_eq!(
            score(Verdict::AC, Some(Claim::Points(21.0))),
            (Verdict::JE, Some(0.0))
        );
    }

    /// The results of a run of every secret case, accepted when in `ok`.
    fn results(maxima: &HashMap<String, f64>, ok: &[&str]) -> Vec<TestResult> {
        let outcomes = outcomes(maxima, ok);
        NAMES
            .iter()
            .enumerate()
            .map(|(index, name)| TestResult {
                index,
                name: (*name).to_owned(),
                verdict: outcomes[name].0,
                cpu_ms: 0.0,
                wall_ms: 0.0,
                peak_kib: 0,
                output_bytes: 0,
                exit_code: Some(0),
                signal: None,
                message: String::new(),
                score: Some(outcomes[name].1),
                passes: 1,
                output_head: None,
            })
            .collect()
    }

    #[test]
    fn the_report_carries_each_secret_group_score() {
        let mut problem = Problem {
            root: "p".into(),
            short_name: "p".to_owned(),
            name: "P".to_owned(),
            limits: problems::package::DEFAULT_LIMITS,
            validation: Validation::Default(Default::default()),
            sha256: String::new(),
            statement: None,
            sample: group("sample", None, None, &[]),
            secret: secret(),
            input_validators: vec![],
            output_validator: None,
            submissions: vec![],
            scoring: true,
        };
        let maxima = secret_case_maxima(&problem);
        let points = submission_points(
            &problem,
            Verdict::WA,
            &results(&maxima, &["a1", "a2", "b1", "c1", "c3"]),
        );
        let group = |name: &str, score, max| GroupScore {
            name: name.to_owned(),
            score,
            max,
        };
        assert_eq!(
            points,
            Points {
                score: 45.0,
                max_score: Some(100.0),
                groups: vec![
                    group("secret/1", 20.0, 20.0),
                    group("secret/2", 0.0, 30.0),
                    group("secret/3", 25.0, 50.0),
                ],
            }
        );
        // Groups without their own maximum share what is left of data/secret's 100.
        for g in &mut problem.secret.groups[1..] {
            g.score = None;
        }
        let maxima = secret_case_maxima(&problem);
        let points = submission_points(&problem, Verdict::AC, &results(&maxima, &NAMES));
        let group_maxima: Vec<f64> = points.groups.iter().map(|g| g.max).collect();
        assert_eq!(
            (points.score, group_maxima),
            (100.0, vec![20.0, 40.0, 40.0])
        );
        // A compile error gives every group nothing.
        let nothing: Vec<f64> = groups_without_tests(&problem)
            .iter()
            .map(|g| g.score)
            .collect();
        assert_eq!(nothing, vec![0.0, 0.0, 0.0]);
        // Pass-fail problems have none.
        assert_eq!(
            groups_without_tests(&Problem {
                scoring: false,
                ..problem.clone()
            }),
            vec![]
        );
        problem.scoring = false;
        let points = submission_points(&problem, Verdict::AC, &results(&maxima, &NAMES));
        assert_eq!(
            points,
            Points {
                score: 1.0,
                max_score: None,
                groups: vec![],
            }
        );
    }
}
