//! Scripted teams: stand-ins for human participants that submit the packages' own
//! reference solutions (and some of their wrong ones) at set times of the demo.
//!
//! The schedule is a pure function of the problems, the teams' strengths, the demo's
//! length and the seed ([`schedule`]); [`run`] carries it out against the contest server
//! through the CLICS API, as a team's browser would.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agent::client::contest::ContestClient;

/// One problem of the demo with the files the scripted teams may submit.
#[derive(Debug, Clone)]
pub(crate) struct ScriptProblem {
    /// The problem id on the server.
    pub(crate) id: String,
    /// An accepted reference solution (path, language id).
    pub(crate) accepted: Option<(PathBuf, String)>,
    /// A wrong one (wrong answer, run-time error or compile error), when the package has one.
    pub(crate) wrong: Option<(PathBuf, String)>,
}

/// A scripted team: its token and how many of the problems (in order) it solves.
#[derive(Debug, Clone)]
pub(crate) struct ScriptTeam {
    /// The team id.
    pub(crate) id: String,
    /// Its token.
    pub(crate) token: String,
    /// The fraction of problems it solves (the first ones in contest order).
    pub(crate) strength: f64,
    /// How fast it works (1.0: its last solve near the demo's end).
    pub(crate) pace: f64,
}

/// One planned submission.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Planned {
    /// Seconds from the demo's start.
    pub(crate) at: f64,
    /// The team.
    pub(crate) team: usize,
    /// The problem id.
    pub(crate) problem: String,
    /// The file.
    pub(crate) file: PathBuf,
    /// The language id.
    pub(crate) language: String,
    /// A reference solution (true) or a wrong one.
    pub(crate) accepted: bool,
}

/// The server's language id for a source file, by extension.
pub(crate) fn language_of(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "py" => Some("python3"),
        "cpp" | "cc" | "cxx" => Some("cpp"),
        "c" => Some("c"),
        "java" => Some("java"),
        _ => None,
    }
}

/// The first file (sorted, Python then C++ then C then Java) of the package's
/// `submissions/<folder>` for any of `folders`.
pub(crate) fn pick(package: &Path, folders: &[&str]) -> Option<(PathBuf, String)> {
    let rank = |p: &Path| match language_of(p) {
        Some("python3") => 0,
        Some("cpp") => 1,
        Some("c") => 2,
        Some(_) => 3,
        None => 9,
    };
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(package.join("submissions").join(folder)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && language_of(p).is_some())
            .collect();
        files.sort_by_key(|p| (rank(p), p.clone()));
        if let Some(first) = files.into_iter().next() {
            let lang = language_of(&first).unwrap_or("python3").to_owned();
            return Some((first, lang));
        }
    }
    None
}

/// A deterministic number in [0, 1) from the seed and a few integers (splitmix64).
fn unit(seed: u64, a: u64, b: u64) -> f64 {
    let mut z = seed
        .wrapping_add(a.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(b.wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The plan: each team solves its share of the problems in order, spread over the demo
/// (`seconds` long) at its pace with some jitter; before every other accept it submits
/// the package's wrong solution when there is one. Sorted by time.
pub(crate) fn schedule(
    problems: &[ScriptProblem],
    teams: &[ScriptTeam],
    seconds: f64,
    seed: u64,
) -> Vec<Planned> {
    let mut plan = Vec::new();
    let solvable: Vec<&ScriptProblem> = problems.iter().filter(|p| p.accepted.is_some()).collect();
    let n = solvable.len();
    for (t, team) in teams.iter().enumerate() {
        let solves = ((n as f64) * team.strength).round() as usize;
        for (j, problem) in solvable.iter().take(solves).enumerate() {
            let Some((file, language)) = &problem.accepted else {
                continue;
            };
            let base = (j + 1) as f64 / (solves + 1) as f64;
            let jitter = 0.15 * (unit(seed, t as u64, j as u64) - 0.5) / (solves as f64 + 1.0);
            let at = (seconds * 0.9 * (base + jitter) * team.pace).clamp(3.0, seconds * 0.95);
            if (t + j) % 2 == 1
                && let Some((wrong, wrong_lang)) = &problem.wrong
            {
                plan.push(Planned {
                    at: (at * 0.85).max(2.0),
                    team: t,
                    problem: problem.id.clone(),
                    file: wrong.clone(),
                    language: wrong_lang.clone(),
                    accepted: false,
                });
            }
            plan.push(Planned {
                at,
                team: t,
                problem: problem.id.clone(),
                file: file.clone(),
                language: language.clone(),
                accepted: true,
            });
        }
    }
    plan.sort_by(|a, b| a.at.total_cmp(&b.at));
    plan
}

/// Carries out the plan from `began` against the server; a refused submission is said
/// (on stderr) and skipped. Returns how many were submitted.
pub(crate) async fn run(
    server: &str,
    contest: &str,
    teams: &[ScriptTeam],
    plan: Vec<Planned>,
    began: Instant,
) -> usize {
    let mut sent = 0;
    for planned in plan {
        let due = began + Duration::from_secs_f64(planned.at);
        tokio::time::sleep_until(due.into()).await;
        let team = &teams[planned.team];
        let source = match std::fs::read_to_string(&planned.file) {
            Ok(s) => s,
            Err(err) => {
                eprintln!(
                    "\ndemo: scripted team {}: cannot read {}: {err}",
                    team.id,
                    planned.file.display()
                );
                continue;
            }
        };
        let client = match ContestClient::new(server, contest, &team.token, Duration::from_secs(30))
        {
            Ok(c) => c,
            Err(err) => {
                eprintln!("\ndemo: scripted team {}: {err}", team.id);
                continue;
            }
        };
        match client
            .submit(&planned.problem, &planned.language, &source)
            .await
        {
            Ok(_) => sent += 1,
            Err(err) => eprintln!(
                "\ndemo: scripted team {} could not submit {}: {err}",
                team.id, planned.problem
            ),
        }
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems() -> Vec<ScriptProblem> {
        (0..4)
            .map(|i| ScriptProblem {
                id: format!("p{i}"),
                accepted: Some((PathBuf::from(format!("p{i}.py")), "python3".into())),
                wrong: (i % 2 == 0).then(|| (PathBuf::from(format!("w{i}.cpp")), "cpp".into())),
            })
            .collect()
    }

    fn team(id: &str, strength: f64) -> ScriptTeam {
        ScriptTeam {
            id: id.into(),
            token: "t".into(),
            strength,
            pace: 1.0,
        }
    }

    #[test]
    fn a_schedule_gives_each_team_its_share_in_time_and_is_reproducible() {
        let teams = [team("a", 1.0), team("b", 0.5), team("c", 0.0)];
        let plan = schedule(&problems(), &teams, 100.0, 7);
        assert_eq!(plan, schedule(&problems(), &teams, 100.0, 7));
        let accepts = |t: usize| plan.iter().filter(|p| p.team == t && p.accepted).count();
        assert_eq!((accepts(0), accepts(1), accepts(2)), (4, 2, 0));
        assert!(plan.iter().all(|p| (2.0..=95.0).contains(&p.at)));
        assert!(plan.windows(2).all(|w| w[0].at <= w[1].at));
        // A wrong submission comes before its team's accept of the same problem.
        for wrong in plan.iter().filter(|p| !p.accepted) {
            let accept = plan
                .iter()
                .find(|p| p.accepted && p.team == wrong.team && p.problem == wrong.problem)
                .expect("an accept follows");
            assert!(wrong.at < accept.at);
        }
        assert!(plan.iter().any(|p| !p.accepted), "some wrong submissions");
    }

    #[test]
    fn languages_come_from_extensions() {
        assert_eq!(language_of(Path::new("a.py")), Some("python3"));
        assert_eq!(language_of(Path::new("a.cpp")), Some("cpp"));
        assert_eq!(language_of(Path::new("a.rs")), None);
    }
}
