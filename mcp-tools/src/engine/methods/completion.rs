//! `completion/complete`: candidates for a prompt's argument (`ref/prompt`) or a resource
//! template's variable (`ref/resource`, naming the template as `resources/templates/list`
//! shows it) as the user types it: an enum-typed one from its values, one with
//! `#[complete(..)]` from its fn. A server with prompts or resources serves it.

use crate::completion::{Completed, Completing};
use crate::context::Context;
use crate::engine::asks::asking::{answer_later, not_served};
use crate::engine::state::core::{Auth, CallParts, Engine, sees};
use crate::engine::state::handle::Handle;
use crate::engine::wire::encode;
use crate::engine::wire::era::era_of;
use crate::engine::wire::failure::{Failure, Outcome, parse};
use crate::engine::wire::outbox::Outbox;
use crate::error::ToolError;
use crate::protocol::ErrorCode;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::jsonrpc::{self};
use crate::protocol::messages::META_SERVER_INFO;
use crate::resource::Resource;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::sync::{Arc, OnceLock};
use std::task::{Poll, Waker};

/// `completion/complete`'s params.
#[derive(Deserialize)]
struct CompleteParams {
    #[serde(rename = "ref")]
    reference: Reference,
    argument: Argument,
    #[serde(default)]
    context: Option<CompletionContext>,
}

/// What is being completed.
#[derive(Deserialize)]
#[serde(tag = "type")]
enum Reference {
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

#[derive(Deserialize)]
struct Argument {
    name: String,
    value: String,
}

#[derive(Deserialize, Default)]
struct CompletionContext {
    #[serde(default)]
    arguments: Map<String, Value>,
}

#[derive(Deserialize, Default)]
struct MetaOfComplete<'a> {
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<crate::protocol::messages::RequestMeta<'a>>,
}

/// `completion/complete`, by function pointer: installed by [`link`], which only linking
/// prompts or resources calls (see bench/README.md, "Footprint").
static COMPLETE: OnceLock<Method> = OnceLock::new();

/// The method, as linked.
type Method = fn(&Arc<Engine>, Handle<'_>, Option<&RawValue>) -> Outcome;

/// Installs `completion/complete`.
pub(crate) fn link() {
    COMPLETE.get_or_init(|| Engine::complete_linked);
}

impl Engine {
    /// `completion/complete`: at most 100 candidates, with how many matched in all. A
    /// completion fn that does not finish at once (an `async` one that waits) is answered
    /// from a task of its own, within the call time limit, unless the client cancels it.
    pub(crate) fn complete(self: &Arc<Self>, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        match COMPLETE.get() {
            Some(complete) => complete(self, req, params),
            None => Err(not_served("completion/complete", "prompts or resources")),
        }
    }

    /// What `complete` does once prompts or resources linked it.
    fn complete_linked(self: &Arc<Self>, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let head: MetaOfComplete<'_> =
            parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
        let era = era_of(conn, "completion/complete", head.meta.as_ref())?;
        if self.prompts.is_none() && self.resources.is_none() {
            return Err(not_served("completion/complete", "prompts or resources"));
        }
        let request: CompleteParams =
            parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
        let given = request.context.unwrap_or_default().arguments;
        let Argument {
            name: argument,
            value,
        } = &request.argument;
        let (modern, version) = (era.is_modern(), era.version());
        let (request_id, cancel) = conn.begin_request(id)?;
        let cx = self.context(CallParts {
            request_id: Some(request_id.clone()),
            version: Some(version),
            client: era.into_client(),
            progress_token: None,
            cancel,
            principal: auth.cloned(),
            channel: None,
        });
        let completing = match &request.reference {
            Reference::Prompt { name } => self.complete_prompt(&cx, name, argument, value, &given, auth),
            Reference::Resource { uri } => self.complete_template(&cx, uri, argument, value, &given, auth),
        };
        let mut completing = match completing {
            Ok(completing) => completing,
            Err(failure) => {
                conn.finish(&request_id);
                return Err(failure);
            }
        };
        let what = match &request.reference {
            Reference::Prompt { name } => name.clone(),
            Reference::Resource { uri } => uri.clone(),
        };
        let raw_id: Box<RawValue> = id.raw.to_owned();
        if let Poll::Ready(completed) = completing
            .as_mut()
            .poll(&mut std::task::Context::from_waker(Waker::noop()))
        {
            conn.finish(&request_id);
            self.respond_completion(out, &raw_id, modern, &what, completed);
            return Ok(());
        }
        let engine = Arc::clone(self);
        let out = out.clone();
        let limit = self.options.limits.call_timeout;
        let name = what.clone();
        let timed_out = move || {
            tracing::warn!(name, ?limit, "a completion ran out of time and was stopped");
            Err(ToolError::new(format!(
                "completing `{name}` did not finish within its time limit"
            )))
        };
        answer_later(
            conn,
            &request_id,
            Some(cx.clone()),
            limit,
            completing,
            timed_out,
            move |completed| {
                engine.respond_completion(&out, &raw_id, modern, &what, completed);
            },
        );
        Ok(())
    }

    /// The answer to a `completion/complete`: the candidates, or `-32603` when the
    /// completion fn failed (an internal error's detail logged, not sent, unless the server
    /// exposes details).
    fn respond_completion(
        &self,
        out: &Outbox,
        id: &RawValue,
        modern: bool,
        what: &str,
        completed: Result<Completed, ToolError>,
    ) {
        let completed = match completed {
            Ok(completed) => completed,
            Err(error) => {
                let message = if error.is_internal() {
                    self.masked(what, &error)
                } else {
                    error.message().to_owned()
                };
                encode::respond_failure(out, Some(id), Failure::new(ErrorCode::INTERNAL_ERROR, message));
                return;
            }
        };
        let mut result = json!({
            "completion": { "values": completed.values, "total": completed.total, "hasMore": completed.has_more }
        });
        if modern {
            result["resultType"] = json!("complete");
            let identity: Value = serde_json::from_str(self.identity.get()).unwrap_or(Value::Null);
            result["_meta"] = json!({ META_SERVER_INFO: identity });
        }
        let mut bytes = Vec::with_capacity(128);
        jsonrpc::write_result(&mut bytes, id, &result);
        out.respond(bytes);
    }

    /// Completes `argument` of the enabled prompt `name`.
    fn complete_prompt(
        &self,
        cx: &Context,
        name: &str,
        argument: &str,
        value: &str,
        given: &Map<String, Value>,
        auth: Auth<'_>,
    ) -> Result<Completing, Failure> {
        let Some(prompt) = self.visible_prompt(name, auth) else {
            let name = clip(name, QUOTED_NAME_CHARS);
            return Err(Failure::invalid_params(format!("Unknown prompt: {name}")));
        };
        prompt.complete(cx, argument, value, given).ok_or_else(|| {
            let argument = clip(argument, QUOTED_NAME_CHARS);
            Failure::invalid_params(format!("the prompt `{name}` has no argument `{argument}`"))
        })
    }

    /// Completes `variable` of the enabled resource template whose URI template is `uri`.
    fn complete_template(
        &self,
        cx: &Context,
        uri: &str,
        variable: &str,
        value: &str,
        given: &Map<String, Value>,
        auth: Auth<'_>,
    ) -> Result<Completing, Failure> {
        let snapshot = self.resources.as_ref().map(|resources| resources.snapshot());
        let rule = self.visibility.resources.as_ref();
        let found = snapshot.as_ref().and_then(|snapshot| snapshot.get(uri));
        let Some(resource) = found.filter(|resource| sees(rule, resource, auth)) else {
            let resources = snapshot.as_ref().map_or(&[][..], |snapshot| snapshot.items());
            return Err(Failure::invalid_params(unknown_template(uri, resources)));
        };
        if !resource.is_template() {
            return Err(Failure::invalid_params(format!(
                "the resource `{uri}` has no variables: its URI is fixed; completion is for the variables of resource templates (URIs with `{{...}}`)"
            )));
        }
        resource.complete(cx, variable, value, given).ok_or_else(|| {
            let variable = clip(variable, QUOTED_NAME_CHARS);
            let variables: Vec<String> = resource.variables().map(|name| format!("`{name}`")).collect();
            Failure::invalid_params(format!(
                "the resource template `{uri}` has no variable `{variable}`; its variables are {}",
                variables.join(", ")
            ))
        })
    }
}

/// Why no enabled resource has the URI (template) `uri`, and which templates there are:
/// the one that matches `uri` (a URI read from it is not its name), else the first ten.
fn unknown_template(uri: &str, resources: &[Resource]) -> String {
    let said = clip(uri, QUOTED_NAME_CHARS);
    let mut templates = resources.iter().filter(|resource| resource.is_template());
    if let Some(template) = templates
        .clone()
        .find(|template| template.variables_of(uri).is_some())
    {
        return format!(
            "unknown resource template `{said}`; did you mean `{}`? `ref/resource` names a template as `resources/templates/list` lists it",
            template.uri()
        );
    }
    let known: Vec<String> = templates
        .by_ref()
        .take(10)
        .map(|t| format!("`{}`", t.uri()))
        .collect();
    match (known.is_empty(), templates.next().is_some()) {
        (true, _) => format!("unknown resource template `{said}`; this server has no resource templates"),
        (false, false) => format!(
            "unknown resource template `{said}`; expected one of {}",
            known.join(", ")
        ),
        (false, true) => format!(
            "unknown resource template `{said}`; expected one of {}, ...",
            known.join(", ")
        ),
    }
}
