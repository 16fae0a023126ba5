//! Who is asking, as the storage and the boards see it: the admin, a team or the public.
//!
//! A leaf module: [`crate::auth`] decides a request's viewer from its credential, and the
//! store, the boards and the feed filter by it without knowing anything of HTTP.

/// Who is asking for events or submissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything.
    Admin,
    /// Sees public data and its own.
    Team(String),
    /// Sees public data only.
    Public,
}
