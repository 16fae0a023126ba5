//! The jury's actions on a running contest, for the API and the web page alike: the
//! clock ([`control`]: start now, delay, freeze, thaw, end early, finalize, by the rules
//! of [`crate::control::decide`]), the teams ([`add_teams`], [`set_team_disabled`],
//! by those of [`crate::jury`]), the clarifications' inbox ([`mark_handled`]) and the
//! problems ([`add_problem`] from an uploaded package, [`remove_problem`] before the
//! start).
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
use std::sync::Arc;

use crate::jury::{self, CONTROL, HANDLED, Jury, NewTeam, PROBLEM, ProblemRow, TEAM, TeamRow};
use crate::state::AppState;
use crate::store::{JuryRow, JuryWrite, NewEvent};
use crate::uploads;
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

/// The next free scoreboard label after those in `used`: `A`..`Z`, then `P27`, `P28`...
fn next_label(used: &[&str]) -> String {
    (b'A'..=b'Z')
        .map(|c| char::from(c).to_string())
        .chain((27..).map(|n| format!("P{n}")))
        .find(|l| !used.contains(&l.as_str()))
        .unwrap_or_default()
}

/// The `problems` events of `contest`'s problems (with their statement and sample files
/// once it started), after a deletion event for `removed` when given.
fn problem_events(contest: &Contest, removed: Option<&str>) -> Vec<NewEvent> {
    let started = Utc::now() >= contest.start_time();
    let mut events: Vec<NewEvent> = removed
        .into_iter()
        .map(|id| NewEvent {
            kind: "problems".into(),
            obj_id: Some(id.to_owned()),
            team_id: None,
            data: None,
        })
        .collect();
    events.extend(
        clics::problems(contest, started)
            .into_iter()
            .map(|problem| NewEvent {
                kind: "problems".into(),
                obj_id: Some(problem.id.clone()),
                team_id: None,
                data: Some(clics::to_value(&problem)),
            }),
    );
    events
}

/// Adds the problem of uploaded package `sha256` to `contest` as `id` (default: the
/// package's short name) with scoreboard label `label` (default: the next free letter),
/// by `actor`. The package must load for judging; the contest is loaded again with it
/// (its time limit derived when it gives none) before anything is written, then the
/// row, the audit line and the `problems` events commit together and this host serves
/// it at once (other hosts within a state tick). 400 naming what is wrong.
pub async fn add_problem(
    state: &AppState,
    contest: &Arc<Contest>,
    who: &Viewer,
    actor: &str,
    sha256: &str,
    id: &str,
    label: &str,
) -> Result<(), ApiError> {
    only_the_jury(who)?;
    let root = uploads::unpacked(&state.store, sha256).await?;
    let judged = root.clone();
    let loaded = tokio::task::spawn_blocking(move || problems::load_for_judging(&judged))
        .await
        .map_err(|e| ApiError::bad_request(format!("package {sha256}: {e}")))?;
    let problem = match loaded {
        Ok((problem, _)) => problem,
        Err(e) => {
            return Err(ApiError::bad_request(format!(
                "package {sha256} cannot be judged: {}",
                crate::error::chain(&e)
            )));
        }
    };
    let id = if id.trim().is_empty() {
        problem.short_name.clone()
    } else {
        id.trim().to_owned()
    };
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::bad_request(format!(
            "problem id `{id}`: use letters, digits, `-` and `_`"
        )));
    }
    if contest.problem(&id).is_some() {
        return Err(ApiError::bad_request(format!(
            "problem id `{id}` is taken in this contest"
        )));
    }
    let used: Vec<&str> = contest.problems.iter().map(|p| p.label.as_str()).collect();
    let label = if label.trim().is_empty() {
        next_label(&used)
    } else if used.contains(&label.trim()) {
        return Err(ApiError::bad_request(format!(
            "label `{}` is taken in this contest",
            label.trim()
        )));
    } else {
        label.trim().to_owned()
    };
    let row = ProblemRow {
        sha256: Some(sha256.to_owned()),
        label: Some(label.clone()),
        added_ms: Utc::now().timestamp_millis(),
        removed: false,
    };
    let mut rows = contest.jury.get().problems.clone();
    rows.retain(|(item, _)| *item != id);
    rows.push((id.clone(), row.clone()));
    let next = state.contest_with_problems(contest, &rows).await?;
    let name = state
        .store
        .package(sha256)
        .await?
        .map_or_else(String::new, |p| p.name);
    change(state, contest, |current, _| {
        // Another host's jury may have added one meanwhile.
        if current
            .problems
            .iter()
            .any(|(item, row)| *item == id && !row.removed)
        {
            return Err(ApiError::bad_request(format!(
                "problem id `{id}` is taken in this contest"
            )));
        }
        if current
            .problems
            .iter()
            .any(|(_, row)| !row.removed && row.label.as_deref() == Some(label.as_str()))
        {
            return Err(ApiError::bad_request(format!(
                "label `{label}` is taken in this contest"
            )));
        }
        Ok(JuryWrite {
            rows: vec![JuryRow {
                kind: PROBLEM.into(),
                item: id.clone(),
                data: serde_json::to_string(&row).unwrap_or_default(),
            }],
            actor: actor.to_owned(),
            action: "add_problem".to_owned(),
            detail: format!("{id} ({label}): {name}, sha256 {sha256}"),
            time_ms: row.added_ms,
            events: problem_events(&next, None),
        })
    })
    .await?;
    serve_next(state, contest, next).await
}

/// Removes problem `id` from `contest` by `actor`, only before the start (409 after):
/// a file's problem or one the jury added. Writes a deletion `problems` event and the
/// remaining problems again (their order moved).
pub async fn remove_problem(
    state: &AppState,
    contest: &Arc<Contest>,
    who: &Viewer,
    actor: &str,
    id: &str,
) -> Result<(), ApiError> {
    only_the_jury(who)?;
    if Utc::now() >= contest.start_time() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the contest has started: a problem is removed only before the start",
        ));
    }
    if contest.problem(id).is_none() {
        return Err(ApiError::bad_request(format!("no problem `{id}`")));
    }
    let mut rows = contest.jury.get().problems.clone();
    let row = match rows.iter_mut().find(|(item, _)| item == id) {
        Some((_, row)) => {
            row.removed = true;
            row.clone()
        }
        None => {
            let row = ProblemRow {
                removed: true,
                added_ms: Utc::now().timestamp_millis(),
                ..ProblemRow::default()
            };
            rows.push((id.to_owned(), row.clone()));
            row
        }
    };
    let next = state.contest_with_problems(contest, &rows).await?;
    change(state, contest, |current, _| {
        if current
            .problems
            .iter()
            .any(|(item, row)| item == id && row.removed)
        {
            return Err(ApiError::bad_request(format!(
                "problem `{id}` is removed already"
            )));
        }
        Ok(JuryWrite {
            rows: vec![JuryRow {
                kind: PROBLEM.into(),
                item: id.to_owned(),
                data: serde_json::to_string(&row).unwrap_or_default(),
            }],
            actor: actor.to_owned(),
            action: "remove_problem".to_owned(),
            detail: id.to_owned(),
            time_ms: Utc::now().timestamp_millis(),
            events: problem_events(&next, Some(id)),
        })
    })
    .await?;
    serve_next(state, contest, next).await
}

/// Serves `next` (loaded with the rows just written) in place of `contest`, or the
/// contest loaded again if the rows changed meanwhile (another host's jury).
async fn serve_next(
    state: &AppState,
    contest: &Contest,
    next: Arc<Contest>,
) -> Result<(), ApiError> {
    let rows = contest.jury.get().problems.clone();
    let served = state.contest_with_problems(&next, &rows).await?;
    state.serve_again(served).await?;
    Ok(())
}
