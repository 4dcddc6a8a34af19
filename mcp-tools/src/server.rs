//! [`Server`]: a server's identity, its tools and state, and the transports that serve them.

use crate::context::Principal;
use crate::context::StateMap;
use crate::engine::{Engine, Options, Visibility};
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
use crate::rate::RateLimit;
use crate::registry::ToolRegistry;
use crate::tool::{Icon, Tool};
#[cfg(feature = "http")]
use crate::transport::http::HttpOptions;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// An MCP server: its name and version, its tools, and how it serves them.
///
/// ```no_run
/// use mcp_tools::{tool, tools, Server};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: f64, b: f64) -> f64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> Result<(), mcp_tools::Error> {
///     Server::new("calculator", env!("CARGO_PKG_VERSION"))
///         .tools(tools![add])
///         .serve_stdio()
///         .await
/// }
/// ```
pub struct Server {
    info: ServerInfo,
    registry: ToolRegistry,
    state: StateMap,
    options: Options,
    problems: Vec<DefinitionError>,
    visibility: Option<Arc<Visibility>>,
    #[cfg(feature = "http")]
    http: HttpOptions,
}

/// Who the server says it is.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) website_url: Option<String>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) instructions: Option<String>,
}

impl ServerInfo {
    /// `serverInfo` as a revision defines it.
    pub(crate) fn implementation(&self, version: ProtocolVersion) -> Value {
        let mut info = json!({ "name": self.name, "version": self.version });
        if version >= ProtocolVersion::V2025_06_18
            && let Some(title) = &self.title
        {
            info["title"] = json!(title);
        }
        if version >= ProtocolVersion::V2025_11_25 {
            if let Some(description) = &self.description {
                info["description"] = json!(description);
            }
            if let Some(url) = &self.website_url {
                info["websiteUrl"] = json!(url);
            }
            if !self.icons.is_empty() {
                info["icons"] = json!(self.icons);
            }
        }
        info
    }
}

/// Why a server could not start or stopped. Everything a server checks before serving is
/// checked by every way of serving it, [`Server::test_client`] included, so a test finds
/// these too.
///
/// ```
/// use mcp_tools::{tool, tools, Error, Server, State};
///
/// struct Database;
///
/// /// Counts the rows.
/// #[tool]
/// fn count_rows(db: State<Database>) -> u64 { 0 }
///
/// let error = Server::new("db", "1.0.0").tools(tools![count_rows]).test_client().unwrap_err();
/// assert!(matches!(&error, Error::MissingState { tool, .. } if tool == "count_rows"));
/// assert!(error.to_string().ends_with("but the server has no such state; give it with `Server::state`"));
///
/// assert!(Server::new("db", "1.0.0").tools(tools![count_rows]).state(Database).test_client().is_ok());
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The tools given to the server break a rule.
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    /// A tool needs shared state the server was not given.
    #[error(
        "tool `{tool}` takes `State<{state}>`, but the server has no such state; give it with `Server::state`"
    )]
    MissingState {
        /// The tool.
        tool: String,
        /// The state's type.
        state: &'static str,
    },
    /// Reading or writing the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// The command line asked for something that cannot be done.
    #[error("{0}")]
    Cli(String),
}

impl Server {
    /// A server with this name and version (clients see them as `serverInfo`), with no
    /// tools yet.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let client = Server::new("calculator", "1.2.0").test_client()?;
    /// let discover = client.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"], json!({"name": "calculator", "version": "1.2.0"}));
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                title: None,
                description: None,
                website_url: None,
                icons: Vec::new(),
                instructions: None,
            },
            registry: ToolRegistry::new(),
            state: StateMap::default(),
            options: Options::default(),
            problems: Vec::new(),
            visibility: None,
            #[cfg(feature = "http")]
            http: HttpOptions::default(),
        }
    }

    /// Adds tools, usually `tools![...]`; call it as often as needed. A name already taken
    /// is reported when serving starts ([`Error::Definition`]).
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// /// Counts the words of a text.
    /// #[tool]
    /// fn words(text: String) -> usize { text.split_whitespace().count() }
    ///
    /// let server = Server::new("utilities", "1.0.0").tools(tools![add]).tools(tools![words]);
    /// assert_eq!(server.registry().tools().len(), 2);
    /// ```
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Server {
        for tool in tools {
            if let Err(problem) = self.registry.add(tool) {
                self.problems.push(problem);
            }
        }
        self
    }

    /// Adds shared state, which tools receive as [`State<T>`](crate::State), one value per
    /// type `T`. Serving fails with [`Error::MissingState`] when a tool needs a type not
    /// given.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server, State};
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
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("counter", "1.0.0").tools(tools![visit]).state(Visits { count: AtomicU64::new(0) });
    /// let client = server.test_client()?;
    /// client.call("visit", json!({})).await?;
    /// assert_eq!(client.call("visit", json!({})).await?.text(), Some("2"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Server {
        self.state.insert(value);
        self
    }

    /// A display title (revision 2025-06-18 and later).
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let client = Server::new("calc", "1.0.0").title("Calculator").test_client()?;
    /// let discover = client.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["title"], "Calculator");
    /// # Ok(())
    /// # }
    /// ```
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.info.title = Some(title.into());
        self
    }

    /// A description of the server (revision 2025-11-25 and later).
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("calc", "1.0.0").description("Arithmetic on two numbers.");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["description"], "Arithmetic on two numbers.");
    /// # Ok(())
    /// # }
    /// ```
    pub fn description(mut self, description: impl Into<String>) -> Server {
        self.info.description = Some(description.into());
        self
    }

    /// The server's website (revision 2025-11-25 and later).
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("calc", "1.0.0").website_url("https://example.com/calc");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["websiteUrl"], "https://example.com/calc");
    /// # Ok(())
    /// # }
    /// ```
    pub fn website_url(mut self, url: impl Into<String>) -> Server {
        self.info.website_url = Some(url.into());
        self
    }

    /// Adds an icon for the server (revision 2025-11-25 and later); call it once per size
    /// or theme.
    ///
    /// ```
    /// use mcp_tools::{Icon, Server};
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
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
        self.info.icons.push(icon);
        self
    }

    /// Instructions for the model on using the server's tools together, sent in the
    /// `server/discover` and `initialize` results.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("notes", "1.0.0").instructions("Search before creating a note.");
    /// let discover = server.test_client()?.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["instructions"], "Search before creating a note.");
    /// # Ok(())
    /// # }
    /// ```
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Splits `tools/list` into pages of this many tools (default: one page, since many
    /// clients never ask for a next page). A page that is not the last has a `nextCursor`.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Says goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("greeter", "1.0.0").tools(tools![hello, goodbye]).page_size(1);
    /// let client = server.test_client()?;
    /// let first = client.request("tools/list", json!(null)).await?;
    /// assert_eq!(first["tools"].as_array().unwrap().len(), 1);
    /// let second = client.request("tools/list", json!({"cursor": first["nextCursor"]})).await?;
    /// assert_eq!(second["tools"][0]["name"], "goodbye");
    /// assert!(second.get("nextCursor").is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn page_size(mut self, tools_per_page: usize) -> Server {
        self.options.page_size = Some(tools_per_page.max(1));
        self
    }

    /// How long clients may cache the tool list (`ttlMs`, revision 2026-07-28; default one
    /// minute). A change is announced with `notifications/tools/list_changed` regardless.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("notes", "1.0.0").list_ttl(Duration::from_secs(5));
    /// let list = server.test_client()?.request("tools/list", json!(null)).await?;
    /// assert_eq!(list["ttlMs"], 5000);
    /// # Ok(())
    /// # }
    /// ```
    pub fn list_ttl(mut self, ttl: Duration) -> Server {
        self.options.list_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// The longest message accepted, in bytes (default 16 MiB; at least 1024). A longer one
    /// is refused without being read into memory: on stdio with error `-32600` and the
    /// connection goes on; on HTTP with status 413.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = Server::new("small", "1.0.0").max_message_size(1024);
    /// let (client, served) = tokio::io::duplex(64 * 1024);
    /// let (reader, writer) = tokio::io::split(served);
    /// let serving = tokio::spawn(server.serve_io(reader, writer));
    ///
    /// let (from_server, mut to_server) = tokio::io::split(client);
    /// let padding = "x".repeat(2000);
    /// let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"padding":"{padding}"}}}}"#);
    /// to_server.write_all(format!("{line}\n").as_bytes()).await?;
    /// to_server.shutdown().await?; // end of input
    ///
    /// let answer = BufReader::new(from_server).lines().next_line().await?.unwrap();
    /// let answer: serde_json::Value = serde_json::from_str(&answer)?;
    /// assert_eq!(answer["error"]["code"], -32600);
    /// assert_eq!(
    ///     answer["error"]["message"],
    ///     "the message is 2064 bytes long; this server accepts messages of up to 1024 bytes"
    /// );
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub fn max_message_size(mut self, bytes: usize) -> Server {
        self.options.max_message_bytes = bytes.max(1024);
        self
    }

    /// The longest result sent, in bytes of its encoded message (default 16 MiB). A larger
    /// result is not sent: the client gets an error result that gives its size, so a tool
    /// that returns too much fails one call rather than the connection.
    ///
    /// ```
    /// let server = mcp_tools::Server::new("files", "1.0.0").max_result_size(1024 * 1024);
    /// ```
    pub fn max_result_size(mut self, bytes: usize) -> Server {
        self.options.max_result_bytes = bytes.max(1024);
        self
    }

    /// How many calls may be in progress at once (default 1024). A call over the limit is
    /// answered at once with an error result asking the client to try again; calls that
    /// finish without waiting are answered as they arrive and never count.
    ///
    /// ```
    /// let server = mcp_tools::Server::new("search", "1.0.0").max_concurrent_calls(64);
    /// ```
    pub fn max_concurrent_calls(mut self, calls: usize) -> Server {
        self.options.max_concurrent_calls = calls.max(1);
        self
    }

    /// How long a call may run (default 60 s, what the official clients wait for an
    /// answer). A call that runs longer is stopped (its future is dropped) and answered with
    /// an error result saying it timed out. A sync tool's thread cannot be stopped: its
    /// answer is sent on time and its result dropped when it ends.
    ///
    /// ```
    /// use std::time::Duration;
    /// let server = mcp_tools::Server::new("web", "1.0.0").call_timeout(Duration::from_secs(20));
    /// ```
    pub fn call_timeout(mut self, timeout: Duration) -> Server {
        self.options.call_timeout = timeout;
        self
    }

    /// A time limit for one tool, instead of [`Server::call_timeout`]'s; the tool may also
    /// be added later through the [`ToolRegistry`].
    ///
    /// ```
    /// use std::time::Duration;
    /// let server = mcp_tools::Server::new("builds", "1.0.0")
    ///     .tool_timeout("run_build", Duration::from_secs(15 * 60));
    /// ```
    pub fn tool_timeout(mut self, tool: impl Into<String>, timeout: Duration) -> Server {
        self.options.tool_timeouts.insert(tool.into(), timeout);
        self
    }

    /// Accepts an object or array argument sent as a string of JSON text (off by default).
    /// Some clients and models send `{"filter": "{\"tag\": \"x\"}"}` where the schema
    /// asks for `{"filter": {"tag": "x"}}`; with this on, such a string is decoded when the
    /// parameter does not accept it as it is. A parameter that takes a string always gets the
    /// string.
    ///
    /// ```
    /// let server = mcp_tools::Server::new("notes", "1.0.0").lenient_arguments(true);
    /// ```
    pub fn lenient_arguments(mut self, lenient: bool) -> Server {
        self.options.lenient_arguments = lenient;
        self
    }

    /// Sends the details of internal errors to clients: what a tool's `?`-converted error
    /// or panic says, after `internal error: `. Off by default, since such details can name
    /// hosts, paths and queries; turn it on while developing. Details are logged either way.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server, ToolError};
    ///
    /// /// Reads the configuration.
    /// #[tool]
    /// fn config() -> Result<String, ToolError> {
    ///     Ok(std::fs::read_to_string("/nonexistent/app.toml")?)
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
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
        self.options.expose_internal_errors = expose;
        self
    }

    /// Limits the tool calls all clients together may make, with a token bucket: a call over
    /// the limit gets an `isError` result at once that gives the limit and how long to wait.
    /// Calls of unknown tools and other requests are not counted. No limit by default.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, RateLimit, Server};
    /// use serde_json::json;
    ///
    /// /// Looks a word up in a paid dictionary API.
    /// #[tool]
    /// fn define(word: String) -> String { format!("{word}: …") }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("dictionary", "1.0.0")
    ///     .tools(tools![define])
    ///     .rate_limit(RateLimit::per_minute(2));
    /// let client = server.test_client()?;
    /// assert!(!client.call("define", json!({"word": "a"})).await?.is_error());
    /// assert!(!client.call("define", json!({"word": "b"})).await?.is_error());
    /// let refused = client.call("define", json!({"word": "c"})).await?;
    /// assert!(refused.is_error());
    /// assert!(refused.text().unwrap().starts_with("too many calls: this server takes 2 calls per minute; try again in "));
    /// # Ok(())
    /// # }
    /// ```
    pub fn rate_limit(mut self, limit: RateLimit) -> Server {
        self.options.rate_limit = Some(limit);
        self
    }

    /// Limits the tool calls each client may make, with a token bucket of its own, so one
    /// busy client cannot take every call the server allows. No limit by default.
    ///
    /// Over HTTP a client is the subject of its bearer token (see
    /// [`bearer_auth`](Server::bearer_auth)), or else its IP address. Behind a reverse proxy
    /// every client has the proxy's address; authenticate clients to tell them apart. An
    /// application serving [`into_router`](Server::into_router) itself must serve it with
    /// `into_make_service_with_connect_info::<SocketAddr>()` for addresses to be known;
    /// without, unauthenticated clients share one bucket. Over stdio there is one client.
    ///
    /// When both limits are set, a call counts against its client's bucket first, so a
    /// client over its own limit takes nothing from the server's.
    ///
    /// ```
    /// use mcp_tools::{RateLimit, Server};
    ///
    /// let server = Server::new("search", "1.0.0")
    ///     .rate_limit(RateLimit::per_second(200))
    ///     .client_rate_limit(RateLimit::per_second(10).burst(30));
    /// ```
    pub fn client_rate_limit(mut self, limit: RateLimit) -> Server {
        self.options.client_rate_limit = Some(limit);
        self
    }

    /// Decides, per caller, which tools are listed and callable: the tool list may depend on
    /// authorization (see [`Server::bearer_auth`]). Lists then go out with
    /// `cacheScope: "private"`.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// let server = Server::new("notes", "1.0.0")
    ///     .tool_visibility(|tool, caller| !tool.name().starts_with("admin.") || caller.is_some_and(|c| c.has_scope("admin")));
    /// ```
    pub fn tool_visibility(
        mut self,
        visible: impl Fn(&Tool, Option<&Principal>) -> bool + Send + Sync + 'static,
    ) -> Server {
        self.visibility = Some(Arc::new(visible));
        self
    }

    /// A handle for adding, removing, enabling and disabling tools while serving; clients
    /// are told with `notifications/tools/list_changed`. Take it before serving: the handle
    /// and the server share the tools.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let server = Server::new("greeter", "1.0.0").tools(tools![hello]);
    /// let registry = server.registry();
    /// let client = server.test_client()?; // the server is serving now
    /// assert_eq!(client.list_tools().await?.len(), 1);
    /// registry.set_enabled("hello", false);
    /// assert!(client.list_tools().await?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn registry(&self) -> ToolRegistry {
        self.registry.clone()
    }

    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn name_and_version(&self) -> (&str, &str) {
        (&self.info.name, &self.info.version)
    }

    /// The tunables, as set so far.
    pub(crate) fn options(&self) -> &Options {
        &self.options
    }

    /// The state tools read with `State<T>`.
    pub(crate) fn state_map(&self) -> &StateMap {
        &self.state
    }

    /// Checks the configuration and builds the engine.
    pub(crate) fn into_engine(self) -> Result<Arc<Engine>, Error> {
        if let Some(problem) = self.problems.into_iter().next() {
            return Err(problem.into());
        }
        for tool in self.registry.tools() {
            for state in tool.required_state() {
                if !self.state.contains(state) {
                    return Err(Error::MissingState {
                        tool: tool.name().to_owned(),
                        state: state.type_name(),
                    });
                }
            }
        }
        Ok(Arc::new(Engine::new(
            self.info,
            self.registry,
            self.state,
            self.options,
            self.visibility,
        )))
    }

    /// Serves one client over standard input and output, as MCP clients launch servers.
    /// Returns when the client closes standard input or on Ctrl-C or SIGTERM (after
    /// answering the calls in flight), or when standard output closes. Standard output
    /// carries protocol messages only: log with `tracing` to standard error.
    ///
    /// ```no_run
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main(flavor = "current_thread")]
    /// async fn main() -> Result<(), mcp_tools::Error> {
    ///     Server::new("calculator", "1.0.0").tools(tools![add]).serve_stdio().await
    /// }
    /// ```
    pub async fn serve_stdio(self) -> Result<(), Error> {
        let engine = self.into_engine()?;
        crate::transport::stdio::serve_stdio(engine).await
    }

    /// Serves Streamable HTTP on `addr` (say `"127.0.0.1:8080"`) until Ctrl-C or SIGTERM,
    /// then finishes the requests in flight and returns. The endpoint is `/mcp`
    /// ([`Server::http_path`]). Use [`Server::bind_http`] to learn the address or choose
    /// when to stop.
    ///
    /// ```no_run
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_tools::Error> {
    ///     Server::new("calculator", "1.0.0").tools(tools![add]).serve_http("127.0.0.1:8080").await
    /// }
    /// ```
    #[cfg(feature = "http")]
    pub async fn serve_http(self, addr: impl tokio::net::ToSocketAddrs) -> Result<(), Error> {
        self.bind_http(addr).await?.run().await
    }

    /// Binds the HTTP endpoint without serving yet, so the caller can learn the address
    /// (bind port 0 for any free one) and choose when to stop.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let http = mcp_tools::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await.unwrap();
    /// let addr = http.local_addr();
    /// assert!(addr.ip().is_loopback());
    /// http.run_until(async {}).await.unwrap(); // stops at once
    /// # });
    /// ```
    #[cfg(feature = "http")]
    pub async fn bind_http(self, addr: impl tokio::net::ToSocketAddrs) -> Result<HttpServer, Error> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let any_host = !local_addr.ip().is_loopback() && self.http.allowed_hosts.is_none();
        if any_host {
            tracing::warn!(%local_addr, "serving a non-loopback address with no Host allow-list: set `Server::allowed_hosts`");
        }
        let http = self.http.clone();
        let engine = self.into_engine()?;
        let (router, app) = crate::transport::http::router(engine, http, any_host);
        Ok(HttpServer {
            listener,
            local_addr,
            router,
            app,
        })
    }

    /// The MCP endpoint as an axum `Router`, to merge into an application of your own. It
    /// answers on the path set with [`Server::http_path`] (default `/mcp`) and, unless told
    /// otherwise with [`Server::allowed_hosts`], only to loopback `Host`s.
    ///
    /// ```
    /// let mcp = mcp_tools::Server::new("demo", "1.0.0").into_router().unwrap();
    /// let app: axum::Router = axum::Router::new().merge(mcp);
    /// ```
    #[cfg(feature = "http")]
    pub fn into_router(self) -> Result<axum::Router, Error> {
        let http = self.http.clone();
        let engine = self.into_engine()?;
        Ok(crate::transport::http::router(engine, http, false).0)
    }

    /// The path of the HTTP endpoint (default `/mcp`). Other paths get 404.
    ///
    /// ```
    /// use mcp_tools::Server;
    ///
    /// # async fn status(addr: std::net::SocketAddr, path: &str, host: &str, origin: Option<&str>) -> u16 {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    /// #     let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    /// #     let request = format!(
    /// #         "POST {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response[9..12].parse().unwrap()
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = Server::new("demo", "1.0.0").http_path("/rpc").bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `status` posts a `server/discover` request and returns the HTTP status.
    /// assert_eq!(status(addr, "/rpc", "localhost", None).await, 200);
    /// assert_eq!(status(addr, "/mcp", "localhost", None).await, 404);
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub fn http_path(mut self, path: impl Into<String>) -> Server {
        self.http.path = path.into();
        self
    }

    /// The `Host` header values the HTTP endpoint answers (with or without a port; `"*"`
    /// for any). Default: `localhost`, `127.0.0.1`, `[::1]` when listening on loopback.
    /// Requests for other hosts get 403, which defeats DNS rebinding.
    ///
    /// ```
    /// use mcp_tools::Server;
    ///
    /// # async fn status(addr: std::net::SocketAddr, path: &str, host: &str, origin: Option<&str>) -> u16 {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    /// #     let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    /// #     let request = format!(
    /// #         "POST {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response[9..12].parse().unwrap()
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = Server::new("demo", "1.0.0")
    ///     .allowed_hosts(["mcp.example.com"])
    ///     .bind_http("127.0.0.1:0")
    ///     .await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `status` posts a `server/discover` request with this `Host` and returns the HTTP status.
    /// assert_eq!(status(addr, "/mcp", "mcp.example.com", None).await, 200);
    /// assert_eq!(status(addr, "/mcp", "mcp.example.com:443", None).await, 200);
    /// assert_eq!(status(addr, "/mcp", "localhost", None).await, 403); // no longer in the list
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub fn allowed_hosts<S: Into<String>>(mut self, hosts: impl IntoIterator<Item = S>) -> Server {
        self.http.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// The `Origin` header values the HTTP endpoint answers (such as
    /// `"https://app.example.com"`; `"*"` for any). Default: loopback origins. Requests
    /// without an `Origin` (not from a browser) are always let through; others get 403.
    ///
    /// ```
    /// use mcp_tools::Server;
    ///
    /// # async fn status(addr: std::net::SocketAddr, path: &str, host: &str, origin: Option<&str>) -> u16 {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    /// #     let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    /// #     let request = format!(
    /// #         "POST {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response[9..12].parse().unwrap()
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = Server::new("demo", "1.0.0")
    ///     .allowed_origins(["https://app.example.com"])
    ///     .bind_http("127.0.0.1:0")
    ///     .await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `status` posts a `server/discover` request with this `Origin` and returns the HTTP status.
    /// assert_eq!(status(addr, "/mcp", "localhost", Some("https://app.example.com")).await, 200);
    /// assert_eq!(status(addr, "/mcp", "localhost", Some("https://elsewhere.example")).await, 403);
    /// assert_eq!(status(addr, "/mcp", "localhost", None).await, 200);
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub fn allowed_origins<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> Server {
        self.http.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// How long a legacy HTTP session (2025-03-26 to 2025-11-25) may go unused before the
    /// server ends it (default 30 minutes). A session is in use while its client listens on
    /// its GET stream or has calls in flight. Sessions are looked at every quarter of this
    /// time (at least every minute), and whenever one opens. A request in an ended session
    /// gets 404, and the client starts a new one with `initialize`.
    ///
    /// ```
    /// use mcp_tools::Server;
    /// use std::time::Duration;
    ///
    /// # async fn post(addr: std::net::SocketAddr, session: Option<&str>, body: &str) -> String {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let session = session.map_or(String::new(), |id| format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n"));
    /// #     let request = format!(
    /// #         "POST /mcp HTTP/1.1\r\nHost: localhost\r\n{session}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response
    /// # }
    /// # async fn open_session(addr: std::net::SocketAddr) -> String {
    /// #     let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1.0.0"}}}"#;
    /// #     let response = post(addr, None, initialize).await;
    /// #     response.lines().find_map(|line| line.strip_prefix("mcp-session-id: ")).unwrap().trim().to_owned()
    /// # }
    /// # async fn ping(addr: std::net::SocketAddr, session: &str) -> u16 {
    /// #     let response = post(addr, Some(session), r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).await;
    /// #     response[9..12].parse().unwrap()
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = Server::new("demo", "1.0.0")
    ///     .session_idle_timeout(Duration::from_millis(100))
    ///     .bind_http("127.0.0.1:0")
    ///     .await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `open_session` sends `initialize` and returns the `Mcp-Session-Id`; `ping` sends
    /// // `ping` in a session and returns the HTTP status.
    /// let first = open_session(addr).await;
    /// assert_eq!(ping(addr, &first).await, 200);
    /// tokio::time::sleep(Duration::from_millis(200)).await;
    /// assert_eq!(ping(addr, &first).await, 404); // ended while idle
    /// let second = open_session(addr).await;
    /// assert_eq!(ping(addr, &second).await, 200);
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub fn session_idle_timeout(mut self, idle: Duration) -> Server {
        self.http.session_idle = idle;
        self
    }

    /// Requires a bearer token on HTTP requests. `verify` gets the token and answers who
    /// it stands for, or `None` to refuse (401 with `WWW-Authenticate`). Tools see the
    /// caller through [`Context::principal`](crate::Context::principal).
    ///
    /// ```
    /// use mcp_tools::{Principal, Server};
    /// let server = Server::new("notes", "1.0.0").bearer_auth(|token| async move {
    ///     (token == "secret").then(|| Principal::new("ada").with_scopes(["notes:read"]))
    /// });
    /// ```
    #[cfg(feature = "http")]
    pub fn bearer_auth<F, Fut>(mut self, verify: F) -> Server
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Option<Principal>> + Send + 'static,
    {
        self.http.auth = Some(Arc::new(move |token| Box::pin(verify(token))));
        self
    }

    /// Serves one client over any byte stream pair (a socket, a pipe, an in-memory
    /// duplex), one JSON-RPC message per line, as [`Server::serve_stdio`] does on standard
    /// input and output. Returns when `reader` ends, after answering what was in flight.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
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
        crate::transport::stdio::serve_lines(engine, reader, writer).await
    }
}

/// An HTTP endpoint bound to its address, ready to serve; from [`Server::bind_http`].
/// Serve it with [`run`](HttpServer::run) (until Ctrl-C or SIGTERM) or
/// [`run_until`](HttpServer::run_until) (until a future completes).
///
/// ```
/// use mcp_tools::Server;
///
/// # async fn status(addr: std::net::SocketAddr, path: &str, host: &str, origin: Option<&str>) -> u16 {
/// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
/// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// #     let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
/// #     let request = format!(
/// #         "POST {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
/// #         body.len()
/// #     );
/// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
/// #     stream.write_all(request.as_bytes()).await.unwrap();
/// #     let mut response = String::new();
/// #     stream.read_to_string(&mut response).await.unwrap();
/// #     response[9..12].parse().unwrap()
/// # }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let http = Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
/// let addr = http.local_addr();
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
///
/// // `status` posts a `server/discover` request and returns the HTTP status.
/// assert_eq!(status(addr, "/mcp", "localhost", None).await, 200);
///
/// stop.send(()).ok();
/// serving.await??; // stopped: the port is closed
/// assert!(tokio::net::TcpStream::connect(addr).await.is_err());
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "http")]
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    local_addr: std::net::SocketAddr,
    router: axum::Router,
    app: Arc<crate::transport::http::HttpApp>,
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The address it listens on: with port 0 asked for, the port the system chose.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::Error> {
    /// let http = mcp_tools::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// assert_eq!(addr.ip().to_string(), "127.0.0.1");
    /// assert_ne!(addr.port(), 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.local_addr
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
    ///
    /// ```no_run
    /// # #[tokio::main]
    /// # async fn main() -> Result<(), mcp_tools::Error> {
    /// let http = mcp_tools::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
    /// eprintln!("serving MCP on http://{}/mcp", http.local_addr());
    /// http.run().await
    /// # }
    /// ```
    pub async fn run(self) -> Result<(), Error> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes, then stops accepting, ends open streams and
    /// sessions, finishes the requests in flight and returns.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::Error> {
    /// let http = mcp_tools::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// http.run_until(tokio::time::sleep(Duration::from_millis(10))).await?;
    /// assert!(tokio::net::TcpStream::connect(addr).await.is_err()); // no longer listening
    /// # Ok(())
    /// # }
    /// ```
    pub async fn run_until(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), Error> {
        use axum::serve::ListenerExt;
        tracing::info!(addr = %self.local_addr, "serving MCP over HTTP");
        let listener = self.listener.tap_io(|tcp| {
            // Answers go out at once instead of waiting on Nagle's algorithm.
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
        });
        let app = self.app;
        // Idle sessions end on time even when no new session comes to trigger a sweep.
        let sweeper = {
            let app = Arc::clone(&app);
            tokio::spawn(async move {
                let mut every = tokio::time::interval(app.sweep_period());
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    every.tick().await;
                    app.expire_sessions();
                }
            })
        };
        let service = self
            .router
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        let served = axum::serve(listener, service)
            .with_graceful_shutdown(async move {
                shutdown.await;
                app.shut_down();
            })
            .await;
        sweeper.abort();
        served?;
        Ok(())
    }
}

/// Completes on Ctrl-C, or SIGTERM on Unix. The signals are caught from the moment this is
/// called, not from its first poll, so one that arrives before the server waits for it still
/// stops the server gently.
pub(crate) fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        async fn arrival(signal: Option<Signal>) {
            match signal {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        let terminate = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async move {
            tokio::select! {
                () = arrival(terminate) => {}
                () = arrival(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        let interrupt = tokio::signal::ctrl_c();
        async move {
            if interrupt.await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}
