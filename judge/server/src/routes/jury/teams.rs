//! The jury's teams page (`/contests/{cid}/jury/teams`): every team with its token and a
//! disable (or enable) button, a form to add one, a box to paste several and a file to
//! upload (CSV, TSV or CLICS `teams.json`, at most [`TEAMS_FILE_BYTES`]; a bad file is
//! refused whole, every problem named with the file's name), and the tokens as a sheet
//! to print (`.../jury/tokens`). Each change goes through `actions` (the API's rules and
//! audit line).

use axum::Router;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Form, Multipart, Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::{Shared, for_the_jury, jury_upload};
use crate::actions;
use crate::contest::Contest;
use crate::error::ApiError;
use crate::jury::{self, NewTeam};
use crate::routes::web::{CsrfForm, error_page, esc, forms_for, page, posted};
use crate::viewer::Viewer;

/// The largest teams file the upload takes.
pub(crate) const TEAMS_FILE_BYTES: usize = 256 << 10;

/// The routes of the teams page.
pub(super) fn router() -> Router<Shared> {
    Router::new()
        .route(
            "/contests/{cid}/jury/teams",
            get(teams_page).post(add_teams),
        )
        .route("/contests/{cid}/jury/teams/upload", post(upload_teams))
        .route(
            "/contests/{cid}/jury/teams/{id}/disable",
            post(disable_team),
        )
        .route("/contests/{cid}/jury/teams/{id}/enable", post(enable_team))
        .route("/contests/{cid}/jury/tokens", get(token_sheet))
}

/// Where a team change leads when it is done: back to the teams page.
fn back(cid: &str, done: Result<impl Sized, ApiError>) -> Response {
    match done {
        Ok(_) => Redirect::to(&format!("/contests/{cid}/jury/teams")).into_response(),
        Err(e) => error_page(e),
    }
}

/// The teams' table and the forms.
fn teams_html(contest: &Contest) -> String {
    let cid = esc(&contest.spec.id);
    let rows: String = contest
        .teams()
        .iter()
        .map(|t| {
            let (verb, label) = if t.disabled {
                ("enable", "Enable")
            } else {
                ("disable", "Disable")
            };
            let id = esc(&t.id);
            format!(
                "<tr class=team-row><td>{id}</td><td>{}</td><td><code>{}</code></td><td>{}</td>\
                 <td><form id=team-{verb}-{id} method=post action='/contests/{cid}/jury/teams/{id}/{verb}'>\
                 <button>{label}</button></form></td></tr>",
                esc(&t.name),
                esc(&t.token),
                if t.disabled { "disabled" } else { "" },
            )
        })
        .collect();
    format!(
        "<table id=teams><tr><th>id</th><th>name</th><th>token</th><th></th><th></th></tr>{rows}</table>\
         <p><a id=token-sheet href='/contests/{cid}/jury/tokens'>the tokens as a sheet to print, one team per slip</a></p>\
         <h2>Add a team</h2><form id=add-team method=post action='/contests/{cid}/jury/teams'>\
         id <input name=id id=add-team-id size=10> name <input name=name id=add-team-name size=24> \
         token <input name=token id=add-team-token size=24 placeholder='generated when empty'> \
         <button id=add-team-send>Add the team</button></form>\
         <h2>Import several</h2><p>One team a line as <code>id,name[,token]</code> (CSV, or TSV with tabs; \
         a first line <code>id,name,token</code> is a header), or CLICS <code>teams.json</code>; \
         tokens not given are generated. All are added or none.</p>\
         <form id=import-teams method=post action='/contests/{cid}/jury/teams'>\
         <textarea name=import id=import-text rows=4 cols=80 placeholder='id,name[,token] a line (CSV or TSV), or CLICS teams.json'></textarea><br>\
         <button id=import-send>Import the pasted teams</button></form>\
         <form id=upload-teams method=post action='/contests/{cid}/jury/teams/upload' enctype='multipart/form-data'>\
         <input type=file name=file id=upload-teams-file accept='.csv,.tsv,.txt,.json'> \
         <button id=upload-teams-send>Import the file</button> (at most {} KiB)</form>",
        TEAMS_FILE_BYTES / 1024,
    )
}

async fn teams_page(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a></p><h1>{}: teams</h1>{}",
        esc(&contest.spec.name),
        teams_html(&contest),
        c = esc(&cid),
    );
    page("teams", &forms_for(&body, session.as_ref())).into_response()
}

/// The add-team form (`id`, `name`, `token`) or the paste box (`import`).
#[derive(Deserialize)]
struct TeamsForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    id: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    import: String,
}

async fn add_teams(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<TeamsForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    if viewer != Viewer::Admin {
        return error_page(ApiError::forbidden("only the jury adds teams"));
    }
    let new = if form.import.trim().is_empty() {
        let token = form.token.trim();
        vec![NewTeam {
            id: form.id.trim().to_owned(),
            name: form.name,
            token: (!token.is_empty()).then(|| token.to_owned()),
        }]
    } else {
        match jury::parse_import(&form.import) {
            Ok(teams) => teams,
            Err(errors) => return error_page(ApiError::bad_request(errors.join("\n"))),
        }
    };
    back(
        &cid,
        actions::add_teams(&state, &contest, &viewer, "jury (web)", &new).await,
    )
}

/// Imports the teams of an uploaded file (CSV, TSV or `teams.json`).
async fn upload_teams(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> Response {
    let (contest, file) = match jury_upload(&state, &cid, &headers, form, TEAMS_FILE_BYTES).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let name = if file.name.is_empty() {
        "the file".to_owned()
    } else {
        format!("`{}`", file.name)
    };
    let Ok(text) = String::from_utf8(file.bytes) else {
        return error_page(ApiError::bad_request(format!(
            "{name}: not UTF-8 text (a CSV, TSV or teams.json file)"
        )));
    };
    let new = match jury::parse_import(&text) {
        Ok(teams) if teams.is_empty() => {
            return error_page(ApiError::bad_request(format!("{name}: no team in it")));
        }
        Ok(teams) => teams,
        Err(errors) => {
            let errors: Vec<String> = errors.iter().map(|e| format!("{name}: {e}")).collect();
            return error_page(ApiError::bad_request(errors.join("\n")));
        }
    };
    let done = actions::add_teams(&state, &contest, &Viewer::Admin, "jury (web)", &new).await;
    back(
        &cid,
        done.map_err(|mut e| {
            e.message = format!("{name}: {}", e.message);
            e
        }),
    )
}

async fn disable_team(
    state: State<Shared>,
    path: Path<(String, String)>,
    headers: HeaderMap,
    form: Form<CsrfForm>,
) -> Response {
    set_disabled(state, path, headers, form, true).await
}

async fn enable_team(
    state: State<Shared>,
    path: Path<(String, String)>,
    headers: HeaderMap,
    form: Form<CsrfForm>,
) -> Response {
    set_disabled(state, path, headers, form, false).await
}

async fn set_disabled(
    State(state): State<Shared>,
    Path((cid, id)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
    disabled: bool,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    back(
        &cid,
        actions::set_team_disabled(&state, &contest, &viewer, "jury (web)", &id, disabled).await,
    )
}

/// The tokens as a sheet to print and cut: one slip per enabled team with the contest's
/// address, the team's name and its token (the jury only).
async fn token_sheet(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, _session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("this server");
    let slips: String = contest
        .teams()
        .iter()
        .filter(|t| !t.disabled)
        .map(|t| {
            format!(
                "<div class=slip><p><b>{}</b> ({})</p><p>http://{}/contests/{}</p><p>token: <code class=token>{}</code></p></div>",
                esc(&t.name),
                esc(&t.id),
                esc(host),
                esc(&contest.spec.id),
                esc(&t.token)
            )
        })
        .collect();
    let body = format!(
        "<style>.slip{{border:1px dashed #444;padding:0.5em 1em;margin:0 0 1em;page-break-inside:avoid}}</style>\
         <h1>{}: team tokens</h1>{slips}",
        esc(&contest.spec.name)
    );
    page("tokens", &body).into_response()
}
