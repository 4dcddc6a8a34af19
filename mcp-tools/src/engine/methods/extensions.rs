//! Extensions (SEP-3371): those the server declares (its own, tasks and skills, through the
//! same [`Extension`] a user declares hers with), the start-time checks on them, and the
//! custom methods and notifications they serve.

use crate::engine::asks::asking::{Answering, Handler, Respond};
use crate::engine::state::core::{CallParts, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode;
use crate::engine::wire::era::era_of;
use crate::engine::wire::failure::{Failure, Outcome};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::Finished;
use crate::error::DefinitionError;
use crate::extension::{Extension, Extensions, Gate, Method};
use crate::prompt::HandlerError;
use crate::protocol::ErrorCode;
use crate::protocol::arguments::RawArguments;
use crate::protocol::jsonrpc::Params;
use crate::protocol::messages::{CallToolParams, RequestMeta};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::Arc;

/// The framework's own extensions: tasks (declared while a tool may run as a task), skills
/// (on a server with skills) and MCP Apps (on a server with a view, in `initialize` too).
fn builtin(skills: bool, views: bool) -> Vec<Extension> {
    let mut builtin = vec![Extension::new(crate::engine::tasks::EXTENSION).gated(Gate::TaskTools)];
    if skills {
        builtin.push(
            Extension::new(crate::engine::methods::skills::EXTENSION)
                .settings(json!({ "directoryRead": true })),
        );
    }
    if views {
        builtin.push(
            Extension::new(crate::app::EXTENSION)
                .settings(json!({ "mimeTypes": [crate::app::MIME_TYPE] }))
                .in_initialize(),
        );
    }
    builtin
}

/// Every problem with the extensions a server is given: ids and settings, duplicates (the
/// framework's own among them, as they are at start), dependencies the server does not
/// declare, and methods of one name.
pub(crate) fn extension_problems(
    given: &[Extension],
    task_tools: bool,
    skills: bool,
    views: bool,
) -> Vec<DefinitionError> {
    let builtin = builtin(skills, views);
    let declared: Vec<&Extension> = given
        .iter()
        .chain(builtin.iter().filter(|e| e.gate() == Gate::Always || task_tools))
        .collect();
    let mut problems: Vec<DefinitionError> = given
        .iter()
        .filter_map(|e| e.problem().map(DefinitionError::InvalidExtension))
        .collect();
    for (index, extension) in declared.iter().enumerate() {
        let id = extension.id();
        let earlier = declared[..index].iter().filter(|e| e.id() == id).count();
        if earlier == 1 {
            problems.push(DefinitionError::DuplicateExtension(id.to_owned()));
        }
    }
    for extension in given {
        for needs in extension.dependencies() {
            if !declared.iter().any(|e| e.id() == needs) {
                problems.push(DefinitionError::MissingDependency {
                    extension: extension.id().to_owned(),
                    needs: needs.clone(),
                });
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for method in given.iter().flat_map(Extension::custom_methods) {
        if seen.contains(&method.name()) {
            problems.push(DefinitionError::DuplicateMethod(method.name().to_owned()));
        }
        seen.push(method.name());
    }
    problems
}

/// The extensions `given`, then the framework's own: what a server declares (`views`: it
/// serves an MCP Apps view).
pub(crate) fn with_builtin(mut given: Vec<Extension>, skills: bool, views: bool) -> Extensions {
    given.extend(builtin(skills, views));
    Extensions::new(given)
}

impl Engine {
    /// A request for a custom method: its params (an object; `_meta`, `inputResponses` and
    /// `requestState` are the protocol's, the rest are the fn's arguments), its era, then its
    /// fn, as a prompt's is run.
    pub(crate) fn call_method(
        self: &Arc<Self>,
        req: Handle<'_>,
        method: Method,
        params: Option<Params<'_>>,
    ) -> Outcome {
        let Handle {
            conn,
            id: _,
            out: _,
            auth: _,
        } = req;
        let request = method_params(method.name(), params)?;
        let era = era_of(conn, method.name(), request.meta.as_ref())?;
        let handler = Handler {
            method: "method",
            name: method.name().to_owned(),
            may_ask: method.may_ask(),
        };
        let respond: Respond<Value> = |engine, out, id, finished, answering| {
            engine.respond_method(out, id, finished, answering);
        };
        self.handle_request(
            req,
            era,
            request,
            handler,
            move |cx, arguments| method.invoke(cx, arguments),
            respond,
        )
    }

    /// A notification for a custom method: its fn runs with the params; what goes wrong is
    /// logged, as nothing answers a notification.
    pub(crate) fn method_notification(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        method: &Method,
        params: Option<&RawValue>,
    ) {
        let name = method.name();
        let params = params.map(Params::Raw);
        let request = match method_params(name, params) {
            Ok(request) => request,
            Err(failure) => {
                tracing::debug!(
                    method = name,
                    error = failure.message,
                    "ignored a malformed notification"
                );
                return;
            }
        };
        let Ok(era) = era_of(conn, name, request.meta.as_ref()) else {
            tracing::debug!(method = name, "ignored a notification before `initialize`");
            return;
        };
        let cx = method.may_ask().then(|| {
            self.context(CallParts {
                request_id: None,
                version: Some(era.version()),
                client: era.into_client(),
                progress_token: None,
                cancel: tokio_util::sync::CancellationToken::new(),
                principal: None,
                channel: None,
            })
        });
        let work = method.invoke(cx.as_ref().unwrap_or(&self.bare), request.arguments);
        let limit = self.options.limits.call_timeout;
        let run = async move {
            let _cx = cx;
            match tokio::time::timeout(limit, work.run()).await {
                Ok(Ok(_)) => {}
                Ok(Err(HandlerError::Arguments(problems))) => {
                    tracing::debug!(method = name, problems, "ignored a notification with bad params");
                }
                Ok(Err(HandlerError::Failed(error))) => {
                    tracing::warn!(
                        method = name,
                        error = error.message(),
                        "a notification's handler failed"
                    );
                }
                Err(_) => tracing::warn!(method = name, ?limit, "a notification's handler ran out of time"),
            }
        };
        conn.tasks().spawn(run);
    }

    /// The answer to a custom method: its fn's result (in revision 2026-07-28 an object
    /// gets `resultType` and the server's identity in `_meta`), or its error as a prompt's
    /// is answered.
    fn respond_method(
        &self,
        out: &Outbox,
        id: &RawValue,
        finished: Finished<Result<Value, HandlerError>>,
        answering: &Answering<'_>,
    ) {
        match finished {
            Finished::Complete(Ok(mut result)) => {
                if answering.modern() {
                    encode::mark_complete(&mut result, &self.identity);
                }
                out.respond(encode::result(id, &result));
            }
            Finished::Complete(Err(HandlerError::Failed(error))) if error.is_not_found() => {
                encode::respond_failure(out, Some(id), Failure::invalid_params(error.message()));
            }
            unfinished => self.respond_unfinished(out, id, unfinished, answering),
        }
    }
}

/// A custom method's params, split: the protocol's members, and the fn's arguments.
fn method_params<'a>(name: &str, params: Option<Params<'a>>) -> Result<CallToolParams<'a>, Failure> {
    let mut arguments = match params {
        Some(Params::Raw(raw)) => RawArguments::from_json(raw.get())
            .map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?,
        Some(Params::NotObject(what)) => {
            return Err(Failure::invalid_params(format!(
                "the params of `{name}` must be a JSON object, not {what}"
            )));
        }
        Some(Params::Call(_)) => {
            return Err(Failure::new(ErrorCode::INTERNAL_ERROR, "internal error"));
        }
        None => RawArguments::default(),
    };
    let meta = match arguments.remove("_meta") {
        Some(raw) => Option::<RequestMeta<'a>>::deserialize(raw)
            .map_err(|e| Failure::invalid_params(format!("invalid `_meta`: {e}")))?,
        None => None,
    };
    let input_responses = arguments
        .remove("inputResponses")
        .filter(|raw| raw.get() != "null");
    let request_state = match arguments.remove("requestState") {
        Some(raw) => Some(
            Cow::<'a, str>::deserialize(raw)
                .map_err(|_| Failure::invalid_params("`requestState` must be a string"))?,
        ),
        None => None,
    };
    Ok(CallToolParams {
        name: Cow::Owned(name.to_owned()),
        arguments,
        meta,
        input_responses,
        request_state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(given: &[Extension], task_tools: bool, skills: bool) -> Vec<String> {
        extension_problems(given, task_tools, skills, false)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn every_problem_is_named_and_the_frameworks_own_count() {
        let given = [
            Extension::new("stats"),
            Extension::new("com.example/a").settings(json!([1])),
            Extension::new("io.modelcontextprotocol/tasks"),
            Extension::new("com.example/b").depends_on("io.modelcontextprotocol/skills"),
            Extension::new("com.example/b"),
        ];
        assert_eq!(
            messages(&given, true, false),
            [
                "extension id `stats` has no vendor prefix; write `vendor/name`, such as `com.example/stats`",
                "the settings of extension `com.example/a` must be a JSON object, such as `{\"fuzzy\": true}`",
                "duplicate extension `com.example/b`: every extension of a server needs its own id",
                "duplicate extension `io.modelcontextprotocol/tasks`: every extension of a server needs its own id",
                "extension `com.example/b` depends on `io.modelcontextprotocol/skills`, which the server does not declare; declare it with `Server::extension`",
            ]
        );
        // Without task tools the framework declares no tasks extension, and with skills the
        // skills extension satisfies a dependency.
        let given = [
            Extension::new("io.modelcontextprotocol/tasks"),
            Extension::new("com.example/b").depends_on("io.modelcontextprotocol/skills"),
        ];
        assert!(messages(&given, false, true).is_empty());
        // A server with a view declares MCP Apps itself.
        let given = [Extension::new(crate::app::EXTENSION)];
        assert!(extension_problems(&given, false, false, false).is_empty());
        assert_eq!(
            extension_problems(&given, false, false, true)[0].to_string(),
            "duplicate extension `io.modelcontextprotocol/ui`: every extension of a server needs its own id"
        );
    }

    #[test]
    fn the_declared_list_follows_the_gate() {
        let extensions = with_builtin(vec![Extension::new("com.example/a")], true, true);
        let ids = |task_tools| {
            extensions
                .declared(task_tools)
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(false),
            [
                "com.example/a",
                "io.modelcontextprotocol/skills",
                "io.modelcontextprotocol/ui"
            ]
        );
        assert_eq!(
            ids(true),
            [
                "com.example/a",
                "io.modelcontextprotocol/tasks",
                "io.modelcontextprotocol/skills",
                "io.modelcontextprotocol/ui"
            ]
        );
        // `initialize` declares only MCP Apps, whose hosts read it in every revision.
        assert_eq!(
            Value::Object(extensions.declared_in_initialize()),
            json!({"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}})
        );
        assert!(extensions.method("com.example/a").is_none());
    }
}
