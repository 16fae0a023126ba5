//! End-to-end tests across the workspace's crates live in `tests/tests/`; this library
//! only anchors the crate (it depends on every other crate, and nothing depends on it).
