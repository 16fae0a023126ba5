//! The `judge` crate (being written).
