//! The CPU allowance (`--cpus`, the contest file's `cpus`): both backends give a
//! submission's sandbox the same kernel quota of CPU time per second of wall time (Docker
//! `nano_cpus`, bubblewrap a host CPU cgroup), one CPU by default. The probe is a C program
//! whose 4 threads spin until 1.5 s of wall time have passed, then print the sum of the
//! input, on a copy of the `sum` problem with a 2 s limit (CPU time of every thread):
//! - one CPU (the default): it uses at most about 1.5 s of CPU time whatever the machine
//!   has, so AC on both backends (without a quota, 4 threads on 2 cores use 3 s: TLE);
//! - `--cpus 2` (on a machine with 2 cores or more): about 3 s of CPU time, TLE on both.
//!
//! And each run is pinned to one core (the cgroup's cpuset): a program that checks its
//! affinity, a child's and where its threads run gets AC.
//!
//! Only verdicts are asserted. Under `CI=true` a missing backend fails the test; elsewhere
//! the test says what is missing and returns.

mod common;

use std::path::{Path, PathBuf};

use common::{available, run_file, write};

/// Four threads spin on the wall clock for 1.5 s, then the answer to `sum`.
const SPINNER: &str = r#"#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double start;
static volatile unsigned long sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *spin(void *arg) {
    (void)arg;
    unsigned long x = 0;
    while (now() - start < 1.5) x++;
    sink += x;
    return NULL;
}

int main(void) {
    start = now();
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, spin, NULL);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    long long n, v, sum = 0;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) {
        if (scanf("%lld", &v) != 1) return 1;
        sum += v;
    }
    printf("%lld\n", sum);
    return 0;
}
"#;

/// A copy of `sum` (one sample, one secret test) with a time limit of 2 s.
fn sum_package() -> tempfile::TempDir {
    let sum = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/packages/sum");
    let dir = tempfile::tempdir().expect("tempdir");
    let yaml = std::fs::read_to_string(sum.join("problem.yaml")).expect("sum's problem.yaml");
    assert!(
        yaml.contains("time_limit: 1\n"),
        "sum's limit changed: {yaml}"
    );
    write(
        dir.path(),
        "problem.yaml",
        &yaml.replace("time_limit: 1\n", "time_limit: 2\n"),
    );
    for file in [
        "data/sample/1.in",
        "data/sample/1.ans",
        "data/secret/01-single.in",
        "data/secret/01-single.ans",
    ] {
        let text = std::fs::read_to_string(sum.join(file)).expect("sum's data");
        write(dir.path(), file, &text);
    }
    dir
}

/// `judge run --json --all --no-cache` of the spinner with `extra` arguments: the verdict,
/// and the report (for messages).
fn verdict(backend: &str, package: &Path, source: &Path, extra: &[&str]) -> (String, String) {
    let (_, report) = run_file(backend, package, source, extra);
    let verdict = report["verdict"].as_str().expect("verdict").to_owned();
    (verdict, report.to_string())
}

/// The backends that are here (under `CI=true` a missing one fails the test).
fn backends() -> Vec<&'static str> {
    ["docker", "bwrap"]
        .into_iter()
        .filter(|b| available(b))
        .collect()
}

#[test]
fn a_multi_threaded_program_gets_the_same_verdict_on_both_backends() {
    let backends = backends();
    if backends.is_empty() {
        return;
    }
    let package = sum_package();
    let sources = tempfile::tempdir().expect("tempdir");
    let source: PathBuf = sources.path().join("spin.c");
    std::fs::write(&source, SPINNER).expect("write");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cases: Vec<(&[&str], &str)> = vec![(&[], "AC"), (&["--cpus", "1"], "AC")];
    if cores >= 2 {
        cases.push((&["--cpus", "2"], "TLE"));
    } else {
        eprintln!("one core here: `--cpus 2` cannot use two CPUs' worth of time, not checked");
    }
    for (extra, expected) in cases {
        for backend in &backends {
            let (got, report) = verdict(backend, package.path(), &source, extra);
            assert_eq!(
                got, expected,
                "{backend} {extra:?}: expected {expected}, got {got}: {report}"
            );
        }
    }
}

#[test]
fn the_allowance_comes_from_the_command_else_the_contest_files_else_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let contest = |name: &str, cpus: Option<u32>| {
        let line = cpus.map_or(String::new(), |c| format!("cpus: {c}\n"));
        write(
            dir.path(),
            name,
            &format!(
                "id: c\nname: C\nstart_time: 2026-01-01T10:00:00Z\nduration: 60\n{line}problems: []\nteams: []\n"
            ),
        );
        dir.path().join(name)
    };
    let plain = contest("plain.yaml", None);
    let two = contest("two.yaml", Some(2));
    let three = contest("three.yaml", Some(3));
    let config = |cpus: Option<u32>| judge::sandbox::SandboxConfig {
        image: "unused".into(),
        rootfs: PathBuf::from("/nonexistent"),
        supervisor: PathBuf::from("/nonexistent"),
        recipe_hash: "unused".into(),
        cpus,
        workspaces: Default::default(),
    };
    let cpus = |files: &[PathBuf], flag: Option<u32>| {
        judge_server::sandbox_cpus(files, &config(flag)).map_err(|err| err.to_string())
    };
    assert_eq!(cpus(&[], None), Ok(1));
    assert_eq!(cpus(std::slice::from_ref(&plain), None), Ok(1));
    assert_eq!(cpus(std::slice::from_ref(&two), None), Ok(2));
    assert_eq!(cpus(&[two.clone(), three.clone()], Some(4)), Ok(4));
    let err = cpus(&[two, three], None).expect_err("contests that disagree");
    assert!(err.contains("cpus"), "{err}");
    assert_eq!(config(None).cpus(), 1);
}

/// Checks that it runs on one core, with its threads and a child: the affinity mask the
/// sandbox gave it has one CPU; a child that asks for every CPU still gets only that
/// one (the cgroup's cpuset, not the program's own mask, decides); four threads each see
/// themselves on it. Then the answer to `sum`, or `-1` (a wrong answer) when a check
/// failed, with the reason on standard error.
const PINNED: &str = r#"#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int core = -1;
static volatile int bad = 0;

static void *where(void *arg) {
    (void)arg;
    for (volatile long i = 0; i < 20000000; i++) {}
    if (sched_getcpu() != core) bad = 1;
    return NULL;
}

int main(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) {
        fprintf(stderr, "affinity: %d cpus\n", CPU_COUNT(&set));
        bad = 1;
    }
    for (int c = 0; c < CPU_SETSIZE; c++) if (CPU_ISSET(c, &set)) core = c;
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t all;
        CPU_ZERO(&all);
        for (int c = 0; c < 64; c++) CPU_SET(c, &all);
        sched_setaffinity(0, sizeof all, &all);
        cpu_set_t got;
        CPU_ZERO(&got);
        sched_getaffinity(0, sizeof got, &got);
        _exit(CPU_COUNT(&got) == 1 && CPU_ISSET(core, &got) ? 0 : 1);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "the child left the core\n");
        bad = 1;
    }
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, where, NULL);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    long long n, v, sum = 0;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) {
        if (scanf("%lld", &v) != 1) return 1;
        sum += v;
    }
    printf("%lld\n", bad ? -1 : sum);
    return 0;
}
"#;

#[test]
fn each_run_and_its_children_stay_on_one_core_on_both_backends() {
    let backends = backends();
    if backends.is_empty() {
        return;
    }
    let package = sum_package();
    let sources = tempfile::tempdir().expect("tempdir");
    let source: PathBuf = sources.path().join("pinned.c");
    std::fs::write(&source, PINNED).expect("write");
    for backend in &backends {
        let (got, report) = verdict(backend, package.path(), &source, &[]);
        assert_eq!(got, "AC", "{backend}: {report}");
    }
}
