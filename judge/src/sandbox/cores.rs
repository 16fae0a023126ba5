//! One core per run: the cores this process may use, lent to sandboxes so that no two
//! open sandboxes share one (DOMjudge pins each judgehost to a core; here each sandbox is
//! pinned, by the cgroup's cpuset on bubblewrap and `cpuset_cpus` on Docker).
//!
//! The cores are those the judge process itself may run on (`Cpus_allowed_list` of
//! `/proc/self/status`: all of the machine's, or what `taskset` or a container gave it).
//! A sandbox that asks for more cores than there are gets all of them. A sandbox opened
//! while every core is lent waits for one, so sandboxes open at once are never more than
//! the cores: that bounds parallel judging, whatever the number of workers.
//!
//! Between processes (several `judge` commands on one machine, as the tests run them) a
//! lease also takes an advisory lock on each core's file in the temporary folder, and
//! prefers cores no other process holds, starting from one chosen by the process id; when
//! every core is held elsewhere it shares one rather than wait. So one judge process
//! never puts two runs on a core, and several processes spread over the cores.

use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The pool of cores of this process.
#[derive(Debug)]
struct Pool {
    free: Mutex<Vec<usize>>,
    permits: Arc<Semaphore>,
    total: usize,
}

/// Cores lent to one sandbox, given back when dropped.
#[derive(Debug)]
pub struct CoreLease {
    cores: Vec<usize>,
    /// The locks on the cores' files that this lease holds (released when dropped).
    _locks: Vec<std::fs::File>,
    // Dropped after `Drop::drop` has put the cores back, so a waiter that gets the
    // permit finds them free.
    _permit: OwnedSemaphorePermit,
}

impl CoreLease {
    /// The cores, in the kernel's list format (`3`, `0,2`).
    pub fn list(&self) -> String {
        self.cores
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl Drop for CoreLease {
    fn drop(&mut self) {
        let pool = pool();
        let mut free = pool.free.lock().unwrap_or_else(|e| e.into_inner());
        free.append(&mut self.cores);
        free.sort_unstable();
    }
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| allowed_cores(&status))
            .filter(|cores| !cores.is_empty())
            .unwrap_or_else(|| {
                (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
            });
        Pool {
            total: cores.len(),
            permits: Arc::new(Semaphore::new(cores.len())),
            free: Mutex::new(cores),
        }
    })
}

/// How many cores this process may lend.
pub fn total() -> usize {
    pool().total
}

/// Lends `wanted` cores (at most all of them), waiting until they are free.
pub async fn lease(wanted: u32) -> CoreLease {
    let pool = pool();
    let n = (wanted.max(1) as usize).min(pool.total);
    let permit = Arc::clone(&pool.permits)
        .acquire_many_owned(n as u32)
        .await
        .expect("invariant: the cores' semaphore is never closed");
    let mut free = pool.free.lock().unwrap_or_else(|e| e.into_inner());
    // The permits count the free cores, so `n` of them are there. Those no other process
    // holds come first, each group from the process's own starting core.
    let mut order: Vec<usize> = free.clone();
    let start = std::process::id() as usize % order.len();
    order.rotate_left(start);
    let mut cores = Vec::with_capacity(n);
    let mut locks = Vec::with_capacity(n);
    for &core in &order {
        if cores.len() == n {
            break;
        }
        if let Some(lock) = try_lock(core) {
            cores.push(core);
            locks.push(lock);
        }
    }
    for &core in &order {
        if cores.len() == n {
            break;
        }
        if !cores.contains(&core) {
            cores.push(core);
        }
    }
    free.retain(|core| !cores.contains(core));
    CoreLease {
        cores,
        _locks: locks,
        _permit: permit,
    }
}

/// The lock on `core`'s file, when no other process holds it.
fn try_lock(core: usize) -> Option<std::fs::File> {
    let dir = std::env::temp_dir().join("arena-judge-cores");
    std::fs::create_dir_all(&dir).ok()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(core.to_string()))
        .ok()?;
    file.try_lock().ok()?;
    Some(file)
}

/// The cores of `Cpus_allowed_list` in a `/proc/PID/status` text.
fn allowed_cores(status: &str) -> Option<Vec<usize>> {
    let list = status
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))?;
    parse_list(list.trim())
}

/// A kernel CPU list (`0-3,8,10-11`) as its cores, in order; `None` when malformed.
pub(crate) fn parse_list(list: &str) -> Option<Vec<usize>> {
    let mut cores = Vec::new();
    for part in list.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
                if a > b {
                    return None;
                }
                cores.extend(a..=b);
            }
            None => cores.push(part.parse().ok()?),
        }
    }
    Some(cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_lists_parse() {
        assert_eq!(parse_list("0-3,8,10-11"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_list("5"), Some(vec![5]));
        assert_eq!(parse_list("3-1"), None);
        assert_eq!(parse_list("x"), None);
        let status = "Name:\tjudge\nCpus_allowed:\tf\nCpus_allowed_list:\t0-1\n";
        assert_eq!(allowed_cores(status), Some(vec![0, 1]));
        assert_eq!(allowed_cores("Name:\tjudge\n"), None);
    }

    #[tokio::test]
    async fn leases_never_share_a_core_and_wait_when_all_are_lent() {
        let total = total();
        let mut leases = Vec::new();
        for _ in 0..total {
            leases.push(lease(1).await);
        }
        let mut lent: Vec<String> = leases.iter().map(CoreLease::list).collect();
        lent.sort();
        lent.dedup();
        assert_eq!(lent.len(), total, "{lent:?}");
        // Every core is lent: another lease waits until one comes back.
        let waiting = tokio::spawn(lease(1));
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        let back = leases.pop().expect("a lease").list();
        let next = waiting.await.expect("joins");
        assert_eq!(next.list(), back);
        // More than there are: all of them, once they are free.
        drop(next);
        drop(leases);
        assert_eq!(lease(u32::MAX).await.cores.len(), total);
    }
}
