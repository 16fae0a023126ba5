//! The Kattis default output validator: token-by-token comparison with optional case and
//! space sensitivity and absolute/relative float tolerance.
//!
//! Rules, as in the package format specification:
//! - tokens are separated by runs of whitespace (space, `\t`, `\n`, `\v`, `\f`, `\r`);
//!   a different number of tokens is a wrong answer;
//! - ASCII letters compare case-insensitively unless `case_sensitive`;
//! - the amount and kind of whitespace is ignored unless `space_change_sensitive`, which
//!   then compares every whitespace run exactly, leading and trailing ones included;
//! - with a float tolerance, a judge token that parses as a finite number is compared
//!   numerically: the team token must parse as a number `t`, and is accepted when
//!   `|t - a| <= abs_tol` or `|t - a| <= rel_tol * |a|`. A team `nan` or `inf` never
//!   matches a finite answer; a non-finite judge token (`inf`, `nan`) is compared as text.
//!   Without a tolerance every token is compared as text.

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

/// Parses flags from their word form, e.g. `["float_tolerance", "1e-6", "case_sensitive"]`.
///
/// An unknown flag, a missing or malformed number, a repeated flag, or `float_tolerance`
/// together with one of the specific tolerances is an error naming the word.
pub fn parse_flags(words: &[String]) -> Result<DefaultFlags, String> {
    let mut flags = DefaultFlags::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut it = words.iter();
    while let Some(word) = it.next() {
        if seen.contains(&word.as_str()) {
            return Err(format!("flag `{word}` given twice"));
        }
        seen.push(word.as_str());
        let mut number = || -> Result<f64, String> {
            let value = it
                .next()
                .ok_or_else(|| format!("flag `{word}` needs a number after it"))?;
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    format!("flag `{word}` needs a non-negative number, found `{value}`")
                })
        };
        match word.as_str() {
            "case_sensitive" => flags.case_sensitive = true,
            "space_change_sensitive" => flags.space_change_sensitive = true,
            "float_absolute_tolerance" => flags.float_absolute_tolerance = Some(number()?),
            "float_relative_tolerance" => flags.float_relative_tolerance = Some(number()?),
            "float_tolerance" => {
                let eps = number()?;
                flags.float_absolute_tolerance = Some(eps);
                flags.float_relative_tolerance = Some(eps);
            }
            other => return Err(format!("unknown default validator flag `{other}`")),
        }
    }
    if seen.contains(&"float_tolerance")
        && (seen.contains(&"float_absolute_tolerance")
            || seen.contains(&"float_relative_tolerance"))
    {
        return Err(
            "`float_tolerance` cannot be combined with the absolute or relative tolerance"
                .to_owned(),
        );
    }
    Ok(flags)
}

/// Compares a team's output with the judge's answer.
pub fn check(judge_answer: &[u8], team_output: &[u8], flags: &DefaultFlags) -> Outcome {
    let judge = pieces(judge_answer, flags.space_change_sensitive);
    let team = pieces(team_output, flags.space_change_sensitive);
    let mut token_idx = 0usize;
    for (idx, expected) in judge.iter().enumerate() {
        let Some(got) = team.get(idx) else {
            return Outcome::WrongAnswer(format!(
                "team output ended at token {} while the answer has more: expected `{}`",
                token_idx + 1,
                show(expected.text)
            ));
        };
        if expected.is_space != got.is_space || (expected.is_space && expected.text != got.text) {
            return Outcome::WrongAnswer(format!(
                "whitespace differs before token {}",
                token_idx + 1
            ));
        }
        if !expected.is_space {
            token_idx += 1;
            if let Err(why) = same_token(expected.text, got.text, flags) {
                return Outcome::WrongAnswer(format!(
                    "token {token_idx} (line {}): expected `{}`, got `{}`{why}",
                    got.line,
                    show(expected.text),
                    show(got.text)
                ));
            }
        }
    }
    if let Some(extra) = team.get(judge.len()) {
        return Outcome::WrongAnswer(format!(
            "trailing output after token {token_idx}: `{}` (line {})",
            show(extra.text),
            extra.line
        ));
    }
    Outcome::Accepted
}

/// A token or (when space sensitive) a whitespace run, with its 1-based line.
struct Piece<'a> {
    text: &'a [u8],
    is_space: bool,
    line: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn pieces(bytes: &[u8], keep_space: bool) -> Vec<Piece<'_>> {
    let mut res = Vec::new();
    let mut line = 1;
    let mut start = 0;
    while start < bytes.len() {
        let space = is_space(bytes[start]);
        let mut end = start;
        while end < bytes.len() && is_space(bytes[end]) == space {
            end += 1;
        }
        let text = &bytes[start..end];
        if !space || keep_space {
            res.push(Piece {
                text,
                is_space: space,
                line,
            });
        }
        line += text.iter().filter(|b| **b == b'\n').count();
        start = end;
    }
    res
}

fn same_token(expected: &[u8], got: &[u8], flags: &DefaultFlags) -> Result<(), String> {
    let tolerant =
        flags.float_absolute_tolerance.is_some() || flags.float_relative_tolerance.is_some();
    if tolerant && let Some(want) = parse_number(expected).filter(|v| v.is_finite()) {
        let Some(have) = parse_number(got) else {
            return Err(" (not a number)".to_owned());
        };
        let diff = (have - want).abs();
        let abs_ok = flags
            .float_absolute_tolerance
            .is_some_and(|eps| diff <= eps);
        let rel_ok = flags
            .float_relative_tolerance
            .is_some_and(|eps| diff <= eps * want.abs());
        return if abs_ok || rel_ok {
            Ok(())
        } else {
            Err(format!(" (difference {diff:e})"))
        };
    }
    let equal = if flags.case_sensitive {
        expected == got
    } else {
        expected.eq_ignore_ascii_case(got)
    };
    if equal { Ok(()) } else { Err(String::new()) }
}

fn parse_number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

fn show(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(words: &str) -> DefaultFlags {
        let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
        parse_flags(&words).expect("valid flags")
    }

    fn verdict(answer: &str, output: &str, words: &str) -> String {
        match check(answer.as_bytes(), output.as_bytes(), &flags(words)) {
            Outcome::Accepted => "AC".to_owned(),
            Outcome::WrongAnswer(msg) => format!("WA: {msg}"),
        }
    }

    /// Checks a comparison that must not depend on which side is the answer.
    fn symmetric(a: &str, b: &str, words: &str) -> String {
        let one = verdict(a, b, words);
        let two = verdict(b, a, words);
        assert_eq!(
            one == "AC",
            two == "AC",
            "asymmetric on {a:?} / {b:?}: {one} / {two}"
        );
        one
    }

    #[test]
    fn tokens_and_whitespace() {
        assert_eq!(symmetric("1 2\n3\n", "1   2 3", ""), "AC");
        assert_eq!(symmetric("1 2 3", "1 2 3\n\n\n  ", ""), "AC");
        assert_eq!(symmetric("", "\n \t\r\n", ""), "AC");
        assert_eq!(symmetric("Yes", "yES", ""), "AC");
        expect_test::expect!["WA: token 1 (line 1): expected `Yes`, got `yES`"]
            .assert_eq(&verdict("Yes", "yES", "case_sensitive"));
        expect_test::expect!["WA: trailing output after token 2: `3` (line 2)"]
            .assert_eq(&verdict("1 2", "1 2\n3", ""));
        expect_test::expect![
            "WA: team output ended at token 3 while the answer has more: expected `3`"
        ]
        .assert_eq(&verdict("1 2 3", "1 2", ""));
        expect_test::expect!["WA: token 2 (line 2): expected `2`, got `5`"]
            .assert_eq(&verdict("1\n2", "1\n5", ""));
    }

    #[test]
    fn space_change_sensitive_compares_every_run() {
        assert_eq!(symmetric("1 2\n", "1 2\n", "space_change_sensitive"), "AC");
        expect_test::expect!["WA: whitespace differs before token 2"].assert_eq(&verdict(
            "1 2\n",
            "1  2\n",
            "space_change_sensitive",
        ));
        expect_test::expect!["WA: trailing output after token 2: `\n` (line 1)"]
            .assert_eq(&verdict("1 2", "1 2\n", "space_change_sensitive"));
        assert_ne!(verdict("1 2\n", " 1 2\n", "space_change_sensitive"), "AC");
    }

    #[test]
    fn float_tolerance_boundaries() {
        assert_eq!(
            verdict("1.0", "1.0000009", "float_absolute_tolerance 1e-6"),
            "AC"
        );
        assert_ne!(
            verdict("1.0", "1.0000011", "float_absolute_tolerance 1e-6"),
            "AC"
        );
        assert_eq!(
            verdict("100", "100.00009", "float_relative_tolerance 1e-6"),
            "AC"
        );
        assert_ne!(
            verdict("100", "100.00011", "float_relative_tolerance 1e-6"),
            "AC"
        );
        assert_eq!(verdict("0", "1e-7", "float_tolerance 1e-6"), "AC");
        assert_eq!(verdict("2.5", "2.5e0", "float_tolerance 1e-9"), "AC");
        // Without a tolerance numbers are text.
        assert_ne!(verdict("2.5", "2.50", ""), "AC");
        expect_test::expect!["WA: token 1 (line 1): expected `1.5`, got `abc` (not a number)"]
            .assert_eq(&verdict("1.5", "abc", "float_tolerance 1e-6"));
        // Tokens that are not numbers are still text under a tolerance.
        assert_eq!(
            verdict("Case 1.5", "case 1.5000001", "float_tolerance 1e-6"),
            "AC"
        );
    }

    #[test]
    fn nan_and_infinity() {
        assert_ne!(verdict("1.0", "nan", "float_tolerance 1"), "AC");
        assert_ne!(verdict("1.0", "inf", "float_tolerance 1e9"), "AC");
        assert_eq!(verdict("inf", "INF", "float_tolerance 1e-6"), "AC");
        assert_ne!(verdict("nan", "1", "float_tolerance 1e-6"), "AC");
        assert_eq!(verdict("nan", "NaN", "float_tolerance 1e-6"), "AC");
    }

    #[test]
    fn flag_errors_name_the_word() {
        let parse =
            |s: &str| parse_flags(&s.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
        assert_eq!(
            parse("float_tolerance"),
            Err("flag `float_tolerance` needs a number after it".to_owned())
        );
        assert_eq!(
            parse("loose"),
            Err("unknown default validator flag `loose`".to_owned())
        );
        assert_eq!(
            parse("case_sensitive case_sensitive"),
            Err("flag `case_sensitive` given twice".to_owned())
        );
        assert_eq!(
            parse("float_absolute_tolerance x"),
            Err(
                "flag `float_absolute_tolerance` needs a non-negative number, found `x`".to_owned()
            )
        );
        assert!(parse("float_tolerance 1e-6 float_relative_tolerance 1e-3").is_err());
    }
}
