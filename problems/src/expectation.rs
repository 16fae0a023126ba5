//! What a reference submission is expected to score on a scored problem.
//!
//! Two sources, both optional, give a [`ScoreRange`]:
//!
//! - `submissions/submissions.yaml` (2025-09): its top-level keys are glob patterns over
//!   the submissions' paths relative to `submissions/` (`partially_accepted`,
//!   `partially_accepted/*`, `wrong_answer/int_count.cpp`, `{a,b}.py`); a pattern matches
//!   a submission when it matches its path or one of its parent folders. `*` matches
//!   within one name (never `/`); `{x,y}` expands to both alternatives. Each key maps to a
//!   mapping whose `score` is a number (exactly that score) or a list `[low, high]`
//!   (inclusive). The other keys of the spec are accepted: `language`, `entrypoint`,
//!   `authors`, `model_solution` and `use_for_time_limit` are metadata the judge does not
//!   need, while `permitted`, `required`, `message` and per-test-group expectations are
//!   warned about, since the judge checks only the folder's verdicts and the score.
//! - The legacy marker `@EXPECTED_SCORE@: <number>` anywhere in a submission's source
//!   (as DOMjudge and problemtools read it): exactly that score.
//!
//! When several patterns (and the marker) apply, every one of them must hold: their
//! ranges are intersected, and ranges that do not overlap are an error.

use serde::Serialize;

/// An inclusive range of total scores (`min == max` for an exact score).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoreRange {
    /// The lowest score allowed.
    pub min: f64,
    /// The highest score allowed.
    pub max: f64,
}

impl ScoreRange {
    /// Scores are sums of fractions of group points: a score this close to a bound counts
    /// as on it.
    pub const TOLERANCE: f64 = 1e-6;

    /// Whether `score` lies in the range (within [`ScoreRange::TOLERANCE`]).
    pub fn contains(self, score: f64) -> bool {
        score >= self.min - Self::TOLERANCE && score <= self.max + Self::TOLERANCE
    }

    /// The range both `self` and `other` allow, when they overlap.
    pub fn intersect(self, other: ScoreRange) -> Option<ScoreRange> {
        let res = ScoreRange {
            min: self.min.max(other.min),
            max: self.max.min(other.max),
        };
        (res.min <= res.max + Self::TOLERANCE).then_some(res)
    }
}

impl std::fmt::Display for ScoreRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "[{}, {}]", self.min, self.max)
        }
    }
}

/// One pattern of `submissions.yaml` with the score it requires.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScoreRule {
    pub(crate) pattern: String,
    pub(crate) score: ScoreRange,
}

/// Keys of a `submissions.yaml` entry that hold metadata the judge does not need.
const METADATA_KEYS: &[&str] = &[
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "use_for_time_limit",
];

/// Keys of a `submissions.yaml` entry that the judge does not check.
const UNCHECKED_KEYS: &[&str] = &["permitted", "required", "message"];

/// Problems found in `submissions.yaml`: (is an error, message).
pub(crate) type Found = Vec<(bool, String)>;

/// Reads the score rules of `submissions.yaml` (already parsed as a mapping).
pub(crate) fn score_rules(value: &serde_yaml::Value) -> (Vec<ScoreRule>, Found) {
    let mut rules = Vec::new();
    let mut found = Vec::new();
    let Some(map) = value.as_mapping() else {
        return (rules, found);
    };
    for (key, entry) in map {
        let Some(pattern) = key.as_str() else {
            found.push((
                true,
                format!("key {key:?} must be a glob pattern (a string)"),
            ));
            continue;
        };
        let Some(entry) = entry.as_mapping() else {
            found.push((
                true,
                format!("`{pattern}` must map to a mapping (score, permitted, ...)"),
            ));
            continue;
        };
        for (field, value) in entry {
            let field = field.as_str().unwrap_or("<non-string key>");
            if field == "score" {
                match parse_score(value) {
                    Ok(score) => rules.push(ScoreRule {
                        pattern: pattern.to_owned(),
                        score,
                    }),
                    Err(why) => found.push((true, format!("`{pattern}.score`: {why}"))),
                }
            } else if METADATA_KEYS.contains(&field) {
            } else if UNCHECKED_KEYS.contains(&field) {
                found.push((
                    false,
                    format!(
                        "`{pattern}.{field}` is not checked (the judge checks the folder's verdicts and `score`)"
                    ),
                ));
            } else if field == "sample" || field == "secret" || field.starts_with("secret/") {
                found.push((
                    false,
                    format!("`{pattern}.{field}`: expectations per test group are not checked"),
                ));
            } else {
                found.push((false, format!("unknown key `{pattern}.{field}`")));
            }
        }
    }
    (rules, found)
}

/// A `score` value: a number, or a list of two numbers `[low, high]` with low <= high.
fn parse_score(value: &serde_yaml::Value) -> Result<ScoreRange, String> {
    let number = |v: &serde_yaml::Value| v.as_f64().filter(|x| x.is_finite() && *x >= 0.0);
    let shape = || format!("must be a non-negative number or a list [low, high], found {value:?}");
    match value {
        serde_yaml::Value::Sequence(items) => match items.as_slice() {
            [low, high] => match (number(low), number(high)) {
                (Some(min), Some(max)) if min <= max => Ok(ScoreRange { min, max }),
                (Some(min), Some(max)) => {
                    Err(format!("the low end {min} is above the high end {max}"))
                }
                _ => Err(shape()),
            },
            _ => Err(shape()),
        },
        other => number(other)
            .map(|x| ScoreRange { min: x, max: x })
            .ok_or_else(shape),
    }
}

/// The marker of the legacy convention in a source file.
pub(crate) const SCORE_MARKER: &str = "@EXPECTED_SCORE@:";

/// The score named by `@EXPECTED_SCORE@: <number>` in `source`, when the marker is there;
/// `Err` when it is not followed by a non-negative number.
pub(crate) fn marker_score(source: &str) -> Option<Result<ScoreRange, String>> {
    let at = source.find(SCORE_MARKER)?;
    let rest = &source[at + SCORE_MARKER.len()..];
    let word = rest.split_whitespace().next().unwrap_or("");
    Some(match word.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(ScoreRange { min: x, max: x }),
        _ => Err(format!(
            "`{SCORE_MARKER}` must be followed by a non-negative number, found {word:?}"
        )),
    })
}

/// DOMjudge's marker of the verdicts a submission may get, which BAPCtools reads too.
pub(crate) const RESULTS_MARKER: &str = "@EXPECTED_RESULTS@:";

/// The verdicts named by `@EXPECTED_RESULTS@: A, B` in `source` (DOMjudge's names:
/// `ACCEPTED` or `CORRECT`, `WRONG_ANSWER` or `NO_OUTPUT`, `TIME_LIMIT_EXCEEDED` or
/// `TIMELIMIT`, `RUN_TIME_ERROR` or `RUN_ERROR`, `MEMORY_LIMIT_EXCEEDED`,
/// `OUTPUT_LIMIT_EXCEEDED`, `COMPILER_ERROR`; `-` and `_` alike, any case), when the marker
/// is there; `Err` naming a word it does not know. As in the known folders, a wrong answer
/// allows OLE and a run-time error MLE.
pub(crate) fn marker_results(source: &str) -> Option<Result<Vec<crate::Verdict>, String>> {
    use crate::Verdict;
    let at = source.find(RESULTS_MARKER)?;
    let line = source[at + RESULTS_MARKER.len()..]
        .lines()
        .next()
        .unwrap_or("");
    let mut res = Vec::new();
    for word in line.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let verdicts: &[Verdict] = match word.to_uppercase().replace('-', "_").as_str() {
            "ACCEPTED" | "CORRECT" => &[Verdict::AC],
            "WRONG_ANSWER" | "NO_OUTPUT" => &[Verdict::WA, Verdict::OLE],
            "TIME_LIMIT_EXCEEDED" | "TIMELIMIT" => &[Verdict::TLE],
            "RUN_TIME_ERROR" | "RUN_ERROR" => &[Verdict::RTE, Verdict::MLE],
            "MEMORY_LIMIT_EXCEEDED" | "MEMORY_LIMIT" => &[Verdict::MLE],
            "OUTPUT_LIMIT_EXCEEDED" | "OUTPUT_LIMIT" => &[Verdict::OLE],
            "COMPILER_ERROR" | "COMPILE_ERROR" => &[Verdict::CE],
            _ => {
                return Some(Err(format!(
                    "`{RESULTS_MARKER}` names an unknown verdict {word:?}"
                )));
            }
        };
        for v in verdicts {
            if !res.contains(v) {
                res.push(*v);
            }
        }
    }
    if res.is_empty() {
        return Some(Err(format!("`{RESULTS_MARKER}` names no verdict")));
    }
    Some(Ok(res))
}

/// Whether the glob `pattern` matches `path` (relative, `/`-separated) or one of its
/// parent folders.
pub(crate) fn glob_matches(pattern: &str, path: &str) -> bool {
    let names: Vec<&str> = path.split('/').collect();
    expand_braces(pattern).iter().any(|pattern| {
        let parts: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
        parts.len() <= names.len()
            && parts
                .iter()
                .zip(&names)
                .all(|(part, name)| name_matches(part.as_bytes(), name.as_bytes()))
    })
}

/// Every alternative of the first `{..}` group, expanded recursively.
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in pattern[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let Some(close) = close else {
        // An unclosed brace is a literal character.
        return vec![pattern.to_owned()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(commas);
    bounds.push(close);
    bounds
        .windows(2)
        .flat_map(|w| expand_braces(&format!("{head}{}{tail}", &pattern[w[0] + 1..w[1]])))
        .collect()
}

/// `*` matches any run of characters within one name.
fn name_matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| name_matches(rest, &name[skip..])),
        Some((c, rest)) => name.first() == Some(c) && name_matches(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_files_and_their_folders() {
        let table = [
            ("partially_accepted", "partially_accepted/a.py", true),
            ("partially_accepted/*", "partially_accepted/a.py", true),
            ("partially_accepted/", "partially_accepted/a.py", true),
            ("partially_accepted/*.cpp", "partially_accepted/a.py", false),
            ("*/a.py", "wrong_answer/a.py", true),
            ("*", "accepted/dir/main.py", true),
            ("accepted/dir", "accepted/dir/main.py", true),
            ("accepted/d*", "accepted/dir/main.py", true),
            ("accepted/*.py", "accepted/dir/main.py", false),
            (
                "wrong_answer/{int_count,slow}.cpp",
                "wrong_answer/slow.cpp",
                true,
            ),
            (
                "wrong_answer/{int_count,slow}.cpp",
                "wrong_answer/fast.cpp",
                false,
            ),
            (
                "{accepted,wrong_answer}/a.{py,cpp}",
                "wrong_answer/a.cpp",
                true,
            ),
            ("a{b", "a{b", true),
            ("accepted", "accepted_slow/a.py", false),
            ("accepted/a.py/x", "accepted/a.py", false),
        ];
        for (pattern, path, want) in table {
            assert_eq!(glob_matches(pattern, path), want, "{pattern} on {path}");
        }
    }

    #[test]
    fn scores_are_numbers_or_ranges() {
        let yaml = |text: &str| serde_yaml::from_str::<serde_yaml::Value>(text).expect("yaml");
        let (rules, found) = score_rules(&yaml(
            "partially_accepted:\n  score: [20, 50]\naccepted/a.py:\n  score: 100\n  language: python3\n",
        ));
        assert_eq!(found, vec![]);
        assert_eq!(
            rules,
            vec![
                ScoreRule {
                    pattern: "partially_accepted".to_owned(),
                    score: ScoreRange {
                        min: 20.0,
                        max: 50.0
                    }
                },
                ScoreRule {
                    pattern: "accepted/a.py".to_owned(),
                    score: ScoreRange {
                        min: 100.0,
                        max: 100.0
                    }
                },
            ]
        );
        let (rules, found) = score_rules(&yaml(
            "a:\n  score: [50, 20]\nb:\n  score: high\nc:\n  score: [1, 2, 3]\nd: 7\ne:\n  permitted: [AC]\n  secret/1:\n    score: 3\n  colour: red\n",
        ));
        assert_eq!(rules, vec![]);
        expect_test::expect![[r#"
            [
                (
                    true,
                    "`a.score`: the low end 50 is above the high end 20",
                ),
                (
                    true,
                    "`b.score`: must be a non-negative number or a list [low, high], found String(\"high\")",
                ),
                (
                    true,
                    "`c.score`: must be a non-negative number or a list [low, high], found Sequence [Number(1), Number(2), Number(3)]",
                ),
                (
                    true,
                    "`d` must map to a mapping (score, permitted, ...)",
                ),
                (
                    false,
                    "`e.permitted` is not checked (the judge checks the folder's verdicts and `score`)",
                ),
                (
                    false,
                    "`e.secret/1`: expectations per test group are not checked",
                ),
                (
                    false,
                    "unknown key `e.colour`",
                ),
            ]
        "#]]
        .assert_debug_eq(&found);
    }

    #[test]
    fn the_legacy_marker() {
        assert_eq!(
            marker_score("# @EXPECTED_SCORE@: 20\nprint(1)\n"),
            Some(Ok(ScoreRange {
                min: 20.0,
                max: 20.0
            }))
        );
        assert_eq!(marker_score("print(1)\n"), None);
        assert!(matches!(
            marker_score("// @EXPECTED_SCORE@: lots\n"),
            Some(Err(_))
        ));
    }

    #[test]
    fn expected_results_markers() {
        use crate::Verdict::*;
        assert_eq!(marker_results("int main() {}"), None);
        assert_eq!(
            marker_results("# @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\nx = 1\n"),
            Some(Ok(vec![AC, TLE]))
        );
        assert_eq!(
            marker_results("// @EXPECTED_RESULTS@: correct,run-error\n"),
            Some(Ok(vec![AC, RTE, MLE]))
        );
        assert_eq!(
            marker_results("// @EXPECTED_RESULTS@: WRONG_ANSWER, SLOW\n"),
            Some(Err(
                "`@EXPECTED_RESULTS@:` names an unknown verdict \"SLOW\"".to_owned()
            ))
        );
        assert!(matches!(
            marker_results("// @EXPECTED_RESULTS@:\n"),
            Some(Err(_))
        ));
    }

    #[test]
    fn ranges_intersect_and_tolerate_rounding() {
        let range = ScoreRange {
            min: 20.0,
            max: 50.0,
        };
        assert!(range.contains(50.0 + 1e-9));
        assert!(!range.contains(50.1));
        assert_eq!(
            range.intersect(ScoreRange {
                min: 40.0,
                max: 60.0
            }),
            Some(ScoreRange {
                min: 40.0,
                max: 50.0
            })
        );
        assert_eq!(
            range.intersect(ScoreRange {
                min: 60.0,
                max: 60.0
            }),
            None
        );
    }
}
