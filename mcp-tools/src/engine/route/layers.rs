//! The middleware around each request ([`crate::middleware`]), when the server has any:
//! their `on_request` in the order added, then the method (or the answer one of them gave
//! instead) with an outbox that shows them every message sent for the request.

use crate::engine::state::core::{Auth, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode::{self, respond_failure};
use crate::engine::wire::failure::Failure;
use crate::engine::wire::outbox::{Answer, Outbox, Watch, hook};
use crate::middleware::{Flow, Hook, Opening, Request};
use crate::protocol::ErrorCode;
use crate::protocol::jsonrpc::{Id, Params};
use crate::protocol::messages::ParamsHead;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
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
        let mut watch = Watch::open(opening(conn, id, method, params.as_ref(), auth), &self.middleware);
        let opened = Arc::get_mut(&mut watch).expect("a watch just opened is held nowhere else");
        let mut edited = false;
        let mut flow = Flow::Continue;
        for layer in self.middleware.iter() {
            opened.entered += 1;
            if !layer.keeps(Hook::Request) {
                continue;
            }
            // A middleware that panics answers for itself: an internal error, nothing leaked.
            flow = layer
                .call(Hook::Request, |middleware| {
                    hook("on_request", || {
                        middleware.on_request(&mut Request::new(&mut opened.exchange, &mut edited, span))
                    })
                })
                .unwrap_or_else(|| Flow::Reject(ErrorCode::INTERNAL_ERROR, "internal error".to_owned()));
            if flow != Flow::Continue {
                break;
            }
        }
        let meta = edited
            .then(|| serde_json::value::to_raw_value(opened.exchange.meta()).ok())
            .flatten();
        let _entered = span.enter();
        let modern = matches!(flow, Flow::Answer(_)) && opened.exchange.is_modern();
        // Middleware that leave `on_message` and `on_end` to their defaults are shown nothing
        // more: the exchange is done with.
        let watching = self.middleware[..opened.entered]
            .iter()
            .any(|layer| layer.keeps(Hook::Message) || layer.keeps(Hook::End));
        let watched = if watching {
            Some(out.watched(watch))
        } else {
            Watch::close(watch);
            None
        };
        let out = watched.as_ref().unwrap_or(out);
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
            Flow::Reject(code, message) => respond_failure(out, Some(id.raw), Failure::new(code, message)),
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
                if let Err(failure) = self.request(Handle { conn, id, out, auth }, method, params) {
                    respond_failure(out, Some(id.raw), failure);
                }
            }
        }
        if let Some(watch) = watched.and_then(Outbox::into_watch) {
            Watch::close(watch);
        }
    }
}

/// What the middleware learn of a request: its method, the name it targets, its id, caller,
/// revision and `_meta`, all read only when one asks.
fn opening<'a>(
    conn: &Connection,
    id: Id<'a>,
    method: &'a str,
    params: Option<&Params<'a>>,
    auth: Auth<'_>,
) -> Opening<'a> {
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
    Opening {
        method,
        id: id.raw.get(),
        // Only a string is a name; anything else is refused by the method.
        name: target.map(RawValue::get).filter(|name| name.starts_with('"')),
        meta: head.meta.map(RawValue::get),
        principal: auth.cloned(),
        peer: conn.peer(),
        session_version: conn.legacy().map(|session| session.version),
    }
}

/// Params `raw` (an object) with `_meta` replaced.
fn with_meta(raw: &RawValue, meta: &RawValue) -> Option<Box<RawValue>> {
    let mut members: Map<String, Value> = serde_json::from_str(raw.get()).ok()?;
    members.insert("_meta".into(), serde_json::from_str(meta.get()).ok()?);
    serde_json::value::to_raw_value(&members).ok()
}
