//! The reference submissions under `submissions/<folder>/`: the verdicts each folder
//! allows, and the score each submission must get, from `submissions/submissions.yaml` and
//! the `@EXPECTED_SCORE@` marker in its source (see [`crate::expectation`]).

use std::path::{Path, PathBuf};

use super::diagnostics::Ctx;
use super::{ReferenceSubmission, folder, yaml};
use crate::Verdict;
use crate::expectation::{self, ScoreRange, ScoreRule};

/// Every submission in the folders of `dir` (`submissions/`), with its expected score.
pub(super) fn read(ctx: &mut Ctx, dir: &Path, scoring: bool) -> Vec<ReferenceSubmission> {
    let Ok(folders) = folder::sorted_entries(dir) else {
        ctx.warning(dir, "no reference submissions");
        return Vec::new();
    };
    let mut res = Vec::new();
    for path in folders.into_iter().filter(|p| p.is_dir()) {
        res.extend(read_folder(ctx, &path, scoring));
    }
    if !res.iter().any(|s| s.folder == "accepted") {
        ctx.warning(dir, "no accepted submission");
    }
    read_expected_scores(ctx, dir, scoring, &mut res);
    res
}

/// The submissions in one folder of `submissions/`, each expected to get a verdict the
/// folder allows; none, with an error, for an unknown folder.
fn read_folder(ctx: &mut Ctx, dir: &Path, scoring: bool) -> Vec<ReferenceSubmission> {
    let name = folder::file_name(dir);
    let Some(expected) = Verdict::for_submission_folder(&name) else {
        ctx.warning(
            dir,
            "unknown submissions folder, skipped: the judge knows accepted, wrong_answer, \
             time_limit_exceeded, run_time_error, memory_limit_exceeded, \
             output_limit_exceeded, compile_error, rejected, brute_force and \
             partially_accepted",
        );
        return Vec::new();
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

/// Sets each submission's expected score from `submissions.yaml` and its
/// `@EXPECTED_SCORE@` marker (see [`crate::expectation`]).
fn read_expected_scores(
    ctx: &mut Ctx,
    dir: &Path,
    scoring: bool,
    submissions: &mut [ReferenceSubmission],
) {
    let yaml_path = dir.join("submissions.yaml");
    let rules = read_score_rules(ctx, &yaml_path, dir, submissions);
    for submission in submissions.iter_mut() {
        let relative = relative_path(dir, submission).unwrap_or_default();
        let mut sources = rule_sources(&rules, &yaml_path, &relative);
        sources.extend(marker_source(ctx, &submission.path));
        submission.score = combine(ctx, &sources, &relative, scoring);
    }
}

/// The rules of `submissions.yaml` when there is one, with its problems reported and a
/// warning for each rule that matches no submission.
fn read_score_rules(
    ctx: &mut Ctx,
    yaml_path: &Path,
    dir: &Path,
    submissions: &[ReferenceSubmission],
) -> Vec<ScoreRule> {
    if !yaml_path.is_file() {
        return Vec::new();
    }
    let Some(value) = yaml::read(ctx, yaml_path) else {
        return Vec::new();
    };
    let (rules, found) = expectation::score_rules(&value);
    for (is_error, message) in found {
        if is_error {
            ctx.error(yaml_path, message);
        } else {
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
}
