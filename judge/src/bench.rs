//! `judge bench`: the per-test cost of judging a trivial program over N tests on each
//! backend, against a bare fork+exec of the same binary and a naive `docker run` per test.
//! (Filled in below.)

use std::process::ExitCode;

pub(crate) async fn run(_tests: usize, _docker_run_tests: usize) -> anyhow::Result<ExitCode> {
    anyhow::bail!("judge bench is not written yet")
}
