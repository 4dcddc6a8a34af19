//! Middleware (SEP-3371): code of yours around every exchange the server serves.
//!
//! An exchange is one request and everything the server sends for it: progress, log
//! messages, the requests of its own a tool makes in the legacy era (elicitation, sampling,
//! roots), the task status it announces, and the answer: a result, an `input_required`
//! round (2026-07-28), a task, or an error. A [`Middleware`] added with
//! [`Server::middleware`](crate::Server::middleware) sees each of them, for every method
//! (core and custom), in both eras and on every transport:
//!
//! - [`Middleware::on_request`] before the method runs, outermost first: it reads the
//!   method, the name it targets, the caller ([`Principal`]), the era and `_meta`; it may
//!   edit `_meta`, answer in the handler's place ([`Flow::Answer`]) or refuse with a
//!   JSON-RPC error ([`Flow::Reject`]);
//! - [`Middleware::on_message`] for each message sent in the exchange, the answer included;
//! - [`Middleware::on_end`] once, when the exchange ends: answered, or cancelled, or its
//!   connection gone ([`Outcome::Cancelled`]), innermost first.
//!
//! The first middleware added is the outermost: its `on_request` runs first and its
//! `on_end` last; one that answers or rejects stops the request there, and only the
//! middleware it passed through see the rest. A server without middleware pays nothing.
//! The built-in rate limits ([`Limits::rate_limit`](crate::server::Limits::rate_limit))
//! are a middleware too, added last (the innermost), so yours see the calls they refuse.
//!
//! ```
//! use mcp_toolkit::middleware::{Exchange, Flow, Middleware, Outcome, Request};
//! use mcp_toolkit::protocol::ErrorCode;
//! use mcp_toolkit::{tool, tools, Server};
//! use serde_json::json;
//! use std::sync::{Arc, Mutex};
//!
//! /// Counts what each exchange sent, and refuses `tools/call` of `forbidden`.
//! struct Ledger(Arc<Mutex<Vec<String>>>);
//!
//! impl Middleware for Ledger {
//!     fn on_request(&self, request: &mut Request<'_>) -> Flow {
//!         if request.name() == Some("forbidden") {
//!             return Flow::Reject(ErrorCode::INVALID_PARAMS, "`forbidden` may not be called".into());
//!         }
//!         request.meta_mut().insert("com.example/seen".into(), json!(true));
//!         Flow::Continue
//!     }
//!
//!     fn on_end(&self, exchange: &Exchange, outcome: Outcome) {
//!         let line = format!("{} {} {}", exchange.method(), outcome.as_str(), exchange.messages());
//!         self.0.lock().unwrap().push(line);
//!     }
//! }
//!
//! /// Adds two numbers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
//! let lines = Arc::new(Mutex::new(Vec::new()));
//! let client = Server::new("calculator", "1.0.0")
//!     .tools(tools![add])
//!     .middleware(Ledger(Arc::clone(&lines)))
//!     .test_client()?;
//! client.call("add", json!({"a": 1, "b": 2})).await?;
//! assert!(client.call("forbidden", json!({})).await.is_err());
//! assert_eq!(*lines.lock().unwrap(), ["tools/call ok 1", "tools/call error 1"]);
//! # Ok(())
//! # }
//! ```

use crate::context::Principal;
use crate::protocol::messages::ParamsHead;
use crate::protocol::{ErrorCode, ProtocolVersion};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::borrow::Cow;
use std::cell::Cell;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Code around every exchange a server serves. Each hook has a default that does nothing,
/// so a middleware implements only what it needs. Hooks run on the server's threads as the
/// exchange goes: keep them short and never block.
///
/// A hook that panics is caught and logged: a panic in `on_request` answers the request
/// with an internal error (nothing of the panic is sent), one in `on_message` or `on_end`
/// skips that call; the exchange, the connection and the server go on.
///
/// A hook left to its default costs nothing: the server notices it the first time it calls
/// it, and calls it no more. A middleware that keeps all three defaults costs a call a few
/// instructions; one that implements only `on_request` is never shown the messages.
pub trait Middleware: Send + Sync + 'static {
    /// A request arrived, before its method runs (outermost middleware first) and before
    /// its span is entered ([`Request::span`]).
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        let _ = request;
        left_to_default::<Self>(self, Hook::Request);
        Flow::Continue
    }

    /// The server sent `message` in the exchange (innermost middleware first).
    fn on_message(&self, exchange: &Exchange, message: &Message<'_>) {
        let _ = (exchange, message);
        left_to_default::<Self>(self, Hook::Message);
    }

    /// The exchange ended (innermost middleware first): once per exchange whose
    /// `on_request` this middleware saw, whether it was answered, cancelled, or its
    /// connection went away.
    fn on_end(&self, exchange: &Exchange, outcome: Outcome) {
        let _ = (exchange, outcome);
        left_to_default::<Self>(self, Hook::End);
    }
}

/// A hook of [`Middleware`], as a bit of [`Layer`]'s defaults.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hook {
    Request = 1,
    Message = 2,
    End = 4,
}

/// Every hook's bit.
const ALL_HOOKS: u8 = Hook::Request as u8 | Hook::Message as u8 | Hook::End as u8;

/// Which hook of which middleware a [`Layer`] is calling on this thread: the middleware's
/// address and type, and the hook. A default hook body that finds itself named here clears
/// it, which tells the layer the hook is left to its default. The type tells apart a
/// middleware from one it holds at the same address (a wrapper's first field), whose
/// default the wrapper's own hook may call.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Calling {
    address: usize,
    type_id: TypeId,
    hook: u8,
}

thread_local! {
    static CALLING: Cell<Option<Calling>> = const { Cell::new(None) };
}

/// Run by each default hook body: clears [`CALLING`] when it names this very hook.
fn left_to_default<M: Middleware + ?Sized>(this: &M, hook: Hook) {
    let me = Calling {
        address: (this as *const M).cast::<()>() as usize,
        type_id: TypeId::of::<M>(),
        hook: hook as u8,
    };
    CALLING.with(|calling| {
        if calling.get() == Some(me) {
            calling.set(None);
        }
    });
}

/// One middleware as a server holds it: what it is, and which of its hooks it is known to
/// leave to their defaults, learned the first time each is called.
pub(crate) struct Layer {
    middleware: Arc<dyn Middleware>,
    type_id: TypeId,
    /// What is known of each hook: its bit when it is left to its default, and its bit
    /// shifted by [`LEARNED`] once that is known either way.
    defaults: AtomicU8,
}

/// How far a hook's bit is shifted in [`Layer`]'s `defaults` to say it has been learned.
const LEARNED: u8 = 4;

impl Clone for Layer {
    /// The same middleware, and what is known of its hooks so far.
    fn clone(&self) -> Layer {
        Layer {
            middleware: Arc::clone(&self.middleware),
            type_id: self.type_id,
            defaults: AtomicU8::new(self.defaults.load(Ordering::Relaxed)),
        }
    }
}

impl Layer {
    pub(crate) fn new<M: Middleware>(middleware: M) -> Layer {
        Layer {
            middleware: Arc::new(middleware),
            type_id: TypeId::of::<M>(),
            defaults: AtomicU8::new(0),
        }
    }

    /// Whether `hook` may do something: it is not known to be left to its default.
    pub(crate) fn keeps(&self, hook: Hook) -> bool {
        self.defaults.load(Ordering::Relaxed) & hook as u8 == 0
    }

    /// Whether every hook is known to be left to its default: the layer does nothing.
    pub(crate) fn is_idle(&self) -> bool {
        self.defaults.load(Ordering::Relaxed) & ALL_HOOKS == ALL_HOOKS
    }

    /// Calls `hook` of the middleware with `run`; the first time, learns whether it is the
    /// default.
    pub(crate) fn call<R>(&self, hook: Hook, run: impl FnOnce(&dyn Middleware) -> R) -> R {
        let learned = (hook as u8) << LEARNED;
        if self.defaults.load(Ordering::Relaxed) & learned != 0 {
            return run(&*self.middleware);
        }
        let me = Calling {
            address: Arc::as_ptr(&self.middleware).cast::<()>() as usize,
            type_id: self.type_id,
            hook: hook as u8,
        };
        let outer = CALLING.replace(Some(me));
        let result = run(&*self.middleware);
        let defaulted = CALLING.replace(outer).is_none();
        let known = if defaulted { learned | hook as u8 } else { learned };
        self.defaults.fetch_or(known, Ordering::Relaxed);
        result
    }
}

/// What happens to a request after [`Middleware::on_request`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Flow {
    /// On to the next middleware, then the method.
    Continue,
    /// Answer with this `result` (an object), in the method's place. In revision
    /// 2026-07-28 the server adds `resultType: "complete"` and its identity in `_meta`, as
    /// for every result it sends.
    Answer(Value),
    /// Answer with this JSON-RPC error, in the method's place.
    Reject(ErrorCode, String),
}

/// One exchange: a request and what the server sends for it.
#[derive(Debug)]
pub struct Exchange {
    /// The method, the id, the name and `_meta` as sent, one after the other: what every
    /// exchange copies out of its message, in a buffer the next exchange on the thread
    /// reuses. The name is its JSON string, read when a middleware asks for it.
    text: String,
    /// Where the method ends and the id begins in `text`.
    method_end: usize,
    /// Where the id ends in `text`.
    id_end: usize,
    /// Where the name ends in `text`, when the request names something.
    name_end: Option<usize>,
    principal: Option<Arc<Principal>>,
    peer: Option<IpAddr>,
    /// The revision of the request's connection (`initialize`), for a request whose `_meta`
    /// names none.
    session_version: Option<ProtocolVersion>,
    /// The name, when its JSON string has escapes to decode.
    decoded_name: OnceLock<Box<str>>,
    /// The tool a `call_tool` of tool search called: what the exchange names from then on.
    called: OnceLock<Box<str>>,
    /// `_meta`, read from `text` when a middleware first asks for it.
    meta: OnceLock<Map<String, Value>>,
    started: Instant,
    messages: AtomicUsize,
}

/// What the engine copies of a request into its exchange.
pub(crate) struct Opening<'a> {
    pub(crate) method: &'a str,
    /// The id's JSON text.
    pub(crate) id: &'a str,
    /// What the request names, as its JSON string.
    pub(crate) name: Option<&'a str>,
    /// `_meta` as sent.
    pub(crate) meta: Option<&'a str>,
    pub(crate) principal: Option<Arc<Principal>>,
    pub(crate) peer: Option<IpAddr>,
    pub(crate) session_version: Option<ProtocolVersion>,
}

/// The most text a spare exchange keeps for the next one: a larger `_meta` is not held
/// after its exchange.
const SPARE_TEXT: usize = 1024;

impl Exchange {
    /// An exchange starting now. Made by the engine; what it copies is read only when a
    /// middleware asks for it.
    pub(crate) fn new(opening: Opening<'_>) -> Exchange {
        let mut exchange = Exchange {
            text: String::new(),
            method_end: 0,
            id_end: 0,
            name_end: None,
            principal: None,
            peer: None,
            session_version: None,
            decoded_name: OnceLock::new(),
            called: OnceLock::new(),
            meta: OnceLock::new(),
            started: Instant::now(),
            messages: AtomicUsize::new(0),
        };
        exchange.reopen(opening);
        exchange
    }

    /// This exchange, new or closed, made the one starting now: its text buffer is reused.
    pub(crate) fn reopen(&mut self, opening: Opening<'_>) {
        let Opening {
            method,
            id,
            name,
            meta,
            principal,
            peer,
            session_version,
        } = opening;
        let (named, sent) = (name.unwrap_or_default(), meta.unwrap_or_default());
        if self.text.capacity() > SPARE_TEXT {
            self.text = String::new();
        }
        self.text.clear();
        for part in [method, id, named, sent] {
            self.text.push_str(part);
        }
        self.method_end = method.len();
        self.id_end = self.method_end + id.len();
        self.name_end = name.map(|name| self.id_end + name.len());
        self.principal = principal;
        self.peer = peer;
        self.session_version = session_version;
        // `decoded_name` and `meta` are empty: the exchange is new, or was closed.
        self.started = Instant::now();
        *self.messages.get_mut() = 0;
    }

    /// The request's method: `tools/call`, `notes/stats`.
    pub fn method(&self) -> &str {
        &self.text[..self.method_end]
    }

    /// What the request names, when its method names something: a tool's or a prompt's
    /// name, a resource's URI. A `call_tool` of [tool search](crate::discovery) names the
    /// tool it called, once the engine has read it (`on_request` still sees `call_tool`).
    pub fn name(&self) -> Option<&str> {
        if let Some(called) = self.called.get() {
            return Some(called);
        }
        let sent = &self.text[self.id_end..self.name_end?];
        match sent.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
            Some(plain) if !plain.contains('\\') => Some(plain),
            _ => Some(self.decoded_name.get_or_init(|| {
                serde_json::from_str::<String>(sent)
                    .unwrap_or_default()
                    .into_boxed_str()
            })),
        }
    }

    /// The request's id, as its JSON text (`7`, `"a"`).
    pub fn id(&self) -> &str {
        &self.text[self.method_end..self.id_end]
    }

    /// Who is calling, when the transport authenticated the caller.
    pub fn principal(&self) -> Option<&Principal> {
        self.principal.as_deref()
    }

    /// The address the client connected from, over HTTP (behind a proxy, the proxy's);
    /// `None` over stdio. The built-in per-client rate limit tells apart clients without a
    /// token by it.
    pub fn peer_addr(&self) -> Option<IpAddr> {
        self.peer
    }

    /// The protocol revision the request is served in: its own (2026-07-28), or its
    /// connection's (`initialize`); `None` when it names none (it is then refused).
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        serde_json::from_str(self.sent_meta())
            .ok()
            .and_then(|meta: &RawValue| ParamsHead::version_in(meta))
            .and_then(|version| Cow::<str>::deserialize(version).ok())
            .and_then(|version| ProtocolVersion::parse(&version))
            .or(self.session_version)
    }

    /// Whether the request is served in the stateless era (2026-07-28).
    pub fn is_modern(&self) -> bool {
        self.protocol_version().is_some_and(ProtocolVersion::is_modern)
    }

    /// The request's `_meta`, as the middleware left it.
    pub fn meta(&self) -> &Map<String, Value> {
        self.meta
            .get_or_init(|| serde_json::from_str(self.sent_meta()).unwrap_or_default())
    }

    /// `_meta` as sent; empty when the request has none.
    fn sent_meta(&self) -> &str {
        &self.text[self.name_end.unwrap_or(self.id_end)..]
    }

    /// How many messages the server has sent in the exchange so far, the answer included.
    pub fn messages(&self) -> usize {
        self.messages.load(Ordering::Relaxed)
    }

    /// How long ago the request arrived.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// This exchange, ended and kept for the next one: it lets go of the caller and of
    /// `_meta`.
    pub(crate) fn close(&mut self) {
        self.principal = None;
        self.decoded_name = OnceLock::new();
        self.called = OnceLock::new();
        self.meta = OnceLock::new();
    }

    /// Names the tool a `call_tool` called, for every hook from now on.
    pub(crate) fn name_call(&self, tool: &str) {
        let _ = self.called.set(tool.into());
    }

    pub(crate) fn count(&self) {
        self.messages.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn meta_map(&mut self) -> &mut Map<String, Value> {
        self.meta();
        self.meta.get_mut().expect("read just now")
    }
}

/// A request as [`Middleware::on_request`] sees it: its exchange, its `_meta` to edit, and
/// its span.
#[derive(Debug)]
pub struct Request<'a> {
    exchange: &'a mut Exchange,
    edited: &'a mut bool,
    span: &'a tracing::Span,
}

impl<'a> Request<'a> {
    pub(crate) fn new(
        exchange: &'a mut Exchange,
        edited: &'a mut bool,
        span: &'a tracing::Span,
    ) -> Request<'a> {
        Request {
            exchange,
            edited,
            span,
        }
    }

    /// The exchange the request begins.
    pub fn exchange(&self) -> &Exchange {
        self.exchange
    }

    /// The request's method.
    pub fn method(&self) -> &str {
        self.exchange.method()
    }

    /// What the request names: a tool's or prompt's name, a resource's URI.
    pub fn name(&self) -> Option<&str> {
        self.exchange.name()
    }

    /// Who is calling, when authenticated.
    pub fn principal(&self) -> Option<&Principal> {
        self.exchange.principal()
    }

    /// The request's `_meta`.
    pub fn meta(&self) -> &Map<String, Value> {
        self.exchange.meta()
    }

    /// The request's `_meta`, to edit: the method (and the middleware after this one)
    /// read it as edited.
    pub fn meta_mut(&mut self) -> &mut Map<String, Value> {
        *self.edited = true;
        self.exchange.meta_map()
    }

    /// The request's span: `mcp.request`, target `mcp_toolkit::request`, with the fields of
    /// the OpenTelemetry conventions for MCP servers (the telemetry chapter of the guide).
    /// It is not entered yet while `on_request` runs, so a middleware can still give it a
    /// parent: the built-in one that reads `traceparent` from `_meta` (feature `otel`) does
    /// just that, outermost of all. Disabled when no subscriber wants it.
    ///
    /// ```
    /// use mcp_toolkit::middleware::{Flow, Middleware, Request};
    ///
    /// /// Skips the work of a middleware when nobody records the request's span.
    /// struct Traced;
    ///
    /// impl Middleware for Traced {
    ///     fn on_request(&self, request: &mut Request<'_>) -> Flow {
    ///         if !request.span().is_disabled() {
    ///             request.span().record("mcp.session.id", "from-my-gateway");
    ///         }
    ///         Flow::Continue
    ///     }
    /// }
    /// ```
    pub fn span(&self) -> &tracing::Span {
        self.span
    }
}

/// What kind of message the server sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MessageKind {
    /// A notification: progress, a log message, a task's status.
    Notification,
    /// A request of the server's own (legacy era): elicitation, sampling, roots.
    Request,
    /// The answer, a result.
    Result,
    /// The answer, a JSON-RPC error.
    Error,
}

/// A message the server sent in an exchange.
#[derive(Debug)]
pub struct Message<'a> {
    text: &'a [u8],
    kind: MessageKind,
}

impl<'a> Message<'a> {
    pub(crate) fn new(text: &'a [u8], kind: MessageKind) -> Message<'a> {
        Message { text, kind }
    }

    /// What kind of message it is.
    pub fn kind(&self) -> MessageKind {
        self.kind
    }

    /// The message as sent: one JSON-RPC object.
    pub fn text(&self) -> &str {
        std::str::from_utf8(self.text).unwrap_or_default()
    }

    /// The `method` of a notification or request (read from the text, on demand).
    pub fn method(&self) -> Option<String> {
        #[derive(serde::Deserialize)]
        struct Head {
            method: Option<String>,
        }
        serde_json::from_slice::<Head>(self.text).ok()?.method
    }
}

/// How an exchange ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Answered with a result.
    Ok,
    /// Answered with a JSON-RPC error (its code), or with a tool result that is an error
    /// (`isError`, [`ErrorCode::INTERNAL_ERROR`] stands for it).
    Error(ErrorCode),
    /// Answered with an `input_required` round (2026-07-28): the client answers and asks
    /// again, in an exchange of its own.
    InputRequired,
    /// Answered with a task (the tasks extension): the work goes on, polled with `tasks/get`.
    Task,
    /// Never answered: cancelled by the client, or its connection went away.
    Cancelled,
}

impl Outcome {
    /// `ok`, `error`, `input_required`, `task` or `cancelled`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error(_) => "error",
            Outcome::InputRequired => "input_required",
            Outcome::Task => "task",
            Outcome::Cancelled => "cancelled",
        }
    }
}
