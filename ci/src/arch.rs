//! The architecture rules of DESIGN.md as data, checked against `cargo metadata`.
//!
//! Only normal (non-dev, non-build) dependencies count; `tests` and `ci` are exempt.
//! Heavy external dependencies are pinned to the one crate allowed to use them, and the
//! pure crates (`problems`, `leaderboard`) may not reach an async runtime, HTTP, Docker
//! or torch even through another crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Workspace crates and the workspace crates each may depend on (normal dependencies).
pub const ALLOWED_EDGES: &[(&str, &[&str])] = &[
    ("problems", &[]),
    ("leaderboard", &["problems"]),
    ("judge", &["problems", "leaderboard"]),
    ("agent", &["problems", "judge"]),
    ("trainer", &["problems", "judge", "agent"]),
];

/// Crates exempt from the edge rules.
pub const EXEMPT: &[&str] = &["tests", "ci"];

/// Heavy external crates and the one workspace crate that may depend on each.
pub const HEAVY_OWNERS: &[(&str, &str)] = &[
    ("bollard", "judge"),
    ("sqlx", "judge"),
    ("reqwest", "agent"),
    ("tch", "trainer"),
    ("statrs", "leaderboard"),
];

/// External crates the pure crates may not reach, directly or transitively.
pub const IMPURE: &[&str] = &[
    "tokio",
    "reqwest",
    "hyper",
    "bollard",
    "tch",
    "torch-sys",
    "axum",
    "sqlx",
];

/// The pure crates.
pub const PURE: &[&str] = &["problems", "leaderboard"];

/// The dependency graph of the workspace as `cargo metadata` reports it.
#[derive(Debug, Default)]
pub struct Graph {
    /// Workspace crate names.
    pub members: BTreeSet<String>,
    /// Normal dependencies of each package in the resolved graph (by crate name).
    pub normal: BTreeMap<String, BTreeSet<String>>,
}

/// Runs `cargo metadata` in `root` and builds the [`Graph`].
pub fn load(root: &Path) -> Result<Graph, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(root)
        .output()
        .map_err(|err| format!("cannot run cargo metadata: {err}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: Value = serde_json::from_slice(&out.stdout)
        .map_err(|err| format!("cargo metadata output: {err}"))?;
    parse(&meta)
}

/// Builds the [`Graph`] from `cargo metadata --format-version 1` JSON.
pub fn parse(meta: &Value) -> Result<Graph, String> {
    let mut graph = Graph::default();
    let id_to_name: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .ok_or("metadata has no packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    for id in meta["workspace_members"]
        .as_array()
        .ok_or("metadata has no workspace_members")?
    {
        let id = id.as_str().ok_or("workspace member id is not a string")?;
        graph.members.insert(
            id_to_name
                .get(id)
                .ok_or_else(|| format!("unknown member {id}"))?
                .to_string(),
        );
    }
    for node in meta["resolve"]["nodes"]
        .as_array()
        .ok_or("metadata has no resolve graph")?
    {
        let name = node["id"]
            .as_str()
            .and_then(|id| id_to_name.get(id))
            .ok_or("resolve node without a package")?;
        let deps = graph.normal.entry(name.to_string()).or_default();
        for dep in node["deps"].as_array().into_iter().flatten() {
            let is_normal = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|kind| kind["kind"].is_null());
            if is_normal
                && let Some(dep_name) = dep["pkg"].as_str().and_then(|id| id_to_name.get(id))
            {
                deps.insert(dep_name.to_string());
            }
        }
    }
    Ok(graph)
}

/// Every violation of the rules in `graph`, one line each; empty when all hold.
pub fn violations(graph: &Graph) -> Vec<String> {
    let mut res = Vec::new();
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED_EDGES.iter().copied().collect();
    for member in &graph.members {
        if EXEMPT.contains(&member.as_str()) {
            continue;
        }
        let Some(ok) = allowed.get(member.as_str()) else {
            res.push(format!(
                "{member}: a workspace crate that ci::arch::ALLOWED_EDGES does not know"
            ));
            continue;
        };
        for dep in graph.normal.get(member).into_iter().flatten() {
            if graph.members.contains(dep) && !ok.contains(&dep.as_str()) {
                res.push(format!(
                    "{member} -> {dep}: forbidden dependency between workspace crates"
                ));
            }
            if let Some((_, owner)) = HEAVY_OWNERS.iter().find(|(heavy, _)| heavy == dep)
                && owner != member
            {
                res.push(format!(
                    "{member} -> {dep}: only {owner} may depend on {dep}"
                ));
            }
        }
    }
    for pure in PURE {
        let reach = reachable(graph, pure);
        for bad in IMPURE {
            if reach.contains(*bad) {
                res.push(format!(
                    "{pure} reaches {bad}: the pure crates may not use it, even indirectly"
                ));
            }
        }
    }
    res
}

/// The crates reachable from `from` through normal dependencies.
pub fn reachable(graph: &Graph, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_owned()];
    while let Some(it) = todo.pop() {
        for dep in graph.normal.get(&it).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                todo.push(dep.clone());
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &[&str])]) -> Graph {
        let mut res = Graph::default();
        for name in [
            "problems",
            "leaderboard",
            "judge",
            "agent",
            "trainer",
            "tests",
            "ci",
        ] {
            res.members.insert(name.to_owned());
        }
        for (from, to) in edges {
            res.normal
                .entry((*from).to_owned())
                .or_default()
                .extend(to.iter().map(|it| (*it).to_owned()));
        }
        res
    }

    #[test]
    fn the_design_graph_is_clean() {
        let it = graph(&[
            ("leaderboard", &["problems", "statrs"]),
            ("judge", &["problems", "leaderboard", "bollard", "tokio"]),
            ("agent", &["judge", "reqwest"]),
            ("trainer", &["agent", "tch"]),
            (
                "tests",
                &["trainer", "judge", "agent", "leaderboard", "reqwest"],
            ),
        ]);
        assert_eq!(violations(&it), Vec::<String>::new());
    }

    #[test]
    fn forbidden_edges_are_reported() {
        let it = graph(&[
            ("problems", &["judge"]),
            ("judge", &["agent", "tch"]),
            ("leaderboard", &["serde_json_x"]),
            ("serde_json_x", &["tokio"]),
        ]);
        assert_eq!(
            violations(&it),
            vec![
                "judge -> agent: forbidden dependency between workspace crates",
                "judge -> tch: only trainer may depend on tch",
                "problems -> judge: forbidden dependency between workspace crates",
                "problems reaches tch: the pure crates may not use it, even indirectly",
                "leaderboard reaches tokio: the pure crates may not use it, even indirectly",
            ]
        );
    }

    #[test]
    fn unknown_workspace_crates_are_reported() {
        let mut it = graph(&[]);
        it.members.insert("newcrate".to_owned());
        assert_eq!(
            violations(&it),
            vec!["newcrate: a workspace crate that ci::arch::ALLOWED_EDGES does not know"]
        );
    }
}
