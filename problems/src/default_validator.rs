//! The Kattis default output validator: token-by-token comparison with optional case and
//! space sensitivity and absolute/relative float tolerance.
//!
//! The rules, as in the Kattis/ICPC problem package format (legacy and 2025-09):
//!
//! - Both texts are split into tokens on runs of whitespace: space, `\t`, `\n`, `\v`, `\f`
//!   and `\r`. Bytes are single-byte characters; the texts need not be UTF-8.
//! - Tokens are compared in order; a different number of tokens is a wrong answer, and the
//!   message names the 1-based index of the first missing or extra token.
//! - Tokens compare case-insensitively (ASCII `A`-`Z` only) unless `case_sensitive`.
//! - The amount and kind of whitespace is ignored unless `space_change_sensitive`: then
//!   every whitespace run, including leading and trailing ones, must be byte-identical.
//! - Only when a tolerance is given (`float_absolute_tolerance ε`,
//!   `float_relative_tolerance ε`, or `float_tolerance ε` for both), a judge token that
//!   parses as a float is compared numerically: the team token must parse as a float too,
//!   and is accepted when `|team - judge| <= ε_abs` or `|team - judge| <= ε_rel * |judge|`.
//!   Integers are floats then too. Without a tolerance every token is compared as text.
//!
//! Design decisions where the spec is silent:
//!
//! - "Parses as a float" means Rust's `str::parse::<f64>` accepts the whole token: an
//!   optional sign, digits with an optional `.` and exponent, or `inf`, `infinity`, `nan`
//!   in any case. Hexadecimal floats are text.
//! - NaN: a judge `nan` accepts only a team `nan` (any case, any sign); a team `nan`
//!   never matches a number. Infinities: a judge infinity accepts only the team infinity
//!   of the same sign; a finite judge value never accepts an infinity.
//! - A team float that overflows to infinity (such as `1e400`) is an infinity.
//! - An absent tolerance never accepts, so `float_absolute_tolerance` alone is an
//!   absolute-only check.

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

impl DefaultFlags {
    /// Whether floats are compared numerically (some tolerance is set).
    pub fn compares_floats(&self) -> bool {
        self.float_absolute_tolerance.is_some() || self.float_relative_tolerance.is_some()
    }
}

/// What the default validator decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The output matches the judge's answer.
    Accepted,
    /// It does not; the message says where and why (the judge message).
    WrongAnswer(String),
}

/// A flag list the default validator does not understand.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FlagError {
    /// A word that is not one of the validator's flags.
    #[error(
        "unknown default validator flag `{0}` (known: case_sensitive, space_change_sensitive, \
         float_absolute_tolerance, float_relative_tolerance, float_tolerance)"
    )]
    Unknown(String),
    /// A tolerance flag at the end of the list, without its value.
    #[error("flag `{0}` needs a value")]
    MissingValue(String),
    /// A tolerance that is not a finite, non-negative number.
    #[error("flag `{flag}` needs a finite non-negative number, found `{value}`")]
    BadValue {
        /// The flag.
        flag: String,
        /// What followed it.
        value: String,
    },
    /// The same flag twice, or `float_tolerance` together with one of the tolerances it sets.
    #[error("flag `{0}` is given twice (float_tolerance sets both tolerances)")]
    Repeated(String),
}

/// Parses the flags from their string form, e.g. `["float_tolerance", "1e-6"]`.
pub fn parse_flags<S: AsRef<str>>(words: &[S]) -> Result<DefaultFlags, FlagError> {
    let mut res = DefaultFlags::default();
    let mut words = words.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        match word {
            "case_sensitive" if res.case_sensitive => {
                return Err(FlagError::Repeated(word.to_owned()));
            }
            "case_sensitive" => res.case_sensitive = true,
            "space_change_sensitive" if res.space_change_sensitive => {
                return Err(FlagError::Repeated(word.to_owned()));
            }
            "space_change_sensitive" => res.space_change_sensitive = true,
            "float_absolute_tolerance" | "float_relative_tolerance" | "float_tolerance" => {
                let value = words
                    .next()
                    .ok_or_else(|| FlagError::MissingValue(word.to_owned()))?;
                let eps = value
                    .parse::<f64>()
                    .ok()
                    .filter(|it| it.is_finite() && *it >= 0.0)
                    .ok_or_else(|| FlagError::BadValue {
                        flag: word.to_owned(),
                        value: value.to_owned(),
                    })?;
                let absolute = word != "float_relative_tolerance";
                let relative = word != "float_absolute_tolerance";
                if (absolute && res.float_absolute_tolerance.is_some())
                    || (relative && res.float_relative_tolerance.is_some())
                {
                    return Err(FlagError::Repeated(word.to_owned()));
                }
                if absolute {
                    res.float_absolute_tolerance = Some(eps);
                }
                if relative {
                    res.float_relative_tolerance = Some(eps);
                }
            }
            other => return Err(FlagError::Unknown(other.to_owned())),
        }
    }
    Ok(res)
}

/// The whitespace bytes of the spec: space, `\t`, `\n`, `\v`, `\f`, `\r`.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Splits `text` into alternating whitespace runs and tokens: `(leading_space,
/// [(token, following_space)])`, lazily.
struct Tokens<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a [u8]) -> (&'a [u8], Tokens<'a>) {
        let lead = text.iter().take_while(|b| is_space(**b)).count();
        (&text[..lead], Tokens { text, pos: lead })
    }
}

impl<'a> Iterator for Tokens<'a> {
    /// A token and the whitespace after it.
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let token_len = rest.iter().take_while(|b| !is_space(**b)).count();
        let space_len = rest[token_len..]
            .iter()
            .take_while(|b| is_space(**b))
            .count();
        self.pos += token_len + space_len;
        Some((&rest[..token_len], &rest[token_len..token_len + space_len]))
    }
}

/// Compares a team's output with the judge's answer.
pub fn check(judge_answer: &[u8], team_output: &[u8], flags: &DefaultFlags) -> Outcome {
    let (judge_lead, mut judge) = Tokens::new(judge_answer);
    let (team_lead, mut team) = Tokens::new(team_output);
    if flags.space_change_sensitive && judge_lead != team_lead {
        return wrong(format!(
            "leading whitespace differs: expected {:?}, got {:?}",
            String::from_utf8_lossy(judge_lead),
            String::from_utf8_lossy(team_lead)
        ));
    }
    let mut index = 0usize;
    loop {
        index += 1;
        match (judge.next(), team.next()) {
            (None, None) => return Outcome::Accepted,
            (Some((expected, _)), None) => {
                return wrong(format!(
                    "team output ends early: expected `{}` as token {index}",
                    show(expected)
                ));
            }
            (None, Some((got, _))) => {
                return wrong(format!(
                    "extra output: token {index} is `{}`, expected end of output",
                    show(got)
                ));
            }
            (Some((expected, expected_space)), Some((got, got_space))) => {
                if let Some(why) = compare_token(expected, got, flags) {
                    return wrong(format!("token {index}: {why}"));
                }
                if flags.space_change_sensitive && expected_space != got_space {
                    return wrong(format!(
                        "whitespace after token {index} differs: expected {:?}, got {:?}",
                        String::from_utf8_lossy(expected_space),
                        String::from_utf8_lossy(got_space)
                    ));
                }
            }
        }
    }
}

fn wrong(message: String) -> Outcome {
    Outcome::WrongAnswer(message)
}

/// `None` when the tokens match, else why not.
fn compare_token(expected: &[u8], got: &[u8], flags: &DefaultFlags) -> Option<String> {
    if flags.compares_floats()
        && let Some(judge_value) = parse_float(expected)
    {
        let Some(team_value) = parse_float(got) else {
            return Some(format!(
                "expected the number `{}`, got `{}`",
                show(expected),
                show(got)
            ));
        };
        if floats_match(judge_value, team_value, flags) {
            return None;
        }
        let why = if judge_value.is_finite() && team_value.is_finite() {
            format!(
                "difference {} is outside the tolerance",
                (team_value - judge_value).abs()
            )
        } else {
            "NaN and infinities match only themselves".to_owned()
        };
        return Some(format!(
            "expected `{}`, got `{}` ({why})",
            show(expected),
            show(got)
        ));
    }
    let same = if flags.case_sensitive {
        expected == got
    } else {
        expected.eq_ignore_ascii_case(got)
    };
    if same {
        None
    } else {
        Some(format!(
            "expected `{}`, got `{}`",
            show(expected),
            show(got)
        ))
    }
}

fn parse_float(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

fn floats_match(judge: f64, team: f64, flags: &DefaultFlags) -> bool {
    if judge.is_nan() || team.is_nan() {
        return judge.is_nan() && team.is_nan();
    }
    if judge.is_infinite() || team.is_infinite() {
        return judge == team;
    }
    let diff = (team - judge).abs();
    flags
        .float_absolute_tolerance
        .is_some_and(|eps| diff <= eps)
        || flags
            .float_relative_tolerance
            .is_some_and(|eps| diff <= eps * judge.abs())
}

/// A token or whitespace run for a message: escaped, at most 40 characters.
fn show(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let text: String = bytes
        .iter()
        .take(MAX)
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect();
    if bytes.len() > MAX {
        format!("{text}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    /// One comparison: the flags in word form, the judge's answer, the team's output.
    type Case<'a> = (&'a str, &'a str, &'a str);

    fn render(outcome: Outcome) -> String {
        match outcome {
            Outcome::Accepted => "AC".to_owned(),
            Outcome::WrongAnswer(message) => format!("WA {message}"),
        }
    }

    fn run(flags: &str, judge: &str, team: &str) -> String {
        let words: Vec<&str> = flags.split_whitespace().collect();
        let flags = parse_flags(&words).expect("valid flags");
        render(check(judge.as_bytes(), team.as_bytes(), &flags))
    }

    /// Runs every case in both argument orders (DMOJ style: these comparisons must be
    /// symmetric) and renders the table.
    fn check_symmetric(cases: &[Case<'_>], expect: &Expect) {
        let mut res = String::new();
        for (flags, judge, team) in cases {
            let forward = run(flags, judge, team);
            let backward = run(flags, team, judge);
            assert_eq!(
                forward == "AC",
                backward == "AC",
                "asymmetric: {flags:?} {judge:?} {team:?}"
            );
            res += &format!("[{flags}] {judge:?} / {team:?}\n  {forward}\n  {backward}\n");
        }
        expect.assert_eq(&res);
    }

    /// Runs every case in the given order only (relative tolerance is not symmetric).
    fn check_one_way(cases: &[Case<'_>], expect: &Expect) {
        let mut res = String::new();
        for (flags, judge, team) in cases {
            res += &format!(
                "[{flags}] {judge:?} / {team:?}\n  {}\n",
                run(flags, judge, team)
            );
        }
        expect.assert_eq(&res);
    }

    #[test]
    fn whitespace_amount_is_ignored_by_default() {
        check_symmetric(
            &[
                ("", "1 2 3\n", "1 2 3\n"),
                ("", "1 2 3\n", "  1\t2\r\n\n3"),
                ("", "hello\n", "hello \n\n\n"),
                ("", "a\x0bb", "a b"),
                ("", "", "\n \n"),
            ],
            &expect![[r#"
                [] "1 2 3\n" / "1 2 3\n"
                  AC
                  AC
                [] "1 2 3\n" / "  1\t2\r\n\n3"
                  AC
                  AC
                [] "hello\n" / "hello \n\n\n"
                  AC
                  AC
                [] "a\u{b}b" / "a b"
                  AC
                  AC
                [] "" / "\n \n"
                  AC
                  AC
            "#]],
        );
    }

    #[test]
    fn presentation_boundary_is_the_token_boundary() {
        check_symmetric(
            &[
                ("", "1 2", "12"),
                ("", "1 2", "1\n2"),
                ("space_change_sensitive", "1 2", "1\n2"),
                ("space_change_sensitive", "1 2\n", "1 2\n"),
                ("space_change_sensitive", "1 2\n", "1 2"),
                ("space_change_sensitive", "1 2\n", " 1 2\n"),
                ("space_change_sensitive", "1  2", "1 2"),
            ],
            &expect![[r#"
                [] "1 2" / "12"
                  WA token 1: expected `1`, got `12`
                  WA token 1: expected `12`, got `1`
                [] "1 2" / "1\n2"
                  AC
                  AC
                [space_change_sensitive] "1 2" / "1\n2"
                  WA whitespace after token 1 differs: expected " ", got "\n"
                  WA whitespace after token 1 differs: expected "\n", got " "
                [space_change_sensitive] "1 2\n" / "1 2\n"
                  AC
                  AC
                [space_change_sensitive] "1 2\n" / "1 2"
                  WA whitespace after token 2 differs: expected "\n", got ""
                  WA whitespace after token 2 differs: expected "", got "\n"
                [space_change_sensitive] "1 2\n" / " 1 2\n"
                  WA leading whitespace differs: expected "", got " "
                  WA leading whitespace differs: expected " ", got ""
                [space_change_sensitive] "1  2" / "1 2"
                  WA whitespace after token 1 differs: expected "  ", got " "
                  WA whitespace after token 1 differs: expected " ", got "  "
            "#]],
        );
    }

    #[test]
    fn missing_and_extra_output_name_the_token() {
        check_symmetric(
            &[("", "1 2 3", "1 2"), ("", "42\n", "")],
            &expect![[r#"
            [] "1 2 3" / "1 2"
              WA team output ends early: expected `3` as token 3
              WA extra output: token 3 is `3`, expected end of output
            [] "42\n" / ""
              WA team output ends early: expected `42` as token 1
              WA extra output: token 1 is `42`, expected end of output
        "#]],
        );
    }

    #[test]
    fn case_folds_ascii_only() {
        check_symmetric(
            &[
                ("", "Yes", "YES"),
                ("case_sensitive", "Yes", "YES"),
                ("", "\u{e9}", "\u{c9}"),
            ],
            &expect![[r#"
                [] "Yes" / "YES"
                  AC
                  AC
                [case_sensitive] "Yes" / "YES"
                  WA token 1: expected `Yes`, got `YES`
                  WA token 1: expected `YES`, got `Yes`
                [] "é" / "É"
                  WA token 1: expected `\xc3\xa9`, got `\xc3\x89`
                  WA token 1: expected `\xc3\x89`, got `\xc3\xa9`
            "#]],
        );
    }

    #[test]
    fn floats_without_tolerance_are_text() {
        check_symmetric(
            &[("", "1.0", "1.00"), ("", "1e3", "1E3"), ("", "nan", "NAN")],
            &expect![[r#"
            [] "1.0" / "1.00"
              WA token 1: expected `1.0`, got `1.00`
              WA token 1: expected `1.00`, got `1.0`
            [] "1e3" / "1E3"
              AC
              AC
            [] "nan" / "NAN"
              AC
              AC
        "#]],
        );
    }

    #[test]
    fn absolute_tolerance_at_the_boundary() {
        // 1.5, 1.75 and 0.25 are exact in binary, so the boundary is exact too.
        check_symmetric(
            &[
                ("float_absolute_tolerance 0.25", "1.5", "1.75"),
                ("float_absolute_tolerance 0.25", "1.5", "1.7500001"),
                ("float_absolute_tolerance 1e-6", "3", "3.0000001"),
                ("float_absolute_tolerance 1e-6", "3 x", "3.0 X"),
            ],
            &expect![[r#"
                [float_absolute_tolerance 0.25] "1.5" / "1.75"
                  AC
                  AC
                [float_absolute_tolerance 0.25] "1.5" / "1.7500001"
                  WA token 1: expected `1.5`, got `1.7500001` (difference 0.25000010000000006 is outside the tolerance)
                  WA token 1: expected `1.7500001`, got `1.5` (difference 0.25000010000000006 is outside the tolerance)
                [float_absolute_tolerance 1e-6] "3" / "3.0000001"
                  AC
                  AC
                [float_absolute_tolerance 1e-6] "3 x" / "3.0 X"
                  AC
                  AC
            "#]],
        );
    }

    #[test]
    fn relative_tolerance_at_the_boundary() {
        // Relative to the judge's value: 5 -> 4 is 20%, 4 -> 5 is 25%.
        check_one_way(
            &[
                ("float_relative_tolerance 0.25", "4", "5"),
                ("float_relative_tolerance 0.25", "4", "5.5"),
                ("float_relative_tolerance 0.2", "5", "4"),
                ("float_relative_tolerance 0.2", "4", "5"),
                ("float_relative_tolerance 0.5", "0", "0.0000001"),
            ],
            &expect![[r#"
                [float_relative_tolerance 0.25] "4" / "5"
                  AC
                [float_relative_tolerance 0.25] "4" / "5.5"
                  WA token 1: expected `4`, got `5.5` (difference 1.5 is outside the tolerance)
                [float_relative_tolerance 0.2] "5" / "4"
                  AC
                [float_relative_tolerance 0.2] "4" / "5"
                  WA token 1: expected `4`, got `5` (difference 1 is outside the tolerance)
                [float_relative_tolerance 0.5] "0" / "0.0000001"
                  WA token 1: expected `0`, got `0.0000001` (difference 0.0000001 is outside the tolerance)
            "#]],
        );
    }

    #[test]
    fn either_tolerance_accepts() {
        check_symmetric(
            &[
                ("float_tolerance 1e-6", "1000000", "1000000.9"),
                ("float_tolerance 1e-6", "0", "0.0000009"),
                ("float_tolerance 1e-6", "0", "0.0000011"),
            ],
            &expect![[r#"
                [float_tolerance 1e-6] "1000000" / "1000000.9"
                  AC
                  AC
                [float_tolerance 1e-6] "0" / "0.0000009"
                  AC
                  AC
                [float_tolerance 1e-6] "0" / "0.0000011"
                  WA token 1: expected `0`, got `0.0000011` (difference 0.0000011 is outside the tolerance)
                  WA token 1: expected `0.0000011`, got `0` (difference 0.0000011 is outside the tolerance)
            "#]],
        );
    }

    #[test]
    fn non_numbers_under_tolerance() {
        check_one_way(
            &[
                ("float_tolerance 1e-6", "2.5", "abc"),
                ("float_tolerance 1e-6", "abc", "2.5"),
                ("float_tolerance 1e-6", "0x10", "16"),
                ("float_tolerance 1e-6", "1e-5", "1.0E-5"),
            ],
            &expect![[r#"
                [float_tolerance 1e-6] "2.5" / "abc"
                  WA token 1: expected the number `2.5`, got `abc`
                [float_tolerance 1e-6] "abc" / "2.5"
                  WA token 1: expected `abc`, got `2.5`
                [float_tolerance 1e-6] "0x10" / "16"
                  WA token 1: expected `0x10`, got `16`
                [float_tolerance 1e-6] "1e-5" / "1.0E-5"
                  AC
            "#]],
        );
    }

    #[test]
    fn nan_and_infinity() {
        check_symmetric(
            &[
                ("float_tolerance 1e-6", "nan", "NaN"),
                ("float_tolerance 1e-6", "nan", "1"),
                ("float_tolerance 1e-6", "inf", "Infinity"),
                ("float_tolerance 1e-6", "inf", "-inf"),
                ("float_tolerance 1e-6", "1e308", "1e400"),
            ],
            &expect![[r#"
                [float_tolerance 1e-6] "nan" / "NaN"
                  AC
                  AC
                [float_tolerance 1e-6] "nan" / "1"
                  WA token 1: expected `nan`, got `1` (NaN and infinities match only themselves)
                  WA token 1: expected `1`, got `nan` (NaN and infinities match only themselves)
                [float_tolerance 1e-6] "inf" / "Infinity"
                  AC
                  AC
                [float_tolerance 1e-6] "inf" / "-inf"
                  WA token 1: expected `inf`, got `-inf` (NaN and infinities match only themselves)
                  WA token 1: expected `-inf`, got `inf` (NaN and infinities match only themselves)
                [float_tolerance 1e-6] "1e308" / "1e400"
                  WA token 1: expected `1e308`, got `1e400` (NaN and infinities match only themselves)
                  WA token 1: expected `1e400`, got `1e308` (NaN and infinities match only themselves)
            "#]],
        );
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        check_one_way(
            &[("", &"x".repeat(100), "y")],
            &expect![[r#"
            [] "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" / "y"
              WA token 1: expected `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...`, got `y`
        "#]],
        );
    }

    #[test]
    fn flags_parse_from_words() {
        let cases: &[&[&str]] = &[
            &[],
            &["case_sensitive", "space_change_sensitive"],
            &["float_tolerance", "1e-6"],
            &[
                "float_absolute_tolerance",
                "0.5",
                "float_relative_tolerance",
                "1e-9",
            ],
            &["float_tolerance"],
            &["float_tolerance", "-1"],
            &["float_tolerance", "abc"],
            &[
                "float_tolerance",
                "1e-6",
                "float_absolute_tolerance",
                "1e-6",
            ],
            &["case_sensitive", "case_sensitive"],
            &["ignore_case"],
        ];
        let res: Vec<String> = cases
            .iter()
            .map(|words| match parse_flags(words) {
                Ok(flags) => format!("{flags:?}"),
                Err(err) => format!("error: {err}"),
            })
            .collect();
        expect![[r#"
            DefaultFlags { case_sensitive: false, space_change_sensitive: false, float_absolute_tolerance: None, float_relative_tolerance: None }
            DefaultFlags { case_sensitive: true, space_change_sensitive: true, float_absolute_tolerance: None, float_relative_tolerance: None }
            DefaultFlags { case_sensitive: false, space_change_sensitive: false, float_absolute_tolerance: Some(1e-6), float_relative_tolerance: Some(1e-6) }
            DefaultFlags { case_sensitive: false, space_change_sensitive: false, float_absolute_tolerance: Some(0.5), float_relative_tolerance: Some(1e-9) }
            error: flag `float_tolerance` needs a value
            error: flag `float_tolerance` needs a finite non-negative number, found `-1`
            error: flag `float_tolerance` needs a finite non-negative number, found `abc`
            error: flag `float_absolute_tolerance` is given twice (float_tolerance sets both tolerances)
            error: flag `case_sensitive` is given twice (float_tolerance sets both tolerances)
            error: unknown default validator flag `ignore_case` (known: case_sensitive, space_change_sensitive, float_absolute_tolerance, float_relative_tolerance, float_tolerance)"#]].assert_eq(&res.join("\n"));
    }
}
