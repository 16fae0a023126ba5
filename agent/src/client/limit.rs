//! The concurrency cap per endpoint: one semaphore per base URL in the process, shared
//! by every client (and every clone of a client) made for that URL, so that several
//! loops talking to one server together never have more than the cap in flight.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::Semaphore;

/// The semaphore of `endpoint`: made with `permits` permits by the first caller for that
/// endpoint, shared as it is by every later caller (whatever `permits` they ask for).
pub fn semaphore(endpoint: &str, permits: usize) -> Arc<Semaphore> {
    static ENDPOINTS: OnceLock<Mutex<HashMap<String, Arc<Semaphore>>>> = OnceLock::new();
    let mut map = ENDPOINTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    map.entry(endpoint.to_owned())
        .or_insert_with(|| Arc::new(Semaphore::new(permits.clamp(1, Semaphore::MAX_PERMITS))))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_semaphore_per_endpoint_sized_by_its_first_caller() {
        let a = semaphore("http://limit-test-a/v1", 2);
        let again = semaphore("http://limit-test-a/v1", 5);
        let b = semaphore("http://limit-test-b/v1", 3);
        assert!(Arc::ptr_eq(&a, &again));
        assert_eq!(again.available_permits(), 2);
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(b.available_permits(), 3);
    }
}
