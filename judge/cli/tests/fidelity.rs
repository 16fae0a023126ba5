//! End-to-end tests of the judge's fidelity to the package format and to contest practice
//! (issue 32), each on both sandboxes (Docker and bubblewrap) with packages written here:
//! multi-pass validation (a package that needs three passes, both spellings, a validator
//! that never stops, the same with an interactor, and a validator whose state lives only
//! in each pass's input), the interactive verdict order (problemtools'), linked test files,
//! the clock and output rules (standard error kept but never OLE, the wall-clock limit,
//! writes refused or discarded), Python with `site`, `-DONLINE_JUDGE`, and the language
//! list's extensions. Under `CI=true` a missing backend fails the test; elsewhere the test
//! says what is missing and returns.

mod common;

use std::path::Path;

use common::{available, judge, run_on, write};

/// The verdict, the exit code and each test's verdict of `source` (as `name`) on `root`.
fn verdicts(backend: &str, root: &Path, name: &str, source: &str) -> (String, Vec<String>) {
    let (_, report) = run_on(backend, root, name, source);
    let tests = report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["verdict"].as_str().unwrap_or_default().to_owned())
        .collect();
    (
        report["verdict"].as_str().unwrap_or_default().to_owned(),
        tests,
    )
}

/// A multi-pass validator: pass k's input is a number x, the right output x + 1. The
/// validator counts passes in its feedback folder (which persists between passes) and,
/// after an accepted pass, writes the next input, 100 times the output, until `last`
/// passes are done; `last` 0 never stops.
fn multi_pass_validator(last: u32) -> String {
    format!(
        r#"import os, sys
feedback = sys.argv[3]
def state(name, default):
    try:
        return int(open(feedback + name).read())
    except OSError:
        return default
done = state("passes.txt", 0) + 1
open(feedback + "passes.txt", "w").write(str(done))
sent = state("sent.txt", int(open(sys.argv[1]).read()))
tokens = sys.stdin.read().split()
if tokens != [str(sent + 1)]:
    open(feedback + "judgemessage.txt", "a").write(f"pass {{done}}: {{tokens}} for {{sent}}\n")
    sys.exit(43)
if {last} == 0 or done < {last}:
    nxt = 100 * (sent + 1)
    open(feedback + "nextpass.in", "w").write(f"{{nxt}}\n")
    open(feedback + "sent.txt", "w").write(str(nxt))
sys.exit(42)
"#
    )
}

/// A multi-pass package with two cases (inputs 1 and 3), whose validator stops after
/// `last` passes (0: never), declared with `yaml` (after `name` and the time limit).
fn multi_pass_package(yaml: &str, folder: &str, last: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "problem.yaml", yaml);
    for x in [1, 3] {
        write(root, &format!("data/secret/{x}.in"), &format!("{x}\n"));
        write(root, &format!("data/secret/{x}.ans"), "-\n");
    }
    write(
        root,
        &format!("{folder}/check.py"),
        &multi_pass_validator(last),
    );
    dir
}

fn multi_pass(backend: &str) {
    if !available(backend) {
        return;
    }
    let three = multi_pass_package(
        "problem_format_version: 2025-09\nname: Passes\nuuid: p\ntype: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 3\n",
        "output_validator",
        3,
    );
    let root = three.path();
    // Inputs per pass: 1, 200, 20100 (and 3, 400, 40100).
    let right = "print(int(input()) + 1)\n";
    let (verdict, _) = verdicts(backend, root, "right.py", right);
    assert_eq!(verdict, "AC", "{backend}");
    let (_, report) = run_on(backend, root, "right.py", right);
    for test in report["tests"].as_array().expect("tests") {
        assert_eq!(test["passes"], 3, "{backend}: {test}");
    }
    let cases = [
        // Right on the first pass only.
        (
            "first.py",
            "x = int(input())\nprint(x + 1 if x < 10 else x)\n",
            "WA",
        ),
        // Too slow on the third pass only: the limit applies to each pass.
        (
            "third.py",
            "x = int(input())\nwhile x > 10000:\n    pass\nprint(x + 1)\n",
            "TLE",
        ),
        // Crashes on the second pass.
        (
            "second.py",
            "x = int(input())\nassert x < 100\nprint(x + 1)\n",
            "RTE",
        ),
    ];
    for (name, source, want) in cases {
        let (verdict, _) = verdicts(backend, root, name, source);
        assert_eq!(verdict, want, "{backend} {name}");
    }

    // Legacy spelling, default `validation_passes` (2): a validator asking for a third
    // pass is stopped, a judge error naming it (exit code 2).
    let legacy = multi_pass_package(
        "name: Passes\nvalidation: custom multi-pass\nlimits:\n  time_limit: 1\n",
        "output_validators/check",
        3,
    );
    let message = judge_error(backend, legacy.path(), right);
    assert!(
        message.contains("asked for pass 3") && message.contains("at most 2 passes"),
        "{backend}: {message}"
    );
    // The same validator with two passes allowed by it: AC.
    let two = multi_pass_package(
        "name: Passes\nvalidation: custom multi-pass\nlimits:\n  time_limit: 1\n",
        "output_validators/check",
        2,
    );
    assert_eq!(
        verdicts(backend, two.path(), "right.py", right).0,
        "AC",
        "{backend}"
    );

    // A validator that never stops is bounded by `validation_passes`.
    let endless = multi_pass_package(
        "problem_format_version: 2025-09\nname: Passes\nuuid: p\ntype: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 5\n",
        "output_validator",
        0,
    );
    let message = judge_error(backend, endless.path(), right);
    assert!(
        message.contains("asked for pass 6") && message.contains("nextpass.in"),
        "{backend}: {message}"
    );
}

/// The first test's message of the Python `source` on `root`, which must be a judge
/// error (exit code 2).
fn judge_error(backend: &str, root: &Path, source: &str) -> String {
    let (code, report) = run_on(backend, root, "p.py", source);
    assert_eq!(
        (code, report["verdict"].as_str()),
        (Some(2), Some("JE")),
        "{backend}: {report}"
    );
    report["tests"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn multi_pass_validation_docker() {
    multi_pass("docker");
}

#[test]
fn multi_pass_validation_bwrap() {
    multi_pass("bwrap");
}

/// An interactor of a multi-pass problem: sends the number x of its input file (the
/// test's input on pass 1, then the `nextpass.in` it wrote), expects x + 1 back, counts
/// its passes in the feedback folder (kept between passes) and, after an accepted pass,
/// writes the next input, 100 times the answer, until `last` passes are done (0: never).
fn multi_pass_interactor(last: u32) -> String {
    format!(
        r#"import os, sys
feedback = sys.argv[3]
done = 1
try:
    done = int(open(feedback + "passes.txt").read()) + 1
except OSError:
    pass
open(feedback + "passes.txt", "w").write(str(done))
x = int(open(sys.argv[1]).read())
def reject(message):
    open(feedback + "judgemessage.txt", "a").write(f"pass {{done}}: {{message}}\n")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.exit(43)
try:
    print(x, flush=True)
except BrokenPipeError:
    reject("the program left")
line = sys.stdin.readline()
if line.split() != [str(x + 1)]:
    reject(f"got {{line!r}} for {{x}}")
if {last} == 0 or done < {last}:
    open(feedback + "nextpass.in", "w").write(f"{{100 * (x + 1)}}\n")
sys.exit(42)
"#
    )
}

fn interactive_multi_pass(backend: &str) {
    if !available(backend) {
        return;
    }
    let package = |passes: u32, last: u32| {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(
            root,
            "problem.yaml",
            &format!(
                "problem_format_version: 2025-09\nname: Passes\nuuid: p\ntype: [interactive, multi-pass]\nlimits:\n  time_limit: 1\n  validation_passes: {passes}\n"
            ),
        );
        for x in [1, 3] {
            write(root, &format!("data/secret/{x}.in"), &format!("{x}\n"));
            write(root, &format!("data/secret/{x}.ans"), "-\n");
        }
        write(
            root,
            "output_validator/interactor.py",
            &multi_pass_interactor(last),
        );
        dir
    };
    // Three passes: the interactor sends 1, 200, 20100 (and 3, 400, 40100).
    let three = package(3, 3);
    let root = three.path();
    let right = "print(int(input()) + 1, flush=True)\n";
    let (_, report) = run_on(backend, root, "right.py", right);
    assert_eq!(report["verdict"], "AC", "{backend}: {report}");
    for test in report["tests"].as_array().expect("tests") {
        assert_eq!(test["passes"], 3, "{backend}: {test}");
    }
    let cases = [
        // Right on the first pass only.
        (
            "first.py",
            "x = int(input())\nprint(x + 1 if x < 10 else x, flush=True)\n",
            "WA",
        ),
        // Too slow on the third pass only: the limit applies to each pass.
        (
            "third.py",
            "x = int(input())\nwhile x > 10000:\n    pass\nprint(x + 1, flush=True)\n",
            "TLE",
        ),
        // Crashes on the second pass, before answering: the crash is the program's.
        (
            "second.py",
            "x = int(input())\nassert x < 100\nprint(x + 1, flush=True)\n",
            "RTE",
        ),
    ];
    for (name, source, want) in cases {
        let (verdict, _) = verdicts(backend, root, name, source);
        assert_eq!(verdict, want, "{backend} {name}");
    }
    // An interactor that never stops asking is stopped at `validation_passes`: a judge
    // error that names the pass it asked for.
    let endless = package(4, 0);
    let message = judge_error(backend, endless.path(), right);
    assert!(
        message.contains("asked for pass 5") && message.contains("nextpass.in"),
        "{backend}: {message}"
    );
}

#[test]
fn interactive_multi_pass_docker() {
    interactive_multi_pass("docker");
}

#[test]
fn interactive_multi_pass_bwrap() {
    interactive_multi_pass("bwrap");
}

/// An interactor: sends n, expects `! n*2` back; a wrong or missing answer is 43.
const DOUBLING_INTERACTOR: &str = r#"import os, sys
n = int(open(sys.argv[1]).read())
def reject(message):
    open(sys.argv[3] + "judgemessage.txt", "w").write(message)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.exit(43)
try:
    print(n, flush=True)
except BrokenPipeError:
    reject("the program left")
line = sys.stdin.readline()
if line.split() != ["!", str(2 * n)]:
    reject(f"got {line!r}")
sys.exit(42)
"#;

/// [`DOUBLING_INTERACTOR`] up to its last line, for a variant that goes on after it.
const DOUBLING_INTERACTOR_NO_EXIT: &str = r#"import os, sys
n = int(open(sys.argv[1]).read())
print(n, flush=True)
line = sys.stdin.readline()
if line.split() != ["!", str(2 * n)]:
    sys.exit(43)
"#;

fn interactive_order(backend: &str) {
    if !available(backend) {
        return;
    }
    let dir = modern_package("type: interactive\n");
    let root = dir.path();
    write(root, "data/secret/1.in", "21\n");
    write(root, "data/secret/1.ans", "42\n");
    write(root, "output_validator/interactor.py", DOUBLING_INTERACTOR);
    // (case, program, verdict): problemtools' order.
    let table = [
        (
            "right",
            "n = int(input())\nprint('!', 2 * n, flush=True)\n",
            "AC",
        ),
        // The program crashes first; the interactor then rejects the missing answer: the
        // crash is the program's (RTE), not WA.
        (
            "crashes first",
            "import os, signal\ninput()\nos.kill(os.getpid(), signal.SIGSEGV)\n",
            "RTE",
        ),
        // The interactor rejects first; the program then dies of the end of its input.
        (
            "validator rejects first",
            "input()\nprint('! 0', flush=True)\ninput()\n",
            "WA",
        ),
        // The program spins while the interactor waits for its answer.
        ("too slow", "input()\nwhile True:\n    pass\n", "TLE"),
        // The program closes its output and ends normally: the interactor decides (WA).
        ("closes early", "import os\ninput()\nos.close(1)\n", "WA"),
        // A non-zero exit after a wrong answer the interactor had not read yet.
        ("exits 3", "import sys\ninput()\nsys.exit(3)\n", "RTE"),
    ];
    for (what, source, want) in table {
        let (verdict, _) = verdicts(backend, root, "p.py", source);
        assert_eq!(verdict, want, "{backend} {what}");
    }
    // An interactor that still writes after the program has ended (BAPCtools' own test
    // package does): its write is not refused, so it is not a judge error.
    write(
        root,
        "output_validator/interactor.py",
        &format!(
            "{DOUBLING_INTERACTOR_NO_EXIT}import time\ntime.sleep(0.3)\nprint('bye', flush=True)\nsys.exit(42)\n"
        ),
    );
    let (verdict, _) = verdicts(backend, root, "p.py", table[0].1);
    assert_eq!(
        verdict, "AC",
        "{backend}: an interactor writing after the program left"
    );
}

#[test]
fn interactive_verdict_order_docker() {
    interactive_order("docker");
}

#[test]
fn interactive_verdict_order_bwrap() {
    interactive_order("bwrap");
}

/// A new 2025-09 package folder with a 1 s limit and `extra` lines in its problem.yaml.
fn modern_package(extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "problem.yaml",
        &format!(
            "problem_format_version: 2025-09\nname: Test\nuuid: t\n{extra}limits:\n  time_limit: 1\n"
        ),
    );
    dir
}

/// A package "a + b" with two secret cases, the second a link to the first, and a group
/// that is a link to another group.
fn linked_package() -> tempfile::TempDir {
    let dir = modern_package("");
    let root = dir.path();
    write(root, "data/secret/a.in", "1 2\n");
    write(root, "data/secret/a.ans", "3\n");
    write(root, "data/secret/g1/c.in", "5 5\n");
    write(root, "data/secret/g1/c.ans", "10\n");
    let secret = root.join("data/secret");
    std::os::unix::fs::symlink("a.in", secret.join("b.in")).expect("link");
    std::os::unix::fs::symlink("a.ans", secret.join("b.ans")).expect("link");
    std::os::unix::fs::symlink("g1", secret.join("g2")).expect("link");
    dir
}

fn linked_files(backend: &str) {
    if !available(backend) {
        return;
    }
    let package = linked_package();
    let root = package.path();
    let sum = "a, b = map(int, input().split())\nprint(a + b)\n";
    let (verdict, tests) = verdicts(backend, root, "sum.py", sum);
    assert_eq!(verdict, "AC", "{backend}");
    assert_eq!(tests.len(), 4, "{backend}: a, b, g1/c, g2/c");
    assert_eq!(
        verdicts(backend, root, "wa.py", "print(3)\n").1,
        ["AC", "AC", "WA", "WA"]
    );

    // A link out of the package is refused, never followed; a loop is named.
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "x.in", "1 1\n");
    let secret = root.join("data/secret");
    std::os::unix::fs::symlink(outside.path().join("x.in"), secret.join("d.in")).expect("link");
    std::os::unix::fs::symlink("a.ans", secret.join("d.ans")).expect("link");
    std::os::unix::fs::symlink("e.in", secret.join("e.in")).expect("link");
    write(root, "data/secret/e.ans", "1\n");
    let source = root.join("sum.py");
    std::fs::write(&source, sum).expect("write");
    let out = judge(&[
        "run",
        "--backend",
        backend,
        "--problem",
        root.to_str().expect("utf-8"),
        source.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("data/secret/d.in: is a symbolic link to")
            && stderr.contains("outside the package")
            && stderr
                .contains("data/secret/e.in: is a symbolic link to `e.in` that leads round a loop"),
        "{stderr}"
    );
}

#[test]
fn linked_test_files_docker() {
    linked_files("docker");
}

#[test]
fn linked_test_files_bwrap() {
    linked_files("bwrap");
}

/// A package "echo the number" with two secret cases, answer `n ok`.
fn echo_package() -> tempfile::TempDir {
    let dir = modern_package("");
    let root = dir.path();
    for n in [1, 2] {
        write(root, &format!("data/secret/{n}.in"), &format!("{n}\n"));
        write(root, &format!("data/secret/{n}.ans"), &format!("{n} ok\n"));
    }
    dir
}

/// Writes in the work folder (new file, its own source), in /tmp and in /dev/shm, and
/// says `ok` only when every write to the work folder was refused and nothing of an
/// earlier test is left in the shared folders.
const WRITER: &str = r#"import os
n = input()
bad = []
for path in ["made.txt", "main.py", "/box/made.txt"]:
    try:
        with open(path, "a") as f:
            f.write("x")
        bad.append("wrote " + path)
    except OSError:
        pass
for folder in ["/tmp", "/dev/shm"]:
    if os.path.isdir(folder):
        left = [f for f in os.listdir(folder) if f.startswith("mark")]
        if left:
            bad.append("found " + folder + "/" + left[0])
        try:
            open(folder + "/mark" + n, "w").write("x" * 100000)
        except OSError:
            pass
print(n, "ok" if not bad else bad)
"#;

fn clock_and_output(backend: &str) {
    if !available(backend) {
        return;
    }
    let package = echo_package();
    let root = package.path();
    let table = [
        // 20 MiB of standard error, then the answer: stderr is kept in part, never OLE.
        (
            "flood.py",
            "import sys\nn = input()\nfor _ in range(20):\n    sys.stderr.write('e' * (1 << 20))\nprint(n, 'ok')\n",
            "AC",
        ),
        // Sleeps 5 s under a 1 s limit: the wall-clock limit (1 s + 1 s) kills it, TLE
        // though it used almost no CPU.
        (
            "sleep.py",
            "import time\nn = input()\ntime.sleep(5)\nprint(n, 'ok')\n",
            "TLE",
        ),
        ("writer.py", WRITER, "AC"),
        // Python's `site`: exit() and quit() exist; no user site folder, nothing but the
        // image's own paths on sys.path.
        (
            "site.py",
            "import site, sys\nn = input()\nclean = not site.ENABLE_USER_SITE and all(p.startswith(('/usr/', '/box')) for p in sys.path)\nprint(n, 'ok' if clean else sys.path)\nexit() if n == '1' else quit()\n",
            "AC",
        ),
        ("site.py3", "n = input()\nprint(n, 'ok')\nexit(0)\n", "AC"),
        // Contestants' templates read a file unless ONLINE_JUDGE is defined.
        (
            "template.cpp",
            "#include <cstdio>\nint main() {\n#ifndef ONLINE_JUDGE\n    freopen(\"input.txt\", \"r\", stdin);\n#endif\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    printf(\"%d ok\\n\", n);\n}\n",
            "AC",
        ),
        (
            "template.c",
            "#include <stdio.h>\nint main(void) {\n#if !ONLINE_JUDGE\n    freopen(\"input.txt\", \"r\", stdin);\n#endif\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    printf(\"%d ok\\n\", n);\n    return 0;\n}\n",
            "AC",
        ),
    ];
    for (name, source, want) in table {
        let (_, report) = run_on(backend, root, name, source);
        assert_eq!(report["verdict"], want, "{backend} {name}: {report}");
        if name == "sleep.py" {
            let message = report["tests"][0]["message"].as_str().unwrap_or_default();
            assert!(message.contains("wall-clock"), "{backend}: {report}");
        }
    }
    // The same with PyPy.
    let sources = tempfile::tempdir().expect("tempdir");
    let site = sources.path().join("site.py");
    std::fs::write(&site, table[3].1).expect("write");
    let (_, report) = common::run_file(backend, root, &site, &["--lang", "pypy3"]);
    assert_eq!(report["verdict"], "AC", "{backend} pypy3: {report}");
}

#[test]
fn clock_and_output_rules_docker() {
    clock_and_output("docker");
}

#[test]
fn clock_and_output_rules_bwrap() {
    clock_and_output("bwrap");
}

#[test]
fn every_extension_of_the_language_list_is_recognised() {
    let package = echo_package();
    let sources = tempfile::tempdir().expect("tempdir");
    let python2 = sources.path().join("main.py2");
    std::fs::write(&python2, "print 'hello'\n").expect("write");
    let out = judge(&[
        "run",
        "--backend",
        "bwrap",
        "--problem",
        package.path().to_str().expect("utf-8"),
        python2.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is Python 2 (`python2` in the package format's language list), which this judge cannot run: Python 2 is not in Debian bookworm"),
        "{stderr}"
    );
}

/// A guessing game whose state lives only in the pass's input (the spec's multi-pass
/// rule: the output validator's input file is the pass's own input). The input is the
/// number of letters to guess and the letters guessed so far (`-` for none); the program
/// answers one letter not guessed yet; the validator rejects a repeat and, while letters
/// remain, writes the input of the next pass with the new letter added. It keeps nothing
/// in its feedback folder, so a validator handed the first pass's input every time never
/// sees a guess and never ends.
const GUESSING_VALIDATOR: &str = r#"import sys
lines = open(sys.argv[1]).read().split()
want, guessed = int(lines[0]), lines[1].strip("-")
got = sys.stdin.read().split()
if len(got) != 1 or len(got[0]) != 1 or not got[0].isalpha() or got[0] in guessed:
    open(sys.argv[3] + "judgemessage.txt", "a").write(f"{got} after {guessed!r}\n")
    sys.exit(43)
guessed += got[0]
if len(guessed) < want:
    open(sys.argv[3] + "nextpass.in", "w").write(f"{want}\n{guessed}\n")
sys.exit(42)
"#;

/// A package of the guessing game: cases that need 3 and 4 guesses, declared by `yaml`.
fn guessing_package(yaml: &str, folder: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "problem.yaml", yaml);
    for want in [3, 4] {
        write(
            root,
            &format!("data/secret/{want}.in"),
            &format!("{want}\n-\n"),
        );
        write(root, &format!("data/secret/{want}.ans"), "-\n");
    }
    write(root, &format!("{folder}/check.py"), GUESSING_VALIDATOR);
    dir
}

fn multi_pass_state_in_input(backend: &str) {
    if !available(backend) {
        return;
    }
    let game = guessing_package(
        "problem_format_version: 2025-09\nname: Guess\nuuid: g\ntype: multi-pass\nlimits:\n  time_limit: 1\n  validation_passes: 5\n",
        "output_validator",
    );
    // The first letter not guessed yet: right on every pass.
    let right = "input()\nseen = input().strip('-')\nprint(next(c for c in 'abcdefghij' if c not in seen))\n";
    let (_, report) = run_on(backend, game.path(), "right.py", right);
    assert_eq!(report["verdict"], "AC", "{backend}: {report}");
    let passes: Vec<_> = report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["passes"].as_u64())
        .collect();
    assert_eq!(passes, [Some(3), Some(4)], "{backend}: {report}");
    // The same letter every time: the second pass's validator sees it guessed.
    let (verdict, _) = verdicts(backend, game.path(), "repeat.py", "print('a')\n");
    assert_eq!(verdict, "WA", "{backend}");
    // Two passes allowed (the legacy spelling's default): the validator asks for a third.
    let short = guessing_package(
        "name: Guess\nvalidation: custom multi-pass\nlimits:\n  time_limit: 1\n",
        "output_validators/check",
    );
    let message = judge_error(backend, short.path(), right);
    assert!(
        message.contains("asked for pass 3") && message.contains("at most 2 passes"),
        "{backend}: {message}"
    );
}

#[test]
fn multi_pass_validator_reads_each_pass_input_docker() {
    multi_pass_state_in_input("docker");
}

#[test]
fn multi_pass_validator_reads_each_pass_input_bwrap() {
    multi_pass_state_in_input("bwrap");
}
