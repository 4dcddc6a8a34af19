//! The span each request runs in: a `tracing` span with the fields of the OpenTelemetry
//! semantic conventions for MCP servers, made when the request is routed and held until its
//! response is sent (by the task of a call that waits), and what it records of the outcome.
//!
//! The span is at `INFO`, target [`TARGET`]: a request is the unit an operator traces, so a
//! subscriber at its usual level sees it, and one that filters the target out (or none at
//! all) pays one check per request and builds nothing. Its fields follow the conventions'
//! names; `otel.name` (`tools/call add`) and `otel.kind` are for tracing-opentelemetry, which
//! exports the span with that name, as a server span.

use crate::engine::wire::connection::{Carrier, Connection};
use crate::protocol::ErrorCode;
use crate::protocol::jsonrpc::{Id, Params};
use crate::protocol::messages::ParamsHead;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use tracing::Span;
use tracing::field::Empty;

/// The target of request spans, for filters (`mcp_toolkit::request=info`).
pub(crate) const TARGET: &str = "mcp_toolkit::request";

/// The span's name for `tracing`; OpenTelemetry gets `otel.name` instead.
const NAME: &str = "mcp.request";

/// Names the tool a `call_tool` of tool search called in the current request's span, in
/// place of `call_tool`.
pub(crate) fn record_call(tool: &str) {
    let span = Span::current();
    span.record("gen_ai.tool.name", tool);
    span.record("otel.name", format!("tools/call {tool}"));
}

/// Records what a request targets: the tool, prompt or resource, and the span's name.
fn record_target(span: &Span, method: &str, head: &ParamsHead<'_>) {
    let target = head.name.and_then(string_of);
    match method {
        "tools/call" => {
            if let Some(name) = &target {
                span.record("gen_ai.tool.name", &**name);
            }
            span.record("gen_ai.operation.name", "execute_tool");
        }
        "prompts/get" => {
            if let Some(name) = &target {
                span.record("gen_ai.prompt.name", &**name);
            }
        }
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
            if let Some(uri) = head.uri.and_then(string_of) {
                span.record("mcp.resource.uri", &*uri);
            }
        }
        _ => {}
    }
    // The resource's URI is not in the name: the conventions keep names low in
    // cardinality.
    match (method, &target) {
        ("tools/call" | "prompts/get", Some(name)) => {
            span.record("otel.name", format!("{method} {name}"));
        }
        _ => {
            span.record("otel.name", method);
        }
    }
}

/// Records what is known of the connection a request came on.
fn record_connection(span: &Span, conn: &Connection) {
    if let Some(session) = conn.session_id() {
        span.record("mcp.session.id", session);
    }
    match conn.carrier() {
        Carrier::Stdio => {
            span.record("network.transport", "pipe");
        }
        Carrier::Http => {
            span.record("network.transport", "tcp");
            span.record("network.protocol.name", "http");
        }
        Carrier::Unknown => {}
    }
    if let Some(peer) = conn.peer() {
        span.record("client.address", peer.to_string());
    }
}

/// The span of one request, and whether its revision was known when it began.
pub(crate) struct RequestSpan {
    span: Span,
    /// Whether `mcp.protocol.version` is recorded: `initialize` learns it by running.
    versioned: bool,
}

impl RequestSpan {
    /// The span of the request `id` for `method` on `conn`, with its fields when a
    /// subscriber wants it. Its remote parent (feature `otel`) is set by a middleware,
    /// `otel::TraceContext`, before the span is entered.
    pub(crate) fn start(
        conn: &Connection,
        id: Id<'_>,
        method: &str,
        params: Option<&Params<'_>>,
    ) -> RequestSpan {
        let span = tracing::info_span!(
            target: TARGET,
            NAME,
            "otel.name" = Empty,
            "otel.kind" = "server",
            "otel.status_code" = Empty,
            "otel.status_description" = Empty,
            "mcp.method.name" = method,
            "jsonrpc.request.id" = Empty,
            "mcp.protocol.version" = Empty,
            "mcp.session.id" = Empty,
            "gen_ai.tool.name" = Empty,
            "gen_ai.prompt.name" = Empty,
            "gen_ai.operation.name" = Empty,
            "mcp.resource.uri" = Empty,
            "network.transport" = Empty,
            "network.protocol.name" = Empty,
            "client.address" = Empty,
            "error.type" = Empty,
            "rpc.response.status_code" = Empty,
        );
        if span.is_disabled() {
            return RequestSpan {
                span,
                versioned: true,
            };
        }
        let head = match params {
            Some(Params::Call(call)) => call.head(),
            Some(Params::Raw(raw)) => ParamsHead::read(raw),
            Some(Params::NotObject(_)) | None => ParamsHead::default(),
        };
        span.record("jsonrpc.request.id", &*text_of(id.raw));
        record_target(&span, method, &head);
        let version = head
            .version()
            .and_then(string_of)
            .map(Cow::into_owned)
            .or_else(|| conn.legacy().map(|session| session.version.as_str().to_owned()));
        if let Some(version) = &version {
            span.record("mcp.protocol.version", version.as_str());
        }
        record_connection(&span, conn);
        RequestSpan {
            span,
            versioned: version.is_some(),
        }
    }

    /// The span, to enter while the request is routed.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Records what routing the request taught: the revision `initialize` negotiated.
    pub(crate) fn routed(&self, conn: &Connection) {
        if !self.versioned
            && let Some(session) = conn.legacy()
        {
            self.span.record("mcp.protocol.version", session.version.as_str());
        }
    }
}

/// The text of a JSON string, or the JSON itself (a number).
fn text_of(raw: &RawValue) -> Cow<'_, str> {
    string_of(raw).unwrap_or(Cow::Borrowed(raw.get()))
}

fn string_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    Cow::<str>::deserialize(raw).ok()
}

/// The request span being served on this thread, if any.
fn current() -> Option<Span> {
    let span = Span::current();
    span.metadata()
        .is_some_and(|meta| meta.target() == TARGET && meta.name() == NAME)
        .then_some(span)
}

/// Records that the current request ends with the JSON-RPC error `code`: `error.type` and
/// `rpc.response.status_code` are the code, and the span's status is an error with the
/// message.
pub(crate) fn failed(code: ErrorCode, message: &str) {
    if let Some(span) = current() {
        let code = code.to_string();
        span.record("error.type", code.as_str());
        span.record("rpc.response.status_code", code.as_str());
        span.record("otel.status_code", "error");
        span.record("otel.status_description", message);
    }
}

/// Records that the current request's tool result has `isError`: `error.type` is
/// `tool_error`, as the conventions name it.
pub(crate) fn tool_failed() {
    if let Some(span) = current() {
        span.record("error.type", "tool_error");
        span.record("otel.status_code", "error");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_recorded_as_text() {
        let number = RawValue::from_string("7".to_owned()).unwrap();
        let string = RawValue::from_string(r#""req-\u0037""#.to_owned()).unwrap();
        assert_eq!(text_of(&number), "7");
        assert_eq!(text_of(&string), "req-7");
    }
}
