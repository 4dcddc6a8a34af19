//! How a [`Client`](super::Client) reaches its server: in process (the engine of a
//! [`Server`](crate::Server) in the same program) or over a child's standard streams.
//!
//! Either way a request opens an [`Inbox`]: the messages that belong to its exchange, the
//! notifications first and the response last. In process the engine gives each request an
//! outbox of its own, so every notification it sends is the request's; over stdio one
//! channel carries everything, so a reading task sorts the lines by `id` and by
//! `progressToken`, and hands what belongs to no request to the client's
//! [`notifications`](super::Client::notifications).

use super::ClientError;
#[cfg(feature = "http")]
use super::http::Http;
use super::stdio::{Delivered, Pipe, Waiting};
use crate::engine::{Connection, Engine, Outbox, Queue};
use serde_json::Value;
use std::sync::Arc;

/// Where the client's messages go.
pub(super) enum Link {
    /// A server's engine in this process, over a connection of the client's own.
    InProcess {
        engine: Arc<Engine>,
        conn: Arc<Connection>,
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
    /// What the reading task sorted out for the request, and what of it is left to read.
    Remote(Waiting, Option<std::vec::IntoIter<Value>>, Option<Value>),
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
            Inbox::Remote(waiting, notes, response) => loop {
                if let Some(note) = notes.as_mut().and_then(Iterator::next) {
                    return Some(Ok(note));
                }
                if notes.is_some() {
                    return response.take().map(Ok);
                }
                match (&mut waiting.answer).await {
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
    ) -> Result<Inbox, ClientError> {
        match self {
            Link::InProcess { .. } => {
                // An outbox for this request alone: the channel closes when the engine lets
                // go of it, so a request that is never answered ends instead of waiting.
                let (out, queue) = Outbox::channel();
                self.hand_over(message, &out);
                Ok(Inbox::Local(queue))
            }
            Link::Stdio(pipe) => {
                drop(headers);
                pipe.open(id, message)
                    .map(|waiting| Inbox::Remote(waiting, None, None))
            }
            #[cfg(feature = "http")]
            Link::Http(http) => Ok(Inbox::Remote(http.open(message, &headers), None, None)),
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

    /// The request `id` is given up: no answer is wanted any more.
    pub(super) fn forget(&self, id: i64) {
        if let Link::Stdio(pipe) = self {
            pipe.forget(id);
        }
    }

    /// Hands one message to the engine, as a transport does with a line or a body.
    fn hand_over(&self, message: &Value, out: &Outbox) {
        if let Link::InProcess { engine, conn } = self {
            let bytes = message.to_string().into_bytes();
            crate::wire_log::received(conn.id(), &bytes);
            engine.handle(conn, &bytes, out, None);
        }
    }
}
