//! Source hygiene checks: every Rust file starts with a `//!` module doc.

use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_doc_detection() {
        assert!(has_module_doc("//! Doc.\nfn main() {}\n"));
        assert!(has_module_doc("\n\n//! Doc after blank lines.\n"));
        assert!(!has_module_doc("// A plain comment.\n//! Late doc.\n"));
        assert!(!has_module_doc("use std::io;\n"));
        assert!(!has_module_doc(""));
    }
}
