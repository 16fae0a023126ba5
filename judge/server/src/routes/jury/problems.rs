//! The jury's problems page (`/contests/{cid}/jury/problems`): the contest's problems,
//! a form to upload a problem package as a zip (its limits stated: [`LIMITS`]) and the
//! packages kept so far; each package's page (`/contests/{cid}/jury/packages/{sha256}`)
//! shows what the judge's loader found in it, as `judge verify` loads it: the problem,
//! its limits and tests when it loads, and every error and warning, and a form that adds
//! it to the contest (`actions::add_problem`); before the start each problem has a
//! button that removes it (`actions::remove_problem`). A package's own submissions can
//! be judged on this host (`uploads::verify`), each shown with the verdict its folder
//! allows and the one it got.
//!
//! An upload is read whole (its own body limit, above the server's `--max-body`),
//! checked and unpacked (`uploads::upload`: a refused zip is kept nowhere), kept in the
//! database by its SHA-256 and then shown on its page.

use axum::Router;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Form, Multipart, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use serde::Deserialize;

use super::{Shared, for_the_jury, jury_upload};
use crate::actions;
use crate::clics;
use crate::error::ApiError;
use crate::routes::web::{CsrfForm, error_page, esc, forms_for, page, posted};
use crate::unzip::{LIMITS, size};
use crate::uploads;

/// The routes of the problems pages.
pub(super) fn router() -> Router<Shared> {
    // The zip and the form around it.
    let upload_body = LIMITS.compressed as usize + (1 << 20);
    Router::new()
        .route("/contests/{cid}/jury/problems", get(problems_page))
        .route(
            "/contests/{cid}/jury/problems/upload",
            post(upload).layer(DefaultBodyLimit::max(upload_body)),
        )
        .route("/contests/{cid}/jury/packages/{sha256}", get(package_page))
        .route("/contests/{cid}/jury/problems/add", post(add_problem))
        .route(
            "/contests/{cid}/jury/packages/{sha256}/verify",
            post(verify_package),
        )
        .route(
            "/contests/{cid}/jury/problems/{pid}/remove",
            post(remove_problem),
        )
}

/// Where a problem change leads when it is done: the problems page.
fn back(cid: &str, done: Result<(), ApiError>) -> Response {
    match done {
        Ok(()) => Redirect::to(&format!("/contests/{cid}/jury/problems")).into_response(),
        Err(e) => error_page(e),
    }
}

/// The package page's form: add package `sha256` as problem `id` with `label` (empty:
/// the package's short name, the next free letter).
#[derive(Deserialize)]
struct AddForm {
    #[serde(default)]
    csrf: String,
    sha256: String,
    #[serde(default)]
    id: String,
    #[serde(default)]
    label: String,
}

async fn add_problem(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    Form(form): Form<AddForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let done = actions::add_problem(
        &state,
        &contest,
        &viewer,
        "jury (web)",
        &form.sha256,
        &form.id,
        &form.label,
    )
    .await;
    back(&cid, done)
}

/// Starts judging a package's own submissions on this host, then back to its page.
async fn verify_package(
    State(state): State<Shared>,
    Path((cid, sha256)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    let (_, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    if viewer != crate::viewer::Viewer::Admin {
        return error_page(ApiError::forbidden(
            "only the jury runs a package's submissions",
        ));
    }
    let root = match uploads::unpacked(&state.store, &sha256).await {
        Ok(root) => root,
        Err(e) => return error_page(e),
    };
    uploads::verify(
        &state.verifications,
        &state.sandbox,
        &state.options,
        &sha256,
        root,
    );
    Redirect::to(&format!("/contests/{cid}/jury/packages/{sha256}")).into_response()
}

/// The package's own submissions as this host judged them (or the button that starts
/// it): each with the verdicts its folder allows and the one it got.
fn verification_html(cid: &str, sha256: &str, state: Option<uploads::Verifying>) -> String {
    let c = esc(cid);
    let s = esc(sha256);
    let button = |label: &str| {
        format!(
            "<form id=verify method=post action='/contests/{c}/jury/packages/{s}/verify'>\
             <button id=verify-send>{label}</button></form>"
        )
    };
    let part = match state {
        None => button("Judge its submissions"),
        Some(uploads::Verifying::Running(since)) => format!(
            "<p id=verifying>Judging its submissions on this host since {}; reload to see them.</p>",
            esc(&clics::time_of_ms(since).to_string())
        ),
        Some(uploads::Verifying::Failed(why)) => format!(
            "<p id=verification class=WA>The judge could not run them: {}</p>{}",
            esc(&why),
            button("Judge them again")
        ),
        Some(uploads::Verifying::Done(v)) => {
            let good = v.rows.iter().filter(|r| r.ok()).count();
            let lines: String = v
                .rows
                .iter()
                .map(|r| {
                    let expected: Vec<&str> = r.expected.iter().map(|v| v.clics_id()).collect();
                    let (class, word) = if r.ok() { ("AC", "as its folder says") } else { ("WA", "NOT as its folder says") };
                    format!(
                        "<tr class=reference><td>{}</td><td>{}</td><td>{}</td><td class='verdict {got}'>{got}</td><td class={class}>{word}</td><td>{}</td></tr>",
                        esc(&r.submission.display().to_string()),
                        esc(&r.language),
                        esc(&expected.join(" or ")),
                        esc(r.error.as_deref().unwrap_or_default()),
                        got = esc(r.got.clics_id()),
                    )
                })
                .collect();
            format!(
                "<p id=verification>{good} of {} submission(s) got their folder's verdict; {}.</p>\
                 <table id=references><tr><th>submission</th><th>language</th><th>its folder allows</th><th>got</th><th></th><th></th></tr>{lines}</table>{}",
                v.rows.len(),
                esc(&v.time_limit.to_string()),
                button("Judge them again")
            )
        }
    };
    format!("<h2>Its own submissions</h2>{part}")
}

async fn remove_problem(
    State(state): State<Shared>,
    Path((cid, pid)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    let (contest, viewer) = match posted(&state, &cid, &headers, &form.csrf).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    back(
        &cid,
        actions::remove_problem(&state, &contest, &viewer, "jury (web)", &pid).await,
    )
}

async fn problems_page(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let kept = match state.store.packages().await {
        Ok(kept) => kept,
        Err(e) => return error_page(e.into()),
    };
    let c = esc(&cid);
    let before_start = chrono::Utc::now() < contest.start_time();
    let problems: String = contest
        .problems
        .iter()
        .map(|p| {
            let remove = if before_start {
                format!(
                    "<form id=remove-{i} method=post action='/contests/{c}/jury/problems/{i}/remove'>\
                     <button>Remove</button></form>",
                    i = esc(&p.id)
                )
            } else {
                String::new()
            };
            let from = contest
                .jury_problems
                .iter()
                .find(|(id, _)| *id == p.id)
                .and_then(|(_, row)| row.sha256.as_deref())
                .map_or_else(
                    || "the contest file".to_owned(),
                    |sha| format!("<a href='/contests/{c}/jury/packages/{0}'>upload {1}</a>", esc(sha), esc(&sha[..12])),
                );
            format!(
                "<tr class=problem id=problem-{}><td>{}</td><td>{}</td><td>{}</td><td>{} s</td><td>{}</td><td>{from}</td><td>{remove}</td></tr>",
                esc(&p.id),
                esc(&p.label),
                esc(&p.id),
                esc(&p.problem.name),
                p.problem.limits.time.as_secs_f64(),
                p.problem.test_cases().len(),
            )
        })
        .collect();
    let removal = if before_start {
        "<p>A problem can be removed until the contest starts.</p>"
    } else {
        "<p>The contest has started: problems can be added, not removed.</p>"
    };
    let packages: String = kept
        .iter()
        .map(|k| {
            format!(
                "<tr class=package><td><a href='/contests/{c}/jury/packages/{s}'>{}</a></td><td><code>{s}</code></td>\
                 <td>{}</td><td>{}</td></tr>",
                esc(&k.name),
                esc(&size_text(k.size)),
                esc(&clics::time_of_ms(k.time_ms).to_string()),
                s = esc(&k.sha256),
            )
        })
        .collect();
    let packages = if kept.is_empty() {
        "<p id=packages>No package uploaded yet.</p>".to_owned()
    } else {
        format!(
            "<table id=packages><tr><th>file</th><th>SHA-256</th><th>size</th><th>uploaded</th></tr>{packages}</table>"
        )
    };
    let body = format!(
        "<p><a href='/contests/{c}'>back to the contest</a></p><h1>{}: problems</h1>\
         <table id=problems><tr><th></th><th>id</th><th>name</th><th>time limit</th><th>tests</th><th>from</th><th></th></tr>{problems}</table>{removal}\
         <h2>Upload a problem package</h2>\
         <p>A Kattis or ICPC problem package as a zip (<code>problem.yaml</code> at its top, or in its one folder). \
         <span id=limits>Limits: {}.</span> Names that are absolute or climb out of the folder (<code>..</code>) and \
         symbolic links are refused. The zip is kept in the database by its SHA-256, so every host serving the \
         contest has it, and the judge's loader checks it as <code>judge verify</code> does.</p>\
         <form id=upload-package method=post action='/contests/{c}/jury/problems/upload' enctype='multipart/form-data'>\
         <input type=file name=file id=upload-package-file accept='.zip'> \
         <button id=upload-package-send>Upload and check</button></form>\
         <h2>Uploaded packages</h2>{packages}",
        esc(&contest.spec.name),
        esc(&LIMITS.to_string()),
    );
    page("problems", &forms_for(&body, session.as_ref())).into_response()
}

/// A size for people: bytes below a KiB, else KiB or MiB with one decimal.
fn size_text(bytes: i64) -> String {
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if bytes < 1 << 20 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{:.1} MiB", b / f64::from(1 << 20))
    }
}

/// Takes an uploaded zip: checked, unpacked, kept, then its page.
async fn upload(
    State(state): State<Shared>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> Response {
    let limit = LIMITS.compressed as usize;
    let (contest, file) = match jury_upload(&state, &cid, &headers, form, limit).await {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let name = if file.name.is_empty() {
        "package.zip".to_owned()
    } else {
        file.name
    };
    let kept = uploads::upload(
        &state.store,
        &contest.spec.id,
        "jury (web)",
        &name,
        &file.bytes,
    )
    .await;
    match kept {
        Ok((row, _root)) => {
            Redirect::to(&format!("/contests/{cid}/jury/packages/{}", row.sha256)).into_response()
        }
        Err(e) => error_page(e),
    }
}

/// One kept package: what the loader found.
async fn package_page(
    State(state): State<Shared>,
    Path((cid, sha256)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let (contest, session) = match for_the_jury(&state, &cid, &headers).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let found = async {
        let row = state
            .store
            .package(&sha256)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no uploaded package `{sha256}`")))?;
        let root = uploads::unpacked(&state.store, &sha256).await?;
        Ok::<_, ApiError>((row, root))
    }
    .await;
    let (row, root) = match found {
        Ok(found) => found,
        Err(e) => return error_page(e),
    };
    let loaded = uploads::load(root.clone()).await;
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == problems::Severity::Error)
        .count();
    let warnings = loaded.diagnostics.len() - errors;
    let verdict = match (&loaded.problem, &loaded.failure) {
        (Some(p), _) => {
            let limit = format!(
                "{} s ({})",
                p.limits.time.as_secs_f64(),
                p.limits.time_source
            );
            format!(
                "<p id=loads class=AC>The package loads: <b>{}</b> (<code>{}</code>), time limit {}, {} sample and {} secret test(s), \
                 {} reference submission(s); {warnings} warning(s).</p>",
                esc(&p.name),
                esc(&p.short_name),
                esc(&limit),
                p.sample.cases.len(),
                p.secret.cases.len(),
                p.submissions.len(),
            )
        }
        (None, Some(why)) => format!(
            "<p id=loads class=WA>The package cannot be read: {}</p>",
            esc(why)
        ),
        (None, None) => format!(
            "<p id=loads class=WA>The package does not load: {errors} error(s) and {warnings} warning(s).</p>"
        ),
    };
    let lines: String = loaded
        .diagnostics
        .iter()
        .map(|d| {
            let path = d.path.strip_prefix(&root).unwrap_or(&d.path);
            let level = match d.severity {
                problems::Severity::Error => "error",
                problems::Severity::Warning => "warning",
            };
            format!(
                "<tr class={level}><td>{level}</td><td>{}</td><td>{}</td></tr>",
                esc(&path.display().to_string()),
                esc(&d.message)
            )
        })
        .collect();
    let diagnostics = if loaded.diagnostics.is_empty() {
        "<p id=diagnostics>No error or warning.</p>".to_owned()
    } else {
        format!("<table id=diagnostics><tr><th></th><th>file</th><th>what</th></tr>{lines}</table>")
    };
    let c = esc(&cid);
    let add = match &loaded.problem {
        Some(p)
            if contest
                .problems
                .iter()
                .any(|q| q.problem.sha256 == p.sha256) =>
        {
            "<p id=added>This package is a problem of the contest.</p>".to_owned()
        }
        Some(p) => format!(
            "<h2>Add it to the contest</h2><form id=add-problem method=post action='/contests/{c}/jury/problems/add'>\
             <input type=hidden name=sha256 value='{}'>\
             id <input name=id id=add-problem-id size=16 value='{}'> label <input name=label id=add-problem-label size=4 placeholder='next letter'> \
             <button id=add-problem-send>Add the problem</button></form>",
            esc(&row.sha256),
            esc(&p.short_name),
        ),
        None => String::new(),
    };
    let body = format!(
        "<p><a href='/contests/{c}/jury/problems'>the problems</a> &middot; <a href='/contests/{c}'>back to the contest</a></p>\
         <h1>Package {}</h1><p>SHA-256 <code id=sha256>{}</code>, {} zipped.</p>{verdict}{add}\
         <h2>What the judge's loader found</h2>{diagnostics}{}",
        esc(&row.name),
        esc(&row.sha256),
        esc(&size(row.size.max(0) as u64)),
        if loaded.problem.is_some() {
            verification_html(&cid, &row.sha256, state.verifications.get(&row.sha256))
        } else {
            String::new()
        },
    );
    page(
        &format!("package {}", row.name),
        &forms_for(&body, session.as_ref()),
    )
    .into_response()
}
