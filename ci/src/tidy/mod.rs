//! Source hygiene checks that rustc and clippy do not make, each run as a test in
//! `ci/tests/workspace.rs`:
//! - every Rust file starts with a `//!` module doc;
//! - heavy crates are named only in the module `arch::HEAVY` gives them;
//! - one module layout: a module with submodules is `name/mod.rs`, never `name.rs`
//!   beside a `name/` folder ([`files_beside_their_folder`]);
//! - every function over 150 lines says why it is long ([`long`]);
//! - no module circles inside a crate ([`circle`]).
//!
//! Exemptions are data beside each check, each with its reason.

pub mod circle;
mod lexer;
pub mod long;

use std::path::{Path, PathBuf};

/// Folders the module layout check leaves alone, each with its reason.
pub const LAYOUT_EXEMPT: &[(&str, &str)] = &[("trainer/", "left to the training issues")];

/// `path` relative to `root`, with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Rust files `name.rs` that sit beside a folder `name/` holding Rust files (the
/// second module layout), relative to `root`, outside [`LAYOUT_EXEMPT`].
pub fn files_beside_their_folder(root: &Path) -> Vec<String> {
    let files = rust_files(root);
    let folders: std::collections::BTreeSet<PathBuf> = files
        .iter()
        .filter_map(|path| path.parent().map(Path::to_path_buf))
        .collect();
    files
        .iter()
        .filter(|path| folders.contains(&path.with_extension("")))
        .map(|path| relative(root, path))
        .filter(|path| {
            !LAYOUT_EXEMPT
                .iter()
                .any(|(folder, _)| path.starts_with(folder))
        })
        .collect()
}

/// Rust files under `root` (skipping `target` folders and hidden folders).
pub fn rust_files(root: &Path) -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            !(e.file_type().is_dir()
                && (name == "target" || (name.starts_with('.') && e.depth() > 0)))
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|ext| ext == "rs"))
        .map(|e| e.into_path())
        .collect();
    res.sort();
    res
}

/// Whether `text` starts with a `//!` doc (after `#!` attributes are not allowed before it).
pub fn has_module_doc(text: &str) -> bool {
    text.lines()
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| line.trim_start().starts_with("//!"))
}

/// Files under `root` that lack a module doc, relative to `root`.
pub fn missing_module_docs(root: &Path) -> Vec<String> {
    rust_files(root)
        .into_iter()
        .filter(|path| {
            std::fs::read_to_string(path)
                .map(|text| !has_module_doc(&text))
                .unwrap_or(true)
        })
        .map(|path| {
            path.strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string()
        })
        .collect()
}

/// Lines of Rust code (not comments) under `root` that name a heavy crate outside the
/// module [`crate::arch::HEAVY`] allows for it, as `path:line: crate`. The `ci` crate
/// (its tests name the crates as data) and integration tests (`tests/` folders, whose
/// dev-dependencies the rules do not govern) are exempt.
pub fn heavy_crates_outside_their_module(root: &Path) -> Vec<String> {
    let mut res = Vec::new();
    for path in rust_files(root) {
        let relative = relative(root, &path);
        if relative.starts_with("ci/")
            || relative.starts_with("tests/")
            || relative.contains("/tests/")
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (idx, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for heavy in crate::arch::HEAVY {
                let name = heavy.name.replace('-', "_");
                let named = names_path(code, &name) || code.starts_with(&format!("use {name}"));
                if named
                    && !heavy
                        .owners
                        .iter()
                        .any(|owner| relative.starts_with(owner.module))
                {
                    res.push(format!("{relative}:{}: {name}", idx + 1));
                }
            }
        }
    }
    res
}

/// Whether `code` has a path starting with the crate `name` (`name::`, not preceded by an
/// identifier character: `batch::` does not name `tch`).
fn names_path(code: &str, name: &str) -> bool {
    let pattern = format!("{name}::");
    code.match_indices(&pattern).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_a_crate_only_at_an_identifier_boundary() {
        assert!(names_path("let t = tch::Tensor::zeros();", "tch"));
        assert!(names_path("(tch::Kind::Float)", "tch"));
        assert!(!names_path("use crate::batch::Queue;", "tch"));
        assert!(!names_path("my_tch::x()", "tch"));
        assert!(names_path("x; ::tch::nn", "tch"));
    }

    #[test]
    fn heavy_crates_are_found_outside_their_module() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write("judge/src/sandbox/docker.rs", "use bollard::Docker;\n");
        write(
            "judge/src/grade.rs",
            "//! Doc naming bollard::Docker in a comment.\nfn f() { let _ = statrs::x(); }\n",
        );
        assert_eq!(
            heavy_crates_outside_their_module(dir.path()),
            vec!["judge/src/grade.rs:2: statrs"]
        );
    }

    #[test]
    fn a_file_beside_its_folder_is_found_outside_trainer() {
        let dir = tempfile::tempdir().expect("tempdir");
        for path in [
            "agent/src/play.rs",
            "agent/src/play/runner.rs",
            "agent/src/solve/mod.rs",
            "agent/src/solve/stage.rs",
            "agent/src/step.rs",
            "trainer/src/toy.rs",
            "trainer/src/toy/compare.rs",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "//! Doc.\n").expect("write");
        }
        assert_eq!(files_beside_their_folder(dir.path()), ["agent/src/play.rs"]);
    }

    #[test]
    fn module_doc_detection() {
        assert!(has_module_doc("//! Doc.\nfn main() {}\n"));
        assert!(has_module_doc("\n\n//! Doc after blank lines.\n"));
        assert!(!has_module_doc("// A plain comment.\n//! Late doc.\n"));
        assert!(!has_module_doc("use std::io;\n"));
        assert!(!has_module_doc(""));
    }
}
