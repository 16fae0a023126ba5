//! Derived time limits: when a package gives no time limit (neither `limits.time_limit`
//! nor a legacy `.timelimit`), the judge runs its accepted submissions and sets the limit
//! to the slowest one's CPU time times the multiplier, rounded up to the time resolution
//! ([`problems::Limits::derive_time`]: problemtools' `verifyproblem`, and the 2025-09
//! format's `limits.time_multipliers.ac_to_time_limit` with `time_resolution`).
//!
//! The accepted Python submissions run with the interpreter the caller passes, which
//! [`crate::lang::python_for`] picks as `verify` does: PyPy for a legacy package
//! (problemtools' convention), else CPython unless the command line or the contest names
//! PyPy.
//!
//! The derived value is kept in `<cache>/<package sha256>-<python>.json`, keyed by the
//! package's identity ([`problems::content_sha256`]) and that interpreter: a second run,
//! and every host sharing that folder, uses the same limit without measuring again; a
//! changed package has another identity and is measured anew.

use std::path::{Path, PathBuf};
use std::time::Duration;

use problems::{Problem, TimeLimitSource, Verdict};
use serde::{Deserialize, Serialize};

use crate::grade::{Options, Submission, judge};
use crate::sandbox::SandboxConfig;

/// The time limit the accepted submissions run under while they are measured (problemtools
/// uses 300 s; a package's own accepted submissions should need far less).
pub const MEASURING_LIMIT: Duration = Duration::from_secs(60);

/// How a time limit was derived: what `judge run` reports and the cache file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derivation {
    /// The package's identity ([`Problem::sha256`]) the value belongs to.
    pub sha256: String,
    /// The derived time limit, in seconds.
    pub time_limit_s: f64,
    /// The time a `time_limit_exceeded` submission must at least take, in seconds
    /// (the limit times `time_limit_to_tle`).
    pub tle_bound_s: f64,
    /// The slowest accepted submission's slowest test, CPU milliseconds.
    pub slowest_ms: f64,
    /// That submission, relative to the package.
    pub slowest: PathBuf,
    /// The factor applied to it.
    pub ac_to_time_limit: f64,
    /// The factor for the TLE bound.
    pub time_limit_to_tle: f64,
    /// The resolution the limit was rounded up to, in seconds.
    pub time_resolution: f64,
    /// The language id the `.py` submissions ran as (`python3` or `pypy3`).
    #[serde(default)]
    pub python: String,
    /// Accepted submissions left out, each with why (not accepted under
    /// [`MEASURING_LIMIT`], or not judgeable).
    #[serde(default)]
    pub left_out: Vec<String>,
}

/// Where the time limit of one `judge run` came from, for its report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    /// The limit used, in seconds.
    pub seconds: f64,
    /// Where it came from.
    pub source: TimeLimitSource,
    /// How it was derived (`source` is `derived`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derivation: Option<Derivation>,
    /// The derived value was read from the cache, not measured now.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// Why no limit was derived (`source` is `default`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_derived: Option<String>,
}

impl Provenance {
    /// The provenance of a limit `problem` already has.
    pub fn of(problem: &Problem) -> Provenance {
        Provenance {
            seconds: problem.limits.time.as_secs_f64(),
            source: problem.limits.time_source,
            derivation: None,
            cached: false,
            not_derived: None,
        }
    }
}

impl std::fmt::Display for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "time limit {} s ({}", self.seconds, self.source)?;
        if let Some(d) = &self.derivation {
            let python = d
                .slowest
                .extension()
                .is_some_and(|e| e == "py" || e == "py3")
                && !d.python.is_empty();
            write!(
                f,
                ": slowest accepted {}{} ({:.0} ms) × {} rounded up to {} s",
                d.slowest.display(),
                if python {
                    format!(" as {}", d.python)
                } else {
                    String::new()
                },
                d.slowest_ms,
                d.ac_to_time_limit,
                d.time_resolution
            )?;
            if self.cached {
                f.write_str(", cached")?;
            }
        }
        if let Some(why) = &self.not_derived {
            write!(f, ": not derived, {why}")?;
        }
        f.write_str(")")
    }
}

/// One accepted submission's measurement: its path relative to the package, and its
/// verdict with its slowest test's CPU milliseconds, or why it could not be judged.
pub type Timing = (PathBuf, Result<(Verdict, f64), String>);

/// The derivation from fixed timings of `problem`'s accepted submissions, their `.py`
/// files run as `python`: the slowest accepted one's time through
/// [`problems::Limits::derive_time`]; `Err` says why there is none (no submission was
/// accepted).
pub fn derive_from(
    problem: &Problem,
    timings: &[Timing],
    python: &str,
) -> Result<Derivation, String> {
    let mut left_out = Vec::new();
    let mut slowest: Option<(&Path, f64)> = None;
    for (path, timing) in timings {
        match timing {
            Ok((Verdict::AC, ms)) => {
                if slowest.is_none_or(|(_, max)| *ms > max) {
                    slowest = Some((path, *ms));
                }
            }
            Ok((verdict, _)) => left_out.push(format!(
                "{}: {verdict} under {} s",
                path.display(),
                MEASURING_LIMIT.as_secs()
            )),
            Err(why) => left_out.push(format!("{}: {why}", path.display())),
        }
    }
    let Some((path, ms)) = slowest else {
        return Err(if left_out.is_empty() {
            "no submission in submissions/accepted".to_owned()
        } else {
            format!(
                "no accepted submission was accepted: {}",
                left_out.join("; ")
            )
        });
    };
    let limits = &problem.limits;
    let time = limits.derive_time(Duration::from_secs_f64(ms.max(0.0) / 1000.0));
    let with_time = problems::Limits { time, ..*limits };
    Ok(Derivation {
        sha256: problem.sha256.clone(),
        time_limit_s: time.as_secs_f64(),
        tle_bound_s: with_time.tle_bound().as_secs_f64(),
        slowest_ms: ms,
        slowest: path.to_path_buf(),
        ac_to_time_limit: limits.time_multipliers.ac_to_time_limit,
        time_limit_to_tle: limits.time_multipliers.time_limit_to_tle,
        time_resolution: limits.time_resolution,
        python: python.to_owned(),
        left_out,
    })
}

/// Sets `problem`'s time limit to the derived one.
pub fn apply(problem: &mut Problem, derivation: &Derivation) {
    if let Ok(time) = Duration::try_from_secs_f64(derivation.time_limit_s) {
        problem.limits.time = time;
        problem.limits.time_source = TimeLimitSource::Derived;
    }
}

/// The cache of derived limits that `judge run`, `judge verify` and the contest server
/// share: `timelimits` in the cache folder ([`crate::cache_dir`]).
pub fn default_cache() -> PathBuf {
    crate::cache_dir().join("timelimits")
}

/// The cache file of the package with identity `sha256`, measured with its `.py`
/// submissions run as `python`, under `cache`.
pub fn cache_file(cache: &Path, sha256: &str, python: &str) -> PathBuf {
    cache.join(format!("{sha256}-{python}.json"))
}

/// The cached derivation of `problem` measured with `python`, when `cache` holds one for
/// its identity; a file that does not parse or belongs to another identity or interpreter
/// counts as none.
pub fn cached(cache: &Path, problem: &Problem, python: &str) -> Option<Derivation> {
    let text = std::fs::read_to_string(cache_file(cache, &problem.sha256, python)).ok()?;
    serde_json::from_str::<Derivation>(&text)
        .ok()
        .filter(|d| d.sha256 == problem.sha256 && d.python == python && d.time_limit_s > 0.0)
}

/// Writes `derivation` to the cache (through a temporary file renamed into place, so a
/// reader sees the old file or the whole new one).
pub fn store(cache: &Path, derivation: &Derivation) -> crate::Result<()> {
    let io = |what, path: &Path| {
        let path = path.to_path_buf();
        move |source| crate::Error::Io { what, path, source }
    };
    std::fs::create_dir_all(cache).map_err(io("cannot create the cache folder", cache))?;
    let file = cache_file(cache, &derivation.sha256, &derivation.python);
    let tmp = file.with_extension(format!("json.{}.tmp", std::process::id()));
    let text = serde_json::to_string_pretty(derivation).unwrap_or_default();
    std::fs::write(&tmp, text).map_err(io("cannot write", &tmp))?;
    std::fs::rename(&tmp, &file).map_err(io("cannot write", &file))
}

/// Gives `problem` its time limit when the package has none: from the cache under
/// `cache`, else by judging each accepted submission (one at a time, under
/// [`MEASURING_LIMIT`], `.py` files as `python`: see [`crate::lang::python_for`]) and
/// storing the result. A limit the package gives is kept. When no accepted submission is
/// accepted, the default stays and [`Provenance::not_derived`] says why. `Err` only when
/// the judge itself fails.
pub async fn resolve(
    problem: &mut Problem,
    config: &SandboxConfig,
    options: &Options,
    cache: Option<&Path>,
    python: &str,
) -> crate::Result<Provenance> {
    if problem.limits.time_source != TimeLimitSource::Default {
        return Ok(Provenance::of(problem));
    }
    let mut provenance = Provenance::of(problem);
    if let Some(derivation) = cache.and_then(|c| cached(c, problem, python)) {
        apply(problem, &derivation);
        provenance = Provenance {
            derivation: Some(derivation),
            cached: true,
            ..Provenance::of(problem)
        };
        return Ok(provenance);
    }
    let timings = measure(problem, config, options, python).await?;
    match derive_from(problem, &timings, python) {
        Ok(derivation) => {
            if let Some(cache) = cache {
                store(cache, &derivation)?;
            }
            apply(problem, &derivation);
            provenance = Provenance {
                derivation: Some(derivation),
                ..Provenance::of(problem)
            };
        }
        Err(why) => provenance.not_derived = Some(why),
    }
    Ok(provenance)
}

/// Judges each submission of `submissions/accepted` under [`MEASURING_LIMIT`], its `.py`
/// files as `python`.
async fn measure(
    problem: &Problem,
    config: &SandboxConfig,
    options: &Options,
    python: &str,
) -> crate::Result<Vec<Timing>> {
    let mut measuring = problem.clone();
    measuring.limits.time = MEASURING_LIMIT;
    let options = Options {
        run_all: false,
        ..options.clone()
    };
    let mut timings = Vec::new();
    for reference in problem
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted")
    {
        let relative = reference
            .path
            .strip_prefix(&problem.root)
            .unwrap_or(&reference.path)
            .to_path_buf();
        let lang = crate::lang::reference_language(&reference.path, python);
        let submission =
            match Submission::from_file(&reference.path, lang, problem.limits.code_bytes) {
                Ok(it) => it,
                Err(err) => {
                    timings.push((relative, Err(err.with_causes())));
                    continue;
                }
            };
        let report = judge(&measuring, &submission, config, &options, &mut |_| {}).await?;
        let slowest = report.tests.iter().map(|t| t.cpu_ms).fold(0.0, f64::max);
        timings.push((relative, Ok((report.verdict, slowest))));
    }
    Ok(timings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(yaml: &str) -> (tempfile::TempDir, Problem) {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write("problem.yaml", yaml);
        write("data/secret/1.in", "1\n");
        write("data/secret/1.ans", "1\n");
        write("submissions/accepted/a.py", "print(input())\n");
        let (problem, _) = problems::load_for_judging(dir.path()).expect("loads");
        (dir, problem)
    }

    fn ac(path: &str, ms: f64) -> Timing {
        (path.into(), Ok((Verdict::AC, ms)))
    }

    #[test]
    fn the_slowest_accepted_submission_sets_the_limit() {
        let (_dir, mut legacy) = problem("name: A\nlimits:\n  time_multiplier: 3\n");
        let timings = [
            ac("submissions/accepted/a.py", 120.0),
            ac("submissions/accepted/b.c", 410.0),
            (
                "submissions/accepted/c.py".into(),
                Ok((Verdict::TLE, 60_000.0)),
            ),
            (
                "submissions/accepted/d.kt".into(),
                Err("unknown language".to_owned()),
            ),
        ];
        let derivation = derive_from(&legacy, &timings, "pypy3").expect("derives");
        // 0.41 s × 3 = 1.23 s, rounded up to 2 s; the TLE bound is 2 s × 2 (legacy default).
        assert_eq!(derivation.time_limit_s, 2.0);
        assert_eq!(derivation.tle_bound_s, 4.0);
        assert_eq!(derivation.slowest, Path::new("submissions/accepted/b.c"));
        assert_eq!(
            derivation.left_out,
            [
                "submissions/accepted/c.py: TLE under 60 s",
                "submissions/accepted/d.kt: unknown language"
            ]
        );
        assert_eq!(legacy.limits.time_source, TimeLimitSource::Default);
        apply(&mut legacy, &derivation);
        assert_eq!(legacy.limits.time, Duration::from_secs(2));
        assert_eq!(legacy.limits.time_source, TimeLimitSource::Derived);

        // 2025-09: ac_to_time_limit 2 by default, resolution 0.5 s: 0.41 × 2 = 0.82 → 1 s.
        let (_dir, modern) = problem(
            "problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_resolution: 0.5\n",
        );
        let derivation = derive_from(&modern, &timings, "python3").expect("derives");
        assert_eq!(derivation.time_limit_s, 1.0);
        assert_eq!(derivation.tle_bound_s, 1.5);
        // A tiny time still gives one resolution step.
        let derivation = derive_from(&modern, &[ac("a.py", 3.0)], "python3").expect("derives");
        assert_eq!(derivation.time_limit_s, 0.5);
    }

    #[test]
    fn no_accepted_run_means_no_derived_limit_and_says_why() {
        let (_dir, problem) = problem("name: A\n");
        assert_eq!(
            derive_from(&problem, &[], "pypy3"),
            Err("no submission in submissions/accepted".to_owned())
        );
        assert_eq!(
            derive_from(
                &problem,
                &[("submissions/accepted/a.py".into(), Ok((Verdict::WA, 5.0)))],
                "pypy3"
            ),
            Err(
                "no accepted submission was accepted: submissions/accepted/a.py: WA under 60 s"
                    .to_owned()
            )
        );
    }

    #[test]
    fn the_cache_is_keyed_by_the_package_identity() {
        let (_dir, mut problem) = problem("name: A\nlimits:\n  time_multiplier: 5\n");
        let cache = tempfile::tempdir().expect("tempdir");
        assert_eq!(cached(cache.path(), &problem, "pypy3"), None);
        let derivation = derive_from(&problem, &[ac("a.py", 300.0)], "pypy3").expect("derives");
        assert_eq!(derivation.time_limit_s, 2.0);
        store(cache.path(), &derivation).expect("stores");
        assert_eq!(
            cached(cache.path(), &problem, "pypy3"),
            Some(derivation.clone())
        );
        // Measured with another interpreter, it is another value.
        assert_eq!(cached(cache.path(), &problem, "python3"), None);
        // Another identity does not see it.
        let mut other = problem.clone();
        other.sha256 = "0".repeat(64);
        assert_eq!(cached(cache.path(), &other, "pypy3"), None);
        // A file under the right name but for another identity or interpreter is not
        // trusted.
        for (sha256, python) in [(&other.sha256, "pypy3"), (&problem.sha256, "python3")] {
            std::fs::copy(
                cache_file(cache.path(), &problem.sha256, "pypy3"),
                cache_file(cache.path(), sha256, python),
            )
            .expect("copy");
        }
        assert_eq!(cached(cache.path(), &other, "pypy3"), None);
        assert_eq!(cached(cache.path(), &problem, "python3"), None);

        apply(&mut problem, &derivation);
        let provenance = Provenance {
            derivation: Some(derivation),
            cached: true,
            ..Provenance::of(&problem)
        };
        assert_eq!(
            provenance.to_string(),
            "time limit 2 s (derived: slowest accepted a.py as pypy3 (300 ms) × 5 rounded up to 1 s, cached)"
        );
        let json = serde_json::to_value(&provenance).expect("serializes");
        assert_eq!(json["source"], "derived");
        assert_eq!(json["seconds"], 2.0);
        assert_eq!(json["derivation"]["time_limit_s"], 2.0);
        assert_eq!(json["derivation"]["python"], "pypy3");
    }

    #[test]
    fn a_given_limit_says_its_file() {
        let (_dir, given) = problem("name: A\nlimits:\n  time_limit: 3\n");
        let provenance = Provenance::of(&given);
        assert_eq!(provenance.to_string(), "time limit 3 s (problem.yaml)");
        assert_eq!(
            serde_json::to_value(&provenance).expect("serializes"),
            serde_json::json!({"seconds": 3.0, "source": "problem.yaml"})
        );
    }
}
