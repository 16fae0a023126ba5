//! The Kattis default output validator: token-by-token comparison with optional case and
//! space sensitivity and absolute/relative float tolerance.
//!
//! SKELETON: being written (see issue 3).

use serde::{Deserialize, Serialize};

/// The default validator's flags (`validator_flags` in `problem.yaml`, or the 2025-09
/// `output_validator_args`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct DefaultFlags {
    /// `case_sensitive`.
    pub case_sensitive: bool,
    /// `space_change_sensitive`.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance eps`.
    pub float_absolute_tolerance: Option<f64>,
    /// `float_relative_tolerance eps`.
    pub float_relative_tolerance: Option<f64>,
}

/// What the default validator decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The output matches the judge's answer.
    Accepted,
    /// It does not; the message says where and why (the judge message).
    WrongAnswer(String),
}

/// Compares a team's output with the judge's answer.
pub fn check(judge_answer: &[u8], team_output: &[u8], flags: &DefaultFlags) -> Outcome {
    let _ = flags;
    if judge_answer.split(u8::is_ascii_whitespace).filter(|t| !t.is_empty()).eq(team_output
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty()))
    {
        Outcome::Accepted
    } else {
        Outcome::WrongAnswer("output differs (SKELETON comparison)".to_owned())
    }
}
