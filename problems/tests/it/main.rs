//! Integration tests of the `problems` crate through its public API: the bundled packages,
//! broken packages built in temporary folders, and bounded fuzzing of the loader
//! and the default output validator.

mod broken;
mod bundled;
mod easy;
mod fuzz;
mod modes;
