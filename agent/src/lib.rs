//! The `agent` crate (being written).
