//! How a [`Client`](super::Client) reaches its server: in process (the engine of a
//! [`Server`](crate::Server) in the same program) or over a child's standard streams.
//!
//! Either way a request opens an [`Inbox`]: the messages that belong to its exchange, the
//! notifications first and the response last. In process the engine gives each request an
//! outbox of its own, so every notification it sends is the request's; over stdio one
//! channel carries everything, so a reading task sorts the lines by `id` and by
//! `progressToken` (or the listen stream its `_meta` names), and hands what belongs to no
//! request to the client's [`notifications`](super::Client::notifications). A reader that
//! takes a request's notifications as they come gives the transport a [`Ring`] for them.

use super::Answers;
use super::ClientError;
#[cfg(feature = "http")]
use super::http::Http;
use super::ring::{Ring, Taken};
use super::stdio::{Delivered, Pipe, Waiting};
use crate::engine::{Backlog, Connection, Engine, Outbox, Queue};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;

/// Where the client's messages go.
#[derive(Clone)]
pub(super) enum Link {
    /// A server's engine in this process, over a connection of the client's own.
    InProcess {
        engine: Arc<Engine>,
        conn: Arc<Connection>,
        /// What the engine sends a legacy session outside any request.
        feed: broadcast::Sender<Value>,
    },
    /// A server reached over a byte stream, one message a line.
    Stdio(Arc<Pipe>),
    /// A server reached over Streamable HTTP.
    #[cfg(feature = "http")]
    Http(Arc<Http>),
}

/// What the client receives for one request.
pub(super) enum Inbox {
    /// The engine's own queue for the request: it closes once the engine is done with it.
    Local(Queue),
    /// What the reading task sorted out for the request, and what of it is left to read;
    /// with a ring, the notifications as they arrive.
    Remote(
        Waiting,
        Option<std::vec::IntoIter<Value>>,
        Option<Value>,
        Option<Arc<Ring>>,
    ),
}

impl Inbox {
    /// The next message of the exchange, as JSON; `None` once it is over without a
    /// response.
    pub(super) async fn next(&mut self, conn_id: u64) -> Option<Result<Value, ClientError>> {
        match self {
            Inbox::Local(queue) => {
                let message = queue.recv().await?;
                crate::wire_log::sent(conn_id, &message.bytes);
                Some(serde_json::from_slice(&message.bytes).map_err(|e| {
                    ClientError::InvalidResponse(format!(
                        "a message is not JSON ({e}): {}",
                        String::from_utf8_lossy(&message.bytes)
                    ))
                }))
            }
            Inbox::Remote(waiting, notes, response, live) => loop {
                if let Some(note) = notes.as_mut().and_then(Iterator::next) {
                    return Some(Ok(note));
                }
                if notes.is_some() {
                    // Answered: what the ring still holds came before the response.
                    while let Some(taken) = live.as_ref().and_then(|ring| ring.try_take()) {
                        match taken {
                            Taken::Note(note) => return Some(Ok(note)),
                            Taken::Missed(count) => missed(count),
                            Taken::Ended(_) => break,
                        }
                    }
                    return response.take().map(Ok);
                }
                let answer = match live.as_ref() {
                    Some(ring) => tokio::select! {
                        biased;
                        taken = ring.take() => {
                            match taken {
                                Taken::Note(note) => return Some(Ok(note)),
                                Taken::Missed(count) => missed(count),
                                // Only the client closes its rings: this one is done with.
                                Taken::Ended(_) => *live = None,
                            }
                            continue;
                        }
                        answer = &mut waiting.answer => answer,
                    },
                    None => (&mut waiting.answer).await,
                };
                match answer {
                    Ok(Ok(Delivered {
                        notes: delivered,
                        response: last,
                    })) => {
                        *notes = Some(delivered.into_iter());
                        *response = Some(last);
                    }
                    Ok(Err(error)) => return Some(Err(error)),
                    Err(_) => {
                        return Some(Err(ClientError::Closed {
                            reason: "the connection's reader stopped".to_owned(),
                        }));
                    }
                }
            },
        }
    }

    /// Reads the exchange of a request whose notifications go to `ring` (in process they
    /// are handed there from the engine's queue; the remote transports hand them there
    /// themselves) until its response, which it gives; `None` when it ended without one.
    pub(super) async fn pump(self, conn_id: u64, ring: &Ring) -> Option<Result<Value, ClientError>> {
        match self {
            Inbox::Remote(waiting, ..) => match waiting.answer.await {
                Ok(Ok(Delivered { notes, response })) => {
                    for note in notes {
                        ring.push(note);
                    }
                    Some(Ok(response))
                }
                Ok(Err(error)) => Some(Err(error)),
                Err(_) => Some(Err(ClientError::Closed {
                    reason: "the connection's reader stopped".to_owned(),
                })),
            },
            mut local => loop {
                match local.next(conn_id).await? {
                    Ok(message) if message.get("method").is_some() => ring.push(message),
                    other => return Some(other),
                }
            },
        }
    }
}

/// Notifications a reader taking them as they come fell too far behind for.
fn missed(count: u64) {
    tracing::warn!(
        count,
        "a request's notifications came faster than they were taken; the oldest were dropped"
    );
}

impl Link {
    /// The connection's number, for the wire log.
    pub(super) fn conn_id(&self) -> u64 {
        match self {
            Link::InProcess { conn, .. } => conn.id(),
            _ => 0,
        }
    }

    /// Whether a user is authorizing the connection now, and how many authorizations have
    /// ended: only HTTP with OAuth has any.
    #[cfg(feature = "client-oauth")]
    pub(super) fn authorizing(&self) -> Option<tokio::sync::watch::Receiver<(bool, u64)>> {
        match self {
            Link::Http(http) => http.authorizing(),
            _ => None,
        }
    }

    /// Sends request `id` and gives what will come back for it; `headers` go with it where
    /// the transport has headers (HTTP).
    pub(super) fn open(
        &self,
        id: i64,
        message: &Value,
        headers: Vec<(String, String)>,
        live: Option<Arc<Ring>>,
    ) -> Result<Inbox, ClientError> {
        match self {
            Link::InProcess { .. } => {
                // An outbox for this request alone: the channel closes when the engine lets
                // go of it, so a request that is never answered ends instead of waiting. A
                // listen stream's is bounded as a transport's is, so that the engine holds
                // back what a slow reader cannot take yet.
                let (out, queue) = match message["method"] == "subscriptions/listen" {
                    true => Outbox::bounded(Backlog::DEFAULT, None),
                    false => Outbox::channel(),
                };
                self.hand_over(message, &out);
                Ok(Inbox::Local(queue))
            }
            Link::Stdio(pipe) => {
                drop(headers);
                pipe.open(id, message, live.clone())
                    .map(|waiting| Inbox::Remote(waiting, None, None, live))
            }
            #[cfg(feature = "http")]
            Link::Http(http) => Ok(Inbox::Remote(
                http.open(message, &headers, live.clone()),
                None,
                None,
                live,
            )),
        }
    }

    /// Sends a notification, or the answer to a request of the server's.
    pub(super) fn send(&self, message: &Value) {
        match self {
            Link::InProcess { .. } => {
                let (out, _) = Outbox::channel();
                self.hand_over(message, &out);
            }
            Link::Stdio(pipe) => pipe.send(message),
            #[cfg(feature = "http")]
            Link::Http(http) => http.post_later(message),
        }
    }

    /// Sends a notification and waits for it to be taken where that can be known (HTTP
    /// answers it with 202): the handshake's `notifications/initialized`.
    pub(super) async fn notify(&self, message: &Value) -> Result<(), ClientError> {
        match self {
            #[cfg(feature = "http")]
            Link::Http(http) => http.post(message).await,
            _ => {
                self.send(message);
                Ok(())
            }
        }
    }

    /// Sends a request whose answer nobody waits for (a legacy `resources/unsubscribe` as
    /// a subscription goes): it is answered and the answer dropped.
    pub(super) fn send_unanswered(&self, id: i64, message: &Value) {
        match self {
            Link::Stdio(pipe) => drop(pipe.open(id, message, None)),
            _ => self.send(message),
        }
    }

    /// Completes, with why, once the connection is known to be gone: over stdio, when the
    /// pipe closes; over HTTP, when a legacy session ends or its stream cannot be taken up
    /// again; never in process (a request waiting there fails instead).
    pub(super) async fn closed(&self) -> String {
        match self {
            Link::Stdio(pipe) => pipe.closed().await,
            #[cfg(feature = "http")]
            Link::Http(http) => http.closed().await,
            Link::InProcess { .. } => std::future::pending().await,
        }
    }

    /// The notifications that belong to no request, from now on.
    pub(super) fn feed(&self) -> broadcast::Receiver<Value> {
        match self {
            Link::InProcess { feed, .. } => feed.subscribe(),
            Link::Stdio(pipe) => pipe.feed(),
            #[cfg(feature = "http")]
            Link::Http(http) => http.feed(),
        }
    }

    /// The request `id` is given up: no answer is wanted any more.
    pub(super) fn forget(&self, id: i64) {
        if let Link::Stdio(pipe) = self {
            pipe.forget(id);
        }
    }

    /// In process, in a legacy session: takes what the engine sends outside any request
    /// (list changes, resource updates, requests of its own) as a transport's reader
    /// does: notifications to the feed, requests answered from `answers`. Bounded as a
    /// stdio server's stream is; the task ends when the connection stops sending there.
    pub(super) fn hear_unsolicited(&self, answers: &Answers) {
        let Link::InProcess { conn, feed, .. } = self else {
            return;
        };
        let (out, mut queue) = Outbox::bounded(Backlog::DEFAULT, None);
        conn.set_unsolicited(Some(out));
        let (link, feed, answers, conn_id) = (self.clone(), feed.clone(), answers.clone(), conn.id());
        tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                crate::wire_log::sent(conn_id, &message.bytes);
                let Ok(message @ Value::Object(_)) = serde_json::from_slice::<Value>(&message.bytes) else {
                    continue;
                };
                match (message.get("method").and_then(Value::as_str), message.get("id")) {
                    (Some(method), Some(id)) => {
                        let answer = answers.respond(method, id.clone(), message["params"].clone());
                        link.send(&answer.await);
                    }
                    (Some(_), None) => drop(feed.send(message)),
                    (None, _) => {}
                }
            }
        });
    }

    /// Hands one message to the engine, as a transport does with a line or a body.
    fn hand_over(&self, message: &Value, out: &Outbox) {
        if let Link::InProcess { engine, conn, .. } = self {
            let bytes = message.to_string().into_bytes();
            crate::wire_log::received(conn.id(), &bytes);
            engine.handle(conn, &bytes, out, None);
        }
    }
}
