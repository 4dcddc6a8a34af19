//! Where a connection's outgoing messages go: each is one JSON text, without a trailing
//! newline, tagged with what a transport needs to know of it without reading it again.

use std::sync::Arc;
use tokio::sync::mpsc;

/// One outgoing message, with what the engine knows of it.
#[derive(Debug)]
pub(crate) struct Outgoing {
    pub(crate) bytes: Vec<u8>,
    /// Whether it is a response (the answer to a request), not a notification or a request
    /// of the server's own: an HTTP exchange ends with its response.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) response: bool,
    /// For an error response: what the error was.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) error: Option<ErrorInfo>,
}

impl Outgoing {
    /// A response; `error` says what it was when it is an error response.
    fn response(bytes: Vec<u8>, error: Option<ErrorInfo>) -> Outgoing {
        Outgoing {
            bytes,
            response: true,
            error,
        }
    }
}

/// What an error response was, so a transport can choose its status without parsing it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ErrorInfo {
    /// The JSON-RPC error code.
    pub(crate) code: i32,
    /// Whether the request was refused before its method ran, because its revision or its
    /// metadata were wrong (HTTP answers those with 400).
    pub(crate) before_dispatch: bool,
}

/// Where a connection's outgoing messages go. Responses and notifications may go to
/// different places (the responses of a batch are gathered into one array).
#[derive(Clone)]
pub(crate) struct Outbox {
    responses: Route,
    notifications: Route,
}

/// One way out: a queue a task drains, or a sink written at once.
#[derive(Clone)]
enum Route {
    Queue(mpsc::UnboundedSender<Outgoing>),
    Direct(Arc<dyn Sink>),
}

/// Takes outgoing messages as they are produced, on whatever thread produces them.
pub(crate) trait Sink: Send + Sync {
    fn send(&self, message: Vec<u8>);
}

/// The receiving end of an outbox's queue.
pub(crate) type Queue = mpsc::UnboundedReceiver<Outgoing>;

impl Route {
    /// Whether what is sent this way can still arrive.
    fn is_open(&self) -> bool {
        match self {
            Route::Queue(queue) => !queue.is_closed(),
            Route::Direct(_) => true,
        }
    }

    fn send(&self, message: Outgoing, what: &str) {
        match self {
            Route::Queue(queue) => {
                if queue.send(message).is_err() {
                    tracing::debug!("dropped a {what}: the connection is closed");
                }
            }
            Route::Direct(sink) => sink.send(message.bytes),
        }
    }
}

impl Outbox {
    /// An outbox whose messages all arrive on one receiver, in order.
    pub(crate) fn channel() -> (Outbox, Queue) {
        let (sender, receiver) = mpsc::unbounded_channel();
        (
            Outbox {
                responses: Route::Queue(sender.clone()),
                notifications: Route::Queue(sender),
            },
            receiver,
        )
    }

    /// An outbox that hands every message to `sink` at once.
    pub(crate) fn direct(sink: Arc<dyn Sink>) -> Outbox {
        Outbox {
            responses: Route::Direct(Arc::clone(&sink)),
            notifications: Route::Direct(sink),
        }
    }

    /// An outbox for a batch: its responses are gathered on the receiver, its
    /// notifications go where this outbox's go.
    pub(crate) fn batch(&self) -> (Outbox, Queue) {
        let (sender, receiver) = mpsc::unbounded_channel();
        (
            Outbox {
                responses: Route::Queue(sender),
                notifications: self.notifications.clone(),
            },
            receiver,
        )
    }

    /// Whether notifications sent here can still arrive (an HTTP stream still open).
    pub(crate) fn is_open(&self) -> bool {
        self.notifications.is_open()
    }

    /// Sends a response that is not an error.
    pub(crate) fn respond(&self, message: Vec<u8>) {
        self.responses.send(Outgoing::response(message, None), "response");
    }

    /// Sends an error response.
    pub(crate) fn respond_error(&self, message: Vec<u8>, error: ErrorInfo) {
        self.responses
            .send(Outgoing::response(message, Some(error)), "response");
    }

    /// Sends a notification, or a request of the server's own, on the way of notifications.
    pub(crate) fn notify(&self, message: Vec<u8>) {
        let notification = Outgoing {
            bytes: message,
            response: false,
            error: None,
        };
        self.notifications.send(notification, "notification");
    }
}
