//! Where a connection's outgoing messages go: each is one JSON text, without a trailing
//! newline, tagged with what a transport needs to know of it without reading it again.
//!
//! A queue that a transport drains at the pace of its client is bounded ([`Backlog`]):
//! responses and requests of the server's own always go in (a call has one response, and
//! waits on each request), but a notification that finds the queue full is left out.
//! Whoever sends many ([`Outbox::offer`]) learns it and can tell the client what it missed
//! once the client has caught up ([`Outbox::drained`]), or end a stream whose client takes
//! nothing for too long ([`Outbox::taken`], [`Outbox::end`]).

use crate::middleware::{Exchange as Exchanged, Hook, Layer, Message, MessageKind, Opening, Outcome};
use crate::protocol::ErrorCode;
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
#[cfg(feature = "http")]
use std::sync::{Mutex, PoisonError};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

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

    fn notification(bytes: Vec<u8>) -> Outgoing {
        Outgoing {
            bytes,
            response: false,
            error: None,
        }
    }
}

/// What an error response was, so a transport can choose its status without parsing it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ErrorInfo {
    /// The JSON-RPC error code.
    pub(crate) code: ErrorCode,
    /// Whether the request was refused before its method ran, because its revision or its
    /// metadata were wrong (HTTP answers those with 400).
    pub(crate) before_dispatch: bool,
}

/// The most notifications one stream holds for a client that does not read them yet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Backlog {
    /// How many messages may wait.
    pub(crate) messages: usize,
    /// How many bytes they may hold together; one message longer than this still goes
    /// when nothing else waits.
    pub(crate) bytes: usize,
}

impl Backlog {
    /// The default of every stream a transport drains at its client's pace.
    pub(crate) const DEFAULT: Backlog = Backlog {
        messages: 256,
        bytes: 256 * 1024,
    };

    /// No bound: a queue the server itself drains as fast as it fills (a batch's
    /// responses, the in-process test client).
    const NONE: Backlog = Backlog {
        messages: usize::MAX,
        bytes: usize::MAX,
    };
}

/// What waits in one queue, counted against its bound, and how far its reader has come.
struct Pending {
    bound: Backlog,
    messages: AtomicUsize,
    bytes: AtomicUsize,
    /// How many messages the reader has taken: a reader that takes none is stalled.
    taken: AtomicU64,
    /// How many notifications were left out for want of room.
    dropped: AtomicU64,
    /// Wakes those waiting for the reader to take everything.
    drained: Notify,
    /// For a queue that is one HTTP stream alone: cancelled to end the stream (the
    /// transport then closes its connection). `None` for a queue a connection shares.
    ended: Option<CancellationToken>,
}

impl Pending {
    fn new(bound: Backlog, ended: Option<CancellationToken>) -> Arc<Pending> {
        Arc::new(Pending {
            bound,
            messages: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            taken: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            drained: Notify::new(),
            ended,
        })
    }

    /// Whether a message of `len` bytes finds room.
    fn has_room(&self, len: usize) -> bool {
        let messages = self.messages.load(Ordering::Acquire);
        messages == 0
            || (messages < self.bound.messages
                && self.bytes.load(Ordering::Acquire).saturating_add(len) <= self.bound.bytes)
    }

    fn added(&self, len: usize) {
        self.messages.fetch_add(1, Ordering::AcqRel);
        self.bytes.fetch_add(len, Ordering::AcqRel);
    }

    fn removed(&self, len: usize) {
        self.bytes.fetch_sub(len, Ordering::AcqRel);
        if self.messages.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.drained.notify_waiters();
        }
    }

    fn is_ended(&self) -> bool {
        self.ended.as_ref().is_some_and(CancellationToken::is_cancelled)
    }
}

/// Whether a message may be left out when the queue is full.
#[derive(Clone, Copy, PartialEq)]
enum Room {
    /// A notification: left out when there is no room.
    IfAny,
    /// A response, a request of the server's own, or what a stream that fell behind
    /// sends to catch up: always queued.
    Always,
}

/// Why a message was not queued.
#[derive(Debug, PartialEq)]
enum Refused {
    /// The queue is full.
    Full,
    /// Nobody reads the queue any more.
    Closed,
}

/// The sending end of a bounded queue.
#[derive(Clone)]
struct Sender {
    sender: mpsc::UnboundedSender<Outgoing>,
    pending: Arc<Pending>,
}

impl Sender {
    fn send(&self, message: Outgoing, room: Room) -> Result<(), Refused> {
        let len = message.bytes.len();
        if self.pending.is_ended() {
            return Err(Refused::Closed);
        }
        if room == Room::IfAny && !self.pending.has_room(len) {
            if self.pending.dropped.fetch_add(1, Ordering::Relaxed) == 0 {
                tracing::warn!(
                    messages = self.pending.bound.messages,
                    bytes = self.pending.bound.bytes,
                    "a client reads a stream more slowly than it fills: notifications beyond its backlog are left out"
                );
            }
            return Err(Refused::Full);
        }
        self.pending.added(len);
        self.sender.send(message).map_err(|_| {
            self.pending.removed(len);
            Refused::Closed
        })
    }

    fn is_closed(&self) -> bool {
        self.sender.is_closed() || self.pending.is_ended()
    }
}

/// The receiving end of an outbox's queue.
pub(crate) struct Queue {
    receiver: mpsc::UnboundedReceiver<Outgoing>,
    pending: Arc<Pending>,
}

impl Queue {
    /// A bounded queue; `ended` when it is one HTTP stream alone.
    fn bounded(bound: Backlog, ended: Option<CancellationToken>) -> (Sender, Queue) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let pending = Pending::new(bound, ended);
        (
            Sender {
                sender,
                pending: Arc::clone(&pending),
            },
            Queue { receiver, pending },
        )
    }

    fn took(&self, message: Outgoing) -> Outgoing {
        self.pending.taken.fetch_add(1, Ordering::Relaxed);
        self.pending.removed(message.bytes.len());
        message
    }

    /// The next message; `None` once every sender is gone and the queue is empty.
    pub(crate) async fn recv(&mut self) -> Option<Outgoing> {
        let message = self.receiver.recv().await?;
        Some(self.took(message))
    }

    /// The next message if one is ready.
    pub(crate) fn try_recv(&mut self) -> Result<Outgoing, mpsc::error::TryRecvError> {
        let message = self.receiver.try_recv()?;
        Ok(self.took(message))
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // Nobody will take what waits: those waiting for it to drain wait no more.
        self.pending.drained.notify_waiters();
    }
}

/// Where a connection's outgoing messages go. Responses and notifications may go to
/// different places (the responses of a batch are gathered into one array).
#[derive(Clone)]
pub(crate) struct Outbox {
    responses: Route,
    notifications: Route,
    /// The middleware watching the exchange this outbox answers, when the server has any.
    watch: Option<Arc<Watch>>,
}

impl Outbox {
    /// Names the tool a `call_tool` of tool search called, for the middleware's hooks.
    pub(crate) fn name_call(&self, tool: &str) {
        if let Some(watch) = &self.watch {
            watch.exchange.name_call(tool);
        }
    }
}

/// What an answer is, for the middleware's [`Outcome`]: the transport needs none of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Answer {
    /// A result.
    Complete,
    /// A tool's result that is an error (`isError`).
    ToolError,
    /// An `input_required` round (2026-07-28).
    InputRequired,
    /// A task.
    Task,
}

/// Runs one middleware hook. A panic in it is logged and ends only that hook: never the
/// exchange, the connection or the server; `None` says it panicked.
pub(crate) fn hook<R>(name: &'static str, run: impl FnOnce() -> R) -> Option<R> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(value) => Some(value),
        Err(_) => {
            tracing::error!(
                hook = name,
                "a middleware panicked; the rest of the exchange goes on without that call"
            );
            None
        }
    }
}

/// The middleware around one exchange: each sees every message sent for it, then its end,
/// innermost first. Its end comes with the answer, or (dropped with the last outbox of the
/// exchange, unanswered) as a cancellation.
pub(crate) struct Watch {
    pub(crate) exchange: Exchanged,
    /// The server's middleware, outermost first; `None` in a spare watch.
    layers: Option<Arc<[Layer]>>,
    /// How many of them (the outermost) saw `on_request`.
    pub(crate) entered: usize,
    ended: AtomicBool,
}

thread_local! {
    /// The watch of the last exchange on this thread that ended while its request was
    /// being served, kept for the next one, which then allocates nothing.
    static SPARE: Cell<Option<Arc<Watch>>> = const { Cell::new(None) };
}

impl Watch {
    /// The watch of an exchange opening now, around `layers`, before any has seen it: this
    /// thread's spare one when there is one.
    pub(crate) fn open(opening: Opening<'_>, layers: &Arc<[Layer]>) -> Arc<Watch> {
        let layers = Some(Arc::clone(layers));
        match SPARE.take() {
            Some(mut spare) => {
                let watch = Arc::get_mut(&mut spare).expect("a spare watch is held nowhere else");
                watch.exchange.reopen(opening);
                watch.layers = layers;
                watch.entered = 0;
                *watch.ended.get_mut() = false;
                spare
            }
            None => Arc::new(Watch {
                exchange: Exchanged::new(opening),
                layers,
                entered: 0,
                ended: AtomicBool::new(false),
            }),
        }
    }

    /// Done with `watch` where its request was served: when nothing else holds it, its
    /// exchange ends (a cancellation, if unanswered) and it is kept as this thread's spare.
    pub(crate) fn close(mut watch: Arc<Watch>) {
        if let Some(only) = Arc::get_mut(&mut watch) {
            only.end(Outcome::Cancelled);
            only.layers = None;
            only.exchange.close();
            SPARE.set(Some(watch));
        }
    }

    fn entered(&self) -> impl Iterator<Item = &Layer> {
        let layers = self.layers.as_deref().unwrap_or_default();
        layers.iter().take(self.entered).rev()
    }

    /// `bytes` was sent; an answer ends the exchange with `outcome`.
    fn sent(&self, bytes: &[u8], kind: MessageKind, outcome: Option<Outcome>) {
        if self.ended.load(Ordering::Acquire) {
            return;
        }
        self.exchange.count();
        let message = Message::new(bytes, kind);
        for layer in self.entered().filter(|layer| layer.keeps(Hook::Message)) {
            layer.call(Hook::Message, |middleware| {
                hook("on_message", || middleware.on_message(&self.exchange, &message))
            });
        }
        if let Some(outcome) = outcome {
            self.end(outcome);
        }
    }

    fn end(&self, outcome: Outcome) {
        if !self.ended.swap(true, Ordering::AcqRel) {
            for layer in self.entered().filter(|layer| layer.keeps(Hook::End)) {
                layer.call(Hook::End, |middleware| {
                    hook("on_end", || middleware.on_end(&self.exchange, outcome))
                });
            }
        }
    }
}

impl Drop for Watch {
    /// The last outbox of the exchange is gone unanswered: cancelled, timed out without an
    /// answer, or its connection closed.
    fn drop(&mut self) {
        self.end(Outcome::Cancelled);
    }
}

/// One way out: a queue a task drains, a sink written at once, or one HTTP exchange.
#[derive(Clone)]
enum Route {
    Queue(Sender),
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
pub(crate) struct Exchange {
    held: Mutex<Held>,
    /// The bound of its queue, once it has one.
    bound: Backlog,
    /// Cancelled to end the exchange's stream; the transport's connection closes with it.
    ended: Option<CancellationToken>,
}

#[cfg(feature = "http")]
enum Held {
    /// Nothing sent yet.
    Nothing,
    /// The one message sent so far.
    One(Outgoing),
    /// Messages go through a queue; its receiver waits here until the transport takes it.
    Queued(Sender, Option<Queue>),
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
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn queue(&self) -> (Sender, Queue) {
        Queue::bounded(self.bound, self.ended.clone())
    }

    fn send(&self, message: Outgoing, room: Room) -> Result<(), Refused> {
        let mut held = self.held();
        let (next, sent) = match std::mem::replace(&mut *held, Held::Closed) {
            Held::Nothing => (Held::One(message), Ok(())),
            Held::One(first) => {
                let (sender, receiver) = self.queue();
                // The receiver is kept beside its sender, so neither send can fail for want
                // of a reader; the first always finds room.
                let _ = sender.send(first, Room::Always);
                let sent = sender.send(message, room);
                (Held::Queued(sender, Some(receiver)), sent)
            }
            Held::Queued(sender, receiver) => {
                let sent = sender.send(message, room);
                (Held::Queued(sender, receiver), sent)
            }
            Held::Closed => (Held::Closed, Err(Refused::Closed)),
        };
        *held = next;
        sent
    }

    fn is_open(&self) -> bool {
        match &*self.held() {
            Held::Nothing | Held::One(_) => true,
            Held::Queued(sender, _) => !sender.is_closed(),
            Held::Closed => false,
        }
    }

    /// The count of what waits in the exchange's queue, once it has one.
    fn pending(&self) -> Option<Arc<Pending>> {
        match &*self.held() {
            Held::Queued(sender, _) => Some(Arc::clone(&sender.pending)),
            _ => None,
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
                let (sender, receiver) = self.queue();
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

    /// Sends `message`; `Err(Full)` when it was left out for want of room.
    fn send(&self, message: Outgoing, room: Room, what: &str) -> Result<(), Refused> {
        let sent = match self {
            Route::Queue(queue) => queue.send(message, room),
            Route::Direct(sink) => {
                sink.send(message.bytes);
                Ok(())
            }
            #[cfg(feature = "http")]
            Route::Exchange(exchange) => exchange.send(message, room),
        };
        if sent == Err(Refused::Closed) {
            tracing::debug!("dropped a {what}: the stream or connection it was for is closed");
        }
        sent
    }

    /// The count of what waits on this way, when it is a queue (a sink holds nothing).
    fn pending(&self) -> Option<Arc<Pending>> {
        match self {
            Route::Queue(queue) => Some(Arc::clone(&queue.pending)),
            Route::Direct(_) => None,
            #[cfg(feature = "http")]
            Route::Exchange(exchange) => exchange.pending(),
        }
    }
}

impl Outbox {
    /// An outbox whose messages all arrive on one receiver, in order, with no bound: for a
    /// reader in this process that takes them as they come.
    pub(crate) fn channel() -> (Outbox, Queue) {
        Outbox::bounded(Backlog::NONE, None)
    }

    /// An outbox whose messages all arrive on one receiver, in order, holding at most
    /// `bound` notifications for it. With `ended`, the queue is one stream alone, which
    /// [`Outbox::end`] ends by cancelling it.
    pub(crate) fn bounded(bound: Backlog, ended: Option<CancellationToken>) -> (Outbox, Queue) {
        let (sender, receiver) = Queue::bounded(bound, ended);
        (
            Outbox {
                responses: Route::Queue(sender.clone()),
                notifications: Route::Queue(sender),
                watch: None,
            },
            receiver,
        )
    }

    /// An outbox for one HTTP exchange, holding at most `bound` notifications for its
    /// client, and the exchange to settle once the request has been handed over. `ended`,
    /// when cancelled, ends the exchange's stream (the transport closes its connection).
    #[cfg(feature = "http")]
    pub(crate) fn exchange(bound: Backlog, ended: Option<CancellationToken>) -> (Outbox, Arc<Exchange>) {
        let exchange = Arc::new(Exchange {
            held: Mutex::new(Held::Nothing),
            bound,
            ended,
        });
        let route = Route::Exchange(Arc::clone(&exchange));
        (
            Outbox {
                responses: route.clone(),
                notifications: route,
                watch: None,
            },
            exchange,
        )
    }

    /// An outbox that hands every message to `sink` at once.
    pub(crate) fn direct(sink: Arc<dyn Sink>) -> Outbox {
        Outbox {
            responses: Route::Direct(Arc::clone(&sink)),
            notifications: Route::Direct(sink),
            watch: None,
        }
    }

    /// An outbox for a batch: its responses are gathered on the receiver, its
    /// notifications go where this outbox's go.
    pub(crate) fn batch(&self) -> (Outbox, Queue) {
        let (sender, receiver) = Queue::bounded(Backlog::NONE, None);
        (
            Outbox {
                responses: Route::Queue(sender),
                notifications: self.notifications.clone(),
                watch: None,
            },
            receiver,
        )
    }

    /// Whether notifications sent here can still arrive (an HTTP stream still open).
    pub(crate) fn is_open(&self) -> bool {
        self.notifications.is_open()
    }

    /// The same way out, watched by the middleware of one exchange.
    pub(crate) fn watched(&self, watch: Arc<Watch>) -> Outbox {
        Outbox {
            responses: self.responses.clone(),
            notifications: self.notifications.clone(),
            watch: Some(watch),
        }
    }

    /// The watch of this outbox, which goes.
    pub(crate) fn into_watch(self) -> Option<Arc<Watch>> {
        self.watch
    }

    /// Sends a response that is not an error.
    pub(crate) fn respond(&self, message: Vec<u8>) {
        self.respond_as(message, Answer::Complete);
    }

    /// Sends a response that is not an error, saying what it is to the middleware.
    pub(crate) fn respond_as(&self, message: Vec<u8>, answer: Answer) {
        if let Some(watch) = &self.watch {
            let outcome = match answer {
                Answer::Complete => Outcome::Ok,
                Answer::ToolError => Outcome::Error(ErrorCode::INTERNAL_ERROR),
                Answer::InputRequired => Outcome::InputRequired,
                Answer::Task => Outcome::Task,
            };
            watch.sent(&message, MessageKind::Result, Some(outcome));
        }
        let _ = self
            .responses
            .send(Outgoing::response(message, None), Room::Always, "response");
    }

    /// Sends an error response.
    pub(crate) fn respond_error(&self, message: Vec<u8>, error: ErrorInfo) {
        if let Some(watch) = &self.watch {
            watch.sent(&message, MessageKind::Error, Some(Outcome::Error(error.code)));
        }
        let _ = self
            .responses
            .send(Outgoing::response(message, Some(error)), Room::Always, "response");
    }

    /// Sends a notification on the way of notifications; it is left out when the client
    /// is so far behind that the stream's backlog is full.
    pub(crate) fn notify(&self, message: Vec<u8>) {
        let _ = self.offer(message);
    }

    /// Sends a notification; `false` when it was left out because the stream's backlog is
    /// full (the client reads more slowly than the stream fills).
    pub(crate) fn offer(&self, message: Vec<u8>) -> bool {
        if let Some(watch) = &self.watch {
            watch.sent(&message, MessageKind::Notification, None);
        }
        let sent = self
            .notifications
            .send(Outgoing::notification(message), Room::IfAny, "notification");
        sent != Err(Refused::Full)
    }

    /// Sends a request of the server's own, the withdrawal of one, or what a stream that
    /// fell behind sends once it has caught up, on the way of notifications: queued
    /// whatever the backlog holds.
    pub(crate) fn notify_always(&self, message: Vec<u8>) {
        self.always(message, MessageKind::Notification);
    }

    /// Sends a request of the server's own: as [`Outbox::notify_always`], named a request
    /// for the middleware.
    pub(crate) fn request(&self, message: Vec<u8>) {
        self.always(message, MessageKind::Request);
    }

    fn always(&self, message: Vec<u8>, kind: MessageKind) {
        if let Some(watch) = &self.watch {
            watch.sent(&message, kind, None);
        }
        let _ = self
            .notifications
            .send(Outgoing::notification(message), Room::Always, "notification");
    }

    /// Completes when the client has taken every notification sent so far, or the stream
    /// has closed.
    pub(crate) async fn drained(&self) {
        let Some(pending) = self.notifications.pending() else {
            return;
        };
        loop {
            let drained = pending.drained.notified();
            let mut drained = std::pin::pin!(drained);
            drained.as_mut().enable();
            if pending.messages.load(Ordering::Acquire) == 0 || !self.is_open() {
                return;
            }
            drained.await;
        }
    }

    /// How many messages the client has taken from the way of notifications so far: when
    /// this does not change, the client is stalled.
    pub(crate) fn taken(&self) -> u64 {
        self.notifications
            .pending()
            .map_or(0, |pending| pending.taken.load(Ordering::Relaxed))
    }

    /// Ends a stream whose client stalled: nothing more is queued, the reader stops, and
    /// the transport closes the connection. Does nothing to a way a connection shares.
    pub(crate) fn end(&self) {
        let ended = match &self.notifications {
            Route::Queue(queue) => queue.pending.ended.as_ref(),
            Route::Direct(_) => None,
            #[cfg(feature = "http")]
            Route::Exchange(exchange) => exchange.ended.as_ref(),
        };
        if let Some(ended) = ended {
            ended.cancel();
        }
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
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
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
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
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
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
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
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
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
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
        drop(out);
        let Settled::Queue(None, mut queue) = exchange.settle() else {
            panic!("an exchange with nothing sent settled with a message");
        };
        assert!(queue.recv().await.is_none());
    }

    #[tokio::test]
    async fn a_calls_notifications_past_the_backlog_are_left_out_and_its_response_goes() {
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
        let Settled::Queue(None, mut queue) = exchange.settle() else {
            panic!("an exchange with nothing sent settled with a message");
        };
        for i in 0..10_000 {
            out.notify(format!("progress {i}").into_bytes());
        }
        out.notify_always(b"request".to_vec());
        out.respond(b"answer".to_vec());
        drop(out);
        let mut taken = Vec::new();
        while let Some(message) = queue.recv().await {
            taken.push(String::from_utf8(message.bytes).unwrap());
        }
        assert_eq!(taken.len(), Backlog::DEFAULT.messages + 2);
        assert_eq!(taken[..2], ["progress 0", "progress 1"]);
        assert_eq!(taken[taken.len() - 2..], ["request", "answer"]);
    }

    #[test]
    fn a_closed_reader_closes_the_exchange() {
        let (out, exchange) = Outbox::exchange(Backlog::DEFAULT, None);
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

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[tokio::test]
    async fn notifications_past_the_backlog_are_left_out_and_responses_still_go() {
        let (out, mut queue) = Outbox::bounded(
            Backlog {
                messages: 2,
                bytes: 1024,
            },
            None,
        );
        assert!(out.offer(b"one".to_vec()));
        assert!(out.offer(b"two".to_vec()));
        assert!(
            !out.offer(b"three".to_vec()),
            "a third notification went past a bound of two"
        );
        out.respond(b"answer".to_vec());
        out.notify_always(b"request".to_vec());
        let mut taken = Vec::new();
        while let Ok(message) = queue.try_recv() {
            taken.push(String::from_utf8(message.bytes).unwrap());
        }
        assert_eq!(taken, ["one", "two", "answer", "request"]);
        assert_eq!(out.taken(), 4);
        // Emptied, the queue takes notifications again.
        assert!(out.offer(b"four".to_vec()));
    }

    #[tokio::test]
    async fn the_byte_bound_counts_what_waits_but_lets_one_large_message_through() {
        let (out, mut queue) = Outbox::bounded(
            Backlog {
                messages: 100,
                bytes: 10,
            },
            None,
        );
        assert!(out.offer(vec![b'x'; 64]), "a large message alone was refused");
        assert!(!out.offer(b"y".to_vec()));
        queue.try_recv().unwrap();
        assert!(out.offer(vec![b'y'; 6]));
        assert!(!out.offer(vec![b'z'; 6]), "12 bytes went past a bound of 10");
    }

    #[tokio::test]
    async fn drained_waits_for_the_reader_to_take_everything() {
        let (out, mut queue) = Outbox::bounded(Backlog::DEFAULT, None);
        out.drained().await; // nothing waits
        out.notify(b"one".to_vec());
        out.notify(b"two".to_vec());
        let waiting = tokio::spawn({
            let out = out.clone();
            async move { out.drained().await }
        });
        queue.recv().await.unwrap();
        tokio::task::yield_now().await;
        assert!(
            !waiting.is_finished(),
            "drained before the reader took everything"
        );
        queue.recv().await.unwrap();
        waiting.await.unwrap();
        // A reader that goes away drains everything too.
        out.notify(b"three".to_vec());
        drop(queue);
        out.drained().await;
    }

    #[tokio::test]
    async fn ending_a_stream_closes_it_and_a_shared_queue_is_not_ended() {
        let ended = CancellationToken::new();
        let (out, _queue) = Outbox::bounded(Backlog::DEFAULT, Some(ended.clone()));
        out.end();
        assert!(ended.is_cancelled());
        assert!(!out.is_open());
        assert!(out.offer(b"late".to_vec()), "a closed stream is not full");
        let (shared, _queue) = Outbox::bounded(Backlog::DEFAULT, None);
        shared.end();
        assert!(shared.is_open());
    }
}
