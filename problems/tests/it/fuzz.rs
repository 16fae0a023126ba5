//! Bounded fuzzing of the package parser ([`problems::load`]) and the default output
//! validator ([`problems::default_validator::check`]) as seeded property tests.
//!
//! Each test draws a fixed number of cases from a small hand-written generator seeded with
//! a fixed seed, so `cargo test` runs the same cases every time (a few seconds in a debug
//! build) and a failure names the seed and case that reproduce it.
//! `PROBLEMS_FUZZ_SEED=<n>` and `PROBLEMS_FUZZ_CASES=<n>` explore further, for example
//! `PROBLEMS_FUZZ_SEED=$RANDOM PROBLEMS_FUZZ_CASES=20000 cargo test -p problems --test it fuzz`.
//!
//! A failing case is shrunk (entries, then lines, removed while it still fails) and
//! printed as JSON, and written under `CARGO_TARGET_TMPDIR/fuzz-failures/`.
//! Copy it into `problems/tests/fuzz_corpus/{package,validator}/` to keep it: the corpus
//! tests replay every file there with the same properties (see the corpus README).
//!
//! Properties of `load`: it never panics; it gives the same answer twice; an invalid
//! package has at least one error, and every diagnostic names a file by a non-empty path
//! relative to the package; an I/O error names the package folder itself.
//!
//! Properties of `check`: it never panics; every output is accepted against itself;
//! without a float tolerance it agrees with a plain model (tokens, case folding, and with
//! `space_change_sensitive` byte-for-byte structure) and is symmetric; without
//! `space_change_sensitive` the kind and amount of whitespace does not matter; without
//! `case_sensitive` ASCII case does not matter; with only an absolute tolerance it is
//! symmetric; a larger tolerance never turns an accepted output into a wrong one.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use problems::default_validator::{self, DefaultFlags, Outcome};
use problems::{Error, Severity};
use serde::{Deserialize, Serialize};

/// The seed of the cases `cargo test` runs.
const DEFAULT_SEED: u64 = 0x5eed_0005;

/// SplitMix64: small, fast, and good enough to drive a fuzzer.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed and number of cases for one fuzz test, from the environment or the defaults.
fn budget(default_cases: usize) -> (u64, usize) {
    let read = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|it| it.parse::<u64>().ok())
    };
    let seed = read("PROBLEMS_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let cases = read("PROBLEMS_FUZZ_CASES").map_or(default_cases, |it| it as usize);
    (seed, cases)
}

fn corpus_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(kind)
}

/// Saves a shrunk failing case where the developer can copy it into the corpus.
fn save_failure(kind: &str, name: &str, json: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    std::fs::create_dir_all(&dir).expect("mkdir fuzz-failures");
    let path = dir.join(format!("{kind}-{name}.json"));
    std::fs::write(&path, json).expect("write failure");
    path
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|it| (*it).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "<non-string panic>".to_owned())
}

/// Every `.json` file of a corpus folder, in name order.
fn corpus_files(kind: &str) -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = std::fs::read_dir(corpus_dir(kind))
        .expect("read corpus folder")
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    // A replay over an empty folder would pass without checking anything.
    assert!(
        !res.is_empty(),
        "fuzz_corpus/{kind}/ holds no case to replay"
    );
    res.sort();
    res
}

// ---------------------------------------------------------------------------------------
// Packages

/// One entry of a package tree; paths are relative, `/`-separated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Node {
    /// A file holding UTF-8 text.
    Text(String),
    /// A file holding arbitrary bytes.
    Bytes(Vec<u8>),
    /// A folder (its contents are the entries below it).
    Dir,
    /// A symbolic link to the given target.
    Symlink(String),
}

/// A package case as stored in the corpus.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PackageCase {
    /// What the case is about (for humans).
    note: String,
    /// The tree, by relative path.
    tree: BTreeMap<String, Node>,
}

fn text(value: &str) -> Node {
    Node::Text(value.to_owned())
}

fn template(rng: &mut Rng) -> BTreeMap<String, Node> {
    let mut tree = BTreeMap::new();
    let mut put = |path: &str, node: Node| {
        tree.insert(path.to_owned(), node);
    };
    match rng.below(4) {
        0 => {
            put(
                "problem.yaml",
                text(
                    "name: Sum\nvalidation: default\nvalidator_flags: float_tolerance 1e-6\n\
                     limits:\n  memory: 256\n  output: 8\n",
                ),
            );
            put(".timelimit", text("2\n"));
            put("problem_statement/problem.en.tex", text("Sum\n"));
            put("data/sample/1.in", text("1 2\n"));
            put("data/sample/1.ans", text("3\n"));
            put("data/secret/a.in", text("5 6\n"));
            put("data/secret/a.ans", text("11\n"));
            put(
                "data/secret/g1/testdata.yaml",
                text(
                    "grading: default\ngrader_flags: min\noutput_validator_flags: case_sensitive\n",
                ),
            );
            put("data/secret/g1/1.in", text("1 1\n"));
            put("data/secret/g1/1.ans", text("2\n"));
            put("input_validators/v.py", text("raise SystemExit(42)\n"));
            put(
                "submissions/accepted/a.py",
                text("print(sum(map(int, input().split())))\n"),
            );
            put("submissions/wrong_answer/w.py", text("print(0)\n"));
        }
        1 => {
            put(
                "problem.yaml",
                text(
                    "problem_format_version: 2025-09\ntype: scoring\nname: Pairs\nuuid: 1-2-3\n\
                     limits:\n  time_limit: 1.5\n  memory: 512\n",
                ),
            );
            put("statement/problem.en.md", text("# Pairs\n"));
            put("data/sample/1.in", text("2\n"));
            put("data/sample/1.ans", text("4\n"));
            put(
                "data/secret/test_group.yaml",
                text("score_aggregation: sum\n"),
            );
            put(
                "data/secret/g1/test_group.yaml",
                text(
                    "max_score: 30\nscore_aggregation: min\noutput_validator_args: [float_absolute_tolerance, 0.5]\n",
                ),
            );
            put("data/secret/g1/1.in", text("3\n"));
            put("data/secret/g1/1.ans", text("9\n"));
            put("data/secret/g2/test_group.yaml", text("max_score: 70\n"));
            put("data/secret/g2/h/1.in", text("4\n"));
            put("data/secret/g2/h/1.ans", text("16\n"));
            put("data/secret/g2/1.in.files", Node::Dir);
            put("submissions/accepted/a.cpp", text("int main(){}\n"));
            put("submissions/brute_force/b.py", text("pass\n"));
        }
        2 => {
            put(
                "problem.yaml",
                text(
                    "name: {en: Subset, de: Teilmenge}\nvalidation: custom\n\
                     validator_convention: testlib\nvalidator_flags: strict\nlimits:\n  time_limit: 1\n",
                ),
            );
            put("problem_statement/problem.tex", text("Subset\n"));
            put("data/secret/1.in", text("1\n"));
            put("data/secret/1.ans", text("1\n"));
            put(
                "output_validators/check/check.cpp",
                text("int main(){return 0;}\n"),
            );
            put("submissions/accepted/a.c", text("int main(){}\n"));
            put(
                "submissions/time_limit_exceeded/t.c",
                text("int main(){for(;;);}\n"),
            );
        }
        _ => {
            put(
                "problem.yaml",
                text(
                    "problem_format_version: 2025-09\ntype: [pass-fail, interactive]\nname: Guess\n\
                     uuid: x\nlimits: {time_limit: 1, memory: 128}\n",
                ),
            );
            put("statement/problem.en.md", text("# Guess\n"));
            put("data/secret/1.in", text("17\n"));
            put("data/secret/1.ans", Node::Text(String::new()));
            put(
                "output_validator/interactor.py",
                text("raise SystemExit(42)\n"),
            );
            put("submissions/accepted/a.py", text("print(17)\n"));
            put(
                "submissions/run_time_error/r.py",
                text("raise SystemExit(1)\n"),
            );
        }
    }
    tree
}

const TOP_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "limits",
    "validation",
    "validator_flags",
    "validator_convention",
    "keywords",
    "grading",
    "languages",
    "source",
    "credits",
    "constants",
    "bogus",
];

const LIMIT_KEYS: &[&str] = &[
    "time_limit",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "time_multiplier",
    "time_multipliers",
    "validation_passes",
    "nonsense",
];

const GROUP_KEYS: &[&str] = &[
    "max_score",
    "score",
    "score_aggregation",
    "scoring",
    "grader_flags",
    "grading",
    "output_validator_args",
    "output_validator_flags",
    "input_validator_flags",
    "on_reject",
    "accept_score",
    "range",
    "require_pass",
    "args",
    "junk",
];

/// A YAML scalar or small structure, biased towards values parsers trip on.
fn yaml_value(rng: &mut Rng, depth: usize) -> String {
    const SCALARS: &[&str] = &[
        "1",
        "0",
        "-1",
        "1.5",
        "0.0001",
        "1e-320",
        "1e300",
        "1e308",
        "1.8e19",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775808",
        ".inf",
        "-.inf",
        ".nan",
        "null",
        "~",
        "true",
        "no",
        "''",
        "\"\"",
        "legacy",
        "2025-09",
        "2023-07-draft",
        "custom",
        "custom interactive score",
        "default",
        "kattis",
        "testlib",
        "pass-fail",
        "scoring",
        "interactive",
        "sum",
        "min",
        "max",
        "avg",
        "mul",
        "float_tolerance 1e-6",
        "float_tolerance",
        "case_sensitive space_change_sensitive",
        "float_absolute_tolerance -1",
        "float_relative_tolerance nan",
        "0x1F",
        "0o17",
        "1_000",
        "'quoted: value'",
        "\"\\u00e9\\t\\x00\"",
        "!!binary aGVsbG8=",
        "&anchor 3",
        "*anchor",
        "!!str 5",
        "!custom tag",
        "|\n  block\n  text",
    ];
    if depth < 3 && rng.chance(20) {
        let n = rng.below(4);
        let items: Vec<String> = (0..n).map(|_| yaml_value(rng, depth + 1)).collect();
        return format!("[{}]", items.join(", "));
    }
    if depth < 3 && rng.chance(15) {
        let n = rng.below(4);
        let items: Vec<String> = (0..n)
            .map(|_| {
                let key = if rng.chance(50) {
                    rng.pick(LIMIT_KEYS).to_string()
                } else {
                    rng.pick(SCALARS).to_string()
                };
                format!("{key}: {}", yaml_value(rng, depth + 1))
            })
            .collect();
        return format!("{{{}}}", items.join(", "));
    }
    rng.pick(SCALARS).to_string()
}

fn yaml_document(rng: &mut Rng, keys: &[&str]) -> String {
    let mut res = String::new();
    let limits = |rng: &mut Rng, res: &mut String| {
        *res += "limits:\n";
        for _ in 0..rng.below(5) {
            *res += &format!("  {}: {}\n", rng.pick(LIMIT_KEYS), yaml_value(rng, 1));
        }
    };
    if keys.contains(&"limits") && rng.chance(40) {
        limits(rng, &mut res);
    }
    for _ in 0..rng.below(7) {
        let key = *rng.pick(keys);
        if key == "limits" && rng.chance(70) {
            limits(rng, &mut res);
        } else {
            res += &format!("{key}: {}\n", yaml_value(rng, 0));
        }
    }
    if rng.chance(5) {
        res = rng
            .pick(&[
                "[1, 2]\n",
                "just text\n",
                "---\n...\n",
                "- a\n- b\n",
                "? [a]\n: b\n",
            ])
            .to_string();
    }
    res
}

/// The bytes of a file node, or `None` for folders and links.
fn bytes_of(node: &Node) -> Option<Vec<u8>> {
    match node {
        Node::Text(it) => Some(it.as_bytes().to_vec()),
        Node::Bytes(it) => Some(it.clone()),
        Node::Dir | Node::Symlink(_) => None,
    }
}

fn from_bytes(bytes: Vec<u8>) -> Node {
    match String::from_utf8(bytes) {
        Ok(it) => Node::Text(it),
        Err(err) => Node::Bytes(err.into_bytes()),
    }
}

fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    const INTERESTING: &[u8] = b":-[]{}\n \t'\"&*!%#|>?,@`\\\x00\xff\xc3";
    for _ in 0..1 + rng.below(4) {
        let at = if bytes.is_empty() {
            0
        } else {
            rng.below(bytes.len() + 1)
        };
        match rng.below(6) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 if at < bytes.len() => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 => bytes.truncate(at),
            3 => {
                let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
                let line = lines[rng.below(lines.len())].to_vec();
                bytes.splice(at..at, line.into_iter().chain([b'\n']));
            }
            _ => bytes.insert(at, *rng.pick(INTERESTING)),
        }
    }
}

const DATA_DIRS: &[&str] = &[
    "data",
    "data/sample",
    "data/secret",
    "data/secret/g1",
    "data/secret/g2",
    "data/secret/g2/h",
    "data/secret/new",
];

const FILE_NAMES: &[&str] = &[
    "x.in",
    "x.ans",
    ".in",
    ".ans",
    "a.in.ans",
    "a.ans.in",
    "weird name.in",
    "\u{fc}\u{1f600}.in",
    "-.in",
    "x.files",
    "x.interaction",
    ".hidden.in",
    "testdata.yaml",
    "test_group.yaml",
    "deep/a/b/c/1.in",
];

const KIND_TARGETS: &[&str] = &[
    "problem.yaml",
    "data",
    "data/sample",
    "data/secret",
    "data/secret/a.ans",
    "data/secret/1.ans",
    "data/secret/testdata.yaml",
    "data/secret/test_group.yaml",
    "submissions",
    "submissions/accepted",
    "output_validators",
    "output_validator",
    "output_validators/check",
    "statement",
    "problem_statement",
    "input_validators",
    ".timelimit",
];

/// Link targets, folders above the link (`.`, `..`) included: `load` refuses a link to a
/// folder that holds it in the test data (it once followed `link -> ..` round the loop,
/// `fuzz_corpus/package/symlink-loop.json`), and any link leading out of the package.
const LINK_TARGETS: &[&str] = &[
    ".",
    "..",
    "nonexistent",
    "/nonexistent",
    "a.ans",
    "1.ans",
    "self",
    "/etc/hostname",
    "../problem.yaml",
];

fn mutate_package(rng: &mut Rng, tree: &mut BTreeMap<String, Node>) {
    match rng.below(9) {
        0 => {
            let doc = yaml_document(rng, TOP_KEYS);
            tree.insert("problem.yaml".to_owned(), Node::Text(doc));
        }
        1 => {
            let dir = rng.pick(DATA_DIRS);
            let name = rng.pick(&["testdata.yaml", "test_group.yaml"]);
            let doc = yaml_document(rng, GROUP_KEYS);
            tree.insert(format!("{dir}/{name}"), Node::Text(doc));
        }
        2 | 3 => {
            let files: Vec<String> = tree
                .iter()
                .filter(|(path, node)| {
                    bytes_of(node).is_some()
                        && (path.ends_with(".yaml")
                            || path.ends_with(".timelimit")
                            || rng.chance(10))
                })
                .map(|(path, _)| path.clone())
                .collect();
            if let Some(path) = files.get(rng.below(files.len().max(1))) {
                let mut bytes = bytes_of(&tree[path]).expect("a file");
                mutate_bytes(rng, &mut bytes);
                tree.insert(path.clone(), from_bytes(bytes));
            }
        }
        4 => {
            let path = format!("{}/{}", rng.pick(DATA_DIRS), rng.pick(FILE_NAMES));
            let node = if path.ends_with(".files") {
                Node::Dir
            } else {
                Node::Text(rng.pick(&["", "1\n", "x"]).to_string())
            };
            tree.insert(path, node);
        }
        5 => {
            let path = rng.pick(KIND_TARGETS).to_string();
            tree.retain(|it, _| !it.starts_with(&format!("{path}/")));
            let node = match rng.below(3) {
                0 => Node::Dir,
                1 => Node::Text(String::new()),
                _ => Node::Symlink(rng.pick(LINK_TARGETS).to_string()),
            };
            tree.insert(path, node);
        }
        6 => {
            if !tree.is_empty() {
                let path = tree
                    .keys()
                    .nth(rng.below(tree.len()))
                    .expect("in range")
                    .clone();
                tree.retain(|it, _| *it != path && !it.starts_with(&format!("{path}/")));
            }
        }
        7 => {
            let dir = rng.pick(DATA_DIRS);
            let name = rng.pick(&["link", "link.in", "link.ans", "self"]);
            let target = rng.pick(LINK_TARGETS).to_string();
            tree.insert(format!("{dir}/{name}"), Node::Symlink(target));
        }
        _ => {
            let path = format!(
                "submissions/{}/s.py",
                rng.pick(&[
                    "accepted",
                    "rejected",
                    "wrong_answer",
                    "bogus",
                    "",
                    "partially_accepted"
                ])
            );
            tree.insert(path, Node::Text("pass\n".to_owned()));
        }
    }
}

fn random_package(rng: &mut Rng) -> BTreeMap<String, Node> {
    let mut tree = template(rng);
    for _ in 0..rng.below(6) {
        mutate_package(rng, &mut tree);
    }
    tree
}

/// Writes `tree` below `root`; entries that conflict (a file where a folder must be)
/// are skipped, as a real tree cannot hold both.
fn materialize(root: &Path, tree: &BTreeMap<String, Node>) {
    for (path, node) in tree {
        if path.is_empty() || path.starts_with('/') || path.split('/').any(|c| c == "..") {
            continue;
        }
        let full = root.join(path);
        let Some(parent) = full.parent() else {
            continue;
        };
        if std::fs::create_dir_all(parent).is_err() || full.symlink_metadata().is_ok() {
            continue;
        }
        let _ = match node {
            Node::Text(it) => std::fs::write(&full, it),
            Node::Bytes(it) => std::fs::write(&full, it),
            Node::Dir => std::fs::create_dir_all(&full),
            Node::Symlink(target) => std::os::unix::fs::symlink(target, &full),
        };
    }
}

/// What `load` said, rendered, or why the properties fail.
fn load_outcome(root: &Path) -> Result<String, String> {
    let res = catch_unwind(AssertUnwindSafe(|| problems::load(root)))
        .map_err(|payload| format!("load panicked: {}", panic_message(payload.as_ref())))?;
    let named = |diagnostic: &problems::Diagnostic| {
        if diagnostic.path.as_os_str().is_empty() || diagnostic.path.is_absolute() {
            Err(format!(
                "diagnostic does not name a file relative to the package: {diagnostic}"
            ))
        } else {
            Ok(diagnostic.to_string())
        }
    };
    match res {
        Ok((problem, warnings)) => {
            let mut lines = vec!["ok".to_owned()];
            for warning in &warnings {
                if warning.severity != Severity::Warning {
                    return Err(format!("an error among the warnings: {warning}"));
                }
                lines.push(named(warning)?);
            }
            for case in problem.test_cases() {
                if !case.input.starts_with(root) || !case.answer.starts_with(root) {
                    return Err(format!("test case outside the package: {case:?}"));
                }
                lines.push(case.name.clone());
            }
            Ok(lines.join("\n"))
        }
        Err(Error::Invalid { path, diagnostics }) => {
            if path != root {
                return Err(format!(
                    "Invalid names {} instead of the package",
                    path.display()
                ));
            }
            if !diagnostics.iter().any(|d| d.severity == Severity::Error) {
                return Err("Invalid without an error".to_owned());
            }
            let lines: Result<Vec<String>, String> = diagnostics.iter().map(named).collect();
            Ok(format!("invalid\n{}", lines?.join("\n")))
        }
        Err(Error::Io { path, source }) => {
            if path != root {
                return Err(format!("I/O error names {}: {source}", path.display()));
            }
            Ok(format!("io: {source}"))
        }
    }
}

/// Checks the properties of `load` on `tree`; `Err` says which one failed.
fn check_package(tree: &BTreeMap<String, Node>) -> Result<(), String> {
    // The package sits in a folder of its own: a generated link to `..` then reaches a
    // folder nothing else writes to, not the shared temporary folder (whose entries other
    // processes change between the two loads).
    let parent = tempfile::tempdir().expect("tempdir");
    let dir = parent.path().join("package");
    std::fs::create_dir(&dir).expect("mkdir package");
    materialize(&dir, tree);
    let first = load_outcome(&dir)?;
    let second = load_outcome(&dir)?;
    if first != second {
        return Err(format!(
            "load is not deterministic:\n{first}\n---\n{second}"
        ));
    }
    Ok(())
}

/// Removes entries, then lines of text files, while the case still fails.
fn shrink_package(mut tree: BTreeMap<String, Node>) -> BTreeMap<String, Node> {
    let fails = |tree: &BTreeMap<String, Node>| check_package(tree).is_err();
    let mut changed = true;
    while changed {
        changed = false;
        for path in tree.keys().cloned().collect::<Vec<_>>() {
            let mut smaller = tree.clone();
            smaller.remove(&path);
            if fails(&smaller) {
                tree = smaller;
                changed = true;
            }
        }
        for path in tree.keys().cloned().collect::<Vec<_>>() {
            let Some(Node::Text(content)) = tree.get(&path).cloned() else {
                continue;
            };
            let lines: Vec<&str> = content.split_inclusive('\n').collect();
            for skip in 0..lines.len() {
                let mut smaller = tree.clone();
                let kept: String = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .map(|(_, l)| *l)
                    .collect();
                smaller.insert(path.clone(), Node::Text(kept));
                if fails(&smaller) {
                    tree = smaller;
                    changed = true;
                    break;
                }
            }
        }
    }
    tree
}

#[test]
fn fuzz_package_loader() {
    let (seed, n_cases) = budget(250);
    let mut rng = Rng::new(seed);
    for case_idx in 0..n_cases {
        let tree = random_package(&mut rng);
        if let Err(why) = check_package(&tree) {
            let tree = shrink_package(tree);
            let why = check_package(&tree).err().unwrap_or(why);
            let case = PackageCase {
                note: why.clone(),
                tree,
            };
            let json = serde_json::to_string_pretty(&case).expect("serialize");
            let saved = save_failure("package", &format!("{seed}-{case_idx}"), &json);
            panic!(
                "seed {seed}, case {case_idx}: {why}\nshrunk case (saved in {}):\n{json}",
                saved.display()
            );
        }
    }
}

#[test]
fn package_corpus_replays() {
    for path in corpus_files("package") {
        let text = std::fs::read_to_string(&path).expect("read corpus file");
        let case: PackageCase =
            serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        if let Err(why) = check_package(&case.tree) {
            panic!("{}: {why}", path.display());
        }
    }
}

// ---------------------------------------------------------------------------------------
// The default output validator

/// Bytes stored as text when they are UTF-8.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Blob {
    Text(String),
    Bytes(Vec<u8>),
}

impl Blob {
    fn new(bytes: &[u8]) -> Blob {
        match std::str::from_utf8(bytes) {
            Ok(it) => Blob::Text(it.to_owned()),
            Err(_) => Blob::Bytes(bytes.to_vec()),
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Blob::Text(it) => it.as_bytes(),
            Blob::Bytes(it) => it,
        }
    }
}

/// A validator case as stored in the corpus.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ValidatorCase {
    /// What the case is about (for humans).
    note: String,
    /// The flags in word form, as in `validator_flags`.
    flags: Vec<String>,
    /// The judge's answer.
    judge: Blob,
    /// The team's output.
    team: Blob,
}

const WHITESPACE: &[u8] = b" \t\n\x0b\x0c\r";

fn is_space(byte: u8) -> bool {
    WHITESPACE.contains(&byte)
}

fn token(rng: &mut Rng) -> Vec<u8> {
    const TOKENS: &[&str] = &[
        "0",
        "1",
        "-1",
        "42",
        "+3",
        "007",
        "1.0",
        "1.00",
        "-0",
        "-0.0",
        ".5",
        "5.",
        "1e5",
        "1E5",
        "1e-5",
        "1e400",
        "-1e400",
        "1e-400",
        "nan",
        "NaN",
        "-nan",
        "inf",
        "-inf",
        "Infinity",
        "infinity",
        "0x10",
        "1_000",
        "3.14159",
        "2.7182818",
        "1e308",
        "4.9e-324",
        "yes",
        "YES",
        "Yes",
        "impossible",
        "IMPOSSIBLE",
        "a",
        "\u{e9}",
        "\u{c9}",
        "x\u{0}y",
        "\u{85}",
        "\u{a0}",
    ];
    match rng.below(10) {
        0 => {
            let n = 1 + rng.below(6);
            (0..n).map(|_| b'!' + rng.below(94) as u8).collect()
        }
        1 => {
            let n = 1 + rng.below(3);
            (0..n).map(|_| 0x80 + rng.below(128) as u8).collect()
        }
        2 => format!("{}", (rng.next_u64() as i64) >> rng.below(64)).into_bytes(),
        3 => {
            let value = f64::from_bits(rng.next_u64());
            format!("{value}").into_bytes()
        }
        4 => format!(
            "{:.*}",
            rng.below(12),
            (rng.next_u64() % 1_000_000) as f64 / 997.0
        )
        .into_bytes(),
        _ => rng.pick(TOKENS).as_bytes().to_vec(),
    }
}

fn whitespace_run(rng: &mut Rng) -> Vec<u8> {
    let n = 1 + rng.below(3);
    (0..n).map(|_| *rng.pick(WHITESPACE)).collect()
}

fn random_output(rng: &mut Rng) -> Vec<u8> {
    let mut res = Vec::new();
    if rng.chance(20) {
        res.extend(whitespace_run(rng));
    }
    for idx in 0..rng.below(8) {
        if idx > 0 {
            res.extend(whitespace_run(rng));
        }
        res.extend(token(rng));
    }
    if rng.chance(60) {
        res.push(b'\n');
    }
    res
}

/// The output's whitespace runs replaced by other runs (leading and trailing ones may
/// appear or vanish); tokens unchanged.
fn respace(rng: &mut Rng, output: &[u8]) -> Vec<u8> {
    let mut res = Vec::new();
    if rng.chance(30) {
        res.extend(whitespace_run(rng));
    }
    let tokens: Vec<&[u8]> = output
        .split(|b| is_space(*b))
        .filter(|it| !it.is_empty())
        .collect();
    for (idx, token) in tokens.iter().enumerate() {
        if idx > 0 {
            res.extend(whitespace_run(rng));
        }
        res.extend(*token);
    }
    if rng.chance(50) {
        res.extend(whitespace_run(rng));
    }
    res
}

fn flip_case(rng: &mut Rng, output: &[u8]) -> Vec<u8> {
    output
        .iter()
        .map(|b| {
            if b.is_ascii_alphabetic() && rng.chance(50) {
                b ^ 0x20
            } else {
                *b
            }
        })
        .collect()
}

/// A team output derived from the judge's answer: mostly close to it.
fn team_output(rng: &mut Rng, judge: &[u8]) -> Vec<u8> {
    match rng.below(8) {
        0 => judge.to_vec(),
        1 => respace(rng, judge),
        2 => flip_case(rng, judge),
        3 => {
            // Nudge the numbers.
            let text = String::from_utf8_lossy(judge);
            let scale = *rng.pick(&[1e-12, 1e-9, 1e-7, 1e-6, 1e-5, 1e-3, 0.5, 1.0]);
            let mut res = String::new();
            for word in text.split_inclusive(|c: char| c.is_ascii_whitespace()) {
                let (body, space) = word.split_at(word.trim_end().len());
                match body.parse::<f64>() {
                    Ok(value) if rng.chance(70) => {
                        let factor = (rng.below(5) as f64 - 2.0) * scale;
                        let nudged = if rng.chance(50) {
                            value + factor
                        } else {
                            value * (1.0 + factor)
                        };
                        res += &format!("{nudged}");
                    }
                    _ => res += body,
                }
                res += space;
            }
            res.into_bytes()
        }
        4 => {
            let mut res = judge.to_vec();
            mutate_bytes(rng, &mut res);
            res
        }
        5 => [judge, b" ", &token(rng)].concat(),
        _ => random_output(rng),
    }
}

fn random_flags(rng: &mut Rng) -> Vec<String> {
    const EPSILONS: &[&str] = &["0", "1e-9", "1e-6", "0.001", "0.25", "1", "1e300", "5e-324"];
    let mut words = Vec::new();
    if rng.chance(40) {
        words.push("case_sensitive".to_owned());
    }
    if rng.chance(40) {
        words.push("space_change_sensitive".to_owned());
    }
    match rng.below(5) {
        0 => words.extend(["float_tolerance".to_owned(), rng.pick(EPSILONS).to_string()]),
        1 => words.extend([
            "float_absolute_tolerance".to_owned(),
            rng.pick(EPSILONS).to_string(),
        ]),
        2 => words.extend([
            "float_relative_tolerance".to_owned(),
            rng.pick(EPSILONS).to_string(),
        ]),
        3 => words.extend([
            "float_absolute_tolerance".to_owned(),
            rng.pick(EPSILONS).to_string(),
            "float_relative_tolerance".to_owned(),
            rng.pick(EPSILONS).to_string(),
        ]),
        _ => {}
    }
    // The order of the flags does not matter: shuffle by rotation.
    if !words.is_empty() && rng.chance(30) {
        let by = rng.below(words.len());
        words.rotate_left(by);
        // Keep each tolerance flag before its value.
        if words.first().is_some_and(|w| w.parse::<f64>().is_ok()) {
            words.rotate_right(by);
        }
    }
    words
}

fn tokens(output: &[u8]) -> Vec<&[u8]> {
    output
        .split(|b| is_space(*b))
        .filter(|it| !it.is_empty())
        .collect()
}

/// The default validator's decision without float tolerance, written plainly.
fn model_accepts(judge: &[u8], team: &[u8], flags: &DefaultFlags) -> bool {
    let same = |a: &[u8], b: &[u8]| {
        if flags.case_sensitive {
            a == b
        } else {
            a.eq_ignore_ascii_case(b)
        }
    };
    if flags.space_change_sensitive {
        return same(judge, team);
    }
    let (judge, team) = (tokens(judge), tokens(team));
    judge.len() == team.len() && judge.iter().zip(&team).all(|(a, b)| same(a, b))
}

/// Runs `check`, turning a panic into an error.
fn run_check(judge: &[u8], team: &[u8], flags: &DefaultFlags) -> Result<bool, String> {
    let outcome = catch_unwind(|| default_validator::check(judge, team, flags))
        .map_err(|p| format!("check panicked: {}", panic_message(p.as_ref())))?;
    match outcome {
        Outcome::Accepted => Ok(true),
        Outcome::WrongAnswer(message) if message.is_empty() => {
            Err("a wrong answer without a message".to_owned())
        }
        Outcome::WrongAnswer(_) => Ok(false),
    }
}

/// Checks the properties of `check` on one case; `rng` draws the variations.
fn check_validator(case: &ValidatorCase, rng: &mut Rng) -> Result<(), String> {
    let flags = catch_unwind(|| default_validator::parse_flags(&case.flags))
        .map_err(|p| format!("parse_flags panicked: {}", panic_message(p.as_ref())))?
        .map_err(|err| format!("generated flags do not parse: {err}"))?;
    let (judge, team) = (case.judge.bytes(), case.team.bytes());
    let accepted = run_check(judge, team, &flags)?;
    let backward = run_check(team, judge, &flags)?;
    for output in [judge, team] {
        if !run_check(output, output, &flags)? {
            return Err("an output is not accepted against itself".to_owned());
        }
    }
    if !flags.compares_floats() {
        if accepted != model_accepts(judge, team, &flags) {
            return Err(format!("disagrees with the model: check says {accepted}"));
        }
        if accepted != backward {
            return Err("not symmetric without a float tolerance".to_owned());
        }
    }
    if flags.float_relative_tolerance.is_none() && accepted != backward {
        return Err("not symmetric with only an absolute tolerance".to_owned());
    }
    if !flags.space_change_sensitive {
        let respaced = respace(rng, team);
        if run_check(judge, &respaced, &flags)? != accepted {
            return Err(format!(
                "whitespace changed the outcome (respaced team output {:?})",
                String::from_utf8_lossy(&respaced)
            ));
        }
    }
    if !flags.case_sensitive {
        let flipped = flip_case(rng, team);
        if run_check(judge, &flipped, &flags)? != accepted {
            return Err(format!(
                "ASCII case changed the outcome (team output {:?})",
                String::from_utf8_lossy(&flipped)
            ));
        }
    }
    if accepted && flags.compares_floats() {
        let wider = DefaultFlags {
            float_absolute_tolerance: flags.float_absolute_tolerance.map(|e| e * 2.0 + 1e-9),
            float_relative_tolerance: flags.float_relative_tolerance.map(|e| e * 2.0 + 1e-9),
            ..flags
        };
        if !run_check(judge, team, &wider)? {
            return Err("a larger tolerance rejects what a smaller one accepted".to_owned());
        }
    }
    Ok(())
}

/// Shrinks a failing validator case by dropping tokens of either side.
fn shrink_validator(mut case: ValidatorCase, seed: u64) -> ValidatorCase {
    let fails = |case: &ValidatorCase| check_validator(case, &mut Rng::new(seed)).is_err();
    let mut changed = true;
    while changed {
        changed = false;
        for side in 0..2 {
            let bytes = if side == 0 {
                case.judge.bytes()
            } else {
                case.team.bytes()
            }
            .to_vec();
            let words: Vec<&[u8]> = bytes.split_inclusive(|b| is_space(*b)).collect();
            for skip in 0..words.len() {
                let kept: Vec<u8> = words
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .flat_map(|(_, w)| w.iter().copied())
                    .collect();
                let mut smaller = case.clone();
                if side == 0 {
                    smaller.judge = Blob::new(&kept);
                } else {
                    smaller.team = Blob::new(&kept);
                }
                if fails(&smaller) {
                    case = smaller;
                    changed = true;
                    break;
                }
            }
        }
    }
    case
}

#[test]
fn fuzz_default_validator() {
    let (seed, n_cases) = budget(20_000);
    let mut rng = Rng::new(seed);
    for case_idx in 0..n_cases {
        let judge = random_output(&mut rng);
        let team = team_output(&mut rng, &judge);
        let case = ValidatorCase {
            note: String::new(),
            flags: random_flags(&mut rng),
            judge: Blob::new(&judge),
            team: Blob::new(&team),
        };
        let check_seed = rng.next_u64();
        if let Err(why) = check_validator(&case, &mut Rng::new(check_seed)) {
            let mut case = shrink_validator(case, check_seed);
            case.note = check_validator(&case, &mut Rng::new(check_seed))
                .err()
                .unwrap_or(why);
            let json = serde_json::to_string_pretty(&case).expect("serialize");
            let saved = save_failure("validator", &format!("{seed}-{case_idx}"), &json);
            panic!(
                "seed {seed}, case {case_idx}: {}\nshrunk case (saved in {}):\n{json}",
                case.note,
                saved.display()
            );
        }
    }
}

#[test]
fn fuzz_flag_parser_never_panics() {
    const WORDS: &[&str] = &[
        "case_sensitive",
        "space_change_sensitive",
        "float_tolerance",
        "float_absolute_tolerance",
        "float_relative_tolerance",
        "1e-6",
        "-1",
        "nan",
        "inf",
        "1e999",
        "",
        "0",
        "x",
    ];
    let (seed, n_cases) = budget(5_000);
    let mut rng = Rng::new(seed ^ 0xf1a9);
    for case_idx in 0..n_cases {
        let words: Vec<&str> = (0..rng.below(6)).map(|_| *rng.pick(WORDS)).collect();
        let res = catch_unwind(|| default_validator::parse_flags(&words));
        let flags = match res {
            Err(payload) => panic!(
                "seed {seed}, case {case_idx}: parse_flags({words:?}) panicked: {}",
                panic_message(payload.as_ref())
            ),
            Ok(Err(_)) => continue,
            Ok(Ok(flags)) => flags,
        };
        for eps in [
            flags.float_absolute_tolerance,
            flags.float_relative_tolerance,
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                eps.is_finite() && eps >= 0.0,
                "{words:?} gave the tolerance {eps}"
            );
        }
    }
}

#[test]
fn validator_corpus_replays() {
    for path in corpus_files("validator") {
        let text = std::fs::read_to_string(&path).expect("read corpus file");
        let case: ValidatorCase =
            serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        for seed in 0..8 {
            if let Err(why) = check_validator(&case, &mut Rng::new(seed)) {
                panic!("{}: {why}", path.display());
            }
        }
    }
}
