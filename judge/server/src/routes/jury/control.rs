//! The jury's contest control page (`/contests/{cid}/jury/control`): the clock as it
//! stands, a button per action (start now, delay the start, freeze, thaw, end now,
//! finalize), each confirmed on a second page before it acts through
//! `actions::control` (the API's rules and audit line), and the audit log of every jury
//! action.

use axum::Router;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

use super::{Shared, for_the_jury};
use crate::actions;
use crate::clics;
use crate::contest::{Contest, time};
use crate::control::Action;
use crate::error::ApiError;
use crate::routes::web::{error_page, esc, forms_for, page, posted};
use crate::session;
use crate::state::AppState;
use crate::viewer::Viewer;

/// The routes of the control page.
pub(super) fn router() -> Router<Shared> {
    Router::new().route("/contests/{cid}/jury/control", get(control_page).post(act))
}

/// The page: the control and the audit log.
async fn control_page(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a></p><h1>{}: contest control</h1>{}",
        esc(&contest.spec.name),
        control_html(&state, &contest).await,
        c = esc(&cid),
    );
    page("contest control", &forms_for(&body, session.as_ref())).into_response()
}

/// The jury's contest control: the clock as it stands, a button per action (each asks
/// for a confirmation before it acts, see [`act`]), and the audit log.
async fn control_html(state: &AppState, contest: &Contest) -> String {
    let cid = esc(&contest.spec.id);
    let s = contest.schedule();
    let when = |t: Option<chrono::DateTime<chrono::Utc>>| {
        t.map_or_else(|| "no".to_owned(), |t| esc(&time(t).to_string()))
    };
    let button = |action: &str, label: &str| {
        format!(
            "<form id=control-{action} method=post action='/contests/{cid}/jury/control' style=display:inline>\
             <input type=hidden name=action value={action}>\
             <button id=control-{action}-send>{label}</button></form> "
        )
    };
    let delay = format!(
        "<form id=control-delay method=post action='/contests/{cid}/jury/control' style=display:inline>\
         <input type=hidden name=action value=delay>\
         <input name=start_time id=control-start-time size=24 placeholder='2026-01-01T10:00:00Z'> \
         <button id=control-delay-send>Delay the start</button></form>"
    );
    let audit = match state.store.audit(&contest.spec.id).await {
        Ok(rows) if rows.is_empty() => "<p id=audit>No jury action yet.</p>".to_owned(),
        Ok(rows) => {
            let lines: String = rows
                .iter()
                .map(|r| {
                    format!(
                        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        esc(&clics::time_of_ms(r.time_ms).to_string()),
                        esc(&r.actor),
                        esc(&r.action),
                        esc(&r.detail)
                    )
                })
                .collect();
            format!(
                "<table id=audit><tr><th>when</th><th>who</th><th>what</th><th>details</th></tr>{lines}</table>"
            )
        }
        Err(e) => format!(
            "<p id=audit>The audit log could not be read: {}</p>",
            esc(&e.to_string())
        ),
    };
    format!(
        "<h3>Contest control</h3><p id=clock>Starts {}, ends {}; the board freezes {} and thaws {}; finalized {}.</p>\
         <p>{}{delay}</p><p>{}{}{}{}</p>\
         <h3>Audit log</h3>{audit}",
        when(Some(s.start)),
        when(Some(s.end)),
        when(s.freeze),
        when(s.thaw),
        when(s.finalized),
        button("start_now", "Start now"),
        button("freeze", "Freeze the board"),
        button("thaw", "Thaw the board"),
        button("end", "End now"),
        button("finalize", "Finalize"),
    )
}

/// The jury's control form: `action` (and `start_time` for `delay`); without
/// `confirm=yes` it answers a page that asks for the confirmation and posts again.
#[derive(Deserialize)]
struct ControlForm {
    #[serde(default)]
    csrf: String,
    action: String,
    #[serde(default)]
    start_time: String,
    #[serde(default)]
    confirm: String,
}

async fn act(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ControlForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    if viewer != Viewer::Admin {
        return error_page(ApiError::forbidden("only the jury controls the contest"));
    }
    let mut fields = serde_json::Map::new();
    fields.insert("action".into(), form.action.clone().into());
    if !form.start_time.trim().is_empty() {
        fields.insert("start_time".into(), form.start_time.trim().into());
    }
    let action: Action = match serde_json::from_value(serde_json::Value::Object(fields)) {
        Ok(action) => action,
        Err(e) => return error_page(ApiError::bad_request(format!("contest control: {e}"))),
    };
    if form.confirm != "yes" {
        let cid = esc(&cid);
        let what = match &action {
            Action::Delay { start_time } => format!("move the start to {}", time(*start_time)),
            other => other.name().replace('_', " "),
        };
        let body = format!(
            "<h1>Confirm</h1><p id=confirm-what>{} of {}: {}?</p>\
             <form method=post action='/contests/{cid}/jury/control'>\
             <input type=hidden name=action value='{}'><input type=hidden name=start_time value='{}'>\
             <input type=hidden name=confirm value=yes><button id=confirm>Yes, {}</button></form>\
             <p><a id=cancel href='/contests/{cid}/jury/control'>No, back to the contest control</a></p>",
            esc(&contest.spec.name),
            cid,
            esc(&what),
            esc(&form.action),
            esc(form.start_time.trim()),
            esc(&what),
        );
        // The confirmation posts with the session's token, which this form carried.
        let body = session::with_csrf(&body, &form.csrf);
        return page("confirm", &body).into_response();
    }
    match actions::control(&state, &contest, &viewer, "jury (web)", action).await {
        Ok(_) => Redirect::to(&format!("/contests/{cid}/jury/control")).into_response(),
        Err(e) => error_page(e),
    }
}
