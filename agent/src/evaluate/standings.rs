//! The humans' side of `agent evaluate`: their standings, read from a CLICS event feed,
//! a CLICS contest package (one group of its teams) or Codeforces rows ([`read`],
//! [`read_path`]), the rule that scores them, and which standings problem each package is
//! ([`align`]), with a feed or a contest package restricted to the problems given (a
//! package's board rebuilt from each team's cells).

use std::collections::BTreeMap;

use anyhow::{Context, bail};
use std::path::Path;

use leaderboard::clics::{Feed, Package};
use leaderboard::codeforces::Row;
use leaderboard::standings::Rule;

use super::EvaluateArgs;

/// The humans' side.
pub(super) enum Humans {
    Feed(Box<Feed>),
    Codeforces(Vec<Row>),
    /// A contest package and the group its humans are limited to (before alignment).
    Package(Box<Package>, Option<String>),
    /// A contest package's group on the problems given, ranked from the cells (after
    /// alignment).
    Board(Box<leaderboard::clics::Standings>),
}

/// The humans' standings as read, before the packages are matched to them.
pub(super) struct Standings {
    /// The humans.
    pub(super) humans: Humans,
    /// The standings' problems (a points round's by label; none for the rows of an
    /// ICPC-style round, which name none).
    pub(super) problems: Vec<StandingsProblem>,
    /// What the report says about the contest.
    pub(super) contest: Contest,
}

/// The contest the standings are of.
pub(super) struct Contest {
    /// Its length in minutes.
    pub(super) minutes: u32,
    /// The rule that scores it.
    pub(super) rule: Rule,
    /// When it took place, when the standings say.
    pub(super) date: Option<String>,
    /// The standings, described for the report.
    pub(super) source: String,
}

/// The standings matched with the packages.
pub(super) struct Aligned {
    /// The humans (a feed restricted to the problems given).
    pub(super) humans: Humans,
    /// `order[k]` is the standings index of the runs' `k`-th problem.
    pub(super) order: Vec<usize>,
    /// The problems of the (restricted) standings.
    pub(super) count: usize,
    /// What the restriction did, for the report.
    pub(super) restriction: Option<String>,
}

/// Reads the humans' standings that `args` names (`--feed` or `--codeforces`).
pub(super) fn read(args: &EvaluateArgs) -> anyhow::Result<Standings> {
    if let Some(path) = &args.feed {
        read_feed(path).with_context(|| format!("--feed {}", path.display()))
    } else if let Some(path) = &args.codeforces {
        read_codeforces(args, path)
    } else {
        bail!("give the humans' standings: --feed FILE or --codeforces FILE");
    }
}

/// The standings at `path`: a CLICS contest package (a folder, or a `.zip`), its humans
/// limited to `group`, or else a CLICS event feed (no group then).
pub(super) fn read_path(path: &Path, group: Option<&str>) -> anyhow::Result<Standings> {
    let is_zip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    if path.is_dir() || is_zip {
        read_package(path, group)
    } else if let Some(g) = group {
        bail!(
            "{}: a group (@{g}) needs a contest package (a folder or a zip); an event feed \
             is ranked whole",
            path.display()
        )
    } else {
        read_feed(path)
    }
}

/// A contest package, checked: its scoreboard must equal the board rebuilt from its cells.
fn read_package(path: &Path, group: Option<&str>) -> anyhow::Result<Standings> {
    let package = leaderboard::clics::read_package(path)?;
    package.check()?;
    // The group must exist; the standings are made again once the problems are known.
    package.standings(group, &[])?;
    let source = format!(
        "CLICS contest package {} ({}, {}), {}",
        path.display(),
        package.contest.name,
        package.standings_file,
        group.map_or_else(|| "all teams".to_owned(), |g| format!("group {g}"))
    );
    let (contest, problems) = (package.contest.clone(), package.problems.clone());
    let rule = package.rule();
    let humans = Humans::Package(Box::new(package), group.map(str::to_owned));
    Ok(clics_standings(humans, &contest, &problems, rule, source))
}

/// The standings of a CLICS contest (a feed's or a package's).
fn clics_standings(
    humans: Humans,
    contest: &leaderboard::clics::Contest,
    problems: &[leaderboard::clics::Problem],
    rule: Rule,
    source: String,
) -> Standings {
    Standings {
        humans,
        problems: problems
            .iter()
            .map(|p| (p.id.clone(), p.label.clone(), p.name.clone()))
            .collect(),
        contest: Contest {
            minutes: u32::try_from(contest.duration.millis() / 60_000).unwrap_or(0),
            rule,
            date: contest.start_time.map(|t| t.to_string()),
            source,
        },
    }
}

/// A CLICS event feed.
fn read_feed(path: &Path) -> anyhow::Result<Standings> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let feed = leaderboard::clics::read_feed(&text, &path.display().to_string())?;
    let rule = Rule::Icpc {
        penalty_minutes: feed.penalty_minutes()?,
    };
    let contest = feed.contest()?.clone();
    let source = format!("CLICS event feed {} ({})", path.display(), contest.name);
    let problems = feed.problems.clone();
    Ok(clics_standings(
        Humans::Feed(Box::new(feed)),
        &contest,
        &problems,
        rule,
        source,
    ))
}

/// Codeforces rows with ratings.
fn read_codeforces(args: &EvaluateArgs, path: &Path) -> anyhow::Result<Standings> {
    let rows = leaderboard::codeforces::read_rows(path)
        .with_context(|| format!("--codeforces {}", path.display()))?;
    let rule = codeforces_rule(
        &rows,
        &args.problem_points,
        args.penalty_minutes,
        args.contest_minutes,
    )
    .with_context(|| format!("--codeforces {}", path.display()))?;
    // A points round's problems by label (the rows name none).
    let problems: Vec<StandingsProblem> = (0..args.problem_points.len())
        .map(|i| {
            let label = label(i);
            (label.clone(), label, String::new())
        })
        .collect();
    Ok(Standings {
        humans: Humans::Codeforces(rows),
        problems,
        contest: Contest {
            minutes: args.contest_minutes,
            rule,
            date: None,
            source: format!("Codeforces rows {}", path.display()),
        },
    })
}

/// Which standings problem each package (`(id, name)`, in work order) is: a feed names
/// its problems, so they are matched and the feed is restricted to them; Codeforces rows
/// name none, so there the packages are the round's problems in order (or by `--match`).
pub(super) fn align(
    humans: Humans,
    problems: &[StandingsProblem],
    packages: &[(String, String)],
    matches: &[String],
) -> anyhow::Result<Aligned> {
    let (humans, order, count, restriction) = match humans {
        Humans::Feed(feed) => {
            let order = match_problems(packages, problems, matches)?;
            let mut keep = order.clone();
            keep.sort_unstable();
            let restricted = keep.len() < problems.len();
            let labels: Vec<String> = keep.iter().map(|&i| problems[i].1.clone()).collect();
            let feed = restrict(*feed, &keep);
            // Indices into the restricted feed's problems.
            let order: Vec<usize> = order
                .iter()
                .map(|i| keep.iter().position(|k| k == i).unwrap_or(0))
                .collect();
            let note = restricted.then(|| {
                format!(
                    "the humans' standings are restricted to the {} problems given ({} of {}): \
                     the other problems' submissions are left out and the board is rebuilt",
                    keep.len(),
                    labels.join(", "),
                    problems.len()
                )
            });
            (Humans::Feed(Box::new(feed)), order, keep.len(), note)
        }
        Humans::Package(package, group) => {
            let order = match_problems(packages, problems, matches)?;
            let mut keep = order.clone();
            keep.sort_unstable();
            let board = package.standings(group.as_deref(), &keep)?;
            let order: Vec<usize> = order
                .iter()
                .map(|i| keep.iter().position(|k| k == i).unwrap_or(0))
                .collect();
            let labels: Vec<&str> = keep.iter().map(|&i| problems[i].1.as_str()).collect();
            let who = group
                .as_deref()
                .map_or_else(|| "all teams".to_owned(), |g| format!("group {g}"));
            let note = if keep.len() < problems.len() {
                format!(
                    "the humans' standings ({who}, {} teams) are restricted to the {} problems \
                     given ({} of {}): the ranks are recomputed from each team's cells of \
                     those problems (tries and accept minute, {} penalty minutes a rejected \
                     try), not taken from the scoreboard",
                    board.rows.len(),
                    keep.len(),
                    labels.join(", "),
                    problems.len(),
                    penalty(board.rule)
                )
            } else {
                format!(
                    "the humans' standings ({who}, {} teams) on every problem, ranked from \
                     each team's cells ({} penalty minutes a rejected try)",
                    board.rows.len(),
                    penalty(board.rule)
                )
            };
            (
                Humans::Board(Box::new(board)),
                order,
                keep.len(),
                Some(note),
            )
        }
        Humans::Board(_) => bail!("the standings are aligned already"),
        Humans::Codeforces(rows) if problems.is_empty() => {
            let n = packages.len();
            (Humans::Codeforces(rows), (0..n).collect(), n, None)
        }
        Humans::Codeforces(rows) => {
            // A points round: the model's points on the problems it was given; the rows
            // are totals, so the humans keep their points on the others.
            let (n, count) = (packages.len(), problems.len());
            if n > count {
                bail!(
                    "{n} packages for a round of {count} problems (--problem-points gives \
                     each problem's points)"
                );
            }
            let order = if matches.is_empty() {
                (0..n).collect()
            } else {
                match_problems(packages, problems, matches)?
            };
            let note = (n < count).then(|| {
                let labels: Vec<&str> = order.iter().map(|&i| problems[i].1.as_str()).collect();
                format!(
                    "the model works {n} of the round's {count} problems ({}) and scores 0 on \
                     the others; the humans' rows are totals over all {count}, so they cannot \
                     be restricted",
                    labels.join(", ")
                )
            });
            (Humans::Codeforces(rows), order, count, note)
        }
    };
    Ok(Aligned {
        humans,
        order,
        count,
        restriction,
    })
}

/// The penalty minutes of an ICPC rule.
fn penalty(rule: Rule) -> u32 {
    match rule {
        Rule::Icpc { penalty_minutes } | Rule::ExtendedIcpc { penalty_minutes } => penalty_minutes,
        Rule::Ioi | Rule::Codeforces { .. } => 0,
    }
}

/// One standings problem: (id, label, name).
pub(super) type StandingsProblem = (String, String, String);

fn normalize(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Which standings problem each package is, by `--match` or by name/id.
pub(super) fn match_problems(
    packages: &[(String, String)],
    standings: &[StandingsProblem],
    explicit: &[String],
) -> anyhow::Result<Vec<usize>> {
    let mut given = BTreeMap::new();
    for m in explicit {
        let (pkg, prob) = m
            .split_once('=')
            .with_context(|| format!("--match {m}: expected PACKAGE=PROBLEM"))?;
        given.insert(pkg.to_owned(), prob.to_owned());
    }
    let mut out = Vec::new();
    for (id, name) in packages {
        let found = if let Some(want) = given.get(id) {
            standings
                .iter()
                .position(|(pid, label, _)| pid == want || label == want)
        } else {
            standings.iter().position(|(pid, label, pname)| {
                // "C: Champernowne Count" names the problem after its label.
                let bare = pname
                    .strip_prefix(&format!("{label}:"))
                    .unwrap_or(pname)
                    .trim();
                let pid_bare = pid.rsplit_once('-').map_or(pid.as_str(), |(a, _)| a);
                [normalize(bare), normalize(pid), normalize(pid_bare)]
                    .iter()
                    .any(|n| !n.is_empty() && (*n == normalize(id) || *n == normalize(name)))
            })
        };
        let Some(index) = found else {
            bail!(
                "package {id} ({name}) matches no problem of the standings ({}): use --match {id}=LABEL",
                standings
                    .iter()
                    .map(|(pid, label, _)| format!("{label} {pid}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        if out.contains(&index) {
            bail!(
                "two packages match problem {} of the standings",
                standings[index].1
            );
        }
        out.push(index);
    }
    Ok(out)
}

/// The feed restricted to `keep` (indices into its problems): the other problems, their
/// submissions and those submissions' judgements removed.
fn restrict(mut feed: Feed, keep: &[usize]) -> Feed {
    let ids: Vec<String> = keep.iter().map(|&i| feed.problems[i].id.clone()).collect();
    feed.problems.retain(|p| ids.contains(&p.id));
    feed.submissions.retain(|s| ids.contains(&s.problem_id));
    let subs: std::collections::BTreeSet<String> =
        feed.submissions.iter().map(|s| s.id.clone()).collect();
    feed.judgements.retain(|j| subs.contains(&j.submission_id));
    feed
}

/// The label of the `index`-th problem of a round: A, B, ...
fn label(index: usize) -> String {
    u8::try_from(index).ok().filter(|i| *i < 26).map_or_else(
        || format!("P{}", index + 1),
        |i| char::from(b'A' + i).to_string(),
    )
}

/// The most a row of an ICPC-style round can score: its points are a solved count.
const MAX_SOLVED: f64 = 26.0;

/// The rule of a Codeforces round's rows: a points round when each problem's points are
/// given, an ICPC-style round (`penalty_minutes` per rejection) otherwise. The rows must
/// agree: an ICPC-style row counts solved problems (a whole number, at most 26), while a
/// points round's solver holds at least 30% of a problem's points.
fn codeforces_rule(
    rows: &[Row],
    problem_points: &[f64],
    penalty_minutes: u32,
    minutes: u32,
) -> anyhow::Result<Rule> {
    let top = rows.iter().map(|r| r.points).fold(0.0, f64::max);
    let points_rows = top > MAX_SOLVED || rows.iter().any(|r| r.points.fract() != 0.0);
    if problem_points.is_empty() {
        if points_rows {
            bail!(
                "the rows score up to {top} points, so the round is scored by points \
                 (Codeforces `type: \"CF\"`): give each problem's points in the round's order \
                 with --problem-points (as the round announced them, e.g. 500 1000 1500)"
            );
        }
        return Ok(Rule::ExtendedIcpc { penalty_minutes });
    }
    if let Some(bad) = problem_points
        .iter()
        .find(|p| !(p.is_finite() && **p > 0.0))
    {
        bail!("--problem-points {bad}: each problem's points must be a positive number");
    }
    if !points_rows && top > 0.0 {
        bail!(
            "--problem-points is for a points round, but these rows count solved problems (at \
             most {top}) with penalty minutes: an ICPC-style round (educational, Div. 3 or 4); \
             leave --problem-points out"
        );
    }
    Ok(Rule::Codeforces {
        duration_minutes: minutes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(id: &str, label: &str, name: &str) -> StandingsProblem {
        (id.into(), label.into(), name.into())
    }

    #[test]
    fn packages_match_standings_problems_by_name_id_or_flag() {
        let standings = [
            sp("ThreeDice-1", "A", "A: Three Dice"),
            sp("ChampernowneCount-1", "C", "C: Champernowne Count"),
            sp("x", "D", "Something"),
        ];
        let packages = [
            (
                "champernownecount".to_owned(),
                "Champernowne Count".to_owned(),
            ),
            ("threedice".to_owned(), "Three Dice".to_owned()),
        ];
        assert_eq!(
            match_problems(&packages, &standings, &[]).expect("matches"),
            [1, 0]
        );
        let odd = [("mine".to_owned(), "Mine".to_owned())];
        let err = match_problems(&odd, &standings, &[]).expect_err("no match");
        assert!(err.to_string().contains("--match mine=LABEL"), "{err}");
        assert_eq!(
            match_problems(&odd, &standings, &["mine=D".to_owned()]).expect("by label"),
            [2]
        );
    }

    fn row(points: f64, penalty: f64) -> Row {
        Row {
            handle: "h".into(),
            points,
            penalty,
            old_rating: 1500,
            delta: None,
        }
    }

    #[test]
    fn codeforces_rows_and_problem_points_must_agree_on_the_rule() {
        let icpc = [row(3.0, 40.0), row(1.0, 5.0), row(0.0, 0.0)];
        let points = [row(2480.0, 0.0), row(498.0, 0.0), row(0.0, 0.0)];
        assert_eq!(
            codeforces_rule(&icpc, &[], 10, 120).expect("an ICPC-style round"),
            Rule::ExtendedIcpc {
                penalty_minutes: 10
            }
        );
        assert_eq!(
            codeforces_rule(&points, &[500.0, 1000.0], 10, 135).expect("a points round"),
            Rule::Codeforces {
                duration_minutes: 135
            }
        );
        let err = codeforces_rule(&points, &[], 10, 120).expect_err("points rows, no points");
        assert!(
            err.to_string().contains("up to 2480 points")
                && err.to_string().contains("--problem-points"),
            "{err}"
        );
        // A fractional score is a points round's too (hacks are whole, decay is not always).
        let half = [row(3.5, 0.0)];
        assert!(codeforces_rule(&half, &[], 10, 120).is_err());
        let err = codeforces_rule(&icpc, &[500.0], 10, 120).expect_err("solved counts, points");
        assert!(
            err.to_string().contains("leave --problem-points out"),
            "{err}"
        );
        let err = codeforces_rule(&points, &[500.0, -1.0], 10, 120).expect_err("negative");
        assert!(err.to_string().contains("--problem-points -1"), "{err}");
        assert_eq!(
            (label(0), label(25), label(26)),
            ("A".into(), "Z".into(), "P27".into())
        );
    }
}
