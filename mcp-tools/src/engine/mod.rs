//! The protocol engine: one incoming message in, responses and notifications out.
//!
//! Transports only move bytes: they hand each message to [`Engine::handle`] with the
//! [`Connection`] it arrived on and an [`Outbox`] for what goes back. The engine serves both
//! protocol eras at once: a request whose `_meta` names a protocol revision is served
//! statelessly (2026-07-28); `initialize` puts the connection in legacy mode (2024-11-05 to
//! 2025-11-25) for the requests that follow.

mod connection;
mod encode;

pub(crate) use connection::{Connection, Outbox, Sink};

use crate::context::{Context, Notification, Principal, RequestInfo, StateMap};
use crate::protocol::jsonrpc::{
    self, Envelope, INVALID_PARAMS, INVALID_REQUEST, Id, METHOD_NOT_FOUND, Message, PARSE_ERROR, Params,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::protocol::messages::{
    CallToolParams, CancelledParams, InitializeParams, ListToolsParams, ListenParams, META_SUBSCRIPTION_ID,
    MetaOnly, RawCall, RequestMeta, SetLevelParams, WithMeta,
};
use crate::protocol::{Implementation, LoggingLevel, ProtocolVersion, RequestId};
use crate::rate::{ClientKey, RateLimit, RateLimiters};
use crate::registry::ToolRegistry;
use crate::result::CallToolResult;
use crate::server::ServerInfo;
use base64::Engine as _;
use connection::{InFlight, LegacySession};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Who is calling, as the transport established it (HTTP's bearer token); `None` on
/// transports without authorization.
pub(crate) type Auth<'a> = Option<&'a Arc<Principal>>;

/// Decides whether a caller may see and call a tool.
pub(crate) type Visibility = dyn Fn(&crate::Tool, Option<&Principal>) -> bool + Send + Sync;

/// What the engine needs to serve: the server's identity, its tools, its state.
pub(crate) struct Engine {
    pub(crate) info: ServerInfo,
    pub(crate) registry: ToolRegistry,
    pub(crate) state: StateMap,
    pub(crate) options: Options,
    /// Which tools a caller may see; `None` shows every tool to everyone.
    pub(crate) visibility: Option<Arc<Visibility>>,
    /// The server's `Implementation` for modern results' `_meta`, encoded once.
    identity: Box<RawValue>,
    /// One permit per call that may wait at once.
    calls: Arc<Semaphore>,
    /// The rate limits on calls.
    limiters: RateLimiters,
}

/// Tunables, set through `Server`.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// Tools per `tools/list` page; `None` lists all in one page.
    pub(crate) page_size: Option<usize>,
    /// The `ttlMs` of `tools/list` and `server/discover` results.
    pub(crate) list_ttl_ms: u64,
    /// The longest message a transport accepts, in bytes.
    pub(crate) max_message_bytes: usize,
    /// The longest result sent, in bytes of its encoded message.
    pub(crate) max_result_bytes: usize,
    /// How many calls may be in progress at once (calls answered without waiting do not
    /// count).
    pub(crate) max_concurrent_calls: usize,
    /// How long a call may take unless its tool has a time of its own.
    pub(crate) call_timeout: Duration,
    /// Times of their own, by tool name.
    pub(crate) tool_timeouts: HashMap<String, Duration>,
    /// Whether object and array arguments may arrive as JSON text.
    pub(crate) lenient_arguments: bool,
    /// Whether clients read the details of internal errors.
    pub(crate) expose_internal_errors: bool,
    /// Calls all clients together may make.
    pub(crate) rate_limit: Option<RateLimit>,
    /// Calls each client may make.
    pub(crate) client_rate_limit: Option<RateLimit>,
}

impl Options {
    fn timeout_of(&self, tool: &str) -> Duration {
        self.tool_timeouts.get(tool).copied().unwrap_or(self.call_timeout)
    }

    /// A tool's result as it may be sent: with `validate-output`, structured content that
    /// breaks the tool's output schema becomes an internal error; an internal error's detail
    /// is logged, and kept from the client unless details are exposed.
    pub(crate) fn finish(&self, tool: &crate::Tool, result: CallToolResult) -> CallToolResult {
        #[cfg(feature = "validate-output")]
        let result = match tool.check_output(&result) {
            Ok(()) => result,
            Err(mismatch) => CallToolResult::internal(mismatch),
        };
        let Some(detail) = result.internal_detail() else {
            return result;
        };
        tracing::error!(
            tool = tool.name(),
            error = detail,
            "a tool failed with an internal error"
        );
        if self.expose_internal_errors {
            result.exposing_detail()
        } else {
            result
        }
    }
}

/// The legacy revisions, newest first: what `initialize` can negotiate.
const LEGACY: [ProtocolVersion; 4] = [
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_03_26,
    ProtocolVersion::V2024_11_05,
];

/// How one request is to be served.
#[derive(Clone)]
enum Era {
    /// Stateless, with the request's own metadata.
    Modern(ModernMeta),
    /// In the connection's legacy session.
    Legacy(Arc<LegacySession>),
}

#[derive(Clone)]
struct ModernMeta {
    version: ProtocolVersion,
    client_info: Option<Arc<Implementation>>,
    client_capabilities: Option<Arc<Value>>,
    log_level: Option<LoggingLevel>,
}

impl Era {
    fn version(&self) -> ProtocolVersion {
        match self {
            Era::Modern(meta) => meta.version,
            Era::Legacy(session) => session.version,
        }
    }

    fn is_modern(&self) -> bool {
        matches!(self, Era::Modern(_))
    }
}

/// A JSON-RPC error to answer with.
struct Failure {
    code: i32,
    message: String,
    data: Option<Value>,
}

impl Failure {
    fn new(code: i32, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            data: None,
        }
    }

    fn invalid_params(message: impl Into<String>) -> Failure {
        Failure::new(INVALID_PARAMS, message)
    }
}

type Outcome = Result<(), Failure>;

impl Engine {
    pub(crate) fn new(
        info: ServerInfo,
        registry: ToolRegistry,
        state: StateMap,
        options: Options,
        visibility: Option<Arc<Visibility>>,
    ) -> Engine {
        let identity = serde_json::value::to_raw_value(&info.implementation(ProtocolVersion::LATEST))
            .unwrap_or_default();
        let options_calls = options.max_concurrent_calls.min(Semaphore::MAX_PERMITS);
        Engine {
            limiters: RateLimiters::new(options.rate_limit, options.client_rate_limit),
            info,
            registry,
            state,
            options,
            visibility,
            identity,
            calls: Arc::new(Semaphore::new(options_calls)),
        }
    }

    /// Handles one incoming message (a line on stdio, a body on HTTP).
    pub(crate) fn handle(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        text: &[u8],
        out: &Outbox,
        auth: Auth<'_>,
    ) {
        let first = text.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'[') {
            self.handle_batch(conn, text, out, auth);
            return;
        }
        self.handle_message(conn, text, out, auth);
    }

    /// One message that is not a batch.
    fn handle_message(self: &Arc<Self>, conn: &Arc<Connection>, text: &[u8], out: &Outbox, auth: Auth<'_>) {
        match serde_json::from_slice::<Envelope<'_>>(text) {
            Ok(envelope) => self.handle_envelope(conn, envelope, out, auth),
            // What failed may be a call's params, read with the envelope: read them apart, so
            // the error goes back with the request's id.
            Err(error) => match Envelope::parse_without_call(text) {
                Ok(envelope) => self.handle_envelope(conn, envelope, out, auth),
                Err(_) => self.reject_unparsable(text, &error, out),
            },
        }
    }

    /// Checks a modern request's metadata (revision, capabilities, log level) before the
    /// HTTP layer commits to an answer; `Err` is the encoded error, which HTTP sends with
    /// status 400.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn preflight(
        &self,
        id: Option<&RawValue>,
        method: &str,
        params: Option<&RawValue>,
    ) -> Result<(), Vec<u8>> {
        let Ok((_, meta)) = parse_with_meta::<MetaOnly<'_>>(params) else {
            return Ok(()); // the engine reports malformed params itself
        };
        match self.era(&Connection::new(), method, meta.as_ref()) {
            Ok(_) => Ok(()),
            Err(failure) => Err(encode::error(id, failure.code, &failure.message, failure.data)),
        }
    }

    fn reject_unparsable(&self, text: &[u8], error: &serde_json::Error, out: &Outbox) {
        // Valid JSON that is not an object is an invalid request; anything else a parse error.
        let readable = if std::str::from_utf8(text).is_ok() {
            serde_json::from_slice::<serde::de::IgnoredAny>(text)
                .map(|_| ())
                .map_err(|_| ())
        } else {
            Err(())
        };
        let (code, message) = match readable {
            Ok(_) => {
                let kind = std::str::from_utf8(text)
                    .map_or("a value", |t| jsonrpc::describe_json_kind(t.trim_start()));
                let message = match kind {
                    // An object whose members are wrong, such as a member given twice.
                    "an object" => format!("invalid request: {}", strip_position(&error.to_string())),
                    kind => format!("a JSON-RPC message must be an object, not {kind}"),
                };
                (INVALID_REQUEST, message)
            }
            Err(()) if std::str::from_utf8(text).is_err() => (
                PARSE_ERROR,
                "parse error: the message is not valid UTF-8".to_owned(),
            ),
            Err(()) => (PARSE_ERROR, format!("parse error: {error}")),
        };
        tracing::debug!(code, %message, "rejected a message");
        out.respond(encode::error(None, code, &message, None));
    }

    fn handle_envelope(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        envelope: Envelope<'_>,
        out: &Outbox,
        auth: Auth<'_>,
    ) {
        match jsonrpc::classify(envelope) {
            Ok(Message::Request { id, method, params }) => {
                if let Err(failure) = self.request(conn, id, &method, params, out, auth) {
                    out.respond(encode::error(
                        Some(id.raw),
                        failure.code,
                        &failure.message,
                        failure.data,
                    ));
                }
            }
            Ok(Message::Notification { method, params }) => self.notification(conn, &method, params),
            Ok(Message::Response) => tracing::debug!("ignored a response: this server sends no requests"),
            Err(rejection) => out.respond(encode::error(
                rejection.id,
                rejection.code,
                &rejection.message,
                None,
            )),
        }
    }

    /// JSON-RPC batches, which only revision 2025-03-26 allows.
    fn handle_batch(self: &Arc<Self>, conn: &Arc<Connection>, text: &[u8], out: &Outbox, auth: Auth<'_>) {
        let elements = match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Ok(elements) => elements,
            Err(error) => return self.reject_unparsable(text, &error, out),
        };
        let version = conn.legacy().map(|s| s.version);
        if version != Some(ProtocolVersion::V2025_03_26) {
            let message = match version {
                Some(v) => format!("JSON-RPC batches are not part of protocol revision {v}; send one message at a time"),
                None => "JSON-RPC batches are allowed only after `initialize` negotiates revision 2025-03-26; send one message at a time".to_owned(),
            };
            return out.respond(encode::error(None, INVALID_REQUEST, &message, None));
        }
        if elements.is_empty() {
            return out.respond(encode::error(
                None,
                INVALID_REQUEST,
                "an empty batch is not a request",
                None,
            ));
        }
        // Responses are collected into one array; notifications go out as they happen.
        let (batch_out, mut responses) = out.batch();
        for element in elements {
            if element.get().starts_with('[') {
                // Batches do not nest.
                batch_out.respond(encode::error(
                    None,
                    INVALID_REQUEST,
                    "a JSON-RPC message must be an object, not an array",
                    None,
                ));
                continue;
            }
            self.handle_message(conn, element.get().as_bytes(), &batch_out, auth);
        }
        drop(batch_out);
        let out = out.clone();
        tokio::spawn(async move {
            let mut array = vec![b'['];
            while let Some(response) = responses.recv().await {
                if array.len() > 1 {
                    array.push(b',');
                }
                array.extend_from_slice(&response);
            }
            if array.len() > 1 {
                array.push(b']');
                out.respond(array);
            }
        });
    }

    fn notification(&self, conn: &Arc<Connection>, method: &str, params: Option<&RawValue>) {
        match method {
            "notifications/initialized" => conn.mark_initialized(),
            "notifications/cancelled" => match parse::<CancelledParams>(params) {
                Ok(p) => conn.cancel(&p.request_id),
                Err(error) => tracing::debug!(%error, "ignored a malformed cancellation"),
            },
            other => tracing::debug!(method = other, "ignored a notification"),
        }
    }

    fn request(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        method: &str,
        params: Option<Params<'_>>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let params = match params {
            Some(Params::Call(call)) => return self.tools_call(conn, id, call, out, auth),
            Some(Params::Raw(raw)) => Some(raw),
            Some(Params::NotObject(_)) | None => None,
        };
        match method {
            "tools/call" => {
                let call = match params {
                    Some(raw) => RawCall::deserialize(raw).map_err(|e| invalid_params(&e))?,
                    None => RawCall::default(),
                };
                self.tools_call(conn, id, call, out, auth)
            }
            "tools/list" => {
                let (list, meta) = parse_with_meta::<ListToolsParams<'_>>(params)?;
                let era = self.era(conn, method, meta.as_ref())?;
                self.list_tools(id, &era, list.cursor.as_deref(), out, auth)
            }
            // `initialize` is the legacy handshake; with 2026-07-28 metadata it is a method
            // that revision no longer has.
            "initialize" if !names_a_revision(params) => self.initialize(conn, id, params, out),
            _ => {
                let (_, meta) = parse_with_meta::<MetaOnly<'_>>(params)?;
                let era = self.era(conn, method, meta.as_ref())?;
                match (method, &era) {
                    ("server/discover", Era::Modern(_)) => {
                        out.respond(encode::discover(id.raw, self, &self.identity));
                        Ok(())
                    }
                    ("subscriptions/listen", Era::Modern(_)) => {
                        let listen: ListenParams = parse(params)
                            .map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
                        self.listen(conn, id, listen, out)
                    }
                    ("ping", Era::Legacy(_)) => {
                        out.respond(encode::empty_result(id.raw));
                        Ok(())
                    }
                    ("logging/setLevel", Era::Legacy(_)) => {
                        let set: SetLevelParams = parse(params)
                            .map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
                        conn.set_log_level(set.level);
                        out.respond(encode::empty_result(id.raw));
                        Ok(())
                    }
                    _ => Err(Failure::new(
                        METHOD_NOT_FOUND,
                        format!(
                            "method `{method}` is not served by this server in protocol revision {}",
                            era.version()
                        ),
                    )),
                }
            }
        }
    }

    /// Which era serves a request: its own `_meta` revision, else the connection's legacy
    /// session; a request with neither is refused, naming the ways in.
    fn era(&self, conn: &Connection, method: &str, meta: Option<&RequestMeta<'_>>) -> Result<Era, Failure> {
        let requested = meta.and_then(|m| m.protocol_version);
        let Some(requested) = requested else {
            if let Some(session) = conn.legacy() {
                return Ok(Era::Legacy(session));
            }
            if method == "ping" {
                // Legacy clients may ping before `initialize`.
                return Ok(Era::Legacy(Arc::new(LegacySession::pre_initialize())));
            }
            let mut failure = Failure::invalid_params(format!(
                "`{method}` needs a protocol revision: send `initialize` first (revisions 2024-11-05 to 2025-11-25), or name the revision in `params._meta[\"io.modelcontextprotocol/protocolVersion\"]` (2026-07-28)"
            ));
            failure.data = Some(json!({ "supported": supported_versions() }));
            return Err(failure);
        };
        let requested_text: Option<String> = serde_json::from_str(requested.get()).ok();
        let version = requested_text.as_deref().and_then(ProtocolVersion::parse);
        match version {
            Some(version) if version.is_modern() => {}
            Some(version) => {
                if let Some(session) = conn.legacy().filter(|s| s.version == version) {
                    return Ok(Era::Legacy(session));
                }
                return Err(Failure::invalid_params(format!(
                    "protocol revision {version} is served after the `initialize` handshake; send `initialize`, or use revision 2026-07-28 per request"
                )));
            }
            None => {
                let mut failure = Failure::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version");
                failure.data = Some(json!({
                    "supported": supported_versions(),
                    "requested": requested_text.map_or_else(|| Value::String(requested.get().to_owned()), Value::String),
                }));
                return Err(failure);
            }
        }
        let meta = meta.unwrap_or_else(|| unreachable!("a requested version implies `_meta`"));
        let Some(capabilities) = meta.client_capabilities else {
            return Err(Failure::invalid_params(
                "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is required in revision 2026-07-28 (send `{}` for none)",
            ));
        };
        let client_capabilities: Value = match serde_json::from_str(capabilities.get()) {
            Ok(value) => value,
            Err(error) if error.to_string().starts_with("recursion limit exceeded") => {
                return Err(Failure::invalid_params(
                    "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is nested too deeply",
                ));
            }
            Err(_) => Value::Null,
        };
        if !client_capabilities.is_object() {
            return Err(Failure::invalid_params(
                "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` must be an object",
            ));
        }
        let log_level = match meta.log_level {
            None => None,
            Some(raw) => Some(serde_json::from_str::<LoggingLevel>(raw.get()).map_err(|_| {
                Failure::invalid_params(format!(
                    "`params._meta[\"io.modelcontextprotocol/logLevel\"]` must be one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\"; received {}",
                    raw.get()
                ))
            })?),
        };
        let client_info = meta
            .client_info
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .map(Arc::new);
        Ok(Era::Modern(ModernMeta {
            version: ProtocolVersion::V2026_07_28,
            client_info,
            client_capabilities: Some(Arc::new(client_capabilities)),
            log_level,
        }))
    }

    fn initialize(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        params: Option<&RawValue>,
        out: &Outbox,
    ) -> Outcome {
        let params: InitializeParams = parse(params)
            .map_err(|e| Failure::invalid_params(format!("invalid `initialize` params: {e}")))?;
        // The client's revision when we speak it, else our newest legacy one.
        let version = ProtocolVersion::parse(&params.protocol_version)
            .filter(|v| !v.is_modern())
            .unwrap_or(LEGACY[0]);
        let session = LegacySession {
            version,
            initialized: false,
            client_info: params.client_info.map(Arc::new),
            client_capabilities: params.capabilities.map(Arc::new),
            log_level: None,
        };
        if let Err(existing) = conn.begin_legacy(session) {
            return Err(Failure::new(
                INVALID_REQUEST,
                format!("the connection is already initialized with protocol revision {existing}"),
            ));
        }
        // Watch from now, before the client can ask for anything: a change made by the very
        // next request must be announced, however late the watching task first runs.
        let mut changes = self.registry.watch();
        changes.mark_unchanged();
        out.respond(encode::initialize_result(id.raw, self, version));
        let conn = Arc::clone(conn);
        tokio::spawn(legacy_list_changed(conn, changes));
        Ok(())
    }

    fn list_tools(
        &self,
        id: Id<'_>,
        era: &Era,
        cursor: Option<&str>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let snapshot = self.registry.snapshot();
        // With a visibility rule the list depends on the caller: select, and say it is private.
        let visible: Option<Vec<usize>> = self.visibility.as_ref().map(|visible| {
            (0..snapshot.len())
                .filter(|&i| visible(snapshot.tool(i), auth.map(|p| &**p)))
                .collect()
        });
        let total = visible.as_ref().map_or(snapshot.len(), Vec::len);
        let start = match cursor {
            None => 0,
            Some(cursor) => decode_cursor(cursor)
                .filter(|&offset| offset <= total)
                .ok_or_else(|| Failure::invalid_params("Invalid cursor"))?,
        };
        let end = match self.options.page_size {
            Some(size) => start.saturating_add(size.max(1)).min(total),
            None => total,
        };
        let next = (end < total).then(|| encode_cursor(end));
        let page = match &visible {
            None => snapshot.page(era.version(), start..end),
            Some(indices) => std::borrow::Cow::Owned(snapshot.select(era.version(), &indices[start..end])),
        };
        let modern = era.is_modern().then_some(&*self.identity);
        let scope = if visible.is_some() { "private" } else { "public" };
        out.respond(encode::list_tools(
            id.raw,
            &page,
            next.as_deref(),
            modern,
            self.options.list_ttl_ms,
            scope,
        ));
        Ok(())
    }

    fn tools_call(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        call: RawCall<'_>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let call = call
            .check()
            .map_err(|e| Failure::invalid_params(format!("invalid params: {}", strip_position(&e))))?;
        let era = self.era(conn, "tools/call", call.meta.as_ref())?;
        self.call_tool(conn, id, era, call, out, auth)
    }

    fn call_tool(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        era: Era,
        call: CallToolParams<'_>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let snapshot = self.registry.snapshot();
        let visible = |tool: &&crate::Tool| {
            self.visibility
                .as_ref()
                .is_none_or(|v| v(tool, auth.map(|p| &**p)))
        };
        let Some(tool) = snapshot.get(&call.name).filter(visible) else {
            return Err(Failure::invalid_params(format!("Unknown tool: {}", call.name)));
        };
        let version = era.version();
        let modern = matches!(version, ProtocolVersion::V2026_07_28);
        let raw_id: Box<RawValue> = id.raw.to_owned();
        if !self.limiters.is_unlimited() {
            let client = || match auth {
                Some(principal) => ClientKey::Principal(principal.subject.clone()),
                None => conn.peer().map_or(ClientKey::Local, ClientKey::Address),
            };
            if let Err(refusal) = self.limiters.check(client) {
                tracing::debug!(tool = %call.name, "refused a call: {refusal}");
                let refused = CallToolResult::error(refusal);
                out.respond(self.encode_call(&raw_id, &refused, version, false, modern));
                return Ok(());
            }
        }
        let Ok(permit) = Arc::clone(&self.calls).try_acquire_owned() else {
            tracing::warn!(tool = %call.name, limit = self.options.max_concurrent_calls, "refused a call: too many in progress");
            let busy = CallToolResult::error(format!(
                "the server is busy: {} calls are in progress, its limit; try again shortly",
                self.options.max_concurrent_calls
            ));
            out.respond(self.encode_call(&raw_id, &busy, version, false, modern));
            return Ok(());
        };
        let (request_id, cancel) = begin(conn, id)?;
        let (client_info, client_capabilities, log_level) = match era {
            Era::Modern(m) => (m.client_info, m.client_capabilities, m.log_level),
            Era::Legacy(s) => (s.client_info.clone(), s.client_capabilities.clone(), s.log_level),
        };
        let progress_token = call
            .meta
            .as_ref()
            .and_then(|meta| meta.progress_token)
            .and_then(|raw| serde_json::from_str::<RequestId>(raw.get()).ok());
        let notifier = {
            let out = out.clone();
            let cancel = cancel.clone();
            Arc::new(move |n: Notification| {
                // Nothing more goes out for a cancelled request.
                if !cancel.is_cancelled() {
                    out.notify(encode::notification(n.method, &n.params));
                }
            })
        };
        let cx = Context::new(
            RequestInfo {
                request_id: Some(request_id.clone()),
                protocol_version: Some(version),
                client_info,
                client_capabilities,
                progress_token,
                log_level,
                lenient_arguments: self.options.lenient_arguments,
            },
            cancel.clone(),
            Some(notifier),
            self.state.clone(),
            Some(self.registry.clone()),
            auth.cloned(),
        );
        let wraps = tool.wraps_structured_output(version);
        let invocation = tool.invoke(&cx, call.arguments);

        // Answer at once when the tool finishes without waiting (most do); spawn otherwise.
        let mut work = Box::pin(invocation.run());
        if let Poll::Ready(result) = work
            .as_mut()
            .poll(&mut std::task::Context::from_waker(Waker::noop()))
        {
            conn.finish(&request_id);
            drop(permit);
            let result = self.options.finish(tool, result);
            out.respond(self.encode_call(&raw_id, &result, version, wraps, modern));
            return Ok(());
        }
        let engine = Arc::clone(self);
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let key = request_id.clone();
        let limit = self.options.timeout_of(tool.name());
        let tool = tool.clone();
        let task = conn.tasks().spawn(async move {
            let result = match tokio::time::timeout(limit, work).await {
                Ok(result) => engine.options.finish(&tool, result),
                Err(_) => {
                    let name = tool.name();
                    tracing::warn!(tool = name, ?limit, "a call ran out of time and was stopped");
                    CallToolResult::error(format!(
                        "the tool `{name}` did not finish within {} and was stopped",
                        describe_duration(limit)
                    ))
                }
            };
            drop(permit);
            let cancelled = cancel.is_cancelled();
            conn2.finish(&key);
            if !cancelled {
                out.respond(engine.encode_call(&raw_id, &result, version, wraps, modern));
            }
        });
        conn.set_abort(&request_id, task.abort_handle());
        drop(cx);
        Ok(())
    }

    /// A call's response; a result too large to send becomes an error result that says so.
    fn encode_call(
        &self,
        id: &RawValue,
        result: &CallToolResult,
        version: ProtocolVersion,
        wraps: bool,
        modern: bool,
    ) -> Vec<u8> {
        let identity = modern.then_some(&*self.identity);
        let encoded = encode::call_result(id, result, version, wraps, identity);
        let limit = self.options.max_result_bytes;
        if encoded.len() <= limit {
            return encoded;
        }
        tracing::warn!(bytes = encoded.len(), limit, "a result was too large to send");
        let refused = CallToolResult::error(format!(
            "the result is {} bytes, more than this server sends ({limit} bytes); ask for less",
            encoded.len()
        ));
        encode::call_result(id, &refused, version, false, identity)
    }

    /// `subscriptions/listen`: acknowledge, then forward list changes until cancelled.
    fn listen(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        params: ListenParams,
        out: &Outbox,
    ) -> Outcome {
        let (request_id, cancel) = begin(conn, id)?;
        let tools = params.notifications.tools_list_changed == Some(true);
        let subscription: Value = serde_json::from_str(id.raw.get()).unwrap_or(Value::Null);
        let mut agreed = serde_json::Map::new();
        if tools {
            agreed.insert("toolsListChanged".into(), Value::Bool(true));
        }
        out.notify(encode::notification(
            "notifications/subscriptions/acknowledged",
            &json!({ "_meta": { META_SUBSCRIPTION_ID: subscription }, "notifications": agreed }),
        ));
        let mut changes = self.registry.watch();
        changes.mark_unchanged();
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let conn2 = Arc::clone(conn);
        let engine = Arc::clone(self);
        let out = out.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = conn2.closed() => break,
                    _ = cancel.cancelled() => {
                        out.respond(encode::listen_closed(&raw_id, &subscription, &engine.identity));
                        break;
                    }
                    changed = changes.changed(), if tools => {
                        if changed.is_err() {
                            break;
                        }
                        out.notify(encode::notification(
                            "notifications/tools/list_changed",
                            &json!({ "_meta": { META_SUBSCRIPTION_ID: subscription } }),
                        ));
                    }
                }
            }
            conn2.finish(&request_id);
        });
        Ok(())
    }
}

/// Sends `notifications/tools/list_changed` to a legacy connection on every change, on its
/// stream for unsolicited messages (stdout; HTTP's GET stream), until it closes.
async fn legacy_list_changed(
    conn: Arc<Connection>,
    mut changes: tokio::sync::watch::Receiver<Arc<crate::registry::Snapshot>>,
) {
    loop {
        tokio::select! {
            _ = conn.closed() => return,
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                conn.send_unsolicited(encode::notification("notifications/tools/list_changed", &json!({})));
            }
        }
    }
}

/// Records a request in flight, refusing an id already in use; returns its id and the
/// token that cancels it.
fn begin(conn: &Connection, id: Id<'_>) -> Result<(RequestId, CancellationToken), Failure> {
    let request_id = id.value();
    let cancel = CancellationToken::new();
    if !conn.begin(request_id.clone(), InFlight::new(cancel.clone())) {
        return Err(Failure::new(
            INVALID_REQUEST,
            format!("request id {request_id} is already in use by a request in flight; use a new id"),
        ));
    }
    Ok((request_id, cancel))
}

/// An error response, for transports that refuse a message before the engine sees it.
pub(crate) fn encode_error(id: Option<&RawValue>, code: i32, message: &str) -> Vec<u8> {
    encode::error(id, code, message, None)
}

/// Whether params carry `_meta["io.modelcontextprotocol/protocolVersion"]`.
fn names_a_revision(params: Option<&RawValue>) -> bool {
    parse_with_meta::<MetaOnly<'_>>(params)
        .is_ok_and(|(_, meta)| meta.is_some_and(|m| m.protocol_version.is_some()))
}

/// Every revision this server speaks, newest first.
fn supported_versions() -> Vec<&'static str> {
    ProtocolVersion::ALL.iter().rev().map(|v| v.as_str()).collect()
}

/// Parses params; absent params read as `{}`, so required fields are reported missing.
fn parse<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, String> {
    serde_json::from_str(params.map_or("{}", RawValue::get))
        .map_err(|e| strip_position(&e.to_string()).to_owned())
}

/// Parses a method's params and their `_meta` in one pass over the request.
fn parse_with_meta<'a, T: Deserialize<'a> + WithMeta<'a>>(
    params: Option<&'a RawValue>,
) -> Result<(T, Option<RequestMeta<'a>>), Failure> {
    let text = params.map_or("{}", RawValue::get);
    match serde_json::from_str::<T>(text) {
        Ok(mut parsed) => {
            let meta = parsed.take_meta();
            Ok((parsed, meta))
        }
        Err(error) => Err(invalid_params(&error)),
    }
}

fn invalid_params(error: &serde_json::Error) -> Failure {
    Failure::invalid_params(format!("invalid params: {}", strip_position(&error.to_string())))
}

fn strip_position(message: &str) -> &str {
    message.rfind(" at line ").map_or(message, |i| &message[..i])
}

fn encode_cursor(offset: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("offset:{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("offset:")?
        .parse()
        .ok()
}

impl Default for Options {
    fn default() -> Options {
        Options {
            page_size: None,
            list_ttl_ms: 60_000,
            max_message_bytes: 16 * 1024 * 1024,
            max_result_bytes: 16 * 1024 * 1024,
            max_concurrent_calls: 1024,
            call_timeout: Duration::from_secs(60),
            tool_timeouts: HashMap::new(),
            lenient_arguments: false,
            expose_internal_errors: false,
            rate_limit: None,
            client_rate_limit: None,
        }
    }
}

/// `2 s`, `150 ms`, `1.5 s`.
fn describe_duration(duration: Duration) -> String {
    match duration.as_millis() {
        ms if ms < 1000 => format!("{ms} ms"),
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        _ => format!("{:.1} s", duration.as_secs_f64()),
    }
}
