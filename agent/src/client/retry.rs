//! When to try a request again and how long to wait first.
//!
//! Retried: connection errors, timed-out attempts, HTTP 408, 409, 429 and every 5xx.
//! Not retried: every other 4xx (the request itself is wrong) and a 200 whose body is not
//! a chat completion. The wait is the server's `retry-after-ms` or `retry-after` (delay
//! seconds or an HTTP date) when it sends one, else a jittered exponential backoff.

use std::time::{Duration, SystemTime};

use rand::Rng;

use super::ClientConfig;

/// Whether an HTTP status is worth another attempt.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 409 | 429) || (500..600).contains(&status)
}

/// The retry budget of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The most attempts (at least 1).
    pub max_attempts: u32,
    /// The most time over all attempts and waits.
    pub max_total: Duration,
    /// The first backoff wait (doubled per retry).
    pub base: Duration,
    /// The longest backoff wait.
    pub cap: Duration,
}

impl RetryPolicy {
    /// The policy of a client configuration.
    pub fn of(config: &ClientConfig) -> Self {
        Self {
            max_attempts: config.max_attempts.max(1),
            max_total: Duration::from_millis(config.max_retry_time_ms),
            base: Duration::from_millis(config.backoff_base_ms),
            cap: Duration::from_millis(config.backoff_max_ms),
        }
    }

    /// The backoff ceiling after `attempt` failed attempts (1 = after the first):
    /// `base * 2^(attempt-1)`, at most `cap`.
    pub fn ceiling(&self, attempt: u32) -> Duration {
        let factor = 1u32 << attempt.saturating_sub(1).min(20);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// The jittered wait after `attempt` failed attempts: uniform in
    /// `[ceiling/2, ceiling]`, so clients that failed together do not retry together.
    pub fn backoff(&self, attempt: u32, rng: &mut impl Rng) -> Duration {
        let ceiling = self.ceiling(attempt);
        let low = ceiling / 2;
        let span = (ceiling - low).as_micros() as u64;
        low + Duration::from_micros(if span == 0 {
            0
        } else {
            rng.random_range(0..=span)
        })
    }

    /// The wait before the next attempt, or `None` when no attempt should follow:
    /// `attempt` attempts failed, `elapsed` has passed since the first, and the server
    /// asked for `asked` (its `retry-after`), which replaces the backoff.
    pub fn next_wait(
        &self,
        attempt: u32,
        elapsed: Duration,
        asked: Option<Duration>,
        rng: &mut impl Rng,
    ) -> Option<Duration> {
        if attempt >= self.max_attempts {
            return None;
        }
        let wait = asked.unwrap_or_else(|| self.backoff(attempt, rng));
        (elapsed.saturating_add(wait) < self.max_total).then_some(wait)
    }
}

/// The wait a server asks for: `retry-after-ms` (milliseconds, OpenAI's extension) first,
/// then `retry-after` as delay seconds (fractions allowed) or an HTTP date, measured from
/// `now`. A date in the past is no wait; an unreadable value is ignored.
pub fn retry_after(
    retry_after_ms: Option<&str>,
    retry_after: Option<&str>,
    now: SystemTime,
) -> Option<Duration> {
    if let Some(ms) = retry_after_ms.and_then(|v| v.trim().parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = retry_after?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let when = SystemTime::from(date.with_timezone(&chrono::Utc));
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 4,
            max_total: Duration::from_secs(60),
            base: Duration::from_millis(100),
            cap: Duration::from_millis(350),
        }
    }

    #[test]
    fn which_statuses_are_retried() {
        let retried: Vec<u16> = (400..600).filter(|s| retryable_status(*s)).collect();
        assert_eq!(&retried[..3], &[408, 409, 429]);
        assert_eq!(retried.len(), 3 + 100);
        for status in [200, 400, 401, 403, 404, 413, 422] {
            assert!(!retryable_status(status), "{status}");
        }
    }

    #[test]
    fn the_backoff_doubles_up_to_the_cap_and_is_jittered_below_it() {
        let p = policy();
        let ceilings: Vec<u128> = (1..=5).map(|a| p.ceiling(a).as_millis()).collect();
        assert_eq!(ceilings, [100, 200, 350, 350, 350]);
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let waits: Vec<Duration> = (0..200).map(|_| p.backoff(2, &mut rng)).collect();
        assert!(
            waits
                .iter()
                .all(|w| *w >= Duration::from_millis(100) && *w <= Duration::from_millis(200))
        );
        let first = waits[0];
        assert!(waits.iter().any(|w| *w != first), "jittered");
    }

    #[test]
    fn no_wait_past_the_attempts_or_the_total_time() {
        let p = policy();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        assert!(p.next_wait(3, Duration::ZERO, None, &mut rng).is_some());
        assert_eq!(p.next_wait(4, Duration::ZERO, None, &mut rng), None);
        let asked = Some(Duration::from_secs(5));
        assert_eq!(
            p.next_wait(1, Duration::ZERO, asked, &mut rng),
            Some(Duration::from_secs(5)),
            "retry-after replaces the backoff, even above its cap"
        );
        assert_eq!(
            p.next_wait(1, Duration::from_secs(56), asked, &mut rng),
            None,
            "a wait that would pass the total time is not started"
        );
    }

    #[test]
    fn retry_after_in_seconds_milliseconds_or_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // 06 Nov 1994 08:49:37
        assert_eq!(
            retry_after(None, Some("3"), now),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            retry_after(None, Some(" 0.25 "), now),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            retry_after(Some("1500"), Some("9"), now),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            retry_after(None, Some("Sun, 06 Nov 1994 08:49:47 GMT"), now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            retry_after(None, Some("Sun, 06 Nov 1994 08:49:00 GMT"), now),
            Some(Duration::ZERO),
            "a date in the past"
        );
        assert_eq!(retry_after(None, Some("soon"), now), None);
        assert_eq!(retry_after(None, Some("-1"), now), None);
        assert_eq!(retry_after(Some("x"), None, now), None);
        assert_eq!(retry_after(None, None, now), None);
    }
}
