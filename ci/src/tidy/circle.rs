//! Module circles inside a crate: module A uses module B and B, through any chain, uses
//! A. A circle means neither can be read, tested or moved without the other.
//!
//! The graph is read from the sources, not from rustc: each file under a `src/` folder
//! is a module (`lib.rs`, `main.rs` and `mod.rs` stand for their folder; each
//! `src/bin/<name>/` is a crate of its own), and a module uses another when its code
//! (outside comments, strings and `#[cfg(test)]` modules) has a path to it through
//! `crate::`, `super::` or `self::`, `use` groups included. A use between a module and
//! its own descendant does not count (the `grade/` shape: a parent with one file per
//! step that share its context); any other use counts between the two siblings below
//! their closest common ancestor, so a circle is always reported among siblings.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::lexer::code_without_tests;

/// Circles that stay for now, each with its reason: the crate's source folder and the
/// circle's modules as [`module_circles`] names them.
pub const EXEMPT: &[(&str, &[&str], &str)] = &[(
    "trainer/src",
    &["grpo", "optim"],
    "optim reports its errors as grpo::GrpoError while grpo::step drives optim::AdamW; \
         left to the training issues",
)];

/// One circle: the crate's source folder (relative to the root) and its modules
/// (`a::b`), in name order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Circle {
    /// The source folder of the crate (`judge/server/src`, `problems/src/bin/make-easy`).
    pub root: String,
    /// The modules of the circle.
    pub modules: Vec<String>,
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.root, self.modules.join(", "))
    }
}

type Module = Vec<String>;

/// Every module circle of the crates under `root`.
pub fn module_circles(root: &Path) -> Vec<Circle> {
    let mut crates: BTreeMap<String, BTreeMap<Module, String>> = BTreeMap::new();
    for path in super::rust_files(root) {
        let relative = super::relative(root, &path);
        if let Some((crate_root, module)) = module_of(&relative) {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            crates.entry(crate_root).or_default().insert(module, text);
        }
    }
    let mut res = Vec::new();
    for (crate_root, modules) in &crates {
        let edges = sibling_edges(modules);
        for circle in strongly_connected(&edges) {
            res.push(Circle {
                root: crate_root.clone(),
                modules: circle.iter().map(|m| m.join("::")).collect(),
            });
        }
    }
    res.sort();
    res
}

/// The circles of [`module_circles`] that [`EXEMPT`] does not name.
pub fn unexempted_module_circles(root: &Path) -> Vec<Circle> {
    module_circles(root)
        .into_iter()
        .filter(|circle| {
            !EXEMPT.iter().any(|(crate_root, modules, _)| {
                *crate_root == circle.root && modules.iter().eq(circle.modules.iter())
            })
        })
        .collect()
}

/// The crate source folder and module path of the file at `relative`, when it is under
/// a `src/` folder.
fn module_of(relative: &str) -> Option<(String, Module)> {
    let at = relative.find("src/")?;
    if at > 0 && !relative[..at].ends_with('/') {
        return None;
    }
    let package = &relative[..at];
    let inside = relative[at + 4..].strip_suffix(".rs")?;
    let mut parts: Vec<&str> = inside.split('/').collect();
    let mut crate_root = format!("{package}src");
    if parts.first() == Some(&"bin") && parts.len() > 1 {
        crate_root = format!("{package}src/bin/{}", parts[1]);
        parts = if parts.len() == 2 {
            Vec::new()
        } else {
            parts[2..].to_vec()
        };
    }
    if matches!(parts.last(), Some(&"lib" | &"main" | &"mod")) {
        parts.pop();
    }
    Some((crate_root, parts.into_iter().map(str::to_owned).collect()))
}

/// The uses between sibling modules: for each path from one module to another that is
/// not its ancestor or descendant, the edge between their ancestors just below the
/// closest common one.
fn sibling_edges(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let known: BTreeSet<&Module> = modules.keys().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, text) in modules {
        let code = code_without_tests(text);
        for path in paths(&code) {
            let to = resolve(from, &path, &known);
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue;
            }
            edges
                .entry(from[..=common].to_vec())
                .or_default()
                .insert(to[..=common].to_vec());
        }
    }
    edges
}

/// The paths in reduced `code` that start with `crate`, `super` or `self`, as segments;
/// a `use` group (`use crate::a::{b, c::d}`) gives one path per member.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut res = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let boundary = at == 0 || {
                let before = bytes[at - 1];
                !(before.is_ascii_alphanumeric() || before == b'_' || before == b':')
            };
            if boundary {
                expand(&code[at..], Vec::new(), &mut res);
            }
        }
    }
    res
}

/// Reads the path at the start of `text` onto `prefix`, expanding one `{..}` group
/// level by level, and pushes each full path to `res`.
fn expand(text: &str, mut prefix: Vec<String>, res: &mut Vec<Vec<String>>) {
    let mut rest = text;
    loop {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        prefix.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            for (at, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        let member = group[start..at].trim();
                        if !member.is_empty() {
                            expand(member, prefix.clone(), res);
                        }
                        start = at + 1;
                        if ch == '}' {
                            return;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            return;
        }
    }
    if !prefix.is_empty() {
        res.push(prefix);
    }
}

/// The module that `path`, written in module `from`, leads to: its longest prefix that
/// is a known module (items within it do not count).
fn resolve(from: &Module, path: &[String], known: &BTreeSet<&Module>) -> Module {
    let mut base: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => from.clone(),
    };
    let mut segments = path.iter().skip(1).peekable();
    if path.first().map(String::as_str) == Some("super") {
        base.pop();
        while segments.peek().map(|s| s.as_str()) == Some("super") {
            base.pop();
            segments.next();
        }
    }
    for segment in segments {
        let mut next = base.clone();
        next.push(segment.clone());
        if known.contains(&next) {
            base = next;
        } else {
            break;
        }
    }
    base
}

/// The strongly connected components of more than one node (Tarjan's algorithm, written
/// iteratively), each in name order, in order of their first node.
fn strongly_connected(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let nodes: BTreeSet<&Module> = edges
        .iter()
        .flat_map(|(from, to)| std::iter::once(from).chain(to))
        .collect();
    let nodes: Vec<&Module> = nodes.into_iter().collect();
    let index_of: BTreeMap<&Module, usize> =
        nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let next: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| {
            edges
                .get(*m)
                .map_or_else(Vec::new, |to| to.iter().map(|t| index_of[t]).collect())
        })
        .collect();
    let mut index = vec![usize::MAX; nodes.len()];
    let mut low = vec![0; nodes.len()];
    let mut on_stack = vec![false; nodes.len()];
    let mut stack = Vec::new();
    let mut counter = 0;
    let mut res = Vec::new();
    for start in 0..nodes.len() {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some((node, child)) = work.pop() {
            if child == 0 {
                index[node] = counter;
                low[node] = counter;
                counter += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&to) = next[node].get(child) {
                work.push((node, child + 1));
                if index[to] == usize::MAX {
                    work.push((to, 0));
                } else if on_stack[to] {
                    low[node] = low[node].min(index[to]);
                }
                continue;
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(top) = stack.pop() {
                    on_stack[top] = false;
                    component.push(nodes[top].clone());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    res.push(component);
                }
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
        }
    }
    res.sort();
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circles(files: &[(&str, &str)]) -> Vec<String> {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        module_circles(dir.path())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn siblings_that_use_each_other_are_a_circle() {
        let found = circles(&[
            ("k/src/lib.rs", "//! K.\nmod a;\nmod b;\nmod c;\n"),
            ("k/src/a.rs", "//! A.\nuse crate::b::{self, Thing};\n"),
            ("k/src/b.rs", "//! B.\nfn f() { crate::c::g(); }\n"),
            ("k/src/c.rs", "//! C.\nuse crate::{a::X, other};\n"),
        ]);
        assert_eq!(found, ["k/src: a, b, c"]);
    }

    #[test]
    fn a_parent_and_its_steps_are_no_circle_but_two_steps_are() {
        let found = circles(&[
            ("k/src/lib.rs", "//! K.\nmod grade;\n"),
            (
                "k/src/grade/mod.rs",
                "//! G.\nmod plan;\nmod check;\nuse plan::Job;\nuse self::check::Checker;\n",
            ),
            (
                "k/src/grade/plan.rs",
                "//! P.\nuse super::Ctx;\nuse super::check::x;\n",
            ),
            (
                "k/src/grade/check.rs",
                "//! C.\nuse super::super::grade::Ctx;\n",
            ),
        ]);
        assert!(found.is_empty(), "{found:?}");
        let found = circles(&[
            ("k/src/lib.rs", "//! K.\nmod grade;\n"),
            ("k/src/grade/mod.rs", "//! G.\nmod plan;\nmod check;\n"),
            ("k/src/grade/plan.rs", "//! P.\nuse super::check::x;\n"),
            (
                "k/src/grade/check.rs",
                "//! C.\nfn f() { super::plan::y() }\n",
            ),
        ]);
        assert_eq!(found, ["k/src: grade::check, grade::plan"]);
    }

    #[test]
    fn comments_strings_tests_and_other_crates_do_not_count() {
        let found = circles(&[
            ("k/src/lib.rs", "//! K.\n"),
            (
                "k/src/a.rs",
                "//! See [`crate::b`].\nconst S: &str = \"crate::b::x\";\n",
            ),
            (
                "k/src/b.rs",
                "//! B.\nuse crate::a::y;\n#[cfg(test)]\nmod tests {\n    use crate::a::z;\n}\n",
            ),
            (
                "k/src/c.rs",
                "//! C.\n#[cfg(test)]\nmod tests {\n    use crate::b::w;\n}\n",
            ),
            ("k/src/bin/tool/main.rs", "//! T.\nuse crate::b::x;\n"),
            ("k/src/bin/tool/b.rs", "//! B.\nuse crate::c::x;\n"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }
}
