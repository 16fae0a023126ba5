//! The easy problem set (`problems/easy/`) and its split into training and held-out
//! problems, read from `problems/easy/split.yaml`: the one record the trainer and the
//! evaluation both use, so neither can train on a held-out problem by mistake.
//!
//! The packages are written by `cargo run -p problems --bin make-easy` from problem
//! families (arithmetic, strings, lists, loops, conditions, counting, math); the split
//! names each problem with its family. The file is compiled in ([`split`]), so a binary
//! built from the repository carries the split it was built with; [`Split::parse`] reads
//! another copy, and [`Split::check`] holds the rules: the sets are disjoint, every
//! package of the folder is in exactly one of them, and at least one held-out family never
//! occurs in training.

use std::collections::BTreeSet;
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
    /// A problem is in both sets, or twice in one.
    #[error("split.yaml: {0} is listed more than once")]
    Duplicate(String),
    /// A package of the folder is in neither set.
    #[error("split.yaml: the package {0} is in neither training nor held_out")]
    Missing(String),
    /// A listed problem has no package.
    #[error("split.yaml: {0} is listed but problems/easy/{0}/ is not a package")]
    Unknown(String),
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
}

/// The training and held-out problems.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    /// Problems a policy may be trained on.
    pub training: Vec<Entry>,
    /// Problems kept for evaluation only.
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

    /// The families held out that training never sees.
    pub fn unseen_families(&self) -> BTreeSet<&str> {
        let seen: BTreeSet<&str> = self.training.iter().map(|e| e.family.as_str()).collect();
        self.held_out
            .iter()
            .map(|e| e.family.as_str())
            .filter(|f| !seen.contains(f))
            .collect()
    }

    /// The package folders of the training problems under `root`.
    pub fn training_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.training.iter().map(|e| root.join(&e.name)).collect()
    }

    /// The package folders of the held-out problems under `root`.
    pub fn held_out_dirs(&self, root: &Path) -> Vec<PathBuf> {
        self.held_out.iter().map(|e| root.join(&e.name)).collect()
    }

    /// The rules against the package folders under `root` (each a folder with a
    /// `problem.yaml`): disjoint, complete, and a held-out family unseen in training.
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
        let mut listed = BTreeSet::new();
        for entry in self.training.iter().chain(&self.held_out) {
            if !listed.insert(entry.name.as_str()) {
                return Err(SplitError::Duplicate(entry.name.clone()));
            }
            if !packages.contains(&entry.name) {
                return Err(SplitError::Unknown(entry.name.clone()));
            }
        }
        if let Some(missing) = packages.iter().find(|p| !listed.contains(p.as_str())) {
            return Err(SplitError::Missing(missing.clone()));
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
    fn the_committed_split_is_disjoint_complete_and_holds_out_a_family() {
        let split = split().expect("split.yaml parses");
        split.check(&dir()).expect("the split follows its rules");
        assert!(split.training.len() >= 30, "{}", split.training.len());
        assert!(split.held_out.len() >= 10, "{}", split.held_out.len());
        let training: BTreeSet<&str> = split.training.iter().map(|e| e.name.as_str()).collect();
        assert!(
            split
                .held_out
                .iter()
                .all(|e| !training.contains(e.name.as_str()))
        );
        assert!(!split.unseen_families().is_empty());
    }

    #[test]
    fn families_match_the_packages_keywords() {
        let split = split().expect("split.yaml parses");
        for entry in split.training.iter().chain(&split.held_out) {
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

    #[test]
    fn broken_splits_are_refused_with_the_problem_named() {
        let root = dir();
        let good = split().expect("split.yaml parses");
        let mut twice = good.clone();
        twice.held_out.push(good.training[0].clone());
        assert_eq!(
            twice.check(&root),
            Err(SplitError::Duplicate(good.training[0].name.clone()))
        );
        let mut short = good.clone();
        let dropped = short.training.pop().expect("training problems");
        assert_eq!(short.check(&root), Err(SplitError::Missing(dropped.name)));
        let mut unknown = good.clone();
        unknown.training.push(Entry {
            name: "nosuchproblem".to_owned(),
            family: "math".to_owned(),
        });
        assert_eq!(
            unknown.check(&root),
            Err(SplitError::Unknown("nosuchproblem".to_owned()))
        );
        let mut seen = good.clone();
        for entry in &mut seen.held_out {
            entry.family = good.training[0].family.clone();
        }
        assert_eq!(seen.check(&root), Err(SplitError::NoUnseenFamily));
        assert!(matches!(
            Split::parse("training: [{name: a}]\nheld_out: []\n"),
            Err(SplitError::Yaml(_))
        ));
    }
}
