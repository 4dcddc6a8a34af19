//! [`Server`]: a server's identity, its tools and state, and the transports that serve them.

use crate::context::Principal;
use crate::context::StateMap;
use crate::engine::{Engine, Options, Visibility};
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
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

/// Why a server could not start or stopped.
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
    /// A server with this name and version (clients see them as `serverInfo`).
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

    /// Adds tools, usually `tools![...]`. A name already taken is reported when serving
    /// starts.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Server {
        for tool in tools {
            if let Err(problem) = self.registry.add(tool) {
                self.problems.push(problem);
            }
        }
        self
    }

    /// Adds shared state, which tools receive as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Server {
        self.state.insert(value);
        self
    }

    /// A display title.
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.info.title = Some(title.into());
        self
    }

    /// A description of the server (revision 2025-11-25 and later).
    pub fn description(mut self, description: impl Into<String>) -> Server {
        self.info.description = Some(description.into());
        self
    }

    /// The server's website (revision 2025-11-25 and later).
    pub fn website_url(mut self, url: impl Into<String>) -> Server {
        self.info.website_url = Some(url.into());
        self
    }

    /// An icon for the server.
    pub fn icon(mut self, icon: Icon) -> Server {
        self.info.icons.push(icon);
        self
    }

    /// Instructions for the model on using the server's tools together.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Splits `tools/list` into pages of this many tools (default: one page, since many
    /// clients never ask for a next page).
    pub fn page_size(mut self, tools_per_page: usize) -> Server {
        self.options.page_size = Some(tools_per_page.max(1));
        self
    }

    /// How long clients may cache the tool list (`ttlMs`, revision 2026-07-28; default one
    /// minute). A change is announced with `notifications/tools/list_changed` regardless.
    pub fn list_ttl(mut self, ttl: Duration) -> Server {
        self.options.list_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// The longest message accepted, in bytes (default 16 MiB). A longer one is refused
    /// with an error and the connection goes on.
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
    /// are told with `notifications/tools/list_changed`.
    pub fn registry(&self) -> ToolRegistry {
        self.registry.clone()
    }

    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn name_and_version(&self) -> (&str, &str) {
        (&self.info.name, &self.info.version)
    }

    /// Checks the configuration and builds the engine.
    /// Whether object and array arguments may arrive as JSON text.
    pub(crate) fn lenient_arguments_on(&self) -> bool {
        self.options.lenient_arguments
    }

    /// The state tools read with `State<T>`.
    pub(crate) fn state_map(&self) -> &StateMap {
        &self.state
    }

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
    /// Returns when the client closes standard input (after answering what was in flight)
    /// or standard output closes.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        let engine = self.into_engine()?;
        crate::transport::stdio::serve_stdio(engine).await
    }

    /// Serves Streamable HTTP on `addr` (say `"127.0.0.1:8080"`) until Ctrl-C or SIGTERM,
    /// then finishes the requests in flight and returns.
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

    /// The path of the HTTP endpoint (default `/mcp`).
    #[cfg(feature = "http")]
    pub fn http_path(mut self, path: impl Into<String>) -> Server {
        self.http.path = path.into();
        self
    }

    /// The `Host` header values the HTTP endpoint answers (with or without a port; `"*"`
    /// for any). Default: `localhost`, `127.0.0.1`, `[::1]` when listening on loopback.
    /// Requests for other hosts get 403, which defeats DNS rebinding.
    #[cfg(feature = "http")]
    pub fn allowed_hosts<S: Into<String>>(mut self, hosts: impl IntoIterator<Item = S>) -> Server {
        self.http.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// The `Origin` header values the HTTP endpoint answers (such as
    /// `"https://app.example.com"`; `"*"` for any). Default: loopback origins. Requests
    /// without an `Origin` (not from a browser) are always let through.
    #[cfg(feature = "http")]
    pub fn allowed_origins<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> Server {
        self.http.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// How long an idle legacy HTTP session lives (default 30 minutes).
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
    /// duplex), one JSON-RPC message per line.
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
#[cfg(feature = "http")]
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    local_addr: std::net::SocketAddr,
    router: axum::Router,
    app: Arc<crate::transport::http::HttpApp>,
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.local_addr
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
    pub async fn run(self) -> Result<(), Error> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes, then stops accepting, ends open streams and
    /// sessions, finishes the requests in flight and returns.
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
        axum::serve(listener, self.router)
            .with_graceful_shutdown(async move {
                shutdown.await;
                app.shut_down();
            })
            .await?;
        Ok(())
    }
}

/// Completes on Ctrl-C, or SIGTERM on Unix.
#[cfg(feature = "http")]
async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {}
        _ = terminate => {}
    }
}
