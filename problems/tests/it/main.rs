//! Integration tests of the `problems` crate through its public API: the bundled packages,
//! and broken packages built in temporary folders.

mod broken;
mod bundled;
