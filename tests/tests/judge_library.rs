//! The judge library used from a crate other than `judge`, as the agent and the trainer
//! use it: `SandboxConfig::discover` finds the supervisor embedded in the library (no
//! `JUDGE_SUPERVISOR`, no binary built beside this test), and a submission is judged
//! with it on bubblewrap. Under `CI=true` a missing bubblewrap fails.

use std::path::Path;
use std::process::Command;

use judge::sandbox::{BackendKind, SandboxConfig};
use judge::{Options, Submission};

#[test]
fn another_crate_finds_the_embedded_supervisor() {
    assert!(
        std::env::var_os("JUDGE_SUPERVISOR").is_none(),
        "JUDGE_SUPERVISOR is set: this test checks the lookup without it"
    );
    let config = SandboxConfig::discover().unwrap_or_else(|err| panic!("{err}"));
    let folder = config.supervisor.parent().expect("a folder");
    assert_eq!(
        folder.file_name().and_then(|name| name.to_str()),
        Some(judge::supervisor::digest().as_str()),
        "{}",
        config.supervisor.display()
    );
    // No binary named judge-supervisor beside this test: the library carried it.
    let exe = std::env::current_exe().expect("test binary");
    assert_ne!(config.supervisor.parent(), exe.parent());
    let out = Command::new(&config.supervisor)
        .output()
        .expect("the supervisor runs");
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("usage: judge-supervisor"),
        "{out:?}"
    );
}

#[tokio::test]
async fn another_crate_judges_with_it() {
    if !ci::require::bwrap() {
        return;
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/pairsums");
    let (problem, _) = judge::problems::load(&package).expect("bundled package loads");
    let config = SandboxConfig::discover().unwrap_or_else(|err| panic!("{err}"));
    let submission = Submission {
        path: "sum.py".into(),
        source: "print(sum(map(int, input().split())))\n".to_owned(),
        language: judge::lang::by_id("python3").expect("python3"),
    };
    let options = Options {
        backend: BackendKind::Bwrap,
        run_all: true,
        cache_dir: None,
    };
    let mut seen = 0;
    let report = judge::judge(&problem, &submission, &config, &options, &mut |_| seen += 1)
        .await
        .expect("the judge runs");
    assert_eq!(seen, report.tests.len());
    assert!(report.total > 0 && report.tests.len() == report.total);
    assert!(report.compile.ok, "python compiles: {}", report.compile.log);
}
