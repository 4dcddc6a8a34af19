//! Where a connection's outgoing messages go: each is one JSON text, without a trailing
//! newline, tagged with what a transport needs to know of it without reading it again.

use std::sync::Arc;
#[cfg(feature = "http")]
use std::sync::{Mutex, PoisonError};
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

/// One way out: a queue a task drains, a sink written at once, or one HTTP exchange.
#[derive(Clone)]
enum Route {
    Queue(mpsc::UnboundedSender<Outgoing>),
    Direct(Arc<dyn Sink>),
    #[cfg(feature = "http")]
    Exchange(Arc<Exchange>),
}

/// The messages of one HTTP exchange (a POST and what answers it). Most requests are
/// answered while the engine still has them, by their response alone: that one message is
/// kept here and taken without a queue. A queue is made only when a second message comes,
/// or when the transport has to wait for the first: a tokio channel's aligned block of
/// slots and shared state cost about 2k instructions to make and free, 6% of a call over
/// HTTP.
#[cfg(feature = "http")]
pub(crate) struct Exchange(Mutex<Held>);

#[cfg(feature = "http")]
enum Held {
    /// Nothing sent yet.
    Nothing,
    /// The one message sent so far.
    One(Outgoing),
    /// Messages go through a queue; its receiver waits here until the transport takes it.
    Queued(mpsc::UnboundedSender<Outgoing>, Option<Queue>),
    /// The transport took the answer and ended the exchange: later messages are dropped.
    Closed,
}

/// What an exchange holds when the transport looks: the response alone, or a queue to
/// read, with the message that was sent before the queue was made.
#[cfg(feature = "http")]
pub(crate) enum Settled {
    /// The response, with nothing before it: the exchange is over.
    Response(Outgoing),
    /// `first` (when it was sent before the queue was made), then what comes on the queue;
    /// the queue ends when every sender of the exchange is gone.
    Queue(Option<Outgoing>, Queue),
}

#[cfg(feature = "http")]
impl Exchange {
    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic while the lock is held leaves a valid state: each arm writes it whole.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn send(&self, message: Outgoing, what: &str) {
        let mut held = self.held();
        *held = match std::mem::replace(&mut *held, Held::Closed) {
            Held::Nothing => Held::One(message),
            Held::One(first) => {
                let (sender, receiver) = mpsc::unbounded_channel();
                // The receiver is kept beside its sender, so neither send can fail.
                let _ = sender.send(first);
                let _ = sender.send(message);
                Held::Queued(sender, Some(receiver))
            }
            Held::Queued(sender, receiver) => {
                if sender.send(message).is_err() {
                    tracing::debug!("dropped a {what}: the connection is closed");
                }
                Held::Queued(sender, receiver)
            }
            Held::Closed => {
                tracing::debug!("dropped a {what}: its exchange has ended");
                Held::Closed
            }
        };
    }

    fn is_open(&self) -> bool {
        match &*self.held() {
            Held::Nothing | Held::One(_) => true,
            Held::Queued(sender, _) => !sender.is_closed(),
            Held::Closed => false,
        }
    }

    /// What the exchange holds now. Call once the request has been handed to the engine,
    /// and drop the outbox first: the queue ends when the last sender is gone, and this
    /// exchange keeps a sender for as long as an outbox of it lives.
    pub(crate) fn settle(self: Arc<Exchange>) -> Settled {
        let mut held = self.held();
        match std::mem::replace(&mut *held, Held::Closed) {
            Held::One(message) if message.response => Settled::Response(message),
            Held::Queued(sender, Some(receiver)) => {
                *held = Held::Queued(sender, None);
                Settled::Queue(None, receiver)
            }
            waiting => {
                let first = match waiting {
                    Held::One(message) => Some(message),
                    _ => None,
                };
                let (sender, receiver) = mpsc::unbounded_channel();
                *held = Held::Queued(sender, None);
                Settled::Queue(first, receiver)
            }
        }
    }
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
            #[cfg(feature = "http")]
            Route::Exchange(exchange) => exchange.is_open(),
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
            #[cfg(feature = "http")]
            Route::Exchange(exchange) => exchange.send(message, what),
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

    /// An outbox for one HTTP exchange, and the exchange to settle once the request has
    /// been handed over.
    #[cfg(feature = "http")]
    pub(crate) fn exchange() -> (Outbox, Arc<Exchange>) {
        let exchange = Arc::new(Exchange(Mutex::new(Held::Nothing)));
        let route = Route::Exchange(Arc::clone(&exchange));
        (
            Outbox {
                responses: route.clone(),
                notifications: route,
            },
            exchange,
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

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    fn texts(first: Option<Outgoing>, mut queue: Queue) -> Vec<(String, bool)> {
        let mut messages: Vec<Outgoing> = first.into_iter().collect();
        while let Ok(message) = queue.try_recv() {
            messages.push(message);
        }
        messages
            .into_iter()
            .map(|m| (String::from_utf8(m.bytes).unwrap(), m.response))
            .collect()
    }

    #[test]
    fn a_response_alone_is_taken_without_a_queue_and_ends_the_exchange() {
        let (out, exchange) = Outbox::exchange();
        let late = out.clone();
        out.respond(b"answer".to_vec());
        drop(out);
        let Settled::Response(answer) = exchange.settle() else {
            panic!("a response sent alone was not settled as the response");
        };
        assert_eq!(answer.bytes, b"answer");
        // Whatever a task still holding the outbox sends later goes nowhere.
        assert!(!late.is_open());
        late.notify(b"late".to_vec());
    }

    #[test]
    fn messages_before_the_response_come_first_and_in_order() {
        let (out, exchange) = Outbox::exchange();
        out.notify(b"progress".to_vec());
        out.respond(b"answer".to_vec());
        drop(out);
        let Settled::Queue(first, queue) = exchange.settle() else {
            panic!("a response after a notification was settled as the response alone");
        };
        assert_eq!(
            texts(first, queue),
            [("progress".into(), false), ("answer".into(), true)]
        );

        // A notification alone is handed over as the first message, and the queue then ends.
        let (out, exchange) = Outbox::exchange();
        out.notify(b"progress".to_vec());
        drop(out);
        let Settled::Queue(first, mut queue) = exchange.settle() else {
            panic!("a notification was settled as a response");
        };
        assert_eq!(first.map(|m| m.bytes), Some(b"progress".to_vec()));
        assert!(matches!(
            queue.try_recv(),
            Err(mpsc::error::TryRecvError::Disconnected)
        ));
    }

    #[tokio::test]
    async fn what_comes_after_settling_arrives_on_the_queue_which_ends_with_the_last_outbox() {
        let (out, exchange) = Outbox::exchange();
        let Settled::Queue(None, mut queue) = exchange.settle() else {
            panic!("an exchange with nothing sent settled with a message");
        };
        assert!(out.is_open());
        let task = tokio::spawn(async move {
            out.notify(b"progress".to_vec());
            out.respond(b"answer".to_vec());
        });
        assert_eq!(queue.recv().await.unwrap().bytes, b"progress");
        assert_eq!(queue.recv().await.unwrap().bytes, b"answer");
        task.await.unwrap();
        assert!(queue.recv().await.is_none(), "the queue outlived every outbox");

        // Nothing sent and no outbox left: the queue is already over (HTTP answers 202).
        let (out, exchange) = Outbox::exchange();
        drop(out);
        let Settled::Queue(None, mut queue) = exchange.settle() else {
            panic!("an exchange with nothing sent settled with a message");
        };
        assert!(queue.recv().await.is_none());
    }

    #[test]
    fn a_closed_reader_closes_the_exchange() {
        let (out, exchange) = Outbox::exchange();
        let Settled::Queue(None, queue) = exchange.settle() else {
            panic!("an exchange with nothing sent settled with a message");
        };
        drop(queue);
        assert!(
            !out.is_open(),
            "the client went away, yet the exchange says it is open"
        );
        out.respond(b"answer".to_vec());
    }
}
