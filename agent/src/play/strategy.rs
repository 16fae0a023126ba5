//! The contest strategy of `agent play`, pure and unit-tested: which problem next, and
//! how much time and how many submissions one visit to it may take.
//!
//! **Order** ([`order`]): every unsolved problem is visited once before any is visited
//! again (a problem left after rejections goes to the back); among problems visited as
//! often, the most solved on the scoreboard first, once the board shows any solve (the
//! crowd's estimate of difficulty, as human teams read it); before that, the agent's own
//! estimate: the shorter statement first (a plain proxy for an easier problem); then
//! contest order.
//!
//! **Time against the penalty** ([`plan_visit`]): in ICPC scoring a solved problem costs
//! the minutes until its accept plus `penalty_time` per rejected try before it, and an
//! unsolved problem costs nothing. So early on a rejection is expensive (it will likely
//! be paid, since the problem may still be solved) and time is plentiful: a visit gets
//! a fair share of the time left (the time left over the unsolved problems, between a
//! floor and a cap), at most `rejections_per_visit` submissions, and submits only a
//! program that passes its own tests (`submit_failing` off). In the end game (less time
//! left than the larger of one penalty and a tenth of the contest) a solve is worth more
//! than any penalty it costs: the visit takes what time is left up to the cap, its
//! submissions are limited only by the budget, and a program that fails its own tests
//! is submitted anyway (it may still pass the judge's). No visit starts with less than
//! the floor left: a submission needs time to be judged before the end.

use std::collections::BTreeMap;
use std::time::Duration;

use leaderboard::clics::{Scoreboard, ScoreboardRow};
use serde::{Deserialize, Serialize};

/// What the play knows of one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProblemState {
    /// The CLICS problem id.
    pub id: String,
    /// Its label (`A`, `B`, ...).
    pub label: String,
    /// Its place in the contest.
    pub ordinal: u32,
    /// The statement's length in characters (the agent's own difficulty estimate).
    pub statement_chars: usize,
    /// Accepted (by the server's record).
    pub solved: bool,
    /// Judged rejections that cost penalty time (the server's record).
    pub rejected: u32,
    /// Judged rejections that cost nothing (compile and judge errors).
    pub free_rejections: u32,
    /// Submissions not judged yet.
    pub pending: u32,
    /// Visits that ended without a solve.
    pub visits: u32,
}

impl ProblemState {
    /// A problem not yet tried.
    pub fn new(id: &str, label: &str, ordinal: u32, statement_chars: usize) -> ProblemState {
        ProblemState {
            id: id.to_owned(),
            label: label.to_owned(),
            ordinal,
            statement_chars,
            solved: false,
            rejected: 0,
            free_rejections: 0,
            pending: 0,
            visits: 0,
        }
    }

    /// How often the problem has been left unsolved: the visits recorded, or, for a play
    /// started again without its records, one per `per_visit` rejections the server
    /// holds.
    pub fn times_left(&self, per_visit: u32) -> u32 {
        let tries = self.rejected + self.free_rejections;
        self.visits.max(tries.div_ceil(per_visit.max(1)))
    }
}

/// How many teams solved each problem on the board, leaving out `own_team` (its own
/// solves say nothing of difficulty). A frozen cell counts as it shows.
pub fn solve_counts(board: &Scoreboard, own_team: Option<&str>) -> BTreeMap<String, u32> {
    let mut counts = BTreeMap::new();
    let rows = board
        .rows
        .iter()
        .filter(|row: &&ScoreboardRow| Some(row.team_id.as_str()) != own_team);
    for row in rows {
        for cell in &row.problems {
            let entry = counts.entry(cell.problem_id.clone()).or_insert(0);
            if cell.solved == Some(true) || cell.score.is_some_and(|s| s > 0.0) {
                *entry += 1;
            }
        }
    }
    counts
}

/// The unsolved problems without a pending submission, in the order to visit them (see
/// the module's documentation); `per_visit` is the rejections a visit allows.
pub fn order<'a>(
    problems: &'a [ProblemState],
    solves: &BTreeMap<String, u32>,
    per_visit: u32,
) -> Vec<&'a ProblemState> {
    let board_speaks = solves.values().any(|&n| n > 0);
    let mut open: Vec<&ProblemState> = problems
        .iter()
        .filter(|p| !p.solved && p.pending == 0)
        .collect();
    open.sort_by_key(|p| {
        let crowd = if board_speaks {
            u32::MAX - solves.get(&p.id).copied().unwrap_or(0)
        } else {
            0
        };
        (p.times_left(per_visit), crowd, p.statement_chars, p.ordinal)
    });
    open
}

/// The strategy's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeConfig {
    /// No visit starts with less time left than this.
    pub min_visit: Duration,
    /// The longest visit.
    pub max_visit: Duration,
    /// Rejections a visit may take before the play moves on (outside the end game).
    pub rejections_per_visit: u32,
}

/// Where the contest is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// Time left for the play: until the contest's end or the play's own budget,
    /// whichever comes first.
    pub left: Duration,
    /// Time left until the contest's end.
    pub contest_left: Duration,
    /// The contest's length.
    pub duration: Duration,
    /// Minutes per penalised rejection.
    pub penalty_minutes: u32,
}

impl Clock {
    /// Whether the end game has come: less time left in the contest than the larger of
    /// one penalty and a tenth of the contest.
    pub fn end_game(&self) -> bool {
        let penalty = Duration::from_secs(u64::from(self.penalty_minutes) * 60);
        self.contest_left <= penalty.max(self.duration / 10)
    }
}

/// What one visit to a problem may take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Visit {
    /// Wall time (written as seconds).
    #[serde(with = "seconds")]
    pub wall: Duration,
    /// Submissions (`None`: as many as the budget allows).
    pub submissions: Option<u64>,
    /// Submit a program that fails its own tests once its debug rounds are spent.
    pub submit_failing: bool,
    /// Whether this is the end game.
    pub end_game: bool,
}

/// A duration as seconds, to the millisecond (`12.5`), in records.
mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_millis() as f64 / 1000.0)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let secs = f64::deserialize(d)?;
        if !secs.is_finite() || secs < 0.0 {
            return Err(serde::de::Error::custom(format!(
                "`{secs}` is not a number of seconds"
            )));
        }
        Ok(Duration::from_millis((secs * 1000.0).round() as u64))
    }
}

/// The visit to start now with `unsolved` problems open, or `None` when too little
/// time is left to start one.
pub fn plan_visit(config: &TimeConfig, clock: &Clock, unsolved: usize) -> Option<Visit> {
    if clock.left < config.min_visit || unsolved == 0 {
        return None;
    }
    let end_game = clock.end_game();
    let wall = if end_game {
        clock.left.min(config.max_visit)
    } else {
        let share = clock.left / u32::try_from(unsolved).unwrap_or(u32::MAX);
        share
            .max(config.min_visit)
            .min(config.max_visit)
            .min(clock.left)
    };
    Some(Visit {
        wall,
        submissions: (!end_game).then_some(u64::from(config.rejections_per_visit.max(1))),
        submit_failing: end_game,
        end_game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use leaderboard::clics::{RelTime, RowScore, ScoreboardProblem, State, Time};

    fn problem(id: &str, ordinal: u32, chars: usize) -> ProblemState {
        ProblemState::new(id, &id.to_uppercase(), ordinal, chars)
    }

    fn ids(list: &[&ProblemState]) -> Vec<String> {
        list.iter().map(|p| p.id.clone()).collect()
    }

    fn board(rows: &[(&str, &[(&str, bool)])]) -> Scoreboard {
        Scoreboard {
            event_id: "1".into(),
            time: Time::from_unix_millis(0),
            contest_time: RelTime::ZERO,
            state: State::default(),
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, (team, cells))| ScoreboardRow {
                    rank: u32::try_from(i).unwrap() + 1,
                    team_id: (*team).into(),
                    score: RowScore::PassFail {
                        num_solved: 0,
                        total_time: 0,
                        time: None,
                    },
                    problems: cells
                        .iter()
                        .map(|(p, solved)| ScoreboardProblem {
                            problem_id: (*p).into(),
                            num_judged: 1,
                            solved: Some(*solved),
                            ..ScoreboardProblem::default()
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn before_the_board_speaks_the_shorter_statement_goes_first() {
        let problems = [
            problem("a", 0, 900),
            problem("b", 1, 300),
            problem("c", 2, 300),
        ];
        let solves = BTreeMap::from([("a".into(), 0), ("b".into(), 0), ("c".into(), 0)]);
        assert_eq!(ids(&order(&problems, &solves, 2)), ["b", "c", "a"]);
        assert_eq!(ids(&order(&problems, &BTreeMap::new(), 2)), ["b", "c", "a"]);
    }

    #[test]
    fn once_the_board_shows_solves_the_most_solved_goes_first() {
        let problems = [
            problem("a", 0, 900),
            problem("b", 1, 300),
            problem("c", 2, 300),
        ];
        let board = board(&[
            ("t1", &[("a", true), ("b", false), ("c", true)]),
            ("t2", &[("a", true), ("b", true), ("c", false)]),
            ("me", &[("a", false), ("b", true), ("c", true)]),
        ]);
        let solves = solve_counts(&board, Some("me"));
        assert_eq!(
            solves,
            BTreeMap::from([("a".into(), 2), ("b".into(), 1), ("c".into(), 1)])
        );
        // a (2 solves) first; b and c tie on solves and length: contest order.
        assert_eq!(ids(&order(&problems, &solves, 2)), ["a", "b", "c"]);
        // Counting our own row would change the crowd's view: b and c would tie with a.
        let with_me = solve_counts(&board, None);
        assert_eq!(ids(&order(&problems, &with_me, 2)), ["b", "c", "a"]);
    }

    #[test]
    fn solved_and_pending_problems_are_not_visited_and_a_left_problem_waits_its_turn() {
        let mut problems = [
            problem("a", 0, 100),
            problem("b", 1, 200),
            problem("c", 2, 300),
            problem("d", 3, 400),
        ];
        problems[0].visits = 1; // left after rejections: to the back
        problems[1].solved = true;
        problems[2].pending = 1; // its verdict comes first
        assert_eq!(ids(&order(&problems, &BTreeMap::new(), 2)), ["d", "a"]);
    }

    #[test]
    fn a_restarted_play_counts_the_servers_rejections_as_visits() {
        let mut a = problem("a", 0, 100);
        a.rejected = 3;
        assert_eq!(a.times_left(2), 2);
        a.visits = 5;
        assert_eq!(a.times_left(2), 5);
        let mut b = problem("b", 1, 900);
        b.free_rejections = 1;
        assert_eq!(b.times_left(2), 1);
        let problems = [a.clone(), b, problem("c", 2, 999)];
        assert_eq!(ids(&order(&problems, &BTreeMap::new(), 2)), ["c", "b", "a"]);
    }

    fn config() -> TimeConfig {
        TimeConfig {
            min_visit: Duration::from_secs(30),
            max_visit: Duration::from_secs(900),
            rejections_per_visit: 2,
        }
    }

    fn clock(left_min: u64, contest_left_min: u64) -> Clock {
        Clock {
            left: Duration::from_secs(left_min * 60),
            contest_left: Duration::from_secs(contest_left_min * 60),
            duration: Duration::from_secs(300 * 60),
            penalty_minutes: 20,
        }
    }

    #[test]
    fn early_visits_share_the_time_and_guard_the_penalty() {
        // 4 hours left over 10 problems: 24 minutes each, capped at 15.
        let visit = plan_visit(&config(), &clock(240, 240), 10).unwrap();
        assert_eq!(visit.wall, Duration::from_secs(900));
        assert_eq!(visit.submissions, Some(2));
        assert!(!visit.submit_failing && !visit.end_game);
        // 1 hour over 6: 10 minutes each.
        let visit = plan_visit(&config(), &clock(60, 60), 6).unwrap();
        assert_eq!(visit.wall, Duration::from_secs(600));
        // 40 minutes over 200 problems: the floor, 30 s.
        let visit = plan_visit(&config(), &clock(40, 40), 200).unwrap();
        assert_eq!(visit.wall, Duration::from_secs(30));
    }

    #[test]
    fn the_end_game_spends_what_is_left_on_a_solve() {
        // 20 minutes left of a 5-hour contest with a 20-minute penalty: the end game
        // (30 minutes, a tenth of the contest, is the larger bound).
        let visit = plan_visit(&config(), &clock(20, 20), 5).unwrap();
        assert!(visit.end_game && visit.submit_failing);
        assert_eq!(visit.submissions, None);
        assert_eq!(visit.wall, Duration::from_secs(900));
        let visit = plan_visit(&config(), &clock(5, 5), 5).unwrap();
        assert_eq!(visit.wall, Duration::from_secs(300));
        // The play's own budget ends first, far from the contest's end: no end game.
        let visit = plan_visit(&config(), &clock(5, 200), 5).unwrap();
        assert!(!visit.end_game);
        assert_eq!(visit.wall, Duration::from_secs(60));
    }

    #[test]
    fn a_visit_is_recorded_with_its_wall_time_in_seconds() {
        let visit = Visit {
            wall: Duration::from_millis(12_345),
            submissions: Some(2),
            submit_failing: false,
            end_game: false,
        };
        let json = serde_json::to_value(&visit).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"wall": 12.345, "submissions": 2, "submit_failing": false, "end_game": false})
        );
        assert_eq!(serde_json::from_value::<Visit>(json).unwrap(), visit);
        assert!(
            serde_json::from_str::<Visit>(
                r#"{"wall": -1, "submissions": null, "submit_failing": true, "end_game": true}"#
            )
            .is_err()
        );
    }

    #[test]
    fn no_visit_starts_without_time_or_problems() {
        let almost = Clock {
            left: Duration::from_secs(29),
            ..clock(0, 0)
        };
        assert_eq!(plan_visit(&config(), &almost, 3), None);
        assert_eq!(plan_visit(&config(), &clock(60, 60), 0), None);
    }

    #[test]
    fn a_short_contest_is_all_end_game_under_a_long_penalty() {
        // A 3-minute contest with a 20-minute penalty: every minute is the end game.
        let short = Clock {
            left: Duration::from_secs(170),
            contest_left: Duration::from_secs(170),
            duration: Duration::from_secs(180),
            penalty_minutes: 20,
        };
        assert!(short.end_game());
        let no_penalty = Clock {
            penalty_minutes: 0,
            ..short
        };
        assert!(!no_penalty.end_game());
    }
}
