//! Long functions: every function over [`MOST_LINES`] lines is listed, and each needs a
//! sentence in its doc comment saying why it is long (one with the words "long because").
//!
//! A long function is where the next engineer has to hold the most in their head, so
//! it is either cut where it divides or explained. Tables of data, such as the easy
//! problems' families in `make-easy`, are the usual good reason. A function's lines run
//! from its `fn` line to its closing brace; its doc is the `///` lines above it
//! (attributes between them are skipped).

use std::path::Path;

use super::lexer::{code_only, matching_brace};

/// The most lines a function may have without saying why.
pub const MOST_LINES: usize = 150;

/// Folders whose long functions are not checked, each with its reason.
pub const EXEMPT: &[(&str, &str)] = &[("trainer/", "left to the training issues")];

/// One function over [`MOST_LINES`] lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongFunction {
    /// The file, relative to the workspace root.
    pub path: String,
    /// The line of its `fn`.
    pub line: usize,
    /// Its name.
    pub name: String,
    /// Its lines, from the `fn` line to the closing brace.
    pub lines: usize,
    /// Whether its doc says why it is long.
    pub explained: bool,
}

impl std::fmt::Display for LongFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} ({} lines)",
            self.path, self.line, self.name, self.lines
        )
    }
}

/// Every function over [`MOST_LINES`] lines in the Rust files under `root`, outside
/// [`EXEMPT`], in path and line order.
pub fn long_functions(root: &Path) -> Vec<LongFunction> {
    let mut res = Vec::new();
    for path in super::rust_files(root) {
        let relative = super::relative(root, &path);
        if EXEMPT
            .iter()
            .any(|(folder, _)| relative.starts_with(folder))
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        res.extend(
            functions_in(&text)
                .into_iter()
                .filter(|f| f.lines > MOST_LINES)
                .map(|f| LongFunction {
                    path: relative.clone(),
                    ..f
                }),
        );
    }
    res
}

/// The functions with a body in `text`, with their lengths (their `path` empty).
fn functions_in(text: &str) -> Vec<LongFunction> {
    let code = code_only(text);
    let source: Vec<&str> = text.lines().collect();
    let mut res = Vec::new();
    let mut offset = 0;
    for (idx, line) in code.split('\n').enumerate() {
        let start = offset;
        offset += line.len() + 1;
        let Some(name) = fn_name(line) else {
            continue;
        };
        let Some(open) = body_start(&code, start) else {
            continue;
        };
        let Some(close) = matching_brace(&code, open) else {
            continue;
        };
        let last = code[..close].matches('\n').count();
        res.push(LongFunction {
            path: String::new(),
            line: idx + 1,
            name,
            lines: last - idx + 1,
            explained: doc_above(&source, idx)
                .to_lowercase()
                .contains("long because"),
        });
    }
    res
}

/// The name of the function whose `fn` starts `line` (after visibility and qualifiers).
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.trim_start();
    loop {
        let next = [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
            "extern \"C\" ",
        ]
        .iter()
        .find_map(|prefix| words.strip_prefix(prefix));
        match next {
            Some(rest) => words = rest.trim_start(),
            None => break,
        }
    }
    let rest = words.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The offset of the body's `{` of the function starting at `start`, or `None` for a
/// declaration without a body (ended by `;` first).
fn body_start(code: &str, start: usize) -> Option<usize> {
    let rest = &code[start..];
    let open = rest.find('{')?;
    match rest.find(';') {
        Some(semicolon) if semicolon < open => None,
        _ => Some(start + open),
    }
}

/// The `///` doc lines right above line `idx`, attributes skipped, joined.
fn doc_above(source: &[&str], idx: usize) -> String {
    let mut doc = Vec::new();
    for line in source[..idx].iter().rev() {
        let line = line.trim_start();
        if let Some(text) = line.strip_prefix("///") {
            doc.push(text.trim());
        } else if !line.starts_with("#[") {
            break;
        }
    }
    doc.reverse();
    doc.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: usize) -> String {
        (0..lines.saturating_sub(2))
            .map(|_| "    let x = \"}\";\n")
            .collect()
    }

    #[test]
    fn lengths_run_from_the_fn_line_to_the_closing_brace() {
        let text = format!(
            "/// Short.\nfn short() {{\n{}}}\n\n/// It is long because it is a table.\n#[rustfmt::skip]\npub(crate) async fn table() {{\n{}}}\nfn declared();\n",
            body(5),
            body(200)
        );
        let found: Vec<(String, usize, usize, bool)> = functions_in(&text)
            .into_iter()
            .map(|f| (f.name, f.line, f.lines, f.explained))
            .collect();
        assert_eq!(
            found,
            [
                ("short".to_owned(), 2, 5, false),
                ("table".to_owned(), 10, 200, true)
            ]
        );
    }

    #[test]
    fn an_unexplained_long_function_is_listed_and_trainer_is_exempt() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write(
            "agent/src/a.rs",
            &format!("//! A.\n\nfn run() {{\n{}}}\n", body(151)),
        );
        write(
            "trainer/src/b.rs",
            &format!("//! B.\n\nfn run() {{\n{}}}\n", body(400)),
        );
        let found = long_functions(dir.path());
        assert_eq!(
            found.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["agent/src/a.rs:3: run (151 lines)"]
        );
        assert!(!found[0].explained);
    }
}
