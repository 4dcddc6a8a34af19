//! Legacy sessions (2025-03-26 to 2025-11-25): opened by `initialize`, named by a random
//! `Mcp-Session-Id`, ended by DELETE or when idle too long.

use super::response::refuse;
use crate::engine::Connection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

pub(super) const SESSION_HEADER: &str = "mcp-session-id";

/// A legacy client's session.
pub(super) struct Session {
    pub(super) conn: Arc<Connection>,
    pub(super) last_used: Mutex<Instant>,
}

impl Session {
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
    open: Mutex<HashMap<String, Arc<Session>>>,
    /// How long a session may go unused.
    idle: Duration,
    /// How many may be open at once.
    max: usize,
}

/// Why a session could not start.
pub(super) enum StartError {
    /// As many sessions as allowed are open.
    Full,
    /// The system gave no randomness for its id.
    NoRandomness(getrandom::Error),
}

impl Sessions {
    pub(super) fn new(idle: Duration, max: usize) -> Sessions {
        Sessions {
            open: Mutex::new(HashMap::new()),
            idle,
            max,
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

    fn open(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
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

    /// The session a request names; `Err` refuses a session id that names none.
    pub(super) fn of(&self, headers: &HeaderMap) -> Result<Option<Arc<Session>>, Response> {
        let Some(id) = headers.get(SESSION_HEADER) else {
            return Ok(None);
        };
        let session = id.to_str().ok().and_then(|id| self.open().get(id).cloned());
        match session {
            Some(session) => {
                *session.last_used.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
                Ok(Some(session))
            }
            None => Err(refuse(
                StatusCode::NOT_FOUND,
                "the session does not exist or has ended; send `initialize` without a session id to start a new one",
            )),
        }
    }

    /// Opens a session for a connection that `initialize` has just started; its id.
    pub(super) fn start(&self, conn: Arc<Connection>) -> Result<String, StartError> {
        let id = new_session_id().map_err(StartError::NoRandomness)?;
        let mut open = self.open();
        if open.len() >= self.max {
            return Err(StartError::Full);
        }
        open.insert(
            id.clone(),
            Arc::new(Session {
                conn,
                last_used: Mutex::new(Instant::now()),
            }),
        );
        Ok(id)
    }

    /// Ends the session `id`; `false` when there is none.
    pub(super) fn end(&self, id: &str) -> bool {
        let session = self.open().remove(id);
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

/// 128 random bits from the operating system, as hex.
fn new_session_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
