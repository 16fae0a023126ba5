//! Loads every bundled package under `problems/packages/` and checks it is complete.

use std::path::{Path, PathBuf};

use problems::{Severity, Verdict};

fn packages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("packages")
}

/// Every folder under `packages/`, by name.
fn bundled() -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = std::fs::read_dir(packages_dir())
        .expect("packages folder")
        .map(|it| it.expect("entry").path())
        .filter(|it| it.is_dir())
        .collect();
    res.sort();
    res
}

#[test]
fn every_bundled_package_loads_without_errors() {
    for dir in bundled() {
        let (problem, diagnostics) = match problems::load(&dir) {
            Ok(it) => it,
            Err(err) => panic!("{}: {err}", dir.display()),
        };
        let errors: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
        // `permitted`/`required` in `submissions.yaml` state our own folders
        // (`memory_limit_exceeded`, `output_limit_exceeded`) in 2025-09's verdicts for the
        // ecosystem's tools; the judge checks the folder's own verdict and says it does not
        // check them.
        let warnings: Vec<_> = diagnostics
            .iter()
            .filter(|d| {
                !d.message.ends_with(
                    "is not checked (the judge checks the folder's verdicts and `score`)",
                )
            })
            .collect();
        assert!(
            warnings.is_empty(),
            "{}: warnings {warnings:?}",
            dir.display()
        );
        let cases = problem.test_cases();
        let samples = cases.iter().filter(|c| c.is_sample).count();
        let secret = cases.len() - samples;
        assert!(
            (1..=3).contains(&samples),
            "{}: {samples} samples",
            dir.display()
        );
        assert!(
            (3..=8).contains(&secret),
            "{}: {secret} secret tests",
            dir.display()
        );
        assert!(
            problem.statement.is_some(),
            "{}: no statement",
            dir.display()
        );
        let accepted: Vec<_> = problem
            .submissions
            .iter()
            .filter(|s| s.expected == [Verdict::AC])
            .collect();
        let languages: std::collections::BTreeSet<_> = accepted
            .iter()
            .filter_map(|s| s.path.extension())
            .map(|e| e.to_string_lossy().into_owned())
            .collect();
        assert!(
            languages.len() >= 2,
            "{}: accepted in {languages:?}",
            dir.display()
        );
        assert!(
            problem.submissions.iter().any(|s| s.folder != "accepted"),
            "{}: no rejected submission",
            dir.display()
        );
        let size: u64 = walk(&dir)
            .iter()
            .map(|p| p.metadata().expect("metadata").len())
            .sum();
        assert!(size < 10 << 20, "{}: {size} bytes", dir.display());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut res = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            res.extend(walk(&path));
        } else {
            res.push(path);
        }
    }
    res
}

/// The corpus at a glance: limits, validation, test counts and submissions per folder.
/// A change to any package shows up here (update with `UPDATE_EXPECT=1`).
#[test]
fn bundled_corpus_summary() {
    let mut lines = Vec::new();
    for dir in bundled() {
        let (problem, _) = problems::load(&dir).expect("loads");
        let cases = problem.test_cases();
        let samples = cases.iter().filter(|c| c.is_sample).count();
        let validation = match &problem.validation {
            problems::Validation::Default(flags) if *flags == Default::default() => {
                "default".to_owned()
            }
            problems::Validation::Default(flags) => format!(
                "default abs={:?} rel={:?}",
                flags.float_absolute_tolerance, flags.float_relative_tolerance
            ),
            problems::Validation::Custom { convention, .. } => {
                let source = problem
                    .output_validator_source()
                    .expect("custom validation has one validator source");
                let source = source.strip_prefix(&dir).expect("inside the package");
                let convention = format!("{convention:?}").to_lowercase();
                format!("custom {convention} {}", source.display())
            }
        };
        let mut folders = std::collections::BTreeMap::<&str, Vec<String>>::new();
        for submission in &problem.submissions {
            let file = submission
                .path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            folders
                .entry(submission.folder.as_str())
                .or_default()
                .push(file);
        }
        lines.push(format!(
            "{}: time {:?}, memory {} MiB, output {} MiB, {validation}, {samples} sample + {} secret",
            problem.short_name,
            problem.limits.time,
            problem.limits.memory_bytes >> 20,
            problem.limits.output_bytes >> 20,
            cases.len() - samples,
        ));
        for (folder, files) in folders {
            lines.push(format!("    {folder}: {}", files.join(" ")));
        }
    }
    expect_test::expect![[r#"
        closestapproach: time 1s, memory 256 MiB, output 8 MiB, default abs=Some(1e-6) rel=Some(1e-6), 2 sample + 4 secret
            accepted: Approach.java approach.cpp approach.py
            run_time_error: divide_by_zero.py
            time_limit_exceeded: simulate.py
            wrong_answer: no_clamp.py two_decimals.cpp
        deliveryroutes: time 2s, memory 256 MiB, output 8 MiB, default, 2 sample + 5 secret
            accepted: Dijkstra.java dijkstra.cpp dijkstra.py
            run_time_error: matrix.cpp
            time_limit_exceeded: bellman_ford.cpp
            wrong_answer: bfs.py int_distances.cpp
        divisiblesubset: time 1s, memory 256 MiB, output 8 MiB, custom kattis output_validators/check/validate.cpp, 2 sample + 6 secret
            accepted: longest.py prefix.cpp
            time_limit_exceeded: residue_table.cpp
            wrong_answer: garbage.py off_by_one.cpp
        guessnumber: time 1s, memory 256 MiB, output 8 MiB, custom kattis output_validators/interactor/interactor.py, 1 sample + 6 secret
            accepted: binary.cpp binary.py
            run_time_error: accepted_then_crash.cpp
            time_limit_exceeded: wait_forever.py
            wrong_answer: gives_up_early.py linear.py off_by_one.cpp over_limit_then_abort.cpp
        networklinks: time 1s, memory 256 MiB, output 8 MiB, default, 1 sample + 4 secret
            accepted: Links.java dsu.cpp dsu.py
            run_time_error: recursive_find.py
            time_limit_exceeded: no_compression.cpp relabel.py
            wrong_answer: only_direct.py yes_no_swapped.cpp
        pairsums: time 1s, memory 256 MiB, output 8 MiB, default, 1 sample + 7 secret
            accepted: hash.cpp hash.py
            partially_accepted: small_only.py sorted_int_count.cpp
            time_limit_exceeded: quadratic.cpp
            wrong_answer: int_count.cpp
        pascalrows: time 1s, memory 256 MiB, output 16 MiB, default, 1 sample + 5 secret
            accepted: rows.c rows.cpp rows.py
            output_limit_exceeded: never_stops.cpp
            time_limit_exceeded: recursive.c
            wrong_answer: no_modulo.cpp
        rangesum: time 1s, memory 256 MiB, output 8 MiB, default, 1 sample + 4 secret
            accepted: RangeSums.java prefix.cpp prefix.py
            run_time_error: no_bounds.cpp
            time_limit_exceeded: naive.cpp naive.py
            wrong_answer: int_prefix.cpp off_by_one.py
        risingprices: time 1s, memory 256 MiB, output 8 MiB, default, 2 sample + 6 secret
            accepted: lis.c lis.cpp lis.py
            run_time_error: recursive.py
            time_limit_exceeded: quadratic.cpp
            wrong_answer: greedy.cpp non_strict.py
        spreadletters: time 1s, memory 256 MiB, output 8 MiB, custom kattis output_validator/validate.cpp, 2 sample + 6 secret
            accepted: alternate.cpp greedy.py
            run_time_error: recursive.py
            wrong_answer: floor_half.cpp spaced.py
        streammax: time 1s, memory 32 MiB, output 8 MiB, default, 2 sample + 5 secret
            accepted: kadane.c kadane.cpp
            memory_limit_exceeded: prefix_sums.c store_all.cpp
            time_limit_exceeded: all_stretches.c
            wrong_answer: empty_allowed.c int_sum.cpp
        sum: time 1s, memory 256 MiB, output 8 MiB, default, 2 sample + 5 secret
            accepted: Sum.java sum.c sum.cpp sum.py
            run_time_error: exit_code.py null_deref.cpp
            time_limit_exceeded: spin.c
            wrong_answer: first_only.py int_overflow.cpp"#]].assert_eq(&lines.join("\n"));
}
