//! The [`Server`] builder: identity, tools, state and tunables, and serving over stdio.
//! What else a server does lives beside it: `http` (Streamable HTTP), `testing` (the
//! in-process test client), `export` (model-API formats and `execute`), `cli` (the
//! command line).

use super::error::Error;
use crate::context::{Principal, StateMap};
use crate::engine::limits::Limits;
use crate::engine::{Engine, Offers, Options, ServerInfo, Visibilities};
use crate::error::DefinitionError;
use crate::extension::Extension;
use crate::middleware::{Layer, Middleware};
use crate::prompt::Prompt;
use crate::registry::{PromptRegistry, ResourceRegistry, ToolRegistry};
use crate::resource::Resource;
use crate::seal::KeyRing;
use crate::skill::Skills;
use crate::tool::{Icon, Tool};
#[cfg(feature = "http")]
use crate::transport::http::HttpOptions;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// An MCP server: its name and version, its tools, and how it serves them.
///
/// # Starting a server
///
/// **A server binary starts with `Server::run`** (feature `cli`, which
/// `mcp-toolkit`'s README turns on): it serves stdio, or Streamable HTTP with
/// `--http ADDR`, and answers `tools`, `call`, `read` and `--version` on the command line.
/// Every other way is a layer under it, for a program that decides the transport itself:
///
/// | call | what it is |
/// |---|---|
/// | `Server::run` | the command line; serves stdio or HTTP with the two below |
/// | [`Server::serve_stdio`] | one client on standard input and output: `serve_io` on them |
/// | [`Server::serve_io`] | one client on any byte stream (a pipe, a socket, a test's duplex) |
/// | `Server::serve_http` | Streamable HTTP on an address until Ctrl-C: `bind_http`, then `HttpServer::run` |
/// | `Server::bind_http` | binds first, to learn the port (`127.0.0.1:0`) or stop on a signal of your own (`HttpServer::run_until`) |
/// | `Server::into_router` | the same HTTP endpoint as an axum `Router`, to mount in an application that serves it |
/// | [`Server::test_client`] | no transport: a client in the test process ([`testing`](crate::testing)) |
///
/// Each checks the definitions first and fails with [`Error`] as the others do. The HTTP
/// ones (feature `http`, on by default) take their settings from
/// `Server::http`; every transport keeps the [`Limits`](crate::server::Limits)
/// given to [`Server::limits`].
///
/// # Failing a call
///
/// A tool fails a call by returning `Err(ToolError)`; see [`ToolError`](crate::ToolError)
/// for what the client reads and how `?` and `CallToolResult`'s error results are layered
/// on it.
///
/// ```no_run
/// use mcp_toolkit::{tool, tools, Server};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: f64, b: f64) -> f64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> Result<(), mcp_toolkit::Error> {
///     Server::new("calculator", env!("CARGO_PKG_VERSION"))
///         .tools(tools![add])
///         .run()
///         .await
/// }
/// ```
pub struct Server {
    pub(crate) info: ServerInfo,
    pub(crate) registry: ToolRegistry,
    /// The prompts, once `prompts` was called: only then does the server serve them.
    pub(crate) prompts: Option<PromptRegistry>,
    /// The resources, once `resources` was called: only then does the server serve them.
    pub(crate) resources: Option<ResourceRegistry>,
    /// The skills, once `skills` was called.
    pub(crate) skills: Option<Skills>,
    /// The extensions declared with `extension`, in the order given.
    pub(crate) extensions: Vec<Extension>,
    /// The middleware, outermost first.
    pub(crate) middleware: Vec<Layer>,
    pub(crate) state: StateMap,
    pub(crate) options: Options,
    /// Definition problems found while configuring, reported when serving starts.
    pub(crate) problems: Vec<DefinitionError>,
    pub(crate) visibility: Visibilities,
    #[cfg(feature = "http")]
    pub(crate) http: HttpOptions,
    /// The OAuth resource server, once `oauth` was called (feature `oauth`).
    #[cfg(feature = "oauth")]
    pub(crate) oauth: Option<crate::oauth::ResourceServer>,
    /// The engine `execute` runs calls on, built on first use and dropped by any change of
    /// configuration, so its limits hold across calls and never serve a stale setup.
    pub(crate) executor: OnceLock<Arc<Engine>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.info)
            .field("tools", &self.registry)
            .field("prompts", &self.prompts)
            .field("resources", &self.resources)
            .field("skills", &self.skills)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// A server with this name and version (clients see them as `serverInfo`), with no
    /// tools yet.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("calculator", "1.2.0").test_client()?;
    /// let discover = client.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"], json!({"name": "calculator", "version": "1.2.0"}));
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            info: ServerInfo::new(name.into(), version.into()),
            registry: ToolRegistry::new(),
            prompts: None,
            resources: None,
            skills: None,
            extensions: Vec::new(),
            middleware: Vec::new(),
            state: StateMap::default(),
            options: Options::default(),
            problems: Vec::new(),
            visibility: Visibilities::default(),
            #[cfg(feature = "http")]
            http: HttpOptions::default(),
            #[cfg(feature = "oauth")]
            oauth: None,
            executor: OnceLock::new(),
        }
    }

    /// Adds tools, usually `tools![...]`; call it as often as needed. A name already taken
    /// is reported when serving starts ([`Error::Definition`]).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// /// Counts the words of a text.
    /// #[tool]
    /// fn words(text: String) -> usize { text.split_whitespace().count() }
    ///
    /// let mut server = Server::new("utilities", "1.0.0").tools(tools![add]).tools(tools![words]);
    /// assert_eq!(server.tool_registry().tools().len(), 2);
    /// ```
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Server {
        self.executor.take();
        for taken in self.registry.add_items(tools) {
            self.problems
                .push(DefinitionError::DuplicateName(taken.name().to_owned()));
        }
        self
    }

    /// Adds prompts, usually `prompts![...]`; call it as often as needed. A server serves
    /// `prompts/list` and `prompts/get` (and declares the `prompts` capability) once this
    /// was called, even with no prompt: [`Server::prompt_registry`] can add them later. A
    /// name already taken is reported when serving starts ([`Error::Definition`]).
    ///
    /// ```
    /// use mcp_toolkit::{prompt, prompts, Server};
    /// use serde_json::json;
    ///
    /// /// Asks for a summary.
    /// #[prompt]
    /// fn summarize(
    ///     /// What to summarize
    ///     text: String,
    /// ) -> String {
    ///     format!("Summarize this in one sentence:\n\n{text}")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("writer", "1.0.0").prompts(prompts![summarize]).test_client()?;
    /// assert_eq!(client.list_prompts().await?[0].name(), "summarize");
    /// let filled = client.get_prompt("summarize", json!({"text": "MCP servers offer tools."})).await?;
    /// assert_eq!(filled.text(), Some("Summarize this in one sentence:\n\nMCP servers offer tools."));
    /// # Ok(())
    /// # }
    /// ```
    pub fn prompts(mut self, prompts: impl IntoIterator<Item = Prompt>) -> Server {
        self.executor.take();
        crate::engine::link_prompts();
        let registry = self.prompts.get_or_insert_with(PromptRegistry::new);
        for taken in registry.add_items(prompts) {
            self.problems
                .push(DefinitionError::DuplicatePromptName(taken.name().to_owned()));
        }
        self
    }

    /// Adds resources and resource templates, usually `resources![...]`; call it as often as
    /// needed. A server serves `resources/list`, `resources/templates/list` and
    /// `resources/read` (and declares the `resources` capability) once this was called. A
    /// URI already taken is reported when serving starts ([`Error::Definition`]).
    pub fn resources(mut self, resources: impl IntoIterator<Item = Resource>) -> Server {
        self.executor.take();
        crate::engine::link_resources();
        let registry = self.resources.get_or_insert_with(ResourceRegistry::new);
        for taken in registry.add_items(resources) {
            self.problems
                .push(DefinitionError::DuplicateResourceUri(taken.uri().to_owned()));
        }
        self
    }

    /// Adds skills (the `io.modelcontextprotocol/skills` extension): usually
    /// [`skills!("skills")`](crate::skills!), embedded and checked at compile time, or
    /// [`Skills::from_dir`] for skills read at start. Call it as often as needed: the skills
    /// add up. The server then serves `skills/list`, `skills/get` and
    /// `resources/directory/read`, declares the extension in revision 2026-07-28, and serves
    /// each skill file as a resource (`skill://...`, listed and read as any other, and
    /// declaring the `resources` capability). A file URI already taken is reported when
    /// serving starts ([`Error::Definition`]).
    ///
    /// ```
    /// use mcp_toolkit::{skills, Server};
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = Server::new("notes", "1.0.0").skills(skills!("../examples/skills")).test_client()?;
    /// let skill = client.request("skills/get", json!({"uri": "skill://notes-workflow/SKILL.md"})).await?;
    /// assert_eq!(skill["skill"]["frontmatter"]["name"], "notes-workflow");
    /// # Ok(())
    /// # }
    /// ```
    pub fn skills(mut self, skills: impl Into<Skills>) -> Server {
        self.executor.take();
        crate::engine::link_skills();
        crate::engine::link_resources();
        let skills = skills.into();
        let registry = self.resources.get_or_insert_with(ResourceRegistry::new);
        for taken in registry.add_items(skills.resources()) {
            self.problems
                .push(DefinitionError::DuplicateResourceUri(taken.uri().to_owned()));
        }
        match &mut self.skills {
            Some(held) => held.merge(skills),
            None => self.skills = Some(skills),
        }
        self
    }

    /// Declares an extension ([`Extension`]) and serves its custom methods; call it once
    /// per extension. The server declares it in `server/discover` and in the
    /// `capabilities.extensions` of the revisions that have them (2026-07-28; revisions
    /// before have no such field, and their clients call the methods all the same). A
    /// duplicate id, an extension depending on one the server does not declare, an id
    /// without a vendor prefix, settings that are no JSON object, or two methods of one
    /// name stop the server at start ([`Error::Definition`]).
    ///
    /// ```
    /// use mcp_toolkit::extension::Extension;
    /// use mcp_toolkit::{method, methods, Json, Server};
    /// use serde_json::{json, Value};
    ///
    /// /// Echoes its text.
    /// #[method(name = "com.example/echo")]
    /// fn echo(text: String) -> Json<Value> {
    ///     Json(json!({ "text": text }))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("echo", "1.0.0")
    ///     .extension(Extension::new("com.example/echo").methods(methods![echo]))
    ///     .test_client()?;
    /// assert_eq!(client.request("com.example/echo", json!({"text": "hi"})).await?["text"], "hi");
    ///
    /// // Every problem with the params is named, in one invalid-params error.
    /// assert!(client.request("com.example/echo", json!({"txt": 1})).await.is_err());
    /// let error = &client.last_response().unwrap()["error"];
    /// assert_eq!(error["code"], -32602);
    /// assert_eq!(
    ///     error["message"],
    ///     "2 problems with the arguments:\nargument `text` is missing: expected a string\nargument `txt` is not accepted; the accepted arguments are `text`"
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn extension(mut self, extension: Extension) -> Server {
        self.executor.take();
        self.extensions.push(extension);
        self
    }

    /// Adds a [`Middleware`], which sees every request the server serves and every message
    /// it sends in answer. Middleware runs in the order added: the first added is the
    /// outermost, its `on_request` first and its `on_end` last. A server without any pays
    /// nothing per request. See [`middleware`](crate::middleware).
    pub fn middleware(mut self, middleware: impl Middleware) -> Server {
        self.executor.take();
        self.middleware.push(Layer::new(middleware));
        self
    }

    /// A handle for adding, removing, enabling and disabling resources while serving, as
    /// [`Server::tool_registry`] is for tools; clients are told with
    /// `notifications/resources/list_changed`. The server serves resources from then on.
    pub fn resource_registry(&mut self) -> ResourceRegistry {
        self.executor.take();
        crate::engine::link_resources();
        self.resources.get_or_insert_with(ResourceRegistry::new).clone()
    }

    /// A handle for adding, removing, enabling and disabling prompts while serving, as
    /// [`Server::tool_registry`] is for tools; clients are told with
    /// `notifications/prompts/list_changed`. The server serves prompts from then on.
    pub fn prompt_registry(&mut self) -> PromptRegistry {
        self.executor.take();
        crate::engine::link_prompts();
        self.prompts.get_or_insert_with(PromptRegistry::new).clone()
    }

    /// Adds shared state, which tools receive as [`State<T>`](crate::State), one value per
    /// type `T`. Serving fails with [`Error::MissingState`] when a tool needs a type not
    /// given.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server, State};
    /// use serde_json::json;
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// struct Visits {
    ///     count: AtomicU64,
    /// }
    ///
    /// /// Counts the visits so far.
    /// #[tool]
    /// fn visit(visits: State<Visits>) -> u64 {
    ///     visits.count.fetch_add(1, Ordering::Relaxed) + 1
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("counter", "1.0.0").tools(tools![visit]).state(Visits { count: AtomicU64::new(0) });
    /// let client = server.test_client()?;
    /// client.call("visit", json!({})).await?;
    /// assert_eq!(client.call("visit", json!({})).await?.text(), Some("2"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Server {
        self.executor.take();
        self.state.insert(value);
        self
    }

    /// A display title (revision 2025-06-18 and later).
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("calc", "1.0.0").title("Calculator").test_client()?;
    /// let discover = client.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["title"], "Calculator");
    /// # Ok(())
    /// # }
    /// ```
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.executor.take();
        self.info.title = Some(title.into());
        self
    }

    /// A description of the server (revision 2025-11-25 and later).
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("calc", "1.0.0").description("Arithmetic on two numbers.");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["description"], "Arithmetic on two numbers.");
    /// # Ok(())
    /// # }
    /// ```
    pub fn description(mut self, description: impl Into<String>) -> Server {
        self.executor.take();
        self.info.description = Some(description.into());
        self
    }

    /// The server's website (revision 2025-11-25 and later).
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("calc", "1.0.0").website_url("https://example.com/calc");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["websiteUrl"], "https://example.com/calc");
    /// # Ok(())
    /// # }
    /// ```
    pub fn website_url(mut self, url: impl Into<String>) -> Server {
        self.executor.take();
        self.info.website_url = Some(url.into());
        self
    }

    /// Adds an icon for the server (revision 2025-11-25 and later); call it once per size
    /// or theme.
    ///
    /// ```
    /// use mcp_toolkit::{tool::Icon, Server};
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("calc", "1.0.0")
    ///     .icon(Icon::new("https://example.com/calc.svg").with_mime_type("image/svg+xml"));
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(
    ///     discover["_meta"]["io.modelcontextprotocol/serverInfo"]["icons"],
    ///     json!([{"src": "https://example.com/calc.svg", "mimeType": "image/svg+xml"}])
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn icon(mut self, icon: Icon) -> Server {
        self.executor.take();
        self.info.icons.push(icon);
        self
    }

    /// Instructions for the model on using the server's tools together, sent in the
    /// `server/discover` and `initialize` results.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("notes", "1.0.0").instructions("Search before creating a note.");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["instructions"], "Search before creating a note.");
    /// # Ok(())
    /// # }
    /// ```
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.executor.take();
        self.info.instructions = Some(instructions.into());
        self
    }

    /// How long clients may cache the tool list (`ttlMs`, revision 2026-07-28; default one
    /// minute). A change is announced with `notifications/tools/list_changed` regardless.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("notes", "1.0.0").list_ttl(Duration::from_secs(5));
    /// let list = server.test_client()?.request("tools/list", json!(null)).await?;
    /// assert_eq!(list["ttlMs"], 5000);
    /// # Ok(())
    /// # }
    /// ```
    pub fn list_ttl(mut self, ttl: Duration) -> Server {
        self.executor.take();
        self.options.list_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// How much the server takes on: message and result sizes, calls at once and their
    /// time, open streams, call rates, list pages ([`Limits`] has the defaults and a setter
    /// for each). Replaces the limits given before.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::Limits;
    /// use std::time::Duration;
    ///
    /// let server = Server::new("search", "1.0.0")
    ///     .limits(Limits::default().max_concurrent_calls(64).call_timeout(Duration::from_secs(20)));
    /// ```
    pub fn limits(mut self, limits: Limits) -> Server {
        self.executor.take();
        self.options.limits = limits;
        self
    }

    /// Accepts an object or array argument sent as a string of JSON text (off by default).
    /// Some clients and models send `{"filter": "{\"tag\": \"x\"}"}` where the schema
    /// asks for `{"filter": {"tag": "x"}}`; with this on, such a string is decoded when the
    /// parameter does not accept it as it is. A parameter that takes a string always gets the
    /// string.
    ///
    /// ```
    /// let server = mcp_toolkit::Server::new("notes", "1.0.0").lenient_arguments(true);
    /// ```
    pub fn lenient_arguments(mut self, lenient: bool) -> Server {
        self.executor.take();
        self.options.lenient_arguments = lenient;
        self
    }

    /// Sends the details of internal errors to clients: what a tool's `?`-converted error
    /// or panic says, after `internal error: `. Off by default, since such details can name
    /// hosts, paths and queries; turn it on while developing. Details are logged either way.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server, ToolError};
    ///
    /// /// Reads the configuration.
    /// #[tool]
    /// fn config() -> Result<String, ToolError> {
    ///     Ok(std::fs::read_to_string("/nonexistent/app.toml")?)
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let masked = Server::new("app", "1.0.0").tools(tools![config]).test_client()?;
    /// assert_eq!(masked.call("config", serde_json::json!({})).await?.text(), Some("internal error"));
    ///
    /// let exposed = Server::new("app", "1.0.0").tools(tools![config]).expose_internal_errors(true).test_client()?;
    /// let response = exposed.call("config", serde_json::json!({})).await?;
    /// let text = response.text().unwrap_or_default();
    /// assert!(text.starts_with("internal error: No such file or directory"), "{text}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn expose_internal_errors(mut self, expose: bool) -> Server {
        self.executor.take();
        self.options.expose_internal_errors = expose;
        self
    }

    /// The keys that seal `requestState`, the state a call that asks hands the client
    /// between rounds in revision 2026-07-28 (see [the asks](crate::ask)): the first key
    /// seals, every key opens. Instances that serve the same clients (behind a load
    /// balancer) must share them, or a round that lands on another instance is refused.
    /// Without it, the server makes a random key at start, good for one process.
    ///
    /// ```
    /// use mcp_toolkit::{seal::KeyRing, seal::SealKey, Server};
    ///
    /// // In production, from a secret: `SealKey::from_base64(&std::env::var("STATE_KEY")?)?`.
    /// let key = SealKey::from_base64("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=")?;
    /// let server = Server::new("shop", "1.0.0").request_state_keys(KeyRing::new(key));
    /// # Ok::<(), mcp_toolkit::seal::SealKeyError>(())
    /// ```
    pub fn request_state_keys(mut self, keys: KeyRing) -> Server {
        self.executor.take();
        self.options.request_state_keys = Some(keys);
        self
    }

    /// How long a `requestState` stays good: a client that answers later is refused and
    /// must start the call again. Ten minutes by default.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use std::time::Duration;
    ///
    /// let server = Server::new("shop", "1.0.0").request_state_ttl(Duration::from_secs(120));
    /// ```
    pub fn request_state_ttl(mut self, ttl: Duration) -> Server {
        self.executor.take();
        self.options.request_state_ttl = ttl;
        self
    }

    /// Where the server keeps its tasks (see [the `task` module](crate::task)): in memory
    /// by default; a [`SqliteStore`](crate::task) outlives the process, and a
    /// `RedisStore` is shared by every instance behind a load balancer. The command line
    /// sets it with `--task-store URL`.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::task::MemoryStore;
    ///
    /// let server = Server::new("reports", "1.0.0").task_store(MemoryStore::with_limit(100));
    /// ```
    pub fn task_store(mut self, store: impl crate::task::TaskStore) -> Server {
        self.executor.take();
        // A store may hold tasks other instances made: this server serves them.
        crate::engine::link_tasks();
        self.options.tasks.store = Some(std::sync::Arc::new(store));
        self
    }

    /// The most a tool's answer carries at once, in bytes of its text (at least
    /// [`MIN_RESULT_BUDGET`](crate::tool::MIN_RESULT_BUDGET); none by default), for every
    /// tool without a budget of its own (`#[tool(result_budget = ...)]`). A larger result
    /// is no error: the client gets its first page, a `resource_link` to the whole result
    /// and a line saying how to read on, page by page, as the resource
    /// `mcp-result://{id}/{page}` or through the `read_result` tool the server then lists.
    /// The pages live in the task store ([`Server::task_store`]) for
    /// [`Server::spilled_result_ttl`], for the caller alone. The guide's result budgets
    /// chapter says what is counted and how pages are cut.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Lists every line of the log.
    /// #[tool]
    /// fn log() -> String {
    ///     (1..=200).map(|n| format!("line {n}\n")).collect()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("logs", "1.0.0").tools(tools![log]).result_budget(1024);
    /// let client = server.test_client()?;
    /// let first = client.call("log", json!({})).await?;
    /// let page = first.content()[0].as_text().unwrap();
    /// assert!(page.starts_with("line 1\n") && page.len() < 1024);
    /// assert!(first.content()[2].as_text().unwrap().contains("read_result"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn result_budget(mut self, bytes: usize) -> Server {
        self.executor.take();
        crate::engine::link_spill();
        self.options.spill.budget = Some(bytes.max(crate::tool::MIN_RESULT_BUDGET));
        self
    }

    /// Searches the tools instead of listing them all: `tools/list` lists only the tools
    /// marked `#[tool(always_load)]`, then `search_tools`, which answers the tools that best
    /// match a request in plain words (with their input schemas), and `call_tool`, which
    /// calls one of them as a direct `tools/call` would. For servers with more tools than a
    /// model should read in every conversation; the guide's
    /// [discovery chapter](crate::guide::discovery) says how it ranks and what it costs.
    ///
    /// ```
    /// use mcp_toolkit::{discovery::ToolSearch, tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Refunds a charge, in full or in part.
    /// #[tool]
    /// fn create_refund(charge: String) -> String { format!("refunded {charge}") }
    ///
    /// /// Cancels a subscription at the end of its period.
    /// #[tool]
    /// fn cancel_subscription(subscription: String) -> String { format!("cancelled {subscription}") }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("shop", "1.0.0")
    ///     .tools(tools![create_refund, cancel_subscription])
    ///     .tool_search(ToolSearch::bm25());
    /// let client = server.test_client()?;
    /// let listed: Vec<String> = client.list_tools().await?.iter().map(|t| t.name().to_owned()).collect();
    /// assert_eq!(listed, ["search_tools", "call_tool"]);
    ///
    /// let found = client.call("search_tools", json!({"query": "give the money back"})).await?;
    /// assert_eq!(found.structured_content().unwrap()["tools"][0]["name"], "create_refund");
    /// let called = client.call("call_tool", json!({"name": "create_refund", "arguments": {"charge": "ch_1"}})).await?;
    /// assert_eq!(called.content()[0].as_text(), Some("refunded ch_1"));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// A tool of its own named `search_tools` or `call_tool` stops the server at start
    /// ([`DefinitionError::ReservedBySearch`](crate::registry::DefinitionError::ReservedBySearch)).
    pub fn tool_search(mut self, search: crate::discovery::ToolSearch) -> Server {
        self.executor.take();
        crate::engine::link_search();
        self.options.search = Some(search);
        self
    }

    /// How long the pages of a result spilled over its budget are kept (default 10
    /// minutes): a page read after is unknown, as one never made is.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use std::time::Duration;
    ///
    /// let server = Server::new("logs", "1.0.0").result_budget(50_000).spilled_result_ttl(Duration::from_secs(120));
    /// ```
    pub fn spilled_result_ttl(mut self, ttl: Duration) -> Server {
        self.executor.take();
        self.options.spill.ttl = ttl;
        self
    }

    /// The largest result spilled page by page, in bytes of its text (default 64 MiB): a
    /// larger one is sent whole, and [`Limits::max_result_size`](crate::server::Limits::max_result_size)
    /// refuses it as it would without a budget.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    ///
    /// let server = Server::new("logs", "1.0.0").result_budget(50_000).max_spilled_result_size(8 << 20);
    /// ```
    pub fn max_spilled_result_size(mut self, bytes: usize) -> Server {
        self.executor.take();
        self.options.spill.max_spilled_bytes = bytes;
        self
    }

    /// The same, for a store already shared (`--task-store`).
    #[cfg(feature = "cli")]
    pub(crate) fn task_store_arc(mut self, store: std::sync::Arc<dyn crate::task::TaskStore>) -> Server {
        // The command line's `--task-store`: a shared store (SQLite, Redis) may hold tasks
        // other instances made, which this server then serves; a binary built without
        // either opens only memory stores, no different from the default one.
        #[cfg(any(feature = "sqlite", feature = "redis"))]
        crate::engine::link_tasks();
        self.executor.take();
        self.options.tasks.store = Some(store);
        self
    }

    /// How long a running task's lease lasts: the instance running it renews the lease
    /// three times in that span, and a task whose lease ran out (its instance died) is
    /// reported `failed`, never `working` forever. Thirty seconds by default; shorter finds
    /// a dead instance sooner, at the cost of more writes to the store.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use std::time::Duration;
    ///
    /// let server = Server::new("reports", "1.0.0").task_lease(Duration::from_secs(10));
    /// ```
    pub fn task_lease(mut self, lease: Duration) -> Server {
        self.executor.take();
        self.options.tasks.lease = lease.max(Duration::from_millis(30));
        self
    }

    /// How long a task lives from its creation (its `ttlMs`): a client reads its result
    /// until then, and a task still working then is stopped. An hour by default.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use std::time::Duration;
    ///
    /// let server = Server::new("reports", "1.0.0").task_ttl(Duration::from_secs(24 * 3600));
    /// ```
    pub fn task_ttl(mut self, ttl: Duration) -> Server {
        self.executor.take();
        self.options.tasks.ttl = ttl.max(Duration::from_secs(1));
        self
    }

    /// How many tasks may run at once on this instance (default 1024). A running task
    /// holds one of these places, not one of the calls in progress
    /// ([`Limits::max_concurrent_calls`](crate::server::Limits::max_concurrent_calls)): a
    /// call that becomes a task gives its place among the calls back, so long tasks never
    /// keep plain calls out. A call that would become one task more is answered with error
    /// `-32000` naming this bound, and its tool is stopped; a task waiting for input
    /// (`input_required`) holds no place, and one that runs again after its answers waits
    /// for one.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    ///
    /// let server = Server::new("reports", "1.0.0")
    ///     .max_running_tasks(200)
    ///     .max_running_tasks_per_client(20);
    /// ```
    pub fn max_running_tasks(mut self, tasks: usize) -> Server {
        self.executor.take();
        self.options.tasks.max_running = tasks.max(1);
        self
    }

    /// How many tasks one client may run at once on this instance (default 256), so that
    /// one client cannot take every place [`Server::max_running_tasks`] gives. A client is
    /// told apart as per-client rate limits tell it
    /// ([`Limits::client_rate_limit`](crate::server::Limits::client_rate_limit)): over HTTP
    /// the subject of its bearer token, or else its IP address; over stdio there is one
    /// client. A call over it is answered with error `-32000` naming this bound.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ErrorCode;
    /// use mcp_toolkit::{tool, tools, testing::ClientError, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Works until it is stopped.
    /// #[tool(task)]
    /// async fn work(ctx: Context) -> &'static str {
    ///     ctx.cancelled().await;
    ///     "stopped"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = Server::new("worker", "1.0.0")
    ///     .tools(tools![work])
    ///     .max_running_tasks_per_client(1);
    /// let client = server.test_client()?.with_tasks();
    /// let first = client.request("tools/call", json!({"name": "work", "arguments": {}})).await?;
    /// assert_eq!(first["status"], "working");
    /// let second = client.request("tools/call", json!({"name": "work", "arguments": {}})).await;
    /// let Err(ClientError::Rpc { code, message, .. }) = second else { panic!("{second:?}") };
    /// assert_eq!(code, ErrorCode::SERVER_BUSY);
    /// assert!(message.contains("`max_running_tasks_per_client`"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn max_running_tasks_per_client(mut self, tasks: usize) -> Server {
        self.executor.take();
        self.options.tasks.max_running_per_client = tasks.max(1);
        self
    }

    /// How long a server that is asked to stop (SIGTERM or Ctrl-C, the end of standard
    /// input for [`serve_stdio`](Server::serve_stdio), the future given to
    /// `HttpServer::run_until` (feature `http`)) lets the tasks running on it finish. It
    /// takes no new requests and finishes the calls in flight first; then each task still
    /// running is written `failed`, with the status message "the server shut down before
    /// the task finished", and the server returns. Ten seconds by default; a second signal
    /// ends the wait at once. With `Server::run` (feature `cli`), the environment's
    /// `MCP_TOOLKIT_SHUTDOWN_GRACE` (`30s`, `500ms`) sets it.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use std::time::Duration;
    ///
    /// /// Builds the report; takes up to a minute.
    /// #[tool(task)]
    /// async fn build_report() -> &'static str {
    ///     tokio::time::sleep(Duration::from_secs(50)).await;
    ///     "done"
    /// }
    ///
    /// // A rolling restart waits for the reports being built.
    /// let server = Server::new("reports", "1.0.0")
    ///     .tools(tools![build_report])
    ///     .shutdown_grace(Duration::from_secs(60));
    /// ```
    pub fn shutdown_grace(mut self, grace: Duration) -> Server {
        self.executor.take();
        self.options.shutdown_grace = grace;
        self
    }

    /// Decides, per caller, which tools are listed and callable: the tool list may depend on
    /// authorization (see `Server::bearer_auth`, feature `http`). Lists then go out with
    /// `cacheScope: "private"`.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// let server = Server::new("notes", "1.0.0")
    ///     .tool_visibility(|tool, caller| !tool.name().starts_with("admin.") || caller.is_some_and(|c| c.has_scope("admin")));
    /// ```
    pub fn tool_visibility(
        mut self,
        visible: impl Fn(&Tool, Option<&Principal>) -> bool + Send + Sync + 'static,
    ) -> Server {
        self.executor.take();
        self.visibility.tools = Some(Arc::new(visible));
        self
    }

    /// Decides, per caller, which prompts are listed, completed and given, as
    /// [`Server::tool_visibility`] does for tools: a prompt the caller may not see is
    /// unknown to it. Lists then go out with `cacheScope: "private"`.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// let server = Server::new("notes", "1.0.0")
    ///     .prompt_visibility(|prompt, caller| !prompt.name().starts_with("admin_") || caller.is_some_and(|c| c.has_scope("admin")));
    /// ```
    pub fn prompt_visibility(
        mut self,
        visible: impl Fn(&Prompt, Option<&Principal>) -> bool + Send + Sync + 'static,
    ) -> Server {
        self.executor.take();
        self.visibility.prompts = Some(Arc::new(visible));
        self
    }

    /// Decides, per caller, which resources and templates are listed, read, completed and
    /// watched, as [`Server::tool_visibility`] does for tools: a resource the caller may not
    /// see is not found for it (and a URI that a hidden fixed resource and a visible
    /// template both match reads from the template). Lists then go out with
    /// `cacheScope: "private"`.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// let server = Server::new("docs", "1.0.0")
    ///     .resource_visibility(|resource, caller| !resource.uri().starts_with("internal://") || caller.is_some());
    /// ```
    pub fn resource_visibility(
        mut self,
        visible: impl Fn(&Resource, Option<&Principal>) -> bool + Send + Sync + 'static,
    ) -> Server {
        self.executor.take();
        self.visibility.resources = Some(Arc::new(visible));
        self
    }

    /// A handle for adding, removing, enabling and disabling tools while serving; clients
    /// are told with `notifications/tools/list_changed`. Take it before serving: the handle
    /// and the server share the tools.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let mut server = Server::new("greeter", "1.0.0").tools(tools![hello]);
    /// let registry = server.tool_registry();
    /// let client = server.test_client()?; // the server is serving now
    /// assert_eq!(client.list_tools().await?.len(), 1);
    /// registry.set_enabled("hello", false);
    /// assert!(client.list_tools().await?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// The three registries are taken alike: [`Server::tool_registry`],
    /// [`Server::prompt_registry`] and [`Server::resource_registry`] each borrow the server
    /// mutably and give a handle that shares its catalog.
    pub fn tool_registry(&mut self) -> ToolRegistry {
        self.registry.clone()
    }

    /// Whether the server serves an MCP Apps view (a resource with `app`), and so declares
    /// the extension.
    fn serves_views(&self) -> bool {
        self.resources
            .iter()
            .flat_map(|registry| registry.resources())
            .any(|resource| resource.app().is_some())
    }

    /// A problem for each tool linked to a view the server does not serve, or to a resource
    /// that is not a view.
    fn view_link_problems(&self, tools: &[Tool]) -> Vec<DefinitionError> {
        let resources: Vec<Resource> = self.resources.iter().flat_map(|r| r.resources()).collect();
        tools
            .iter()
            .filter_map(|tool| {
                let uri = tool.app()?;
                let (tool, uri) = (tool.name().to_owned(), uri.to_owned());
                match resources.iter().find(|r| !r.is_template() && r.uri() == uri) {
                    Some(resource) if resource.app().is_some() => None,
                    Some(_) => Some(DefinitionError::NotAView { tool, uri }),
                    None => Some(DefinitionError::UnservedView { tool, uri }),
                }
            })
            .collect()
    }

    /// Checks the configuration: every definition problem, then the state each tool needs.
    fn check(&self) -> Result<(), Error> {
        let mut problems = self.problems.clone();
        let tools = self.registry.tools();
        let budgeted =
            self.options.spill.budget.is_some() || tools.iter().any(|t| t.result_budget().is_some());
        if budgeted && tools.iter().any(|t| t.name() == crate::engine::READ_RESULT) {
            problems.push(DefinitionError::ReservedName(
                crate::engine::READ_RESULT.to_owned(),
            ));
        }
        if self.options.search.is_some() {
            let reserved = [crate::discovery::SEARCH_TOOLS, crate::discovery::CALL_TOOL];
            problems.extend(
                tools
                    .iter()
                    .filter(|t| reserved.contains(&t.name()))
                    .map(|t| DefinitionError::ReservedBySearch(t.name().to_owned())),
            );
        }
        problems.extend(crate::engine::extension_problems(
            &self.extensions,
            tools
                .iter()
                .any(|t| t.task_support() != crate::tool::TaskSupport::Forbidden),
            self.skills.is_some(),
            self.serves_views(),
        ));
        problems.extend(self.view_link_problems(&tools));
        for tool in tools {
            problems.extend(tool.header_error());
            problems.extend(tool.form_errors().into_iter().map(|(type_name, error)| {
                DefinitionError::NotAForm {
                    tool: tool.name().to_owned(),
                    type_name,
                    field: error.field,
                    reason: error.reason,
                }
            }));
        }
        match problems.as_slice() {
            [] => {}
            [problem] => return Err(Error::Definition(problem.clone())),
            problems => return Err(Error::Definitions(problems.to_vec())),
        }
        let tools = self
            .registry
            .tools()
            .into_iter()
            .map(|t| (t.name().to_owned(), t.required_state().to_vec()));
        let prompts = self.prompts.iter().flat_map(|registry| registry.prompts());
        let prompts = prompts.map(|p| (p.name().to_owned(), p.required_state().to_vec()));
        let resources = self.resources.iter().flat_map(|registry| registry.resources());
        let resources = resources.map(|r| (r.uri().to_owned(), r.required_state().to_vec()));
        let methods = self.extensions.iter().flat_map(|e| e.custom_methods());
        let methods = methods.map(|m| (m.name().to_owned(), m.required_state().to_vec()));
        for (name, needs) in tools.chain(prompts).chain(resources).chain(methods) {
            if let Some(state) = needs.iter().find(|state| !self.state.contains(state)) {
                return Err(Error::MissingState {
                    needed_by: name,
                    state: state.type_name(),
                    held: self.state.type_names().to_vec(),
                });
            }
        }
        Ok(())
    }

    /// Checks the configuration and builds the engine.
    // Only the HTTP settings name the instance that task ids start with.
    #[cfg_attr(not(feature = "http"), allow(unused_mut))]
    pub(crate) fn into_engine(mut self) -> Result<Arc<Engine>, Error> {
        self.check()?;
        #[cfg(feature = "http")]
        {
            self.options.tasks.instance = self.http.settings.instance.clone();
        }
        let views = self.serves_views();
        if let Some(engine) = self.executor.into_inner() {
            return Ok(engine);
        }
        let offers = Offers {
            tools: self.registry,
            prompts: self.prompts,
            resources: self.resources,
            extensions: crate::engine::with_builtin(self.extensions, self.skills.is_some(), views),
            skills: self.skills,
            middleware: self.middleware,
        };
        Ok(Arc::new(Engine::new(
            self.info,
            offers,
            self.state,
            self.options,
            self.visibility,
        )))
    }

    /// The engine for calls made through the server itself (`execute`), built once.
    pub(crate) fn executor(&self) -> Result<Arc<Engine>, Error> {
        if let Some(engine) = self.executor.get() {
            return Ok(Arc::clone(engine));
        }
        self.check()?;
        let offers = Offers {
            tools: self.registry.clone(),
            prompts: self.prompts.clone(),
            resources: self.resources.clone(),
            skills: self.skills.clone(),
            extensions: crate::engine::with_builtin(
                self.extensions.clone(),
                self.skills.is_some(),
                self.serves_views(),
            ),
            middleware: self.middleware.clone(),
        };
        let engine = Arc::new(Engine::new(
            self.info.clone(),
            offers,
            self.state.clone(),
            self.options.clone(),
            self.visibility.clone(),
        ));
        Ok(Arc::clone(self.executor.get_or_init(|| engine)))
    }

    /// Serves one client over standard input and output, as MCP clients launch servers.
    /// Returns when the client closes standard input or on Ctrl-C or SIGTERM (after
    /// answering the calls in flight), or when standard output closes. Standard output
    /// carries protocol messages only: log with `tracing` to standard error.
    ///
    /// ```no_run
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main(flavor = "current_thread")]
    /// async fn main() -> Result<(), mcp_toolkit::Error> {
    ///     Server::new("calculator", "1.0.0").tools(tools![add]).serve_stdio().await
    /// }
    /// ```
    pub fn serve_stdio(self) -> impl Future<Output = Result<(), Error>> + Send {
        compiled_here(async move {
            let engine = self.into_engine()?;
            Ok(crate::transport::stdio::serve_stdio(engine).await?)
        })
    }

    /// Serves one client over any byte stream pair (a socket, a pipe, an in-memory
    /// duplex), one JSON-RPC message per line, as [`Server::serve_stdio`] does on standard
    /// input and output. Returns when `reader` ends, after answering what was in flight.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let (client, served) = tokio::io::duplex(64 * 1024);
    /// let (reader, writer) = tokio::io::split(served);
    /// let serving = tokio::spawn(Server::new("calc", "1.0.0").tools(tools![add]).serve_io(reader, writer));
    ///
    /// let (from_server, mut to_server) = tokio::io::split(client);
    /// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    /// to_server.write_all(format!("{call}\n").as_bytes()).await?;
    /// to_server.shutdown().await?; // end of input
    ///
    /// let answer = BufReader::new(from_server).lines().next_line().await?.unwrap();
    /// let answer: serde_json::Value = serde_json::from_str(&answer)?;
    /// assert_eq!(answer["id"], 1);
    /// assert_eq!(answer["result"]["content"][0]["text"], "5");
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), Error>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let engine = self.into_engine()?;
        Ok(crate::transport::stdio::serve_lines(engine, reader, writer).await?)
    }
}

/// A serving loop as a boxed future: the server's crate polls it through a pointer, so the
/// loop is compiled once, here, and not again in every crate that awaits it (an `async fn`
/// is, which a server's rebuild after each edit of a tool paid for).
pub(crate) fn compiled_here<T>(
    serving: impl Future<Output = T> + Send + 'static,
) -> Pin<Box<dyn Future<Output = T> + Send>> {
    Box::pin(serving)
}
