//! The web page's logins. Logging in with a team's or the admin's token makes a session:
//! a random id in the HttpOnly, `SameSite=Strict` cookie [`SESSION_COOKIE`] (with
//! `Secure` under `judge serve --secure-cookies`, for a server behind an HTTPS proxy),
//! never the token itself. The database keeps the id's SHA-256, who it is, its CSRF token
//! and its end ([`SESSION_HOURS`] after the login), so sessions survive a restart and
//! every host sharing a PostgreSQL database knows them. Logging out deletes it.
//!
//! Every state-changing form of a session carries its CSRF token (`csrf`), which the
//! server checks ([`check_csrf`]); the page's forms get it from [`with_csrf`]. Logins are
//! limited per client address ([`LoginLimiter`]: [`LOGINS_PER_MINUTE`] a minute).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use chrono::Utc;
use http::HeaderMap;
use sha2::{Digest, Sha256};

use crate::contest::Contest;
use crate::error::ApiError;
use crate::store::{SessionRow, Store};
use crate::viewer::Viewer;

/// The cookie that holds a session's id.
pub const SESSION_COOKIE: &str = "arena_session";

/// How long a session lasts.
pub const SESSION_HOURS: i64 = 12;

/// Login attempts one address may make in a minute (more get 429).
pub const LOGINS_PER_MINUTE: usize = 10;

/// A logged-in session, as a request found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Who it is.
    pub viewer: Viewer,
    /// Its CSRF token.
    pub csrf: String,
    /// The SHA-256 of its id (how the database knows it).
    pub id_hash: String,
}

fn random_hex() -> String {
    format!(
        "{:032x}{:032x}",
        rand::random::<u128>(),
        rand::random::<u128>()
    )
}

/// The SHA-256 of a session id, as hex.
pub fn hash(id: &str) -> String {
    Sha256::digest(id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The session id in the request's [`SESSION_COOKIE`], when it has one.
pub fn cookie_id(headers: &HeaderMap) -> Option<String> {
    let prefix = format!("{SESSION_COOKIE}=");
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .find_map(|c| c.strip_prefix(&prefix))
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
}

/// Makes a session for `viewer` in `contest`, kept in `store`; returns the `Set-Cookie`
/// value (`secure`: marked `Secure`).
pub async fn open(
    store: &Store,
    secure: bool,
    contest: &Contest,
    viewer: &Viewer,
) -> Result<String, ApiError> {
    let subject = match viewer {
        Viewer::Admin => "admin".to_owned(),
        Viewer::Team(team) => format!("team:{team}"),
        Viewer::Public => return Err(ApiError::unauthorized("unknown token")),
    };
    let id = random_hex();
    let now = Utc::now().timestamp_millis();
    let row = SessionRow {
        contest_id: contest.spec.id.clone(),
        subject,
        csrf: random_hex(),
        expires_ms: now + SESSION_HOURS * 3_600_000,
    };
    store.create_session(&hash(&id), &row, now).await?;
    let secure = if secure { "; Secure" } else { "" };
    Ok(format!(
        "{SESSION_COOKIE}={id}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{secure}",
        SESSION_HOURS * 3600
    ))
}

/// The `Set-Cookie` value that removes the session's cookie (`secure`: marked `Secure`).
pub fn clear_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0{secure}")
}

/// The request's session in `contest`, when it has a live one: of this contest, not
/// expired, and of the admin or a team that is still served and enabled.
pub async fn current(
    store: &Store,
    contest: &Contest,
    headers: &HeaderMap,
) -> Result<Option<Session>, ApiError> {
    let Some(id) = cookie_id(headers) else {
        return Ok(None);
    };
    let id_hash = hash(&id);
    let Some(row) = store
        .session(&id_hash, Utc::now().timestamp_millis())
        .await?
    else {
        return Ok(None);
    };
    if row.contest_id != contest.spec.id {
        return Ok(None);
    }
    let viewer = match row.subject.strip_prefix("team:") {
        None if row.subject == "admin" => Viewer::Admin,
        Some(team) if contest.has_active_team(team) => Viewer::Team(team.to_owned()),
        _ => return Ok(None),
    };
    Ok(Some(Session {
        viewer,
        csrf: row.csrf,
        id_hash,
    }))
}

/// Refuses a form whose `csrf` is not its session's (403); a request without a session
/// passes here and is then refused as the public by the operation itself.
pub fn check_csrf(session: Option<&Session>, csrf: &str) -> Result<(), ApiError> {
    match session {
        Some(s) if s.csrf.as_bytes() != csrf.as_bytes() => Err(ApiError::forbidden(
            "the form's CSRF token is not this session's: reload the page",
        )),
        _ => Ok(()),
    }
}

/// `html` with a hidden `csrf` field holding `csrf` as the first child of every form
/// that posts.
pub fn with_csrf(html: &str, csrf: &str) -> String {
    let field = format!("<input type=hidden name=csrf value='{csrf}'>");
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = html;
    while let Some(at) = rest.find("<form ") {
        let Some(len) = rest[at..].find('>') else {
            break;
        };
        let tag = &rest[at..=at + len];
        out.push_str(&rest[..=at + len]);
        if tag.contains("method=post") {
            out.push_str(&field);
        }
        rest = &rest[at + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Login attempts per client address in the last minute.
#[derive(Debug, Default)]
pub struct LoginLimiter {
    attempts: Mutex<HashMap<Option<IpAddr>, VecDeque<Instant>>>,
}

impl LoginLimiter {
    /// Counts an attempt from `address` (`None`: unknown); `false` when it is over the
    /// limit (and not counted).
    pub fn allow(&self, address: Option<IpAddr>) -> bool {
        let now = Instant::now();
        let mut map = self.attempts.lock().unwrap_or_else(PoisonError::into_inner);
        map.retain(|_, times| {
            times.retain(|t| now.duration_since(*t) < Duration::from_secs(60));
            !times.is_empty()
        });
        let times = map.entry(address).or_default();
        if times.len() >= LOGINS_PER_MINUTE {
            return false;
        }
        times.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_posting_form_gets_the_token_and_nothing_else_changes() {
        let html = "<p>x</p><form id=a method=post action='/x'><button>a</button></form>\
                    <form method=get action='/y'></form><form method=post action='/z' style=display:inline>";
        let out = with_csrf(html, "abc");
        assert_eq!(out.matches("name=csrf value='abc'").count(), 2, "{out}");
        assert!(out.contains("action='/x'><input type=hidden name=csrf value='abc'><button>"));
        assert!(out.contains("<form method=get action='/y'></form>"));
        assert_eq!(with_csrf("no forms", "abc"), "no forms");
    }

    #[test]
    fn the_cookie_is_read_among_others_and_hashed_for_the_store() {
        let mut headers = HeaderMap::new();
        headers.insert(
            http::header::COOKIE,
            "a=1; arena_session=s3cr3t; b=2".parse().unwrap(),
        );
        assert_eq!(cookie_id(&headers).as_deref(), Some("s3cr3t"));
        assert_eq!(hash("s3cr3t").len(), 64);
        assert_ne!(hash("s3cr3t"), "s3cr3t");
        assert_eq!(cookie_id(&HeaderMap::new()), None);
    }

    #[test]
    fn a_form_without_the_session_s_token_is_refused() {
        let session = Session {
            viewer: Viewer::Admin,
            csrf: "right".into(),
            id_hash: String::new(),
        };
        assert!(check_csrf(Some(&session), "right").is_ok());
        assert_eq!(
            check_csrf(Some(&session), "wrong").unwrap_err().status,
            http::StatusCode::FORBIDDEN
        );
        assert!(check_csrf(Some(&session), "").is_err());
        assert!(check_csrf(None, "").is_ok());
    }

    #[test]
    fn logins_are_limited_per_address() {
        let limiter = LoginLimiter::default();
        let a: Option<IpAddr> = Some("10.0.0.1".parse().unwrap());
        let b: Option<IpAddr> = Some("10.0.0.2".parse().unwrap());
        for _ in 0..LOGINS_PER_MINUTE {
            assert!(limiter.allow(a));
        }
        assert!(!limiter.allow(a), "over the limit");
        assert!(limiter.allow(b), "another address has its own");
    }
}
