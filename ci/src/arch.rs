//! The architecture rules of DESIGN.md as data, checked against `cargo metadata` and the
//! source tree.
//!
//! - [`CRATES`]: every workspace crate with the workspace crates it may depend on (normal
//!   dependencies only: dev and build dependencies do not count; `tests` and `ci` are
//!   exempt).
//! - [`HEAVY`]: each heavy external crate with its one owner crate and the one module of
//!   that crate (a file, or a folder of submodules) where it may be named.
//! - [`NEVER_REACHES`]: crates that may not reach another crate even transitively (the
//!   pure crates reach no runtime, HTTP, Docker or torch; the judge library reaches none
//!   of the server's stack, so the agent and the trainer compile no web server).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A workspace crate and the workspace crates it may depend on.
#[derive(Debug, Clone, Copy)]
pub struct CrateRule {
    /// The package name.
    pub name: &'static str,
    /// Workspace crates it may depend on (normal dependencies).
    pub may_use: &'static [&'static str],
}

/// The dependency direction of DESIGN.md.
pub const CRATES: &[CrateRule] = &[
    CrateRule {
        name: "problems",
        may_use: &[],
    },
    CrateRule {
        name: "leaderboard",
        may_use: &["problems"],
    },
    CrateRule {
        name: "judge",
        may_use: &["problems", "judge-supervisor"],
    },
    CrateRule {
        name: "judge-supervisor",
        may_use: &[],
    },
    CrateRule {
        name: "judge-server",
        may_use: &["judge", "leaderboard", "problems"],
    },
    CrateRule {
        name: "judge-sandbox",
        may_use: &["judge", "problems"],
    },
    CrateRule {
        name: "judge-cli",
        may_use: &["judge", "judge-server", "judge-sandbox"],
    },
    CrateRule {
        name: "agent",
        may_use: &["judge", "leaderboard", "problems"],
    },
    CrateRule {
        name: "trainer",
        may_use: &["agent", "judge", "leaderboard", "problems"],
    },
];

/// Crates exempt from the edge rules.
pub const EXEMPT: &[&str] = &["tests", "ci"];

/// Where a heavy crate may be used: a workspace crate and a module of it, given as a path
/// relative to the workspace root (a file, or a folder ending in `/`).
#[derive(Debug, Clone, Copy)]
pub struct Owner {
    /// The owning workspace crate.
    pub krate: &'static str,
    /// The one module inside it that names the heavy crate.
    pub module: &'static str,
}

/// A heavy external crate and its owners.
#[derive(Debug, Clone, Copy)]
pub struct Heavy {
    /// The external crate's name (as in `Cargo.toml`; `-` is `_` in code).
    pub name: &'static str,
    /// The owners: one module in each owning crate.
    pub owners: &'static [Owner],
}

/// Each heavy dependency, its owner crate and its one module there.
pub const HEAVY: &[Heavy] = &[
    Heavy {
        name: "bollard",
        owners: &[Owner {
            krate: "judge",
            module: "judge/src/sandbox/docker.rs",
        }],
    },
    Heavy {
        name: "sqlx",
        owners: &[Owner {
            krate: "judge-server",
            module: "judge/server/src/store/",
        }],
    },
    Heavy {
        name: "axum",
        owners: &[
            Owner {
                krate: "judge-server",
                module: "judge/server/src/routes/",
            },
            Owner {
                krate: "trainer",
                module: "trainer/src/server.rs",
            },
            Owner {
                krate: "judge-sandbox",
                module: "judge/sandbox/src/http/",
            },
        ],
    },
    Heavy {
        name: "reqwest",
        owners: &[Owner {
            krate: "agent",
            module: "agent/src/client/",
        }],
    },
    Heavy {
        name: "tch",
        owners: &[Owner {
            krate: "trainer",
            module: "trainer/src/",
        }],
    },
    Heavy {
        name: "statrs",
        owners: &[Owner {
            krate: "leaderboard",
            module: "leaderboard/src/numeric.rs",
        }],
    },
];

/// Crates that may not reach the listed crates through normal dependencies, even
/// transitively, with the reason printed when one does.
pub const NEVER_REACHES: &[(&str, &[&str], &str)] = &[
    (
        "problems",
        IMPURE,
        "the pure crates may not use it, even indirectly",
    ),
    (
        "leaderboard",
        IMPURE,
        "the pure crates may not use it, even indirectly",
    ),
    (
        "judge-supervisor",
        IMPURE,
        "the supervisor runs inside the sandbox on std, libc and serde alone",
    ),
    (
        "judge",
        SERVER_STACK,
        "the judge library stays free of the server's stack",
    ),
    (
        "agent",
        SERVER_STACK,
        "the agent judges through the library, never through the server",
    ),
    (
        "judge-sandbox",
        &["judge-server", "sqlx", "pulldown-cmark"],
        "the reward service needs none of the contest server",
    ),
];

/// What the pure crates may not reach.
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

/// The contest server and what only it needs. `zip` is not here: an archive format, not a
/// server part, it also reads CLICS contest packages in `leaderboard::clics::package`.
pub const SERVER_STACK: &[&str] = &["judge-server", "axum", "sqlx", "pulldown-cmark"];

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
    for member in &graph.members {
        if EXEMPT.contains(&member.as_str()) {
            continue;
        }
        let Some(rule) = CRATES.iter().find(|rule| rule.name == member) else {
            res.push(format!(
                "{member}: a workspace crate that ci::arch::CRATES does not know"
            ));
            continue;
        };
        for dep in graph.normal.get(member).into_iter().flatten() {
            if graph.members.contains(dep) && !rule.may_use.contains(&dep.as_str()) {
                res.push(format!(
                    "{member} -> {dep}: forbidden dependency between workspace crates"
                ));
            }
            if let Some(heavy) = HEAVY.iter().find(|heavy| heavy.name == dep)
                && !heavy.owners.iter().any(|owner| owner.krate == member)
            {
                let owners: Vec<&str> = heavy.owners.iter().map(|owner| owner.krate).collect();
                res.push(format!(
                    "{member} -> {dep}: only {} may depend on {dep}",
                    owners.join(" and ")
                ));
            }
        }
    }
    for (from, banned, why) in NEVER_REACHES {
        if !graph.members.contains(*from) {
            continue;
        }
        let reach = reachable(graph, from);
        for bad in *banned {
            if reach.contains(*bad) {
                res.push(format!("{from} reaches {bad}: {why}"));
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

/// The modules (path prefixes relative to the workspace root) where `name` may be named
/// in code, or `None` when it is not a heavy crate.
pub fn modules_of(name: &str) -> Option<Vec<&'static str>> {
    HEAVY
        .iter()
        .find(|heavy| heavy.name == name)
        .map(|heavy| heavy.owners.iter().map(|owner| owner.module).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMBERS: &[&str] = &[
        "problems",
        "leaderboard",
        "judge",
        "judge-supervisor",
        "judge-server",
        "judge-sandbox",
        "judge-cli",
        "agent",
        "trainer",
        "tests",
        "ci",
    ];

    fn graph(edges: &[(&str, &[&str])]) -> Graph {
        let mut res = Graph::default();
        for name in MEMBERS {
            res.members.insert((*name).to_owned());
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
            ("judge", &["problems", "bollard", "tokio"]),
            (
                "judge-server",
                &["judge", "leaderboard", "problems", "axum", "sqlx"],
            ),
            ("judge-cli", &["judge", "judge-server"]),
            ("agent", &["judge", "leaderboard", "problems", "reqwest"]),
            ("trainer", &["agent", "judge", "tch", "axum"]),
            (
                "tests",
                &["trainer", "judge", "judge-server", "agent", "reqwest"],
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
    fn the_agent_never_uses_the_server_and_the_library_never_reaches_its_stack() {
        let it = graph(&[
            ("agent", &["judge", "judge-server"]),
            ("judge", &["problems", "pulldown-cmark"]),
            ("judge-server", &["axum"]),
        ]);
        assert_eq!(
            violations(&it),
            vec![
                "agent -> judge-server: forbidden dependency between workspace crates",
                "judge reaches pulldown-cmark: the judge library stays free of the server's stack",
                "agent reaches judge-server: the agent judges through the library, never through the server",
                "agent reaches axum: the agent judges through the library, never through the server",
                "agent reaches pulldown-cmark: the agent judges through the library, never through the server",
            ]
        );
    }

    #[test]
    fn a_heavy_crate_with_two_owners_names_both() {
        let it = graph(&[("judge-cli", &["judge", "axum"])]);
        assert_eq!(
            violations(&it),
            vec![
                "judge-cli -> axum: only judge-server and trainer and judge-sandbox may depend on axum"
            ]
        );
    }

    #[test]
    fn unknown_workspace_crates_are_reported() {
        let mut it = graph(&[]);
        it.members.insert("newcrate".to_owned());
        assert_eq!(
            violations(&it),
            vec!["newcrate: a workspace crate that ci::arch::CRATES does not know"]
        );
    }

    #[test]
    fn every_heavy_crate_has_one_module_per_owner_crate() {
        for heavy in HEAVY {
            let mut crates: Vec<&str> = heavy.owners.iter().map(|owner| owner.krate).collect();
            crates.sort_unstable();
            crates.dedup();
            assert_eq!(crates.len(), heavy.owners.len(), "{}", heavy.name);
            for owner in heavy.owners {
                assert!(
                    CRATES.iter().any(|rule| rule.name == owner.krate),
                    "{}: owner {} is not a workspace crate",
                    heavy.name,
                    owner.krate
                );
            }
        }
        assert_eq!(
            modules_of("axum"),
            Some(vec![
                "judge/server/src/routes/",
                "trainer/src/server.rs",
                "judge/sandbox/src/http/"
            ])
        );
        assert_eq!(modules_of("serde"), None);
    }
}
