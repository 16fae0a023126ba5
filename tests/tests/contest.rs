//! A small contest judged for real and ranked: reference submissions of two bundled
//! problems play as teams, the judge runs them in the bubblewrap sandbox, and the
//! leaderboard ranks the teams under ICPC rules. Under `CI=true` a missing sandbox fails.

use std::path::{Path, PathBuf};

use judge::sandbox::{BackendKind, SandboxConfig};
use leaderboard::standings::{Place, ProblemResult, Rule, places};
use problems::Verdict;

fn package(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../problems/packages")
        .join(name)
}

fn sandbox_ready() -> bool {
    ci::require::bwrap()
}

/// A team's submissions in time order: (problem, file in the package, contest minute).
type Attempts<'a> = Vec<(&'a problems::Problem, &'a str, u32)>;

/// Judges `file` (relative to the package) and returns its verdict.
async fn verdict(config: &SandboxConfig, problem: &problems::Problem, file: &str) -> Verdict {
    let path = problem.root.join(file);
    let submission =
        judge::Submission::from_file(&path, None, problem.limits.code_bytes).expect("source");
    let options = judge::Options {
        backend: BackendKind::Bwrap,
        run_all: false,
        cache_dir: None,
    };
    judge::judge(problem, &submission, config, &options, &mut |_| {})
        .await
        .expect("judged")
        .verdict
}

#[tokio::test]
async fn judged_submissions_rank_under_icpc_rules() {
    if !sandbox_ready() {
        return;
    }
    // `cargo test --workspace` builds the judge's binaries (its own tests need them), so
    // the supervisor is found beside this test binary's folder.
    let config = SandboxConfig::discover().unwrap_or_else(|err| panic!("{err}"));
    let (sum, _) = problems::load(&package("sum")).expect("sum loads");
    let (ranges, _) = problems::load(&package("rangesum")).expect("rangesum loads");
    // Team, then its submissions in time order: (problem, file, minute).
    let teams: [(&str, Attempts<'_>); 3] = [
        (
            "fast",
            vec![
                (&sum, "submissions/accepted/sum.cpp", 5),
                (&ranges, "submissions/accepted/prefix.cpp", 30),
            ],
        ),
        (
            "careless",
            vec![
                (&sum, "submissions/wrong_answer/int_overflow.cpp", 3),
                (&sum, "submissions/accepted/sum.py", 10),
                (&ranges, "submissions/time_limit_exceeded/naive.cpp", 20),
                (&ranges, "submissions/accepted/prefix.py", 40),
            ],
        ),
        (
            "stuck",
            vec![
                (&sum, "submissions/accepted/sum.c", 50),
                (&ranges, "submissions/time_limit_exceeded/naive.py", 60),
            ],
        ),
    ];
    let rule = Rule::Icpc {
        penalty_minutes: 20,
    };
    let mut scores = Vec::new();
    for (_, submissions) in &teams {
        let mut results = vec![ProblemResult::default(); 2];
        for (problem, file, minute) in submissions {
            let idx = if problem.short_name == "sum" { 0 } else { 1 };
            let cell = &mut results[idx];
            if cell.solved {
                continue;
            }
            match verdict(&config, problem, file).await {
                Verdict::AC => {
                    cell.solved = true;
                    cell.accept_minute = Some(*minute);
                }
                Verdict::CE | Verdict::JE => {}
                _ => cell.rejected += 1,
            }
        }
        scores.push(rule.score(&results, &[]));
    }
    // fast: 2 solved, 5 + 30 = 35; careless: 2 solved, 10 + 20 + 40 + 20 = 90; stuck: 1.
    assert_eq!((scores[0].points, scores[0].penalty), (2.0, 35.0));
    assert_eq!((scores[1].points, scores[1].penalty), (2.0, 90.0));
    assert_eq!((scores[2].points, scores[2].penalty), (1.0, 50.0));
    let places = places(&rule, &scores);
    assert_eq!(
        places,
        vec![
            Place { lo: 1, hi: 1 },
            Place { lo: 2, hi: 2 },
            Place { lo: 3, hi: 3 }
        ]
    );
}
