//! Who is asking: the admin, a team or the public, from the credential a request carries.
//!
//! The API takes `Authorization: Bearer TOKEN`, or basic auth with the team id (or
//! `admin`) as user and the token as password. No credential is the public. The web page
//! logs in once with a token and then holds a session (`crate::session`), never the token.

use base64::Engine;

use crate::contest::Contest;
use crate::error::ApiError;
use crate::state::AppState;
pub use crate::viewer::Viewer;

/// A credential as the request gave it, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// A token alone (`Bearer`).
    Bearer(String),
    /// Basic auth: a team id (or `admin`) and its token.
    Basic {
        /// The user: a team id or `admin`.
        user: String,
        /// The token.
        token: String,
    },
}

impl Credential {
    /// Parses an `Authorization` header's value.
    pub fn from_authorization(value: &str) -> Result<Credential, ApiError> {
        if let Some(token) = value.strip_prefix("Bearer ") {
            return Ok(Credential::Bearer(token.trim().to_owned()));
        }
        let Some(encoded) = value.strip_prefix("Basic ") else {
            return Err(ApiError::unauthorized(
                "Authorization must be Bearer or Basic",
            ));
        };
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| ApiError::unauthorized("basic auth is not base64 of user:password"))?;
        let (user, token) = decoded
            .split_once(':')
            .ok_or_else(|| ApiError::unauthorized("basic auth is not user:password"))?;
        Ok(Credential::Basic {
            user: user.to_owned(),
            token: token.to_owned(),
        })
    }

    fn user_and_token(&self) -> (Option<&str>, &str) {
        match self {
            Credential::Bearer(token) => (None, token),
            Credential::Basic { user, token } => (Some(user), token),
        }
    }
}

/// Who `credential` is: `None` is the public; a token no one holds is 401. Outside a
/// contest (creating one, the queue), any contest's team token is a team.
pub fn viewer(
    state: &AppState,
    contest: Option<&Contest>,
    credential: Option<&Credential>,
) -> Result<Viewer, ApiError> {
    let Some(credential) = credential else {
        return Ok(Viewer::Public);
    };
    let (user, token) = credential.user_and_token();
    if token == state.admin_token && user.is_none_or(|u| u == "admin") {
        return Ok(Viewer::Admin);
    }
    let all = if contest.is_none() {
        state.all_contests()
    } else {
        Vec::new()
    };
    let contests: Vec<&Contest> = match contest {
        Some(c) => vec![c],
        None => all.iter().map(AsRef::as_ref).collect(),
    };
    for c in contests {
        if let Some(team) = c.team_by_token(token)
            && user.is_none_or(|u| u == team.id)
        {
            return Ok(Viewer::Team(team.id.clone()));
        }
    }
    Err(ApiError::unauthorized("unknown token"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorization_headers() {
        assert_eq!(
            Credential::from_authorization("Bearer  tok ").unwrap(),
            Credential::Bearer("tok".into())
        );
        // "team-1:secret" in base64.
        assert_eq!(
            Credential::from_authorization("Basic dGVhbS0xOnNlY3JldA==").unwrap(),
            Credential::Basic {
                user: "team-1".into(),
                token: "secret".into()
            }
        );
        for (value, message) in [
            ("Token x", "Authorization must be Bearer or Basic"),
            ("Basic !!", "basic auth is not base64 of user:password"),
            ("Basic dGVhbQ==", "basic auth is not user:password"),
        ] {
            let err = Credential::from_authorization(value).unwrap_err();
            assert_eq!((err.status.as_u16(), err.message.as_str()), (401, message));
        }
    }
}
