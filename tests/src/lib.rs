//! The `tests` crate (being written).
