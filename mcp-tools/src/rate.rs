//! Rate limits on tool calls: one token bucket for the whole server, and one per client.

use crate::context::Principal;
use crate::middleware::{Flow, Middleware, Request};
use crate::result::CallToolResult;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// How many tool calls may be made: a steady rate, and a burst that may come at once.
///
/// A call over the limit is answered at once with an `isError` result that says the limit
/// and how long to wait, so a model can back off; nothing is queued. Set it with
/// [`Limits::rate_limit`](crate::server::Limits::rate_limit) (all callers together) and
/// [`Limits::client_rate_limit`](crate::server::Limits::client_rate_limit) (each client on its own).
///
/// ```
/// use mcp_toolkit::server::RateLimit;
///
/// let steady = RateLimit::per_second(20);
/// assert_eq!(steady.to_string(), "20 calls per second");
///
/// let bursty = RateLimit::per_minute(60).burst(10);
/// assert_eq!(bursty.to_string(), "60 calls per minute (10 at once)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    calls: NonZeroU32,
    per: Per,
    burst: Option<NonZeroU32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Per {
    Second,
    Minute,
}

impl RateLimit {
    /// `calls` per second, all of which may come at once (0 is taken as 1).
    ///
    /// ```
    /// use mcp_toolkit::server::RateLimit;
    ///
    /// assert_eq!(RateLimit::per_second(5).to_string(), "5 calls per second");
    /// assert_eq!(RateLimit::per_second(1).to_string(), "1 call per second");
    /// ```
    pub fn per_second(calls: u32) -> RateLimit {
        RateLimit::new(calls, Per::Second)
    }

    /// `calls` per minute, all of which may come at once (0 is taken as 1).
    ///
    /// ```
    /// use mcp_toolkit::server::RateLimit;
    ///
    /// assert_eq!(RateLimit::per_minute(90).to_string(), "90 calls per minute");
    /// ```
    pub fn per_minute(calls: u32) -> RateLimit {
        RateLimit::new(calls, Per::Minute)
    }

    /// How many calls may come at once after a quiet spell; the steady rate refills them.
    /// By default, one period's worth: all of them (0 is taken as 1).
    ///
    /// ```
    /// use mcp_toolkit::server::RateLimit;
    ///
    /// // On average 10 a second, but never more than 2 in a row.
    /// let smooth = RateLimit::per_second(10).burst(2);
    /// assert_eq!(smooth.to_string(), "10 calls per second (2 at once)");
    /// ```
    pub fn burst(self, calls: u32) -> RateLimit {
        RateLimit {
            burst: Some(NonZeroU32::new(calls).unwrap_or(NonZeroU32::MIN)),
            ..self
        }
    }

    fn new(calls: u32, per: Per) -> RateLimit {
        RateLimit {
            calls: NonZeroU32::new(calls).unwrap_or(NonZeroU32::MIN),
            per,
            burst: None,
        }
    }

    fn quota(self) -> Quota {
        let quota = match self.per {
            Per::Second => Quota::per_second(self.calls),
            Per::Minute => Quota::per_minute(self.calls),
        };
        match self.burst {
            Some(burst) => quota.allow_burst(burst),
            None => quota,
        }
    }
}

impl std::fmt::Display for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let calls = if self.calls.get() == 1 { "call" } else { "calls" };
        let per = match self.per {
            Per::Second => "second",
            Per::Minute => "minute",
        };
        write!(f, "{} {calls} per {per}", self.calls)?;
        match self.burst {
            Some(burst) => write!(f, " ({burst} at once)"),
            None => Ok(()),
        }
    }
}

/// The rate limits, as the innermost middleware of a server that has any: a `tools/call`
/// over a limit is answered with the tool error that says so, before the call is looked at,
/// and every middleware added with `Server::middleware` sees it as it sees any answer.
/// `Server::execute` checks the same limiters, as the one local client.
pub(crate) struct Limiting(pub(crate) Arc<RateLimiters>);

impl Middleware for Limiting {
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        if request.method() != "tools/call" {
            return Flow::Continue;
        }
        let exchange = request.exchange();
        let client = || ClientKey::of(exchange.principal(), exchange.peer_addr());
        match self.0.check(client) {
            Ok(()) => Flow::Continue,
            Err(refusal) => {
                tracing::debug!(tool = exchange.name(), "refused a call: {refusal}");
                let refused = CallToolResult::error(refusal.to_string());
                Flow::Answer(serde_json::to_value(&refused).unwrap_or_default())
            }
        }
    }
}

/// Who a call counts against under a per-client limit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ClientKey {
    /// The subject an HTTP bearer token was issued to.
    Principal(String),
    /// An HTTP client without a token, by address.
    Address(IpAddr),
    /// The one client of a stdio connection (or a client whose address is unknown).
    Local,
}

impl ClientKey {
    /// The key of a caller: the subject of its token, else the address it connected from.
    pub(crate) fn of(caller: Option<&Principal>, peer: Option<IpAddr>) -> ClientKey {
        match (caller, peer) {
            (Some(principal), _) => ClientKey::Principal(principal.subject.clone()),
            (None, Some(address)) => ClientKey::Address(address),
            (None, None) => ClientKey::Local,
        }
    }
}

/// The server's limiters, as configured.
#[derive(Default)]
pub(crate) struct RateLimiters {
    server: Option<(RateLimit, DefaultDirectRateLimiter)>,
    client: Option<(RateLimit, DefaultKeyedRateLimiter<ClientKey>)>,
    /// Checks since the per-client buckets were last swept.
    checks: AtomicU32,
}

/// The per-client buckets are swept of clients that are back to a full bucket (so hold no
/// information) once every this many checks.
const SWEEP_EVERY: u32 = 4096;

impl RateLimiters {
    pub(crate) fn new(server: Option<RateLimit>, client: Option<RateLimit>) -> RateLimiters {
        RateLimiters {
            server: server.map(|limit| (limit, DefaultDirectRateLimiter::direct(limit.quota()))),
            client: client.map(|limit| (limit, DefaultKeyedRateLimiter::keyed(limit.quota()))),
            checks: AtomicU32::new(0),
        }
    }

    /// Whether no limit is set (the common case: nothing to check).
    pub(crate) fn is_unlimited(&self) -> bool {
        self.server.is_none() && self.client.is_none()
    }

    /// Takes one call from the client's bucket, then the server's. `Err` says which limit
    /// was reached and how long to wait. The client's bucket comes
    /// first so that a client over its own limit does not drain the one all clients share.
    pub(crate) fn check(&self, client: impl FnOnce() -> ClientKey) -> Result<(), RateLimited> {
        if let Some((limit, buckets)) = &self.client {
            let key = client();
            if let Err(not_until) = buckets.check_key(&key) {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                return Err(RateLimited::Client { limit: *limit, wait });
            }
            if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
                buckets.retain_recent();
                buckets.shrink_to_fit();
            }
        }
        if let Some((limit, bucket)) = &self.server
            && let Err(not_until) = bucket.check()
        {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(RateLimited::Server { limit: *limit, wait });
        }
        Ok(())
    }
}

/// Why a call was refused under a rate limit; its text is worded for the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum RateLimited {
    /// The calling client is over its own limit.
    #[error("too many calls from this client: the limit is {limit}; try again in {}", describe_wait(*.wait))]
    Client { limit: RateLimit, wait: Duration },
    /// All clients together are over the server's limit.
    #[error("too many calls: this server takes {limit}; try again in {}", describe_wait(*.wait))]
    Server { limit: RateLimit, wait: Duration },
}

/// A wait in words, rounded up to what a model can act on: `40 ms`, `1.5 s`.
fn describe_wait(wait: Duration) -> String {
    let ms = wait.as_micros().div_ceil(1000).max(1);
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_let_through_and_the_next_call_is_told_how_long_to_wait() {
        let limiters = RateLimiters::new(Some(RateLimit::per_minute(3)), None);
        for _ in 0..3 {
            assert_eq!(limiters.check(|| ClientKey::Local), Ok(()));
        }
        let refused = limiters.check(|| ClientKey::Local).unwrap_err();
        assert!(matches!(refused, RateLimited::Server { .. }));
        let refused = refused.to_string();
        assert!(
            refused.starts_with("too many calls: this server takes 3 calls per minute; try again in "),
            "{refused}"
        );
        // One call a minute in three is 20 s.
        assert!(refused.ends_with(" s"), "{refused}");
    }

    #[test]
    fn each_client_has_its_own_bucket_and_a_refused_client_spends_nothing_of_the_servers() {
        let limiters = RateLimiters::new(Some(RateLimit::per_minute(4)), Some(RateLimit::per_minute(2)));
        let alice = || ClientKey::Principal("alice".into());
        let bob = || ClientKey::Address([10, 0, 0, 2].into());
        assert_eq!(limiters.check(alice), Ok(()));
        assert_eq!(limiters.check(alice), Ok(()));
        for _ in 0..5 {
            let refused = limiters.check(alice).unwrap_err().to_string();
            assert!(
                refused.starts_with("too many calls from this client: the limit is 2 calls per minute"),
                "{refused}"
            );
        }
        // Alice's refusals took nothing from the server's bucket: two calls are left in it.
        assert_eq!(limiters.check(bob), Ok(()));
        assert_eq!(limiters.check(bob), Ok(()));
        let refused = limiters.check(|| ClientKey::Local).unwrap_err().to_string();
        assert!(
            refused.starts_with("too many calls: this server takes 4 calls per minute"),
            "{refused}"
        );
    }

    #[test]
    fn waits_are_rounded_up() {
        assert_eq!(describe_wait(Duration::from_micros(10)), "1 ms");
        assert_eq!(describe_wait(Duration::from_micros(39_001)), "40 ms");
        assert_eq!(describe_wait(Duration::from_millis(1500)), "1.5 s");
    }
}
