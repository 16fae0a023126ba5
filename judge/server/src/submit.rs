//! Accepting a submission, for the API and the web page alike: who may submit for whom,
//! the problem and language, the source (text, or CLICS's base64 zip of one file) and its
//! size, the contest's window and the rate limit; then the submission is stored with its
//! `submissions` event before the caller is answered.

use std::io::Read;

use base64::Engine;
use chrono::{DateTime, Utc};
use http::StatusCode;
use serde::Deserialize;

use crate::clics;
use crate::contest::Contest;
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{NewEvent, NewSubmission, SubmissionRow};
use crate::viewer::Viewer;

/// The largest source file taken out of a zip archive.
const MAX_ZIPPED_SOURCE: u64 = 1 << 20;

/// The body of `POST submissions`: CLICS (`files` as a base64 zip) or, as an extension,
/// the source text in `source`. Admins may set `id`, `team_id` and `time`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostSubmission {
    problem_id: String,
    language_id: String,
    #[serde(default)]
    files: Option<Vec<PostFile>>,
    #[serde(default)]
    source: Option<String>,
    /// Accepted and ignored: entry points are derived from the source (Java's class).
    #[serde(default, rename = "entry_point")]
    _entry_point: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    team_id: Option<String>,
    #[serde(default)]
    time: Option<DateTime<Utc>>,
}

/// One entry of `files`: the base64 zip (its `mime` is not read).
#[derive(Debug, Deserialize)]
struct PostFile {
    data: String,
}

impl PostSubmission {
    /// Parses a JSON body.
    pub fn from_json(body: &[u8]) -> Result<PostSubmission, ApiError> {
        serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("submission body: {e}")))
    }

    /// A team's submission of source text (the web page's form).
    pub fn source(problem_id: String, language_id: String, source: String) -> PostSubmission {
        PostSubmission {
            problem_id,
            language_id,
            files: None,
            source: Some(source),
            _entry_point: None,
            id: None,
            team_id: None,
            time: None,
        }
    }
}

fn source_from_zip(data: &str) -> Result<String, ApiError> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| ApiError::bad_request(format!("files[0].data: not base64: {e}")))?;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| ApiError::bad_request(format!("files[0].data: not a zip archive: {e}")))?;
    let files: Vec<usize> = (0..archive.len())
        .filter(|&i| archive.by_index(i).is_ok_and(|f| f.is_file()))
        .collect();
    let [index] = files.as_slice() else {
        return Err(ApiError::bad_request(format!(
            "files[0].data: the archive holds {} files; one source file is judged",
            files.len()
        )));
    };
    let file = archive
        .by_index(*index)
        .map_err(|e| ApiError::bad_request(format!("files[0].data: {e}")))?;
    if file.size() > MAX_ZIPPED_SOURCE {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "files[0]: the source is over 1 MiB",
        ));
    }
    let mut text = String::new();
    file.take(MAX_ZIPPED_SOURCE)
        .read_to_string(&mut text)
        .map_err(|e| ApiError::bad_request(format!("files[0]: not UTF-8 text: {e}")))?;
    Ok(text)
}

/// The team a submission is made for: the caller's own, or the one an admin names.
fn team_of(who: &Viewer, asked: Option<&String>) -> Result<String, ApiError> {
    match (who, asked) {
        (Viewer::Public, _) => Err(ApiError::unauthorized(
            "submitting needs a team or admin token",
        )),
        (Viewer::Team(team), Some(other)) if other != team => Err(ApiError::forbidden(format!(
            "team `{team}` cannot submit as `{other}`"
        ))),
        (Viewer::Team(team), _) => Ok(team.clone()),
        (Viewer::Admin, Some(team)) => Ok(team.clone()),
        (Viewer::Admin, None) => Err(ApiError::bad_request(
            "team_id: required when an admin submits",
        )),
    }
}

/// The source text: `source`, or the one file of the one zip in `files`.
fn source_of(post: &PostSubmission) -> Result<String, ApiError> {
    match (&post.source, &post.files) {
        (Some(text), None) => Ok(text.clone()),
        (None, Some(files)) if files.len() == 1 => source_from_zip(&files[0].data),
        (None, Some(files)) => Err(ApiError::bad_request(format!(
            "files: expected one archive, got {}",
            files.len()
        ))),
        _ => Err(ApiError::bad_request(
            "give either files (a base64 zip) or source",
        )),
    }
}

/// Refuses a team's submission outside the contest or over the rate limit.
async fn check_window_and_rate(
    state: &AppState,
    contest: &Contest,
    team_id: &str,
    now: DateTime<Utc>,
) -> Result<(), ApiError> {
    if now < contest.start_time() {
        return Err(ApiError::forbidden("the contest has not started"));
    }
    if now >= contest.end_time() {
        return Err(ApiError::forbidden("the contest is over"));
    }
    let recent = state
        .store
        .submissions_since(&contest.spec.id, team_id, now.timestamp_millis() - 60_000)
        .await?;
    let per_minute = contest.spec.submissions_per_minute;
    if recent >= i64::from(per_minute) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("at most {per_minute} submissions a minute; try again shortly"),
        ));
    }
    Ok(())
}

/// Checks a submission and stores it with its event; returns the stored row.
pub async fn submit(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
    post: PostSubmission,
) -> Result<SubmissionRow, ApiError> {
    let team_id = team_of(who, post.team_id.as_ref())?;
    if !contest.teams().iter().any(|t| t.id == team_id) {
        return Err(ApiError::bad_request(format!(
            "team_id: no team `{team_id}`"
        )));
    }
    if !contest.has_active_team(&team_id) {
        return Err(ApiError::forbidden(format!("team `{team_id}` is disabled")));
    }
    if *who != Viewer::Admin && (post.id.is_some() || post.time.is_some()) {
        return Err(ApiError::forbidden("only an admin may set id or time"));
    }
    let problem = contest.problem(&post.problem_id).ok_or_else(|| {
        ApiError::bad_request(format!("problem_id: no problem `{}`", post.problem_id))
    })?;
    if !contest.allows_language(&post.language_id) {
        return Err(ApiError::bad_request(format!(
            "language_id: `{}` is not allowed in this contest",
            post.language_id
        )));
    }
    let source = source_of(&post)?;
    let limit = problem.problem.limits.code_bytes;
    if source.len() as u64 > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "source: {} bytes, over the problem's limit of {limit}",
                source.len()
            ),
        ));
    }
    let now = Utc::now();
    let time = post.time.unwrap_or(now);
    if *who != Viewer::Admin {
        check_window_and_rate(state, contest, &team_id, now).await?;
    }
    let new = NewSubmission {
        id: post.id,
        contest_id: contest.spec.id.clone(),
        team_id,
        problem_id: problem.id.clone(),
        language_id: post.language_id,
        source,
        time_ms: time.timestamp_millis(),
        contest_time_ms: (time - contest.start_time()).num_milliseconds(),
    };
    let stored = state
        .store
        .insert_submission(&new, |row| NewEvent {
            kind: "submissions".into(),
            obj_id: Some(row.id.clone()),
            team_id: Some(row.team_id.clone()),
            data: Some(clics::to_value(&clics::submission(contest, row))),
        })
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                format!("id: submission `{}` exists", new.id.unwrap_or_default()),
            )
        })?;
    state.queue_changed.notify_waiters();
    Ok(stored)
}
