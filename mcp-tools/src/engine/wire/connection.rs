//! What one connection (a stdio process, an HTTP session) holds: its legacy session, its
//! requests in flight both ways, and the way out for messages that answer no request.

use crate::engine::wire::failure::Failure;
use crate::engine::wire::outbox::Outbox;
use crate::error::ClientRequestError;
use crate::protocol::jsonrpc::Id;
use crate::protocol::{ErrorCode, Implementation, LoggingLevel, ProtocolVersion, RequestId};
use serde_json::Value;
use std::collections::HashSet;
use std::collections::hash_map::Entry;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use tokio::sync::oneshot;
use tokio::task::AbortHandle;
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};
use tokio_util::task::TaskTracker;

/// The `initialize` handshake's outcome, for legacy clients.
#[derive(Clone, Debug)]
pub(crate) struct LegacySession {
    pub(crate) version: ProtocolVersion,
    pub(crate) initialized: bool,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) client_capabilities: Option<Arc<Value>>,
    /// Set by `logging/setLevel`; no log messages before it.
    pub(crate) log_level: Option<LoggingLevel>,
}

impl LegacySession {
    /// The era of a `ping` sent before `initialize`.
    pub(crate) fn pre_initialize() -> LegacySession {
        LegacySession {
            version: ProtocolVersion::V2024_11_05,
            initialized: false,
            client_info: None,
            client_capabilities: None,
            log_level: None,
        }
    }
}

/// What carries a connection's messages, as telemetry names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carrier {
    /// Messages handed over in process (`TestClient`), or on streams whose nature is not
    /// known (`Server::serve_io`).
    Unknown,
    /// The process's standard input and output.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// A request being served.
struct InFlight {
    /// The token its work watches; `None` for work that takes nothing from its context,
    /// which only its task's abort stops.
    cancel: Option<CancellationToken>,
    abort: Option<AbortHandle>,
}

impl InFlight {
    /// Stops the request's work: cancels its token and aborts its task.
    fn stop(self) {
        if let Some(cancel) = self.cancel {
            cancel.cancel();
        }
        if let Some(abort) = self.abort {
            abort.abort();
        }
    }
}

/// One client's connection.
pub(crate) struct Connection {
    /// Tells connections apart in the wire log.
    id: u64,
    legacy: Mutex<Option<Arc<LegacySession>>>,
    /// Where messages that answer no request go (legacy `list_changed`).
    unsolicited: Mutex<Option<Outbox>>,
    /// The resource URIs the legacy session subscribed to (`resources/subscribe`).
    watched: Mutex<HashSet<Arc<str>>>,
    in_flight: Mutex<foldhash::HashMap<RequestId, InFlight>>,
    /// Requests of the server's own, waiting for the client's answer, by id.
    asked: Mutex<foldhash::HashMap<RequestId, Asker>>,
    /// The id of the server's next request, on a connection that numbers them.
    next_ask: AtomicI64,
    tasks: TaskTracker,
    closed: CancellationToken,
    /// The client's address, on transports that have one.
    peer: Option<IpAddr>,
    carrier: Carrier,
    /// The legacy HTTP session's id, once the session has one.
    session_id: OnceLock<Box<str>>,
    /// The groups of tools its requests asked for (`Server::toolsets_header`), when they
    /// named some: lists and searches show only those.
    groups: OnceLock<Box<[Box<str>]>>,
}

impl Connection {
    pub(crate) fn new() -> Connection {
        Connection::over(Carrier::Unknown, None)
    }

    /// A connection over HTTP from this address.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn from_peer(peer: Option<IpAddr>) -> Connection {
        Connection::over(Carrier::Http, peer)
    }

    /// A connection over `carrier`, from `peer` when the carrier has addresses.
    pub(crate) fn over(carrier: Carrier, peer: Option<IpAddr>) -> Connection {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Connection {
            peer,
            carrier,
            session_id: OnceLock::new(),
            groups: OnceLock::new(),
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            legacy: Mutex::new(None),
            unsolicited: Mutex::new(None),
            watched: Mutex::new(HashSet::new()),
            in_flight: Mutex::default(),
            asked: Mutex::default(),
            next_ask: AtomicI64::new(1),
            tasks: TaskTracker::new(),
            closed: CancellationToken::new(),
        }
    }

    /// Shows its requests only the tools of these groups: the value of the toolsets header,
    /// comma-separated. Set once, when the connection is made; empty names are skipped.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn select_groups(&self, header: &str) {
        let groups: Box<[Box<str>]> = header
            .split(',')
            .map(str::trim)
            .filter(|group| !group.is_empty())
            .map(Box::from)
            .collect();
        let _ = self.groups.set(groups);
    }

    /// The groups its requests asked for, when they named some.
    pub(crate) fn groups(&self) -> Option<&[Box<str>]> {
        self.groups.get().map(|groups| &**groups)
    }

    /// The client's address, on transports that have one.
    pub(crate) fn peer(&self) -> Option<IpAddr> {
        self.peer
    }

    /// What carries the connection's messages.
    pub(crate) fn carrier(&self) -> Carrier {
        self.carrier
    }

    /// The legacy HTTP session's id, once it has one.
    pub(crate) fn session_id(&self) -> Option<&str> {
        self.session_id.get().map(|id| &**id)
    }

    /// Names the legacy HTTP session this connection is; a session is named once.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn name_session(&self, id: &str) {
        let _ = self.session_id.set(id.into());
    }

    /// A number that tells this connection from others (in the wire log).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The legacy session, once `initialize` has been answered.
    pub(crate) fn legacy(&self) -> Option<Arc<LegacySession>> {
        self.legacy.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Starts the legacy session; `Err` with the negotiated revision if there is one.
    pub(crate) fn begin_legacy(&self, session: LegacySession) -> Result<(), ProtocolVersion> {
        let mut legacy = self.legacy.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(existing) = &*legacy {
            return Err(existing.version);
        }
        *legacy = Some(Arc::new(session));
        Ok(())
    }

    pub(crate) fn mark_initialized(&self) {
        self.update_legacy(|session| session.initialized = true);
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        self.update_legacy(|session| session.log_level = Some(level));
    }

    /// Changes the session; requests already served keep the session they started with.
    fn update_legacy(&self, change: impl FnOnce(&mut LegacySession)) {
        if let Some(session) = &mut *self.legacy.lock().unwrap_or_else(PoisonError::into_inner) {
            change(Arc::make_mut(session));
        }
    }

    /// Records a request in flight; `false` when its id is already in use.
    fn begin(&self, id: RequestId, request: InFlight) -> bool {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(PoisonError::into_inner);
        match in_flight.entry(id) {
            Entry::Occupied(_) => false,
            Entry::Vacant(slot) => {
                slot.insert(request);
                true
            }
        }
    }

    /// Records a request in flight, refusing an id already in use; returns its id and the
    /// token that cancels it.
    pub(crate) fn begin_request(&self, id: Id<'_>) -> Result<(RequestId, CancellationToken), Failure> {
        let cancel = CancellationToken::new();
        let request_id = self.record(id, Some(cancel.clone()))?;
        Ok((request_id, cancel))
    }

    /// Records a request in flight whose work watches no token (its handler takes nothing
    /// from its context), refusing an id already in use: cancelling it aborts its task.
    pub(crate) fn begin_request_without_token(&self, id: Id<'_>) -> Result<RequestId, Failure> {
        self.record(id, None)
    }

    fn record(&self, id: Id<'_>, cancel: Option<CancellationToken>) -> Result<RequestId, Failure> {
        let request_id = id.value();
        if !self.begin(request_id.clone(), InFlight { cancel, abort: None }) {
            return Err(Failure::new(
                ErrorCode::INVALID_REQUEST,
                format!("request id {request_id} is already in use by a request in flight; use a new id"),
            ));
        }
        Ok(request_id)
    }

    pub(crate) fn set_abort(&self, id: &RequestId, abort: AbortHandle) {
        if let Some(request) = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(id)
        {
            request.abort = Some(abort);
        }
    }

    /// Ends a request in flight; `false` when it had ended already (it was cancelled).
    pub(crate) fn finish(&self, id: &RequestId) -> bool {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
            .is_some()
    }

    /// `notifications/cancelled`: stops the request's work; no response goes out for it.
    /// Unknown and finished ids are ignored. Returns the requests of the server's own that
    /// the call was waiting on, withdrawn, for the caller to tell the client.
    pub(crate) fn cancel(&self, id: &RequestId) -> Vec<Withdrawn> {
        let request = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        match request {
            Some(request) => {
                request.stop();
                tracing::debug!(%id, "cancelled a request");
                self.withdraw_ended()
            }
            None => {
                tracing::debug!(%id, "ignored the cancellation of a request not in flight");
                Vec::new()
            }
        }
    }

    /// Removes the requests of the server's own whose calls have ended (were cancelled).
    fn withdraw_ended(&self) -> Vec<Withdrawn> {
        let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        let ended: Vec<RequestId> = asked
            .iter()
            .filter(|(_, asker)| asker.call.is_cancelled())
            .map(|(id, _)| id.clone())
            .collect();
        ended
            .into_iter()
            .filter_map(|id| asked.remove(&id).map(|asker| Withdrawn { id, out: asker.out }))
            .collect()
    }

    /// Subscribes the legacy session to a resource's updates; `false` (and nothing changes)
    /// when it already watches `limit` other URIs.
    pub(crate) fn watch(&self, uri: &str, limit: usize) -> bool {
        let mut watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        if watched.contains(uri) {
            return true;
        }
        if watched.len() >= limit {
            return false;
        }
        watched.insert(Arc::from(uri));
        true
    }

    /// Ends the legacy session's subscription to a resource's updates, if it had one.
    pub(crate) fn unwatch(&self, uri: &str) {
        self.watched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(uri);
    }

    /// Whether the legacy session watches the resource at `uri`.
    pub(crate) fn watches(&self, uri: &str) -> bool {
        self.watched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }

    /// Every URI the legacy session watches.
    pub(crate) fn watched(&self) -> Vec<Arc<str>> {
        let watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        watched.iter().cloned().collect()
    }

    /// Sets where messages that answer no request go.
    pub(crate) fn set_unsolicited(&self, out: Option<Outbox>) {
        *self.unsolicited.lock().unwrap_or_else(PoisonError::into_inner) = out;
    }

    /// Whether the connection is in use though no request comes: calls are in flight, or a
    /// client still listens for messages that answer no request (an HTTP GET stream).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn is_busy(&self) -> bool {
        let listening = self
            .unsolicited
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(Outbox::is_open);
        listening
            || !self
                .in_flight
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
    }

    /// Where messages that answer no request go now, if anywhere (an HTTP session may
    /// have no GET stream open).
    pub(crate) fn unsolicited(&self) -> Option<Outbox> {
        self.unsolicited
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Cancels every request in flight (an HTTP client went away).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn cancel_all(&self) {
        let requests: Vec<InFlight> = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, request)| request)
            .collect();
        for request in requests {
            request.stop();
        }
    }

    /// The tasks of requests in flight, to wait for at shutdown.
    pub(crate) fn tasks(&self) -> &TaskTracker {
        &self.tasks
    }

    /// Completes when the connection is closing.
    pub(crate) fn closed(&self) -> WaitForCancellationFuture<'_> {
        self.closed.cancelled()
    }

    /// Records a request of the server's own, made by the call that `call` cancels and
    /// sent on `out`; returns its id and where the answer arrives. `Err` when the system
    /// gives no randomness for the id.
    pub(crate) fn ask(
        &self,
        call: CancellationToken,
        out: Outbox,
    ) -> Result<(RequestId, oneshot::Receiver<ClientAnswer>), getrandom::Error> {
        let id = self.new_ask_id()?;
        let (answer, answered) = oneshot::channel();
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), Asker { answer, call, out });
        Ok((id, answered))
    }

    /// The id of a new request of the server's own. Over HTTP, where many clients reach one
    /// server, it is 128 random bits as 32 lowercase hex digits (a JSON string), so no
    /// client can answer a request sent to another by guessing its id: one `getrandom` call
    /// per request, which then waits on a person or a model. A connection with one client
    /// (stdio, in process) numbers them 1, 2, ...
    fn new_ask_id(&self) -> Result<RequestId, getrandom::Error> {
        if self.carrier != Carrier::Http {
            return Ok(RequestId::Number(self.next_ask.fetch_add(1, Ordering::Relaxed)));
        }
        crate::protocol::random_hex::<16>().map(RequestId::String)
    }

    /// Forgets a request of the server's own whose asker stopped waiting; `true` when it
    /// was still unanswered.
    pub(crate) fn forget_ask(&self, id: &RequestId) -> bool {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
            .is_some()
    }

    /// Hands the client's answer to the request it answers. A response to an id the server
    /// is not waiting on (never asked, answered already, or its call has ended) is logged
    /// and dropped; `false` then.
    pub(crate) fn answer(&self, id: &RequestId, answer: ClientAnswer) -> bool {
        let waiting = self
            .asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        // A call cancelled before the answer came has ended, whether or not its task has
        // stopped yet.
        match waiting.filter(|asker| !asker.call.is_cancelled()) {
            Some(asker) => {
                if asker.answer.send(answer).is_err() {
                    tracing::debug!(%id, "dropped a client's answer: its call stopped waiting");
                }
                true
            }
            None => {
                tracing::warn!(%id, "dropped a response to no request of this server's (unknown id, answered already, or its call has ended)");
                false
            }
        }
    }

    /// Ends the connection: subscriptions stop, and the requests in flight finish.
    pub(crate) async fn close(&self) {
        self.closed.cancel();
        // Requests of the server's own get no answer now: their askers learn it at once.
        self.asked.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.tasks.close();
        self.tasks.wait().await;
    }
}

/// The client's answer to a request of the server's: its `result`, or why there is none.
pub(crate) type ClientAnswer = Result<Value, ClientRequestError>;

/// A call waiting on the client's answer to a request of the server's.
struct Asker {
    answer: oneshot::Sender<ClientAnswer>,
    /// Cancelled when the call ends early.
    call: CancellationToken,
    /// Where the request went, and where its withdrawal goes.
    out: Outbox,
}

/// A request of the server's own withdrawn because the call that made it ended.
pub(crate) struct Withdrawn {
    pub(crate) id: RequestId,
    pub(crate) out: Outbox,
}
