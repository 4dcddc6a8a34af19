//! `prompts/list` and `prompts/get`. A prompt's arguments arrive as strings and are parsed
//! into its parameters; its fn may ask the client things as a tool does, in both eras (in
//! revision 2026-07-28 a `prompts/get` ends its round with `input_required`).

use crate::engine::asks::asking::{Answering, Handler, Respond, not_served, served};
use crate::engine::state::core::{Auth, Engine, sees};
use crate::engine::state::handle::Handle;
use crate::engine::state::listing;
use crate::engine::wire::encode;
use crate::engine::wire::era::{Era, era_of};
use crate::engine::wire::failure::{Failure, Outcome, strip_position};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::Finished;
use crate::prompt::{GetPromptResult, HandlerError, Prompt};
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::jsonrpc::Id;
use crate::protocol::messages::RawCall;
use crate::registry::PromptRegistry;
use serde_json::value::RawValue;
use std::sync::{Arc, OnceLock};

/// `prompts/get`, by function pointer: installed by [`link`], which only the builder's
/// prompt setters call, so that a server without prompts links neither it nor completion
/// (see bench/README.md, "Footprint"). Such a server answers that it serves no prompts.
static GET: OnceLock<Method> = OnceLock::new();

/// The method, as linked.
type Method = fn(&Arc<Engine>, Handle<'_>, RawCall<'_>) -> Outcome;

/// Installs `prompts/get` and `completion/complete`.
pub(crate) fn link() {
    GET.get_or_init(|| Engine::get_prompt);
    super::completion::link();
}

impl Engine {
    /// The prompts, or the error for a server that serves none.
    fn prompt_registry(&self, method: &str) -> Result<&PromptRegistry, Failure> {
        served(self.prompts.as_ref(), method, "prompts")
    }

    /// `prompts/list`: a page of the prompts the caller may see.
    pub(crate) fn list_prompts(
        &self,
        id: Id<'_>,
        era: &Era,
        cursor: Option<&str>,
        out: &Outbox,
        auth: Auth<'_>,
    ) -> Outcome {
        let snapshot = self.prompt_registry("prompts/list")?.snapshot();
        let request = self.list_request(id, era, cursor);
        let rule = self.visibility.prompts.as_ref();
        out.respond(listing::list_for(
            &listing::PROMPTS,
            &snapshot,
            &request,
            rule,
            auth,
            None,
        )?);
        Ok(())
    }

    /// The enabled prompt `name`, if the caller may see it.
    pub(crate) fn visible_prompt(&self, name: &str, auth: Auth<'_>) -> Option<Prompt> {
        let prompt = self.prompts.as_ref()?.get(name)?;
        sees(self.visibility.prompts.as_ref(), &prompt, auth).then_some(prompt)
    }

    /// The names of the prompts an anonymous local caller sees, in registration order.
    pub(crate) fn local_prompt_names(&self) -> Vec<String> {
        let Some(registry) = self.prompts.as_ref() else {
            return Vec::new();
        };
        registry
            .prompts()
            .into_iter()
            .filter(|prompt| sees(self.visibility.prompts.as_ref(), prompt, None))
            .map(|prompt| prompt.name().to_owned())
            .collect()
    }

    /// `prompts/get`: the prompt filled in with the arguments, or the questions of its round.
    pub(crate) fn prompts_get(self: &Arc<Self>, req: Handle<'_>, request: RawCall<'_>) -> Outcome {
        match GET.get() {
            Some(get) => get(self, req, request),
            None => Err(not_served("prompts/get", "prompts")),
        }
    }

    /// What `prompts_get` does once the prompts are linked.
    fn get_prompt(self: &Arc<Self>, req: Handle<'_>, request: RawCall<'_>) -> Outcome {
        let Handle {
            conn,
            id: _,
            out: _,
            auth,
        } = req;
        let request = request
            .check()
            .map_err(|e| Failure::invalid_params(format!("invalid params: {}", strip_position(&e))))?;
        let era = era_of(conn, "prompts/get", request.meta.as_ref())?;
        self.prompt_registry("prompts/get")?;
        let Some(prompt) = self.visible_prompt(&request.name, auth) else {
            return Err(Failure::invalid_params(format!(
                "Unknown prompt: {}",
                clip(&request.name, QUOTED_NAME_CHARS)
            )));
        };
        let handler = Handler {
            method: "prompts/get",
            name: prompt.name().to_owned(),
            may_ask: prompt.may_ask(),
        };
        let respond: Respond<GetPromptResult> = |engine, out, id, finished, answering| {
            engine.respond_prompt(out, id, finished, answering);
        };
        self.handle_request(
            req,
            era,
            request,
            handler,
            move |cx, arguments| prompt.invoke(cx, arguments),
            respond,
        )
    }

    /// Fills a prompt in outside the protocol (the command line's `prompt`) as a
    /// `prompts/get` from an anonymous local client would be: the same arguments parsed
    /// from strings, the same time limit (which includes the time the local client takes
    /// to answer), and an internal error's detail logged, not given, unless the server
    /// exposes details. `None` when the server has no such prompt.
    ///
    /// `local` is the client that answers the prompt's asks, as for
    /// [`Engine::execute`]; without one, an ask fails with `NoClient`.
    pub(crate) async fn execute_prompt(
        self: &Arc<Self>,
        name: &str,
        arguments: &serde_json::Value,
        local: Option<(Arc<dyn crate::context::ClientChannel>, serde_json::Value)>,
    ) -> Option<Result<GetPromptResult, HandlerError>> {
        let prompt = self.visible_prompt(name, None)?;
        let cx = self.local_context(local);
        let text = arguments.to_string();
        let Ok(raw) = crate::protocol::arguments::RawArguments::from_json(&text) else {
            return Some(Err(HandlerError::Arguments(
                "the arguments are not valid JSON".into(),
            )));
        };
        let what = format!("the prompt `{name}`");
        Some(self.run_local(prompt.invoke(&cx, raw), name, &what).await)
    }

    /// The answer to a `prompts/get`: the filled-in prompt, the questions of its round, or
    /// the error: `-32602` for arguments that do not fit or an item the prompt's fn did not
    /// find ([`ToolError::not_found`](crate::ToolError::not_found)), `-32021` (2026-07-28)
    /// for a capability the client lacks, `-32603` when the prompt's fn failed (an internal
    /// error's detail logged, not sent, unless the server exposes details).
    fn respond_prompt(
        &self,
        out: &Outbox,
        id: &RawValue,
        finished: Finished<Result<GetPromptResult, HandlerError>>,
        answering: &Answering<'_>,
    ) {
        match finished {
            Finished::Complete(Ok(result)) => {
                let identity = answering.modern().then_some(&*self.identity);
                out.respond(encode::prompt_result(id, &result, answering.version, identity));
            }
            Finished::Complete(Err(HandlerError::Failed(error))) if error.is_not_found() => {
                encode::respond_failure(out, Some(id), Failure::invalid_params(error.message()));
            }
            unfinished => self.respond_unfinished(out, id, unfinished, answering),
        }
    }
}
