//! The vocabulary of the arena: problem packages in the Kattis/ICPC format, verdicts and limits.
//!
//! This crate is pure: no async runtime, no Docker, no HTTP, no torch.
//!
//! # Modules
//!
//! - [`package`]: the loaded [`Problem`] (limits, validation, test groups and cases in
//!   judging order, reference submissions, the content SHA-256) and [`load`], which reads
//!   legacy and 2025-09 packages.
//! - [`default_validator`]: the Kattis default output validator ([`default_validator::check`])
//!   and its flags ([`default_validator::parse_flags`]).
//! - [`expectation`]: the score a reference submission must get
//!   ([`expectation::ScoreRange`]), from `submissions/submissions.yaml` or the legacy
//!   `@EXPECTED_SCORE@` marker.
//! - [`verdict`]: [`Verdict`], its precedence, its CLICS name and the Kattis
//!   `submissions/<folder>/` mapping.
//! - [`easy`]: the easy problem set (`problems/easy/`, written by the `make-easy` binary)
//!   and its training/validation/held-out split ([`easy::split`]).
//! - `error`: [`Error`], for what stops a package from loading at all.
//!
//! # Design decisions
//!
//! - Loading a package never stops at the first problem: [`load`] returns the [`Problem`]
//!   together with every warning, or [`Error::Invalid`] with every [`Diagnostic`] (errors
//!   and warnings) it found, each naming its file relative to the package folder.
//!   Loading for judging ([`load_for_judging`], [`LoadMode::Judge`]) refuses only what
//!   cannot be judged; loading for authoring ([`load`]) keeps every check.
//! - A package's own data decides: no network, no registry, no judge is needed to load it.
//!   What needs a judge (the time limit derived from the accepted submissions, input
//!   validation, custom validators) is left to the judge and said in a warning.
//! - The bundled packages live in `problems/packages/<name>/`; see its `README.md`.
#![deny(missing_docs)]

pub mod default_validator;
pub mod easy;
mod error;
pub mod expectation;
pub mod package;
pub mod verdict;

pub use error::{Error, Result};
pub use expectation::ScoreRange;
pub use package::{
    Aggregation, Diagnostic, Limits, LoadMode, Problem, ProgramLanguage, ReferenceSubmission,
    Severity, TestCase, TestGroup, TimeLimitSource, TimeMultipliers, Validation,
    ValidatorConvention, ValidatorProgram, load, load_for_judging, load_with,
};
pub use verdict::Verdict;
