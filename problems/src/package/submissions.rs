//! The reference submissions under `submissions/<folder>/`: the verdicts each folder
//! allows, and the score each submission must get, from `submissions/submissions.yaml` and
//! the `@EXPECTED_SCORE@` marker in its source (see [`crate::expectation`]).
//!
//! A folder the judge does not know (`mixed`, `slow_accepted`, ...) gets its expectations
//! where the 2025-09 format puts them: the `permitted` and `required` verdicts of every
//! pattern of `submissions.yaml` that matches the submission, else those of DOMjudge's
//! `@EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED` line in its source (the marker of
//! BAPCtools' `mixed` folder). The judge stops at the first
//! case that fails, so the verdict it sees must be both permitted and required (`AC`
//! only when every case may be and one must be accepted); with several patterns, every
//! one must allow it. `WA` covers OLE and `RTE` covers MLE, as in the known folders. A
//! submission of an unknown folder that neither gives expectations is skipped with a
//! warning: the spec's default for such a folder (any of AC, WA, TLE, RTE) would check
//! nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::diagnostics::Ctx;
use super::{ReferenceSubmission, folder, yaml};
use crate::Verdict;
use crate::expectation::{self, ScoreRange, ScoreRule};

/// The verdicts `permitted` and `required` name (2025-09).
const SPEC_VERDICTS: [&str; 4] = ["AC", "WA", "TLE", "RTE"];

/// One pattern of `submissions.yaml` with `permitted` or `required` verdicts.
#[derive(Debug, Clone, PartialEq)]
struct VerdictRule {
    pattern: String,
    /// The judge's verdicts a submission it matches may end with.
    allowed: Vec<Verdict>,
}

/// The judge's verdicts that a first failing case (or all cases accepted) may have under
/// `permitted` and `required` (see the module's documentation).
fn allowed_verdicts(permitted: &[&str], required: &[&str]) -> Vec<Verdict> {
    let both = |v: &str| permitted.contains(&v) && required.contains(&v);
    let mut res = Vec::new();
    for (spec, verdicts) in [
        ("AC", &[Verdict::AC][..]),
        ("WA", &[Verdict::WA, Verdict::OLE][..]),
        ("TLE", &[Verdict::TLE][..]),
        ("RTE", &[Verdict::RTE, Verdict::MLE][..]),
    ] {
        if both(spec) {
            res.extend_from_slice(verdicts);
        }
    }
    res
}

/// The patterns of `submissions.yaml` (parsed, at `path`) that give `permitted` or
/// `required` verdicts; a value that is not a list of AC, WA, TLE and RTE is an error.
fn verdict_rules(ctx: &mut Ctx, path: &Path, value: &Value) -> Vec<VerdictRule> {
    let Some(map) = value.as_mapping() else {
        return Vec::new();
    };
    let mut rules = Vec::new();
    for (pattern, entry) in map {
        let (Some(pattern), Some(entry)) = (pattern.as_str(), entry.as_mapping()) else {
            continue;
        };
        let mut lists = [SPEC_VERDICTS.to_vec(), SPEC_VERDICTS.to_vec()];
        let mut given = false;
        for (list, field) in lists.iter_mut().zip(["permitted", "required"]) {
            let Some(value) = entry.get(field) else {
                continue;
            };
            let names = value.as_sequence().and_then(|items| {
                items
                    .iter()
                    .map(|it| SPEC_VERDICTS.into_iter().find(|v| it.as_str() == Some(*v)))
                    .collect::<Option<Vec<_>>>()
            });
            match names {
                Some(names) => {
                    *list = names;
                    given = true;
                }
                None => ctx.error(
                    path,
                    format!(
                        "`{pattern}.{field}` must be a list of AC, WA, TLE and RTE, found {}",
                        yaml::shown(value)
                    ),
                ),
            }
        }
        if given {
            let allowed = allowed_verdicts(&lists[0], &lists[1]);
            if allowed.is_empty() {
                ctx.error(
                    path,
                    format!(
                        "`{pattern}`: no verdict the judge sees is both permitted and required"
                    ),
                );
            }
            rules.push(VerdictRule {
                pattern: pattern.to_owned(),
                allowed,
            });
        }
    }
    rules
}

/// Every submission in the folders of `dir` (`submissions/`), with its expected score.
pub(super) fn read(ctx: &mut Ctx, dir: &Path, scoring: bool) -> Vec<ReferenceSubmission> {
    let Ok(folders) = folder::sorted_entries(dir) else {
        ctx.warning(dir, "no reference submissions");
        return Vec::new();
    };
    let yaml_path = dir.join("submissions.yaml");
    let value = if yaml_path.is_file() {
        yaml::read(ctx, &yaml_path)
    } else {
        None
    };
    let rules = value
        .as_ref()
        .map(|v| verdict_rules(ctx, &yaml_path, v))
        .unwrap_or_default();
    let mut applied = BTreeSet::new();
    let mut res = Vec::new();
    for path in folders.into_iter().filter(|p| p.is_dir()) {
        res.extend(read_folder(ctx, &path, scoring, &rules, &mut applied));
    }
    if !res.iter().any(|s| s.folder == "accepted") {
        ctx.warning(dir, "no accepted submission");
    }
    read_expected_scores(ctx, dir, scoring, &mut res, value.as_ref(), &applied);
    res
}

/// The submissions of the unknown folder `dir`, each expected to get a verdict that the
/// `rules` matching it allow; those no rule matches are skipped with a warning. The
/// patterns used are added to `applied`.
fn read_unknown_folder(
    ctx: &mut Ctx,
    dir: &Path,
    rules: &[VerdictRule],
    applied: &mut BTreeSet<String>,
) -> Vec<ReferenceSubmission> {
    let name = folder::file_name(dir);
    let mut res = Vec::new();
    let mut skipped = Vec::new();
    for path in folder::list_entries(dir) {
        let relative = format!("{name}/{}", folder::file_name(&path));
        let matching: Vec<&VerdictRule> = rules
            .iter()
            .filter(|rule| expectation::glob_matches(&rule.pattern, &relative))
            .collect();
        let Some((first, rest)) = matching.split_first() else {
            match marker_results(ctx, &path) {
                Some(expected) => res.push(ReferenceSubmission {
                    path,
                    folder: name.clone(),
                    expected,
                    score: None,
                }),
                None => skipped.push(relative),
            }
            continue;
        };
        let mut expected = first.allowed.clone();
        for rule in rest {
            expected.retain(|v| rule.allowed.contains(v));
        }
        applied.extend(matching.iter().map(|rule| rule.pattern.clone()));
        if expected.is_empty() && rest.iter().all(|r| !r.allowed.is_empty()) {
            let patterns = matching
                .iter()
                .map(|r| format!("`{}`", r.pattern))
                .collect::<Vec<_>>()
                .join(", ");
            ctx.error(
                &path,
                format!("the patterns {patterns} of submissions.yaml allow no verdict together"),
            );
        }
        res.push(ReferenceSubmission {
            path,
            folder: name.clone(),
            expected,
            score: None,
        });
    }
    if !skipped.is_empty() && res.is_empty() {
        ctx.warning(
            dir,
            "unknown submissions folder, skipped: the judge knows accepted, wrong_answer, \
             time_limit_exceeded, run_time_error, memory_limit_exceeded, \
             output_limit_exceeded, compile_error, rejected, brute_force and \
             partially_accepted",
        );
    } else if !skipped.is_empty() {
        ctx.warning(
            dir,
            format!(
                "skipped {}: an unknown folder, and no pattern of submissions.yaml gives \
                 `permitted` or `required` verdicts for it",
                skipped.join(", ")
            ),
        );
    }
    res
}

/// The submissions in one folder of `submissions/`, each expected to get a verdict the
/// folder allows; for an unknown folder, those `rules` give (see [`read_unknown_folder`]).
fn read_folder(
    ctx: &mut Ctx,
    dir: &Path,
    scoring: bool,
    rules: &[VerdictRule],
    applied: &mut BTreeSet<String>,
) -> Vec<ReferenceSubmission> {
    let name = folder::file_name(dir);
    let Some(expected) = Verdict::for_submission_folder(&name) else {
        return read_unknown_folder(ctx, dir, rules, applied);
    };
    if name == "partially_accepted" && !scoring {
        ctx.error(
            dir,
            "partially accepted submissions need a scored problem (`type: scoring` or group scores)",
        );
    }
    folder::list_entries(dir)
        .into_iter()
        .map(|path| ReferenceSubmission {
            path,
            folder: name.clone(),
            expected: expected.to_vec(),
            score: None,
        })
        .collect()
}

/// One place that gives a submission an expected score.
struct ScoreSource {
    /// How a message names it: `` `accepted.score` `` or `@EXPECTED_SCORE@`.
    name: String,
    /// The file it is in.
    path: PathBuf,
    score: ScoreRange,
}

/// Sets each submission's expected score from `submissions.yaml` (parsed: `value`) and
/// its `@EXPECTED_SCORE@` marker (see [`crate::expectation`]). `applied` are the patterns
/// whose verdicts gave an unknown folder's submissions their expectations.
fn read_expected_scores(
    ctx: &mut Ctx,
    dir: &Path,
    scoring: bool,
    submissions: &mut [ReferenceSubmission],
    value: Option<&Value>,
    applied: &BTreeSet<String>,
) {
    let yaml_path = dir.join("submissions.yaml");
    let rules = value
        .map(|value| read_score_rules(ctx, &yaml_path, value, dir, submissions, applied))
        .unwrap_or_default();
    for submission in submissions.iter_mut() {
        let relative = relative_path(dir, submission).unwrap_or_default();
        let mut sources = rule_sources(&rules, &yaml_path, &relative);
        sources.extend(marker_source(ctx, &submission.path));
        submission.score = combine(ctx, &sources, &relative, scoring);
    }
}

/// The rules of `submissions.yaml` (parsed: `value`), with its problems reported and a
/// warning for each rule that matches no submission. That `permitted` and `required` are
/// not checked is not said of the `applied` patterns, which gave unknown folders' verdicts.
fn read_score_rules(
    ctx: &mut Ctx,
    yaml_path: &Path,
    value: &Value,
    dir: &Path,
    submissions: &[ReferenceSubmission],
    applied: &BTreeSet<String>,
) -> Vec<ScoreRule> {
    let (rules, found) = expectation::score_rules(value);
    for (is_error, message) in found {
        let used = applied.iter().any(|pattern| {
            ["permitted", "required"]
                .iter()
                .any(|field| message.starts_with(&format!("`{pattern}.{field}` is not checked")))
        });
        if is_error {
            ctx.error(yaml_path, message);
        } else if !used {
            ctx.warning(yaml_path, message);
        }
    }
    for rule in &rules {
        let matched = submissions.iter().any(|s| {
            relative_path(dir, s).is_some_and(|p| expectation::glob_matches(&rule.pattern, &p))
        });
        if !matched {
            ctx.warning(
                yaml_path,
                format!("`{}` matches no submission", rule.pattern),
            );
        }
    }
    rules
}

/// The submission's path relative to `dir` (`submissions/`), with `/` separators.
fn relative_path(dir: &Path, submission: &ReferenceSubmission) -> Option<String> {
    submission
        .path
        .strip_prefix(dir)
        .ok()
        .map(folder::slash_path)
}

/// The rules of `submissions.yaml` whose pattern matches `relative`.
fn rule_sources(rules: &[ScoreRule], yaml_path: &Path, relative: &str) -> Vec<ScoreSource> {
    rules
        .iter()
        .filter(|rule| expectation::glob_matches(&rule.pattern, relative))
        .map(|rule| ScoreSource {
            name: format!("`{}.score`", rule.pattern),
            path: yaml_path.to_path_buf(),
            score: rule.score,
        })
        .collect()
}

/// The verdicts of the `@EXPECTED_RESULTS@` marker in the source file `path` (DOMjudge's,
/// which BAPCtools' `mixed` folders use), when it has one; a malformed marker is an error
/// and gives none.
fn marker_results(ctx: &mut Ctx, path: &Path) -> Option<Vec<Verdict>> {
    let source = std::fs::read(path).ok()?;
    match expectation::marker_results(&String::from_utf8_lossy(&source))? {
        Ok(verdicts) => Some(verdicts),
        Err(why) => {
            ctx.error(path, why);
            None
        }
    }
}

/// The `@EXPECTED_SCORE@` marker in the source file `path`, when it has one; a malformed
/// marker is an error.
fn marker_source(ctx: &mut Ctx, path: &Path) -> Option<ScoreSource> {
    if !path.is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    match expectation::marker_score(&text)? {
        Ok(score) => Some(ScoreSource {
            name: expectation::SCORE_MARKER.trim_end_matches(':').to_owned(),
            path: path.to_path_buf(),
            score,
        }),
        Err(message) => {
            ctx.error(path, message);
            None
        }
    }
}

/// The range every source allows; `None` when there is no source, or (an error) when the
/// problem is not scored. A source that rules out the first is an error and is left out.
fn combine(
    ctx: &mut Ctx,
    sources: &[ScoreSource],
    relative: &str,
    scoring: bool,
) -> Option<ScoreRange> {
    let (first, rest) = sources.split_first()?;
    if !scoring {
        ctx.error(
            &first.path,
            format!(
                "{} gives {relative} an expected score, but the problem is not scored",
                first.name
            ),
        );
        return None;
    }
    let mut range = first.score;
    for source in rest {
        match range.intersect(source.score) {
            Some(it) => range = it,
            None => ctx.error(
                &source.path,
                format!(
                    "{} expects {} of {relative}, which {} ({}) rules out",
                    source.name, source.score, first.name, first.score
                ),
            ),
        }
    }
    Some(range)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::fixture::{errors, good_package, with_problem_yaml, write};
    use crate::load;

    /// `good_package` made scored (two groups of 40 and 60 points) with `files` added.
    fn scored_package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = with_problem_yaml(
            "problem_format_version: 2025-09\nname: Add\nuuid: x\ntype: scoring\nlimits:\n  time_limit: 1\n",
        );
        std::fs::remove_dir_all(dir.path().join("data/secret")).expect("rm");
        for (group, points) in [("g1", 40), ("g2", 60)] {
            write(
                dir.path(),
                &format!("data/secret/{group}/test_group.yaml"),
                &format!("max_score: {points}\nscore_aggregation: min\n"),
            );
            write(dir.path(), &format!("data/secret/{group}/1.in"), "1 1\n");
            write(dir.path(), &format!("data/secret/{group}/1.ans"), "2\n");
        }
        for (path, text) in files {
            write(dir.path(), path, text);
        }
        dir
    }

    fn expected_scores(dir: &Path) -> Vec<String> {
        let (problem, diagnostics) = load(dir).expect("loads");
        assert_eq!(diagnostics, vec![]);
        assert!(problem.scoring);
        problem
            .submissions
            .iter()
            .map(|s| {
                let name = s
                    .path
                    .strip_prefix(dir.join("submissions"))
                    .expect("inside");
                let score = s.score.map(|it| it.to_string()).unwrap_or("-".into());
                format!("{} {score}", name.display())
            })
            .collect()
    }

    #[test]
    fn expected_scores_from_submissions_yaml_and_the_marker() {
        let dir = scored_package(&[
            (
                "submissions/partially_accepted/small.py",
                "# @EXPECTED_SCORE@: 40\nprint(2)\n",
            ),
            ("submissions/partially_accepted/half.cpp", "int main() {}\n"),
            ("submissions/wrong_answer/big.py", "print(0)\n"),
            (
                "submissions/submissions.yaml",
                "partially_accepted:\n  score: [30, 60]\npartially_accepted/half.cpp:\n  score: 60\n  authors: Someone\n'{accepted,wrong_answer}/a*.py':\n  score: 100\n",
            ),
        ]);
        assert_eq!(
            expected_scores(dir.path()),
            vec![
                "accepted/a.py 100",
                "partially_accepted/half.cpp 60",
                "partially_accepted/small.py 40",
                "run_time_error/crash.py -",
                "wrong_answer/big.py -",
            ]
        );
    }

    #[test]
    fn bad_expected_scores_name_file_and_field() {
        let dir = scored_package(&[
            (
                "submissions/partially_accepted/small.py",
                "# @EXPECTED_SCORE@: 90\n",
            ),
            (
                "submissions/partially_accepted/odd.py",
                "# @EXPECTED_SCORE@: many\n",
            ),
            (
                "submissions/submissions.yaml",
                "partially_accepted:\n  score: [30, 60]\naccepted:\n  score: [100]\nnothing/*:\n  score: 1\n",
            ),
        ]);
        expect_test::expect![[r#"
            [
                "error: submissions/submissions.yaml: `accepted.score`: must be a non-negative number or a list [low, high], found Sequence [Number(100)]",
                "warning: submissions/submissions.yaml: `nothing/*` matches no submission",
                "error: submissions/partially_accepted/odd.py: `@EXPECTED_SCORE@:` must be followed by a non-negative number, found \"many\"",
                "error: submissions/partially_accepted/small.py: @EXPECTED_SCORE@ expects 90 of partially_accepted/small.py, which `partially_accepted.score` ([30, 60]) rules out",
            ]
        "#]]
        .assert_debug_eq(&errors(dir.path()));
        // Scores and partially accepted submissions need a scored problem.
        let dir = good_package();
        write(
            dir.path(),
            "submissions/partially_accepted/p.py",
            "print(1)\n",
        );
        write(
            dir.path(),
            "submissions/submissions.yaml",
            "accepted:\n  score: 100\n",
        );
        expect_test::expect![[r#"
            [
                "error: submissions/partially_accepted: partially accepted submissions need a scored problem (`type: scoring` or group scores)",
                "error: submissions/submissions.yaml: `accepted.score` gives accepted/a.py an expected score, but the problem is not scored",
            ]
        "#]]
        .assert_debug_eq(&errors(dir.path()));
    }

    /// Each submission with the verdicts it is expected to get.
    fn expectations(dir: &Path) -> Vec<String> {
        let (problem, _) = load(dir).expect("loads");
        problem
            .submissions
            .iter()
            .map(|s| {
                let name = s
                    .path
                    .strip_prefix(dir.join("submissions"))
                    .expect("inside");
                let expected = s
                    .expected
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>();
                format!("{} {}", name.display(), expected.join("|"))
            })
            .collect()
    }

    #[test]
    fn unknown_folders_take_their_verdicts_from_submissions_yaml() {
        let dir = good_package();
        let root = dir.path();
        for path in [
            "submissions/mixed/slow_or_wrong.py",
            "submissions/mixed/tle.cpp",
            "submissions/slow_accepted/a.py",
            "submissions/check_manually/x.py",
            "submissions/not_described/y.py",
        ] {
            write(root, path, "print(1)\n");
        }
        write(
            root,
            "submissions/submissions.yaml",
            // `mixed`: permitted AC, WA, TLE, required WA or TLE; its tle.cpp must also
            // satisfy a second pattern (required TLE). `slow_accepted`: the default
            // `required` (every verdict) with permitted AC. `check_manually`: RTE only.
            "mixed:\n  permitted: [AC, WA, TLE]\n  required: [WA, TLE]\n\
             mixed/tle.cpp:\n  required: [TLE]\n\
             slow_accepted:\n  permitted: [AC]\n\
             check_manually/*.py:\n  permitted: [AC, RTE]\n  required: [RTE]\n",
        );
        assert_eq!(
            expectations(root),
            vec![
                "accepted/a.py AC",
                "check_manually/x.py RTE|MLE",
                "mixed/slow_or_wrong.py WA|OLE|TLE",
                "mixed/tle.cpp TLE",
                "run_time_error/crash.py RTE|MLE",
                "slow_accepted/a.py AC",
            ]
        );
        // The folder no pattern describes is skipped with a warning; the patterns that
        // gave verdicts are not said to be unchecked.
        expect_test::expect![[r#"
            [
                "warning: submissions/not_described: unknown submissions folder, skipped: the judge knows accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error, rejected, brute_force and partially_accepted",
            ]
        "#]]
        .assert_debug_eq(&errors(root));
    }

    #[test]
    fn bad_verdict_lists_name_the_pattern_and_the_field() {
        let dir = good_package();
        let root = dir.path();
        write(root, "submissions/odd/a.py", "print(1)\n");
        write(root, "submissions/odd/b.py", "print(1)\n");
        write(
            root,
            "submissions/submissions.yaml",
            "odd/a.py:\n  permitted: [AC, MLE]\nodd/b.py:\n  permitted: [AC]\n  required: [TLE]\n",
        );
        expect_test::expect![[r#"
            [
                "error: submissions/submissions.yaml: `odd/a.py.permitted` must be a list of AC, WA, TLE and RTE, found - AC\n- MLE",
                "error: submissions/submissions.yaml: `odd/b.py`: no verdict the judge sees is both permitted and required",
                "error: submissions/odd/b.py: the patterns `odd/b.py` of submissions.yaml allow no verdict together",
                "warning: submissions/odd: skipped odd/a.py: an unknown folder, and no pattern of submissions.yaml gives `permitted` or `required` verdicts for it",
                "warning: submissions/submissions.yaml: `odd/a.py.permitted` is not checked (the judge checks the folder's verdicts and `score`)",
            ]
        "#]]
        .assert_debug_eq(&errors(root));
    }
}
