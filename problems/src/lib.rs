//! The vocabulary of the arena: problem packages in the Kattis/ICPC format, verdicts and limits.
//!
//! This crate is pure: no async runtime, no Docker, no HTTP, no torch.
//! Loading a package never stops at the first problem: [`load`] returns the [`Problem`]
//! together with every [`Diagnostic`] it found, each naming its file.
#![deny(missing_docs)]

pub mod default_validator;
mod error;
pub mod package;
pub mod verdict;

pub use error::{Error, Result};
pub use package::{
    Aggregation, Diagnostic, Limits, Problem, ReferenceSubmission, Severity, TestCase, TestGroup,
    Validation, load,
};
pub use verdict::Verdict;
