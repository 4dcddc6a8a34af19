//! `tools/list` and `tools/call`, and the same call run outside the protocol
//! (`Server::execute`, the command line's `call`): one path, so both see the same
//! visibility, limits, time limit and output checks.

use crate::__private::ToolBuilder;
use crate::context::{ClientChannel, Context, Principal};
use crate::discovery::{CALL_TOOL, SEARCH_TOOLS};
use crate::engine::asks::asking::{Sealing, missing_capability};
use crate::engine::state::core::{Auth, CallParts, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::state::listing;
use crate::engine::tasks;
use crate::engine::wire::encode::{self, respond_failure};
use crate::engine::wire::era::{Era, era_of};
use crate::engine::wire::failure::{Failure, Outcome, strip_position};
use crate::engine::wire::outbox::{Answer, Outbox};
use crate::engine::wire::rounds::{Finished, InputRequest, Round, Rounds};
use crate::error::ClientCapability;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::messages::{CallToolParams, RawCall};
use crate::protocol::{ErrorCode, ProtocolVersion, RequestId};
use crate::rate::ClientKey;
use crate::result::CallToolResult;
use crate::tool::{Invocation, RawArguments, TaskSupport, Tool};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// A call's work once started: finished already (most tools), or still to wait for.
enum Started {
    Done(Finished),
    Waiting(Work),
}

/// A call's work: the tool's, ended early when it waits on a question of its round.
pub(crate) type Work = Rounds<Pin<Box<dyn Future<Output = CallToolResult> + Send>>>;

/// Installs what a result budget needs: the spilling of answers over it, and
/// `resources/read` for the pages (see bench/README.md, "Footprint"). The budget setters
/// are defined here, above both, for that reason.
pub(crate) fn link_budgets() {
    crate::engine::budgets::link_spilling();
    super::resources::link();
}

impl Tool {
    /// Gives the tool a result budget of its own, in place of the server's
    /// ([`Server::result_budget`](crate::Server::result_budget)): the most its answer
    /// carries at once, in bytes of text (at least 1024). A larger result is sent a page at
    /// a time; the guide's result budgets chapter says how. Beside
    /// [`Tool::with_max_result_chars`], the smaller of the two is the budget.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let export = Tool::from_json("export", "Exports everything.", json!({"type": "object"}), |_, _| async {
    ///     "exported"
    /// })
    /// .unwrap()
    /// .with_result_budget(50_000);
    /// assert_eq!(export.result_budget(), Some(50_000));
    /// ```
    pub fn with_result_budget(mut self, bytes: usize) -> Tool {
        link_budgets();
        self.set_result_budget(bytes);
        self
    }

    /// Tells hosts the most characters of a result they should accept from the tool
    /// (`_meta["anthropic/maxResultSizeChars"]`), 1 to
    /// [`MAX_RESULT_CHARS`](crate::tool::MAX_RESULT_CHARS) (a number outside is clamped),
    /// and makes the server keep to it: the tool's result budget becomes the smaller of
    /// its own ([`Tool::with_result_budget`]) and `chars`, in whichever order they are
    /// set. A budget is never under [`MIN_RESULT_BUDGET`](crate::tool::MIN_RESULT_BUDGET),
    /// so a value under 1024 is sent as it is but the server still answers in pages of
    /// 1024 bytes.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let export = Tool::from_json("export", "Exports everything.", json!({"type": "object"}), |_, _| async {
    ///     "exported"
    /// })
    /// .unwrap()
    /// .with_max_result_chars(20_000);
    /// assert_eq!(export.max_result_chars(), Some(20_000));
    /// assert_eq!(export.result_budget(), Some(20_000));
    ///
    /// let export = export.with_result_budget(50_000);
    /// assert_eq!(export.result_budget(), Some(20_000));
    /// let export = export.with_max_result_chars(800_000);
    /// assert_eq!(export.max_result_chars(), Some(500_000));
    /// assert_eq!(export.result_budget(), Some(50_000));
    /// assert_eq!(export.with_max_result_chars(10).result_budget(), Some(1024));
    /// ```
    pub fn with_max_result_chars(mut self, chars: usize) -> Tool {
        link_budgets();
        self.set_max_result_chars(chars);
        self
    }
}

impl ToolBuilder {
    /// Sets its result budget (`#[tool(result_budget = ...)]`).
    pub fn result_budget(mut self, bytes: usize) -> ToolBuilder {
        link_budgets();
        self.set_result_budget(bytes);
        self
    }

    /// Sets how many characters of a result hosts should accept, also a result budget
    /// (`#[tool(max_result_chars = ...)]`).
    pub fn max_result_chars(mut self, chars: usize) -> ToolBuilder {
        link_budgets();
        self.set_max_result_chars(chars);
        self
    }
}

/// Starts a call's work and polls it once, so a tool that finishes without waiting is
/// answered at once, with no task spawned.
fn start(invocation: Invocation, round: Option<Arc<Round>>) -> Started {
    let work = |invocation: Invocation, round| Rounds {
        work: Box::pin(invocation.run()) as Pin<Box<dyn Future<Output = CallToolResult> + Send>>,
        round,
    };
    let mut work = match invocation {
        Invocation::Ready(result) => return Started::Done(Finished::Complete(result)),
        // Without a round to ask in, an `async fn` tool's future is polled as it is: one
        // that finishes at once (most do) costs no second box around it.
        Invocation::Future(future) if round.is_none() => {
            return match Invocation::poll_once(future) {
                Ok(result) => Started::Done(Finished::Complete(result)),
                Err(pending) => Started::Waiting(work(pending, None)),
            };
        }
        invocation => work(invocation, round),
    };
    match Pin::new(&mut work).poll(&mut std::task::Context::from_waker(Waker::noop())) {
        Poll::Ready(finished) => Started::Done(finished),
        Poll::Pending => Started::Waiting(work),
    }
}

/// Whether a task call's work, polled once, becomes a task: when it waits on something
/// other than the client, or (a `required` task tool) when it finished at once; `Err` gives
/// back work answered as a plain call: finished, or asking a question of the call itself.
fn becomes_task(work: Started, support: TaskSupport) -> Result<tasks::Begun, Started> {
    match work {
        Started::Waiting(work) => Ok(tasks::Begun::Running(work)),
        Started::Done(Finished::Complete(result)) if support == TaskSupport::Required => {
            Ok(tasks::Begun::Finished(result))
        }
        done => Err(done),
    }
}

impl Engine {
    /// `tools/list`: a page of the tools the caller may see.
    pub(crate) fn list_tools(&self, req: Handle<'_>, era: &Era, cursor: Option<&str>) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        if let Some(searching) = &self.search {
            return self.list_searchable(searching, req, era, cursor);
        }
        let snapshot = self.tools.snapshot();
        let request = self.list_request(id, era, cursor);
        let rule = self.visibility.tools.as_ref();
        // A tool that runs only as a task cannot be called before revision 2026-07-28.
        let callable = |tool: &Tool| tool.task_support() != TaskSupport::Required;
        let hide_tasks = !era.is_modern() && !snapshot.items().iter().all(callable);
        let grouped = conn.groups().is_some();
        let selected = |tool: &Tool| (!hide_tasks || callable(tool)) && Engine::in_groups(conn, tool);
        out.respond(listing::list_for(
            &listing::TOOLS,
            &snapshot,
            &request,
            rule,
            auth,
            (hide_tasks || grouped).then_some(&selected as &dyn Fn(&Tool) -> bool),
        )?);
        Ok(())
    }

    /// `tools/call` as it arrived: its params checked, its era found, then the call.
    pub(crate) fn tools_call(self: &Arc<Self>, req: Handle<'_>, call: RawCall<'_>) -> Outcome {
        let Handle {
            conn,
            id: _,
            out: _,
            auth: _,
        } = req;
        let call = call
            .check()
            .map_err(|e| Failure::invalid_params(format!("invalid params: {}", strip_position(&e))))?;
        let era = era_of(conn, "tools/call", call.meta.as_ref())?;
        self.call_tool(req, era, call)
    }

    /// The tool `name`, if the caller may see it.
    fn visible_tool(&self, name: &str, auth: Auth<'_>) -> Option<Tool> {
        self.tools
            .snapshot()
            .get(name)
            .filter(|tool| self.tool_visible(tool, auth))
            .cloned()
    }

    /// Lets a call in under the limit on calls in progress; `Err` is the error result that
    /// refuses it. (The rate limits are a middleware, `rate::Limiting`, on the protocol's
    /// way in; `execute` checks them itself.)
    fn admit(&self, tool: &str) -> Result<OwnedSemaphorePermit, CallToolResult> {
        Arc::clone(&self.calls).try_acquire_owned().map_err(|_| {
            let limit = self.options.limits.max_concurrent_calls;
            tracing::warn!(tool, limit, "refused a call: too many in progress");
            CallToolResult::error(format!(
                "the server is busy: {limit} calls are in progress, its limit; try again shortly"
            ))
        })
    }

    /// Waits for a call's work within its tool's time limit, and finishes its result.
    async fn within_limit(&self, tool: &Tool, work: Work) -> Finished {
        let limit = self.options.timeout_of(tool.name());
        match tokio::time::timeout(limit, work).await {
            Ok(Finished::Complete(result)) => Finished::Complete(self.options.finish(tool, result)),
            Ok(asked) => asked,
            Err(_) => {
                let name = tool.name();
                tracing::warn!(tool = name, ?limit, "a call ran out of time and was stopped");
                Finished::Complete(CallToolResult::error(format!(
                    "the tool `{name}` did not finish within {} and was stopped",
                    describe_duration(limit)
                )))
            }
        }
    }

    /// The response to a call's work: its result, its questions (2026-07-28), or the
    /// missing-capability error a tool let propagate (2026-07-28).
    fn respond_finished(&self, out: &Outbox, id: &RawValue, finished: Finished, ending: &Ending<'_>) {
        match finished {
            Finished::Complete(result) => {
                if let Some((url, message)) = result.required_url()
                    && ending.url_mode
                {
                    let params = json!({ "mode": "url", "message": message, "url": url });
                    if ending.modern && ending.round.is_some() {
                        // The URL becomes the round's question; the tool runs again after.
                        let asked = vec![InputRequest {
                            key: "url_required".to_owned(),
                            method: "elicitation/create".to_owned(),
                            params,
                        }];
                        return self.respond_finished(out, id, Finished::InputRequired(asked), ending);
                    }
                    if ending.version == ProtocolVersion::V2025_11_25 {
                        let mut elicitation = params;
                        elicitation["elicitationId"] = json!(crate::ask::elicitation_id());
                        let failure = Failure::new(ErrorCode::URL_ELICITATION_REQUIRED, message)
                            .with_data(json!({ "elicitations": [elicitation] }));
                        return respond_failure(out, Some(id), failure);
                    }
                }
                match result.missing_capability() {
                    Some(capability) if ending.modern => {
                        let message = result
                            .content()
                            .first()
                            .and_then(|c| c.as_text())
                            .unwrap_or_default();
                        respond_failure(out, Some(id), missing_capability(message, capability));
                    }
                    _ => out.respond_as(
                        self.encode_call(id, &result, ending.version, ending.wraps, ending.modern),
                        answer_of(&result),
                    ),
                }
            }
            Finished::InputRequired(asked) => {
                let sealing = ending.round.as_ref().map(|(round, sealing)| (&**round, sealing));
                if !self.respond_input_required(out, id, &asked, sealing, ending.tool.name()) {
                    let result = CallToolResult::internal_error();
                    let answer = self.encode_call(id, &result, ending.version, false, ending.modern);
                    out.respond_as(answer, Answer::ToolError);
                }
            }
        }
    }

    fn call_tool(self: &Arc<Self>, req: Handle<'_>, era: Era, call: CallToolParams<'_>) -> Outcome {
        let Handle { id, out, auth, .. } = req;
        // With tool search on, `search_tools` is answered here, and `call_tool` becomes the
        // call of the tool it names.
        let call = match &self.search {
            Some(searching) if call.name == SEARCH_TOOLS => {
                return self.search_tools(searching, req, &era, &call.arguments);
            }
            Some(searching) if call.name == CALL_TOOL => {
                match self.called_through(searching, req, &era, call) {
                    Ok(call) => call,
                    Err(refused) => {
                        let encoded =
                            self.encode_call(id.raw, &refused, era.version(), false, era.is_modern());
                        out.respond_as(encoded, Answer::ToolError);
                        return Ok(());
                    }
                }
            }
            _ => call,
        };
        // `read_result` is served whenever a page may be in the store, listed or not.
        let read_result =
            || (call.name == crate::engine::budgets::READ_RESULT).then(|| self.spills.tool().clone());
        let Some(tool) = self.visible_tool(&call.name, auth).or_else(read_result) else {
            return Err(Failure::invalid_params(format!(
                "Unknown tool: {}",
                clip(&call.name, QUOTED_NAME_CHARS)
            )));
        };
        let version = era.version();
        let modern = era.is_modern();
        let round = if modern {
            self.round_of("tools/call", tool.name(), tool.may_ask(), &call, auth)?
        } else {
            None
        };
        let permit = match self.admit(&call.name) {
            Ok(permit) => permit,
            Err(refused) => {
                out.respond_as(
                    self.encode_call(id.raw, &refused, version, false, modern),
                    Answer::ToolError,
                );
                return Ok(());
            }
        };
        let wraps = tool.wraps_structured_output(version);
        let url_mode = era
            .client_capabilities()
            .is_some_and(|declared| ClientCapability::ElicitationUrl.declared_in(declared));
        let asks = || round.as_ref().map(|(round, _)| Arc::clone(round));
        // A task tool's call from a client that declares the extension may become a task.
        let as_task = tasks::task_mode(&tool, era.client_capabilities(), modern)?;
        let status = as_task.then(|| Arc::new(tasks::StatusCell::new(None)));
        let capabilities = as_task
            .then(|| era.client_capabilities().cloned().map(Arc::new))
            .flatten();
        let arguments = as_task.then(|| call.arguments.canonical());
        let (request_id, cx) = self.begin_handler(req, tool.may_ask(), era, &call, asks(), status.clone())?;
        let work = start(
            tool.invoke(cx.as_ref().unwrap_or(&self.bare), call.arguments),
            asks(),
        );
        let support = tool.task_support();
        let running = Running {
            request_id,
            cx,
            permit,
            ending: Ending {
                tool,
                url_mode,
                version,
                wraps,
                modern,
                round,
                caller: auth.cloned(),
            },
        };
        let work = match (status, arguments) {
            (Some(status), Some(arguments)) => match becomes_task(work, support) {
                Ok(begun) => {
                    self.begin_call_task(req, running, begun, (arguments, capabilities, status));
                    return Ok(());
                }
                // Finished at once, or asking a question of the call itself: no task yet.
                Err(work) => work,
            },
            _ => work,
        };
        match work {
            Started::Done(finished) => self.answer_now(req, running, finished),
            Started::Waiting(work) => self.answer_when_done(req, running, work),
        }
        Ok(())
    }

    /// Turns a started call into a task, given its canonical arguments, the client's
    /// capabilities and the cell its status is written to.
    fn begin_call_task(
        self: &Arc<Self>,
        req: Handle<'_>,
        running: Running<'_>,
        begun: tasks::Begun,
        (arguments, capabilities, status): (String, Option<Arc<Value>>, Arc<tasks::StatusCell>),
    ) {
        let Handle { conn, auth, .. } = req;
        let Running {
            request_id,
            cx,
            permit,
            ending,
        } = running;
        let call = tasks::TaskCall {
            round: ending.round.as_ref().map(|(round, _)| Arc::clone(round)),
            tool: ending.tool,
            arguments,
            capabilities,
            principal: auth.cloned(),
            client: Engine::client_key(conn, auth),
            status,
            cancel: cx.as_ref().map(|cx| cx.cancellation().clone()),
        };
        self.begin_task(req, request_id, call, begun, permit);
    }

    /// Answers a call whose work finished when first polled: at once, or once its pages
    /// are written when its result is over its budget.
    fn answer_now(self: &Arc<Self>, req: Handle<'_>, running: Running<'_>, finished: Finished) {
        let Handle { conn, id, out, .. } = req;
        let Running {
            request_id,
            permit,
            ending,
            ..
        } = running;
        conn.finish(&request_id);
        drop(permit);
        let finished = match finished {
            Finished::Complete(result) => Finished::Complete(self.options.finish(&ending.tool, result)),
            asked => asked,
        };
        if self.over_budget(&ending.tool, &finished) {
            // Its pages are written to the store before the first is sent.
            let ending = ending.into_owned();
            let (engine, out, raw_id) = (Arc::clone(self), out.clone(), id.raw.to_owned());
            conn.tasks().spawn(Instrument::in_current_span(async move {
                let caller = ending.caller.as_deref();
                let finished = engine.within_budget(&ending.tool, finished, caller).await;
                engine.respond_finished(&out, &raw_id, finished, &ending);
            }));
            return;
        }
        self.respond_finished(out, id.raw, finished, &ending);
    }

    /// Finishes a call's work on a task of its own, within its time limit, and answers it
    /// unless the client cancelled it.
    fn answer_when_done(self: &Arc<Self>, req: Handle<'_>, running: Running<'_>, work: Work) {
        let Handle { conn, id, out, .. } = req;
        let Running {
            request_id,
            cx,
            permit,
            ending,
        } = running;
        let ending = ending.into_owned();
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let engine = Arc::clone(self);
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let key = request_id.clone();
        // The task holds the request's span until the response is sent.
        let task = conn.tasks().spawn(Instrument::in_current_span(async move {
            let finished = engine.within_limit(&ending.tool, work).await;
            drop(permit);
            // A cancelled request gets no response: its token says so, or (without one)
            // its task was aborted before it came here. Its id may be in use again already.
            let cancelled = cx.as_ref().is_some_and(Context::is_cancelled);
            conn2.finish(&key);
            if !cancelled {
                let caller = ending.caller.as_deref();
                let finished = engine.within_budget(&ending.tool, finished, caller).await;
                engine.respond_finished(&out, &raw_id, finished, &ending);
            }
        }));
        conn.set_abort(&request_id, task.abort_handle());
    }

    /// A call's response; a result too large to send becomes an error result that says so.
    pub(crate) fn encode_call(
        &self,
        id: &RawValue,
        result: &CallToolResult,
        version: ProtocolVersion,
        wraps: bool,
        modern: bool,
    ) -> Vec<u8> {
        let identity = modern.then_some(&*self.identity);
        let encoded = encode::call_result(id, result, version, wraps, identity);
        let limit = self.options.limits.max_result_bytes;
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
    /// the time limit (which includes the time the local client takes to answer) and the
    /// output checks. `None` when no such tool is visible.
    ///
    /// `local` is the client that answers the tool's asks, when there is one (the command
    /// line's terminal): its channel, and the capabilities it declares, which the asks
    /// check as they check a protocol client's. Without one, the call has no client:
    /// `Context::client_capabilities` is `None` and an ask fails with `NoClient`.
    pub(crate) async fn execute(
        self: &Arc<Self>,
        name: &str,
        arguments: &Value,
        local: Option<(Arc<dyn ClientChannel>, Value)>,
    ) -> Option<CallToolResult> {
        // With tool search on, its two tools run here as they do over the protocol.
        let inner;
        let (name, arguments) = match &self.search {
            Some(searching) if name == SEARCH_TOOLS => {
                let text = arguments.to_string();
                let raw = RawArguments::from_json(&text).ok()?;
                let findable = |tool: &Tool| self.tool_visible(tool, None);
                return Some(self.search_result(searching, &raw, ProtocolVersion::LATEST, &findable));
            }
            Some(_) if name == CALL_TOOL => match (arguments.get("name"), arguments.get("arguments")) {
                (Some(Value::String(called)), given)
                    if !matches!(called.as_str(), SEARCH_TOOLS | CALL_TOOL) =>
                {
                    inner = given
                        .filter(|given| !given.is_null())
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    (called.as_str(), &inner)
                }
                _ => {
                    return Some(CallToolResult::error(
                        "`call_tool` takes {\"name\": \"<a tool's name>\", \"arguments\": {...}}",
                    ));
                }
            },
            _ => (name, arguments),
        };
        let tool = self.visible_tool(name, None)?;
        if let Err(refusal) = self.limiters.check(|| ClientKey::Local) {
            tracing::debug!(tool = name, "refused a call: {refusal}");
            return Some(CallToolResult::error(refusal.to_string()));
        }
        let permit = match self.admit(name) {
            Ok(permit) => permit,
            Err(refused) => return Some(refused),
        };
        let (channel, capabilities) = match local {
            Some((channel, capabilities)) => (Some(channel), Some(Arc::new(capabilities))),
            None => (None, None),
        };
        let cx = self.context(CallParts {
            request_id: None,
            version: None,
            client: Engine::local_client(capabilities),
            progress_token: None,
            cancel: CancellationToken::new(),
            principal: None,
            channel,
        });
        let text = arguments.to_string();
        let Ok(raw) = RawArguments::from_json(&text) else {
            return Some(CallToolResult::error("the arguments are not valid JSON"));
        };
        let finished = match start(tool.invoke(&cx, raw), None) {
            Started::Done(Finished::Complete(result)) => {
                Finished::Complete(self.options.finish(&tool, result))
            }
            Started::Done(asked) => asked,
            Started::Waiting(work) => self.within_limit(&tool, work).await,
        };
        drop(permit);
        Some(match finished {
            Finished::Complete(result) => result,
            // Outside the protocol there is no round: an ask goes to the local client, or
            // is refused before it is made.
            Finished::InputRequired(_) => {
                CallToolResult::internal("a call outside the protocol asked for input")
            }
        })
    }
}

impl Engine {
    /// The tools `execute` can run, in words: `` `add`, `divide` ``.
    pub(crate) fn executable_tools(&self) -> Vec<String> {
        self.tools
            .snapshot()
            .items()
            .iter()
            .filter(|tool| self.tool_visible(tool, None))
            .map(|tool| tool.name().to_owned())
            .collect()
    }
}

/// How a call ends: what its response needs to know.
/// A call let in and started: what answering it needs.
struct Running<'a> {
    request_id: RequestId,
    /// Its context, when its tool takes one.
    cx: Option<Context>,
    /// Its place among the calls in progress, given back once it is answered.
    permit: OwnedSemaphorePermit,
    ending: Ending<'a>,
}

struct Ending<'a> {
    tool: Tool,
    /// Whether the client declared URL elicitation, for a tool that needs the user at a URL.
    url_mode: bool,
    version: ProtocolVersion,
    wraps: bool,
    modern: bool,
    round: Option<(Arc<Round>, Sealing<'a>)>,
    /// Who called: a result spilled over its budget is theirs alone.
    caller: Option<Arc<Principal>>,
}

impl Ending<'_> {
    /// The same, owning what it needs: for a call whose work outlives its message.
    fn into_owned(self) -> Ending<'static> {
        Ending {
            round: self.round.map(|(round, sealing)| (round, sealing.into_owned())),
            tool: self.tool,
            url_mode: self.url_mode,
            version: self.version,
            wraps: self.wraps,
            modern: self.modern,
            caller: self.caller,
        }
    }
}

/// What a call's result is, for the middleware.
fn answer_of(result: &CallToolResult) -> Answer {
    if result.is_error() {
        Answer::ToolError
    } else {
        Answer::Complete
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
