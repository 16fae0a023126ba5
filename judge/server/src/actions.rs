//! The jury's actions on a running contest, for the API and the web page alike: the
//! clock ([`control`]: start now, delay, freeze, thaw, end early, finalize, by the rules
//! of [`crate::control::decide`]), the teams ([`add_teams`], [`set_team_disabled`],
//! by those of [`crate::jury`]) and the clarifications' inbox ([`mark_handled`]).
//!
//! Each is decided against the jury's rows as the database holds them, inside the
//! transaction that writes them with the action's audit line and its CLICS events
//! (`Store::jury_change`), and then becomes this process's state of the contest at once;
//! other hosts read it when the events reach them (`Contest::reload_jury`).

use chrono::Utc;
use http::StatusCode;

use crate::clics;
use crate::contest::{Contest, TeamSpec, time};
use crate::control::{Action, Schedule, decide};
use crate::error::ApiError;
use crate::jury::{self, CONTROL, HANDLED, Jury, NewTeam, TEAM, TeamRow};
use crate::state::AppState;
use crate::store::{JuryRow, JuryWrite, NewEvent};
use crate::viewer::Viewer;

fn only_the_jury(who: &Viewer) -> Result<(), ApiError> {
    if *who == Viewer::Admin {
        Ok(())
    } else {
        Err(ApiError::forbidden("only the jury may do this"))
    }
}

/// Runs one jury change: `decide` gets the contest's state as stored and returns the
/// write; the contest then takes the state written.
async fn change(
    state: &AppState,
    contest: &Contest,
    decide: impl FnOnce(&Jury, &[JuryRow]) -> Result<JuryWrite, ApiError>,
) -> Result<(), ApiError> {
    let written = state
        .store
        .jury_change(&contest.spec.id, |rows| {
            let current = contest.jury_of(&rows)?;
            decide(&current, &rows)
        })
        .await??;
    // `written` is in the database now; another host's change may have followed it.
    drop(written);
    contest.reload_jury(&state.store).await?;
    Ok(())
}

/// A jury action on `contest`'s clock by `actor` (`POST /api/contests/{cid}/control` and
/// the jury's page). Writes the `state` event (and, when the start or the end moved, the
/// `contest` event; at a start the problems with their files). Answers the new state; an
/// action not allowed now is a 409 saying why.
pub async fn control(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    actor: &str,
    action: Action,
) -> Result<leaderboard::clics::State, ApiError> {
    only_the_jury(who)?;
    let _one = state.clock.lock().await;
    let cid = contest.spec.id.clone();
    let pending = state.store.any_pending(&cid).await?;
    let now = Utc::now();
    let planned = contest.planned();
    change(state, contest, |current, _| {
        let next = decide(&planned, &current.control, &action, now, pending)
            .map_err(|refused| ApiError::new(StatusCode::CONFLICT, refused.to_string()))?;
        let before = clics::state_on(&Schedule::of(&planned, &current.control), now, pending);
        let schedule = Schedule::of(&planned, &next);
        let after = clics::state_on(&schedule, now, pending);
        let mut events = Vec::new();
        if action.moves_the_contest() {
            events.push(NewEvent {
                kind: "contest".into(),
                obj_id: Some(cid.clone()),
                team_id: None,
                data: Some(clics::to_value(&clics::contest_on(contest, &schedule))),
            });
        }
        let starts_now = before.started.is_none() && after.started.is_some();
        events.extend(crate::state_events(contest, starts_now, &after));
        let detail = match &action {
            Action::Delay { start_time } => format!("start at {}", time(*start_time)),
            _ => String::new(),
        };
        Ok(JuryWrite {
            rows: vec![JuryRow {
                kind: CONTROL.into(),
                item: String::new(),
                data: serde_json::to_string(&next).unwrap_or_default(),
            }],
            actor: actor.to_owned(),
            action: action.name().to_owned(),
            detail,
            time_ms: now.timestamp_millis(),
            events,
        })
    })
    .await?;
    Ok(clics::state(contest, now, pending))
}

/// Adds `new` teams (one, or an import) by `actor`, all or none: every problem found is
/// in the 400's message, one a line. Writes a `teams` event each. Answers the teams added
/// with their tokens (generated where not given).
pub async fn add_teams(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    actor: &str,
    new: &[NewTeam],
) -> Result<Vec<TeamSpec>, ApiError> {
    only_the_jury(who)?;
    let mut added = Vec::new();
    change(state, contest, |current, _| {
        let rows = jury::add_teams(&current.teams, new, &state.admin_token)
            .map_err(|errors| ApiError::bad_request(errors.join("\n")))?;
        added = rows
            .iter()
            .map(|(id, row)| TeamSpec {
                id: id.clone(),
                name: row.name.clone().unwrap_or_default(),
                token: row.token.clone().unwrap_or_default(),
                disabled: false,
            })
            .collect();
        let events = added.iter().map(team_event).collect();
        let ids: Vec<&str> = added.iter().map(|t| t.id.as_str()).collect();
        Ok(JuryWrite {
            rows: rows
                .iter()
                .map(|(id, row)| JuryRow {
                    kind: TEAM.into(),
                    item: id.clone(),
                    data: serde_json::to_string(row).unwrap_or_default(),
                })
                .collect(),
            actor: actor.to_owned(),
            action: if new.len() == 1 {
                "add_team"
            } else {
                "import_teams"
            }
            .to_owned(),
            detail: ids.join(", "),
            time_ms: Utc::now().timestamp_millis(),
            events,
        })
    })
    .await?;
    Ok(added)
}

fn team_event(team: &TeamSpec) -> NewEvent {
    NewEvent {
        kind: "teams".into(),
        obj_id: Some(team.id.clone()),
        team_id: None,
        data: Some(clics::to_value(&clics::team(team))),
    }
}

/// Turns team `id` off (`disabled`) or on again, by `actor`: a disabled team cannot log
/// in, submit or ask, and is hidden (its `teams` event says `hidden`). 400 for a team
/// that does not exist or is so already.
pub async fn set_team_disabled(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    actor: &str,
    id: &str,
    disabled: bool,
) -> Result<(), ApiError> {
    only_the_jury(who)?;
    change(state, contest, |current, rows| {
        let stored = rows
            .iter()
            .find(|r| r.kind == TEAM && r.item == id)
            .and_then(|r| serde_json::from_str::<TeamRow>(&r.data).ok());
        let row = jury::set_disabled(&current.teams, id, stored, disabled)
            .map_err(ApiError::bad_request)?;
        let mut team = current
            .teams
            .iter()
            .find(|t| t.id == id)
            .cloned()
            .unwrap_or_else(|| TeamSpec {
                id: id.to_owned(),
                name: String::new(),
                token: String::new(),
                disabled,
            });
        team.disabled = disabled;
        Ok(JuryWrite {
            rows: vec![JuryRow {
                kind: TEAM.into(),
                item: id.to_owned(),
                data: serde_json::to_string(&row).unwrap_or_default(),
            }],
            actor: actor.to_owned(),
            action: if disabled {
                "disable_team"
            } else {
                "enable_team"
            }
            .to_owned(),
            detail: id.to_owned(),
            time_ms: Utc::now().timestamp_millis(),
            events: vec![team_event(&team)],
        })
    })
    .await
}

/// Marks team question `id` handled without an answer, by `actor` (it leaves the jury's
/// unanswered list; nothing is sent to anyone). 400 for an unknown question or one
/// handled already.
pub async fn mark_handled(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    actor: &str,
    id: &str,
) -> Result<(), ApiError> {
    only_the_jury(who)?;
    let questions = state.store.clarifications(&contest.spec.id, who).await?;
    if !questions
        .iter()
        .any(|c| c.id == id && c.from_team_id.is_some())
    {
        return Err(ApiError::bad_request(format!("no team question `{id}`")));
    }
    change(state, contest, |current, _| {
        if current.handled.contains(id) {
            return Err(ApiError::bad_request(format!(
                "question `{id}` is handled already"
            )));
        }
        Ok(JuryWrite {
            rows: vec![JuryRow {
                kind: HANDLED.into(),
                item: id.to_owned(),
                data: "{}".into(),
            }],
            actor: actor.to_owned(),
            action: "mark_handled".to_owned(),
            detail: id.to_owned(),
            time_ms: Utc::now().timestamp_millis(),
            events: Vec::new(),
        })
    })
    .await
}
