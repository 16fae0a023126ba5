//! The easy problem set (`problems/easy/`) and its split into training, validation and
//! held-out problems, read from `problems/easy/split.yaml`: the one record the trainer and
//! the evaluation both use, so neither can train on a validation or held-out problem by
//! mistake.
//!
//! The packages are written by `cargo run -p problems --bin make-easy` from problem
//! families (arithmetic, strings, lists, loops, conditions, counting, math, bits, geometry,
//! dates) and tasks in several layouts; the split names each problem with its family and
//! its task (the solver its variants share). The file is compiled in ([`split`]), so a binary
//! built from the repository carries the split it was built with; [`Split::parse`] reads
//! another copy, and [`Split::check`] holds the rules: the sets are disjoint, every
//! package of the folder is in exactly one of them, every task (the solver that the
//! variants of one problem share: other layouts, formats and wordings) is on one side only,
//! so every validation and held-out problem needs a solver training never saw; validation
//! holds training families only (it chooses hyperparameters on problems like those
//! trained on), and at least one held-out family never occurs in training.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The split as committed (`problems/easy/split.yaml`).
const SPLIT_YAML: &str = include_str!("../easy/split.yaml");

/// What is wrong with a split.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SplitError {
    /// The file is not the expected YAML.
    #[error("split.yaml: {0}")]
    Yaml(String),
    /// A problem is in two sets, or twice in one.
    #[error("split.yaml: {0} is listed more than once")]
    Duplicate(String),
    /// A package of the folder is in no set.
    #[error("split.yaml: the package {0} is in none of training, validation and held_out")]
    Missing(String),
    /// A listed problem has no package.
    #[error("split.yaml: {0} is listed but problems/easy/{0}/ is not a package")]
    Unknown(String),
    /// Two problems of one task (one solver) are in different sets.
    #[error(
        "split.yaml: the task {task} is on two sides: {first} in {first_set}, {second} in {second_set}"
    )]
    TaskOnTwoSides {
        /// The task (solver) both problems share.
        task: String,
        /// The first problem of the task.
        first: String,
        /// Its set.
        first_set: &'static str,
        /// A problem of the task in another set.
        second: String,
        /// Its set.
        second_set: &'static str,
    },
    /// A validation problem's family never occurs in training.
    #[error(
        "split.yaml: the validation problem {name} is of the family {family}, which training never sees"
    )]
    UnseenValidationFamily {
        /// The problem.
        name: String,
        /// Its family.
        family: String,
    },
    /// Every held-out family also occurs in training.
    #[error("split.yaml: every held-out family also occurs in training")]
    NoUnseenFamily,
    /// The easy folder cannot be listed.
    #[error("{path}: {message}")]
    Io {
        /// The folder.
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

/// One problem of the split.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The package folder's name under `problems/easy/`.
    pub name: String,
    /// Its family (`arithmetic`, `strings`, ...).
    pub family: String,
    /// Its task: the solver it shares with its variants (other input layouts, output
    /// formats or wordings of the same problem). Absent, the task is the name.
    #[serde(default)]
    pub task: Option<String>,
}

impl Entry {
    /// The task (solver identity): `task`, or the name when the entry has none.
    pub fn task(&self) -> &str {
        self.task.as_deref().unwrap_or(&self.name)
    }
}

/// The training, validation and held-out problems.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    /// Problems a policy may be trained on.
    pub training: Vec<Entry>,
    /// Problems never trained on, of training families and new tasks: where
    /// hyperparameters and checkpoints are chosen.
    #[serde(default)]
    pub validation: Vec<Entry>,
    /// Problems kept for the reported evaluation only.
    pub held_out: Vec<Entry>,
}

/// The committed split (the rules of [`Split::check`] are tested against the packages).
pub fn split() -> Result<Split, SplitError> {
    Split::parse(SPLIT_YAML)
}

/// The folder of the easy packages in this source tree (`problems/easy`).
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("easy")
}

impl Split {
    /// A split from its YAML text.
    pub fn parse(text: &str) -> Result<Split, SplitError> {
        serde_yaml::from_str(text).map_err(|e| SplitError::Yaml(e.to_string()))
    }

    /// The three sets with their names in `split.yaml`.
    fn sets(&self) -> [(&'static str, &[Entry]); 3] {
        [
            ("training", &self.training),
            ("validation", &self.validation),
            ("held_out", &self.held_out),
        ]
    }

    /// The families held out that training never sees.
    pub fn unseen_families(&self) -> BTreeSet<&str> {
        self.held_out
            .iter()
            .filter(|e| !self.in_family(e))
            .map(|e| e.family.as_str())
            .collect()
    }

    /// Whether the entry's family occurs in training (an in-family problem), as
    /// against a family training never sees (out-of-family).
    pub fn in_family(&self, entry: &Entry) -> bool {
        self.training.iter().any(|e| e.family == entry.family)
    }

    /// The package folders of the training problems under `root`.
    pub fn training_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.training.iter().map(|e| root.join(&e.name)).collect()
    }

    /// The package folders of the validation problems under `root`.
    pub fn validation_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.validation.iter().map(|e| root.join(&e.name)).collect()
    }

    /// The package folders of the held-out problems under `root`.
    pub fn held_out_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.held_out.iter().map(|e| root.join(&e.name)).collect()
    }

    /// The rules against the package folders under `root` (each a folder with a
    /// `problem.yaml`): the sets are disjoint and complete, each task is on one side,
    /// validation holds training families only, and a held-out family is unseen in
    /// training.
    pub fn check(&self, root: &Path) -> Result<(), SplitError> {
        let io = |e: std::io::Error| SplitError::Io {
            path: root.to_path_buf(),
            message: e.to_string(),
        };
        let mut packages = BTreeSet::new();
        for entry in std::fs::read_dir(root).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if path.join("problem.yaml").is_file()
                && let Some(name) = path.file_name().and_then(|n| n.to_str())
            {
                packages.insert(name.to_owned());
            }
        }
        self.check_names(&packages)
    }

    /// The rules of [`Split::check`] against the given package names.
    pub fn check_names(&self, packages: &BTreeSet<String>) -> Result<(), SplitError> {
        let mut listed = BTreeSet::new();
        let mut tasks: BTreeMap<&str, (&'static str, &str)> = BTreeMap::new();
        for (set, entries) in self.sets() {
            for entry in entries {
                if !listed.insert(entry.name.as_str()) {
                    return Err(SplitError::Duplicate(entry.name.clone()));
                }
                if !packages.contains(&entry.name) {
                    return Err(SplitError::Unknown(entry.name.clone()));
                }
                let (first_set, first) = *tasks
                    .entry(entry.task())
                    .or_insert((set, entry.name.as_str()));
                if first_set != set {
                    return Err(SplitError::TaskOnTwoSides {
                        task: entry.task().to_owned(),
                        first: first.to_owned(),
                        first_set,
                        second: entry.name.clone(),
                        second_set: set,
                    });
                }
            }
        }
        if let Some(missing) = packages.iter().find(|p| !listed.contains(p.as_str())) {
            return Err(SplitError::Missing(missing.clone()));
        }
        if let Some(entry) = self.validation.iter().find(|e| !self.in_family(e)) {
            return Err(SplitError::UnseenValidationFamily {
                name: entry.name.clone(),
                family: entry.family.clone(),
            });
        }
        if self.unseen_families().is_empty() {
            return Err(SplitError::NoUnseenFamily);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_split_follows_its_rules_and_sizes() {
        let split = split().expect("split.yaml parses");
        split.check(&dir()).expect("the split follows its rules");
        assert!(split.training.len() >= 150, "{}", split.training.len());
        assert!(split.validation.len() >= 16, "{}", split.validation.len());
        let (in_family, out_of_family): (Vec<&Entry>, Vec<&Entry>) =
            split.held_out.iter().partition(|e| split.in_family(e));
        assert!(in_family.len() >= 20, "{} in-family", in_family.len());
        assert!(
            out_of_family.len() >= 20,
            "{} out-of-family",
            out_of_family.len()
        );
        assert!(!split.unseen_families().is_empty());
    }

    #[test]
    fn families_match_the_packages_keywords() {
        let split = split().expect("split.yaml parses");
        for (_, entries) in split.sets() {
            for entry in entries {
                let yaml = std::fs::read_to_string(dir().join(&entry.name).join("problem.yaml"))
                    .expect("problem.yaml is readable");
                assert!(
                    yaml.contains(&format!("keywords: [easy, {}]", entry.family)),
                    "{}: family {} is not in its keywords",
                    entry.name,
                    entry.family
                );
            }
        }
    }

    fn entry(name: &str, family: &str, task: Option<&str>) -> Entry {
        Entry {
            name: name.to_owned(),
            family: family.to_owned(),
            task: task.map(str::to_owned),
        }
    }

    /// A small split over the packages `a1`, `a2`, `b`, `c` and `d`: the task `a` has two
    /// variants, both in training.
    fn small() -> (Split, BTreeSet<String>) {
        let split = Split {
            training: vec![
                entry("a1", "lists", Some("a")),
                entry("a2", "lists", Some("a")),
            ],
            validation: vec![entry("b", "lists", None)],
            held_out: vec![entry("c", "lists", None), entry("d", "dates", None)],
        };
        let packages = ["a1", "a2", "b", "c", "d"].map(str::to_owned).into();
        (split, packages)
    }

    #[test]
    fn broken_splits_are_refused_with_the_problem_named() {
        let (good, packages) = small();
        assert_eq!(good.check_names(&packages), Ok(()));
        assert!(good.in_family(&good.held_out[0]));
        assert!(!good.in_family(&good.held_out[1]));

        let mut twice = good.clone();
        twice.held_out.push(entry("b", "lists", None));
        assert_eq!(
            twice.check_names(&packages),
            Err(SplitError::Duplicate("b".to_owned()))
        );
        let mut short = good.clone();
        short.held_out.pop();
        assert_eq!(
            short.check_names(&packages),
            Err(SplitError::Missing("d".to_owned()))
        );
        let mut unknown = good.clone();
        unknown.training.push(entry("nosuchproblem", "lists", None));
        assert_eq!(
            unknown.check_names(&packages),
            Err(SplitError::Unknown("nosuchproblem".to_owned()))
        );
        let mut seen = good.clone();
        seen.held_out[1].family = "lists".to_owned();
        assert_eq!(seen.check_names(&packages), Err(SplitError::NoUnseenFamily));
        assert!(matches!(
            Split::parse("training: [{name: a}]\nheld_out: []\n"),
            Err(SplitError::Yaml(_))
        ));
    }

    #[test]
    fn a_task_on_two_sides_is_refused_naming_both_problems() {
        let (good, packages) = small();
        let mut leak = good.clone();
        leak.held_out[0].task = Some("a".to_owned());
        let err = leak.check_names(&packages).unwrap_err();
        assert_eq!(
            err,
            SplitError::TaskOnTwoSides {
                task: "a".to_owned(),
                first: "a1".to_owned(),
                first_set: "training",
                second: "c".to_owned(),
                second_set: "held_out",
            }
        );
        assert_eq!(
            err.to_string(),
            "split.yaml: the task a is on two sides: a1 in training, c in held_out"
        );
        let mut validation_leak = good.clone();
        validation_leak.validation[0].task = Some("a".to_owned());
        assert!(matches!(
            validation_leak.check_names(&packages),
            Err(SplitError::TaskOnTwoSides { second, second_set: "validation", .. }) if second == "b"
        ));
        // A task's variants together on one side are fine, also outside training.
        let mut together = good.clone();
        together.held_out[1].task = Some("c".to_owned());
        together.held_out[1].family = "lists".to_owned();
        together.held_out.push(entry("e", "dates", None));
        let mut more = packages.clone();
        more.insert("e".to_owned());
        assert_eq!(together.check_names(&more), Ok(()));
    }

    #[test]
    fn validation_of_a_family_training_never_sees_is_refused() {
        let (good, packages) = small();
        let mut unseen = good.clone();
        unseen.validation[0].family = "dates".to_owned();
        assert_eq!(
            unseen.check_names(&packages),
            Err(SplitError::UnseenValidationFamily {
                name: "b".to_owned(),
                family: "dates".to_owned(),
            })
        );
    }

    #[test]
    fn a_split_without_validation_parses_and_the_task_defaults_to_the_name() {
        let split = Split::parse(
            "training:\n  - {name: x1, family: lists, task: x}\nheld_out:\n  - {name: y, family: dates}\n",
        )
        .expect("parses");
        assert!(split.validation.is_empty());
        assert_eq!(split.training[0].task(), "x");
        assert_eq!(split.held_out[0].task(), "y");
    }
}
