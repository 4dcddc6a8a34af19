//! The engine's state: who the server is, what it serves, and the tunables; and the
//! [`Context`] it gives each call.

use crate::context::{ClientChannel, Context, ContextParts, Principal, RequestInfo, StateMap};
use crate::engine::state::limits::Limits;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode::ServerInfo;
use crate::engine::wire::era::Client;
use crate::middleware::Layer;
use crate::prompt::Prompt;
use crate::protocol::{Implementation, ProgressToken, ProtocolVersion, RequestId};
use crate::rate::{ClientKey, Limiting, RateLimiters};
use crate::registry::{PromptRegistry, ResourceRegistry, ToolRegistry};
use crate::resource::Resource;
use crate::result::CallToolResult;
use crate::seal::{KeyRing, SealKey};
use crate::tool::Tool;
use serde_json::Value;
use serde_json::value::RawValue;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Who is calling, as the transport established it (HTTP's bearer token); `None` on
/// transports without authorization.
pub(crate) type Auth<'a> = Option<&'a Arc<Principal>>;

/// Decides whether a caller may see and use an item of a catalog.
pub(crate) type Visibility<T> = dyn Fn(&T, Option<&Principal>) -> bool + Send + Sync;

/// Which items each caller may see, per kind; a kind without a rule shows every item to
/// everyone.
#[derive(Clone, Default)]
pub(crate) struct Visibilities {
    pub(crate) tools: Option<Arc<Visibility<Tool>>>,
    pub(crate) prompts: Option<Arc<Visibility<Prompt>>>,
    pub(crate) resources: Option<Arc<Visibility<Resource>>>,
}

/// Whether `rule` lets `caller` see `item`; no rule lets everyone see everything.
pub(crate) fn sees<T>(rule: Option<&Arc<Visibility<T>>>, item: &T, caller: Auth<'_>) -> bool {
    rule.is_none_or(|visible| visible(item, caller.map(|p| &**p)))
}

/// Tunables, set through `Server`.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// How much the server takes on.
    pub(crate) limits: Limits,
    /// The `ttlMs` of list results and `server/discover`.
    pub(crate) list_ttl_ms: u64,
    /// Whether object and array arguments may arrive as JSON text.
    pub(crate) lenient_arguments: bool,
    /// Whether clients read the details of internal errors.
    pub(crate) expose_internal_errors: bool,
    /// The keys that seal `requestState`; `None` makes one for this process.
    pub(crate) request_state_keys: Option<KeyRing>,
    /// How long a `requestState` stays good.
    pub(crate) request_state_ttl: Duration,
    /// Where tasks are kept, and how long they live.
    pub(crate) tasks: crate::engine::state::task_record::TaskOptions,
    /// How results are budgeted.
    pub(crate) spill: crate::engine::state::spill_record::SpillOptions,
    /// How long a shutdown waits for the tasks running here to finish.
    pub(crate) shutdown_grace: Duration,
    /// Tool search, when the server searches its tools (`Server::tool_search`).
    pub(crate) search: Option<crate::discovery::ToolSearch>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            list_ttl_ms: 60_000,
            limits: Limits::default(),
            lenient_arguments: false,
            expose_internal_errors: false,
            request_state_keys: None,
            request_state_ttl: Duration::from_secs(600),
            tasks: crate::engine::state::task_record::TaskOptions::default(),
            spill: crate::engine::state::spill_record::SpillOptions::default(),
            shutdown_grace: Duration::from_secs(10),
            search: None,
        }
    }
}

impl Options {
    /// How long a call of `tool` may take.
    pub(crate) fn timeout_of(&self, tool: &str) -> Duration {
        self.limits.timeout_of(tool)
    }

    /// A tool's result as it may be sent: with `validate-output`, structured content that
    /// breaks the tool's output schema becomes an internal error; an internal error's detail
    /// is logged, and kept from the client unless details are exposed.
    pub(crate) fn finish(&self, tool: &Tool, result: CallToolResult) -> CallToolResult {
        #[cfg(feature = "validate-output")]
        let result = match tool.check_output(&result) {
            Ok(()) => result,
            Err(mismatch) => CallToolResult::internal(mismatch),
        };
        let Some(detail) = result.internal_detail() else {
            return result;
        };
        tracing::error!(
            tool = tool.name(),
            error = detail,
            "a tool failed with an internal error"
        );
        if self.expose_internal_errors {
            result.exposing_detail()
        } else {
            result
        }
    }
}

/// What the engine needs to serve: the server's identity, what it offers, its state.
pub(crate) struct Engine {
    pub(crate) info: ServerInfo,
    pub(crate) tools: ToolRegistry,
    /// The prompts, when the server serves them.
    pub(crate) prompts: Option<PromptRegistry>,
    /// The resources, when the server serves them.
    pub(crate) resources: Option<ResourceRegistry>,
    /// The skills' entries and folders, when the server serves skills.
    pub(crate) skills: Option<crate::engine::state::skill_index::SkillIndex>,
    pub(crate) state: StateMap,
    pub(crate) options: Options,
    /// Which tools, prompts and resources a caller may see.
    pub(crate) visibility: Visibilities,
    /// What the framework lends tools through their `Context` (the registry).
    pub(crate) services: StateMap,
    /// The server's `Implementation` for modern results' `_meta`, encoded once.
    pub(crate) identity: Box<RawValue>,
    /// One permit per call that may wait at once.
    pub(crate) calls: Arc<Semaphore>,
    /// One permit per `subscriptions/listen` stream that may be open at once.
    pub(crate) listens: Arc<Semaphore>,
    /// The rate limits on calls.
    pub(crate) limiters: Arc<RateLimiters>,
    /// The keys that seal `requestState`; `None` only if the system had no randomness for
    /// a key of the process's own (rounds then fail with an internal error).
    pub(crate) keys: Option<KeyRing>,
    /// What a handler that takes nothing from its context is given in place of one: made
    /// once, it holds only the server's options, so such a call allocates no context and
    /// clones no cancellation token.
    pub(crate) bare: Context,
    /// The tasks: their store, and those running here.
    pub(crate) tasks: crate::engine::state::task_record::Tasks,
    /// The results spilled over their budgets, kept in the tasks' store.
    pub(crate) spills: crate::engine::state::spill_record::Spills,
    /// The extensions declared, and their custom methods.
    pub(crate) extensions: crate::extension::Extensions,
    /// The middleware, outermost first; empty, or every hook left to its default, costs
    /// nothing per request.
    pub(crate) middleware: Arc<[Layer]>,
    /// Tool search, when the server searches its tools.
    pub(crate) search: Option<crate::engine::state::search_index::Searching>,
}

/// What a server offers: its tools, and its prompts, resources and skills when it serves
/// them.
#[derive(Clone)]
pub(crate) struct Offers {
    pub(crate) tools: ToolRegistry,
    pub(crate) prompts: Option<PromptRegistry>,
    pub(crate) resources: Option<ResourceRegistry>,
    pub(crate) skills: Option<crate::skill::Skills>,
    /// The extensions the server declares, the framework's own among them.
    pub(crate) extensions: crate::extension::Extensions,
    /// The middleware, outermost first.
    pub(crate) middleware: Vec<Layer>,
}

/// What a call's [`Context`] is made of, besides what the engine itself holds.
pub(crate) struct CallParts {
    pub(crate) request_id: Option<RequestId>,
    /// `None` for calls made outside any protocol exchange.
    pub(crate) version: Option<ProtocolVersion>,
    pub(crate) client: Client,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) cancel: CancellationToken,
    pub(crate) principal: Option<Arc<Principal>>,
    pub(crate) channel: Option<Arc<dyn ClientChannel>>,
}

/// A key of this process's own to seal `requestState` with, when the server was given none.
fn fresh_keys() -> Option<KeyRing> {
    match SealKey::generate() {
        Ok(key) => Some(KeyRing::new(key)),
        Err(error) => {
            tracing::error!(%error, "no key to seal requestState with; tools that ask will fail");
            None
        }
    }
}

/// What the framework's own handlers find in a context: the pages of spilled results and
/// the catalogs.
fn services(
    spills: &crate::engine::state::spill_record::Spills,
    tools: &ToolRegistry,
    prompts: Option<&PromptRegistry>,
    resources: Option<&ResourceRegistry>,
) -> StateMap {
    let mut services = StateMap::default();
    services.insert(spills.pages());
    services.insert(tools.clone());
    if let Some(prompts) = prompts {
        services.insert(prompts.clone());
    }
    if let Some(resources) = resources {
        services.insert(resources.clone());
    }
    services
}

impl Engine {
    pub(crate) fn new(
        info: ServerInfo,
        offers: Offers,
        state: StateMap,
        options: Options,
        visibility: Visibilities,
    ) -> Engine {
        let identity = serde_json::value::to_raw_value(&info.implementation(ProtocolVersion::LATEST))
            .unwrap_or_default();
        let permits = options.limits.max_concurrent_calls.min(Semaphore::MAX_PERMITS);
        let listen_permits = options.limits.max_listen_streams.min(Semaphore::MAX_PERMITS);
        let Offers {
            tools,
            prompts,
            mut resources,
            skills,
            extensions,
            middleware,
        } = offers;
        let skills = skills.and_then(|skills| crate::engine::state::skill_index::index(&skills));
        let tasks = crate::engine::state::task_record::Tasks::new(&options.tasks);
        let spills = crate::engine::state::spill_record::Spills::new(
            options.spill.clone(),
            Arc::clone(tasks.store()),
            tools.clone(),
        );
        let budgeted =
            options.spill.budget.is_some() || tools.items().iter().any(|tool| tool.result_budget().is_some());
        // The pages of spilled results are listed as a template, for clients to find; the
        // engine of `execute` shares the registry and finds it added already. A budget
        // installed the spilling, so there is a template.
        if budgeted && let Some(pages) = crate::engine::state::spill_record::linked_page_resource() {
            let registry = resources.get_or_insert_with(ResourceRegistry::new);
            let _ = registry.add_item(pages);
        }
        let services = services(&spills, &tools, prompts.as_ref(), resources.as_ref());
        let keys = options.request_state_keys.clone().or_else(fresh_keys);
        let bare = Context::from_parts(ContextParts {
            info: RequestInfo {
                lenient_arguments: options.lenient_arguments,
                ..RequestInfo::default()
            },
            ..ContextParts::default()
        });
        // The rate limits are the innermost middleware, so every other one sees a call
        // they refuse.
        let limiters = Arc::new(RateLimiters::new(
            options.limits.rate_limit,
            options.limits.client_rate_limit,
        ));
        let mut middleware = middleware;
        // The trace context is the outermost, so the span's parent is set before any other
        // middleware could start the span.
        #[cfg(feature = "otel")]
        middleware.insert(0, Layer::new(crate::otel::TraceContext));
        if !limiters.is_unlimited() {
            middleware.push(Layer::new(Limiting(Arc::clone(&limiters))));
        }
        let search = options
            .search
            .clone()
            .map(crate::engine::state::search_index::Searching::new);
        Engine {
            search,
            extensions,
            middleware: middleware.into(),
            bare,
            keys,
            tasks,
            spills,
            limiters,
            info,
            tools,
            prompts,
            resources,
            skills,
            state,
            options,
            visibility,
            services,
            identity,
            calls: Arc::new(Semaphore::new(permits)),
            listens: Arc::new(Semaphore::new(listen_permits)),
        }
    }

    /// Whether `caller` may see and call `tool`.
    pub(crate) fn tool_visible(&self, tool: &Tool, caller: Auth<'_>) -> bool {
        sees(self.visibility.tools.as_ref(), tool, caller)
    }

    /// Who a call counts against, for per-client rate limits: the bearer token's subject,
    /// else the connection's address, else the one local client.
    pub(crate) fn client_key(conn: &Connection, caller: Auth<'_>) -> ClientKey {
        ClientKey::of(caller.map(|principal| &**principal), conn.peer())
    }

    /// The context of one call.
    pub(crate) fn context(&self, parts: CallParts) -> Context {
        Context::from_parts(ContextParts {
            info: RequestInfo {
                request_id: parts.request_id,
                protocol_version: parts.version,
                client_info: parts.client.info,
                client_capabilities: parts.client.capabilities,
                progress_token: parts.progress_token,
                log_level: parts.client.log_level,
                lenient_arguments: self.options.lenient_arguments,
            },
            cancellation: parts.cancel,
            state: self.state.clone(),
            services: self.services.clone(),
            principal: parts.principal,
            client: parts.channel,
            last_progress: Default::default(),
        })
    }

    /// The client of a call made outside any protocol exchange (`Server::execute`, the
    /// command line's `call`): no client info, the newest revision's shapes, and the
    /// `capabilities` of the local client that answers its asks (`None` when nothing does).
    pub(crate) fn local_client(capabilities: Option<Arc<Value>>) -> Client {
        Client {
            info: None::<Arc<Implementation>>,
            capabilities,
            log_level: None,
        }
    }
}
