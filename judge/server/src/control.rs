//! The contest's clock as the jury changes it: start now or later, freeze and thaw the
//! board, end early, finalize.
//!
//! The contest file gives a schedule (`start_time`, `duration`,
//! `scoreboard_freeze_duration`, `thaw`); [`Control`] holds the jury's changes to it, as
//! the database keeps them (`store::control`), and [`Schedule`] is what follows from the
//! two: when the contest starts, freezes, ends, thaws and is finalized. [`decide`] is the
//! one place that says which action is allowed when; it is pure, so the rules are tested
//! without a server.
//!
//! Without any jury action the schedule is the file's: the board freezes
//! `scoreboard_freeze_duration` before the end and thaws at the end (`thaw: end`, the
//! default), and the contest is finalized once it has ended with nothing left to judge.
//! `thaw: jury` holds the frozen board after the end until the jury thaws it (the
//! reveal), and finalization waits for the thaw or for the jury's finalize.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde::{Deserialize, Serialize};

/// When the frozen board thaws without a jury action.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Thaw {
    /// At the contest's end.
    #[default]
    End,
    /// Only when the jury thaws it (after the reveal).
    Jury,
}

/// The jury's changes to the file's schedule (milliseconds since the epoch), as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Control {
    /// The start, moved (started now, or delayed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    /// The end, when the contest was ended early.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
    /// When the jury froze the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freeze_ms: Option<i64>,
    /// When the jury thawed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thaw_ms: Option<i64>,
    /// When the jury finalized the results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalized_ms: Option<i64>,
}

/// What the contest file says of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    /// `start_time`.
    pub start: DateTime<Utc>,
    /// `duration`.
    pub duration: Duration,
    /// `scoreboard_freeze_duration` (zero: no freeze).
    pub freeze_before_end: Duration,
    /// `thaw`.
    pub thaw: Thaw,
}

/// The contest's clock: the file's plan with the jury's changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// When it starts.
    pub start: DateTime<Utc>,
    /// When it ends (early, when the jury ended it).
    pub end: DateTime<Utc>,
    /// When the board freezes, if it does.
    pub freeze: Option<DateTime<Utc>>,
    /// When the frozen board thaws, if that is known.
    pub thaw: Option<DateTime<Utc>>,
    /// When the jury finalized the results.
    pub finalized: Option<DateTime<Utc>>,
    /// Whether the results become final by themselves once everything is judged (no
    /// freeze, or the board has thawed).
    pub thaws_by_itself: bool,
}

fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

impl Schedule {
    /// The clock of `planned` after the jury's `control`.
    pub fn of(planned: &Planned, control: &Control) -> Schedule {
        let start = control.start_ms.map_or(planned.start, at);
        let planned_end = start + planned.duration;
        let end = control.end_ms.map_or(planned_end, at);
        let planned_freeze = (planned.freeze_before_end > Duration::zero())
            .then(|| planned_end - planned.freeze_before_end)
            // Ended before its planned freeze: it never froze.
            .filter(|f| *f < end);
        let freeze = control.freeze_ms.map(at).or(planned_freeze);
        let thaw = match (freeze, control.thaw_ms) {
            (None, _) => None,
            (Some(_), Some(ms)) => Some(at(ms)),
            (Some(_), None) => (planned.thaw == Thaw::End).then_some(end),
        };
        Schedule {
            start,
            end,
            freeze,
            thaw,
            finalized: control.finalized_ms.map(at),
            thaws_by_itself: freeze.is_none() || planned.thaw == Thaw::End,
        }
    }

    /// Whether the public and the teams see the frozen board at `now`.
    pub fn frozen_at(&self, now: DateTime<Utc>) -> bool {
        self.freeze.is_some_and(|f| now >= f) && self.thaw.is_none_or(|t| now < t)
    }

    /// Whether the board has thawed by `now` (or never froze).
    pub fn thawed_by(&self, now: DateTime<Utc>) -> bool {
        self.freeze.is_none() || self.thaw.is_some_and(|t| now >= t)
    }

    /// When the results are final at `now` (`pending`: something is left to judge): the
    /// jury's finalize, or by themselves once ended, judged and thawed.
    pub fn finalized_at(&self, now: DateTime<Utc>, pending: bool) -> Option<DateTime<Utc>> {
        if pending || now < self.end {
            return None;
        }
        match self.finalized {
            Some(t) => Some(t),
            None if self.thaws_by_itself && self.thawed_by(now) => {
                Some(self.thaw.filter(|t| *t > self.end).unwrap_or(self.end))
            }
            None => None,
        }
    }
}

/// A jury action on the clock, as the API's body writes it:
/// `{"action": "start_now" | "delay" | "freeze" | "thaw" | "end" | "finalize"}`, `delay`
/// with `"start_time"` (RFC 3339) and no other action with it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ActionBody")]
pub enum Action {
    /// Start now.
    StartNow,
    /// Move the start to a later time (before the contest has started).
    Delay {
        /// The new start (RFC 3339).
        start_time: DateTime<Utc>,
    },
    /// Freeze the board now.
    Freeze,
    /// Thaw the board now.
    Thaw,
    /// End the contest now.
    End,
    /// Declare the results final.
    Finalize,
}

/// The body as written, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    action: String,
    #[serde(default)]
    start_time: Option<DateTime<Utc>>,
}

impl TryFrom<ActionBody> for Action {
    type Error = String;

    fn try_from(body: ActionBody) -> Result<Action, String> {
        let action = match body.action.as_str() {
            "start_now" => Action::StartNow,
            "delay" => {
                let start_time = body
                    .start_time
                    .ok_or("action `delay`: give the new `start_time` (RFC 3339)")?;
                return Ok(Action::Delay { start_time });
            }
            "freeze" => Action::Freeze,
            "thaw" => Action::Thaw,
            "end" => Action::End,
            "finalize" => Action::Finalize,
            other => {
                return Err(format!(
                    "action `{other}`: expected start_now, delay, freeze, thaw, end or finalize"
                ));
            }
        };
        if body.start_time.is_some() {
            return Err(format!(
                "action `{}`: `start_time` belongs to `delay` only",
                body.action
            ));
        }
        Ok(action)
    }
}

impl Action {
    /// Its name in the audit log and the API.
    pub fn name(&self) -> &'static str {
        match self {
            Action::StartNow => "start_now",
            Action::Delay { .. } => "delay",
            Action::Freeze => "freeze",
            Action::Thaw => "thaw",
            Action::End => "end",
            Action::Finalize => "finalize",
        }
    }

    /// Whether it changes the contest object (its start or its duration).
    pub fn moves_the_contest(&self) -> bool {
        matches!(self, Action::StartNow | Action::Delay { .. } | Action::End)
    }
}

/// Why an action is refused now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{action}: {why}")]
pub struct Refused {
    /// The action.
    pub action: &'static str,
    /// Why.
    pub why: String,
}

/// The control after `action` at `now`, or why it is refused. `pending`: submissions are
/// left to judge.
pub fn decide(
    planned: &Planned,
    control: &Control,
    action: &Action,
    now: DateTime<Utc>,
    pending: bool,
) -> Result<Control, Refused> {
    let s = Schedule::of(planned, control);
    let refuse = |why: String| Refused {
        action: action.name(),
        why,
    };
    let started = now >= s.start;
    let ended = now >= s.end;
    let now_ms = now.timestamp_millis();
    let mut next = *control;
    match action {
        Action::StartNow | Action::Delay { .. } if started => {
            return Err(refuse(format!("the contest started at {}", s.start)));
        }
        Action::StartNow => next.start_ms = Some(now_ms),
        Action::Delay { start_time } => {
            if *start_time <= now {
                return Err(refuse(format!(
                    "the new start {start_time} is not in the future (now {now})"
                )));
            }
            next.start_ms = Some(start_time.timestamp_millis());
        }
        Action::Freeze | Action::End if !started => {
            return Err(refuse("the contest has not started".into()));
        }
        Action::Freeze | Action::End if ended => {
            return Err(refuse(format!("the contest ended at {}", s.end)));
        }
        Action::Freeze => {
            if let Some(f) = s.freeze.filter(|f| now >= *f) {
                return Err(refuse(format!("the board froze at {f}")));
            }
            next.freeze_ms = Some(now_ms);
        }
        Action::End => next.end_ms = Some(now_ms),
        Action::Thaw => {
            if !s.frozen_at(now) {
                return Err(refuse("the board is not frozen".into()));
            }
            next.thaw_ms = Some(now_ms);
        }
        Action::Finalize => {
            if !ended {
                return Err(refuse(format!("the contest ends at {}", s.end)));
            }
            if pending {
                return Err(refuse("submissions are still being judged".into()));
            }
            if let Some(t) = s.finalized {
                return Err(refuse(format!("the results were finalized at {t}")));
            }
            next.finalized_ms = Some(now_ms);
        }
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(thaw: Thaw) -> Planned {
        Planned {
            start: at(1_000_000),
            duration: Duration::minutes(300),
            freeze_before_end: Duration::minutes(60),
            thaw,
        }
    }

    fn minute(m: i64) -> DateTime<Utc> {
        at(1_000_000) + Duration::minutes(m)
    }

    #[test]
    fn without_the_jury_the_file_s_schedule_holds() {
        let s = Schedule::of(&plan(Thaw::End), &Control::default());
        assert_eq!(s.end, minute(300));
        assert_eq!(s.freeze, Some(minute(240)));
        assert_eq!(s.thaw, Some(minute(300)));
        assert!(!s.frozen_at(minute(239)));
        assert!(s.frozen_at(minute(240)));
        assert!(!s.frozen_at(minute(300)));
        assert_eq!(s.finalized_at(minute(299), false), None);
        assert_eq!(s.finalized_at(minute(301), true), None);
        assert_eq!(s.finalized_at(minute(301), false), Some(minute(300)));
        // Held for the reveal: frozen after the end, not final until thawed.
        let s = Schedule::of(&plan(Thaw::Jury), &Control::default());
        assert!(s.frozen_at(minute(400)));
        assert_eq!(s.finalized_at(minute(400), false), None);
    }

    #[test]
    fn each_action_is_allowed_only_when_it_makes_sense() {
        let p = plan(Thaw::Jury);
        let none = Control::default();
        let go = |c: &Control, a: Action, m: i64| decide(&p, c, &a, minute(m), false);
        // Before the start: start now or delay; nothing else.
        let c = go(&none, Action::StartNow, -10).unwrap();
        let s = Schedule::of(&p, &c);
        assert_eq!((s.start, s.end), (minute(-10), minute(290)));
        assert_eq!(
            s.freeze,
            Some(minute(230)),
            "the freeze moves with the start"
        );
        let later = minute(30);
        let c = go(&none, Action::Delay { start_time: later }, -10).unwrap();
        assert_eq!(Schedule::of(&p, &c).start, later);
        assert!(
            go(
                &none,
                Action::Delay {
                    start_time: minute(-20)
                },
                -10
            )
            .is_err()
        );
        for a in [Action::Freeze, Action::End, Action::Thaw, Action::Finalize] {
            assert!(go(&none, a.clone(), -10).is_err(), "{a:?} before the start");
        }
        // Running: no new start; freeze, end; thaw only once frozen.
        assert!(go(&none, Action::StartNow, 10).is_err());
        assert!(go(&none, Action::Thaw, 10).is_err());
        let frozen = go(&none, Action::Freeze, 100).unwrap();
        assert!(Schedule::of(&p, &frozen).frozen_at(minute(100)));
        assert!(go(&frozen, Action::Freeze, 110).is_err(), "frozen already");
        assert!(
            go(&none, Action::Freeze, 250).is_err(),
            "the planned freeze passed"
        );
        let thawed = go(&frozen, Action::Thaw, 120).unwrap();
        assert!(!Schedule::of(&p, &thawed).frozen_at(minute(130)));
        // End early: the planned freeze (minute 240) never happens.
        let ended = go(&none, Action::End, 200).unwrap();
        let s = Schedule::of(&p, &ended);
        assert_eq!((s.end, s.freeze), (minute(200), None));
        assert_eq!(s.finalized_at(minute(201), false), Some(minute(200)));
        assert!(go(&ended, Action::End, 210).is_err());
        // After a frozen end held for the reveal: finalize (nothing pending), then thaw.
        assert!(decide(&p, &none, &Action::Finalize, minute(310), true).is_err());
        let fin = go(&none, Action::Finalize, 310).unwrap();
        let s = Schedule::of(&p, &fin);
        assert_eq!(s.finalized_at(minute(311), false), Some(minute(310)));
        assert!(
            s.frozen_at(minute(311)),
            "finalized, still frozen for the reveal"
        );
        assert!(go(&fin, Action::Finalize, 320).is_err());
        let open = go(&fin, Action::Thaw, 330).unwrap();
        assert!(!Schedule::of(&p, &open).frozen_at(minute(331)));
        assert!(go(&open, Action::Thaw, 340).is_err());
    }

    #[test]
    fn actions_read_as_the_api_writes_them() {
        let a: Action = serde_json::from_str(r#"{"action":"freeze"}"#).unwrap();
        assert_eq!(a, Action::Freeze);
        let a: Action =
            serde_json::from_str(r#"{"action":"delay","start_time":"2026-01-01T10:00:00Z"}"#)
                .unwrap();
        assert!(matches!(a, Action::Delay { .. }));
        assert!(serde_json::from_str::<Action>(r#"{"action":"pause"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"action":"end","x":1}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"action":"delay"}"#).is_err());
        let both = r#"{"action":"end","start_time":"2026-01-01T10:00:00Z"}"#;
        assert!(serde_json::from_str::<Action>(both).is_err());
    }
}
