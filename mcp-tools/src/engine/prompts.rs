//! `prompts/list` and `prompts/get`. A prompt's arguments arrive as strings and are parsed
//! into its parameters; its fn may ask the client things as a tool does, in both eras (in
//! revision 2026-07-28 a `prompts/get` ends its round with `input_required`).

use super::asking::Sealing;
use super::client::CallChannel;
use super::connection::Connection;
use super::core::{Auth, CallParts, Engine};
use super::encode::{self, respond_failure};
use super::era::{Era, era_of};
use super::failure::{Failure, Outcome, strip_position};
use super::listing;
use super::outbox::Outbox;
use super::rounds::{Finished, Round, Rounds};
use crate::context::ClientChannel;
use crate::prompt::{GetPromptResult, PromptError};
use crate::protocol::jsonrpc::{Id, METHOD_NOT_FOUND, MISSING_CAPABILITY};
use crate::protocol::messages::RawCall;
use crate::protocol::{ProtocolVersion, RequestId};
use crate::registry::PromptRegistry;
use serde_json::json;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};

/// A prompt's work: its fn, ended early when it waits on a question of its round.
type Work = Rounds<Pin<Box<dyn Future<Output = Result<GetPromptResult, PromptError>> + Send>>>;

/// The JSON-RPC code of a prompt whose fn failed.
const INTERNAL_ERROR: i32 = -32603;

impl Engine {
    /// The prompts, or the error for a server that serves none.
    fn prompt_registry(&self, method: &str) -> Result<&PromptRegistry, Failure> {
        self.prompts.as_ref().ok_or_else(|| {
            Failure::new(
                METHOD_NOT_FOUND,
                format!("method `{method}` is not served: this server has no prompts"),
            )
        })
    }

    /// `prompts/list`: a page of the prompts.
    pub(crate) fn list_prompts(&self, id: Id<'_>, era: &Era, cursor: Option<&str>, out: &Outbox) -> Outcome {
        let snapshot = self.prompt_registry("prompts/list")?.snapshot();
        let request = self.list_request(id, era, cursor);
        out.respond(listing::list_page(&listing::PROMPTS, &snapshot, &request, None)?);
        Ok(())
    }

    /// `prompts/get`: the prompt filled in with the arguments, or the questions of its round.
    pub(crate) fn prompts_get(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        request: RawCall<'_>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let request = request
            .check()
            .map_err(|e| Failure::invalid_params(format!("invalid params: {}", strip_position(&e))))?;
        let era = era_of(conn, "prompts/get", request.meta.as_ref())?;
        let Some(prompt) = self.prompt_registry("prompts/get")?.get(&request.name) else {
            return Err(Failure::invalid_params(format!(
                "Unknown prompt: {}",
                request.name
            )));
        };
        let version = era.version();
        let modern = era.is_modern();
        let round = if modern {
            self.round_of("prompts/get", prompt.name(), prompt.may_ask(), &request, auth)?
        } else {
            None
        };
        let (request_id, cancel) = conn.begin_request(id)?;
        let channel: Arc<dyn ClientChannel> = Arc::new(CallChannel {
            conn: Arc::clone(conn),
            out: out.clone(),
            call: cancel.clone(),
            round: round.as_ref().map(|(round, _)| Arc::clone(round)),
            version,
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
            cancel: cancel.clone(),
            principal: auth.cloned(),
            channel: Some(channel),
        });
        let mut work: Work = Rounds {
            work: Box::pin(prompt.invoke(&cx, request.arguments).run()),
            round: round.as_ref().map(|(round, _)| Arc::clone(round)),
        };
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let name = prompt.name().to_owned();
        if let Poll::Ready(finished) =
            Pin::new(&mut work).poll(&mut std::task::Context::from_waker(Waker::noop()))
        {
            conn.finish(&request_id);
            self.respond_prompt(out, &raw_id, finished, &name, version, round.as_ref());
            return Ok(());
        }
        let round = round.map(|(round, sealing)| (round, sealing.into_owned()));
        let engine = Arc::clone(self);
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let key = request_id.clone();
        let limit = self.options.call_timeout;
        let task = conn.tasks().spawn(async move {
            let finished = match tokio::time::timeout(limit, work).await {
                Ok(finished) => finished,
                Err(_) => {
                    tracing::warn!(prompt = name, ?limit, "a prompt ran out of time and was stopped");
                    let message = format!("the prompt `{name}` was not filled in within its time limit");
                    Finished::Complete(Err(PromptError::Failed(crate::ToolError::new(message))))
                }
            };
            let cancelled = cancel.is_cancelled();
            conn2.finish(&key);
            if !cancelled {
                engine.respond_prompt(&out, &raw_id, finished, &name, version, round.as_ref());
            }
        });
        conn.set_abort(&request_id, task.abort_handle());
        drop(cx);
        Ok(())
    }

    /// Fills a prompt in outside the protocol (the command line's `prompt`) as a
    /// `prompts/get` from an anonymous local client would be: the same arguments parsed
    /// from strings, the same time limit (which includes the time the local client takes
    /// to answer), and an internal error's detail logged, not given, unless the server
    /// exposes details. `None` when the server has no such prompt.
    ///
    /// `local` is the client that answers the prompt's asks, as for
    /// [`Engine::execute`]; without one, an ask fails with `NoClient`.
    #[cfg(feature = "cli")]
    pub(crate) async fn execute_prompt(
        self: &Arc<Self>,
        name: &str,
        arguments: &serde_json::Value,
        local: Option<(Arc<dyn ClientChannel>, serde_json::Value)>,
    ) -> Option<Result<GetPromptResult, PromptError>> {
        let prompt = self.prompts.as_ref()?.get(name)?;
        let (channel, capabilities) = match local {
            Some((channel, capabilities)) => (Some(channel), Some(Arc::new(capabilities))),
            None => (None, None),
        };
        let cx = self.context(CallParts {
            request_id: None,
            version: None,
            client: Engine::local_client(capabilities),
            progress_token: None,
            cancel: tokio_util::sync::CancellationToken::new(),
            principal: None,
            channel,
        });
        let text = arguments.to_string();
        let Ok(raw) = crate::protocol::arguments::RawArguments::from_json(&text) else {
            return Some(Err(PromptError::Arguments(
                "the arguments are not valid JSON".into(),
            )));
        };
        let limit = self.options.call_timeout;
        let filled = match tokio::time::timeout(limit, prompt.invoke(&cx, raw).run()).await {
            Ok(filled) => filled,
            Err(_) => {
                tracing::warn!(prompt = name, ?limit, "a prompt ran out of time and was stopped");
                let message = format!("the prompt `{name}` was not filled in within its time limit");
                Err(PromptError::Failed(crate::ToolError::new(message)))
            }
        };
        Some(filled.map_err(|error| match error {
            PromptError::Failed(error) if error.is_internal() => {
                PromptError::Failed(crate::ToolError::new(self.masked(name, &error)))
            }
            other => other,
        }))
    }

    /// What a client reads of a prompt's internal error, logged here: `internal error`, with
    /// the detail only when the server exposes details.
    fn masked(&self, name: &str, error: &crate::ToolError) -> String {
        tracing::error!(
            prompt = name,
            error = error.message(),
            "a prompt failed with an internal error"
        );
        if self.options.expose_internal_errors {
            format!("internal error: {}", error.message())
        } else {
            "internal error".to_owned()
        }
    }

    /// The answer to a `prompts/get`: the filled-in prompt, the questions of its round, or
    /// the error: `-32602` for arguments that do not fit, `-32021` (2026-07-28) for a
    /// capability the client lacks, `-32603` when the prompt's fn failed (an internal
    /// error's detail logged, not sent, unless the server exposes details).
    fn respond_prompt(
        &self,
        out: &Outbox,
        id: &RawValue,
        finished: Finished<Result<GetPromptResult, PromptError>>,
        name: &str,
        version: ProtocolVersion,
        round: Option<&(Arc<Round>, Sealing<'_>)>,
    ) {
        let modern = version.is_modern();
        let failure = match finished {
            Finished::Complete(Ok(result)) => {
                let identity = modern.then_some(&*self.identity);
                return out.respond(encode::prompt_result(id, &result, version, identity));
            }
            Finished::InputRequired(asked) => {
                let round = round.map(|(round, sealing)| (&**round, sealing));
                if self.respond_input_required(out, id, &asked, round, name) {
                    return;
                }
                Failure::new(INTERNAL_ERROR, "internal error")
            }
            Finished::Complete(Err(PromptError::Arguments(problems))) => Failure::invalid_params(problems),
            Finished::Complete(Err(PromptError::Failed(error))) => match error.missing_capability() {
                Some(capability) if modern => Failure::new(MISSING_CAPABILITY, error.message())
                    .with_data(json!({ "requiredCapabilities": capability.as_json() })),
                _ if error.is_internal() => Failure::new(INTERNAL_ERROR, self.masked(name, &error)),
                _ => Failure::new(INTERNAL_ERROR, error.message()),
            },
        };
        respond_failure(out, Some(id), failure);
    }
}
