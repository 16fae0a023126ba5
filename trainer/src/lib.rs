//! The `trainer` crate (being written).
