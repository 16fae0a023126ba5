//! The problems a run sees: the training and held-out lists of a `--problems` folder
//! ([`load_problems`]: its `split.yaml`, or every package when there is none), the
//! configuration's choice among the training problems ([`chosen_training`], which never
//! lets a validation or held-out name through), and the seeded order in which the training loop visits
//! them ([`step_problems`]).
//!
//! Shared by the GRPO loop (`super::run`), the warm start (`super::sft`) and evaluation
//! (`super::eval`), none of which depends on another for it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use agent::task::Task;

use super::config::TrainConfig;
use crate::rng::{mix, permutation};

/// A problem with its family (from `split.yaml`; none without one).
#[derive(Debug, Clone)]
pub struct Problem {
    /// The loaded package.
    pub task: Arc<Task>,
    /// Its family, e.g. `arithmetic`.
    pub family: Option<String>,
}

/// The problems of a `--problems` folder.
#[derive(Debug)]
pub struct ProblemSet {
    /// Problems trained on.
    pub training: Vec<Problem>,
    /// Problems never trained on, for choosing hyperparameters and checkpoints.
    pub validation: Vec<Problem>,
    /// Problems held out for evaluation.
    pub held_out: Vec<Problem>,
    /// Whether a `split.yaml` gave the lists (without one, every package trains and
    /// nothing is held out).
    pub split: bool,
}

fn problems_of(dirs: &[PathBuf], families: &[Option<String>]) -> anyhow::Result<Vec<Problem>> {
    dirs.iter()
        .zip(families)
        .map(|(d, family)| {
            let task = Task::from_package(d)
                .map_err(|e| anyhow::anyhow!("problem {}: {e}", d.display()))?;
            Ok(Problem {
                task: Arc::new(task),
                family: family.clone(),
            })
        })
        .collect()
}

/// The training and held-out problems under `root`: a folder with a `split.yaml`, a
/// folder of packages, or one package.
pub fn load_problems(root: &Path) -> anyhow::Result<ProblemSet> {
    let split = root.join("split.yaml");
    if split.is_file() {
        let text = std::fs::read_to_string(&split)
            .map_err(|e| anyhow::anyhow!("{}: {e}", split.display()))?;
        let s = problems::easy::Split::parse(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", split.display()))?;
        let families = |entries: &[problems::easy::Entry]| -> Vec<Option<String>> {
            entries.iter().map(|e| Some(e.family.clone())).collect()
        };
        return Ok(ProblemSet {
            training: problems_of(&s.training_dirs(root), &families(&s.training))?,
            validation: problems_of(&s.validation_dirs(root), &families(&s.validation))?,
            held_out: problems_of(&s.held_out_dirs(root), &families(&s.held_out))?,
            split: true,
        });
    }
    let dirs = if root.join("problem.yaml").is_file() {
        vec![root.to_path_buf()]
    } else {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
            .map_err(|e| anyhow::anyhow!("--problems {}: {e}", root.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("problem.yaml").is_file())
            .collect();
        dirs.sort();
        dirs
    };
    if dirs.is_empty() {
        anyhow::bail!(
            "--problems {}: no package folders (with problem.yaml) and no split.yaml",
            root.display()
        );
    }
    Ok(ProblemSet {
        training: problems_of(&dirs, &vec![None; dirs.len()])?,
        validation: Vec::new(),
        held_out: Vec::new(),
        split: false,
    })
}

/// The tasks a run trains on: every training problem (never a validation or held-out
/// one), or the configuration's `training_problems` in the training list's order. A name
/// on the validation or held-out list, or on none, is an error naming it.
pub(crate) fn chosen_training(
    set: &ProblemSet,
    config: &TrainConfig,
) -> anyhow::Result<Vec<Arc<Task>>> {
    let training = &set.training;
    let wanted = &config.training_problems;
    for name in wanted {
        if training.iter().any(|p| &p.task.id == name) {
            continue;
        }
        for (list, problems) in [("held-out", &set.held_out), ("validation", &set.validation)] {
            if problems.iter().any(|p| &p.task.id == name) {
                anyhow::bail!(
                    "training config training_problems: {name:?} is a {list} problem (split.yaml), never trained on"
                );
            }
        }
        anyhow::bail!(
            "training config training_problems: {name:?} is not a training problem of the problem folder"
        );
    }
    Ok(training
        .iter()
        .filter(|p| wanted.is_empty() || wanted.contains(&p.task.id))
        .map(|p| Arc::clone(&p.task))
        .collect())
}

/// The problems of training step `step` (from 1): epochs of a seeded permutation.
pub fn step_problems(seed: u64, step: u64, per_step: usize, count: usize) -> Vec<usize> {
    (0..per_step as u64)
        .map(|k| {
            let index = (step - 1) * per_step as u64 + k;
            let epoch = index / count as u64;
            permutation(count, mix(seed ^ mix(epoch)))[(index % count as u64) as usize]
        })
        .collect()
}

/// Why a problem's reference solution cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// The problem has no accepted solution in the language.
    #[error(
        "problem {problem}: no accepted reference solution in {language} (submissions/accepted/*.{ext})"
    )]
    Missing {
        /// The package.
        problem: String,
        /// The language.
        language: String,
        /// The extension looked for.
        ext: String,
    },
    /// A solution's file cannot be read.
    #[error("problem {problem}: {message}")]
    Unreadable {
        /// The package.
        problem: String,
        /// What failed.
        message: String,
    },
}

/// The file extensions of a judge language's sources.
fn extensions(language: &str) -> &'static [&'static str] {
    match language {
        "python3" | "python" | "pypy3" => &["py"],
        "cpp" | "c++" => &["cpp", "cc", "cxx"],
        "c" => &["c"],
        "java" => &["java"],
        "kotlin" => &["kt"],
        "rust" => &["rs"],
        _ => &[],
    }
}

/// The accepted reference solutions of `task` in `language`, in path order.
pub fn reference_solutions(
    task: &Task,
    language: &str,
) -> Result<Vec<(PathBuf, String)>, ReferenceError> {
    let exts = extensions(language);
    let missing = || ReferenceError::Missing {
        problem: task.id.clone(),
        language: language.to_owned(),
        ext: exts.first().copied().unwrap_or("?").to_owned(),
    };
    let package = task.package.as_ref().ok_or_else(missing)?;
    let mut found: Vec<PathBuf> = package
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted" && s.path.is_file())
        .filter(|s| {
            s.path
                .extension()
                .is_some_and(|e| exts.iter().any(|x| e == *x))
        })
        .map(|s| s.path.clone())
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(missing());
    }
    found
        .into_iter()
        .map(|p| {
            std::fs::read_to_string(&p)
                .map(|text| (p.clone(), text))
                .map_err(|e| ReferenceError::Unreadable {
                    problem: task.id.clone(),
                    message: format!("{}: {e}", p.display()),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `training_problems` narrows the easy set's training list, in the list's order, and
    /// names a held-out, validation or unknown problem instead of training on it.
    #[test]
    fn training_problems_pick_from_the_training_list_only() {
        let s = load_problems(&problems::easy::dir()).expect("the easy set");
        let pick = |names: &[&str]| {
            let config = TrainConfig {
                training_problems: names.iter().map(|n| n.to_string()).collect(),
                ..TrainConfig::default()
            };
            chosen_training(&s, &config)
        };
        let picked = pick(&["uppercase", "listsum"]).expect("picked");
        let ids: Vec<&str> = picked.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["uppercase", "listsum"]);
        assert_eq!(pick(&[]).expect("all").len(), s.training.len());
        let err = pick(&["listsum", "digitsum"]).unwrap_err();
        assert!(
            err.to_string()
                .contains("\"digitsum\" is a held-out problem"),
            "{err}"
        );
        let validation = &s.validation[0].task.id;
        let err = pick(&["listsum", validation]).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("{validation:?} is a validation problem")),
            "{err}"
        );
        assert!(
            s.validation
                .iter()
                .chain(&s.held_out)
                .all(|v| s.training.iter().all(|t| t.task.id != v.task.id))
        );
        let err = pick(&["nosuch"]).unwrap_err();
        assert!(
            err.to_string()
                .contains("\"nosuch\" is not a training problem"),
            "{err}"
        );
    }

    #[test]
    fn the_data_order_is_a_seeded_permutation_per_epoch() {
        let n = 5;
        let all: Vec<usize> = (1..=5).flat_map(|s| step_problems(3, s, 1, n)).collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4], "one epoch visits each once");
        assert_eq!(step_problems(3, 4, 2, n), step_problems(3, 4, 2, n));
        let other: Vec<usize> = (1..=5).flat_map(|s| step_problems(4, s, 1, n)).collect();
        assert_ne!(all, other, "another seed, another order");
    }
}
