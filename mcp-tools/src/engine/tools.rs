//! `tools/list` and `tools/call`, and the same call run outside the protocol
//! (`Server::execute`, the command line's `call`): one path, so both see the same
//! visibility, limits, time limit and output checks.

use super::client::CallChannel;
use super::connection::Connection;
use super::core::{Auth, CallParts, Engine};
use super::encode;
use super::era::{Era, era_of};
use super::failure::{Failure, Outcome, strip_position};
use super::listing::{self, ListRequest};
use super::outbox::Outbox;
use crate::context::ClientChannel;
use crate::protocol::jsonrpc::Id;
use crate::protocol::messages::{CallToolParams, RawCall};
use crate::protocol::{ProtocolVersion, RequestId};
use crate::rate::ClientKey;
use crate::result::CallToolResult;
use crate::tool::{Invocation, RawArguments, Tool};
use serde_json::Value;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use tokio_util::sync::CancellationToken;

/// A call's work once started: finished already (most tools), or still to wait for.
enum Started {
    Done(CallToolResult),
    Waiting(Pin<Box<dyn Future<Output = CallToolResult> + Send>>),
}

/// Starts a call's work and polls it once, so a tool that finishes without waiting is
/// answered at once, with no task spawned.
fn start(invocation: Invocation) -> Started {
    let mut work = Box::pin(invocation.run());
    match work
        .as_mut()
        .poll(&mut std::task::Context::from_waker(Waker::noop()))
    {
        Poll::Ready(result) => Started::Done(result),
        Poll::Pending => Started::Waiting(work),
    }
}

impl Engine {
    /// `tools/list`: a page of the tools the caller may see.
    pub(crate) fn list_tools(
        &self,
        id: Id<'_>,
        era: &Era,
        cursor: Option<&str>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let snapshot = self.tools.snapshot();
        let visible = self.tool_visibility.as_ref().map(|rule| {
            let caller = auth.map(|p| &**p);
            move |tool: &Tool| rule(tool, caller)
        });
        let request = ListRequest {
            id: id.raw,
            version: era.version(),
            modern: era.is_modern(),
            cursor,
            page_size: self.options.page_size,
            ttl_ms: self.options.list_ttl_ms,
            identity: &self.identity,
        };
        let visible = visible.as_ref().map(|f| f as &dyn Fn(&Tool) -> bool);
        out.respond(listing::list_page(&listing::TOOLS, &snapshot, &request, visible)?);
        Ok(())
    }

    /// `tools/call` as it arrived: its params checked, its era found, then the call.
    pub(crate) fn tools_call(
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
        let era = era_of(conn, "tools/call", call.meta.as_ref())?;
        self.call_tool(conn, id, era, call, out, auth)
    }

    /// The tool `name`, if the caller may see it.
    fn visible_tool(&self, name: &str, auth: Auth<'_>) -> Option<Tool> {
        self.tools
            .snapshot()
            .get(name)
            .filter(|tool| self.tool_visible(tool, auth))
            .cloned()
    }

    /// Lets a call in under the rate limits and the limit on calls in progress; `Err` is the
    /// error result that refuses it.
    fn admit(
        &self,
        tool: &str,
        client: impl FnOnce() -> ClientKey,
    ) -> Result<OwnedSemaphorePermit, CallToolResult> {
        if !self.limiters.is_unlimited()
            && let Err(refusal) = self.limiters.check(client)
        {
            tracing::debug!(tool, "refused a call: {refusal}");
            return Err(CallToolResult::error(refusal.to_string()));
        }
        Arc::clone(&self.calls).try_acquire_owned().map_err(|_| {
            let limit = self.options.max_concurrent_calls;
            tracing::warn!(tool, limit, "refused a call: too many in progress");
            CallToolResult::error(format!(
                "the server is busy: {limit} calls are in progress, its limit; try again shortly"
            ))
        })
    }

    /// Waits for a call's work within its tool's time limit, and finishes its result.
    async fn within_limit(
        &self,
        tool: &Tool,
        work: Pin<Box<dyn Future<Output = CallToolResult> + Send>>,
    ) -> CallToolResult {
        let limit = self.options.timeout_of(tool.name());
        match tokio::time::timeout(limit, work).await {
            Ok(result) => self.options.finish(tool, result),
            Err(_) => {
                let name = tool.name();
                tracing::warn!(tool = name, ?limit, "a call ran out of time and was stopped");
                CallToolResult::error(format!(
                    "the tool `{name}` did not finish within {} and was stopped",
                    describe_duration(limit)
                ))
            }
        }
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
        let Some(tool) = self.visible_tool(&call.name, auth) else {
            return Err(Failure::invalid_params(format!("Unknown tool: {}", call.name)));
        };
        let version = era.version();
        let modern = era.is_modern();
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let permit = match self.admit(&call.name, || Engine::client_key(conn, auth)) {
            Ok(permit) => permit,
            Err(refused) => {
                out.respond(self.encode_call(&raw_id, &refused, version, false, modern));
                return Ok(());
            }
        };
        let (request_id, cancel) = conn.begin_request(id)?;
        let progress_token = call
            .meta
            .as_ref()
            .and_then(|meta| meta.progress_token)
            .and_then(|raw| serde_json::from_str::<RequestId>(raw.get()).ok());
        let channel: Arc<dyn ClientChannel> = Arc::new(CallChannel {
            conn: Arc::clone(conn),
            out: out.clone(),
            call: cancel.clone(),
            version,
        });
        let cx = self.context(CallParts {
            request_id: Some(request_id.clone()),
            version: Some(version),
            client: era.into_client(),
            progress_token,
            cancel: cancel.clone(),
            principal: auth.cloned(),
            channel: Some(channel),
        });
        let wraps = tool.wraps_structured_output(version);
        let work = match start(tool.invoke(&cx, call.arguments)) {
            Started::Done(result) => {
                conn.finish(&request_id);
                drop(permit);
                let result = self.options.finish(&tool, result);
                out.respond(self.encode_call(&raw_id, &result, version, wraps, modern));
                return Ok(());
            }
            Started::Waiting(work) => work,
        };
        let engine = Arc::clone(self);
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let key = request_id.clone();
        let task = conn.tasks().spawn(async move {
            let result = engine.within_limit(&tool, work).await;
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

    /// Runs a call outside the protocol (`Server::execute`, the command line's `call`)
    /// exactly as a `tools/call` from an anonymous local client would run: the tool must be
    /// visible to it, the rate limits and the limit on calls in progress apply, and so do
    /// the time limit and the output checks. `None` when no such tool is visible.
    pub(crate) async fn execute(self: &Arc<Self>, name: &str, arguments: &Value) -> Option<CallToolResult> {
        let tool = self.visible_tool(name, None)?;
        let permit = match self.admit(name, || ClientKey::Local) {
            Ok(permit) => permit,
            Err(refused) => return Some(refused),
        };
        let cx = self.context(CallParts {
            request_id: None,
            version: None,
            client: Engine::local_client(),
            progress_token: None,
            cancel: CancellationToken::new(),
            principal: None,
            channel: None,
        });
        let text = arguments.to_string();
        let Ok(raw) = RawArguments::from_json(&text) else {
            return Some(CallToolResult::error("the arguments are not valid JSON"));
        };
        let result = match start(tool.invoke(&cx, raw)) {
            Started::Done(result) => self.options.finish(&tool, result),
            Started::Waiting(work) => self.within_limit(&tool, work).await,
        };
        drop(permit);
        Some(result)
    }
}

impl Engine {
    /// The tools `execute` can run, in words: `` `add`, `divide` ``.
    pub(crate) fn executable_tools(&self) -> String {
        let names: Vec<String> = self
            .tools
            .snapshot()
            .items()
            .iter()
            .filter(|tool| self.tool_visible(tool, None))
            .map(|tool| format!("`{}`", tool.name()))
            .collect();
        names.join(", ")
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
