//! The middleware around each request ([`crate::middleware`]), when the server has any:
//! their `on_request` in the order added, then the method (or the answer one of them gave
//! instead) with an outbox that shows them every message sent for the request.

use crate::engine::state::core::{Auth, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode::{self, respond_failure};
use crate::engine::wire::failure::Failure;
use crate::engine::wire::outbox::{Answer, Watch, hook};
use crate::middleware::{Exchange, Flow, Request};
use crate::protocol::jsonrpc::{Id, Params};
use crate::protocol::messages::ParamsHead;
use crate::protocol::{ErrorCode, ProtocolVersion};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;
use tracing::Span;

impl Engine {
    /// Serves a request through the middleware.
    pub(super) fn through_middleware(
        self: &Arc<Self>,
        req: Handle<'_>,
        method: &str,
        params: Option<Params<'_>>,
        span: &Span,
    ) {
        let Handle { conn, id, out, auth } = req;
        let mut exchange = exchange_of(conn, id, method, params.as_ref(), auth);
        let mut edited = false;
        let mut flow = Flow::Continue;
        let mut entered = 0;
        for layer in self.middleware.iter() {
            entered += 1;
            // A middleware that panics answers for itself: an internal error, nothing leaked.
            flow = hook("on_request", || {
                layer.on_request(&mut Request::new(&mut exchange, &mut edited, span))
            })
            .unwrap_or_else(|| Flow::Reject(ErrorCode::INTERNAL_ERROR, "internal error".to_owned()));
            if flow != Flow::Continue {
                break;
            }
        }
        let meta = edited
            .then(|| serde_json::value::to_raw_value(exchange.meta()).ok())
            .flatten();
        let _entered = span.enter();
        let modern = exchange.is_modern();
        let watch = Arc::new(Watch::new(exchange, Arc::clone(&self.middleware), entered));
        let out = out.watched(watch);
        match flow {
            Flow::Answer(mut result) => {
                // Answered as the method would have been, in its revision.
                if modern {
                    encode::mark_complete(&mut result, &self.identity);
                }
                // A tool's error result, given for the tool, is one to the other middleware.
                let answer = match result.get("isError") {
                    Some(Value::Bool(true)) if method == "tools/call" => Answer::ToolError,
                    _ => Answer::Complete,
                };
                out.respond_as(encode::result(id.raw, &result), answer);
            }
            Flow::Reject(code, message) => respond_failure(&out, Some(id.raw), Failure::new(code, message)),
            _ => {
                let rewritten;
                let params = match (params, &meta) {
                    (Some(Params::Call(call)), Some(meta)) => Some(Params::Call(call.with_meta(meta))),
                    (Some(Params::Raw(raw)), Some(meta)) => {
                        rewritten = with_meta(raw, meta);
                        rewritten.as_deref().map(Params::Raw)
                    }
                    (None, Some(meta)) => {
                        rewritten = RawValue::from_string(format!("{{\"_meta\":{}}}", meta.get())).ok();
                        rewritten.as_deref().map(Params::Raw)
                    }
                    (params, _) => params,
                };
                if let Err(failure) = self.request(
                    Handle {
                        conn,
                        id,
                        out: &out,
                        auth,
                    },
                    method,
                    params,
                ) {
                    respond_failure(&out, Some(id.raw), failure);
                }
            }
        }
    }
}

/// What the middleware learn of a request: its method, the name it targets, its id, caller,
/// revision and `_meta`.
fn exchange_of(
    conn: &Connection,
    id: Id<'_>,
    method: &str,
    params: Option<&Params<'_>>,
    auth: Auth<'_>,
) -> Exchange {
    let head = match params {
        Some(Params::Call(call)) => call.head(),
        Some(Params::Raw(raw)) => ParamsHead::read(raw),
        Some(Params::NotObject(_)) | None => ParamsHead::default(),
    };
    let target = match method {
        "tools/call" | "prompts/get" => head.name,
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => head.uri,
        _ => None,
    };
    let name = target.and_then(text_of);
    let version = head
        .version()
        .and_then(text_of)
        .and_then(|text| ProtocolVersion::parse(&text))
        .or_else(|| conn.legacy().map(|session| session.version));
    Exchange::new(
        method,
        name.as_deref(),
        id.raw.get(),
        auth.cloned(),
        conn.peer(),
        version,
        head.meta.map(RawValue::get),
    )
}

/// A JSON string's text: borrowed when it has no escapes (a name nearly always), else
/// decoded.
fn text_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    let quoted = raw.get();
    match quoted.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
        Some(text) if !text.contains('\\') => Some(Cow::Borrowed(text)),
        _ => Cow::<str>::deserialize(raw).ok(),
    }
}

/// Params `raw` (an object) with `_meta` replaced.
fn with_meta(raw: &RawValue, meta: &RawValue) -> Option<Box<RawValue>> {
    let mut members: Map<String, Value> = serde_json::from_str(raw.get()).ok()?;
    members.insert("_meta".into(), serde_json::from_str(meta.get()).ok()?);
    serde_json::value::to_raw_value(&members).ok()
}
