//! A CLICS Contest Package (ccs-specs, "Contest Package"): a folder holding the Contest
//! API's objects as files, read as the humans' final standings.
//!
//! The package is a folder or a zip archive of one (its files at the top or in a single
//! folder there). Files read (all JSON, 2023-06 objects): `contest.json` (required), `problems.json`
//! (required), `teams.json` (required), `groups.json` and `organizations.json` (when
//! present), and the standings: `event-feed.ndjson` when the package has one (its ICPC
//! board, folded by [`super::board`]), else `scoreboard.json` (required then).
//!
//! A scoreboard carries no submissions, so each team's result on a problem is taken from
//! its cell: solved, the accept minute (`time`), and `num_judged - 1` penalised tries
//! before a solve (`num_judged` when unsolved). [`Package::check`] rebuilds the ranks,
//! solved counts and penalty times from these cells under the contest's penalty and
//! ICPC's tie-break (the earlier last accept ranks ahead), and requires them to equal the
//! file's rows. A scoreboard ranks its teams in sections: DOMjudge ranks each category
//! on its own (NWERC 2023's companies are ranked 1 to 7 again after the contestants), so
//! a section starts wherever a row's rank is below the row above it, and each section
//! is rebuilt on its own.
//!
//! [`Package::standings`] gives the humans of one group (or all), restricted to some of
//! the problems, with their scores and places recomputed from the cells: the ranks of a
//! restricted board are not the file's.
//!
//! Errors name the file and the field: a scoreboard row whose team `teams.json` lacks,
//! a cell naming a problem `problems.json` lacks, a team naming an unknown group or
//! organization, a label no problem has, a row that disagrees with its cells.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::feed::{Feed, read_feed};
use super::objects::{Contest, Group, Organization, Problem, ScoreboardRow, Team};
use crate::standings::{Place, ProblemResult, Rule, Score, places};
use crate::{Error, Result};

/// One team's row of the package's final standings, as the package gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackageRow {
    /// The team's id (in `teams.json`).
    pub team_id: String,
    /// Its rank, as the file gives it (for a feed: as its board folds it).
    pub rank: u32,
    /// Solved count, as the file gives it.
    pub num_solved: u32,
    /// Penalty minutes, as the file gives it.
    pub total_time: u32,
    /// One result a problem, in the order of [`Package::problems`].
    pub cells: Vec<ProblemResult>,
}

/// A contest package, read and cross-checked.
#[derive(Debug, Clone)]
pub struct Package {
    /// Where it was read from, for messages.
    pub source: String,
    /// The contest.
    pub contest: Contest,
    /// The problems, by `ordinal`.
    pub problems: Vec<Problem>,
    /// The teams.
    pub teams: Vec<Team>,
    /// The groups (none when the package has no `groups.json`).
    pub groups: Vec<Group>,
    /// The organizations (none when the package has no `organizations.json`).
    pub organizations: Vec<Organization>,
    /// The final standings, in the file's order.
    pub rows: Vec<PackageRow>,
    /// The file the rows came from: `scoreboard.json` or `event-feed.ndjson`.
    pub standings_file: &'static str,
}

/// The humans of one group on some of the problems, ranked from their cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    /// The rule: ICPC with the contest's penalty.
    pub rule: Rule,
    /// The problems kept (indices into [`Package::problems`]), in contest order.
    pub problems: Vec<usize>,
    /// One row a team of the group, best first.
    pub rows: Vec<StandingsRow>,
}

/// A team in [`Standings`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingsRow {
    /// The team's id.
    pub team_id: String,
    /// Its results on the problems kept.
    pub cells: Vec<ProblemResult>,
    /// Its score on them.
    pub score: Score,
    /// Its place among the group on them.
    pub place: Place,
}

impl Standings {
    /// The teams' scores, best first.
    pub fn scores(&self) -> Vec<Score> {
        self.rows.iter().map(|r| r.score).collect()
    }

    /// How many teams solved each problem kept, in the order of [`Standings::problems`].
    pub fn solvers(&self) -> Vec<usize> {
        (0..self.problems.len())
            .map(|k| self.rows.iter().filter(|r| r.cells[k].solved).count())
            .collect()
    }
}

const SCOREBOARD: &str = "scoreboard.json";
const FEED: &str = "event-feed.ndjson";

/// The package's files: a folder, or a zip archive (its files at the top, or in one
/// folder at the top).
enum Files {
    Folder(PathBuf),
    Zip {
        path: PathBuf,
        /// Each file's name without the archive's top folder, and its text.
        texts: HashMap<String, String>,
    },
}

impl Files {
    fn open(path: &Path) -> Result<Files> {
        if path.is_dir() {
            return Ok(Files::Folder(path.to_owned()));
        }
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let what = path.display().to_string();
        let mut archive = zip::ZipArchive::new(file)
            .map_err(|e| Error::file(&what, format!("neither a folder nor a zip archive: {e}")))?;
        let mut texts = HashMap::new();
        for i in 0..archive.len() {
            let mut entry = archive
                .by_index(i)
                .map_err(|e| Error::file(&what, format!("entry {i}: {e}")))?;
            let name = entry.name().to_owned();
            let base = match name.split_once('/') {
                Some((_, rest)) if !rest.contains('/') => rest.to_owned(),
                Some(_) => continue,
                None => name.clone(),
            };
            if !(base.ends_with(".json") || base.ends_with(".ndjson")) {
                continue;
            }
            let mut text = String::new();
            std::io::Read::read_to_string(&mut entry, &mut text)
                .map_err(|e| Error::file(&format!("{what}:{name}"), e))?;
            texts.entry(base).or_insert(text);
        }
        Ok(Files::Zip {
            path: path.to_owned(),
            texts,
        })
    }

    /// How a file of the package is named in messages.
    fn name(&self, file: &str) -> String {
        match self {
            Files::Folder(dir) => dir.join(file).display().to_string(),
            Files::Zip { path, .. } => format!("{}:{file}", path.display()),
        }
    }

    fn text(&self, file: &str) -> Result<Option<String>> {
        match self {
            Files::Folder(dir) => {
                let path = dir.join(file);
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok(Some(text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(source) => Err(Error::Io { path, source }),
                }
            }
            Files::Zip { texts, .. } => Ok(texts.get(file).cloned()),
        }
    }

    fn json<T: DeserializeOwned>(&self, file: &str) -> Result<Option<T>> {
        let Some(text) = self.text(file)? else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| Error::file(&self.name(file), e))
    }

    fn required<T: DeserializeOwned>(&self, file: &str, why: &str) -> Result<T> {
        self.json(file)?
            .ok_or_else(|| Error::file(&self.name(file), format!("missing: {why}")))
    }
}

/// Reads the contest package at `path` (a folder or a zip archive) and checks its files
/// against each other (not yet the board against its cells: [`Package::check`]).
///
/// Errors: a required file missing or not the JSON expected (the file and, from the
/// parser, the field), or the references above.
pub fn read_package(path: &Path) -> Result<Package> {
    let files = Files::open(path)?;
    let contest: Contest = files.required("contest.json", "a package needs it")?;
    let mut problems: Vec<Problem> = files.required("problems.json", "a package needs it")?;
    problems.sort_by_key(|p| p.ordinal);
    let teams: Vec<Team> = files.required("teams.json", "a package needs it")?;
    let groups: Vec<Group> = files.json("groups.json")?.unwrap_or_default();
    let organizations: Vec<Organization> = files.json("organizations.json")?.unwrap_or_default();
    check_teams(&files.name("teams.json"), &teams, &groups, &organizations)?;
    let (rows, standings_file) = if let Some(text) = files.text(FEED)? {
        (
            feed_rows(&files.name(FEED), &text, &problems, &teams)?,
            FEED,
        )
    } else {
        let board: ScoreboardFile = files.required(SCOREBOARD, "no standings in the package")?;
        (
            scoreboard_rows(&files.name(SCOREBOARD), &board.rows, &problems, &teams)?,
            SCOREBOARD,
        )
    };
    Ok(Package {
        source: path.display().to_string(),
        contest,
        problems,
        teams,
        groups,
        organizations,
        rows,
        standings_file,
    })
}

/// `scoreboard.json`: only its rows are read (`event_id`, `time` and `state` may be
/// absent from an exported file).
#[derive(Deserialize)]
struct ScoreboardFile {
    rows: Vec<ScoreboardRow>,
}

fn check_teams(
    what: &str,
    teams: &[Team],
    groups: &[Group],
    organizations: &[Organization],
) -> Result<()> {
    let group_ids: HashSet<&str> = groups.iter().map(|g| g.id.as_str()).collect();
    let org_ids: HashSet<&str> = organizations.iter().map(|o| o.id.as_str()).collect();
    for (idx, team) in teams.iter().enumerate() {
        for g in team.group_ids.iter().flatten() {
            if !group_ids.contains(g.as_str()) {
                return Err(Error::row(
                    what,
                    idx + 1,
                    "group_ids",
                    format!("team {}: group {g} is not in groups.json", team.id),
                ));
            }
        }
        if let Some(o) = &team.organization_id
            && !organizations.is_empty()
            && !org_ids.contains(o.as_str())
        {
            return Err(Error::row(
                what,
                idx + 1,
                "organization_id",
                format!(
                    "team {}: organization {o} is not in organizations.json",
                    team.id
                ),
            ));
        }
    }
    Ok(())
}

fn scoreboard_rows(
    what: &str,
    rows: &[ScoreboardRow],
    problems: &[Problem],
    teams: &[Team],
) -> Result<Vec<PackageRow>> {
    let team_ids: HashSet<&str> = teams.iter().map(|t| t.id.as_str()).collect();
    let problem_idx: HashMap<&str, usize> = problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let mut seen = HashSet::new();
    rows.iter()
        .enumerate()
        .map(|(idx, row)| {
            let at = |field, message: String| Error::row(what, idx + 1, field, message);
            if !team_ids.contains(row.team_id.as_str()) {
                return Err(at(
                    "team_id",
                    format!("team {} is not in teams.json", row.team_id),
                ));
            }
            if !seen.insert(row.team_id.as_str()) {
                return Err(at("team_id", format!("team {} has two rows", row.team_id)));
            }
            let super::objects::RowScore::PassFail {
                num_solved,
                total_time,
                ..
            } = row.score
            else {
                return Err(at(
                    "score",
                    "a scored row; only pass-fail boards are read".into(),
                ));
            };
            let mut cells = vec![ProblemResult::default(); problems.len()];
            for cell in &row.problems {
                let Some(&k) = problem_idx.get(cell.problem_id.as_str()) else {
                    return Err(at(
                        "problems",
                        format!("problem {} is not in problems.json", cell.problem_id),
                    ));
                };
                let solved = cell.solved.unwrap_or(false);
                if solved && cell.time.is_none() {
                    return Err(at(
                        "problems",
                        format!("problem {}: solved without a `time`", cell.problem_id),
                    ));
                }
                cells[k] = ProblemResult {
                    solved,
                    rejected: cell.num_judged.saturating_sub(u32::from(solved)),
                    accept_minute: if solved { cell.time } else { None },
                    points: None,
                };
            }
            Ok(PackageRow {
                team_id: row.team_id.clone(),
                rank: row.rank,
                num_solved,
                total_time,
                cells,
            })
        })
        .collect()
}

fn feed_rows(
    what: &str,
    text: &str,
    problems: &[Problem],
    teams: &[Team],
) -> Result<Vec<PackageRow>> {
    let mut feed: Feed = read_feed(text, what)?;
    // The package's own objects stand for the feed's where the feed lacks them.
    if feed.problems.is_empty() {
        feed.problems = problems.to_vec();
    }
    if feed.teams.is_empty() {
        feed.teams = teams.to_vec();
    }
    let board = feed.board(false)?;
    let index: HashMap<&str, usize> = problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    board
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![ProblemResult::default(); problems.len()];
            for cell in &row.problems {
                let k = *index.get(cell.problem_id.as_str()).ok_or_else(|| {
                    Error::file(
                        what,
                        format!("problem {} is not in problems.json", cell.problem_id),
                    )
                })?;
                cells[k] = ProblemResult {
                    solved: cell.solved,
                    rejected: cell.rejected,
                    accept_minute: cell.accept_minute,
                    points: None,
                };
            }
            Ok(PackageRow {
                team_id: row.team_id.clone(),
                rank: u32::try_from(row.place.lo).unwrap_or(u32::MAX),
                num_solved: row.score.points as u32,
                total_time: row.score.penalty as u32,
                cells,
            })
        })
        .collect()
}

impl Package {
    /// The rule: ICPC with the contest's `penalty_time` (20 when absent, the ICPC default).
    pub fn rule(&self) -> Rule {
        Rule::Icpc {
            penalty_minutes: self.contest.penalty_time.unwrap_or(20),
        }
    }

    /// The index of the problem with this label or id.
    ///
    /// Errors: no problem has it; the message lists the labels.
    pub fn problem_index(&self, key: &str) -> Result<usize> {
        self.problems
            .iter()
            .position(|p| p.label == key || p.id == key)
            .ok_or_else(|| {
                Error::file(
                    &format!("{}: problems.json", self.source),
                    format!(
                        "no problem has the `label` or `id` {key} (labels: {})",
                        self.problems
                            .iter()
                            .map(|p| p.label.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }

    /// Rebuilds each ranked section of the standings from its cells and checks it equals
    /// the file's rows: rank, solved count and penalty time.
    ///
    /// Errors: the first row that differs, with what the cells give and what the file
    /// says.
    pub fn check(&self) -> Result<()> {
        let rule = self.rule();
        let what = format!("{}: {}", self.source, self.standings_file);
        let mut start = 0;
        while start < self.rows.len() {
            let mut end = start + 1;
            while end < self.rows.len() && self.rows[end].rank >= self.rows[end - 1].rank {
                end += 1;
            }
            let section = &self.rows[start..end];
            let scores: Vec<Score> = section.iter().map(|r| rule.score(&r.cells, &[])).collect();
            let ranks = places(&rule, &scores);
            for (k, row) in section.iter().enumerate() {
                let at = |field, cells: String, file: u32| {
                    Error::row(
                        &what,
                        start + k + 1,
                        field,
                        format!(
                            "team {}: the cells give {cells}, the file says {file}",
                            row.team_id
                        ),
                    )
                };
                if scores[k].points as u32 != row.num_solved {
                    return Err(at(
                        "score.num_solved",
                        scores[k].points.to_string(),
                        row.num_solved,
                    ));
                }
                if scores[k].penalty as u32 != row.total_time {
                    return Err(at(
                        "score.total_time",
                        scores[k].penalty.to_string(),
                        row.total_time,
                    ));
                }
                if ranks[k].lo as u32 != row.rank {
                    return Err(at("rank", ranks[k].lo.to_string(), row.rank));
                }
            }
            start = end;
        }
        Ok(())
    }

    /// The humans of `group` (all teams when `None`) on the problems `keep` (indices into
    /// [`Package::problems`]; all when empty), scored and placed from their cells.
    ///
    /// Errors: a group `groups.json` lacks, or a problem index out of range.
    pub fn standings(&self, group: Option<&str>, keep: &[usize]) -> Result<Standings> {
        if let Some(g) = group
            && !self.groups.iter().any(|it| it.id == g)
        {
            return Err(Error::file(
                &format!("{}: groups.json", self.source),
                format!(
                    "no group has the `id` {g} (groups: {})",
                    self.groups
                        .iter()
                        .map(|it| it.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let mut keep: Vec<usize> = if keep.is_empty() {
            (0..self.problems.len()).collect()
        } else {
            keep.to_vec()
        };
        keep.sort_unstable();
        keep.dedup();
        if let Some(bad) = keep.iter().find(|&&k| k >= self.problems.len()) {
            return Err(Error::file(
                &format!("{}: problems.json", self.source),
                format!("no problem {bad} (0-based): it has {}", self.problems.len()),
            ));
        }
        let groups: HashMap<&str, &[String]> = self
            .teams
            .iter()
            .map(|t| (t.id.as_str(), t.group_ids.as_deref().unwrap_or(&[])))
            .collect();
        let hidden: HashSet<&str> = self
            .teams
            .iter()
            .filter(|t| t.hidden == Some(true))
            .map(|t| t.id.as_str())
            .collect();
        let rule = self.rule();
        let mut rows: Vec<StandingsRow> = self
            .rows
            .iter()
            .filter(|r| !hidden.contains(r.team_id.as_str()))
            .filter(|r| {
                group.is_none_or(|g| {
                    groups
                        .get(r.team_id.as_str())
                        .is_some_and(|ids| ids.iter().any(|id| id == g))
                })
            })
            .map(|r| {
                let cells: Vec<ProblemResult> = keep.iter().map(|&k| r.cells[k].clone()).collect();
                StandingsRow {
                    team_id: r.team_id.clone(),
                    score: rule.score(&cells, &[]),
                    cells,
                    place: Place { lo: 0, hi: 0 },
                }
            })
            .collect();
        let placed = places(&rule, &rows.iter().map(|r| r.score).collect::<Vec<_>>());
        for (row, place) in rows.iter_mut().zip(placed) {
            row.place = place;
        }
        rows.sort_by_key(|r| (r.place.lo, r.team_id.clone()));
        Ok(Standings {
            rule,
            problems: keep,
            rows,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cell(problem: &str, tries: u32, time: Option<u32>) -> serde_json::Value {
        json!({"problem_id": problem, "num_judged": tries, "num_pending": 0,
               "solved": time.is_some(), "time": time})
    }

    /// Two contestants and a company, ranked in two sections as DOMjudge does.
    fn write(dir: &Path, rows: &serde_json::Value) {
        let put = |name: &str, value: serde_json::Value| {
            std::fs::write(dir.join(name), value.to_string()).expect("write");
        };
        put(
            "contest.json",
            json!({"id": "c", "name": "C", "duration": "5:00:00", "penalty_time": 20}),
        );
        put(
            "problems.json",
            json!([{"id": "b", "label": "B", "name": "Bee", "ordinal": 1, "time_limit": 2},
                   {"id": "a", "label": "A", "name": "Ay", "ordinal": 0}]),
        );
        put(
            "groups.json",
            json!([{"id": "contestants", "name": "Contestants"},
                   {"id": "companies", "name": "Companies"}]),
        );
        put("organizations.json", json!([{"id": "o1", "name": "Org"}]));
        put(
            "teams.json",
            json!([{"id": "1", "name": "One", "organization_id": "o1", "group_ids": ["contestants"]},
                   {"id": "2", "name": "Two", "group_ids": ["contestants"]},
                   {"id": "3", "name": "Three", "group_ids": ["companies"]}]),
        );
        put("scoreboard.json", json!({ "rows": rows }));
    }

    fn good_rows() -> serde_json::Value {
        json!([
            {"rank": 1, "team_id": "2", "score": {"num_solved": 2, "total_time": 90},
             "problems": [cell("a", 1, Some(10)), cell("b", 2, Some(60))]},
            {"rank": 2, "team_id": "1", "score": {"num_solved": 1, "total_time": 5},
             "problems": [cell("a", 3, None), cell("b", 1, Some(5))]},
            {"rank": 1, "team_id": "3", "score": {"num_solved": 1, "total_time": 50},
             "problems": [cell("a", 2, Some(30)), cell("b", 0, None)]}
        ])
    }

    #[test]
    fn a_package_reads_checks_and_restricts() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), &good_rows());
        let package = read_package(dir.path()).expect("reads");
        assert_eq!(
            package
                .problems
                .iter()
                .map(|p| p.label.as_str())
                .collect::<Vec<_>>(),
            ["A", "B"]
        );
        assert_eq!(
            package.problems[1].time_limit.map(|t| t.millis()),
            Some(2000)
        );
        package.check().expect("the rows agree with their cells");
        assert_eq!(package.problem_index("B").expect("label"), 1);
        let err = package.problem_index("Z").expect_err("no Z");
        assert!(
            err.to_string().contains("problems.json") && err.to_string().contains("labels: A, B"),
            "{err}"
        );
        let all = package.standings(Some("contestants"), &[]).expect("group");
        assert_eq!(
            all.rows
                .iter()
                .map(|r| r.team_id.as_str())
                .collect::<Vec<_>>(),
            ["2", "1"]
        );
        // On B alone team 1 (minute 5) leads team 2 (minute 60 + 20).
        let only_b = package.standings(Some("contestants"), &[1]).expect("B");
        assert_eq!(only_b.rows[0].team_id, "1");
        assert_eq!(only_b.rows[1].score.penalty, 80.0);
        assert_eq!(only_b.solvers(), [2]);
        // Everyone, on A: the company (30 + 20) is behind team 2 (10).
        let everyone = package.standings(None, &[0]).expect("all");
        assert_eq!(everyone.rows.len(), 3);
        assert_eq!(everyone.rows[2].team_id, "1");
        let err = package
            .standings(Some("judges"), &[])
            .expect_err("no group");
        assert!(err.to_string().contains("groups.json"), "{err}");
    }

    #[test]
    fn bad_packages_are_named_by_file_and_field() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut rows = good_rows();
        rows[1]["score"]["total_time"] = json!(25);
        write(dir.path(), &rows);
        let err = read_package(dir.path())
            .expect("reads")
            .check()
            .expect_err("disagrees");
        let text = err.to_string();
        assert!(
            text.contains("scoreboard.json: row 2, `score.total_time`")
                && text.contains("the cells give 5, the file says 25"),
            "{text}"
        );

        let mut rows = good_rows();
        rows[2]["rank"] = json!(2);
        write(dir.path(), &rows);
        // Rank 2 after 2 continues the section: the company is then 3rd of three.
        let err = read_package(dir.path())
            .expect("reads")
            .check()
            .expect_err("rank");
        assert!(err.to_string().contains("row 3, `rank`"), "{err}");

        let mut rows = good_rows();
        rows[0]["team_id"] = json!("9");
        write(dir.path(), &rows);
        let err = read_package(dir.path()).expect_err("unknown team");
        assert!(
            err.to_string()
                .contains("scoreboard.json: row 1, `team_id`: team 9 is not in teams.json"),
            "{err}"
        );

        let mut rows = good_rows();
        rows[0]["problems"][0]["problem_id"] = json!("zz");
        write(dir.path(), &rows);
        let err = read_package(dir.path()).expect_err("unknown problem");
        assert!(err.to_string().contains("`problems`: problem zz"), "{err}");

        write(dir.path(), &good_rows());
        std::fs::write(dir.path().join("problems.json"), r#"[{"id": "a"}]"#).expect("write");
        let err = read_package(dir.path()).expect_err("no label");
        assert!(
            err.to_string().contains("problems.json") && err.to_string().contains("`label`"),
            "{err}"
        );
    }

    #[test]
    fn a_package_with_an_event_feed_is_ranked_from_its_submissions() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), &good_rows());
        std::fs::remove_file(dir.path().join("scoreboard.json")).expect("remove");
        let line = |kind: &str, data: serde_json::Value| {
            json!({"type": kind, "id": data["id"].clone(), "data": data}).to_string() + "\n"
        };
        let mut feed = line(
            "contest",
            json!({"id": "c", "name": "C", "duration": "5:00:00", "penalty_time": 20}),
        );
        for (id, solved, penalty) in [("AC", true, false), ("WA", false, true)] {
            feed += &line(
                "judgement-types",
                json!({"id": id, "name": id, "solved": solved, "penalty": penalty}),
            );
        }
        feed += &line(
            "problems",
            json!({"id": "a", "label": "A", "name": "Ay", "ordinal": 0}),
        );
        feed += &line(
            "problems",
            json!({"id": "b", "label": "B", "name": "Bee", "ordinal": 1}),
        );
        for (id, group) in [
            ("1", "contestants"),
            ("2", "contestants"),
            ("3", "companies"),
        ] {
            feed += &line("teams", json!({"id": id, "name": id, "group_ids": [group]}));
        }
        // Team 1: A rejected at 3, accepted at 10 (30 minutes); team 2: B at 5; team 3: none.
        for (id, team, problem, time, verdict) in [
            ("s1", "1", "a", "0:03:00", "WA"),
            ("s2", "1", "a", "0:10:00", "AC"),
            ("s3", "2", "b", "0:05:00", "AC"),
        ] {
            feed += &line(
                "submissions",
                json!({"id": id, "language_id": "cpp", "problem_id": problem, "team_id": team,
                       "time": "2024-05-01T10:00:00Z", "contest_time": time}),
            );
            feed += &line(
                "judgements",
                json!({"id": format!("j{id}"), "submission_id": id, "judgement_type_id": verdict,
                       "start_time": "2024-05-01T10:00:00Z", "start_contest_time": time}),
            );
        }
        std::fs::write(dir.path().join(FEED), feed).expect("feed");
        let package = read_package(dir.path()).expect("reads");
        assert_eq!(package.standings_file, FEED);
        package.check().expect("a folded board agrees with itself");
        let board = package.standings(Some("contestants"), &[]).expect("group");
        let ids: Vec<&str> = board.rows.iter().map(|r| r.team_id.as_str()).collect();
        assert_eq!(ids, ["2", "1"]);
        assert_eq!(board.rows[1].score.penalty, 30.0);
        assert_eq!(board.rows[1].cells[0].rejected, 1);
    }
}
