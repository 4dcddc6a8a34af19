//! The state every HTTP handler shares, and how the endpoint is configured.

use super::sessions::Sessions;
use crate::context::Principal;
use crate::engine::Engine;
use crate::tool::ScopePolicy;
use axum::body::Bytes;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Checks a bearer token: `Some(principal)` lets the request in.
pub(crate) type AuthHook =
    dyn Fn(String) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send>> + Send + Sync;

/// Where an OAuth resource server's Protected Resource Metadata (RFC 9728) is, and what it
/// says; made by the `oauth` module, served and named in challenges here.
#[cfg_attr(not(feature = "oauth"), allow(dead_code))]
pub(crate) struct ResourceMetadata {
    /// Its absolute URL, named in `WWW-Authenticate` as `resource_metadata`.
    pub(crate) url: String,
    /// The paths it is served at.
    pub(crate) paths: Vec<String>,
    /// The document, encoded once.
    pub(crate) document: Bytes,
    /// The `scope` of the 401 challenge (the scopes supported), if any.
    pub(crate) scope: Option<String>,
}

/// The Streamable HTTP endpoint's settings: its path, the hosts and origins it answers,
/// its legacy sessions and their idle time, how long a request's head may take, the
/// instance's name. Give them with [`Server::http`](crate::Server::http); start from the
/// defaults and change what you need.
///
/// ```
/// use mcp_toolkit::Server;
/// use mcp_toolkit::server::HttpSettings;
/// use std::time::Duration;
///
/// let settings = HttpSettings::default()
///     .path("/rpc")
///     .allowed_hosts(["mcp.example.com"])
///     .session_idle_timeout(Duration::from_secs(10 * 60));
/// let server = Server::new("notes", "1.0.0").http(settings);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HttpSettings {
    pub(crate) path: String,
    /// `Host` values accepted; `None`: the loopback names, unless the server listens on a
    /// non-loopback address, where any host is accepted.
    pub(crate) allowed_hosts: Option<Vec<String>>,
    /// `Origin` values accepted; `None`: loopback origins only. `"*"` accepts any.
    pub(crate) allowed_origins: Option<Vec<String>>,
    pub(crate) session_idle: Duration,
    /// How long a connection may take to send a request's head, from when the server is
    /// ready for it (so also how long a kept-alive connection may stay idle).
    pub(crate) request_head_timeout: Duration,
    /// How many legacy sessions may be open at once.
    pub(crate) max_sessions: usize,
    /// The instance's name, put first in the session ids it issues (checked by whoever
    /// sets it: 1 to 63 of `A-Z a-z 0-9 - _`).
    pub(crate) instance: Option<String>,
}

impl Default for HttpSettings {
    fn default() -> HttpSettings {
        HttpSettings {
            path: "/mcp".to_owned(),
            allowed_hosts: None,
            allowed_origins: None,
            session_idle: Duration::from_secs(30 * 60),
            request_head_timeout: Duration::from_secs(30),
            max_sessions: 10_000,
            instance: None,
        }
    }
}

impl HttpSettings {
    /// The path of the HTTP endpoint (default `/mcp`). Other paths get 404.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
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
    /// let http = Server::new("demo", "1.0.0").http(HttpSettings::default().path("/rpc")).bind_http("127.0.0.1:0").await?;
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
    pub fn path(mut self, path: impl Into<String>) -> HttpSettings {
        self.path = path.into();
        self
    }

    /// The `Host` header values the HTTP endpoint answers (with or without a port; `"*"`
    /// for any). Default: `localhost`, `127.0.0.1`, `[::1]` when listening on loopback.
    /// Requests for other hosts get 403, which defeats DNS rebinding.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
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
    ///     .http(HttpSettings::default().allowed_hosts(["mcp.example.com"]))
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
    pub fn allowed_hosts<S: Into<String>>(mut self, hosts: impl IntoIterator<Item = S>) -> HttpSettings {
        self.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// The `Origin` header values the HTTP endpoint answers (such as
    /// `"https://app.example.com"`; `"*"` for any). Default: loopback origins. Requests
    /// without an `Origin` (not from a browser) are always let through; others get 403.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
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
    ///     .http(HttpSettings::default().allowed_origins(["https://app.example.com"]))
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
    pub fn allowed_origins<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> HttpSettings {
        self.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// How long a legacy HTTP session (2025-03-26 to 2025-11-25) may go unused before the
    /// server ends it (default 30 minutes). A session is in use while its client listens on
    /// its GET stream or has calls in flight. Sessions are looked at every quarter of this
    /// time (at least every minute), and whenever one opens. A request in an ended session
    /// gets 404, and the client starts a new one with `initialize`.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
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
    ///     .http(HttpSettings::default().session_idle_timeout(Duration::from_millis(100)))
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
    pub fn session_idle_timeout(mut self, idle: Duration) -> HttpSettings {
        self.session_idle = idle;
        self
    }

    /// How long an HTTP connection may take to send a request's head (its request line and
    /// headers), counted from when the server is ready to read it (default 30 s). The clock
    /// also runs while a kept-alive connection waits for its next request, so this is how
    /// long an idle connection stays open too. A connection over the limit is closed: a
    /// client that sends its headers a byte at a time, or opens connections and sends
    /// nothing, cannot hold them. A body, and a response being streamed, are not timed by
    /// it. It applies to [`Server::serve_http`](crate::Server::serve_http) and [`Server::bind_http`](crate::Server::bind_http); a router from
    /// [`Server::into_router`](crate::Server::into_router) is served by whoever serves it.
    ///
    /// ```
    /// use mcp_toolkit::server::HttpSettings;
    /// use std::time::Duration;
    /// use tokio::io::{AsyncReadExt, AsyncWriteExt};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = mcp_toolkit::Server::new("demo", "1.0.0")
    ///     .http(HttpSettings::default().request_head_timeout(Duration::from_millis(100)))
    ///     .bind_http("127.0.0.1:0")
    ///     .await?;
    /// let addr = http.local_addr();
    /// tokio::spawn(http.run());
    ///
    /// // Half a request, then nothing: the server closes the connection.
    /// let mut slow = tokio::net::TcpStream::connect(addr).await?;
    /// slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n").await?;
    /// let mut rest = Vec::new();
    /// slow.read_to_end(&mut rest).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn request_head_timeout(mut self, timeout: Duration) -> HttpSettings {
        self.request_head_timeout = timeout;
        self
    }

    /// How many legacy sessions (revisions up to 2025-11-25, opened by `initialize`) may be
    /// open at once (default 10,000). An `initialize` beyond it is refused with 503 and
    /// `Retry-After`, naming the limit, after idle sessions are closed; sessions already
    /// open, and 2026-07-28 requests, which hold no session, are not disturbed.
    ///
    /// ```
    /// use mcp_toolkit::server::HttpSettings;
    /// let server = mcp_toolkit::Server::new("notes", "1.0.0").http(HttpSettings::default().max_sessions(1_000));
    /// ```
    pub fn max_sessions(mut self, sessions: usize) -> HttpSettings {
        self.max_sessions = sessions.max(1);
        self
    }

    /// Names this instance in the ids of the legacy sessions it opens (revisions up to
    /// 2025-11-25), so a load balancer in front of several instances can send each
    /// session's requests back to the instance that holds it, by the `Mcp-Session-Id` alone:
    /// the id becomes `<name>.<32 hex digits>` instead of the 32 hex digits (128 random
    /// bits either way, so ids stay unguessable). The name is 1 to 63 of `A-Z`, `a-z`, `0-9`,
    /// `-` and `_` (a Kubernetes pod name of a StatefulSet fits); it is not secret. Without
    /// it, ids are the hex digits alone. `Server::run` (feature `cli`) also takes it from the
    /// environment variable `MCP_TOOLKIT_INSTANCE`.
    ///
    /// 2026-07-28 requests hold no session and need no such routing: any instance answers
    /// any of them (instances that serve calls that ask share a key ring,
    /// [`Server::request_state_keys`](crate::Server::request_state_keys)).
    ///
    /// A name that breaks the rule makes serving HTTP fail with
    /// [`Error::InvalidInstanceName`](crate::Error::InvalidInstanceName) (`Server::run` refuses a bad `MCP_TOOLKIT_INSTANCE` with
    /// a usage error).
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::HttpSettings;
    ///
    /// # async fn open_session(addr: std::net::SocketAddr) -> String {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1.0.0"}}}"#;
    /// #     let request = format!(
    /// #         "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response.lines().find_map(|line| line.strip_prefix("mcp-session-id: ")).unwrap().trim().to_owned()
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let http = Server::new("demo", "1.0.0").http(HttpSettings::default().instance_name("mcp-0")).bind_http("127.0.0.1:0").await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `open_session` sends `initialize` and returns the `Mcp-Session-Id`.
    /// let id = open_session(addr).await;
    /// let random = id.strip_prefix("mcp-0.").unwrap();
    /// assert!(random.len() == 32 && random.chars().all(|c| c.is_ascii_hexdigit()));
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub fn instance_name(mut self, name: impl Into<String>) -> HttpSettings {
        self.instance = Some(name.into());
        self
    }
}

/// How the HTTP endpoint behaves; set through `Server`.
#[derive(Clone)]
pub(crate) struct HttpOptions {
    /// What `Server::http` sets.
    pub(crate) settings: HttpSettings,
    pub(crate) auth: Option<Arc<AuthHook>>,
    /// The realm named in `WWW-Authenticate`.
    pub(crate) auth_realm: String,
    /// The Protected Resource Metadata, when the server is an OAuth resource server: served
    /// without a token, and named in challenges instead of the realm.
    pub(crate) resource_metadata: Option<Arc<ResourceMetadata>>,
    /// What a caller whose token lacks a tool's scopes gets.
    pub(crate) scope_policy: ScopePolicy,
    /// The header that names the groups of tools a request wants, as given.
    pub(crate) toolsets_name: Option<String>,
    /// That header, checked when serving starts.
    pub(crate) toolsets_header: Option<axum::http::HeaderName>,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            settings: HttpSettings::default(),
            auth: None,
            auth_realm: "mcp".to_owned(),
            resource_metadata: None,
            scope_policy: ScopePolicy::default(),
            toolsets_name: None,
            toolsets_header: None,
        }
    }
}

/// The state every request handler shares.
pub(crate) struct HttpApp {
    pub(super) engine: Arc<Engine>,
    pub(super) options: HttpOptions,
    /// Accept any `Host` (the server listens on a non-loopback address and no list was
    /// given).
    pub(super) any_host: bool,
    pub(super) sessions: Sessions,
    /// Cancelled at shutdown: ends the streams that would otherwise stay open.
    pub(super) shutdown: CancellationToken,
}

impl HttpApp {
    /// The path MCP is served on (`/mcp` unless configured).
    pub(crate) fn path(&self) -> &str {
        &self.options.settings.path
    }

    pub(crate) fn new(engine: Arc<Engine>, options: HttpOptions, any_host: bool) -> HttpApp {
        HttpApp {
            engine,
            sessions: Sessions::new(
                options.settings.session_idle,
                options.settings.max_sessions,
                options.settings.instance.clone(),
            ),
            any_host,
            shutdown: CancellationToken::new(),
            options,
        }
    }

    /// Stops the streams that would otherwise stay open, so a graceful shutdown ends.
    pub(crate) fn shut_down(&self) {
        self.shutdown.cancel();
        self.sessions.end_all();
    }
}
