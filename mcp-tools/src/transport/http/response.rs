//! What goes back over HTTP: refusals, plain JSON answers with the status their outcome
//! calls for, and event streams.

use crate::engine::{Connection, ErrorInfo, Outgoing, Queue, encode_error};
use crate::protocol::ErrorCode;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Whether a client going away cancels its request: yes in 2026-07-28, no before.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Flow {
    Modern,
    Legacy,
}

/// A refusal before JSON-RPC: a status and a JSON-RPC error body with no id.
pub(super) fn refuse(status: StatusCode, message: &str) -> Response {
    json_response(
        0,
        status,
        encode_error(None, ErrorCode::INVALID_REQUEST, message, None),
    )
}

/// A JSON response, recorded in the wire log under connection `conn` (0 for refusals made
/// before any connection exists).
pub(super) fn json_response(conn: u64, status: StatusCode, body: Vec<u8>) -> Response {
    crate::wire_log::sent(conn, &body);
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An answer as plain JSON, with the status its outcome calls for.
pub(super) fn answer_response(conn: u64, answer: Outgoing, flow: Flow) -> Response {
    let status = status_of(answer.error, flow);
    let mut response = json_response(conn, status, answer.bytes);
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    }
    response
}

/// The status of an answer, from what the engine says it was: a message that is not
/// JSON-RPC is 400; so, in 2026-07-28, is a request refused for its revision or metadata
/// or for a client capability it lacks,
/// and an unknown method is 404 there (so the body tells it from a missing endpoint); a
/// limit on what the server holds is 503; other JSON-RPC errors travel with 200.
fn status_of(error: Option<ErrorInfo>, flow: Flow) -> StatusCode {
    match error {
        Some(ErrorInfo {
            code: ErrorCode::PARSE_ERROR | ErrorCode::INVALID_REQUEST,
            ..
        }) => StatusCode::BAD_REQUEST,
        Some(ErrorInfo {
            code: ErrorCode::SERVER_BUSY,
            ..
        }) => StatusCode::SERVICE_UNAVAILABLE,
        Some(ErrorInfo {
            before_dispatch: true,
            ..
        }) if flow == Flow::Modern => StatusCode::BAD_REQUEST,
        Some(ErrorInfo {
            code: ErrorCode::MISSING_CAPABILITY,
            ..
        }) if flow == Flow::Modern => StatusCode::BAD_REQUEST,
        Some(ErrorInfo {
            code: ErrorCode::METHOD_NOT_FOUND,
            ..
        }) if flow == Flow::Modern => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

pub(super) fn accepted() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

/// `response` with `status` unless it already has one other than 200.
pub(super) fn with_status(mut response: Response, status: StatusCode) -> Response {
    if response.status() == StatusCode::OK {
        *response.status_mut() = status;
    }
    response
}

/// GET and DELETE without a session: revision 2026-07-28 serves POST only.
pub(super) fn method_not_allowed() -> Response {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint takes POST; GET and DELETE need the `Mcp-Session-Id` of a session opened with `initialize`",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST, GET, DELETE"));
    response
}

/// Cancels a modern request whose client went away before its answer.
pub(super) struct CancelOnDrop {
    pub(super) conn: Option<Arc<Connection>>,
}

impl CancelOnDrop {
    pub(super) fn defuse(&mut self) {
        self.conn = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            conn.cancel_all();
            let conn2 = Arc::clone(&conn);
            tokio::spawn(async move { conn2.close().await });
        }
    }
}

/// Why an event stream was cut short: hyper closes the connection of a body that fails.
#[derive(Debug, thiserror::Error)]
#[error("the stream was ended: its client took nothing from it for too long")]
struct Stalled;

/// An SSE response: `ready` events first, then what comes on `queue`. With `until_answer`
/// (a POST's stream) it ends with the request's response; otherwise (a GET stream) it
/// carries notifications only. Either ends when the client, the session or the server
/// (`shutdown`) ends it; `ended` cuts it short, failing the body, when its client stalls.
pub(super) fn sse(
    conn: u64,
    ready: Vec<Outgoing>,
    queue: Option<Queue>,
    until_answer: bool,
    guard: CancelOnDrop,
    shutdown: CancellationToken,
    ended: CancellationToken,
) -> Response {
    struct Stream {
        ready: std::vec::IntoIter<Outgoing>,
        queue: Option<Queue>,
        until_answer: bool,
        finished: bool,
        guard: CancelOnDrop,
        shutdown: CancellationToken,
        ended: CancellationToken,
    }
    impl Stream {
        /// The event of `message`; the stream is finished after the answer it ends with.
        fn event(&mut self, conn: u64, message: &Outgoing) -> Bytes {
            if message.response {
                self.finished = true;
                self.guard.defuse();
            }
            event_bytes(conn, &message.bytes)
        }
    }
    let state = Stream {
        ready: ready.into_iter(),
        queue,
        until_answer,
        finished: false,
        guard,
        shutdown,
        ended,
    };
    let stream = futures_util::stream::unfold(state, move |mut s| async move {
        if s.finished {
            return None;
        }
        if s.ended.is_cancelled() {
            s.finished = true;
            return Some((Err(Stalled), s));
        }
        if let Some(message) = s.ready.next() {
            let event = s.event(conn, &message);
            return Some((Ok::<Bytes, Stalled>(event), s));
        }
        let queue = s.queue.as_mut()?;
        let keep_alive = tokio::time::sleep(Duration::from_secs(15));
        tokio::select! {
            biased;
            _ = s.shutdown.cancelled() => None,
            _ = s.ended.cancelled() => {
                s.finished = true;
                Some((Err(Stalled), s))
            }
            message = queue.recv() => {
                let message = message?;
                if message.response && !s.until_answer {
                    tracing::debug!("dropped a response sent to a stream of notifications");
                    return Some((Ok(Bytes::new()), s));
                }
                // What else is ready goes in the same chunk, up to the answer.
                let mut chunk = s.event(conn, &message).to_vec();
                while !s.finished
                    && let Some(queue) = s.queue.as_mut()
                    && let Ok(more) = queue.try_recv()
                {
                    if more.response && !s.until_answer {
                        continue;
                    }
                    chunk.extend_from_slice(&s.event(conn, &more));
                }
                Some((Ok(Bytes::from(chunk)), s))
            },
            _ = keep_alive => Some((Ok(Bytes::from_static(b": keep-alive\n\n")), s)),
        }
    });
    let mut response = Response::new(Body::from_stream(stream));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

fn event_bytes(conn: u64, message: &[u8]) -> Bytes {
    crate::wire_log::sent(conn, message);
    let mut event = Vec::with_capacity(message.len() + 24);
    event.extend_from_slice(b"event: message\ndata: ");
    event.extend_from_slice(message);
    event.extend_from_slice(b"\n\n");
    Bytes::from(event)
}
