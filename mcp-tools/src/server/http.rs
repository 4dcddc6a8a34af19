//! Serving Streamable HTTP: the [`Server`] methods that bind, route and configure the HTTP
//! endpoint, and [`HttpServer`], an endpoint bound and ready to serve.

use super::builder::{Server, compiled_here};
use super::error::Error;
use crate::context::Principal;
use crate::tool::{ScopePolicy, Tool};
use crate::transport::http::HttpSettings;
use std::future::Future;
use std::sync::Arc;

/// The token checker of `oauth`, kept to fetch the keys when serving starts.
#[cfg(feature = "oauth")]
type Guard = Arc<crate::oauth::Guard>;
/// Nothing to fetch without `oauth`.
#[cfg(not(feature = "oauth"))]
type Guard = std::convert::Infallible;

impl Server {
    /// Serves Streamable HTTP on `addr` (say `"127.0.0.1:8080"`) until Ctrl-C or SIGTERM,
    /// then finishes the requests in flight and returns. The endpoint is `/mcp`
    /// ([`HttpSettings::path`](crate::server::HttpSettings::path)). Use [`Server::bind_http`] to learn the address or choose
    /// when to stop.
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
    /// let http = mcp_toolkit::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await.unwrap();
    /// let addr = http.local_addr();
    /// assert!(addr.ip().is_loopback());
    /// http.run_until(async {}).await.unwrap(); // stops at once
    /// # });
    /// ```
    #[cfg(feature = "http")]
    pub async fn bind_http(self, addr: impl tokio::net::ToSocketAddrs) -> Result<HttpServer, Error> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serving_on(listener)
    }

    /// The endpoint on a bound listener (the part of [`Server::bind_http`] that does not
    /// depend on the address's type, compiled once).
    #[cfg(feature = "http")]
    fn serving_on(self, listener: tokio::net::TcpListener) -> Result<HttpServer, Error> {
        let local_addr = listener.local_addr()?;
        let any_host = !local_addr.ip().is_loopback() && self.http.settings.allowed_hosts.is_none();
        if any_host {
            tracing::warn!(%local_addr, "serving a non-loopback address with no Host allow-list: set `HttpSettings::allowed_hosts`");
        }
        let (http, _protection) = self.http_options()?;
        let engine = self.scoped().into_engine()?;
        let app = Arc::new(crate::transport::http::HttpApp::new(engine, http, any_host));
        // The authorization server's keys are fetched now, not on the first token.
        #[cfg(feature = "oauth")]
        if let Some(guard) = _protection {
            tokio::spawn(async move { guard.warm_up().await });
        }
        Ok(HttpServer {
            listener,
            local_addr,
            app,
        })
    }

    /// The MCP endpoint as an axum `Router`, to merge into an application of your own. It
    /// answers on the path set with [`HttpSettings::path`](crate::server::HttpSettings::path) (default `/mcp`) and, unless told
    /// otherwise with [`HttpSettings::allowed_hosts`](crate::server::HttpSettings::allowed_hosts), only to loopback `Host`s.
    ///
    /// ```
    /// let mcp = mcp_toolkit::Server::new("demo", "1.0.0").into_router().unwrap();
    /// let app: axum::Router = axum::Router::new().merge(mcp);
    /// ```
    #[cfg(feature = "http")]
    pub fn into_router(self) -> Result<axum::Router, Error> {
        let (http, _) = self.http_options()?;
        let engine = self.scoped().into_engine()?;
        Ok(crate::transport::http::router(engine, http, false).0)
    }

    /// The HTTP options, checked; with `oauth`, the token checker and the metadata in them,
    /// and the checker again, to fetch the keys ahead.
    #[cfg(feature = "http")]
    fn http_options(&self) -> Result<(crate::transport::http::HttpOptions, Option<Guard>), Error> {
        if let Some(name) = &self.http.settings.instance
            && !is_instance_name(name)
        {
            return Err(Error::InvalidInstanceName(name.clone()));
        }
        #[allow(unused_mut)]
        let mut options = self.http.clone();
        if let Some(name) = &self.http.toolsets_name {
            let header = axum::http::HeaderName::try_from(name.as_str())
                .map_err(|_| Error::InvalidToolsetsHeader(name.clone()))?;
            options.toolsets_header = Some(header);
        }
        #[cfg(feature = "oauth")]
        if let Some(resource) = &self.oauth {
            let protection = resource.build(&options.settings.path)?;
            let guard = Arc::clone(&protection.guard);
            let checker = Arc::clone(&guard);
            options.auth = Some(Arc::new(move |token: String| {
                let checker = Arc::clone(&checker);
                Box::pin(async move { checker.principal(&token).await })
            }));
            options.resource_metadata = Some(Arc::new(crate::transport::http::ResourceMetadata {
                url: protection.metadata_url,
                paths: protection.metadata_paths,
                document: serde_json::to_vec(&protection.document)
                    .unwrap_or_default()
                    .into(),
                scope: protection.scope,
            }));
            return Ok((options, Some(guard)));
        }
        Ok((options, None))
    }

    /// The server with [`ScopePolicy::Hide`] applied: a tool whose scopes a caller's token
    /// lacks is not visible to that caller, through the same rule as
    /// [`Server::tool_visibility`] (and after it).
    #[cfg(feature = "http")]
    fn scoped(mut self) -> Server {
        if self.http.scope_policy == ScopePolicy::Hide {
            let rule = self.visibility.tools.take();
            self.visibility.tools = Some(Arc::new(move |tool: &Tool, caller: Option<&Principal>| {
                rule.as_ref().is_none_or(|visible| visible(tool, caller))
                    && caller.is_none_or(|principal| tool.allows(principal))
            }));
            self.executor.take();
        }
        self
    }

    /// The HTTP endpoint's settings: its path, the hosts and origins it answers, its legacy
    /// sessions and their idle time, how long a request's head may take, the instance's
    /// name ([`HttpSettings`] has the defaults and a setter for each). Replaces the
    /// settings given before; authorization ([`Server::bearer_auth`], `Server::oauth`,
    /// [`Server::scope_policy`]) is set apart.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
    ///
    /// let server = Server::new("notes", "1.0.0")
    ///     .http(HttpSettings::default().path("/rpc").allowed_hosts(["mcp.example.com"]));
    /// ```
    #[cfg(feature = "http")]
    pub fn http(mut self, settings: HttpSettings) -> Server {
        self.http.settings = settings;
        self
    }

    /// What a caller whose token lacks a tool's scopes (`#[tool(scopes(...))]`,
    /// [`Tool::with_scopes`]) gets over HTTP: with [`ScopePolicy::Challenge`] (the default)
    /// the tool is listed and a call answers 403 with a step-up challenge
    /// (`WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="<the tool's
    /// scopes>"`); with [`ScopePolicy::Hide`] the tool is not listed for that caller and a
    /// call is an unknown tool. Scopes are checked only where the transport knows the
    /// caller: with `Server::oauth` (feature `oauth`) or [`Server::bearer_auth`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, auth::Principal, tool::ScopePolicy, Server};
    ///
    /// /// Deletes a note.
    /// #[tool(scopes("notes:write"))]
    /// fn delete_note(id: u32) -> String { format!("deleted {id}") }
    ///
    /// let server = Server::new("notes", "1.0.0")
    ///     .tools(tools![delete_note])
    ///     .bearer_auth(|token| async move {
    ///         (token == "reader").then(|| Principal::new("ada").with_scopes(["notes:read"]))
    ///     })
    ///     .scope_policy(ScopePolicy::Hide); // ada does not see `delete_note`
    /// ```
    #[cfg(feature = "http")]
    pub fn scope_policy(mut self, policy: ScopePolicy) -> Server {
        self.http.scope_policy = policy;
        self
    }

    /// Narrows the tools of a request to the groups (`#[tool(group = "...")]`) its HTTP header
    /// `name` lists, comma-separated, as GitHub's MCP server does with `X-MCP-Toolsets`:
    /// `tools/list` lists only their tools, and with [tool search](Server::tool_search),
    /// `search_tools` finds only theirs. A request without the header sees every tool. A
    /// legacy session keeps the groups its `initialize` named; in 2026-07-28 each request
    /// names its own. Calls are not narrowed: a tool called by name is called. A name that
    /// is not a header name stops the server at start
    /// ([`Error::InvalidToolsetsHeader`](crate::Error::InvalidToolsetsHeader)).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Refunds a charge.
    /// #[tool(group = "billing")]
    /// fn create_refund(charge: String) -> String { format!("refunded {charge}") }
    ///
    /// /// Opens an issue.
    /// #[tool(group = "issues")]
    /// fn create_issue(title: String) -> String { format!("opened {title}") }
    ///
    /// // `X-MCP-Toolsets: billing` lists `create_refund` alone.
    /// let server = Server::new("shop", "1.0.0")
    ///     .tools(tools![create_refund, create_issue])
    ///     .toolsets_header("X-MCP-Toolsets");
    /// ```
    #[cfg(feature = "http")]
    pub fn toolsets_header(mut self, name: &str) -> Server {
        self.http.toolsets_name = Some(name.to_owned());
        self
    }

    /// Makes the HTTP endpoint an OAuth 2.1 resource server (feature `oauth`), as the MCP
    /// authorization spec describes: it serves its Protected Resource Metadata, asks for a
    /// bearer token with `401` and `WWW-Authenticate: Bearer resource_metadata="..."`,
    /// checks JWT access tokens against the authorization server's keys (or opaque ones by
    /// introspection), and lets tools see the token's subject and scopes
    /// ([`Context::principal`](crate::Context::principal)). It takes the place of
    /// [`Server::bearer_auth`]. A configuration that cannot be served (a plain `http://`
    /// issuer that is not loopback, say) makes [`Server::bind_http`] and
    /// [`Server::into_router`] fail with [`Error::OAuth`]. See [`crate::oauth`].
    ///
    /// ```
    /// use mcp_toolkit::oauth::ResourceServer;
    /// use mcp_toolkit::Server;
    ///
    /// # async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let resource = ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .scopes_supported(["notes:read"]);
    /// let http = Server::new("notes", "1.0.0").oauth(resource).bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `get` sends a GET and returns the whole response.
    /// let metadata = get(addr, "/.well-known/oauth-protected-resource/mcp").await;
    /// assert!(metadata.starts_with("HTTP/1.1 200"));
    /// assert!(metadata.ends_with(r#"{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com"],"bearer_methods_supported":["header"],"scopes_supported":["notes:read"]}"#));
    /// let refused = get(addr, "/mcp").await;
    /// assert!(refused.starts_with("HTTP/1.1 401"));
    /// assert!(refused.contains(r#"www-authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="notes:read""#));
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "oauth")]
    pub fn oauth(mut self, resource: crate::oauth::ResourceServer) -> Server {
        self.oauth = Some(resource);
        self
    }

    /// Requires a bearer token on HTTP requests. `verify` gets the token and answers who
    /// it stands for, or `None` to refuse (401 with `WWW-Authenticate`). Tools see the
    /// caller through [`Context::principal`](crate::Context::principal). The principal's
    /// `subject` is who the caller is: a legacy session belongs to the subject that opened
    /// it, and a request naming it with another subject's token gets the 404 of an unknown
    /// session, so give each user a subject of their own.
    ///
    /// ```
    /// use mcp_toolkit::{auth::Principal, Server};
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
}

/// Whether `name` can be an instance's name ([`HttpSettings::instance_name`](crate::server::HttpSettings::instance_name)),
/// which starts session ids: 1 to 63 of `A-Z a-z 0-9 - _`.
#[cfg(feature = "http")]
pub(crate) fn is_instance_name(name: &str) -> bool {
    (1..=63).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// An HTTP endpoint bound to its address, ready to serve; from [`Server::bind_http`].
/// Serve it with [`run`](HttpServer::run) (until Ctrl-C or SIGTERM) or
/// [`run_until`](HttpServer::run_until) (until a future completes).
///
/// ```
/// use mcp_toolkit::Server;
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
    app: Arc<crate::transport::http::HttpApp>,
}

#[cfg(feature = "http")]
impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The address it listens on: with port 0 asked for, the port the system chose.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::Error> {
    /// let http = mcp_toolkit::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// assert_eq!(addr.ip().to_string(), "127.0.0.1");
    /// assert_ne!(addr.port(), 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.local_addr
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight and lets the
    /// tasks running here finish for [`Server::shutdown_grace`] (a second signal ends the
    /// wait).
    ///
    /// ```no_run
    /// # #[tokio::main]
    /// # async fn main() -> Result<(), mcp_toolkit::Error> {
    /// let http = mcp_toolkit::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
    /// eprintln!("serving MCP on http://{}/mcp", http.local_addr());
    /// http.run().await
    /// # }
    /// ```
    pub fn run(self) -> impl Future<Output = Result<(), Error>> + Send {
        compiled_here(self.serve(crate::transport::signal::shutdown_signal(), true))
    }

    /// Serves until `shutdown` completes, then stops accepting, ends open streams and
    /// sessions, finishes the requests in flight, lets the tasks running here finish for
    /// [`Server::shutdown_grace`] and returns.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::Error> {
    /// let http = mcp_toolkit::Server::new("demo", "1.0.0").bind_http("127.0.0.1:0").await?;
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
        self.serve(shutdown, false).await
    }

    /// Serves until `shutdown`; with `signals`, a signal during the shutdown grace ends it.
    async fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
        signals: bool,
    ) -> Result<(), Error> {
        let HttpServer {
            listener,
            local_addr,
            app,
        } = self;
        tracing::info!("serving MCP at http://{local_addr}{}", app.path());
        Ok(crate::transport::http::serve(listener, app, shutdown, signals).await?)
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;
    use crate::server::HttpSettings;

    #[test]
    fn an_instance_name_is_a_short_word() {
        for name in ["mcp-0", "a", "A_b-9", &"x".repeat(63)] {
            assert!(is_instance_name(name), "{name}");
        }
        for name in ["", "a.b", "a b", "é", "a/b", "a\n", &"x".repeat(64)] {
            assert!(!is_instance_name(name), "{name:?}");
        }
        assert_eq!(
            Error::InvalidInstanceName("a\nb".into()).to_string(),
            "the instance name `a\\nb` cannot start session ids; a name is 1 to 63 of `A-Z`, `a-z`, `0-9`, `-` and `_`"
        );
        assert_eq!(
            Server::new("s", "1")
                .http(HttpSettings::default().instance_name("mcp-2"))
                .http
                .settings
                .instance
                .as_deref(),
            Some("mcp-2")
        );
    }

    #[test]
    fn a_bad_instance_name_in_code_fails_serving() {
        let error = Server::new("s", "1")
            .http(HttpSettings::default().instance_name("mcp.0"))
            .into_router()
            .unwrap_err();
        assert!(matches!(&error, Error::InvalidInstanceName(name) if name == "mcp.0"));
        assert_eq!(
            error.to_string(),
            "the instance name `mcp.0` cannot start session ids; a name is 1 to 63 of `A-Z`, `a-z`, `0-9`, `-` and `_`"
        );
    }
}
