//! Judging before serving: `serve` answers HTTP on a runtime of its own whose threads run
//! at a lower CPU priority (a higher nice value) than the rest of the process, so that
//! when the machine is short of CPU (thousands of clients polling the board, the event
//! feed held open) the kernel gives it to judging first.
//!
//! The judging workers, the state ticker and the event log's reader stay on the
//! process's main runtime at the process's own priority, and so do the sandboxes a worker
//! starts (a child takes the nice value of the thread that spawns it). Linux keeps a
//! nice value per thread, so lowering the HTTP runtime's threads (its workers and its
//! blocking pool, both started through [`http_runtime`]'s `on_thread_start`) leaves the
//! rest alone; an unprivileged process may always lower its own priority, never raise it
//! back, which is why the HTTP threads are threads of their own.
//!
//! What it does not cover: a nice value orders the threads of one CPU cgroup. The
//! sandboxes run in cgroups of their own (bubblewrap's under `arena-judge/`, Docker's
//! containers), which the kernel weighs against the server's threads as groups, by their
//! CPU weight. Where the server runs in the root cgroup beside them (cgroup v1, as on the
//! benchmark machine), each sandbox group weighs as much as one nice-0 thread, so
//! lowering the HTTP threads moves CPU to judging; a load generator on the same machine
//! competes at its own priority.

use std::io;

/// The nice value of the calling thread (Linux keeps one per thread).
pub fn thread_nice() -> io::Result<i32> {
    Ok(rustix::process::getpriority_process(None)?)
}

/// Sets the calling thread's nice value to `nice` (at most 19; a thread may raise its own
/// value, never lower it without privilege); returns the value it has now.
pub fn set_thread_nice(nice: i32) -> io::Result<i32> {
    rustix::process::setpriority_process(None, nice.min(19))?;
    thread_nice()
}

/// A multi-threaded runtime (one worker per CPU, named `judge-http`) whose every thread
/// runs `nice` steps below the thread that builds it. The value is fixed when the runtime
/// is built, not added at each thread's start: a blocking-pool thread started from a
/// worker would otherwise take the worker's lowered value and lower it again. A thread
/// that cannot set it says so on standard error and runs on at its priority.
pub fn http_runtime(nice: u8) -> io::Result<tokio::runtime::Runtime> {
    let target = (thread_nice()? + i32::from(nice)).min(19);
    tokio::runtime::Builder::new_multi_thread()
        .thread_name("judge-http")
        .enable_all()
        .on_thread_start(move || {
            if nice > 0
                && let Err(err) = set_thread_nice(target)
            {
                eprintln!("judge serve: cannot lower an HTTP thread's priority: {err}");
            }
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_runtimes_threads_run_below_the_caller() {
        let caller = thread_nice().unwrap();
        let runtime = http_runtime(5).unwrap();
        let (worker, blocking) = runtime.block_on(async {
            // From a worker thread, as a handler's `spawn_blocking` is.
            tokio::spawn(async {
                let blocking = tokio::task::spawn_blocking(|| thread_nice().unwrap());
                (thread_nice().unwrap(), blocking.await.unwrap())
            })
            .await
            .unwrap()
        });
        let want = (caller + 5).min(19);
        assert_eq!((worker, blocking), (want, want));
        // The caller's own thread (where judging runs) keeps its priority.
        assert_eq!(thread_nice().unwrap(), caller);
        runtime.shutdown_background();

        let same = http_runtime(0).unwrap();
        let unchanged = same.block_on(async {
            tokio::spawn(async { thread_nice().unwrap() })
                .await
                .unwrap()
        });
        assert_eq!(unchanged, caller);
        same.shutdown_background();
    }
}
