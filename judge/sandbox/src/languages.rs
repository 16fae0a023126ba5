//! The languages of the three APIs, mapped onto the judge's language table
//! (`judge/languages.yaml`): SandboxFusion's names, Judge0 CE's ids, and the judge's own
//! ids for the native API.
//!
//! SandboxFusion names only what the sandbox image runs: `python` (Python 3, CPython),
//! `cpp`, `c`, `java` (a class `Main`, or whatever public class the source declares) and
//! `kotlin`; any other name is refused (HTTP 422, as SandboxFusion's own model refuses
//! it). Judge0 ids are CE 1.13.1's for the same toolchains: 48, 49 and 50 are C, 52, 53
//! and 54 C++ (every GCC version of CE runs the image's one g++), 62 Java, 71 Python 3,
//! 78 Kotlin. The native API takes the judge's ids (`c`, `cpp`, `python3`, `pypy3`,
//! `java`, `kotlin`) and SandboxFusion's names.

use std::sync::OnceLock;

use judge::lang::Language;

/// The judge's language table, read once.
fn table() -> &'static [Language] {
    static TABLE: OnceLock<Vec<Language>> = OnceLock::new();
    TABLE.get_or_init(|| judge::lang::all().unwrap_or_default())
}

/// The judge's language with this id.
pub fn by_id(id: &str) -> Option<Language> {
    table().iter().find(|lang| lang.id == id).cloned()
}

/// SandboxFusion's language names this server runs, with the judge's language id.
pub const FUSION: &[(&str, &str)] = &[
    ("python", "python3"),
    ("cpp", "cpp"),
    ("c", "c"),
    ("java", "java"),
    ("kotlin", "kotlin"),
];

/// A Judge0 CE language: its id, its name as `/languages` gives it, and the judge's id.
#[derive(Debug, Clone, Copy)]
pub struct Judge0Language {
    /// Judge0 CE's id.
    pub id: u32,
    /// The judge's language id.
    pub judge_id: &'static str,
}

/// Judge0 CE 1.13.1's ids of the toolchains the image has.
pub const JUDGE0: &[Judge0Language] = &[
    Judge0Language {
        id: 48,
        judge_id: "c",
    },
    Judge0Language {
        id: 49,
        judge_id: "c",
    },
    Judge0Language {
        id: 50,
        judge_id: "c",
    },
    Judge0Language {
        id: 52,
        judge_id: "cpp",
    },
    Judge0Language {
        id: 53,
        judge_id: "cpp",
    },
    Judge0Language {
        id: 54,
        judge_id: "cpp",
    },
    Judge0Language {
        id: 62,
        judge_id: "java",
    },
    Judge0Language {
        id: 71,
        judge_id: "python3",
    },
    Judge0Language {
        id: 78,
        judge_id: "kotlin",
    },
];

/// The judge's language for SandboxFusion's `name`, or `None` when this server does not
/// run it.
pub fn fusion(name: &str) -> Option<Language> {
    let (_, id) = FUSION.iter().find(|(it, _)| *it == name)?;
    by_id(id)
}

/// The judge's language for Judge0's `id`.
pub fn judge0(id: u32) -> Option<Language> {
    let found = JUDGE0.iter().find(|it| it.id == id)?;
    by_id(found.judge_id)
}

/// The judge's language for a native request's `name`: a judge id or a SandboxFusion name.
pub fn native(name: &str) -> Option<Language> {
    by_id(name).or_else(|| fusion(name))
}

/// Every name the native API accepts, for error messages.
pub fn native_names() -> Vec<String> {
    let mut res: Vec<String> = table().iter().map(|lang| lang.id.clone()).collect();
    for (name, _) in FUSION {
        if !res.iter().any(|it| it == name) {
            res.push((*name).to_owned());
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapped_id_is_a_judge_language() {
        for (name, id) in FUSION {
            assert!(by_id(id).is_some(), "{name} -> {id}");
            assert!(fusion(name).is_some(), "{name}");
        }
        for lang in JUDGE0 {
            assert!(judge0(lang.id).is_some(), "{}", lang.id);
        }
    }

    #[test]
    fn the_anchor_names_map_as_their_clients_expect() {
        assert_eq!(fusion("python").map(|l| l.id), Some("python3".to_owned()));
        assert_eq!(fusion("java").map(|l| l.id), Some("java".to_owned()));
        assert!(fusion("cobol").is_none());
        assert_eq!(judge0(71).map(|l| l.id), Some("python3".to_owned()));
        assert_eq!(judge0(54).map(|l| l.id), Some("cpp".to_owned()));
        assert_eq!(judge0(50).map(|l| l.id), Some("c".to_owned()));
        assert!(judge0(1).is_none());
        assert_eq!(native("python").map(|l| l.id), Some("python3".to_owned()));
        assert_eq!(native("pypy3").map(|l| l.id), Some("pypy3".to_owned()));
        assert!(native_names().contains(&"python".to_owned()));
    }
}
