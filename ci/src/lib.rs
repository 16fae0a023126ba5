//! The `ci` crate (being written).
