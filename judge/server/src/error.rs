//! Errors of the contest server: the server's own failures ([`ServerError`]) and the
//! answers to bad requests ([`ApiError`]: an HTTP status and a message naming what is
//! wrong, as CLICS's `{"code", "message"}` object).

use std::path::PathBuf;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A failure of the server itself (not of a request).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
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
    /// The database failed.
    #[error("database: {0}")]
    Database(String),
    /// The database URL is not SQLite or PostgreSQL.
    #[error("database URL `{0}`: expected sqlite://FILE or postgres://...")]
    BadDatabaseUrl(String),
    /// The listener could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
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
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404 naming what was not found.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 401: no or a wrong token.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            message: message.into(),
        }
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
        }
    }

    /// Any status with `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl From<ServerError> for ApiError {
    fn from(err: ServerError) -> ApiError {
        match err {
            ServerError::BadContest { .. } => ApiError::bad_request(err.to_string()),
            // The server's own failure: logged, and not described to the client.
            other => {
                eprintln!("judge serve: {other}");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error (logged by the server)",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "code": self.status.as_u16(),
            "message": self.message,
        });
        (self.status, axum::Json(body)).into_response()
    }
}
