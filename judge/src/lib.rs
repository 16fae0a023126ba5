//! The judge: compiles and runs submissions against a problem's tests inside a sandbox
//! (Docker or bubblewrap), under time, memory and output limits enforced by the kernel,
//! and decides verdicts.
//!
//! Entry point: [`grade::judge`]. A wrong answer, a time-out or a compile error is a
//! verdict inside `Ok`; `Err` ([`Error`]) means the judge itself failed.

mod error;
pub mod grade;
pub mod lang;
pub mod sandbox;
pub mod supervisor;
pub mod timelimit;
pub mod verify;
pub mod workbench;

pub use error::{Error, Result};
pub use grade::{Options, Report, Submission, TestResult, judge};
/// The vocabulary the judge speaks (packages, verdicts, limits), re-exported so that a
/// caller that only judges (the `judge` binary) needs no dependency of its own on it.
pub use problems;
pub use workbench::Workbench;
