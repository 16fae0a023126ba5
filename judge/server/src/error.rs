//! Errors of the contest server: the server's own failures ([`ServerError`]) and the
//! answers to bad requests ([`ApiError`]: an HTTP status and a message naming what is
//! wrong, as CLICS's `{"code", "message"}` object; `routes` turns it into a response).
//!
//! A message names what failed and never repeats its source; [`chain`] writes the whole
//! chain for the server's log, as the CLI's `{:#}` does.

use std::path::PathBuf;

use http::StatusCode;

use crate::store;

pub use crate::log::chain;

/// A failure of the server itself (not of a request).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A contest definition is wrong; every problem found is listed.
    #[error("contest {what}: {}", problems.join("; "))]
    BadContest {
        /// Where the definition came from.
        what: String,
        /// Each problem, naming its field.
        problems: Vec<String>,
    },
    /// A contest definition could not be written as JSON for the database.
    #[error("contest {id}: cannot store its definition")]
    StoreContest {
        /// The contest.
        id: String,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The store failed (the database, its URL, or what it cannot do).
    #[error(transparent)]
    Store(#[from] store::Error),
    /// The listener could not be bound.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// An answer to a request that is not served: its status and a message.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, for the client.
    pub message: String,
}

impl ApiError {
    /// 400 with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 naming what was not found.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 401: no or a wrong token.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// Any status with `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl From<store::Error> for ApiError {
    fn from(err: store::Error) -> ApiError {
        ApiError::from(ServerError::from(err))
    }
}

impl From<ServerError> for ApiError {
    fn from(err: ServerError) -> ApiError {
        match err {
            ServerError::BadContest { .. } => ApiError::bad_request(err.to_string()),
            ServerError::Store(store::Error::Unsupported(what)) => {
                ApiError::new(StatusCode::NOT_IMPLEMENTED, what)
            }
            // The server's own failure: logged, and not described to the client.
            other => {
                eprintln!("judge serve: {}", chain(&other));
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error (logged by the server)",
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_each_cause_once() {
        let err = ServerError::Listen {
            addr: "127.0.0.1:1".into(),
            source: std::io::Error::other("address in use"),
        };
        assert_eq!(err.to_string(), "cannot listen on 127.0.0.1:1");
        assert_eq!(chain(&err), "cannot listen on 127.0.0.1:1: address in use");
    }
}
