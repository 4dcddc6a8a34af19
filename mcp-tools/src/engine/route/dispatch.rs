//! One incoming message in: parsed once, checked as JSON-RPC, and routed to its method's
//! handler (`lifecycle`, `tools`, `subscriptions`), a client's response to the call
//! waiting on it (`client`), and a notification to its effect.

use crate::engine::asks::client::{route_response, withdraw};
use crate::engine::state::core::{Auth, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::tasks;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode::{self, respond_failure};
use crate::engine::wire::era::{Era, era_of};
use crate::engine::wire::failure::{Failure, Outcome, parse, parse_with_meta, strip_position};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::telemetry::RequestSpan;
use crate::protocol::arguments::RawArguments;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::jsonrpc::{self, Envelope, Message, Params};
use crate::protocol::messages::{
    CancelledParams, ListToolsParams, ListenParams, MetaOnly, ParamsHead, RawCall,
};
use crate::protocol::{ErrorCode, ProtocolVersion};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::Arc;

/// One incoming body (a line on stdio, a POST on HTTP), parsed once: the transport reads
/// what it must of it (the method, the target, the revision) and hands it to
/// [`Engine::serve`], which reads no byte of it again.
pub(crate) struct Incoming<'a> {
    text: &'a [u8],
    parsed: Parsed<'a>,
}

// Boxing the envelope would cost every message an allocation; `Batch` is the rare one.
#[allow(clippy::large_enum_variant)]
enum Parsed<'a> {
    /// A JSON-RPC batch: its elements are parsed one by one as they are served.
    Batch,
    One(Result<Envelope<'a>, serde_json::Error>),
}

impl<'a> Incoming<'a> {
    pub(crate) fn parse(text: &'a [u8]) -> Incoming<'a> {
        let first = text.iter().find(|b| !b.is_ascii_whitespace());
        let parsed = if first == Some(&b'[') {
            Parsed::Batch
        } else {
            Parsed::One(match Envelope::parse(text) {
                Ok(envelope) => Ok(envelope),
                // What failed may be a call's params, read with the envelope: read them
                // apart, so the error goes back with the request's id.
                Err(error) => Envelope::parse_without_call(text).map_err(|_| error),
            })
        };
        Incoming { text, parsed }
    }

    /// The message as it arrived.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn text(&self) -> &'a [u8] {
        self.text
    }

    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn is_batch(&self) -> bool {
        matches!(self.parsed, Parsed::Batch)
    }

    /// The message, when it is one JSON-RPC object.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn envelope(&self) -> Option<&Envelope<'a>> {
        match &self.parsed {
            Parsed::One(Ok(envelope)) => Some(envelope),
            _ => None,
        }
    }

    /// The `method`, when it is a string.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn method(&self) -> Option<Cow<'a, str>> {
        let raw = self.envelope()?.method?.get();
        // A string without escapes is its own text between the quotes.
        match raw.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            Some(text) if !text.contains('\\') => Some(Cow::Borrowed(text)),
            _ => Cow::<str>::deserialize(self.envelope()?.method?).ok(),
        }
    }

    /// A `tools/call`'s arguments, as read in the envelope's pass.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn call_arguments(&self) -> Option<&RawArguments<'a>> {
        match self.envelope()?.params.as_ref()? {
            Params::Call(call) => Some(call.arguments()),
            Params::Raw(_) | Params::NotObject(_) => None,
        }
    }

    /// The params' target and revision, read leniently.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn head(&self) -> ParamsHead<'a> {
        match self.envelope().and_then(|e| e.params.as_ref()) {
            Some(Params::Call(call)) => call.head(),
            Some(Params::Raw(raw)) => ParamsHead::read(raw),
            Some(Params::NotObject(_)) | None => ParamsHead::default(),
        }
    }
}

impl Engine {
    /// Handles one incoming message (a line on stdio, a body on HTTP).
    pub(crate) fn handle(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        text: &[u8],
        out: &Outbox,
        auth: Auth<'_>,
    ) {
        self.serve(conn, Incoming::parse(text), out, auth);
    }

    /// Serves a message already parsed.
    pub(crate) fn serve(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        incoming: Incoming<'_>,
        out: &Outbox,
        auth: Auth<'_>,
    ) {
        match incoming.parsed {
            Parsed::Batch => self.handle_batch(conn, incoming.text, out, auth),
            Parsed::One(Ok(envelope)) => self.handle_envelope(conn, envelope, out, auth),
            Parsed::One(Err(error)) => reject_unparsable(incoming.text, &error, out),
        }
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
                // The request's span: entered while it is routed, and carried by the task of
                // a call that waits until its response is sent.
                let span = RequestSpan::start(conn, id, &method, params.as_ref());
                let req = Handle { conn, id, out, auth };
                if self.middleware.iter().any(|layer| !layer.is_idle()) {
                    // The middleware see the span before it is entered: one may give it a
                    // parent (OpenTelemetry's trace context).
                    self.through_middleware(req, &method, params, span.span());
                } else {
                    let _entered = span.span().enter();
                    if let Err(failure) = self.request(req, &method, params) {
                        respond_failure(out, Some(id.raw), failure);
                    }
                }
                span.routed(conn);
            }
            Ok(Message::Notification { method, params }) => match self.extensions.method(&method) {
                Some(custom) => self.method_notification(conn, custom, params),
                None => notification(conn, &method, params),
            },
            Ok(Message::Response { id, result, error }) => route_response(conn, id, result, error),
            Err(rejection) => {
                respond_failure(out, rejection.id, Failure::new(rejection.code, rejection.message))
            }
        }
    }

    /// JSON-RPC batches, which only revision 2025-03-26 allows.
    fn handle_batch(self: &Arc<Self>, conn: &Arc<Connection>, text: &[u8], out: &Outbox, auth: Auth<'_>) {
        let elements = match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Ok(elements) => elements,
            Err(error) => return reject_unparsable(text, &error, out),
        };
        let version = conn.legacy().map(|s| s.version);
        if version != Some(ProtocolVersion::V2025_03_26) {
            let message = match version {
                Some(v) => format!("JSON-RPC batches are not part of protocol revision {v}; send one message at a time"),
                None => "JSON-RPC batches are allowed only after `initialize` negotiates revision 2025-03-26; send one message at a time".to_owned(),
            };
            return respond_failure(out, None, Failure::new(ErrorCode::INVALID_REQUEST, message));
        }
        if elements.is_empty() {
            return respond_failure(
                out,
                None,
                Failure::new(ErrorCode::INVALID_REQUEST, "an empty batch is not a request"),
            );
        }
        // Responses are collected into one array; notifications go out as they happen.
        let (batch_out, mut responses) = out.batch();
        for element in elements {
            let text = element.get().as_bytes();
            match Incoming::parse(text).parsed {
                Parsed::One(Ok(envelope)) => self.handle_envelope(conn, envelope, &batch_out, auth),
                Parsed::One(Err(error)) => reject_unparsable(text, &error, &batch_out),
                // Batches do not nest.
                Parsed::Batch => respond_failure(
                    &batch_out,
                    None,
                    Failure::new(
                        ErrorCode::INVALID_REQUEST,
                        "a JSON-RPC message must be an object, not an array",
                    ),
                ),
            }
        }
        drop(batch_out);
        let out = out.clone();
        tokio::spawn(async move {
            let mut array = vec![b'['];
            while let Some(response) = responses.recv().await {
                if array.len() > 1 {
                    array.push(b',');
                }
                array.extend_from_slice(&response.bytes);
            }
            if array.len() > 1 {
                array.push(b']');
                out.respond(array);
            }
        });
    }

    /// Routes a request to its method's handler.
    pub(super) fn request(
        self: &Arc<Self>,
        req: Handle<'_>,
        method: &str,
        params: Option<Params<'_>>,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        if let Some(custom) = self.extensions.method(method) {
            return self.call_method(req, custom.clone(), params);
        }
        let params = match params {
            Some(Params::Call(call)) => return self.tools_call(req, call),
            Some(Params::Raw(raw)) => Some(raw),
            Some(Params::NotObject(_)) | None => None,
        };
        match method {
            "tools/call" => {
                let call = match params {
                    Some(raw) => RawCall::deserialize(raw)
                        .map_err(|e| crate::engine::wire::failure::invalid_params(&e))?,
                    None => RawCall::default(),
                };
                self.tools_call(req, call)
            }
            "tools/list" => {
                let (list, meta) = parse_with_meta::<ListToolsParams<'_>>(params)?;
                let era = era_of(conn, method, meta.as_ref())?;
                self.list_tools(req, &era, list.cursor.as_deref())
            }
            "prompts/list" => {
                let (list, meta) = parse_with_meta::<ListToolsParams<'_>>(params)?;
                let era = era_of(conn, method, meta.as_ref())?;
                self.list_prompts(id, &era, list.cursor.as_deref(), out, auth)
            }
            "completion/complete" => self.complete(req, params),
            "resources/list" | "resources/templates/list" => {
                let (list, meta) = parse_with_meta::<ListToolsParams<'_>>(params)?;
                let era = era_of(conn, method, meta.as_ref())?;
                let templates = method == "resources/templates/list";
                self.list_resources(id, &era, list.cursor.as_deref(), out, templates, auth)
            }
            "resources/read" => self.resources_read(req, params),
            "skills/list" | "skills/get" | "resources/directory/read" if self.has_skills() => {
                self.skills_request(req, method, params)
            }
            "prompts/get" => {
                let request = match params {
                    Some(raw) => RawCall::deserialize(raw)
                        .map_err(|e| crate::engine::wire::failure::invalid_params(&e))?,
                    None => RawCall::default(),
                };
                self.prompts_get(req, request)
            }
            // `initialize` is the legacy handshake; with 2026-07-28 metadata it is a method
            // that revision no longer has.
            "initialize" if !names_a_revision(params) => self.initialize(req, params),
            _ => self.request_in_era(req, method, params),
        }
    }

    /// Routes a request whose method is served by era: the methods one revision has and
    /// another has not.
    fn request_in_era(self: &Arc<Self>, req: Handle<'_>, method: &str, params: Option<&RawValue>) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        let (_, meta) = parse_with_meta::<MetaOnly<'_>>(params)?;
        let era = era_of(conn, method, meta.as_ref())?;
        match (method, &era) {
            ("server/discover", Era::Modern(_)) => self.discover(id, out),
            ("tasks/get" | "tasks/update" | "tasks/cancel", Era::Modern(meta)) if self.has_task_tools() => {
                if !tasks::declares_tasks(meta.client_capabilities.as_deref()) {
                    return Err(tasks::missing_extension(format!(
                        "`{method}` needs the `{}` extension: declare it in the request's client capabilities",
                        tasks::EXTENSION
                    )));
                }
                let request: TaskRequest =
                    parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
                match method {
                    "tasks/get" => self.tasks_get(req, request.task_id),
                    "tasks/cancel" => self.tasks_cancel(req, request.task_id),
                    _ => {
                        let responses = request.input_responses.unwrap_or_default();
                        self.tasks_update(req, request.task_id, responses)
                    }
                }
            }
            ("subscriptions/listen", Era::Modern(_)) => {
                let listen: ListenParams =
                    parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
                let declares = match &era {
                    Era::Modern(meta) => tasks::declares_tasks(meta.client_capabilities.as_deref()),
                    Era::Legacy(_) => false,
                };
                self.listen(req, listen, declares)
            }
            ("ping", Era::Legacy(_)) => {
                out.respond(encode::empty_result(id.raw));
                Ok(())
            }
            ("logging/setLevel", Era::Legacy(_)) => Self::set_level(req, params),
            ("resources/subscribe", Era::Legacy(_)) => self.resources_subscribe(req, params, &era),
            ("resources/unsubscribe", Era::Legacy(_)) => self.resources_unsubscribe(req, params),
            _ => Err(Failure::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "method `{}` is not served by this server in protocol revision {}",
                    clip(method, QUOTED_NAME_CHARS),
                    era.version()
                ),
            )),
        }
    }
}

/// The params of `tasks/get`, `tasks/update` and `tasks/cancel`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskRequest {
    task_id: String,
    /// `tasks/update`'s answers, by the keys of the questions they answer.
    #[serde(default)]
    input_responses: Option<serde_json::Map<String, serde_json::Value>>,
}

fn notification(conn: &Arc<Connection>, method: &str, params: Option<&RawValue>) {
    match method {
        "notifications/initialized" => conn.mark_initialized(),
        "notifications/cancelled" => match parse::<CancelledParams>(params) {
            Ok(p) => {
                for withdrawn in conn.cancel(&p.request_id) {
                    withdraw(&withdrawn.id, &withdrawn.out);
                }
            }
            Err(error) => tracing::debug!(%error, "ignored a malformed cancellation"),
        },
        // Tools ask for the roots when they need them (`Context::list_roots`), never from a
        // copy kept here, so a change needs nothing more than the next ask.
        "notifications/roots/list_changed" => tracing::debug!("the client's roots changed"),
        other => tracing::debug!(method = other, "ignored a notification"),
    }
}

/// Answers a message that is not JSON, or not a JSON-RPC object.
fn reject_unparsable(text: &[u8], error: &serde_json::Error, out: &Outbox) {
    // Valid JSON that is not an object is an invalid request; anything else a parse error.
    let utf8 = std::str::from_utf8(text);
    let readable = utf8.is_ok() && serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
    let (code, message) = if readable {
        let kind = utf8.map_or("a value", |t| jsonrpc::describe_json_kind(t.trim_start()));
        let message = match kind {
            // An object whose members are wrong, such as a member given twice.
            "an object" => format!("invalid request: {}", strip_position(&error.to_string())),
            kind => format!("a JSON-RPC message must be an object, not {kind}"),
        };
        (ErrorCode::INVALID_REQUEST, message)
    } else if utf8.is_err() {
        (
            ErrorCode::PARSE_ERROR,
            "parse error: the message is not valid UTF-8".to_owned(),
        )
    } else {
        (ErrorCode::PARSE_ERROR, format!("parse error: {error}"))
    };
    tracing::debug!(code = code.get(), %message, "rejected a message");
    respond_failure(out, None, Failure::new(code, message));
}

/// Whether params carry `_meta["io.modelcontextprotocol/protocolVersion"]`.
fn names_a_revision(params: Option<&RawValue>) -> bool {
    parse_with_meta::<MetaOnly<'_>>(params)
        .is_ok_and(|(_, meta)| meta.is_some_and(|m| m.protocol_version.is_some()))
}
