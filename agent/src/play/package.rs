//! What a participant knows of a problem, written as a package of its own in the run
//! folder: `problem.yaml` (name, the time limit the server states, the memory limit the
//! play assumes), `statement/problem.en.md` (the statement as read) and `data/sample/`
//! (the samples the server offers). No secret data: there is none to have.
//!
//! Loading it back gives the loop a task with a package (when the server offers samples:
//! a package needs test data), so the sandbox runner checks
//! the samples through the judge's own grading path (the default output validator, as
//! the API does not say whether a problem has a custom one), and a reader of the run
//! folder sees exactly what the agent was given.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::client::contest::ProblemText;
use crate::task::Task;

/// Writing or loading a participant's package failed.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A file could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The written package did not load.
    #[error("the package written for problem `{problem}` at {path} does not load: {reason}")]
    Load {
        /// The problem.
        problem: String,
        /// The folder.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

#[derive(Serialize)]
struct Header<'a> {
    problem_format_version: &'static str,
    name: &'a str,
    limits: HeaderLimits,
}

#[derive(Serialize)]
struct HeaderLimits {
    time_limit: f64,
    memory: u64,
}

fn write(path: &Path, text: &str) -> Result<(), PackageError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| PackageError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| PackageError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// A sample's file name: its own when it is a plain name, else its place (a server's
/// name never chooses a path outside the package).
fn file_stem(name: &str, index: usize) -> String {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        name.to_owned()
    } else {
        format!("{:02}", index + 1)
    }
}

/// Writes `problem` as a package under `dir` (replacing what was there) and loads it
/// back as the loop's task, with `memory_mib` as its memory limit.
pub fn write_task(
    problem: &ProblemText,
    dir: &Path,
    memory_mib: u64,
) -> Result<Task, PackageError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|source| PackageError::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let mut task = problem.task(memory_mib << 20);
    let header = Header {
        problem_format_version: "2025-09",
        name: &task.name,
        limits: HeaderLimits {
            time_limit: task.time_limit.as_secs_f64(),
            memory: memory_mib,
        },
    };
    let yaml = serde_yaml::to_string(&header).map_err(|err| PackageError::Load {
        problem: task.id.clone(),
        path: dir.to_path_buf(),
        reason: format!("problem.yaml: {err}"),
    })?;
    write(&dir.join("problem.yaml"), &yaml)?;
    write(&dir.join("statement/problem.en.md"), &task.statement)?;
    for (index, sample) in task.samples.iter().enumerate() {
        let base = dir.join("data/sample");
        let name = file_stem(&sample.name, index);
        write(&base.join(format!("{name}.in")), &sample.input)?;
        write(&base.join(format!("{name}.ans")), &sample.answer)?;
    }
    if task.samples.is_empty() {
        // A package needs test data: without samples the task goes without one (the
        // live runner then checks made-up cases with the default validator).
        return Ok(task);
    }
    let (package, _warnings) =
        problems::load_for_judging(dir).map_err(|err| PackageError::Load {
            problem: task.id.clone(),
            path: dir.to_path_buf(),
            reason: err.to_string(),
        })?;
    task.package = Some(package);
    Ok(task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::Sample;
    use leaderboard::clics::{Problem, Seconds};

    fn text(samples: Vec<Sample>) -> ProblemText {
        ProblemText {
            problem: Problem {
                id: "sum".into(),
                label: "A".into(),
                name: "Sum: of \"Numbers\"".into(),
                time_limit: Some(Seconds::from_millis(1500)),
                ..Problem::default()
            },
            statement: "# Sum\n\nAdd them.\n".into(),
            statement_pdf: None,
            samples,
        }
    }

    #[test]
    fn the_package_holds_what_the_server_gave() {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("sum");
        let samples = vec![
            Sample {
                name: "1".into(),
                input: "2\n1 2\n".into(),
                answer: "3\n".into(),
            },
            Sample {
                name: "2".into(),
                input: "1\n5\n".into(),
                answer: "5\n".into(),
            },
        ];
        let task = write_task(&text(samples.clone()), &at, 256).unwrap();
        assert_eq!(task.id, "sum");
        assert_eq!(task.name, "Sum: of \"Numbers\"");
        assert_eq!(task.samples, samples);
        assert_eq!(task.time_limit, std::time::Duration::from_millis(1500));
        assert_eq!(task.memory_bytes, 256 << 20);
        let package = task.package.expect("a package");
        assert_eq!(package.name, "Sum: of \"Numbers\"");
        assert_eq!(package.limits.time, std::time::Duration::from_millis(1500));
        assert_eq!(package.limits.memory_bytes, 256 << 20);
        assert_eq!(package.sample.cases.len(), 2);
        assert!(package.secret.cases.is_empty() && package.secret.groups.is_empty());
        assert_eq!(
            std::fs::read_to_string(at.join("data/sample/2.ans")).unwrap(),
            "5\n"
        );
        // Written again (a restarted play): replaced, not merged.
        let again = write_task(&text(samples[..1].to_vec()), &at, 256).unwrap();
        assert_eq!(again.package.unwrap().sample.cases.len(), 1);
    }

    #[test]
    fn sample_names_never_leave_the_package() {
        assert_eq!(file_stem("1", 0), "1");
        assert_eq!(file_stem("group-2_a.b", 0), "group-2_a.b");
        assert_eq!(file_stem("../../etc/x", 2), "03");
        assert_eq!(file_stem(".hidden", 0), "01");
        assert_eq!(file_stem("", 9), "10");
    }

    #[test]
    fn a_problem_without_samples_goes_without_a_package() {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("sum");
        let task = write_task(&text(Vec::new()), &at, 256).unwrap();
        assert!(task.samples.is_empty());
        assert!(task.package.is_none());
        // What the agent was given is still on disk.
        assert!(at.join("statement/problem.en.md").is_file());
    }
}
