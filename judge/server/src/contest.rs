//! A contest's definition: the file `judge serve --contest FILE` reads (YAML or JSON) and
//! the body of `POST /api/contests`, with its problems loaded from their packages.
//!
//! Times: `start_time` is RFC 3339; `duration` and `scoreboard_freeze_duration` are CLICS
//! relative times (`5:00:00`, `1:30:00.000`) or integer minutes, as feeds write both.
//!
//! Time limits: a package that gives none gets one derived from its accepted submissions
//! ([`Contest::derive_time_limits`], through [`judge::timelimit::resolve`]) when the
//! contest is served. The value is written into the contest's definition
//! ([`ProblemSpec::derived_time_limit`]), which the database stores, so that every host
//! serving the contest from that database judges with the one stored value: a host takes
//! it from the stored contest before it looks in its cache (keyed by the package's
//! identity) or measures. Each problem's [`ContestProblem::time_limit`] says where its
//! limit came from; the CLICS problem object carries it as `time_limit_source`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use chrono::{DateTime, Utc};
use judge::grade::Options;
use judge::sandbox::SandboxConfig;
use judge::timelimit::{Derivation, Provenance};
use leaderboard::clics::{RelTime, Time};
use problems::TimeLimitSource;
use serde::{Deserialize, Serialize};

use super::error::ServerError;
use crate::control::{Planned, Schedule, Thaw};
use crate::jury::{Jury, ProblemRow};

/// How the contest is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// ICPC: solved problems, then penalty time.
    Icpc,
    /// IOI: the best score of each subtask over a team's submissions, summed.
    Ioi,
}

/// One problem of the contest.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// CLICS id (defaults to the package's short name).
    #[serde(default)]
    pub id: Option<String>,
    /// The label on the scoreboard (`A`, `B`, ...; defaults to the letter of its place).
    #[serde(default)]
    pub label: Option<String>,
    /// The package folder, relative to the contest file.
    pub package: PathBuf,
    /// Colour as `#rrggbb`.
    #[serde(default)]
    pub rgb: Option<String>,
    /// The time limit derived for the package when it gives none, written here by
    /// [`Contest::derive_time_limits`] so that the stored contest carries it; used while
    /// the package keeps this identity and is measured with this Python.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_time_limit: Option<Derivation>,
}

pub use crate::jury::TeamSpec;

/// The contest file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestSpec {
    /// CLICS id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// When it starts.
    pub start_time: DateTime<Utc>,
    /// How long it runs (`5:00:00` or minutes).
    #[serde(with = "reltime_or_minutes")]
    pub duration: chrono::Duration,
    /// How long before the end the scoreboard freezes (`1:00:00` or minutes; 0: none).
    #[serde(default = "zero", with = "reltime_or_minutes")]
    pub scoreboard_freeze_duration: chrono::Duration,
    /// When the frozen board thaws without a jury action: at the `end` (the default), or
    /// only when the `jury` thaws it (the reveal).
    #[serde(default, skip_serializing_if = "is_end")]
    pub thaw: Thaw,
    /// ICPC or IOI.
    #[serde(default = "icpc")]
    pub scoring: Scoring,
    /// Minutes per rejected try before the accept (ICPC).
    #[serde(default = "twenty")]
    pub penalty_minutes: u32,
    /// Submissions a team may make per minute (HTTP 429 beyond).
    #[serde(default = "ten")]
    pub submissions_per_minute: u32,
    /// Language ids allowed (all the judge knows when absent).
    #[serde(default)]
    pub languages: Option<Vec<String>>,
    /// CPUs' worth of time each submission's sandbox may use per second of wall time (a
    /// kernel quota on both backends); `judge serve --cpus` overrides it.
    #[serde(default = "one")]
    pub cpus: u32,
    /// How many teams get each medal in the CLICS `awards` (all three counts, when given;
    /// [`Medals::default`] when absent: see [`Contest::medals`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medals: Option<Medals>,
    /// The problems, in scoreboard order.
    pub problems: Vec<ProblemSpec>,
    /// The teams.
    pub teams: Vec<TeamSpec>,
}

/// How many teams get each medal (by rank; a tie at the last place of a medal includes
/// every tied team, as the ICPC does): `medals: {gold: 4, silver: 4, bronze: 4}` in the
/// contest file, every count given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Medals {
    /// Gold medals.
    pub gold: u32,
    /// Silver medals.
    pub silver: u32,
    /// Bronze medals.
    pub bronze: u32,
}

impl Default for Medals {
    /// Four of each, the ICPC World Finals' count.
    fn default() -> Medals {
        Medals {
            gold: 4,
            silver: 4,
            bronze: 4,
        }
    }
}

impl ContestSpec {
    /// Reads a contest file (YAML or JSON) without loading its packages.
    pub fn read(path: &Path) -> Result<ContestSpec, ServerError> {
        let text = std::fs::read_to_string(path).map_err(|source| ServerError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_yaml::from_str(&text).map_err(|err| ServerError::BadContest {
            what: path.display().to_string(),
            problems: vec![err.to_string()],
        })
    }
}

fn is_end(thaw: &Thaw) -> bool {
    *thaw == Thaw::End
}

fn zero() -> chrono::Duration {
    chrono::Duration::zero()
}
fn icpc() -> Scoring {
    Scoring::Icpc
}
fn twenty() -> u32 {
    20
}
fn ten() -> u32 {
    10
}
fn one() -> u32 {
    judge::sandbox::DEFAULT_CPUS
}

/// A duration as a CLICS relative time (whole milliseconds).
pub fn reltime(d: chrono::Duration) -> RelTime {
    RelTime::from_millis(d.num_milliseconds())
}

/// An instant as a CLICS time (whole milliseconds, written in UTC).
pub fn time(t: DateTime<Utc>) -> Time {
    Time::from_unix_millis(t.timestamp_millis())
}

/// Durations in the contest file: a CLICS relative time (`5:00:00`, read by
/// `leaderboard::clics::RelTime`, the workspace's one parser) or whole minutes;
/// written back as a relative time.
mod reltime_or_minutes {
    use leaderboard::clics::RelTime;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &chrono::Duration, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::reltime(*d))
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Minutes(i64),
        Text(String),
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<chrono::Duration, D::Error> {
        match Raw::deserialize(d)? {
            Raw::Minutes(m) => Ok(chrono::Duration::minutes(m)),
            Raw::Text(t) => RelTime::parse(&t)
                .map(|r| chrono::Duration::milliseconds(r.millis()))
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "`{t}` is not a relative time (h:mm:ss[.uuu]) or a number of minutes"
                    ))
                }),
        }
    }
}

/// The one Python of the package at `root` in this contest: the interpreter that runs its
/// `.py` submissions, both the package's own while its time limit is derived and the
/// teams' (see [`submission_language`]). A contest that offers exactly one of `python3`
/// and `pypy3` has chosen it; otherwise the package's format decides, as in `judge run`
/// and `judge verify`: PyPy for a legacy package (problemtools' convention), CPython for
/// 2023-07 and 2025-09.
pub fn python_for(languages: Option<&[String]>, root: &Path) -> &'static str {
    let python = judge::lang::default_python(&judge::lang::package_format(root));
    let offers = |id: &str| languages.is_some_and(|l| l.iter().any(|x| x == id));
    match (offers("python3"), offers("pypy3")) {
        (true, false) => "python3",
        (false, true) => "pypy3",
        _ => python,
    }
}

/// The language id a team's submission in `language_id` runs as on the package at
/// `root`: a Python runs as the package's one Python ([`python_for`]), the interpreter
/// its time limit was derived with, unless the contest lists both Pythons and so lets
/// the team choose; any other language as itself.
pub fn submission_language<'a>(
    languages: Option<&[String]>,
    root: &Path,
    language_id: &'a str,
) -> &'a str {
    let team_chooses = languages.is_some_and(|l| {
        judge::lang::PYTHONS
            .iter()
            .all(|p| l.iter().any(|x| x == p))
    });
    if judge::lang::PYTHONS.contains(&language_id) && !team_chooses {
        python_for(languages, root)
    } else {
        language_id
    }
}

/// The time limit of `problem` as loaded: the package's own, or the value `spec` holds
/// for it (the package's identity and `python` must match; a value for another identity
/// is dropped, to be derived again).
fn stored_time_limit(
    problem: &mut problems::Problem,
    spec: &mut ProblemSpec,
    python: &str,
) -> Provenance {
    if problem.limits.time_source != TimeLimitSource::Default {
        spec.derived_time_limit = None;
        return Provenance::of(problem);
    }
    match spec.derived_time_limit.take() {
        Some(derivation) if derivation.sha256 == problem.sha256 && derivation.python == python => {
            judge::timelimit::apply(problem, &derivation);
            spec.derived_time_limit = Some(derivation.clone());
            Provenance {
                derivation: Some(derivation),
                cached: true,
                ..Provenance::of(problem)
            }
        }
        _ => Provenance::of(problem),
    }
}

/// A loaded problem of a contest.
#[derive(Debug, Clone)]
pub struct ContestProblem {
    /// CLICS id.
    pub id: String,
    /// Scoreboard label.
    pub label: String,
    /// Colour.
    pub rgb: Option<String>,
    /// The package.
    pub problem: problems::Problem,
    /// The most points (IOI): the problem's maximum score, 1 for pass-fail problems.
    pub max_score: f64,
    /// Where the problem's time limit came from (`problem.limits.time` is the limit).
    pub time_limit: Provenance,
}

/// A contest with its problems loaded.
#[derive(Debug, Clone)]
pub struct Contest {
    /// The definition (package paths absolute).
    pub spec: ContestSpec,
    /// The problems, in order.
    pub problems: Vec<ContestProblem>,
    /// What the jury changed (the clock, the teams), as this process last read it from
    /// the database (see [`Contest::schedule`], [`Contest::teams`]).
    pub jury: JuryCell,
    /// The problems as the contest's definition gives them, before the jury's changes
    /// (package paths absolute).
    pub file_problems: Vec<ProblemSpec>,
    /// The jury's problem rows that `problems` was built with (see
    /// [`Contest::spec_with_jury_problems`]).
    pub jury_problems: Vec<(String, ProblemRow)>,
}

/// The [`Jury`] state of one contest, shared by the routes, the workers and the event
/// log's reader, which reads it again whenever a `contest`, `state` or `teams` event
/// arrives.
///
/// A clone shares the cell: a contest loaded again (its problems changed by the jury)
/// keeps following the same state.
#[derive(Debug, Default, Clone)]
pub struct JuryCell(Arc<RwLock<Arc<Jury>>>);

impl JuryCell {
    /// The file's own state (no jury change yet).
    pub fn of_file(file_teams: &[TeamSpec]) -> JuryCell {
        JuryCell(Arc::new(RwLock::new(Arc::new(Jury::of_file(file_teams)))))
    }

    /// The state as last read.
    pub fn get(&self) -> Arc<Jury> {
        Arc::clone(&self.0.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces it.
    pub fn set(&self, jury: Jury) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(jury);
    }
}

impl Contest {
    /// Resolves package paths against `base`, loads every package, and checks the
    /// definition; every problem found is reported, each naming where it is.
    pub fn load(
        mut spec: ContestSpec,
        base: &Path,
        what: &str,
    ) -> Result<Arc<Contest>, ServerError> {
        let mut errors = Vec::new();
        if spec.id.is_empty()
            || !spec
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            errors.push(format!(
                "id `{}`: use letters, digits, `-` and `_`",
                spec.id
            ));
        }
        if spec.duration <= chrono::Duration::zero() {
            errors.push("duration: must be positive".to_owned());
        }
        if spec.cpus == 0 {
            errors.push("cpus: must be at least 1".to_owned());
        }
        if spec.scoreboard_freeze_duration < chrono::Duration::zero()
            || spec.scoreboard_freeze_duration > spec.duration
        {
            errors
                .push("scoreboard_freeze_duration: must be between 0 and the duration".to_owned());
        }
        if let Some(medals) = spec.medals {
            let total =
                u64::from(medals.gold) + u64::from(medals.silver) + u64::from(medals.bronze);
            if total > spec.teams.len() as u64 {
                errors.push(format!(
                    "medals: {total} medals (gold {}, silver {}, bronze {}) for {} team(s)",
                    medals.gold,
                    medals.silver,
                    medals.bronze,
                    spec.teams.len()
                ));
            }
        }
        if let Some(langs) = &spec.languages {
            for (i, id) in langs.iter().enumerate() {
                if judge::lang::by_id(id).is_err() {
                    errors.push(format!("languages[{i}]: unknown language `{id}`"));
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (i, team) in spec.teams.iter().enumerate() {
            if !seen.insert(team.id.clone()) {
                errors.push(format!("teams[{i}]: duplicate id `{}`", team.id));
            }
            if team.token.len() < 8 {
                errors.push(format!(
                    "teams[{i}] ({}): token shorter than 8 characters",
                    team.id
                ));
            }
            if team.id == "admin" {
                errors.push(format!("teams[{i}]: `admin` is reserved"));
            }
        }
        let mut problems = Vec::new();
        let mut ids = std::collections::HashSet::new();
        let languages = spec.languages.clone();
        for (i, p) in spec.problems.iter_mut().enumerate() {
            if p.package.is_relative() {
                p.package = base.join(&p.package);
            }
            match problems::load_for_judging(&p.package) {
                Ok((mut problem, _warnings)) => {
                    let python = python_for(languages.as_deref(), &p.package);
                    let time_limit = stored_time_limit(&mut problem, p, python);
                    let id = p.id.clone().unwrap_or_else(|| problem.short_name.clone());
                    if !ids.insert(id.clone()) {
                        errors.push(format!("problems[{i}]: duplicate id `{id}`"));
                    }
                    let label = p
                        .label
                        .clone()
                        .unwrap_or_else(|| char::from(b'A' + (i % 26) as u8).to_string());
                    let max_score = if judge::grade::is_scored(&problem) {
                        problem.secret.score.unwrap_or(100.0)
                    } else {
                        1.0
                    };
                    problems.push(ContestProblem {
                        id,
                        label,
                        rgb: p.rgb.clone(),
                        problem,
                        max_score,
                        time_limit,
                    });
                }
                Err(err) => errors.push(format!(
                    "problems[{i}]: package {}: {}",
                    p.package.display(),
                    crate::error::chain(&err)
                )),
            }
        }
        if errors.is_empty() {
            Ok(Arc::new(Contest {
                jury: JuryCell::of_file(&spec.teams),
                file_problems: spec.problems.clone(),
                jury_problems: Vec::new(),
                spec,
                problems,
            }))
        } else {
            Err(ServerError::BadContest {
                what: what.to_owned(),
                problems: errors,
            })
        }
    }

    /// Derives the time limit of every problem whose package gives none and whose
    /// definition holds no value for it yet: the value `stored` (the contest as the
    /// database holds it) has for the package's identity, else the one in `cache` (see
    /// [`judge::timelimit`]), else measured now in `sandbox`. The values are written into
    /// the definition's problems, so that storing the contest stores them. When no
    /// accepted submission is accepted, or the judge fails while measuring, the problem
    /// keeps the default limit and its provenance says why (the failure is also logged).
    pub async fn derive_time_limits(
        contest: Arc<Contest>,
        stored: Option<&ContestSpec>,
        sandbox: &SandboxConfig,
        options: &Options,
        cache: Option<&Path>,
    ) -> Arc<Contest> {
        let pending = contest
            .problems
            .iter()
            .any(|p| p.problem.limits.time_source == TimeLimitSource::Default);
        if !pending {
            return contest;
        }
        let mut contest = Arc::unwrap_or_clone(contest);
        let languages = contest.spec.languages.clone();
        for (p, spec) in contest.problems.iter_mut().zip(&mut contest.spec.problems) {
            if p.problem.limits.time_source != TimeLimitSource::Default {
                continue;
            }
            let python = python_for(languages.as_deref(), &p.problem.root);
            let from_store = stored
                .into_iter()
                .flat_map(|s| &s.problems)
                .filter_map(|s| s.derived_time_limit.as_ref())
                .find(|d| d.sha256 == p.problem.sha256 && d.python == python);
            let provenance = match from_store {
                Some(derivation) => {
                    judge::timelimit::apply(&mut p.problem, derivation);
                    Ok(Provenance {
                        derivation: Some(derivation.clone()),
                        cached: true,
                        ..Provenance::of(&p.problem)
                    })
                }
                None => {
                    judge::timelimit::resolve(&mut p.problem, sandbox, options, cache, python).await
                }
            };
            p.time_limit = match provenance {
                Ok(provenance) => provenance,
                Err(err) => {
                    let why = format!(
                        "the judge failed while measuring: {}",
                        crate::error::chain(&err)
                    );
                    eprintln!(
                        "judge serve: contest {}, problem {}: time limit not derived, {why}",
                        contest.spec.id, p.id
                    );
                    Provenance {
                        not_derived: Some(why),
                        ..Provenance::of(&p.problem)
                    }
                }
            };
            spec.derived_time_limit = p.time_limit.derivation.clone();
        }
        Arc::new(contest)
    }

    /// The definition with the problems the jury's `rows` give it: the file's problems
    /// not removed, then the ones added and not removed, each at the folder `folder`
    /// gives for its package's SHA-256 (a package without a folder is left out).
    pub fn spec_with_jury_problems(
        &self,
        rows: &[(String, ProblemRow)],
        folder: impl Fn(&str) -> Option<PathBuf>,
    ) -> ContestSpec {
        let removed = |id: &str| rows.iter().any(|(item, row)| item == id && row.removed);
        let mut spec = self.spec.clone();
        spec.problems = self
            .file_problems
            .iter()
            .zip(self.file_ids())
            .filter(|(_, id)| !removed(id))
            .map(|(p, _)| p.clone())
            .collect();
        for (id, row) in rows.iter().filter(|(_, row)| !row.removed) {
            let Some(package) = row.sha256.as_deref().and_then(&folder) else {
                continue;
            };
            spec.problems.push(ProblemSpec {
                id: Some(id.clone()),
                label: row.label.clone(),
                package,
                rgb: None,
                derived_time_limit: None,
            });
        }
        spec
    }

    /// The ids of the file's problems, in order (as loaded: a problem without one in the
    /// file has its package's short name).
    fn file_ids(&self) -> Vec<String> {
        self.file_problems
            .iter()
            .map(|p| {
                p.id.clone().unwrap_or_else(|| {
                    self.problems
                        .iter()
                        .find(|loaded| loaded.problem.root == p.package)
                        .map_or_else(String::new, |loaded| loaded.id.clone())
                })
            })
            .collect()
    }

    /// Reads and loads a contest file (YAML or JSON).
    pub fn from_file(path: &Path) -> Result<Arc<Contest>, ServerError> {
        let spec = ContestSpec::read(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        Contest::load(spec, base, &path.display().to_string())
    }

    /// Reads the jury's rows of this contest from `store` into it (what another host's
    /// jury did becomes this host's state). Rows that cannot be read are an error naming
    /// them; the contest keeps the state it had.
    pub async fn reload_jury(&self, store: &crate::store::Store) -> Result<(), ServerError> {
        let rows = store.jury_rows(&self.spec.id).await?;
        self.jury.set(self.jury_of(&rows)?);
        Ok(())
    }

    /// The jury's state that `rows` give this contest.
    pub fn jury_of(&self, rows: &[crate::store::JuryRow]) -> Result<Jury, ServerError> {
        Jury::from_rows(&self.spec.teams, rows).map_err(|why| ServerError::BadContest {
            what: format!("contest {}", self.spec.id),
            problems: vec![why],
        })
    }

    /// What the contest file says of the clock.
    pub fn planned(&self) -> Planned {
        Planned {
            start: self.spec.start_time,
            duration: self.spec.duration,
            freeze_before_end: self.spec.scoreboard_freeze_duration,
            thaw: self.spec.thaw,
        }
    }

    /// The clock: the file's schedule with the jury's changes.
    pub fn schedule(&self) -> Schedule {
        Schedule::of(&self.planned(), &self.jury.get().control)
    }

    /// When it starts.
    pub fn start_time(&self) -> DateTime<Utc> {
        self.schedule().start
    }

    /// When it ends.
    pub fn end_time(&self) -> DateTime<Utc> {
        self.schedule().end
    }

    /// When the scoreboard freezes, if it does.
    pub fn freeze_time(&self) -> Option<DateTime<Utc>> {
        self.schedule().freeze
    }

    /// The medal counts of the awards: the contest's, else four of each.
    pub fn medals(&self) -> Medals {
        self.spec.medals.unwrap_or_default()
    }

    /// The problem with CLICS id `id`.
    pub fn problem(&self, id: &str) -> Option<&ContestProblem> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// Every team served: the file's, then those the jury added; disabled ones included.
    pub fn teams(&self) -> Arc<Vec<TeamSpec>> {
        Arc::clone(&self.jury.get().teams)
    }

    /// Whether team `id` is served and not disabled.
    pub fn has_active_team(&self, id: &str) -> bool {
        self.teams().iter().any(|t| t.id == id && !t.disabled)
    }

    /// The team, not disabled, whose token is `token`.
    pub fn team_by_token(&self, token: &str) -> Option<TeamSpec> {
        self.teams()
            .iter()
            .find(|t| t.token == token && !t.disabled)
            .cloned()
    }

    /// Whether `lang` may be used.
    pub fn allows_language(&self, lang: &str) -> bool {
        match &self.spec.languages {
            Some(list) => list.iter().any(|l| l == lang),
            None => judge::lang::by_id(lang).is_ok(),
        }
    }
}

/// The contests a server serves, by id: shared by the routes, the workers and the event
/// log's reader.
#[derive(Debug, Default)]
pub struct Served {
    contests: RwLock<HashMap<String, Arc<Contest>>>,
}

impl Served {
    /// The contest with id `id`, when it is served.
    pub fn get(&self, id: &str) -> Option<Arc<Contest>> {
        self.contests
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    /// Every contest served, by id.
    pub fn all(&self) -> Vec<Arc<Contest>> {
        let map = self.contests.read().unwrap_or_else(PoisonError::into_inner);
        let mut all: Vec<_> = map.values().cloned().collect();
        all.sort_by(|a, b| a.spec.id.cmp(&b.spec.id));
        all
    }

    /// Serves `contest`, in place of a contest with its id.
    pub fn insert(&self, contest: Arc<Contest>) {
        self.contests
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(contest.spec.id.clone(), contest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_reltimes_and_write_them_back() {
        let yaml = |d: &str| {
            format!(
                "id: c\nname: C\nstart_time: 2026-01-01T10:00:00Z\nduration: '{d}'\nproblems: []\nteams: []\n"
            )
        };
        let spec: ContestSpec = serde_yaml::from_str(&yaml("01:00:02.5")).unwrap();
        assert_eq!(spec.duration, chrono::Duration::milliseconds(3_602_500));
        let back = serde_json::to_value(&spec).unwrap();
        assert_eq!(back["duration"], "1:00:02.500");
        assert_eq!(back["scoreboard_freeze_duration"], "0:00:00.000");
        for bad in [
            "5:00",
            "1:60:00",
            "1:00:61",
            "x:00:00",
            "1:0:00",
            "1:00:00.1234",
        ] {
            assert!(
                serde_yaml::from_str::<ContestSpec>(&yaml(bad)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn durations_accept_minutes_and_strings() {
        let yaml = "id: c\nname: C\nstart_time: 2026-01-01T10:00:00Z\nduration: 300\nscoreboard_freeze_duration: '1:00:00'\nproblems: []\nteams: []\n";
        let spec: ContestSpec = serde_yaml::from_str(yaml).unwrap();
        assert_eq!(spec.duration, chrono::Duration::hours(5));
        assert_eq!(spec.scoreboard_freeze_duration, chrono::Duration::hours(1));
        assert_eq!(spec.scoring, Scoring::Icpc);
        let bad = yaml.replace("300", "'five hours'");
        let err = serde_yaml::from_str::<ContestSpec>(&bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains("five hours"), "{err}");
    }

    #[test]
    fn medals_are_four_of_each_unless_the_file_gives_all_three() {
        let yaml = |medals: &str| {
            format!(
                "id: c\nname: C\nstart_time: 2026-01-01T10:00:00Z\nduration: 300\n{medals}\nproblems: []\nteams: []\n"
            )
        };
        let read = |medals: &str| serde_yaml::from_str::<ContestSpec>(&yaml(medals));
        let spec = read("").unwrap();
        assert_eq!(spec.medals, None);
        let contest = Contest {
            spec,
            problems: Vec::new(),
            jury: JuryCell::default(),
            file_problems: Vec::new(),
            jury_problems: Vec::new(),
        };
        assert_eq!(contest.medals(), Medals::default());
        assert_eq!(
            read("medals: {gold: 1, silver: 2, bronze: 0}")
                .unwrap()
                .medals,
            Some(Medals {
                gold: 1,
                silver: 2,
                bronze: 0
            })
        );
        for (bad, named) in [
            ("medals: {gold: 1}", "missing field `silver`"),
            ("medals: {gold: -1, silver: 4, bronze: 4}", "-1"),
            (
                "medals: {gold: 4, silver: 4, bronze: 4, iron: 1}",
                "unknown field `iron`",
            ),
            ("medals: 12", "medals"),
        ] {
            let err = read(bad).unwrap_err().to_string();
            assert!(
                err.contains("medals") && err.contains(named),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn derived_limits_run_python_as_the_package_format_and_the_contest_say() {
        let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("problem.yaml"), "name: Legacy\n").unwrap();
        let modern = packages.join("sum");
        let langs = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let table = [
            // Legacy: PyPy (problemtools' convention), unless the contest offers only
            // CPython.
            (dir.path(), None, "pypy3"),
            (dir.path(), Some(langs(&["python3", "pypy3"])), "pypy3"),
            (dir.path(), Some(langs(&["python3"])), "python3"),
            // 2025-09: CPython unless the contest offers PyPy and not CPython.
            (modern.as_path(), None, "python3"),
            (
                modern.as_path(),
                Some(langs(&["python3", "pypy3"])),
                "python3",
            ),
            (modern.as_path(), Some(langs(&["cpp", "pypy3"])), "pypy3"),
        ];
        for (root, languages, python) in table {
            assert_eq!(
                python_for(languages.as_deref(), root),
                python,
                "{} {languages:?}",
                root.display()
            );
            // A team's Python runs as the same one, unless the contest lists both.
            let both = languages
                .as_ref()
                .is_some_and(|l| l.len() == 2 && l.iter().all(|x| x.contains("py")));
            for team in ["python3", "pypy3"] {
                let want = if both { team } else { python };
                assert_eq!(
                    submission_language(languages.as_deref(), root, team),
                    want,
                    "{team} {} {languages:?}",
                    root.display()
                );
            }
            assert_eq!(
                submission_language(languages.as_deref(), root, "cpp"),
                "cpp"
            );
        }
    }

    #[test]
    fn a_bad_contest_lists_every_problem() {
        let spec = ContestSpec {
            id: "bad id".into(),
            name: "x".into(),
            start_time: Utc::now(),
            duration: chrono::Duration::hours(1),
            scoreboard_freeze_duration: chrono::Duration::hours(2),
            thaw: crate::control::Thaw::End,
            scoring: Scoring::Icpc,
            penalty_minutes: 20,
            submissions_per_minute: 10,
            languages: Some(vec!["cobol".into()]),
            cpus: 0,
            medals: Some(Medals {
                gold: 1,
                silver: 1,
                bronze: 1,
            }),
            problems: vec![ProblemSpec {
                id: None,
                label: None,
                package: PathBuf::from("no-such-package"),
                rgb: None,
                derived_time_limit: None,
            }],
            teams: vec![TeamSpec {
                id: "t".into(),
                name: "T".into(),
                token: "short".into(),
                disabled: false,
            }],
        };
        let err = Contest::load(spec, Path::new("/nonexistent"), "test").unwrap_err();
        let ServerError::BadContest { problems, .. } = err else {
            panic!("expected BadContest")
        };
        let all = problems.join("\n");
        for needle in [
            "id `bad id`",
            "scoreboard_freeze_duration",
            "cobol",
            "cpus: must be at least 1",
            "token shorter",
            "no-such-package",
            "medals: 3 medals (gold 1, silver 1, bronze 1) for 1 team(s)",
        ] {
            assert!(all.contains(needle), "{needle} missing in {all}");
        }
    }
}
