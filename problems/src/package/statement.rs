//! The problem statement: `statement/problem.<lang>.{md,tex,pdf}`, or the legacy
//! `problem_statement/`.

use std::path::{Path, PathBuf};

use super::diagnostics::Ctx;
use super::folder;

/// The statement folders, 2025-09 first.
const STATEMENT_FOLDERS: [&str; 2] = ["statement", "problem_statement"];

/// The first statement file in name order; a warning when there is none.
pub(super) fn find(ctx: &mut Ctx, root: &Path) -> Option<PathBuf> {
    for name in STATEMENT_FOLDERS {
        let Ok(entries) = folder::sorted_entries(&root.join(name)) else {
            continue;
        };
        if let Some(path) = entries.into_iter().find(|p| is_statement(p)) {
            return Some(path);
        }
    }
    ctx.warning(
        &root.join("statement"),
        "no statement (statement/problem.<lang>.md, .tex or .pdf)",
    );
    None
}

/// Whether `path` is named `problem.<...>.md`, `.tex` or `.pdf`.
fn is_statement(path: &Path) -> bool {
    let name = folder::file_name(path);
    name.starts_with("problem.")
        && [".md", ".tex", ".pdf"]
            .iter()
            .any(|ext| name.ends_with(ext))
}
