//! Legacy sessions (2025-03-26 to 2025-11-25): opened by `initialize`, named by a random
//! `Mcp-Session-Id`, ended by DELETE or when idle too long.
//!
//! A session id is 128 random bits as 32 lowercase hex digits. An instance given a name
//! (`HttpSettings::instance_name`) puts it first, `<name>.<32 hex digits>`, so a load balancer
//! can send a session's requests back to the instance that holds it by the id alone.
//!
//! A session is its opener's: the caller whose token opened it (its subject, as the
//! per-client rate limit counts callers), or, without authentication, the anonymous caller
//! every request is. A request of another caller naming it is answered as one naming no
//! session (the MCP security best practices, "Session Hijacking"), so what the session's
//! requests and the server's requests on it reach is its opener alone.

use super::response::refuse;
use crate::context::Principal;
use crate::engine::Connection;
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A legacy client's session.
pub(super) struct Session {
    pub(super) conn: Arc<Connection>,
    pub(super) last_used: Mutex<Instant>,
    /// The subject of the caller who opened it; `None`: the anonymous caller (no
    /// authentication).
    owner: Option<Box<str>>,
}

impl Session {
    /// Whether `caller` is the one who opened the session.
    fn is_owned_by(&self, caller: Option<&Principal>) -> bool {
        self.owner.as_deref() == caller.map(|principal| principal.subject.as_str())
    }

    pub(super) fn close(&self) {
        self.conn.cancel_all();
        self.conn.set_unsolicited(None);
        // Ends subscriptions and the list-changed watcher.
        let conn = Arc::clone(&self.conn);
        tokio::spawn(async move { conn.close().await });
    }
}

/// The open sessions, by id.
pub(super) struct Sessions {
    open: Mutex<foldhash::HashMap<String, Arc<Session>>>,
    /// How long a session may go unused.
    idle: Duration,
    /// How many may be open at once.
    max: usize,
    /// The instance's name, which the ids it issues start with.
    instance: Option<String>,
}

/// Why a session could not start.
pub(super) enum StartError {
    /// As many sessions as allowed are open.
    Full,
    /// The system gave no randomness for its id.
    NoRandomness(getrandom::Error),
}

impl Sessions {
    pub(super) fn new(idle: Duration, max: usize, instance: Option<String>) -> Sessions {
        Sessions {
            open: Mutex::default(),
            idle,
            max,
            instance,
        }
    }

    /// Whether a new session would be refused (after idle ones are closed).
    pub(super) fn is_full(&self) -> bool {
        self.open().len() >= self.max
    }

    /// How long a client refused for want of room should wait: until the next sweep for
    /// idle sessions, in whole seconds.
    pub(super) fn retry_after(&self) -> u64 {
        self.sweep_period().as_secs().max(1)
    }

    fn open(&self) -> MutexGuard<'_, foldhash::HashMap<String, Arc<Session>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How often to look for idle sessions: a quarter of the idle time, between 100 ms and
    /// a minute.
    pub(super) fn sweep_period(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60))
    }

    /// Closes sessions unused for longer than allowed. A session whose client still listens
    /// on its GET stream, or that has calls in flight, is in use.
    pub(super) fn expire(&self) {
        let expired: Vec<Arc<Session>> = {
            let mut open = self.open();
            let stale: Vec<String> = open
                .iter()
                .filter(|(_, s)| {
                    let unused = s
                        .last_used
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .elapsed();
                    unused > self.idle && !s.conn.is_busy()
                })
                .map(|(id, _)| id.clone())
                .collect();
            stale.iter().filter_map(|id| open.remove(id)).collect()
        };
        for session in expired {
            session.close();
        }
    }

    /// The session a request of `caller` names in `Mcp-Session-Id`, if it names one; `Err`
    /// refuses a session id that names none of the caller's.
    pub(super) fn of(
        &self,
        id: Option<&HeaderValue>,
        caller: Option<&Principal>,
    ) -> Result<Option<Arc<Session>>, Response> {
        let Some(id) = id else {
            return Ok(None);
        };
        let session = id.to_str().ok().and_then(|id| {
            self.open()
                .get(id)
                .filter(|session| session.is_owned_by(caller))
                .cloned()
        });
        match session {
            Some(session) => {
                *session.last_used.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
                Ok(Some(session))
            }
            None => Err(unknown_session()),
        }
    }

    /// Opens a session of `caller` for a connection that `initialize` has just started; its
    /// id.
    pub(super) fn start(
        &self,
        conn: Arc<Connection>,
        caller: Option<&Principal>,
    ) -> Result<String, StartError> {
        let id = new_session_id(self.instance.as_deref()).map_err(StartError::NoRandomness)?;
        let mut open = self.open();
        if open.len() >= self.max {
            return Err(StartError::Full);
        }
        conn.name_session(&id);
        open.insert(
            id.clone(),
            Arc::new(Session {
                conn,
                last_used: Mutex::new(Instant::now()),
                owner: caller.map(|principal| principal.subject.as_str().into()),
            }),
        );
        Ok(id)
    }

    /// Ends the session `id` of `caller`; `false` when the caller has none of that id.
    pub(super) fn end(&self, id: &str, caller: Option<&Principal>) -> bool {
        let session = {
            let mut open = self.open();
            match open.get(id) {
                Some(session) if session.is_owned_by(caller) => open.remove(id),
                _ => None,
            }
        };
        session.map(|session| session.close()).is_some()
    }

    /// Ends every session (the server is shutting down).
    pub(super) fn end_all(&self) {
        let sessions: Vec<Arc<Session>> = self.open().drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.close();
        }
    }
}

/// The refusal of a request naming a session that does not exist, has ended, or is another
/// caller's: one answer for all three, so a caller learns nothing of others' sessions.
pub(super) fn unknown_session() -> Response {
    refuse(
        StatusCode::NOT_FOUND,
        "the session does not exist or has ended; send `initialize` without a session id to start a new one",
    )
}

/// 128 random bits from the operating system, as 32 lowercase hex digits, after
/// `<instance>.` when the instance has a name.
fn new_session_id(instance: Option<&str>) -> Result<String, getrandom::Error> {
    let random = crate::protocol::random_hex::<16>()?;
    Ok(match instance {
        Some(name) => format!("{name}.{random}"),
        None => random,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_hex_128(text: &str) -> bool {
        text.len() == 32
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    }

    #[test]
    fn an_id_is_128_random_bits_in_hex() {
        let id = new_session_id(None).unwrap();
        assert!(is_hex_128(&id), "{id}");
        assert_ne!(id, new_session_id(None).unwrap());
    }

    #[test]
    fn a_named_instance_puts_its_name_before_the_random_bits() {
        let id = new_session_id(Some("mcp-0")).unwrap();
        let (name, random) = id.split_once('.').unwrap();
        assert_eq!(name, "mcp-0");
        assert!(is_hex_128(random), "{id}");
        let again = new_session_id(Some("mcp-0")).unwrap();
        assert_ne!(again, id, "the random part is drawn afresh");
        assert!(
            id.bytes().all(|b| (0x21..=0x7e).contains(&b)),
            "visible ASCII only (the spec's rule)"
        );
    }

    #[tokio::test]
    async fn sessions_are_found_by_their_whole_id() {
        let sessions = Sessions::new(Duration::from_secs(60), 10, Some("a".into()));
        let id = sessions
            .start(Arc::new(Connection::new()), None)
            .unwrap_or_else(|_| panic!("no session"));
        assert!(id.starts_with("a.") && is_hex_128(&id[2..]), "{id}");
        let named = |id: &str| HeaderValue::from_str(id).unwrap();
        assert!(matches!(sessions.of(Some(&named(&id)), None), Ok(Some(_))));
        assert!(matches!(sessions.of(None, None), Ok(None)));
        // The random part alone, or under another instance's name, names no session here.
        let elsewhere = format!("b.{}", &id[2..]);
        for other in [&id[2..], elsewhere.as_str()] {
            let refused = sessions.of(Some(&named(other)), None).err().expect("refused");
            assert_eq!(refused.status(), StatusCode::NOT_FOUND);
        }
        assert!(sessions.end(&id, None));
    }

    #[tokio::test]
    async fn a_session_is_its_openers_alone() {
        let sessions = Sessions::new(Duration::from_secs(60), 10, None);
        let (alice, bob) = (Principal::new("alice"), Principal::new("bob"));
        let hers = sessions
            .start(Arc::new(Connection::new()), Some(&alice))
            .unwrap_or_else(|_| panic!("no session"));
        let anonymous = sessions
            .start(Arc::new(Connection::new()), None)
            .unwrap_or_else(|_| panic!("no session"));
        let named = |id: &str| HeaderValue::from_str(id).unwrap();
        for (id, stranger) in [(&hers, Some(&bob)), (&hers, None), (&anonymous, Some(&alice))] {
            let refused = sessions.of(Some(&named(id)), stranger).err().expect("refused");
            assert_eq!(refused.status(), StatusCode::NOT_FOUND);
            assert!(!sessions.end(id, stranger));
        }
        let again = Principal::new("alice").with_scopes(["more"]);
        assert!(matches!(
            sessions.of(Some(&named(&hers)), Some(&again)),
            Ok(Some(_))
        ));
        assert!(sessions.end(&hers, Some(&alice)));
        assert!(sessions.end(&anonymous, None));
    }
}
