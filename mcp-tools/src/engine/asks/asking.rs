//! What tools and prompts share in revision 2026-07-28 when their handler asks: the round
//! a request brings (its answers, from a `requestState` that must open for that very
//! request), and the `input_required` answer that ends a round with its questions.

use crate::context::{ClientChannel, Context};
use crate::engine::asks::client::CallChannel;
use crate::engine::state::core::{Auth, CallParts, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode;
use crate::engine::wire::era::Era;
use crate::engine::wire::failure::{Failure, Outcome};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::{self, Binding, Finished, InputRequest, Round, Rounds};
use crate::error::{ClientCapability, ToolError};
use crate::prompt::{HandlerError, Work};
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::messages::CallToolParams;
use crate::protocol::{ErrorCode, ProtocolVersion, RequestId};
use crate::tool::RawArguments;
use serde_json::json;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};

/// What a round (revision 2026-07-28) of a request whose handler may ask needs to seal its
/// state: the request it belongs to.
pub(crate) struct Sealing<'a> {
    /// The request's method: `tools/call`, `prompts/get`.
    method: &'static str,
    arguments: Arguments<'a>,
    caller: Option<String>,
}

/// A call's arguments as its state is bound to them: put in canonical form only when a
/// state is opened or sealed, which most calls of a tool that may ask never do.
enum Arguments<'a> {
    Canonical(String),
    Received(RawArguments<'a>),
}

impl Sealing<'_> {
    /// The call this round's state belongs to; `arguments` is [`Sealing::canonical`].
    pub(crate) fn binding<'a>(&'a self, tool: &'a str, arguments: &'a str) -> Binding<'a> {
        Binding {
            method: self.method,
            name: tool,
            arguments,
            caller: self.caller.as_deref(),
        }
    }

    /// The arguments in canonical form.
    pub(crate) fn canonical(&self) -> std::borrow::Cow<'_, str> {
        match &self.arguments {
            Arguments::Canonical(text) => text.as_str().into(),
            Arguments::Received(raw) => raw.canonical().into(),
        }
    }

    /// The same, owning what it needs: for a call whose work outlives its message.
    pub(crate) fn into_owned(self) -> Sealing<'static> {
        let arguments = match self.arguments {
            Arguments::Canonical(text) => text,
            Arguments::Received(raw) => raw.canonical(),
        };
        Sealing {
            method: self.method,
            arguments: Arguments::Canonical(arguments),
            caller: self.caller,
        }
    }
}

impl Engine {
    /// The round of a `tools/call` or `prompts/get` in revision 2026-07-28, for a handler that
    /// may ask or a request that brings answers: the answers it knows (from a `requestState` that must open for this
    /// very call, and its `inputResponses`), and what sealing the next state needs.
    pub(crate) fn round_of<'a>(
        &self,
        method: &'static str,
        name: &str,
        may_ask: bool,
        call: &CallToolParams<'a>,
        auth: Auth<'_>,
    ) -> Result<Option<(Arc<Round>, Sealing<'a>)>, Failure> {
        let brings_answers = call.request_state.is_some() || call.input_responses.is_some();
        if !may_ask && !brings_answers {
            return Ok(None);
        }
        let caller = auth.map(|principal| principal.subject.clone());
        if !brings_answers {
            let arguments = Arguments::Received(call.arguments.clone());
            return Ok(Some((
                Arc::new(Round::default()),
                Sealing {
                    method,
                    arguments,
                    caller,
                },
            )));
        }
        let sealing = Sealing {
            method,
            arguments: Arguments::Canonical(call.arguments.canonical()),
            caller,
        };
        let answers = match &self.keys {
            Some(keys) => {
                let arguments = sealing.canonical();
                let binding = sealing.binding(name, &arguments);
                rounds::answers(
                    keys,
                    &binding,
                    call.request_state.as_deref(),
                    call.input_responses,
                )
                .map_err(Failure::invalid_params)?
            }
            None if call.request_state.is_some() => return Err(Failure::invalid_params(rounds::BAD_STATE)),
            None => rounds::Answers::default(),
        };
        Ok(Some((Arc::new(Round::new(answers)), sealing)))
    }

    /// Ends a round with its questions and sealed state; `false` (logged) when the state
    /// could not be sealed, for the caller to answer with an internal error.
    pub(crate) fn respond_input_required(
        &self,
        out: &Outbox,
        id: &RawValue,
        asked: &[InputRequest],
        round: Option<(&Round, &Sealing<'_>)>,
        name: &str,
    ) -> bool {
        let sealed = match (&self.keys, round) {
            (Some(keys), Some((round, sealing))) => rounds::seal(
                keys,
                &sealing.binding(name, &sealing.canonical()),
                self.options.request_state_ttl,
                round,
                asked,
            ),
            _ => Err("no key to seal requestState with".to_owned()),
        };
        match sealed {
            Ok(state) => {
                let answer = encode::input_required(id, asked, &state, &self.identity);
                out.respond_as(answer, crate::engine::wire::outbox::Answer::InputRequired);
                true
            }
            Err(error) => {
                tracing::error!(name, %error, "a round's state could not be sealed");
                false
            }
        }
    }
}

/// Who answers a request that a handler serves (`prompts/get`, `resources/read`): its
/// method, its name (a prompt's, a resource's URI), whether it may ask.
pub(crate) struct Handler {
    pub(crate) method: &'static str,
    pub(crate) name: String,
    pub(crate) may_ask: bool,
}

/// What answering such a request needs to know once its handler has finished.
pub(crate) struct Answering<'a> {
    pub(crate) name: String,
    pub(crate) version: ProtocolVersion,
    pub(crate) round: Option<(Arc<Round>, Sealing<'a>)>,
    /// The request's own target (a resource's URI as read), for the answer.
    pub(crate) target: String,
    /// Whether the caller is authenticated (a principal is on the request), so that what
    /// it is answered may be its own.
    pub(crate) authenticated: bool,
}

impl Answering<'_> {
    pub(crate) fn modern(&self) -> bool {
        self.version.is_modern()
    }
}

/// How a request's finished work becomes its answer.
pub(crate) type Respond<T> =
    fn(&Engine, &Outbox, &RawValue, Finished<Result<T, HandlerError>>, &Answering<'_>);

/// A kind of item the server serves only when given some (`prompts`, `resources`); the
/// error for a server that serves none answers `method`.
pub(crate) fn served<'a, T>(registry: Option<&'a T>, method: &str, what: &str) -> Result<&'a T, Failure> {
    registry.ok_or_else(|| not_served(method, what))
}

/// The error that answers `method` on a server with no `what` (`prompts`, `resources`).
pub(crate) fn not_served(method: &str, what: &str) -> Failure {
    Failure::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "method `{}` is not served: this server has no {what}",
            clip(method, QUOTED_NAME_CHARS)
        ),
    )
}

/// Finishes a request's work on a task of its own, within `limit` (work that runs out of
/// time ends as `timed_out` says), then answers it with `respond` unless the client
/// cancelled it. The task holds the current span (the request's) until the answer is sent.
pub(crate) fn answer_later<T: Send + 'static>(
    conn: &Arc<Connection>,
    request_id: &RequestId,
    cx: Option<Context>,
    limit: std::time::Duration,
    work: impl Future<Output = T> + Send + 'static,
    timed_out: impl FnOnce() -> T + Send + 'static,
    respond: impl FnOnce(T) + Send + 'static,
) {
    let finishing = Arc::clone(conn);
    let key = request_id.clone();
    let answer = async move {
        let finished = tokio::time::timeout(limit, work)
            .await
            .unwrap_or_else(|_| timed_out());
        // A cancelled request gets no answer: its token says so, or (without one) its
        // task was aborted before it came here. Its id may be in use again already.
        let cancelled = cx.as_ref().is_some_and(Context::is_cancelled);
        finishing.finish(&key);
        if !cancelled {
            respond(finished);
        }
    };
    let task = conn.tasks().spawn(tracing::Instrument::in_current_span(answer));
    conn.set_abort(request_id, task.abort_handle());
}

/// The missing-capability error of revision 2026-07-28 (`-32021`), for a handler that let
/// an undeclared capability propagate.
pub(crate) fn missing_capability(message: &str, capability: ClientCapability) -> Failure {
    Failure::new(ErrorCode::MISSING_CAPABILITY, message)
        .with_data(json!({ "requiredCapabilities": capability.as_json() }))
}

impl Engine {
    /// Records a request a tool, prompt or resource serves as in flight (refusing an id in
    /// use), and makes its context when the handler takes one (`may_ask`): its client (the
    /// request's way back, and the round its asks are answered from in 2026-07-28), its
    /// progress token, its caller, a token to watch. A handler that takes nothing from its
    /// context gets `None` (it is given the engine's bare one) and no token: a cancellation
    /// stops it by aborting its task.
    pub(crate) fn begin_handler(
        &self,
        req: Handle<'_>,
        may_ask: bool,
        era: Era,
        request: &CallToolParams<'_>,
        round: Option<Arc<Round>>,
        status: Option<Arc<crate::engine::state::task_record::StatusCell>>,
    ) -> Result<(RequestId, Option<Context>), Failure> {
        let Handle { conn, id, out, auth } = req;
        if !may_ask {
            return Ok((conn.begin_request_without_token(id)?, None));
        }
        let (request_id, cancel) = conn.begin_request(id)?;
        let version = era.version();
        let channel: Arc<dyn ClientChannel> = Arc::new(CallChannel {
            conn: Arc::clone(conn),
            out: out.clone(),
            call: cancel.clone(),
            round,
            version,
            status,
        });
        let progress_token = request
            .meta
            .as_ref()
            .and_then(|meta| meta.progress_token)
            .and_then(|raw| serde_json::from_str::<RequestId>(raw.get()).ok());
        let cx = self.context(CallParts {
            request_id: Some(request_id.clone()),
            version: Some(version),
            client: era.into_client(),
            progress_token,
            cancel,
            principal: auth.cloned(),
            channel: Some(channel),
        });
        Ok((request_id, Some(cx)))
    }

    /// Serves a request a handler answers: its round (2026-07-28), its context, the work
    /// polled once and answered at once when done, else on a task of its own within the
    /// server's time limit, answered with `respond` unless the client cancelled it.
    pub(crate) fn handle_request<'a, T: Send + 'static>(
        self: &Arc<Self>,
        req: Handle<'_>,
        era: Era,
        request: CallToolParams<'a>,
        handler: Handler,
        start: impl FnOnce(&Context, RawArguments<'a>) -> Work<T>,
        respond: Respond<T>,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let version = era.version();
        let round = if era.is_modern() {
            self.round_of(handler.method, &handler.name, handler.may_ask, &request, auth)?
        } else {
            None
        };
        let asks = round.as_ref().map(|(round, _)| Arc::clone(round));
        let (request_id, cx) = self.begin_handler(req, handler.may_ask, era, &request, asks, None)?;
        let target = request.name.clone().into_owned();
        let work = start(cx.as_ref().unwrap_or(&self.bare), request.arguments).run();
        let mut work = Rounds {
            work: Box::pin(work) as Pin<Box<dyn Future<Output = Result<T, HandlerError>> + Send>>,
            round: round.as_ref().map(|(round, _)| Arc::clone(round)),
        };
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let answering = Answering {
            name: handler.name,
            version,
            round,
            target,
            authenticated: auth.is_some(),
        };
        if let Poll::Ready(finished) =
            Pin::new(&mut work).poll(&mut std::task::Context::from_waker(Waker::noop()))
        {
            conn.finish(&request_id);
            respond(self, out, &raw_id, finished, &answering);
            return Ok(());
        }
        let answering = Answering {
            round: answering
                .round
                .map(|(round, sealing)| (round, sealing.into_owned())),
            name: answering.name,
            version: answering.version,
            target: answering.target,
            authenticated: answering.authenticated,
        };
        let engine = Arc::clone(self);
        let out = out.clone();
        let limit = self.options.limits.call_timeout;
        let method = handler.method;
        let name = answering.name.clone();
        let timed_out = move || {
            tracing::warn!(method, name, ?limit, "a request ran out of time and was stopped");
            let message = format!(
                "`{method}` of `{}` did not finish within its time limit",
                clip(&name, QUOTED_NAME_CHARS)
            );
            Finished::Complete(Err(HandlerError::Failed(ToolError::new(message))))
        };
        answer_later(conn, &request_id, cx, limit, work, timed_out, move |finished| {
            respond(&engine, &out, &raw_id, finished, &answering);
        });
        Ok(())
    }

    /// The answer to a request that did not end with its result: the questions of its
    /// round, or the error: `-32602` for arguments that do not fit, `-32021` (2026-07-28)
    /// for a capability the client lacks, `-32603` when the handler failed (an internal
    /// error's detail logged, not sent, unless the server exposes details).
    pub(crate) fn respond_unfinished<T>(
        &self,
        out: &Outbox,
        id: &RawValue,
        finished: Finished<Result<T, HandlerError>>,
        answering: &Answering<'_>,
    ) {
        let name = &answering.name;
        let failure = match finished {
            Finished::Complete(Ok(_)) => return,
            Finished::InputRequired(asked) => {
                let round = answering
                    .round
                    .as_ref()
                    .map(|(round, sealing)| (&**round, sealing));
                if self.respond_input_required(out, id, &asked, round, name) {
                    return;
                }
                Failure::new(ErrorCode::INTERNAL_ERROR, "internal error")
            }
            Finished::Complete(Err(HandlerError::Arguments(problems))) => Failure::invalid_params(problems),
            Finished::Complete(Err(HandlerError::Failed(error))) => match error.missing_capability() {
                Some(capability) if answering.modern() => missing_capability(error.message(), capability),
                _ if error.is_internal() => {
                    Failure::new(ErrorCode::INTERNAL_ERROR, self.masked(name, &error))
                }
                _ => Failure::new(ErrorCode::INTERNAL_ERROR, error.message()),
            },
        };
        encode::respond_failure(out, Some(id), failure);
    }

    /// What a client reads of a handler's internal error, logged here: `internal error`, with
    /// the detail only when the server exposes details.
    pub(crate) fn masked(&self, name: &str, error: &crate::ToolError) -> String {
        tracing::error!(
            prompt = name,
            error = error.message(),
            "a handler failed with an internal error"
        );
        if self.options.expose_internal_errors {
            format!("internal error: {}", error.message())
        } else {
            "internal error".to_owned()
        }
    }
}

impl Engine {
    /// The context of a prompt get or resource read made outside any protocol exchange
    /// (the command line): `local` is the client that answers its asks, as for
    /// [`Engine::execute`]; without one, an ask fails with `NoClient`.
    pub(crate) fn local_context(
        &self,
        local: Option<(Arc<dyn ClientChannel>, serde_json::Value)>,
    ) -> Context {
        let (channel, capabilities) = match local {
            Some((channel, capabilities)) => (Some(channel), Some(Arc::new(capabilities))),
            None => (None, None),
        };
        self.context(CallParts {
            request_id: None,
            version: None,
            client: Engine::local_client(capabilities),
            progress_token: None,
            cancel: tokio_util::sync::CancellationToken::new(),
            principal: None,
            channel,
        })
    }

    /// Runs a prompt's or resource's fn outside any protocol exchange, within the call time
    /// limit, masking an internal error's detail as an answer would. `name` is what the log
    /// names it by, `what` how the error does (``the prompt `x` ``).
    pub(crate) async fn run_local<T: Send + 'static>(
        &self,
        work: Work<T>,
        name: &str,
        what: &str,
    ) -> Result<T, HandlerError> {
        let limit = self.options.limits.call_timeout;
        let done = match tokio::time::timeout(limit, work.run()).await {
            Ok(done) => done,
            Err(_) => {
                tracing::warn!(name, ?limit, "ran out of time and was stopped");
                let message = format!("{what} did not finish within its time limit");
                Err(HandlerError::Failed(ToolError::new(message)))
            }
        };
        done.map_err(|error| match error {
            HandlerError::Failed(error) if error.is_internal() => {
                HandlerError::Failed(ToolError::new(self.masked(name, &error)))
            }
            other => other,
        })
    }
}
