//! How the server writes an error to its log: the error and each of its causes, joined
//! by `: `. A leaf module, so that the store and every other layer log the same way
//! without depending on each other's error types.

/// `err` and each of its causes, joined by `: ` (for the server's log).
pub fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut cause = err.source();
    while let Some(err) = cause {
        text.push_str(": ");
        text.push_str(&err.to_string());
        cause = err.source();
    }
    text
}
