//! `resources/list`, `resources/templates/list` and `resources/read`. A read finds the
//! resource with that fixed URI first, then the first template (in registration order) the
//! URI matches; the template's variables, decoded from the URI, fill the fn's parameters
//! as a prompt's arguments do. A resource's fn may ask as a tool's does.

use crate::engine::asks::asking::{Answering, Handler, Respond, not_served, served};
use crate::engine::state::core::{Auth, CallParts, Engine, sees};
use crate::engine::state::handle::Handle;
use crate::engine::state::listing;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode;
use crate::engine::wire::era::{Era, era_of};
use crate::engine::wire::failure::{Failure, Outcome};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::Finished;
use crate::prompt::HandlerError;
use crate::protocol::ErrorCode;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::jsonrpc::{self, Id};
use crate::protocol::messages::{CallToolParams, META_SERVER_INFO, RequestMeta};
use crate::registry::ResourceRegistry;
use crate::registry::catalog::Snapshot;
use crate::resource::{CacheScope, ReadOutput, Resource};
use crate::tool::RawArguments;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

/// How a subscription to a URI is refused, found by reading it once: see
/// [`Engine::check_read`].
pub(crate) type ReadCheck = Pin<Box<dyn Future<Output = Option<Failure>> + Send>>;

/// The URIs a listen stream watches: known at once, or once some reads end (see
/// [`Engine::watchable`]).
pub(crate) enum Watchable {
    Now(Vec<Arc<str>>),
    Later(Pin<Box<dyn Future<Output = Vec<Arc<str>>> + Send>>),
}

/// The output of `future` if it is ready at its first poll (one that does not wait).
pub(crate) fn ready_now<T>(future: &mut Pin<Box<dyn Future<Output = T> + Send>>) -> Option<T> {
    match future
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
    {
        std::task::Poll::Ready(output) => Some(output),
        std::task::Poll::Pending => None,
    }
}

/// The resource a URI names among those `visible` lets through, with its variables as a
/// JSON object: the resource with that fixed URI, else the first template (in registration
/// order) the URI matches.
fn resolve(
    snapshot: &Snapshot<Resource>,
    uri: &str,
    visible: impl Fn(&Resource) -> bool,
) -> Option<(Resource, String)> {
    let items = snapshot.items();
    let items = || items.iter().filter(|r| visible(r));
    let fixed = items().find(|r| !r.is_template() && r.uri() == uri);
    fixed
        .map(|resource| (resource.clone(), "{}".to_owned()))
        .or_else(|| {
            let templates = items().filter(|r| r.is_template());
            templates
                .filter_map(|resource| resource.variables_of(uri).map(|vars| (resource.clone(), vars)))
                .next()
        })
}

/// The revision's error for a URI no resource has.
pub(crate) fn not_found(era: &Era, uri: &str) -> Failure {
    let message = if era.is_modern() {
        format!("Resource not found: {}", clip(uri, QUOTED_NAME_CHARS))
    } else {
        "Resource not found".to_owned()
    };
    not_found_because(era.is_modern(), uri, message)
}

/// The resource-not-found error of a revision (modern: 2026-07-28), saying `message`.
fn not_found_because(modern: bool, uri: &str, message: String) -> Failure {
    let code = if modern {
        ErrorCode::INVALID_PARAMS
    } else {
        ErrorCode::RESOURCE_NOT_FOUND
    };
    Failure::new(code, message).with_data(json!({ "uri": clip(uri, QUOTED_NAME_CHARS) }))
}

/// The cache hints of a read in revision 2026-07-28 (`ttlMs`, `cacheScope`): the
/// resource's own when it declares them, else `0` (read again each time: contents change
/// without the server knowing) and `public`; and `private` whatever was declared when the
/// caller is authenticated, since what a caller reads may be its own.
fn read_cache_hints(resource: Option<&Resource>, authenticated: bool) -> (u64, CacheScope) {
    let ttl_ms = resource.and_then(Resource::ttl_ms).unwrap_or(0);
    let scope = match resource.and_then(Resource::cache_scope) {
        _ if authenticated => CacheScope::Private,
        Some(declared) => declared,
        None => CacheScope::Public,
    };
    (ttl_ms, scope)
}

/// `resources/read`'s params.
#[derive(Deserialize)]
struct ReadParams<'a> {
    #[serde(borrow)]
    uri: Cow<'a, str>,
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<RequestMeta<'a>>,
    #[serde(rename = "inputResponses", borrow, default)]
    input_responses: Option<&'a RawValue>,
    #[serde(rename = "requestState", borrow, default)]
    request_state: Option<Cow<'a, str>>,
}

/// `resources/read`, by function pointer: installed by [`link`], which only the builder's
/// resource setters (and a result budget's page resource) call, so that a server without
/// resources links neither it nor completion (see bench/README.md, "Footprint"). Such a
/// server answers that it serves no resources.
static READ: OnceLock<Method> = OnceLock::new();

/// The method, as linked.
type Method = fn(&Arc<Engine>, Handle<'_>, Option<&RawValue>) -> Outcome;

/// Installs `resources/read` and `completion/complete`.
pub(crate) fn link() {
    READ.get_or_init(|| Engine::read_resource);
    super::completion::link();
}

impl Engine {
    /// The resource `uri` names among those the caller may see, with its variables (see
    /// [`resolve`]).
    pub(crate) fn resource_for(
        &self,
        snapshot: &Snapshot<Resource>,
        uri: &str,
        auth: Auth<'_>,
    ) -> Option<(Resource, String)> {
        let rule = self.visibility.resources.as_ref();
        resolve(snapshot, uri, |resource| sees(rule, resource, auth))
    }

    /// How a read of `uri` (of `resource`, with its `variables`) would be refused, for a
    /// subscription to it: the read is made once, as the caller, with no client to ask.
    /// The resource-not-found error of the revision (`modern`: 2026-07-28) when the fn says
    /// so ([`ToolError::not_found`](crate::ToolError::not_found)), the invalid-params error
    /// when the URI's variables do not fit its parameters; `None` for anything else (its
    /// contents, another error, an ask, a read that outlasts the call time limit), since
    /// the URI then names something. What the read gave is dropped. A fixed URI is not
    /// read: its resource was registered under it, so it names something; only a
    /// template's URI can name nothing.
    pub(crate) fn check_read(
        &self,
        resource: &Resource,
        uri: &str,
        variables: &str,
        modern: bool,
        auth: Auth<'_>,
    ) -> ReadCheck {
        if !resource.is_template() {
            return Box::pin(std::future::ready(None));
        }
        let Ok(arguments) = RawArguments::from_json(variables) else {
            let failure = Failure::invalid_params("the URI's variables do not read as arguments");
            return Box::pin(std::future::ready(Some(failure)));
        };
        let cx = self.context(CallParts {
            request_id: None,
            version: None,
            client: Engine::local_client(None),
            progress_token: None,
            cancel: tokio_util::sync::CancellationToken::new(),
            principal: auth.cloned(),
            channel: None,
        });
        let work = resource.invoke(&cx, arguments);
        let limit = self.options.limits.call_timeout;
        let uri = uri.to_owned();
        Box::pin(async move {
            match tokio::time::timeout(limit, work.run()).await {
                Ok(Err(HandlerError::Failed(error))) if error.is_not_found() => {
                    Some(not_found_because(modern, &uri, error.message().to_owned()))
                }
                Ok(Err(HandlerError::Arguments(problems))) => Some(Failure::invalid_params(problems)),
                _ => None,
            }
        })
    }

    /// The URIs of `asked` a listen stream watches, in the order asked: those that name a
    /// resource the caller may see and whose read does not refuse them
    /// ([`Engine::check_read`]). Known at once when every read ends at once; else found
    /// by the future, within the call time limit in all (a read still running then counts
    /// as found).
    pub(crate) fn watchable(
        &self,
        snapshot: &Snapshot<Resource>,
        asked: &[String],
        auth: Auth<'_>,
    ) -> Watchable {
        let mut checks = Vec::new();
        let mut waiting = false;
        for uri in asked {
            let Some((resource, variables)) = self.resource_for(snapshot, uri, auth) else {
                continue;
            };
            let mut check = self.check_read(&resource, uri, &variables, true, auth);
            match ready_now(&mut check) {
                Some(Some(_refused)) => {}
                Some(None) => checks.push((Arc::from(uri.as_str()), None)),
                None => {
                    waiting = true;
                    checks.push((Arc::from(uri.as_str()), Some(check)));
                }
            }
        }
        if !waiting {
            return Watchable::Now(checks.into_iter().map(|(uri, _)| uri).collect());
        }
        let deadline = tokio::time::Instant::now() + self.options.limits.call_timeout;
        Watchable::Later(Box::pin(async move {
            let mut known = Vec::with_capacity(checks.len());
            for (uri, check) in checks {
                let refused = match check {
                    Some(check) => tokio::time::timeout_at(deadline, check).await.unwrap_or(None),
                    None => None,
                };
                if refused.is_none() {
                    known.push(uri);
                }
            }
            known
        }))
    }

    /// Answers a `resources/subscribe` once `check` ([`Engine::check_read`]) has found the
    /// resource, after `then` (which watches it) agreed: with its refusal, else `{}`. A
    /// check that ends at once is answered at once, in order; one that waits is answered
    /// from a task of its own.
    pub(crate) fn answer_when_found(
        &self,
        req: Handle<'_>,
        mut check: ReadCheck,
        then: impl FnOnce(&Connection) -> Outcome + Send + 'static,
    ) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        if let Some(refused) = ready_now(&mut check) {
            return match refused {
                Some(failure) => Err(failure),
                None => {
                    then(conn)?;
                    out.respond(encode::empty_result(id.raw));
                    Ok(())
                }
            };
        }
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let raw_id: Box<RawValue> = id.raw.to_owned();
        conn.tasks()
            .spawn(tracing::Instrument::in_current_span(async move {
                match check.await.map_or_else(|| then(&conn2), Err) {
                    Ok(()) => out.respond(encode::empty_result(&raw_id)),
                    Err(failure) => encode::respond_failure(&out, Some(&raw_id), failure),
                }
            }));
        Ok(())
    }

    /// The resources, or the error for a server that serves none.
    fn resource_registry(&self, method: &str) -> Result<&ResourceRegistry, Failure> {
        served(self.resources.as_ref(), method, "resources")
    }

    /// `resources/list` (fixed URIs) or `resources/templates/list` (templates): a page of
    /// those the caller may see.
    pub(crate) fn list_resources(
        &self,
        id: Id<'_>,
        era: &Era,
        cursor: Option<&str>,
        out: &Outbox,
        templates: bool,
        auth: Auth<'_>,
    ) -> Outcome {
        let (method, kind) = if templates {
            ("resources/templates/list", &listing::RESOURCE_TEMPLATES)
        } else {
            ("resources/list", &listing::RESOURCES)
        };
        let snapshot = self.resource_registry(method)?.snapshot();
        let request = self.list_request(id, era, cursor);
        let of_kind = move |resource: &Resource| resource.is_template() == templates;
        let rule = self.visibility.resources.as_ref();
        out.respond(listing::list_for(
            kind,
            &snapshot,
            &request,
            rule,
            auth,
            Some(&of_kind),
        )?);
        Ok(())
    }

    /// `resources/read`: the contents of the resource the URI names.
    pub(crate) fn resources_read(self: &Arc<Self>, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        match READ.get() {
            Some(read) => read(self, req, params),
            None => Err(not_served("resources/read", "resources")),
        }
    }

    /// What `resources_read` does once the resources are linked.
    fn read_resource(self: &Arc<Self>, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        let Handle {
            conn,
            id: _,
            out: _,
            auth,
        } = req;
        let text = params.map_or("{}", RawValue::get);
        let read: ReadParams<'_> = serde_json::from_str(text).map_err(|e| {
            Failure::invalid_params(format!(
                "invalid params: {}",
                crate::engine::wire::failure::strip_position(&e.to_string())
            ))
        })?;
        let era = era_of(conn, "resources/read", read.meta.as_ref())?;
        let registry = self.resource_registry("resources/read")?;
        let snapshot = registry.snapshot();
        let Some((resource, variables)) = self.resource_for(&snapshot, &read.uri, auth) else {
            return Err(not_found(&era, &read.uri));
        };
        let arguments = RawArguments::from_json(&variables)
            .map_err(|_| Failure::invalid_params("the URI's variables do not read as arguments"))?;
        let request = CallToolParams {
            name: read.uri.clone(),
            arguments,
            meta: read.meta,
            input_responses: read.input_responses,
            request_state: read.request_state,
        };
        let handler = Handler {
            method: "resources/read",
            name: resource.uri().to_owned(),
            may_ask: resource.may_ask(),
        };
        let respond: Respond<ReadOutput> = |engine, out, id, finished, answering| {
            engine.respond_read(out, id, finished, answering);
        };
        let reader = resource.clone();
        self.handle_request(
            req,
            era,
            request,
            handler,
            move |cx, arguments| reader.invoke(cx, arguments),
            respond,
        )
    }

    /// Reads the resource `uri` names outside any protocol exchange (the command line's
    /// `read`): its contents, or why not; `None` when no resource has that URI. `local` is
    /// the client that answers the fn's asks, as for [`Engine::execute`].
    #[cfg(feature = "cli")]
    pub(crate) async fn execute_read(
        &self,
        uri: &str,
        local: Option<(Arc<dyn crate::context::ClientChannel>, Value)>,
    ) -> Option<Result<Vec<crate::content::ResourceContents>, HandlerError>> {
        let (resource, variables) = self.resource_for(&self.resources.as_ref()?.snapshot(), uri, None)?;
        let Ok(raw) = RawArguments::from_json(&variables) else {
            let problem = "the URI's variables do not read as arguments";
            return Some(Err(HandlerError::Arguments(problem.into())));
        };
        let cx = self.local_context(local);
        let what = format!("the resource `{}`", clip(uri, QUOTED_NAME_CHARS));
        let read = self.run_local(resource.invoke(&cx, raw), uri, &what).await;
        Some(read.map(|output| resource.contents(uri, output)))
    }

    /// The answer to a `resources/read`: its contents, or as
    /// [`respond_unfinished`](Engine::respond_unfinished) says.
    fn respond_read(
        &self,
        out: &Outbox,
        id: &RawValue,
        finished: Finished<Result<ReadOutput, HandlerError>>,
        answering: &Answering<'_>,
    ) {
        let output = match finished {
            Finished::Complete(Ok(output)) => output,
            Finished::Complete(Err(HandlerError::Failed(error))) if error.is_not_found() => {
                let failure =
                    not_found_because(answering.modern(), &answering.target, error.message().to_owned());
                return encode::respond_failure(out, Some(id), failure);
            }
            unfinished => return self.respond_unfinished(out, id, unfinished, answering),
        };
        let resource = self
            .resources
            .as_ref()
            .and_then(|registry| registry.get(&answering.name));
        let contents = match &resource {
            Some(resource) => resource.contents_json(&answering.target, output),
            None => json!([]),
        };
        let mut result = json!({ "contents": contents });
        if answering.modern() {
            let (ttl_ms, scope) = read_cache_hints(resource.as_ref(), answering.authenticated);
            result["resultType"] = json!("complete");
            result["ttlMs"] = json!(ttl_ms);
            result["cacheScope"] = json!(scope.as_str());
            let identity: Value = serde_json::from_str(self.identity.get()).unwrap_or(Value::Null);
            result["_meta"] = json!({ META_SERVER_INFO: identity });
        }
        let mut bytes = Vec::with_capacity(256);
        jsonrpc::write_result(&mut bytes, id, &result);
        out.respond(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{ResourceBuilder, ResourceInvocation};

    fn resource(cache: Option<(u64, CacheScope)>) -> Resource {
        let builder = ResourceBuilder::new("test://a", "a", None);
        let builder = match cache {
            Some((ttl_ms, scope)) => builder.cache(ttl_ms, scope),
            None => builder,
        };
        builder.build(|_, _| ResourceInvocation::now(|| Ok(ReadOutput::Text(String::new()))))
    }

    #[test]
    fn a_read_says_its_own_hints_or_to_read_again_and_private_for_an_authenticated_caller() {
        let undeclared = resource(None);
        let shared = resource(Some((60_000, CacheScope::Public)));
        let own = resource(Some((5_000, CacheScope::Private)));
        let cases = [
            (Some(&undeclared), false, (0, CacheScope::Public)),
            (Some(&undeclared), true, (0, CacheScope::Private)),
            (Some(&shared), false, (60_000, CacheScope::Public)),
            (Some(&shared), true, (60_000, CacheScope::Private)),
            (Some(&own), false, (5_000, CacheScope::Private)),
            (Some(&own), true, (5_000, CacheScope::Private)),
            // Removed while it was read.
            (None, false, (0, CacheScope::Public)),
            (None, true, (0, CacheScope::Private)),
        ];
        for (resource, authenticated, hints) in cases {
            assert_eq!(
                read_cache_hints(resource, authenticated),
                hints,
                "{resource:?} {authenticated}"
            );
        }
    }
}
