//! End-to-end tests of the `judge` binary against the real sandboxes: Docker (the daemon
//! set up by ci/setup) and bubblewrap over the sandbox root filesystem. There is no fake
//! sandbox. Under `CI=true` a missing Docker or bubblewrap fails the test; elsewhere the
//! test says what is missing and returns.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::hostile::HOSTILE;
use common::{available, judge, run_on, write};

/// Sandbox tests run side by side, except the hostile corpus, which checks afterwards
/// that no process of the sandbox user is left and so must run alone.
static SANDBOX: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn shared() -> std::sync::RwLockReadGuard<'static, ()> {
    SANDBOX
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An error is printed as `judge: ` and its chain, each cause once (the judge's error
/// messages leave their cause to the chain), with exit code 2; no sandbox is needed,
/// since the source file is read before one starts.
#[test]
fn each_cause_is_printed_once() {
    let package = add_package();
    let missing = package.path().join("no-such-file.c");
    let out = judge(&[
        "run",
        "--problem",
        &package.path().display().to_string(),
        &missing.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let cause = std::fs::metadata(&missing).expect_err("the file is missing");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The package's own warnings come first; the error is the last line.
    assert_eq!(
        stderr.lines().last(),
        Some(format!("judge: cannot read {}: {cause}", missing.display()).as_str()),
        "{stderr}"
    );
    assert_eq!(stderr.matches(&cause.to_string()).count(), 1, "{stderr}");
}

/// A small package: add two numbers, 1 s, 64 MiB, 1 MiB of output.
fn add_package() -> tempfile::TempDir {
    add_package_with("")
}

/// The add package with more `limits` lines (each indented by two spaces).
fn add_package_with(extra_limits: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        &format!(
            "problem_format_version: 2025-09\nname: Add\nuuid: t\nlimits:\n  time_limit: 1\n  memory: 64\n  output: 1\n{extra_limits}"
        ),
    );
    write(root, "statement/problem.en.md", "Add two numbers.\n");
    write(root, "input_validators/ok.py", "exit(42)\n");
    write(root, "data/sample/1.in", "1 2\n");
    write(root, "data/sample/1.ans", "3\n");
    write(root, "data/secret/1.in", "40 2\n");
    write(root, "data/secret/1.ans", "42\n");
    write(root, "data/secret/2.in", "-5 5\n");
    write(root, "data/secret/2.ans", "0\n");
    dir
}

/// Programs and the verdict each must get on the add package (`A|B`: either).
const CORPUS: &[(&str, &str, &str)] = &[
    (
        "ac.cpp",
        "AC",
        "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);}\n",
    ),
    (
        "ac.c",
        "AC",
        "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n",
    ),
    (
        "ac.py",
        "AC",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    ),
    (
        "Add.java",
        "AC",
        "import java.util.*;\npublic class Add { public static void main(String[] x) { Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }\n",
    ),
    ("wa.py", "WA", "print(3)\n"),
    (
        "tle.cpp",
        "TLE",
        "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n",
    ),
    ("sleep.py", "TLE", "import time\ntime.sleep(60)\n"),
    (
        "threads.cpp",
        "TLE",
        "#include <thread>\n#include <vector>\nint main(){ std::vector<std::thread> t; for (int i = 0; i < 3; i++) t.emplace_back([]{ volatile unsigned long x = 0; for (;;) x++; }); for (auto& it : t) it.join(); }\n",
    ),
    (
        "mle.cpp",
        "MLE",
        "#include <cstdio>\n#include <vector>\nint main(){ std::vector<char> v(300u << 20); long s = 0; for (size_t i = 0; i < v.size(); i += 4096) { v[i] = (char)i; s += v[i]; } printf(\"%ld\\n\", s); }\n",
    ),
    (
        "mle_peak.cpp",
        "MLE",
        "#include <cstdio>\n#include <vector>\nint main(){ std::vector<char> v(100u << 20); long s = 0; for (size_t i = 0; i < v.size(); i += 4096) { v[i] = (char)i; s += v[i]; } printf(\"%ld\\n\", s); }\n",
    ),
    (
        "ole.cpp",
        "OLE",
        "#include <cstdio>\nint main(){ for (;;) puts(\"0123456789abcdef0123456789abcdef\"); }\n",
    ),
    (
        "segv.cpp",
        "RTE",
        "#include <cstdlib>\nint main(){ volatile int* p = nullptr; return *p; }\n",
    ),
    ("exit.py", "RTE", "import sys\nsys.exit(3)\n"),
    ("ce.cpp", "CE", "int main() { return undefined_name; }\n"),
    ("ce.py", "CE", "def f(:\n    pass\n"),
];

fn hostile_corpus(backend: &str) {
    if !available(backend) {
        return;
    }
    let _alone = SANDBOX
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Compile limits below the defaults (60 s, 2 GiB), so the compile-time attacks end soon.
    let package = add_package_with("  compilation_time: 20\n  compilation_memory: 256\n");
    judge_corpus_unlocked(backend, package.path(), HOSTILE);
    let left = Command::new("pgrep")
        .args(["-u", "65534"])
        .output()
        .expect("pgrep runs");
    assert!(
        String::from_utf8_lossy(&left.stdout).trim().is_empty(),
        "{backend}: processes of the sandbox user are still running: {}",
        String::from_utf8_lossy(&left.stdout)
    );
}

#[test]
fn hostile_corpus_docker() {
    hostile_corpus("docker");
}

#[test]
fn hostile_corpus_bwrap() {
    hostile_corpus("bwrap");
}

fn verdict_corpus(backend: &str) {
    if !available(backend) {
        return;
    }
    judge_corpus(backend, CORPUS);
}

/// Judges every program of `corpus` on the add package and checks its verdict.
fn judge_corpus(backend: &str, corpus: &[(&str, &str, &str)]) {
    let _shared = shared();
    let package = add_package();
    judge_corpus_unlocked(backend, package.path(), corpus);
}

fn judge_corpus_unlocked(backend: &str, package: &Path, corpus: &[(&str, &str, &str)]) {
    let sources = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for (name, expected, text) in corpus {
        let path = sources.path().join(name);
        std::fs::write(&path, text).expect("write source");
        let out = judge(&[
            "run",
            "--backend",
            backend,
            "--json",
            "--no-cache",
            "--problem",
            package.to_str().expect("utf-8"),
            path.to_str().expect("utf-8"),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let last = stdout.lines().last().unwrap_or_default();
        let report: serde_json::Value = serde_json::from_str(last).unwrap_or_default();
        let got = report["verdict"].as_str().unwrap_or("none");
        let want_code = if *expected == "AC" { 0 } else { 1 };
        // `A|B`: either verdict is right (a program that breaks two limits at once).
        if !expected.split('|').any(|e| e == got) || out.status.code() != Some(want_code) {
            failures.push(format!(
                "{name}: expected {expected}, got {got} (exit {:?}); stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert!(failures.is_empty(), "{backend}:\n{}", failures.join("\n"));
}

#[test]
fn verdict_corpus_docker() {
    verdict_corpus("docker");
}

#[test]
fn verdict_corpus_bwrap() {
    verdict_corpus("bwrap");
}

fn selftest(backend: &str) {
    let _shared = shared();
    if !available(backend) {
        return;
    }
    let out = judge(&["selftest", "--backend", backend]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{backend} self-test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for lang in ["c", "cpp", "python3", "pypy3", "java", "kotlin"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(lang) && l.ends_with(" ok")),
            "{lang} missing in:\n{stdout}"
        );
    }
}

#[test]
fn language_self_tests_docker() {
    selftest("docker");
}

#[test]
fn language_self_tests_bwrap() {
    selftest("bwrap");
}

fn packages() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages");
    let mut res: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("problems/packages exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    res.sort();
    res
}

fn verify_bundled(backend: &str) {
    let _shared = shared();
    if !available(backend) {
        return;
    }
    let packages = packages();
    assert!(!packages.is_empty(), "no bundled packages found");
    let mut args = vec![
        "verify".to_owned(),
        "--backend".to_owned(),
        backend.to_owned(),
    ];
    args.extend(packages.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = judge(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "judge verify --backend {backend} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("0 mismatches, 0 judge errors"), "{stdout}");
}

#[test]
fn bundled_packages_verify_docker() {
    verify_bundled("docker");
}

#[test]
fn bundled_packages_verify_bwrap() {
    verify_bundled("bwrap");
}

#[test]
fn json_lines_stream_every_test_with_all() {
    let _shared = shared();
    if !available("bwrap") {
        return;
    }
    let package = add_package();
    let sources = tempfile::tempdir().expect("tempdir");
    let path = sources.path().join("half.py");
    // Right on the sample, wrong on the first secret test, right on the last.
    std::fs::write(
        &path,
        "a, b = map(int, input().split())\nprint(a + b if a != 40 else 0)\n",
    )
    .expect("write");
    let run = |all: bool| {
        let mut args = vec!["run", "--backend", "bwrap", "--json", "--problem"];
        args.push(package.path().to_str().expect("utf-8"));
        if all {
            args.push("--all");
        }
        args.push(path.to_str().expect("utf-8"));
        let out = judge(&args);
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("each line is JSON"))
            .collect::<Vec<_>>()
    };
    let lines = run(true);
    assert_eq!(lines.len(), 4, "three test lines and the report: {lines:?}");
    let verdicts: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(verdicts, vec!["AC", "WA", "AC"]);
    for line in &lines[..3] {
        for key in ["cpu_ms", "wall_ms", "peak_kib"] {
            assert!(line[key].is_number(), "{key} in {line}");
        }
    }
    let report = &lines[3];
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["score"], 0.0);
    assert_eq!(report["tests"].as_array().map(Vec::len), Some(3));
    // Without --all the run stops at the first failure.
    let lines = run(false);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[2]["tests"].as_array().map(Vec::len), Some(2));
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code_2() {
    let _shared = shared();
    let package = add_package();
    let sources = tempfile::tempdir().expect("tempdir");
    let ruby = sources.path().join("x.rb");
    std::fs::write(&ruby, "puts 1\n").expect("write");
    let pkg = package.path().to_str().expect("utf-8");
    let out = judge(&[
        "run",
        "--backend",
        "bwrap",
        "--problem",
        pkg,
        ruby.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Ruby is in the package format's language list: recognised, and refused with why.
    assert!(
        stderr.contains("x.rb is Ruby (`ruby` in the package format's language list), which this judge cannot run"),
        "{stderr}"
    );

    let out = judge(&[
        "run",
        "--problem",
        "/nonexistent/pkg",
        ruby.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/pkg"), "{stderr}");

    // A missing source is named once, its cause printed once.
    let missing = sources.path().join("missing.c");
    let out = judge(&["run", "--problem", pkg, missing.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.c"), "{stderr}");
    assert_eq!(
        stderr.matches("No such file or directory").count(),
        1,
        "{stderr}"
    );

    let big = sources.path().join("big.py");
    std::fs::write(&big, format!("# {}\nprint(1)\n", "x".repeat(200 * 1024))).expect("write");
    let out = judge(&["run", "--problem", pkg, big.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("above the problem's code limit"));

    write(package.path(), "problem.yaml", "name: [broken\n");
    let out = judge(&["run", "--problem", pkg, big.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed YAML at line"));
}

/// A package whose answers are any x with 1 <= x <= n and x * x >= n, checked by a
/// custom validator `validator_file` (under output_validators/check/).
fn square_package(validator_file: &str, validator: &str, yaml_extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        &format!("name: Big square\nvalidation: custom\n{yaml_extra}limits:\n  time_limit: 1\n"),
    );
    for n in [10, 1000, 77] {
        write(root, &format!("data/secret/{n}.in"), &format!("{n}\n"));
        write(root, &format!("data/secret/{n}.ans"), &format!("{n}\n"));
    }
    write(
        root,
        &format!("output_validators/check/{validator_file}"),
        validator,
    );
    dir
}

const KATTIS_VALIDATOR: &str = r#"import sys
n = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
tokens = sys.stdin.read().split()
def reject(message):
    open(feedback + "judgemessage.txt", "w").write(message)
    sys.exit(43)
if len(tokens) != 1 or not tokens[0].isdigit():
    reject("expected one integer")
x = int(tokens[0])
if not (1 <= x <= n and x * x >= n):
    reject(f"{x} is not a valid answer for {n}")
sys.exit(42)
"#;

const TESTLIB_CHECKER: &str = r#"#include <cstdio>
int main(int argc, char** argv) {
    if (argc != 4) return 3;
    FILE* in = fopen(argv[1], "r"); FILE* out = fopen(argv[2], "r"); FILE* ans = fopen(argv[3], "r");
    if (!in || !out || !ans) { fprintf(stderr, "cannot open a file"); return 3; }
    long n, x;
    if (fscanf(in, "%ld", &n) != 1) return 3;
    if (fscanf(out, "%ld", &x) != 1) { fprintf(stderr, "no integer"); return 2; }
    if (x < 1 || x > n || x * x < n) { fprintf(stderr, "%ld is not valid for %ld", x, n); return 1; }
    return 0;
}
"#;

fn custom_validators(backend: &str) {
    let _shared = shared();
    if !available(backend) {
        return;
    }
    let different = "n = int(input())\nx = 1\nwhile x * x < n:\n    x += 1\nprint(x)\n";
    let echo = "print(int(input()))\n";
    for (package, kind) in [
        (
            square_package("validate.py", KATTIS_VALIDATOR, ""),
            "kattis",
        ),
        (
            square_package(
                "checker.cpp",
                TESTLIB_CHECKER,
                "validator_convention: testlib\n",
            ),
            "testlib",
        ),
    ] {
        for (source, want) in [
            (echo, "AC"),
            (different, "AC"),
            ("print(1)\n", "WA"),
            ("print('hello')\n", "WA"),
        ] {
            let (code, report) = run_on(backend, package.path(), "s.py", source);
            assert_eq!(
                report["verdict"], want,
                "{backend} {kind} {source:?}: {report}"
            );
            assert_eq!(code, Some(if want == "AC" { 0 } else { 1 }));
            if want == "WA" {
                let message = report["tests"][0]["message"].as_str().unwrap_or_default();
                assert!(
                    !message.is_empty(),
                    "{backend} {kind}: the validator's message is kept: {report}"
                );
            }
        }
    }
    // A validator that crashes is a judge error, never the contestant's wrong answer.
    let crashing = square_package("validate.py", "import sys\nraise SystemExit(1)\n", "");
    let (code, report) = run_on(backend, crashing.path(), "s.py", echo);
    assert_eq!(report["verdict"], "JE", "{report}");
    assert_eq!(code, Some(2));
}

#[test]
fn custom_output_validators_docker() {
    custom_validators("docker");
}

#[test]
fn custom_output_validators_bwrap() {
    custom_validators("bwrap");
}

const INTERACTOR: &str = r#"import sys
n, secret = map(int, open(sys.argv[1]).read().split())
feedback = sys.argv[3]
def reject(message):
    open(feedback + "judgemessage.txt", "w").write(message)
    sys.exit(43)
print(n, flush=True)
for _ in range(30):
    line = sys.stdin.readline()
    if not line:
        reject("the program stopped before guessing")
    parts = line.split()
    if len(parts) != 2 or parts[0] not in ("?", "!") or not parts[1].isdigit():
        reject("bad query")
    x = int(parts[1])
    if parts[0] == "!":
        if x == secret:
            sys.exit(42)
        reject(f"wrong guess {x}")
    print("<" if secret < x else (">" if secret > x else "="), flush=True)
reject("too many queries")
"#;

fn interactive(backend: &str) {
    let _shared = shared();
    if !available(backend) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        "name: Guess\nvalidation: custom interactive\nlimits:\n  time_limit: 1\n",
    );
    for x in [1, 500_000, 999_999] {
        write(
            root,
            &format!("data/secret/{x}.in"),
            &format!("1000000 {x}\n"),
        );
        write(root, &format!("data/secret/{x}.ans"), &format!("{x}\n"));
    }
    write(root, "output_validators/guess/interactor.py", INTERACTOR);
    let binary = "n = int(input())\nlo, hi = 1, n\nwhile True:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=':\n        print('!', mid, flush=True)\n        break\n    if r == '<':\n        hi = mid - 1\n    else:\n        lo = mid + 1\n";
    let linear = "n = int(input())\nfor x in range(1, n + 1):\n    print('?', x, flush=True)\n    if input().strip() == '=':\n        print('!', x, flush=True)\n        break\n";
    let cases = [
        (binary, "AC"),
        // Over the query limit: rejected by the interactor, whatever the program does next.
        (linear, "WA"),
        ("n = int(input())\nprint('! 1', flush=True)\n", "WA"),
        // The program stops early with a non-zero exit and the interactor then rejects:
        // the program's RTE, in problemtools' order (grade::interactive_verdict).
        ("import sys\nn = int(input())\nsys.exit(3)\n", "RTE"),
        // The interactor accepts, then the program fails: its own failure counts.
        (
            "import sys\nn = int(input())\nlo, hi = 1, n\nwhile True:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=':\n        print('!', mid, flush=True)\n        sys.stdout.close()\n        sys.exit(3)\n    if r == '<':\n        hi = mid - 1\n    else:\n        lo = mid + 1\n",
            "RTE",
        ),
        ("import time\nn = int(input())\ntime.sleep(30)\n", "TLE"),
    ];
    for (source, want) in cases {
        let (_, report) = run_on(backend, root, "guess.py", source);
        let verdicts: Vec<&str> = report["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .map(|t| t["verdict"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(report["verdict"], want, "{backend}: {source:?}: {report}");
        if want == "WA" && source == linear {
            // The first secret (x = 1) is found at once; the others exceed 30 queries.
            assert_eq!(verdicts, vec!["AC", "WA", "WA"], "{report}");
        }
    }
}

#[test]
fn interactive_problems_docker() {
    interactive("docker");
}

#[test]
fn interactive_problems_bwrap() {
    interactive("bwrap");
}

#[test]
fn scored_groups_give_partial_scores() {
    let _shared = shared();
    if !available("bwrap") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Sum\nuuid: s\ntype: scoring\nlimits:\n  time_limit: 1\n",
    );
    let groups: [(&str, u32, &[usize]); 3] = [
        ("1-tiny", 20, &[1, 3]),
        ("2-small", 30, &[5]),
        ("3-large", 50, &[100, 60]),
    ];
    for (group, score, sizes) in groups {
        write(
            root,
            &format!("data/secret/{group}/test_group.yaml"),
            &format!("max_score: {score}\nscore_aggregation: min\n"),
        );
        for n in sizes {
            let numbers: Vec<String> = (1..=*n).map(|i| i.to_string()).collect();
            write(
                root,
                &format!("data/secret/{group}/{n}.in"),
                &format!("{n}\n{}\n", numbers.join(" ")),
            );
            write(
                root,
                &format!("data/secret/{group}/{n}.ans"),
                &format!("{}\n", n * (n + 1) / 2),
            );
        }
    }
    let partial =
        "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) if n <= 5 else 0)\n";
    let (code, report) = run_on("bwrap", root, "partial.py", partial);
    assert_eq!(code, Some(1));
    assert_eq!(report["verdict"], "WA", "{report}");
    assert_eq!(report["score"], 50.0, "{report}");
    assert_eq!(report["max_score"], 100.0, "{report}");
    assert_eq!(report["tests"].as_array().map(Vec::len), Some(5));
    // Every test runs even without --all, since the score needs them all.
    let sources = tempfile::tempdir().expect("tempdir");
    let path = sources.path().join("partial.py");
    std::fs::write(&path, partial).expect("write");
    let out = judge(&[
        "run",
        "--backend",
        "bwrap",
        "--json",
        "--problem",
        root.to_str().expect("utf-8"),
        path.to_str().expect("utf-8"),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("report");
    assert_eq!(last["tests"].as_array().map(Vec::len), Some(5), "{last}");
    assert_eq!(last["score"], 50.0);
    let full = "input()\nprint(sum(map(int, input().split())))\n";
    let (_, report) = run_on("bwrap", root, "full.py", full);
    assert_eq!(
        (report["verdict"].as_str(), report["score"].as_f64()),
        (Some("AC"), Some(100.0)),
        "{report}"
    );
}
