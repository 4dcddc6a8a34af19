//! Calling MCP servers: [`Client`] speaks to a server started as a child process
//! ([`Client::stdio`]), to one over Streamable HTTP (`Client::http`, feature `http`, on by
//! default), over any line-delimited stream ([`Client::stream`]), or to one in the same
//! program ([`Server::test_client`](crate::Server::test_client)), with one set of methods and one [`ClientError`].
//!
//! [`Server::test_client`]: crate::Server::test_client
//!
//! ```no_run
//! use mcp_toolkit::client::{Client, ClientError};
//! use serde_json::json;
//!
//! # async fn run() -> Result<(), ClientError> {
//! let notes = Client::stdio(tokio::process::Command::new("notes"))
//!     .on_elicit(|_request| async move { json!({"action": "accept", "content": {"confirm": true}}) })
//!     .connect()
//!     .await?;
//! for tool in notes.list_tools().await? {
//!     println!("{}: {}", tool.name(), tool.description().unwrap_or_default());
//! }
//! let answer = notes.call("add_note", json!({"title": "milk", "body": "2 litres"})).await?;
//! println!("{}", answer.text().unwrap_or_default());
//! # Ok(())
//! # }
//! ```
//!
//! The client speaks one protocol revision per server. By default it probes with
//! `server/discover` and speaks 2026-07-28 when the server offers it; a server that
//! answers the probe with anything else (or not at all, within
//! [`Connector::discover_timeout`]) is legacy, and the client opens an `initialize`
//! session in the newest revision both know. [`Connector::protocol_version`] pins one.
//!
//! Every request is JSON-RPC on the wire, whatever the transport: what the answers hold is
//! read into typed results ([`CallResponse`], [`ListedTool`], [`PromptResponse`],
//! [`ReadResponse`] and the rest); [`Client::request`] sends anything else and gives its
//! `result` as JSON. A 2026-07-28 request that ends in `input_required` is answered from
//! the handlers ([`Client::on_elicit`], [`Client::on_sample`], [`Client::with_roots`]) and
//! sent again with its `requestState`; a legacy server's own requests are answered from the
//! same handlers. A client made [`with_tasks`](Client::with_tasks) follows a call the server
//! turns into a task to its end.
//!
//! [`Client::subscribe`] listens to what changes on the server, as a stream of [`Change`]s;
//! [`Client::call_with_updates`] hands a call's progress and log messages to a callback
//! while it runs; the lists are kept while the server says they are fresh (`ttlMs`).
//!
//! Whatever a server sends, the client stays bounded and says what went wrong: a message
//! over [`Connector::max_message_bytes`] fails the request it answers
//! ([`ClientError::TooLarge`]); a request unanswered after [`Connector::request_timeout`]
//! (60 s by default) is cancelled with `notifications/cancelled` and fails
//! ([`ClientError::Timeout`]), as does one whose future is dropped (it is cancelled, with
//! no error to give); a server that exits fails every request still waiting
//! ([`ClientError::Closed`]); lines that are not messages and answers to requests never
//! sent are logged and dropped.

mod cache;
#[cfg(feature = "http")]
mod http;
mod link;
mod message;
#[cfg(feature = "http")]
mod net;
#[cfg(feature = "client-oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "client-oauth")))]
pub mod oauth;
mod params;
mod results;
mod ring;
mod skills;
mod stdio;
mod subscription;
mod updates;

pub use results::{
    ListedPrompt, ListedResource, ListedResourceTemplate, ListedTool, PromptResponse, ReadResponse,
};
pub use skills::{ListedSkill, SkillFile};
pub use subscription::{Change, Subscription, Topics};
pub use updates::CallUpdate;

use crate::content::Content;
use crate::engine::{Connection, Engine, TASKS_EXTENSION};
use crate::prompt::GetPromptResult;
use crate::protocol::arguments::clip;
use crate::protocol::messages::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
};
use crate::protocol::{ErrorCode, LoggingLevel, ProtocolVersion};
use crate::server::error::Error;
use crate::tool::Tool;
use cache::ListCache;
use link::{Inbox, Link};
use message::Members;
use results::{Listed, WireRead};
use ring::Ring;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::broadcast;

/// The name the client gives in `clientInfo`.
const CLIENT_NAME: &str = "mcp-toolkit-client";

/// How long a request waits for its answer unless told otherwise.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// How long the `server/discover` probe waits before the server is taken as legacy.
const DISCOVER_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest message the client reads unless told otherwise, as the server's default.
const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// How many characters of a server's message an error quotes.
const QUOTED_RESPONSE_CHARS: usize = 2_000;

/// The most notifications one response keeps ([`CallResponse::notifications`]); a server
/// that sends more for one request has the rest dropped.
const MAX_NOTIFICATIONS: usize = 10_000;

/// A connection to one MCP server: from [`Client::stdio`] (a child process),
/// [`Server::test_client`](crate::Server::test_client) (a server's engine in this process, revision 2026-07-28) or
/// [`Server::test_client_legacy`](crate::Server::test_client_legacy) (the same, in an `initialize` session).
///
/// It speaks one protocol revision, as any client does: modern requests carry the
/// revision, the client's identity and capabilities in `_meta`; legacy ones rely on the
/// session. Its methods take `&self`, so one client can be shared (in an `Arc`) by
/// concurrent tasks, on a current-thread or a multi-thread runtime. A request waits for its
/// answer at most [`Connector::request_timeout`] (60 s by default).
///
/// [`Server::test_client`]: crate::Server::test_client
/// [`Server::test_client_legacy`]: crate::Server::test_client_legacy
///
/// ```
/// use mcp_toolkit::{tool, tools, Json, Server, ToolError};
/// use serde_json::json;
///
/// #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
/// struct Quotient { value: f64 }
///
/// /// Divides `a` by `b`.
/// #[tool]
/// fn divide(a: f64, b: f64) -> Result<Json<Quotient>, ToolError> {
///     if b == 0.0 {
///         return Err(ToolError::new("cannot divide by zero"));
///     }
///     Ok(Json(Quotient { value: a / b }))
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::client::ClientError> {
/// let client = Server::new("calc", "1.0.0").tools(tools![divide]).test_client()?;
///
/// let tools = client.list_tools().await?;
/// assert_eq!(tools[0].name(), "divide");
///
/// let half = client.call("divide", json!({"a": 1, "b": 2})).await?;
/// assert_eq!(half.structured::<Quotient>()?, Quotient { value: 0.5 });
///
/// let failed = client.call("divide", json!({"a": 1, "b": 0})).await?;
/// assert!(failed.is_error());
/// assert_eq!(failed.text(), Some("cannot divide by zero"));
/// # Ok(())
/// # }
/// ```
pub struct Client {
    link: Link,
    version: ProtocolVersion,
    /// Shared with the subscriptions, which send a request as they go (legacy revisions).
    next_id: Arc<AtomicI64>,
    /// The level asked for with `set_log_level`, sent with each modern request.
    log_level: Mutex<Option<LoggingLevel>>,
    /// Shared with the typed result made from it, not copied.
    last_response: Mutex<Option<Arc<Value>>>,
    /// How the client answers the server's asks; its capabilities follow from them.
    answers: Answers,
    /// Whether the connection must (again) be initialized before the next request: the
    /// capabilities changed since the handshake (legacy revisions, in process).
    reinitialize: Mutex<bool>,
    /// Whether modern requests declare the tasks extension.
    tasks: bool,
    /// How long a request waits for its answer.
    timeout: Duration,
    /// What the server said of itself: `serverInfo` and the rest of the handshake's or the
    /// probe's result.
    server: Mutex<Value>,
    /// The arguments each listed tool repeats in `Mcp-Param-*` headers, by tool.
    header_params: Mutex<std::collections::HashMap<String, Vec<params::HeaderParam>>>,
    /// Whether the tools were listed: a call over HTTP in 2026-07-28 lists them first, to
    /// learn which arguments go in headers.
    listed: std::sync::atomic::AtomicBool,
    /// The lists kept while fresh (`ttlMs`), shared with the subscriptions that hear of
    /// their changes.
    cache: Arc<ListCache>,
    /// How many subscriptions watch each resource URI, in a legacy session: the last one
    /// to go sends `resources/unsubscribe`.
    watching: Arc<Mutex<std::collections::HashMap<String, usize>>>,
}

/// How to reach a server and what to say to it, before [`connect`](Connector::connect):
/// from [`Client::stdio`].
#[must_use = "a connector does nothing until `connect` is awaited"]
pub struct Connector {
    target: Target,
    answers: Answers,
    tasks: bool,
    version: Option<String>,
    timeout: Duration,
    discover_timeout: Duration,
    max_message_bytes: usize,
}

impl fmt::Debug for Connector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = match &self.target {
            Target::Stdio(command) => command.as_std().get_program().to_string_lossy().into_owned(),
            Target::Stream(..) => "a stream".to_owned(),
            #[cfg(feature = "http")]
            Target::Http { url, .. } => url.clone(),
        };
        f.debug_struct("Connector")
            .field("target", &target)
            .field("protocol_version", &self.version)
            .field("tasks", &self.tasks)
            .field("request_timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// Where a [`Connector`] goes.
enum Target {
    Stdio(tokio::process::Command),
    #[cfg(feature = "http")]
    Http {
        url: String,
        token: Option<String>,
        #[cfg(feature = "client-oauth")]
        oauth: Option<oauth::OAuth>,
    },
    Stream(
        Box<dyn AsyncRead + Unpin + Send>,
        Box<dyn AsyncWrite + Unpin + Send>,
    ),
}

impl Client {
    /// A connector to a server started as a child process from `command`, over its standard
    /// input and output. The child's standard error is passed on to the client's own (set
    /// `command.stderr(..)` to send it elsewhere); its standard input closes when the
    /// client is dropped or [`close`](Client::close)d, and a child that has not exited two
    /// seconds later is killed.
    ///
    /// ```no_run
    /// use mcp_toolkit::client::{Client, ClientError};
    /// use serde_json::json;
    ///
    /// # async fn run() -> Result<(), ClientError> {
    /// let mut command = tokio::process::Command::new("calculator");
    /// command.arg("--quiet");
    /// let calculator = Client::stdio(command).connect().await?;
    /// let sum = calculator.call("calculator", json!({"operation": "add", "a": 2, "b": 3})).await?;
    /// assert_eq!(sum.text(), Some("5"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn stdio(command: tokio::process::Command) -> Connector {
        Connector::new(Target::Stdio(command))
    }

    /// A connector to a server's Streamable HTTP endpoint at `url` (`http://`, or
    /// `https://` with the `tls` feature). Each request is a POST; its answer is read as
    /// JSON or as an event stream of the request's notifications ending with its response.
    /// A legacy session keeps the `Mcp-Session-Id` the server gives and ends with `DELETE`
    /// on [`close`](Client::close); 2026-07-28 requests carry the headers that repeat their
    /// body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`).
    ///
    /// ```no_run
    /// use mcp_toolkit::client::{Client, ClientError};
    /// use serde_json::json;
    ///
    /// # async fn run() -> Result<(), ClientError> {
    /// let remote = Client::http("http://127.0.0.1:8080/mcp")
    ///     .protocol_version("2025-06-18")
    ///     .bearer_token("…")
    ///     .with_tasks()
    ///     .connect()
    ///     .await?;
    /// let report = remote.call("build_report", json!({"month": "2026-10"})).await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http(url: impl Into<String>) -> Connector {
        Connector::new(Target::Http {
            url: url.into(),
            token: None,
            #[cfg(feature = "client-oauth")]
            oauth: None,
        })
    }

    /// A connector to a server at the other end of a byte stream that carries one message
    /// a line, as stdio does: a Unix socket, a TCP connection, a pipe of the program's own
    /// (the framing the specification asks custom transports to reuse). `reader` gives the
    /// server's messages, `writer` takes the client's.
    ///
    /// ```
    /// use mcp_toolkit::client::{Client, ClientError};
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ClientError> {
    /// let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    /// let (from_client, to_client) = tokio::io::split(server_end);
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// tokio::spawn(server.serve_io(from_client, to_client));
    ///
    /// let (from_server, to_server) = tokio::io::split(client_end);
    /// let client = Client::stream(from_server, to_server).connect().await?;
    /// assert_eq!(client.call("add", json!({"a": 2, "b": 3})).await?.text(), Some("5"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn stream<R, W>(reader: R, writer: W) -> Connector
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        Connector::new(Target::Stream(Box::new(reader), Box::new(writer)))
    }
}

impl Connector {
    /// A connector to `target` with the defaults.
    fn new(target: Target) -> Connector {
        Connector {
            target,
            answers: Answers::default(),
            tasks: false,
            version: None,
            timeout: REQUEST_TIMEOUT,
            discover_timeout: DISCOVER_TIMEOUT,
            max_message_bytes: MAX_MESSAGE_BYTES,
        }
    }

    /// Sends `Authorization: Bearer <token>` with every HTTP request (see
    /// [`Client::http`]); over stdio there is nothing to send it with, and it is ignored.
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Connector {
        if let Target::Http { token: slot, .. } = &mut self.target {
            *slot = Some(token.into());
        }
        self
    }

    /// Authorizes with OAuth 2.1 when the server asks for it (a `401`, or a `403` for a
    /// missing scope), as the [`oauth`] module describes; over stdio there is nothing to
    /// authorize, and it is ignored.
    ///
    /// ```no_run
    /// use mcp_toolkit::client::oauth::{Headless, OAuth};
    /// use mcp_toolkit::client::{Client, ClientError};
    ///
    /// # async fn run() -> Result<(), ClientError> {
    /// // An authorization server that approves this client without asking anyone.
    /// let oauth = OAuth::new("http://127.0.0.1:8765/callback", Headless)
    ///     .client("reporting-agent", Some("s3cr3t".to_owned()));
    /// let client = Client::http("https://mcp.example.com/mcp").oauth(oauth).connect().await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "client-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "client-oauth")))]
    pub fn oauth(mut self, oauth: oauth::OAuth) -> Connector {
        if let Target::Http { oauth: slot, .. } = &mut self.target {
            *slot = Some(oauth);
        }
        self
    }

    /// Answers the server's elicitations as [`Client::on_elicit`] does.
    pub fn on_elicit<F, Fut>(mut self, handler: F) -> Connector
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.answers.elicit = Some(ask_handler(handler));
        self
    }

    /// Answers the server's sampling requests as [`Client::on_sample`] does.
    pub fn on_sample<F, Fut>(mut self, handler: F) -> Connector
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.answers.sample = Some(ask_handler(handler));
        self
    }

    /// Shares roots as [`Client::with_roots`] does.
    pub fn with_roots<U: Into<String>, N: Into<String>>(
        mut self,
        roots: impl IntoIterator<Item = (U, N)>,
    ) -> Connector {
        self.answers.roots = Some(roots_json(roots));
        self
    }

    /// Declares that the client renders MCP Apps views, as [`Client::with_apps`] does.
    pub fn with_apps(mut self) -> Connector {
        self.answers.apps = true;
        self
    }

    /// Declares the tasks extension and follows tasks, as [`Client::with_tasks`] does.
    pub fn with_tasks(mut self) -> Connector {
        self.tasks = true;
        self
    }

    /// Speaks this revision (`"2025-06-18"`, or a [`ProtocolVersion`]) and no other: no
    /// probe; a legacy revision opens an `initialize` session asking for it, and a server
    /// that offers another fails [`connect`](Connector::connect) with
    /// [`ClientError::Negotiation`]. A revision the crate does not know fails it with
    /// [`ClientError::UnknownVersion`].
    pub fn protocol_version(mut self, version: impl AsRef<str>) -> Connector {
        self.version = Some(version.as_ref().to_owned());
        self
    }

    /// How long each request waits for its answer (60 s by default) before it is
    /// cancelled and fails with [`ClientError::Timeout`].
    pub fn request_timeout(mut self, timeout: Duration) -> Connector {
        self.timeout = timeout;
        self
    }

    /// How long the `server/discover` probe waits (5 s by default) before the server is
    /// taken as legacy: some legacy servers never answer a request sent before
    /// `initialize`.
    pub fn discover_timeout(mut self, timeout: Duration) -> Connector {
        self.discover_timeout = timeout;
        self
    }

    /// The longest message the client reads (16 MiB by default, at least 1 KiB): a longer
    /// one is skipped as it arrives, and the request it answers fails with
    /// [`ClientError::TooLarge`].
    pub fn max_message_bytes(mut self, bytes: usize) -> Connector {
        self.max_message_bytes = bytes.max(1024);
        self
    }

    /// Starts the server and settles the revision: the probe and, for a legacy server, the
    /// `initialize` handshake. Fails when the child cannot start ([`ClientError::Spawn`]),
    /// exits first ([`ClientError::Closed`]) or agrees on no revision
    /// ([`ClientError::Negotiation`]).
    pub async fn connect(self) -> Result<Client, ClientError> {
        let pinned = match &self.version {
            Some(text) => {
                Some(ProtocolVersion::parse(text).ok_or_else(|| ClientError::UnknownVersion(text.clone()))?)
            }
            None => None,
        };
        let Connector {
            target,
            answers,
            tasks,
            version: _,
            timeout,
            discover_timeout,
            max_message_bytes: limit,
        } = self;
        let link = match target {
            Target::Stdio(mut command) => {
                command
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .kill_on_drop(true);
                let program = command.as_std().get_program().to_string_lossy().into_owned();
                let mut child = command
                    .spawn()
                    .map_err(|source| ClientError::Spawn { program, source })?;
                let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                    return Err(ClientError::Closed {
                        reason: "the child's standard streams could not be opened".to_owned(),
                    });
                };
                Link::Stdio(stdio::Pipe::start(
                    output,
                    input,
                    Some(child),
                    answers.clone(),
                    limit,
                ))
            }
            Target::Stream(reader, writer) => {
                Link::Stdio(stdio::Pipe::start(reader, writer, None, answers.clone(), limit))
            }
            #[cfg(feature = "http")]
            Target::Http {
                url,
                token,
                #[cfg(feature = "client-oauth")]
                oauth,
            } => Link::Http(http::Http::new(
                &url,
                token.as_deref(),
                #[cfg(feature = "client-oauth")]
                oauth,
                answers.clone(),
                limit,
            )?),
        };
        let mut client = Client::over(link, ProtocolVersion::LATEST);
        client.answers = answers;
        client.tasks = tasks;
        client.timeout = timeout;
        match client.settle(pinned, discover_timeout).await {
            Ok(()) => {
                #[cfg(feature = "http")]
                if let Link::Http(http) = &client.link {
                    // The header names the session's revision from 2025-06-18 on.
                    if client.version.has_structured_output() {
                        http.set_version(client.version.as_str());
                    }
                    if !client.version.is_modern() {
                        http.listen().await;
                    }
                }
                Ok(client)
            }
            // A server that went before answering: how it went is the best clue.
            Err(ClientError::Closed { reason }) => {
                let status = tokio::time::timeout(Duration::from_secs(1), client.close()).await;
                let reason = match status {
                    Ok(Some(status)) => format!("{reason} (the server exited: {status})"),
                    _ => reason,
                };
                Err(ClientError::Closed { reason })
            }
            Err(error) => Err(error),
        }
    }
}

/// The params `{"name", "arguments"}` of a call or a prompt, built member by member:
/// `json!` would copy `arguments` whole through `to_value`.
fn named(name: &str, arguments: Value) -> Value {
    let mut params = Map::with_capacity(3);
    params.insert("name".to_owned(), Value::String(name.to_owned()));
    params.insert("arguments".to_owned(), arguments);
    Value::Object(params)
}

/// Whether an `UnsupportedProtocolVersion` error's `data.supported` lists `version`.
fn supports(data: Option<&Value>, version: ProtocolVersion) -> bool {
    data.and_then(|data| data["supported"].as_array())
        .is_some_and(|supported| supported.iter().any(|v| v == version.as_str()))
}

/// A lock that a panic elsewhere did not leave unusable: the data it guards stays whole.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Roots as `roots/list` answers them.
fn roots_json<U: Into<String>, N: Into<String>>(roots: impl IntoIterator<Item = (U, N)>) -> Vec<Value> {
    roots
        .into_iter()
        .map(|(uri, name)| json!({ "uri": uri.into(), "name": name.into() }))
        .collect()
}

/// A handler for one kind of ask: the request's `params` in, the `result` out.
type AskHandler = Arc<dyn Fn(Value) -> Pin<Box<dyn Future<Output = Value> + Send>> + Send + Sync>;

/// `handler` as the client keeps it.
fn ask_handler<F, Fut>(handler: F) -> AskHandler
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Value> + Send + 'static,
{
    Arc::new(move |params| Box::pin(handler(params)))
}

/// How a [`Client`] answers the server's asks.
#[derive(Clone, Default)]
struct Answers {
    elicit: Option<AskHandler>,
    sample: Option<AskHandler>,
    roots: Option<Vec<Value>>,
    /// Whether the client declares that it renders MCP Apps views.
    apps: bool,
}

impl Answers {
    /// The JSON-RPC response to the server's request `id` of `method`: the handler's
    /// result, or an error when the client has no handler for it.
    async fn respond(&self, method: &str, id: Value, params: Value) -> Value {
        match self.answer(method, params).await {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, text)) => {
                json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code.get(), "message": text } })
            }
        }
    }

    /// The capabilities a client with these answers declares.
    fn capabilities(&self) -> Value {
        let mut capabilities = Map::new();
        if self.elicit.is_some() {
            capabilities.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        }
        if self.sample.is_some() {
            capabilities.insert("sampling".into(), json!({ "tools": {} }));
        }
        if self.roots.is_some() {
            capabilities.insert("roots".into(), json!({ "listChanged": true }));
        }
        if self.apps {
            capabilities.insert(
                "extensions".into(),
                json!({ crate::app::EXTENSION: { "mimeTypes": [crate::app::MIME_TYPE] } }),
            );
        }
        Value::Object(capabilities)
    }

    /// The result for an ask: `Err` is a JSON-RPC error (no handler for it).
    async fn answer(&self, method: &str, params: Value) -> Result<Value, (ErrorCode, String)> {
        let handler = match method {
            "elicitation/create" => self.elicit.as_ref(),
            "sampling/createMessage" => self.sample.as_ref(),
            "roots/list" => {
                return match &self.roots {
                    Some(roots) => Ok(json!({ "roots": roots })),
                    None => Err((
                        ErrorCode::METHOD_NOT_FOUND,
                        "the test client was given no roots".into(),
                    )),
                };
            }
            "ping" => return Ok(json!({})),
            _ => None,
        };
        match handler {
            Some(handler) => Ok(handler(params).await),
            None => Err((
                ErrorCode::METHOD_NOT_FOUND,
                format!("the test client has no handler for `{method}`"),
            )),
        }
    }
}

/// The most rounds a call may take before the test client gives up on it (2026-07-28),
/// and the most times it answers a task's questions.
const MAX_ROUNDS: usize = 32;

/// The longest the client waits between two polls of a working task. A server asks for a
/// second or so (`pollIntervalMs`), which suits a client across a network; in a test it
/// would make every task take a second more than its tool does, so the client polls at
/// least this often (and sooner when the store says the task changed).
const MAX_POLL_PAUSE: Duration = Duration::from_millis(50);

/// How long to wait before polling `task` again: its `pollIntervalMs`, at most
/// [`MAX_POLL_PAUSE`].
fn poll_pause(task: &Value) -> Duration {
    task.get("pollIntervalMs")
        .and_then(Value::as_u64)
        .map_or(MAX_POLL_PAUSE, |ms| Duration::from_millis(ms).min(MAX_POLL_PAUSE))
}

/// How long to wait before polling a remote server's `task` again: its `pollIntervalMs`,
/// between 10 ms and 30 s, or half a second when it gives none.
fn remote_poll_pause(task: &Value) -> Duration {
    let ms = task.get("pollIntervalMs").and_then(Value::as_u64).unwrap_or(500);
    Duration::from_millis(ms.clamp(10, 30_000))
}

/// Completes when the store announces a change of task `id` (or may have: the feed fell
/// behind); never, once the feed is closed.
async fn changed(changes: &mut broadcast::Receiver<Arc<str>>, id: &str) {
    loop {
        match changes.recv().await {
            Ok(changed) if *changed == *id => return,
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => return,
            Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
        }
    }
}

/// Adds a task's status message to those seen, unless it is the last one seen already.
fn note_status(statuses: &mut Vec<String>, message: &str) {
    if statuses.last().is_none_or(|last| last != message) {
        statuses.push(message.to_owned());
    }
}

/// A task followed to its `completed` end.
struct Followed {
    task_id: String,
    /// The `tasks/get` response that carried the result.
    response: Value,
    statuses: Vec<String>,
    /// How many times the client answered the task's questions.
    updates: usize,
}

impl Followed {
    /// The task's result as a [`CallResponse`].
    fn into_response(
        self,
        tool: Option<&Tool>,
        version: ProtocolVersion,
    ) -> Result<CallResponse, ClientError> {
        let wire = WireCallResult::deserialize(&self.response["result"]["result"]).map_err(|source| {
            ClientError::ResultMismatch {
                method: "tasks/get".to_owned(),
                expected: "a `CallToolResult` (the completed task's `result`)".to_owned(),
                source,
            }
        })?;
        let mut response = CallResponse::new(wire, Arc::new(self.response), tool, version);
        response.task = Some(TaskTrace {
            id: self.task_id,
            statuses: self.statuses,
            updates: self.updates,
        });
        Ok(response)
    }
}

/// Who sees a request's notifications as they arrive, besides the answer that keeps them.
type Watcher<'a> = Option<&'a mut (dyn FnMut(&Value) + Send)>;

/// `watch` lent for one exchange.
fn lend<'a>(watch: &'a mut Watcher<'_>) -> Watcher<'a> {
    match watch {
        Some(watch) => Some(&mut **watch),
        None => None,
    }
}

/// What the engine wrote for one request.
struct Answer {
    /// The JSON-RPC response, which has a `result` (shared with `last_response`).
    response: Arc<Value>,
    /// The notifications that came before it.
    notifications: Vec<Value>,
}

impl Client {
    /// A client of `engine`, in this process, speaking `version` (not yet initialized).
    pub(crate) fn in_process(engine: Arc<Engine>, version: ProtocolVersion) -> Client {
        let conn = Arc::new(Connection::new());
        let feed = broadcast::channel(stdio::FEED_BACKLOG).0;
        Client::over(Link::InProcess { engine, conn, feed }, version)
    }

    /// A client over `link`, speaking `version` (not yet initialized).
    fn over(link: Link, version: ProtocolVersion) -> Client {
        // In process, the client sees the server's catalogs change as they do.
        let local = match &link {
            Link::InProcess { engine, .. } => engine.feeds(),
            _ => Vec::new(),
        };
        let cache = ListCache::new(Some(link.feed()), local);
        Client {
            link,
            version,
            next_id: Arc::new(AtomicI64::new(1)),
            log_level: Mutex::new(None),
            last_response: Mutex::new(None),
            answers: Answers::default(),
            reinitialize: Mutex::new(false),
            tasks: false,
            timeout: REQUEST_TIMEOUT,
            server: Mutex::new(Value::Null),
            header_params: Mutex::new(std::collections::HashMap::new()),
            listed: std::sync::atomic::AtomicBool::new(false),
            cache,
            watching: Arc::new(Mutex::new(std::collections::HashMap::new())),
        }
    }

    /// Settles the revision with a server just reached: `pinned`, or the probe's choice.
    async fn settle(
        &mut self,
        pinned: Option<ProtocolVersion>,
        discover: Duration,
    ) -> Result<(), ClientError> {
        if let Some(version) = pinned {
            self.version = version;
            if !version.is_modern() {
                return self.initialize().await;
            }
            return Ok(());
        }
        // The probe, in 2026-07-28: a result, or a modern error, marks a modern server.
        self.version = ProtocolVersion::V2026_07_28;
        let probe = self
            .in_time(discover, self.request("server/discover", Value::Null))
            .await;
        match probe {
            Ok(Ok(result)) => {
                let offers = result["supportedVersions"]
                    .as_array()
                    .is_some_and(|versions| versions.iter().any(|v| v == self.version.as_str()));
                if !offers {
                    return Err(ClientError::Negotiation {
                        requested: self.version,
                        offered: result["supportedVersions"].to_string(),
                    });
                }
                *lock(&self.server) = result;
                return Ok(());
            }
            Ok(Err(ClientError::Rpc { code, data, .. }))
                if code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION =>
            {
                let supported = data
                    .as_ref()
                    .map(|data| data["supported"].clone())
                    .unwrap_or_default();
                return Err(ClientError::Negotiation {
                    requested: self.version,
                    offered: supported.to_string(),
                });
            }
            Ok(Err(error @ (ClientError::Closed { .. } | ClientError::TooLarge { .. }))) => {
                return Err(error);
            }
            #[cfg(feature = "client-oauth")]
            Ok(Err(error @ ClientError::Authorization(_))) => return Err(error),
            // Any other error, or none in time: a legacy server.
            Ok(Err(_)) | Err(_) => {}
        }
        self.version = ProtocolVersion::V2025_11_25;
        self.initialize_any().await
    }

    /// Answers the server's form and URL elicitations (`elicitation/create`) with
    /// `handler`: it gets the request's `params` and returns the `ElicitResult`. The client
    /// then declares the `elicitation` capability (forms and URLs). In the legacy
    /// revisions, the connection is initialized again with the new capabilities before the
    /// next request.
    ///
    /// The example on [`Context::elicit`](crate::Context::elicit) uses it.
    pub fn on_elicit<F, Fut>(mut self, handler: F) -> Client
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.answers.elicit = Some(ask_handler(handler));
        self.capabilities_changed()
    }

    /// Answers the server's sampling requests (`sampling/createMessage`) with `handler`:
    /// it gets the request's `params` and returns the `CreateMessageResult`. The client
    /// then declares `sampling` (with `tools`).
    ///
    /// The example on [`Context::sample`](crate::Context::sample) uses it.
    pub fn on_sample<F, Fut>(mut self, handler: F) -> Client
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.answers.sample = Some(ask_handler(handler));
        self.capabilities_changed()
    }

    /// The roots the client shares, as `(uri, name)` pairs, answered to `roots/list`. The
    /// client then declares `roots`.
    ///
    /// The example on [`Context::list_roots`](crate::Context::list_roots) uses it.
    pub fn with_roots<U: Into<String>, N: Into<String>>(
        mut self,
        roots: impl IntoIterator<Item = (U, N)>,
    ) -> Client {
        self.answers.roots = Some(roots_json(roots));
        self.capabilities_changed()
    }

    /// Declares that the client renders [MCP Apps](crate::app) views: the extension
    /// `io.modelcontextprotocol/ui` with the MIME type `text/html;profile=mcp-app`, in its
    /// capabilities (in `initialize`, or in every request's `_meta` in 2026-07-28), which a
    /// tool reads with [`Context::client_supports_apps`](crate::Context::client_supports_apps).
    /// In the legacy revisions, the connection is initialized again before the next
    /// request.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// Lists the notes; shown on a board in hosts that render apps.
    /// #[tool]
    /// fn list_notes(cx: Context) -> &'static str {
    ///     if cx.client_supports_apps() { "2 notes, on the board" } else { "- milk\n- eggs" }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = || Server::new("notes", "1.0.0").tools(tools![list_notes]);
    /// let host = server().test_client()?.with_apps();
    /// assert_eq!(host.call("list_notes", json!({})).await?.text(), Some("2 notes, on the board"));
    /// let legacy = server().test_client_legacy(ProtocolVersion::V2025_11_25).await?.with_apps();
    /// assert_eq!(legacy.call("list_notes", json!({})).await?.text(), Some("2 notes, on the board"));
    /// let plain = server().test_client()?;
    /// assert_eq!(plain.call("list_notes", json!({})).await?.text(), Some("- milk\n- eggs"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_apps(mut self) -> Client {
        self.answers.apps = true;
        self.capabilities_changed()
    }

    /// Declares the tasks extension (`io.modelcontextprotocol/tasks`) in the client
    /// capabilities of every request, so the server may answer a call of a task tool with a
    /// task. [`call`](Client::call) then follows the task to its end, as a client of the
    /// extension does: it polls `tasks/get`, answers the task's questions with
    /// `tasks/update` (through [`on_elicit`](Client::on_elicit),
    /// [`on_sample`](Client::on_sample) and [`with_roots`](Client::with_roots), as
    /// for rounds), and gives the task's result as any call's
    /// ([`CallResponse::task_id`] says it was a task). A task that failed is
    /// [`ClientError::Rpc`], as the call would have been; one cancelled is
    /// [`ClientError::TaskCancelled`].
    ///
    /// Tasks need revision 2026-07-28: a client from
    /// [`Server::test_client_legacy`](crate::Server::test_client_legacy) declares nothing more and its calls stay plain.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// /// Builds the monthly report; takes a while.
    /// #[tool(task)]
    /// async fn build_report(ctx: Context, month: String) -> String {
    ///     ctx.set_status("gathering the figures");
    ///     tokio::time::sleep(Duration::from_millis(20)).await;
    ///     format!("report for {month}")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = || Server::new("reports", "1.0.0").tools(tools![build_report]);
    ///
    /// let client = server().test_client()?.with_tasks();
    /// let report = client.call("build_report", json!({"month": "May"})).await?;
    /// assert_eq!(report.text(), Some("report for May"));
    /// assert!(report.task_id().is_some());
    /// assert_eq!(report.statuses(), ["gathering the figures"]);
    ///
    /// // Without the extension, the same tool answers a plain call.
    /// let plain = server().test_client()?.call("build_report", json!({"month": "May"})).await?;
    /// assert_eq!((plain.text(), plain.task_id()), (Some("report for May"), None));
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_tasks(mut self) -> Client {
        self.tasks = true;
        self
    }

    /// How long each request waits for its answer (60 s by default) before it is cancelled
    /// (`notifications/cancelled`) and fails with [`ClientError::Timeout`]; the same as
    /// [`Connector::request_timeout`], for a client made in process.
    ///
    /// ```
    /// use mcp_toolkit::client::ClientError;
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// /// Never finishes.
    /// #[tool]
    /// async fn forever() -> String {
    ///     std::future::pending::<String>().await
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ClientError> {
    /// let client = Server::new("slow", "1.0.0")
    ///     .tools(tools![forever])
    ///     .test_client()?
    ///     .request_timeout(Duration::from_millis(50));
    /// let late = client.call("forever", json!({})).await.unwrap_err();
    /// assert!(matches!(late, ClientError::Timeout { .. }));
    /// # Ok(())
    /// # }
    /// ```
    pub fn request_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// In the legacy revisions, capabilities are declared once per connection: a new one
    /// is made, to be initialized before the next request.
    ///
    /// Over stdio the server's requests are answered by the new handlers from now on, but a
    /// legacy session keeps the capabilities declared in its handshake: give the handlers
    /// to the [`Connector`] instead.
    fn capabilities_changed(mut self) -> Client {
        match &mut self.link {
            Link::InProcess { conn, .. } if !self.version.is_modern() => {
                conn.cancel_all();
                conn.set_unsolicited(None);
                *conn = Arc::new(Connection::new());
                *self
                    .reinitialize
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner) = true;
            }
            Link::InProcess { .. } => {}
            Link::Stdio(pipe) => pipe.set_answers(self.answers.clone()),
            #[cfg(feature = "http")]
            Link::Http(http) => http.set_answers(self.answers.clone()),
        }
        self
    }

    /// The protocol revision the client speaks.
    ///
    /// ```
    /// use mcp_toolkit::{Server, protocol::ProtocolVersion};
    ///
    /// let client = Server::new("empty", "1.0.0").test_client().unwrap();
    /// assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    /// ```
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// What the server said of itself when the client connected: the `initialize` result
    /// (legacy revisions: `serverInfo`, `capabilities`, `instructions`) or the
    /// `server/discover` result (2026-07-28); `null` for a client made in process by
    /// [`Server::test_client`](crate::Server::test_client), which asked nothing.
    pub fn server_info(&self) -> Value {
        lock(&self.server).clone()
    }

    /// The notifications that belong to no request the client sent (a legacy session's
    /// `list_changed` and `resources/updated`, or a log line over stdio, where nothing ties
    /// it to a request), from now on. The feed keeps the last 1,024 for a reader that falls
    /// behind (it then reads [`Lagged`](broadcast::error::RecvError::Lagged)). In
    /// 2026-07-28 list changes and resource updates come only on a
    /// [`subscribe`](Client::subscribe) stream.
    pub fn notifications(&self) -> broadcast::Receiver<Value> {
        self.link.feed()
    }

    /// Closes the connection and waits for the server to go: over stdio, closes the
    /// child's input and waits for it to exit (killing it if it has not within two
    /// seconds), giving its exit status. Requests still waiting fail with
    /// [`ClientError::Closed`].
    pub async fn close(self) -> Option<std::process::ExitStatus> {
        match &self.link {
            Link::Stdio(pipe) => pipe.shut().await,
            #[cfg(feature = "http")]
            Link::Http(http) => {
                http.end_session().await;
                None
            }
            Link::InProcess { .. } => None,
        }
    }

    /// The tool definitions, as `tools/list` sends them in the client's revision (the JSON
    /// of each, [`ListedTool::json`], equal to [`Tool::definition`] for that revision).
    /// When the server pages the list
    /// ([`Limits::page_size`](crate::server::Limits::page_size)), every page is fetched,
    /// following `nextCursor`. A definition that does not read as the protocol's `Tool` is
    /// [`ClientError::ResultMismatch`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use mcp_toolkit::server::Limits;
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
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("greeter", "1.0.0").tools(tools![hello, goodbye]).limits(Limits::default().page_size(1));
    /// let tools = server.test_client()?.list_tools().await?;
    /// let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    /// assert_eq!(names, ["hello", "goodbye"]);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// A tool whose `x-mcp-header` annotations break the rules of SEP-2243 is left out (and
    /// logged), as the specification asks: the client could not repeat its arguments in
    /// headers. The others are kept, and the client remembers which of their arguments
    /// their calls repeat in `Mcp-Param-*` headers over HTTP.
    ///
    /// A list the server says is fresh for a while (`ttlMs`, revision 2026-07-28) is kept
    /// that long, and asked for again only once it is stale: see
    /// [`clear_list_cache`](Client::clear_list_cache). The arguments that go in headers
    /// are learnt with each list fetched, so a kept list and the headers agree.
    pub async fn list_tools(&self) -> Result<Vec<ListedTool>, ClientError> {
        self.list_shaped(|tools| self.learn_header_params(tools)).await
    }

    /// Learns which arguments of `tools` go in headers, leaving out those whose
    /// annotations break SEP-2243.
    fn learn_header_params(&self, mut tools: Vec<ListedTool>) -> Vec<ListedTool> {
        self.listed.store(true, Ordering::Relaxed);
        let mut known = lock(&self.header_params);
        tools.retain(|tool| match params::header_params(tool.input_schema()) {
            Ok(found) => {
                if found.is_empty() {
                    known.remove(tool.name());
                } else {
                    known.insert(tool.name().to_owned(), found);
                }
                true
            }
            Err(why) => {
                tracing::warn!(
                    tool = tool.name(),
                    why,
                    "a listed tool is left out: its x-mcp-header annotations break SEP-2243"
                );
                known.remove(tool.name());
                false
            }
        });
        tools
    }

    /// Lists every prompt with its arguments, following `nextCursor` page by page.
    ///
    /// The example on [`ListedPrompt`] uses it.
    pub async fn list_prompts(&self) -> Result<Vec<ListedPrompt>, ClientError> {
        self.list().await
    }

    /// Gets a prompt filled in with `arguments` (strings, as the protocol carries them): its
    /// messages, read as [`PromptMessage`](crate::prompt::PromptMessage)s. Asks the prompt
    /// makes are answered as for calls ([`on_elicit`](Client::on_elicit) and the rest),
    /// in both eras. A prompt that fails, or arguments it refuses, are
    /// [`ClientError::Rpc`].
    ///
    /// The example on [`PromptResponse`] uses it.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<PromptResponse, ClientError> {
        let params = named(name, arguments);
        let (answer, _) = self
            .in_rounds(self.next_id(), "prompts/get", params, None, None)
            .await?;
        let result: GetPromptResult = self.read_result("prompts/get", "a `GetPromptResult`", &answer)?;
        Ok(PromptResponse::new(result, Arc::unwrap_or_clone(answer.response)))
    }

    /// Lists every resource with a fixed URI, following `nextCursor` page by page.
    ///
    /// The example on [`ListedResource`] uses it.
    pub async fn list_resources(&self) -> Result<Vec<ListedResource>, ClientError> {
        self.list().await
    }

    /// Lists every resource template, following `nextCursor` page by page.
    ///
    /// The example on [`ListedResourceTemplate`] uses it.
    pub async fn list_resource_templates(&self) -> Result<Vec<ListedResourceTemplate>, ClientError> {
        self.list().await
    }

    /// Forgets the lists kept for their `ttlMs` (tools, prompts, resources, resource
    /// templates): the next of each is asked for again. Lists go stale on their own when
    /// their time passes and when the client hears that one changed (on a
    /// [`subscribe`](Client::subscribe) stream, or in a legacy session's notifications);
    /// this is for a caller with a reason of its own to think they changed.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use mcp_toolkit::middleware::{Exchange, Middleware, Outcome};
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// /// Counts the lists the server sends.
    /// struct Lists(Arc<AtomicUsize>);
    ///
    /// impl Middleware for Lists {
    ///     fn on_end(&self, exchange: &Exchange, _: Outcome) {
    ///         if exchange.method() == "tools/list" {
    ///             self.0.fetch_add(1, Ordering::Relaxed);
    ///         }
    ///     }
    /// }
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::client::ClientError> {
    /// let lists = Arc::new(AtomicUsize::new(0));
    /// let client = Server::new("greeter", "1.0.0")
    ///     .tools(tools![hello])
    ///     .middleware(Lists(Arc::clone(&lists)))
    ///     .test_client()?;
    /// client.list_tools().await?;
    /// client.list_tools().await?; // fresh for the server's `ttlMs` (a minute): kept
    /// assert_eq!(lists.load(Ordering::Relaxed), 1);
    /// client.clear_list_cache();
    /// client.list_tools().await?;
    /// assert_eq!(lists.load(Ordering::Relaxed), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn clear_list_cache(&self) {
        self.cache.clear();
    }

    /// Reads a resource: its contents, text or blobs, with the cache hints of revision
    /// 2026-07-28. Asks the resource makes are answered as for calls, in both eras. A URI
    /// that names nothing, or a read that fails, is [`ClientError::Rpc`].
    ///
    /// The example on [`ReadResponse`] uses it.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResponse, ClientError> {
        let params = json!({ "uri": uri });
        let (answer, _) = self
            .in_rounds(self.next_id(), "resources/read", params, None, None)
            .await?;
        let wire: WireRead = self.read_result("resources/read", "a `ReadResourceResult`", &answer)?;
        Ok(ReadResponse::new(wire, Arc::unwrap_or_clone(answer.response)))
    }

    /// Every item of a list: the one kept, while it is fresh; else every page fetched.
    async fn list<T: Listed + Clone + Send + Sync + 'static>(&self) -> Result<Vec<T>, ClientError> {
        self.list_shaped(|items| items).await
    }

    /// Every item of a list: the one kept, while it is fresh; else every page fetched,
    /// then `shape`d and kept for the shortest `ttlMs` of its pages.
    async fn list_shaped<T: Listed + Clone + Send + Sync + 'static>(
        &self,
        shape: impl FnOnce(Vec<T>) -> Vec<T>,
    ) -> Result<Vec<T>, ClientError> {
        let Some(kind) = T::KIND else {
            let (items, _) = self.fetch_list().await?;
            return Ok(shape(items));
        };
        let generation = match self.cache.get::<T>(kind) {
            Ok(kept) => return Ok(kept),
            Err(generation) => generation,
        };
        let received = Instant::now();
        let (items, ttl) = self.fetch_list().await?;
        let items = shape(items);
        self.cache.keep(kind, generation, &items, received, ttl);
        Ok(items)
    }

    /// Every item of a list, following `nextCursor` page by page, each read as a `T`, and
    /// how long the pages may be kept (the shortest `ttlMs`).
    async fn fetch_list<T: Listed>(&self) -> Result<(Vec<T>, Duration), ClientError> {
        let (method, key) = (T::METHOD, T::KEY);
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        let mut ttl = Duration::MAX;
        loop {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => Value::Null,
            };
            let answer = self
                .exchange(self.next_id(), method, self.params(params, None))
                .await?;
            let mut page: Value = self.read_result(method, "a result", &answer)?;
            ttl = ttl.min(cache::page_ttl(&page));
            match page.get_mut(key).map(Value::take) {
                Some(Value::Array(page_items)) => {
                    for item in page_items {
                        items.push(results::read_item(items.len(), item)?);
                    }
                }
                _ => {
                    return Err(ClientError::InvalidResponse(format!(
                        "the `{method}` result has no `{key}` array"
                    )));
                }
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                None => return Ok((items, ttl)),
                Some(next) if !seen.insert(next.to_owned()) => {
                    return Err(ClientError::InvalidResponse(format!(
                        "`{method}` gave the cursor {next:?} a second time; the list would never end"
                    )));
                }
                Some(next) => cursor = Some(next.to_owned()),
            }
        }
    }

    /// Calls a tool with a JSON arguments object and returns its result.
    ///
    /// A tool that fails (bad arguments, an `Err`, a panic) gives `Ok` with
    /// [`CallResponse::is_error`] set, as MCP reports tool failures; a request the server
    /// refuses (an unknown tool: code `-32602`) gives [`ClientError::Rpc`].
    ///
    /// ```
    /// use mcp_toolkit::protocol::ErrorCode;
    /// use mcp_toolkit::{tool, tools, testing::ClientError, Server};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ClientError> {
    /// let client = Server::new("calc", "1.0.0").tools(tools![add]).test_client()?;
    ///
    /// let wrong = client.call("add", json!({"a": "two", "b": 3})).await?;
    /// assert!(wrong.is_error());
    /// assert_eq!(wrong.text(), Some("argument `a`: expected an integer, received the string \"two\""));
    ///
    /// let unknown = client.call("subtract", json!({})).await.unwrap_err();
    /// assert!(matches!(unknown, ClientError::Rpc { code: ErrorCode::INVALID_PARAMS, .. }));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call(&self, name: &str, arguments: Value) -> Result<CallResponse, ClientError> {
        self.call_tool(name, arguments, false, None).await
    }

    /// Calls a tool as [`call`](Client::call) does, asking for progress: the request
    /// carries a `progressToken`, and the `notifications/progress` the tool sends are in
    /// [`CallResponse::notifications`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Counts to `n`, reporting progress.
    /// #[tool]
    /// async fn count(n: u32, cx: Context) -> String {
    ///     for i in 1..=n {
    ///         cx.report_progress(f64::from(i), Some(f64::from(n)), None);
    ///     }
    ///     format!("counted to {n}")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("counter", "1.0.0").tools(tools![count]).test_client()?;
    /// let result = client.call_with_progress("count", json!({"n": 3})).await?;
    /// let progress: Vec<f64> = result
    ///     .notifications()
    ///     .iter()
    ///     .filter(|n| n["method"] == "notifications/progress")
    ///     .filter_map(|n| n["params"]["progress"].as_f64())
    ///     .collect();
    /// assert_eq!(progress, [1.0, 2.0, 3.0]);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call_with_progress(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<CallResponse, ClientError> {
        self.call_tool(name, arguments, true, None).await
    }

    /// Asks for log messages (`notifications/message`) of `level` and above: in 2026-07-28
    /// every later request carries the level in its `_meta`; in a legacy session this sends
    /// `logging/setLevel`. The messages a tool logs are in [`CallResponse::notifications`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, protocol::LoggingLevel};
    /// use serde_json::json;
    ///
    /// /// Says what it does.
    /// #[tool]
    /// async fn chatty(cx: Context) -> &'static str {
    ///     cx.debug("details");
    ///     cx.info("working");
    ///     "done"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("chatty", "1.0.0").tools(tools![chatty]).test_client()?;
    /// client.set_log_level(LoggingLevel::Info).await?;
    /// let result = client.call("chatty", json!({})).await?;
    /// assert_eq!(result.notifications().len(), 1);
    /// assert_eq!(result.notifications()[0]["params"], json!({"level": "info", "data": "working"}));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn set_log_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        if self.version.is_modern() {
            *lock(&self.log_level) = Some(level);
            return Ok(());
        }
        self.request("logging/setLevel", json!({ "level": level }))
            .await
            .map(drop)
    }

    /// Sends any request and returns its `result`, for methods the other methods do not
    /// cover (`server/discover`, `ping`, one page of `tools/list`). `params` is an object or
    /// `null`; the client adds its `_meta` (entries already in `params._meta` win, so a
    /// test can send other metadata). Anything else is sent as it is.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("greeter", "1.0.0").tools(tools![hello]).test_client()?;
    /// let discover = client.request("server/discover", json!(null)).await?;
    /// assert_eq!(discover["supportedVersions"][0], "2026-07-28");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let answer = self
            .exchange(self.next_id(), method, self.params(params, None))
            .await?;
        Ok(answer.response["result"].clone())
    }

    /// The last response the client received, whole (`jsonrpc`, `id`, and `result` or
    /// `error`), exactly as the server wrote it; `None` before the first. With concurrent
    /// requests, whichever was answered last.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("calc", "1.0.0").tools(tools![add]).test_client()?;
    /// assert_eq!(client.last_response(), None);
    /// client.call("add", json!({"a": 2, "b": 3})).await?;
    /// let response = client.last_response().unwrap();
    /// assert_eq!(response["result"]["content"], json!([{"type": "text", "text": "5"}]));
    /// assert_eq!(response["result"]["resultType"], "complete");
    /// # Ok(())
    /// # }
    /// ```
    pub fn last_response(&self) -> Option<Value> {
        lock(&self.last_response).as_deref().cloned()
    }

    /// Asks `completion/complete` for values of a prompt's `argument` that go on from
    /// `value`, with the arguments already `given` (an object, or `null`).
    ///
    /// ```
    /// use mcp_toolkit::{prompt, prompts, Server};
    /// use serde_json::json;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// #[serde(rename_all = "lowercase")]
    /// enum Tone { Formal, Friendly }
    ///
    /// /// Writes a greeting.
    /// #[prompt]
    /// fn greeting(tone: Tone) -> String {
    ///     let _ = tone;
    ///     "Write a greeting.".to_owned()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("mail", "1.0.0").prompts(prompts![greeting]).test_client()?;
    /// let completion = client.complete_prompt("greeting", "tone", "f", json!(null)).await?;
    /// assert_eq!(completion.values, ["formal", "friendly"]);
    /// assert!(!completion.has_more);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn complete_prompt(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
        given: Value,
    ) -> Result<Completion, ClientError> {
        let reference = json!({"type": "ref/prompt", "name": prompt});
        self.complete(reference, argument, value, given).await
    }

    /// Asks `completion/complete` for values of a resource template's `variable` that go on
    /// from `value`, with the variables already `given`; `template` is the URI template as
    /// `resources/templates/list` shows it. The example on
    /// [`#[resource]`](macro@crate::resource) completes so.
    pub async fn complete_resource(
        &self,
        template: &str,
        variable: &str,
        value: &str,
        given: Value,
    ) -> Result<Completion, ClientError> {
        let reference = json!({"type": "ref/resource", "uri": template});
        self.complete(reference, variable, value, given).await
    }

    async fn complete(
        &self,
        reference: Value,
        name: &str,
        value: &str,
        given: Value,
    ) -> Result<Completion, ClientError> {
        let mut params = json!({"ref": reference, "argument": {"name": name, "value": value}});
        if !given.is_null() {
            params["context"] = json!({ "arguments": given });
        }
        let mut result = self.request("completion/complete", params).await?;
        serde_json::from_value(result["completion"].take()).map_err(|source| ClientError::ResultMismatch {
            method: "completion/complete".to_owned(),
            expected: "a `CompleteResult`".to_owned(),
            source,
        })
    }

    async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        progress: bool,
        watch: Watcher<'_>,
    ) -> Result<CallResponse, ClientError> {
        #[cfg(feature = "http")]
        if matches!(self.link, Link::Http(_))
            && self.version.is_modern()
            && !self.listed.load(Ordering::Relaxed)
        {
            // Which arguments go in `Mcp-Param-*` headers is in the tool's definition.
            self.list_tools().await?;
        }
        // What the server wraps as `{"result": ...}` for this revision follows from the tool's
        // definition, as a client reads it from the tool list.
        let tool = match &self.link {
            Link::InProcess { engine, .. } => engine.tools.get(name),
            _ => None,
        };
        let id = self.next_id();
        // The request's id is unique among the requests in flight, as a token must be.
        let token = progress.then_some(id);
        let params = named(name, arguments);
        let called = self.in_rounds(id, "tools/call", params, token, watch).await;
        if let Err(ClientError::Rpc { code, .. }) = &called
            && *code == ErrorCode::INVALID_PARAMS
        {
            // An unknown tool: the tools may have changed, as the caching rules say.
            self.cache.forget(&[cache::ListKind::Tools]);
        }
        let (answer, rounds) = called?;
        let result = self.version.is_modern().then(|| &answer.response["result"]);
        if let Some(result) =
            result.filter(|result| result.get("resultType").is_some_and(|kind| kind == "task"))
        {
            let Some(task_id) = result["taskId"].as_str() else {
                return Err(ClientError::InvalidResponse(format!(
                    "a `tools/call` result of type \"task\" has no `taskId` string: {result}"
                )));
            };
            let followed = self.follow(task_id, Some(result.clone())).await?;
            let mut response = followed.into_response(tool.as_ref(), self.version)?;
            response.notifications = answer.notifications;
            response.rounds = rounds;
            return Ok(response);
        }
        let wire: WireCallResult = self.read_result("tools/call", "a `CallToolResult`", &answer)?;
        let mut response = CallResponse::new(wire, answer.response, tool.as_ref(), self.version);
        response.notifications = answer.notifications;
        response.rounds = rounds;
        Ok(response)
    }

    /// Follows a task to its end, as [`call`](Client::call) does for a call that
    /// became one: for a task started with [`request`](Client::request)`("tools/call",
    /// ..)`, so a test can read the `CreateTaskResult` itself, or cancel the task, before
    /// it follows it. The task's result is a [`CallResponse`] as `call` gives it (with no
    /// [`rounds`](CallResponse::rounds): those were the call's); a task that failed is
    /// [`ClientError::Rpc`], one cancelled [`ClientError::TaskCancelled`], and an id that
    /// names no task of this client's `-32602`.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ErrorCode;
    /// use mcp_toolkit::{tool, tools, testing::ClientError, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Crawls the site until it is stopped.
    /// #[tool(task)]
    /// async fn crawl(ctx: Context) -> &'static str {
    ///     ctx.set_status("crawling");
    ///     ctx.cancelled().await;
    ///     "stopped"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ClientError> {
    /// let client = Server::new("crawler", "1.0.0").tools(tools![crawl]).test_client()?.with_tasks();
    /// let created = client.request("tools/call", json!({"name": "crawl", "arguments": {}})).await?;
    /// assert_eq!((&created["resultType"], &created["status"]), (&json!("task"), &json!("working")));
    /// let id = created["taskId"].as_str().unwrap();
    ///
    /// client.request("tasks/cancel", json!({"taskId": id})).await?;
    /// match client.follow_task(id).await {
    ///     Err(ClientError::TaskCancelled { task_id }) => assert_eq!(task_id, id),
    ///     other => panic!("expected a cancelled task, got {other:?}"),
    /// }
    ///
    /// let unknown = client.follow_task("no-such-task").await.unwrap_err();
    /// assert!(matches!(unknown, ClientError::Rpc { code: ErrorCode::INVALID_PARAMS, .. }));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn follow_task(&self, task_id: &str) -> Result<CallResponse, ClientError> {
        self.follow(task_id, None)
            .await?
            .into_response(None, self.version)
    }

    /// Follows task `task_id` until it ends, starting from what the server said of it when
    /// it was created (`created`), if the client saw that.
    async fn follow(&self, task_id: &str, created: Option<Value>) -> Result<Followed, ClientError> {
        // In process, the store's change feed wakes the client early; it still reads the
        // task with `tasks/get`, as any client would.
        let mut changes = match &self.link {
            Link::InProcess { engine, .. } => Some(engine.tasks.store().changes()),
            _ => None,
        };
        let mut followed = Followed {
            task_id: task_id.to_owned(),
            response: Value::Null,
            statuses: Vec::new(),
            updates: 0,
        };
        let mut next = created;
        loop {
            // The `CreateTaskResult` inlines nothing; each `tasks/get` result inlines what
            // its status carries.
            let (task, polled) = match next.take() {
                Some(created) => (created, false),
                None => {
                    let params = self.params(json!({ "taskId": task_id }), None);
                    let answer = self.exchange(self.next_id(), "tasks/get", params).await?;
                    let mut response = Arc::unwrap_or_clone(answer.response);
                    let task = response["result"].take();
                    followed.response = response;
                    if task.get("taskId").and_then(Value::as_str) != Some(task_id) {
                        return Err(ClientError::InvalidResponse(format!(
                            "`tasks/get` for task {task_id:?} answered with another task: {task}"
                        )));
                    }
                    (task, true)
                }
            };
            if let Some(message) = task.get("statusMessage").and_then(Value::as_str) {
                note_status(&mut followed.statuses, message);
            }
            match task.get("status").and_then(Value::as_str) {
                Some("working") => match &mut changes {
                    Some(changes) => {
                        let _ = tokio::time::timeout(poll_pause(&task), changed(changes, task_id)).await;
                    }
                    None => tokio::time::sleep(remote_poll_pause(&task)).await,
                },
                Some("input_required") if polled => {
                    let requests = match task.get("inputRequests").and_then(Value::as_object) {
                        Some(requests) if !requests.is_empty() => requests,
                        _ => {
                            return Err(ClientError::InvalidResponse(format!(
                                "task {task_id:?} is `input_required` with no `inputRequests`: {task}"
                            )));
                        }
                    };
                    followed.updates += 1;
                    if followed.updates > MAX_ROUNDS {
                        return Err(ClientError::InvalidResponse(format!(
                            "task {task_id:?} still asks for input after {MAX_ROUNDS} updates"
                        )));
                    }
                    let responses = self.answer_requests(requests).await?;
                    let params = json!({ "taskId": task_id, "inputResponses": responses });
                    self.exchange(self.next_id(), "tasks/update", self.params(params, None))
                        .await?;
                }
                Some("completed") if polled => {
                    followed.response["result"] = task;
                    return Ok(followed);
                }
                Some("failed") if polled => {
                    let error = WireError::deserialize(&task["error"]).map_err(|e| {
                        ClientError::InvalidResponse(format!(
                            "the `error` of failed task {task_id:?} does not read as a JSON-RPC error: {e}"
                        ))
                    })?;
                    return Err(ClientError::Rpc {
                        code: error.code,
                        message: error.message,
                        data: error.data,
                    });
                }
                Some("cancelled") => {
                    return Err(ClientError::TaskCancelled {
                        task_id: task_id.to_owned(),
                    });
                }
                // Created waiting or ended already: `tasks/get` says with what.
                Some("input_required" | "completed" | "failed") => {}
                _ => {
                    return Err(ClientError::InvalidResponse(format!(
                        "task {task_id:?} has no `status` of the protocol's: {task}"
                    )));
                }
            }
        }
    }

    /// Sends a request that may end in `input_required` rounds (2026-07-28), answering each
    /// round's questions and sending it again, as a client does: the last answer, with the
    /// notifications of every round, and how many rounds it took.
    async fn in_rounds(
        &self,
        id: i64,
        method: &str,
        mut params: Value,
        token: Option<i64>,
        mut watch: Watcher<'_>,
    ) -> Result<(Answer, usize), ClientError> {
        // The params come back from each exchange, to be sent again with the answers.
        let (mut answer, sent) = self
            .exchange_keeping(id, method, self.params(params, token), lend(&mut watch))
            .await?;
        params = sent;
        let mut rounds = 0;
        let mut notifications = Vec::new();
        // Only a 2026-07-28 result asks for input.
        while self.version.is_modern() && answer.response["result"]["resultType"] == "input_required" {
            rounds += 1;
            if rounds > MAX_ROUNDS {
                return Err(ClientError::InvalidResponse(format!(
                    "the `{method}` request still asks for input after {MAX_ROUNDS} rounds"
                )));
            }
            let result = &answer.response["result"];
            let responses = match result["inputRequests"].as_object() {
                Some(requests) => self.answer_requests(requests).await?,
                None => Map::new(),
            };
            params["inputResponses"] = Value::Object(responses);
            match result.get("requestState") {
                Some(state) => params["requestState"] = state.clone(),
                None => drop(params.as_object_mut().map(|p| p.remove("requestState"))),
            }
            notifications.append(&mut answer.notifications);
            let id = self.next_id();
            // The client's `_meta` is made again: the progress token is the new id.
            drop(params.as_object_mut().map(|p| p.remove("_meta")));
            let (next, sent) = self
                .exchange_keeping(
                    id,
                    method,
                    self.params(params, token.map(|_| id)),
                    lend(&mut watch),
                )
                .await?;
            (answer, params) = (next, sent);
        }
        notifications.append(&mut answer.notifications);
        answer.notifications = notifications;
        Ok((answer, rounds))
    }

    /// The answers to `inputRequests`, by key, each from the handler for its method.
    async fn answer_requests(
        &self,
        requests: &Map<String, Value>,
    ) -> Result<Map<String, Value>, ClientError> {
        let mut responses = Map::new();
        for (key, request) in requests {
            let asked = request["method"].as_str().unwrap_or_default();
            let answered = self.answers.answer(asked, request["params"].clone()).await;
            let answered = answered.map_err(|(_, message)| ClientError::InvalidResponse(message))?;
            responses.insert(key.clone(), answered);
        }
        Ok(responses)
    }

    /// The legacy handshake: `initialize` asking for the client's revision, then
    /// `notifications/initialized`; a server that offers another fails it.
    pub(crate) async fn initialize(&self) -> Result<(), ClientError> {
        self.link.hear_unsolicited(&self.answers);
        let offered = self.handshake().await?;
        if offered != self.version.as_str() {
            return Err(ClientError::Negotiation {
                requested: self.version,
                offered,
            });
        }
        self.link
            .notify(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await
    }

    /// The legacy handshake, taking whichever legacy revision the server offers.
    async fn initialize_any(&mut self) -> Result<(), ClientError> {
        let offered = self.handshake().await?;
        match ProtocolVersion::parse(&offered) {
            Some(version) if !version.is_modern() => self.version = version,
            _ => {
                return Err(ClientError::Negotiation {
                    requested: self.version,
                    offered,
                });
            }
        }
        self.link
            .notify(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await
    }

    /// Sends `initialize` and keeps its result: the revision the server offered.
    async fn handshake(&self) -> Result<String, ClientError> {
        let params = json!({
            "protocolVersion": self.version.as_str(),
            "capabilities": self.answers.capabilities(),
            "clientInfo": client_info(),
        });
        let answer = self.exchange(self.next_id(), "initialize", Some(params)).await?;
        let result = answer.response["result"].clone();
        let offered = result["protocolVersion"].as_str().unwrap_or_default().to_owned();
        *lock(&self.server) = result;
        Ok(offered)
    }

    /// A request's params with the client's `_meta` added.
    fn params(&self, params: Value, progress_token: Option<i64>) -> Option<Value> {
        let mut meta = Map::new();
        if self.version.is_modern() {
            meta.insert(META_PROTOCOL_VERSION.into(), json!(self.version.as_str()));
            meta.insert(META_CLIENT_INFO.into(), client_info());
            let mut capabilities = self.answers.capabilities();
            if self.tasks {
                capabilities["extensions"][TASKS_EXTENSION] = json!({});
            }
            meta.insert(META_CLIENT_CAPABILITIES.into(), capabilities);
            if let Some(level) = *lock(&self.log_level) {
                meta.insert(META_LOG_LEVEL.into(), json!(level));
            }
        }
        if let Some(token) = progress_token {
            meta.insert("progressToken".into(), json!(token));
        }
        let mut params = match params {
            Value::Null if meta.is_empty() => return None,
            Value::Null => Map::new(),
            Value::Object(params) => params,
            other => return Some(other),
        };
        if !meta.is_empty() {
            if let Some(Value::Object(given)) = params.remove("_meta") {
                meta.extend(given);
            }
            params.insert("_meta".into(), Value::Object(meta));
        }
        Some(Value::Object(params))
    }

    /// Sends a request and reads what comes back for it, up to the response: at most the
    /// client's timeout, after which the request is cancelled. A request whose future is
    /// dropped before its answer is cancelled too.
    async fn exchange(&self, id: i64, method: &str, params: Option<Value>) -> Result<Answer, ClientError> {
        self.exchange_keeping(id, method, params, None)
            .await
            .map(|(answer, _)| answer)
    }

    /// [`exchange`](Client::exchange), giving back the params it sent for the next round
    /// (`null` for none, and in the legacy revisions, which have no rounds);
    /// `watch` sees the request's notifications as they arrive.
    async fn exchange_keeping(
        &self,
        id: i64,
        method: &str,
        params: Option<Value>,
        mut watch: Watcher<'_>,
    ) -> Result<(Answer, Value), ClientError> {
        let reinitialize = std::mem::take(&mut *lock(&self.reinitialize));
        if reinitialize && method != "initialize" {
            Box::pin(self.initialize()).await?;
        }
        let mut request = Map::with_capacity(4);
        request.insert("jsonrpc".to_owned(), Value::String("2.0".to_owned()));
        request.insert("id".to_owned(), Value::from(id));
        request.insert("method".to_owned(), Value::String(method.to_owned()));
        if let Some(params) = params {
            request.insert("params".to_owned(), params);
        }
        let mut request = Value::Object(request);
        let answered = self.send_once(id, method, &request, lend(&mut watch)).await;
        let answered = match answered {
            // A modern server that names this revision among those it supports refused it
            // anyway (a proxy's pick, a server's first answer): once more, as the
            // specification asks a client to retry with a supported revision.
            Err(ClientError::Rpc { code, data, .. })
                if code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
                    && self.version.is_modern()
                    && supports(data.as_ref(), self.version) =>
            {
                let id = self.next_id();
                request["id"] = json!(id);
                self.send_once(id, method, &request, lend(&mut watch)).await
            }
            answered => answered,
        };
        // The params are given back for the next round, which only 2026-07-28 has.
        let sent = match &mut request {
            Value::Object(members) if self.version.is_modern() => {
                members.remove("params").unwrap_or(Value::Null)
            }
            _ => Value::Null,
        };
        answered.map(|answer| (answer, sent))
    }

    /// Sends `request` (whose id is `id`) and reads its answer, within the timeout.
    async fn send_once(
        &self,
        id: i64,
        method: &str,
        request: &Value,
        watch: Watcher<'_>,
    ) -> Result<Answer, ClientError> {
        let headers = self.param_headers(method, request);
        // A watcher takes the notifications as they arrive, through a ring of the usual
        // size: those it falls too far behind for are dropped, oldest first.
        let live = watch.is_some().then(|| Ring::new(stdio::REQUEST_BACKLOG, None));
        let inbox = self.link.open(id, request, headers, live)?;
        let mut guard = Outstanding {
            link: &self.link,
            id,
            done: false,
        };
        let answered = self
            .in_time(self.timeout, self.receive(id, method, inbox, watch))
            .await;
        guard.done = true;
        match answered {
            Ok(answer) => answer,
            Err(_) => {
                guard.cancel("the client's request timeout passed");
                Err(self.timed_out(method))
            }
        }
    }

    /// `work`, if it ends within `limit`; time a user spends authorizing (OAuth) does not
    /// count: the limit starts again once they are done.
    async fn in_time<T>(
        &self,
        limit: Duration,
        work: impl Future<Output = T>,
    ) -> Result<T, tokio::time::error::Elapsed> {
        #[cfg(feature = "client-oauth")]
        if let Some(mut authorizing) = self.link.authorizing() {
            tokio::pin!(work);
            let mut ended = authorizing.borrow_and_update().1;
            loop {
                match tokio::time::timeout(limit, &mut work).await {
                    Ok(done) => return Ok(done),
                    Err(elapsed) => {
                        let (busy, now_ended) = *authorizing.borrow_and_update();
                        if !busy && now_ended == ended {
                            return Err(elapsed);
                        }
                        if busy {
                            let _ = authorizing.wait_for(|(busy, _)| !busy).await;
                        }
                        ended = authorizing.borrow_and_update().1;
                    }
                }
            }
        }
        tokio::time::timeout(limit, work).await
    }

    /// The `Mcp-Param-*` headers of a `tools/call` over HTTP in 2026-07-28: each argument the
    /// listed tool repeats, when it has a value a header carries.
    fn param_headers(&self, method: &str, request: &Value) -> Vec<(String, String)> {
        #[cfg(feature = "http")]
        if method == "tools/call" && self.version.is_modern() && matches!(self.link, Link::Http(_)) {
            let params = &request["params"];
            let known = lock(&self.header_params);
            if let Some(found) = params["name"].as_str().and_then(|name| known.get(name)) {
                return found
                    .iter()
                    .filter_map(|param| {
                        let text = params::header_text(&params["arguments"][&param.property])?;
                        Some((param.header.clone(), params::encoded(&text)))
                    })
                    .collect();
            }
        }
        let _ = (method, request);
        Vec::new()
    }

    /// The error for a request unanswered in time, with what else the server wrote.
    fn timed_out(&self, method: &str) -> ClientError {
        let junk = match &self.link {
            Link::Stdio(pipe) => pipe.junk(),
            _ => None,
        };
        ClientError::Timeout {
            method: method.to_owned(),
            timeout: self.timeout,
            junk: junk
                .map(|(count, last)| {
                    format!("; the server wrote {count} line(s) that are not messages, the last: {last}")
                })
                .unwrap_or_default(),
        }
    }

    /// Reads the messages of request `id`'s exchange until its response.
    async fn receive(
        &self,
        id: i64,
        method: &str,
        mut inbox: Inbox,
        mut watch: Watcher<'_>,
    ) -> Result<Answer, ClientError> {
        let conn_id = self.link.conn_id();
        let mut notifications = Vec::new();
        while let Some(message) = inbox.next(conn_id).await {
            let message = message?;
            let members = Members::of(&message);
            if members.jsonrpc.and_then(Value::as_str) != Some("2.0") {
                return Err(ClientError::InvalidResponse(format!(
                    "a message lacks `\"jsonrpc\": \"2.0\"`: {}",
                    clip(&message.to_string(), QUOTED_RESPONSE_CHARS)
                )));
            }
            if let Some(asked) = members.method {
                // A request of the server's own (legacy revisions): answered as a client
                // does, in a message of its own.
                if let Some(request_id) = members.id {
                    let params = members.params.cloned().unwrap_or(Value::Null);
                    let answer = self.answers.respond(asked, request_id.clone(), params);
                    self.link.send(&answer.await);
                } else if let Some(watch) = lend(&mut watch) {
                    watch(&message);
                }
                if notifications.len() < MAX_NOTIFICATIONS {
                    notifications.push(message);
                }
                continue;
            }
            if members.id.and_then(Value::as_i64) != Some(id) {
                return Err(ClientError::InvalidResponse(format!(
                    "the response to request {id} has another id: {}",
                    clip(&message.to_string(), QUOTED_RESPONSE_CHARS)
                )));
            }
            if let Some(error) = members.error {
                let error = rpc_error(error);
                *lock(&self.last_response) = Some(Arc::new(message));
                return Err(error);
            }
            if members.result.is_none() {
                return Err(ClientError::InvalidResponse(format!(
                    "a response has neither `result` nor `error`: {}",
                    clip(&message.to_string(), QUOTED_RESPONSE_CHARS)
                )));
            }
            let message = Arc::new(message);
            *lock(&self.last_response) = Some(Arc::clone(&message));
            return Ok(Answer {
                response: message,
                notifications,
            });
        }
        Err(ClientError::NoResponse {
            method: method.to_owned(),
        })
    }

    fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The result of `method`'s answer, read as `T`, the protocol type named `expected`. A
    /// 2026-07-28 result must be `complete`: the client answers no input requests. A missing
    /// `resultType` reads as `complete`, as the specification says.
    fn read_result<T: DeserializeOwned>(
        &self,
        method: &str,
        expected: &str,
        answer: &Answer,
    ) -> Result<T, ClientError> {
        let result = &answer.response["result"];
        match self
            .version
            .is_modern()
            .then(|| result.get("resultType"))
            .flatten()
        {
            Some(kind) if *kind != "complete" => {
                return Err(ClientError::InvalidResponse(format!(
                    "`resultType` is {kind}; this client reads only \"complete\" results"
                )));
            }
            _ => {}
        }
        T::deserialize(result).map_err(|source| ClientError::ResultMismatch {
            method: method.to_owned(),
            expected: expected.to_owned(),
            source,
        })
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let transport = match &self.link {
            Link::InProcess { .. } => "in process",
            Link::Stdio(_) => "stdio",
            #[cfg(feature = "http")]
            Link::Http(_) => "Streamable HTTP",
        };
        f.debug_struct("Client")
            .field("transport", &transport)
            .field("protocol_version", &self.version)
            .finish_non_exhaustive()
    }
}

/// The client going away closes its connection: calls still running are cancelled.
/// Over stdio, the child's input closes (the pipe's own drop sees to the child).
impl Drop for Client {
    fn drop(&mut self) {
        if let Link::InProcess { conn, .. } = &self.link {
            conn.cancel_all();
            // The task reading what the engine sends outside any request ends.
            conn.set_unsolicited(None);
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                let conn = Arc::clone(conn);
                runtime.spawn(async move { conn.close().await });
            }
        }
    }
}

/// A request sent and not yet answered: dropped before its answer (its future was
/// dropped, or its time ran out), it tells the server so with `notifications/cancelled`.
struct Outstanding<'a> {
    link: &'a Link,
    id: i64,
    done: bool,
}

impl Outstanding<'_> {
    /// Tells the server the client no longer wants request `id`'s answer, and why.
    fn cancel(&self, reason: &str) {
        self.link.forget(self.id);
        self.link.send(&json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": { "requestId": self.id, "reason": reason },
        }));
    }
}

impl Drop for Outstanding<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.cancel("the client stopped waiting for the answer");
        }
    }
}

/// The error a response's `error` member stands for.
fn rpc_error(error: &Value) -> ClientError {
    match WireError::deserialize(error) {
        Ok(error) => ClientError::Rpc {
            code: error.code,
            message: error.message,
            data: error.data,
        },
        Err(e) => ClientError::InvalidResponse(format!("the error does not read as a JSON-RPC error: {e}")),
    }
}

fn client_info() -> Value {
    json!({ "name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION") })
}

/// Takes off the `{"result": ...}` the 2025-06-18 and 2025-11-25 revisions put around
/// structured output that is not an object, so the value is what the tool returned.
fn unwrap_structured(value: Value, version: ProtocolVersion, tool: Option<&Tool>) -> Value {
    if !version.structured_output_must_be_object() {
        return value;
    }
    let wrapped = match tool {
        Some(tool) if tool.wraps_structured_output(version) => true,
        // An object output schema: the value is sent as the tool made it.
        Some(tool) if tool.output_schema().is_some() => false,
        // No schema: the server wraps only values that are not objects.
        _ => value.get("result").is_some_and(|inner| !inner.is_object()),
    };
    match value {
        Value::Object(mut map) if wrapped && map.len() == 1 => map.remove("result").unwrap_or_default(),
        value => value,
    }
}

/// A tool's result as a [`Client`] received it: the content blocks, the structured
/// output, whether the call failed, and the notifications the call sent before its result.
///
/// It reads like the [`CallToolResult`](crate::CallToolResult) the tool returned, whatever
/// the revision did to it on the wire: structured output wrapped as `{"result": ...}` for
/// 2025-06-18 and 2025-11-25 is unwrapped. [`CallResponse::response`] is the message as
/// it was sent.
///
/// ```
/// use mcp_toolkit::{tool, tools, Json, Server};
/// use serde_json::json;
///
/// /// The primes below `n`.
/// #[tool]
/// fn primes(n: u32) -> Json<Vec<u32>> {
///     Json((2..n).filter(|i| (2..*i).all(|d| i % d != 0)).collect())
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("math", "1.0.0").tools(tools![primes]).test_client()?;
/// let result = client.call("primes", json!({"n": 10})).await?;
/// assert!(!result.is_error());
/// assert_eq!(result.structured::<Vec<u32>>()?, [2, 3, 5, 7]);
/// assert_eq!(result.text(), Some("[2,3,5,7]"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct CallResponse {
    content: Vec<Content>,
    structured: Option<Value>,
    is_error: bool,
    meta: Option<Map<String, Value>>,
    notifications: Vec<Value>,
    response: Arc<Value>,
    version: ProtocolVersion,
    rounds: usize,
    task: Option<TaskTrace>,
}

/// What the client saw of the task a call ran as.
#[derive(Debug, Clone)]
struct TaskTrace {
    id: String,
    statuses: Vec<String>,
    updates: usize,
}

impl CallResponse {
    /// A response read from `wire`, the result of `response`, with no notifications or
    /// rounds yet.
    fn new(
        wire: WireCallResult,
        response: Arc<Value>,
        tool: Option<&Tool>,
        version: ProtocolVersion,
    ) -> CallResponse {
        CallResponse {
            content: wire.content,
            structured: wire
                .structured_content
                .map(|value| unwrap_structured(value, version, tool)),
            is_error: wire.is_error.unwrap_or(false),
            meta: wire.meta,
            notifications: Vec::new(),
            response,
            version,
            rounds: 0,
            task: None,
        }
    }

    /// How many `input_required` rounds the call took before this result (revision
    /// 2026-07-28): 0 for a call that asked nothing, 1 for one that asked once. For a call
    /// that became a task, the rounds before it did; the questions of the task itself are
    /// [`task_updates`](CallResponse::task_updates).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Counts the client's roots.
    /// #[tool]
    /// async fn count_roots(cx: Context) -> Result<String, ToolError> {
    ///     Ok(cx.list_roots().await?.len().to_string())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("roots", "1.0.0")
    ///     .tools(tools![count_roots])
    ///     .test_client()?
    ///     .with_roots([("file:///srv", "srv")]);
    /// let result = client.call("count_roots", json!({})).await?;
    /// assert_eq!((result.text(), result.rounds()), (Some("1"), 1));
    /// # Ok(())
    /// # }
    /// ```
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The id of the task the call ran as, when the server made it one (a client
    /// [`with_tasks`](Client::with_tasks), a task tool that had to wait); `None` for a
    /// call answered at once.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// /// Re-indexes everything; only ever runs as a task.
    /// #[tool(task = "required")]
    /// async fn reindex() -> &'static str {
    ///     tokio::time::sleep(Duration::from_millis(10)).await;
    ///     "done"
    /// }
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("index", "1.0.0").tools(tools![reindex, hello]).test_client()?.with_tasks();
    /// let done = client.call("reindex", json!({})).await?;
    /// let id = done.task_id().unwrap();
    /// assert_eq!(id.len(), 32); // 128 random bits, in hex
    /// assert_eq!(done.response()["result"]["taskId"], id);
    /// assert_eq!(client.call("hello", json!({})).await?.task_id(), None);
    /// # Ok(())
    /// # }
    /// ```
    pub fn task_id(&self) -> Option<&str> {
        self.task.as_ref().map(|task| task.id.as_str())
    }

    /// The status messages of the call's task (what its tool set with
    /// [`Context::set_status`](crate::Context::set_status)), in the order the client saw
    /// them while it polled; a message seen on several polls in a row is kept once. The
    /// client sees the latest message at each poll, so one the tool replaced at once may be
    /// missing; the last one before the task ended is always there. Empty for a call that
    /// was no task.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// /// Exports every note, slowly.
    /// #[tool(task)]
    /// async fn export(ctx: Context) -> &'static str {
    ///     ctx.set_status("reading the notes");
    ///     tokio::time::sleep(Duration::from_millis(20)).await;
    ///     ctx.set_status("writing the archive");
    ///     tokio::time::sleep(Duration::from_millis(20)).await;
    ///     "exported"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("notes", "1.0.0").tools(tools![export]).test_client()?.with_tasks();
    /// let result = client.call("export", json!({})).await?;
    /// assert_eq!(result.statuses(), ["reading the notes", "writing the archive"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn statuses(&self) -> &[String] {
        self.task.as_ref().map_or(&[], |task| task.statuses.as_slice())
    }

    /// How many times the client answered the questions of the call's task
    /// (`input_required`, answered with `tasks/update`), each time with the answers of the
    /// handlers set by [`on_elicit`](Client::on_elicit) and the rest. 0 for a call that
    /// was no task, or whose task asked nothing.
    ///
    /// ```
    /// use mcp_toolkit::ask::Elicitation;
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Go {
    ///     /// Go ahead
    ///     confirm: bool,
    /// }
    ///
    /// /// Finds the old backups, then asks before deleting them.
    /// #[tool(task)]
    /// async fn prune(ctx: Context) -> Result<&'static str, ToolError> {
    ///     tokio::time::sleep(Duration::from_millis(10)).await; // the call becomes a task here
    ///     Ok(match ctx.elicit::<Go>("Delete 3 old backups?").await? {
    ///         Elicitation::Accept(Go { confirm: true }) => "deleted",
    ///         _ => "kept",
    ///     })
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("backups", "1.0.0")
    ///     .tools(tools![prune])
    ///     .test_client()?
    ///     .with_tasks()
    ///     .on_elicit(|_request| async move { json!({"action": "accept", "content": {"confirm": true}}) });
    /// let result = client.call("prune", json!({})).await?;
    /// assert_eq!(result.text(), Some("deleted"));
    /// assert_eq!((result.rounds(), result.task_updates()), (0, 1));
    /// # Ok(())
    /// # }
    /// ```
    pub fn task_updates(&self) -> usize {
        self.task.as_ref().map_or(0, |task| task.updates)
    }

    /// The content blocks.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Content, Server};
    /// use serde_json::json;
    ///
    /// /// A chart and its caption.
    /// #[tool]
    /// fn chart() -> Vec<Content> {
    ///     vec![Content::text("Sales:"), Content::image(&[0x89, b'P', b'N', b'G'], "image/png")]
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("charts", "1.0.0").tools(tools![chart]).test_client()?;
    /// let result = client.call("chart", json!({})).await?;
    /// assert_eq!(result.content()[1], Content::image(&[0x89, b'P', b'N', b'G'], "image/png"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The text of the first text block, if there is one.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello(name: String) -> String { format!("Hello, {name}!") }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("greeter", "1.0.0").tools(tools![hello]).test_client()?;
    /// let result = client.call("hello", json!({"name": "Ada"})).await?;
    /// assert_eq!(result.text(), Some("Hello, Ada!"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn text(&self) -> Option<&str> {
        self.content.iter().find_map(Content::as_text)
    }

    /// Whether the call failed (`isError`): bad arguments, a tool's `Err`, a panic.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Panics.
    /// #[tool]
    /// async fn explode() -> String { panic!("boom") }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("fragile", "1.0.0").tools(tools![explode]).test_client()?;
    /// let result = client.call("explode", json!({})).await?;
    /// assert!(result.is_error());
    /// assert_eq!(result.text(), Some("internal error"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The structured output as JSON, unwrapped from `{"result": ...}` where the revision
    /// wrapped it; `None` when the result has none (or the revision predates structured
    /// output, 2025-06-18).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Json, Server};
    /// use serde_json::json;
    ///
    /// /// The primes below ten.
    /// #[tool]
    /// fn primes() -> Json<Vec<u32>> { Json(vec![2, 3, 5, 7]) }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("math", "1.0.0").tools(tools![primes]).test_client()?;
    /// let result = client.call("primes", json!({})).await?;
    /// assert_eq!(result.structured_content(), Some(&json!([2, 3, 5, 7])));
    /// # Ok(())
    /// # }
    /// ```
    pub fn structured_content(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// The structured output, deserialized into `T` (unwrapped from `{"result": ...}` where
    /// the revision wrapped it).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Json, Server, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// The primes below ten.
    /// #[tool]
    /// fn primes() -> Json<Vec<u32>> { Json(vec![2, 3, 5, 7]) }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("math", "1.0.0").tools(tools![primes]);
    /// let client = server.test_client_legacy(ProtocolVersion::V2025_06_18).await?;
    /// let result = client.call("primes", json!({})).await?;
    /// assert_eq!(result.response()["result"]["structuredContent"], json!({"result": [2, 3, 5, 7]}));
    /// assert_eq!(result.structured::<Vec<u32>>()?, [2, 3, 5, 7]);
    /// assert!(result.structured::<String>().is_err());
    /// # Ok(())
    /// # }
    /// ```
    pub fn structured<T: DeserializeOwned>(&self) -> Result<T, ClientError> {
        let Some(value) = &self.structured else {
            let reason = if !self.version.has_structured_output() {
                format!("protocol revision {} has no structured output", self.version)
            } else if self.is_error {
                format!("the call failed: {}", self.text().unwrap_or("(no text)"))
            } else {
                "the tool sent none; structured output comes from returning `Json<T>`".to_owned()
            };
            return Err(ClientError::NoStructuredContent { reason });
        };
        T::deserialize(value).map_err(|source| ClientError::StructuredContent {
            type_name: std::any::type_name::<T>(),
            source,
        })
    }

    /// The result's `_meta` (in 2026-07-28 it names the server:
    /// `io.modelcontextprotocol/serverInfo`).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("greeter", "1.0.0").tools(tools![hello]).test_client()?;
    /// let result = client.call("hello", json!({})).await?;
    /// let meta = result.meta().unwrap();
    /// assert_eq!(meta["io.modelcontextprotocol/serverInfo"]["name"], "greeter");
    /// # Ok(())
    /// # }
    /// ```
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The notifications the server sent for this call before its result, whole
    /// (`jsonrpc`, `method`, `params`), in order: progress (with
    /// [`Client::call_with_progress`]) and log messages (after
    /// [`Client::set_log_level`]).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Works in two steps.
    /// #[tool]
    /// async fn work(cx: Context) -> &'static str {
    ///     cx.report_progress(1.0, Some(2.0), Some("half way"));
    ///     cx.report_progress(2.0, Some(2.0), None);
    ///     "done"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("worker", "1.0.0").tools(tools![work]).test_client()?;
    /// assert!(client.call("work", json!({})).await?.notifications().is_empty());
    ///
    /// let result = client.call_with_progress("work", json!({})).await?;
    /// let first = &result.notifications()[0];
    /// assert_eq!(first["method"], "notifications/progress");
    /// assert_eq!(first["params"]["message"], "half way");
    /// # Ok(())
    /// # }
    /// ```
    pub fn notifications(&self) -> &[Value] {
        &self.notifications
    }

    /// The JSON-RPC response as the server wrote it, for assertions on the exact wire
    /// shape of the revision. For a call that ran as a task, the `tasks/get` response that
    /// carried its result (under `result.result`).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("greeter", "1.0.0").tools(tools![hello]);
    /// let client = server.test_client_legacy(ProtocolVersion::V2025_11_25).await?;
    /// let result = client.call("hello", json!({})).await?;
    /// assert_eq!(
    ///     result.response(),
    ///     &json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "hello"}]}})
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn response(&self) -> &Value {
        &self.response
    }
}

/// The values `completion/complete` offered, from [`Client::complete_prompt`] and
/// [`Client::complete_resource`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// The values, best first (at most 100).
    pub values: Vec<String>,
    /// How many values there are in all, when the server said.
    #[serde(default)]
    pub total: Option<u64>,
    /// Whether there are more values than `values` holds.
    #[serde(default)]
    pub has_more: bool,
}

/// Why a [`Client`] request did not give what was asked for.
///
/// ```
/// use mcp_toolkit::protocol::ErrorCode;
/// use mcp_toolkit::{tool, tools, testing::ClientError, Server};
/// use serde_json::json;
///
/// /// Says hello.
/// #[tool]
/// fn hello() -> &'static str { "hello" }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), ClientError> {
/// let client = Server::new("greeter", "1.0.0").tools(tools![hello]).test_client()?;
/// match client.call("goodbye", json!({})).await {
///     Err(ClientError::Rpc { code, message, .. }) => {
///         assert_eq!(code, ErrorCode::INVALID_PARAMS);
///         assert_eq!(message, "Unknown tool: goodbye");
///     }
///     other => panic!("expected a JSON-RPC error, got {other:?}"),
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server cannot serve: its configuration breaks a rule.
    #[error(transparent)]
    Server(#[from] Error),
    /// The server answered with a JSON-RPC error.
    #[error("the server answered with JSON-RPC error {code}: {message}")]
    Rpc {
        /// The error code, such as [`ErrorCode::INVALID_PARAMS`] (an unknown tool).
        code: ErrorCode,
        /// The error message.
        message: String,
        /// The error's `data`, if any.
        data: Option<Value>,
    },
    /// The client and the server agree on no protocol revision: the server offered another
    /// than the one asked for in `initialize`, or its `server/discover` lists no revision
    /// the client speaks.
    #[error("`initialize` asked for protocol revision {requested}; the server offered {offered:?}")]
    Negotiation {
        /// The revision asked for.
        requested: ProtocolVersion,
        /// The revision the server answered with.
        offered: String,
    },
    /// The server finished with the request without answering it.
    #[error("the server did not answer the `{method}` request")]
    NoResponse {
        /// The method of the request.
        method: String,
    },
    /// The server answered with something the protocol does not allow.
    #[error("the server's answer breaks the protocol: {0}")]
    InvalidResponse(String),
    /// The result has no structured output to read.
    #[error("the result has no `structuredContent`: {reason}")]
    NoStructuredContent {
        /// Why there is none.
        reason: String,
    },
    /// A result does not match the protocol's type for it: a member is missing or is not
    /// of its type (`completion/complete`'s `values` that are not strings, a listed tool
    /// without `inputSchema`).
    #[error("the `{method}` result does not read as {expected}: {source}")]
    ResultMismatch {
        /// The method whose result it is.
        method: String,
        /// What it should have been, such as ``a `Tool` (item 2 of `tools`)``.
        expected: String,
        /// What serde found wrong.
        source: serde_json::Error,
    },
    /// The result's structured output is not a `T`.
    #[error("the result's `structuredContent` does not deserialize into `{type_name}`: {source}")]
    StructuredContent {
        /// The type asked for.
        type_name: &'static str,
        /// What serde found wrong.
        source: serde_json::Error,
    },
    /// The task the call ran as was cancelled (`tasks/cancel`) before it ended, so it has
    /// no result. The example on [`Client::follow_task`] shows it.
    #[error("the task `{task_id}` was cancelled before it ended; it has no result")]
    TaskCancelled {
        /// The task's id.
        task_id: String,
    },
    /// The server's process could not be started.
    #[error("could not start the server `{program}`: {source}")]
    Spawn {
        /// The program that was to run.
        program: String,
        /// Why it did not.
        source: std::io::Error,
    },
    /// The connection is closed: the server exited or closed its output, writing to it
    /// failed, or the client was closed. Every request waiting fails so.
    #[error("the connection to the server is closed: {reason}")]
    Closed {
        /// What closed it.
        reason: String,
    },
    /// The answer was longer than the client reads
    /// ([`Connector::max_message_bytes`]); it was skipped, not kept.
    #[error("the server's answer is {bytes} bytes, over the client's limit of {limit}")]
    TooLarge {
        /// How long the message was.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The request was not answered within [`Connector::request_timeout`]; the client
    /// cancelled it.
    #[error("the server did not answer the `{method}` request within {timeout:?}{junk}")]
    Timeout {
        /// The method of the request.
        method: String,
        /// How long the client waited.
        timeout: Duration,
        /// What else the server wrote meanwhile, when that may be why (lines that are no
        /// message), or empty.
        junk: String,
    },
    /// The server answered with an HTTP error that is no JSON-RPC message.
    #[error("the server answered with HTTP status {status}: {body}")]
    Http {
        /// The status code.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// The URL given to `Client::http` (feature `http`) cannot be used.
    #[error("cannot use the URL {url:?}: {reason}")]
    Url {
        /// The URL (cut).
        url: String,
        /// Why not.
        reason: String,
    },
    /// A skill file read does not match what `skills/list` said of it (its size, its
    /// digest, or for `SKILL.md` its frontmatter): changed since, or served falsely. It is
    /// not given to the caller.
    #[error("the skill file {uri:?} does not match its listing: {reason}")]
    SkillMismatch {
        /// The file's URI.
        uri: String,
        /// What differs.
        reason: String,
    },
    /// Authorizing with OAuth failed (feature `client-oauth`): the request that needed it
    /// was not sent again.
    #[cfg(feature = "client-oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "client-oauth")))]
    #[error(transparent)]
    Authorization(#[from] oauth::AuthorizationError),
    /// [`Connector::protocol_version`] named a revision this crate does not know.
    #[error(
        "unknown protocol revision {0:?}; this client speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28"
    )]
    UnknownVersion(String),
}

/// A `tools/call` result as it travels, in any revision.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireCallResult {
    content: Vec<Content>,
    #[serde(default, deserialize_with = "present")]
    structured_content: Option<Value>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

/// A JSON-RPC error object.
#[derive(Deserialize)]
struct WireError {
    #[serde(with = "crate::protocol::jsonrpc::code")]
    code: ErrorCode,
    message: String,
    #[serde(default, deserialize_with = "present")]
    data: Option<Value>,
}

/// `Some` for a member that is present, even when it is `null` (structured output may be
/// `null` in 2026-07-28).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Context;
    use crate::Server;
    use crate::result::IntoCallToolResult;
    use crate::tool::TaskSupport;
    use std::sync::atomic::AtomicUsize;

    /// A tool of the tests, made at run time, that may run as a task as `support` says.
    fn tool<F, Fut, R>(name: &str, support: TaskSupport, handler: F) -> Tool
    where
        F: Fn(Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoCallToolResult,
    {
        Tool::from_json(
            name,
            "A tool of the tests.",
            json!({"type": "object"}),
            move |_, cx| handler(cx),
        )
        .unwrap()
        .with_task_support(support)
    }

    fn server(tools: Vec<Tool>) -> Server {
        Server::new("tasks", "1.0.0").tools(tools)
    }

    /// Sets a status, works, sets another, works, and says so.
    fn two_steps() -> Tool {
        tool("two_steps", TaskSupport::Optional, |cx| async move {
            cx.set_status("step 1 of 2");
            tokio::time::sleep(Duration::from_millis(20)).await;
            cx.set_status("step 2 of 2");
            tokio::time::sleep(Duration::from_millis(20)).await;
            "done"
        })
    }

    /// An accepted confirmation.
    async fn yes(_request: Value) -> Value {
        json!({ "action": "accept", "content": { "confirm": true } })
    }

    #[tokio::test]
    async fn a_task_is_polled_to_its_result_and_its_statuses_are_kept() {
        let client = server(vec![two_steps()]).test_client().unwrap().with_tasks();
        let result = client.call("two_steps", json!({})).await.unwrap();
        assert_eq!(result.text(), Some("done"));
        assert!(!result.is_error());
        let id = result.task_id().expect("a task");
        assert_eq!(id.len(), 32, "{id}");
        assert_eq!(result.statuses(), ["step 1 of 2", "step 2 of 2"]);
        assert_eq!((result.rounds(), result.task_updates()), (0, 0));
        // The result came inlined in the `tasks/get` of the completed task.
        let response = result.response();
        assert_eq!(response["result"]["taskId"], id);
        assert_eq!(response["result"]["status"], "completed");
        assert_eq!(
            response["result"]["result"]["content"],
            json!([{ "type": "text", "text": "done" }])
        );
        assert_eq!(
            result.meta().unwrap()["io.modelcontextprotocol/serverInfo"]["name"],
            "tasks"
        );
        // The server asks for a poll a second; the client does not wait that long.
        assert_eq!(response["result"]["pollIntervalMs"], 1000);
        assert_eq!(client.last_response().as_ref(), Some(response));
    }

    #[tokio::test]
    async fn without_the_extension_a_task_tool_is_a_plain_call() {
        let client = server(vec![two_steps()]).test_client().unwrap();
        let result = client.call("two_steps", json!({})).await.unwrap();
        assert_eq!(result.text(), Some("done"));
        assert_eq!(result.task_id(), None);
        assert!(result.statuses().is_empty());
        assert_eq!(result.response()["result"]["resultType"], "complete");
    }

    #[tokio::test]
    async fn only_a_2026_07_28_client_with_tasks_declares_the_extension() {
        let capabilities = |client: &Client| {
            client.params(json!({}), None).unwrap_or_default()["_meta"][META_CLIENT_CAPABILITIES].clone()
        };
        let plain = server(Vec::new()).test_client().unwrap();
        assert_eq!(capabilities(&plain), json!({}));
        let tasks = server(Vec::new()).test_client().unwrap().with_tasks();
        assert_eq!(
            capabilities(&tasks),
            json!({ "extensions": { "io.modelcontextprotocol/tasks": {} } })
        );
        let legacy = server(vec![two_steps()])
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap()
            .with_tasks();
        assert_eq!(legacy.params(json!({}), None), Some(json!({})));
        let result = legacy.call("two_steps", json!({})).await.unwrap();
        assert_eq!((result.text(), result.task_id()), (Some("done"), None));
    }

    #[tokio::test]
    async fn a_task_that_asks_is_answered_with_tasks_update_and_runs_on() {
        let asked = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&asked);
        // Asks once as a round of the call, once inside the task.
        let ask_twice = tool("ask_twice", TaskSupport::Optional, |cx| async move {
            let first = cx.confirm("first?").await.map_err(crate::ToolError::from)?;
            tokio::time::sleep(Duration::from_millis(5)).await;
            let second = cx.confirm("second?").await.map_err(crate::ToolError::from)?;
            Ok::<_, crate::ToolError>(format!("{first} {second}"))
        });
        let client = server(vec![ask_twice])
            .test_client()
            .unwrap()
            .with_tasks()
            .on_elicit(move |request| {
                counted.fetch_add(1, Ordering::Relaxed);
                yes(request)
            });
        let result = client.call("ask_twice", json!({})).await.unwrap();
        assert_eq!(result.text(), Some("true true"), "{:?}", result.response());
        assert!(result.task_id().is_some());
        assert_eq!((result.rounds(), result.task_updates()), (1, 1));
        assert_eq!(asked.load(Ordering::Relaxed), 2, "each question is answered once");
    }

    #[tokio::test]
    async fn a_task_that_never_stops_asking_is_given_up() {
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&asked);
        let pester = tool("pester", TaskSupport::Required, move |cx| {
            let counter = Arc::clone(&counter);
            async move {
                tokio::time::sleep(Duration::from_millis(1)).await;
                let n = counter.fetch_add(1, Ordering::Relaxed);
                cx.confirm(format!("question {n}?"))
                    .await
                    .map_err(crate::ToolError::from)
            }
        });
        let client = server(vec![pester])
            .test_client()
            .unwrap()
            .with_tasks()
            .on_elicit(yes);
        let error = client.call("pester", json!({})).await.unwrap_err();
        assert!(
            matches!(&error, ClientError::InvalidResponse(text) if text.ends_with(&format!("still asks for input after {MAX_ROUNDS} updates"))),
            "{error}"
        );
        assert_eq!(asked.load(Ordering::Relaxed), MAX_ROUNDS + 1);
    }

    #[tokio::test]
    async fn a_failed_task_is_the_json_rpc_error_and_a_tool_error_is_a_result() {
        let broken = tool("broken", TaskSupport::Optional, |_| async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            if true {
                panic!("a bug");
            }
            "never"
        });
        let refusing = tool("refusing", TaskSupport::Required, |_| async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            Err::<&str, _>(crate::ToolError::new("the input was not usable"))
        });
        let client = server(vec![broken, refusing]).test_client().unwrap().with_tasks();
        match client.call("broken", json!({})).await {
            Err(ClientError::Rpc { code, message, data }) => {
                assert_eq!(code, ErrorCode::INTERNAL_ERROR);
                assert_eq!(message, "internal error");
                assert_eq!(data, None);
            }
            other => panic!("expected the task's error, got {other:?}"),
        }
        assert_eq!(client.last_response().unwrap()["result"]["status"], "failed");
        let refused = client.call("refusing", json!({})).await.unwrap();
        assert!(refused.is_error());
        assert_eq!(refused.text(), Some("the input was not usable"));
        assert!(refused.task_id().is_some());
    }

    #[tokio::test]
    async fn a_cancelled_task_ends_the_call_and_its_tool_sees_it() {
        let (report, mut reports) = tokio::sync::mpsc::unbounded_channel();
        let forever = tool("forever", TaskSupport::Optional, move |cx| {
            let report = report.clone();
            async move {
                cx.set_status("waiting for the end of time");
                cx.cancelled().await;
                report.send("stopped").ok();
                "stopped"
            }
        });
        let client = server(vec![forever]).test_client().unwrap().with_tasks();
        // The first change the store announces is the task's creation.
        let Link::InProcess { engine, .. } = &client.link else {
            unreachable!("a test client is in process")
        };
        let mut changes = engine.tasks.store().changes();
        let cancel = async {
            let id = changes.recv().await.unwrap();
            let ack = client
                .request("tasks/cancel", json!({ "taskId": &*id }))
                .await
                .unwrap();
            assert_eq!(ack["resultType"], "complete");
            id
        };
        let (called, id) = tokio::join!(client.call("forever", json!({})), cancel);
        match called {
            Err(ClientError::TaskCancelled { task_id }) => assert_eq!(task_id, *id),
            other => panic!("expected a cancelled task, got {other:?}"),
        }
        assert_eq!(reports.recv().await, Some("stopped"));
        // Following it again ends the same way; so does a cancelled task read afresh.
        let again = client.follow_task(&id).await.unwrap_err();
        assert_eq!(
            again.to_string(),
            format!("the task `{id}` was cancelled before it ended; it has no result")
        );
    }

    #[tokio::test]
    async fn a_required_task_that_finishes_at_once_is_created_finished() {
        let quick = || tool("quick", TaskSupport::Required, |_| async { "now" });
        let client = server(vec![quick()]).test_client().unwrap().with_tasks();
        let created = client
            .request("tools/call", json!({ "name": "quick", "arguments": {} }))
            .await
            .unwrap();
        assert_eq!(
            (&created["resultType"], &created["status"]),
            (&json!("task"), &json!("completed"))
        );
        assert!(created.get("result").is_none(), "{created}");
        let followed = client
            .follow_task(created["taskId"].as_str().unwrap())
            .await
            .unwrap();
        assert_eq!(followed.text(), Some("now"));
        assert_eq!(client.call("quick", json!({})).await.unwrap().text(), Some("now"));
        // A client without the extension is refused it.
        let plain = server(vec![quick()]).test_client().unwrap();
        match plain.call("quick", json!({})).await {
            Err(ClientError::Rpc { code, data, .. }) => {
                assert_eq!(code, ErrorCode::MISSING_CAPABILITY);
                assert_eq!(
                    data,
                    Some(
                        json!({ "requiredCapabilities": { "extensions": { "io.modelcontextprotocol/tasks": {} } } })
                    )
                );
            }
            other => panic!("expected -32021, got {other:?}"),
        }
    }

    #[test]
    fn the_pause_between_polls_follows_the_server_up_to_a_cap() {
        assert_eq!(poll_pause(&json!({ "pollIntervalMs": 1000 })), MAX_POLL_PAUSE);
        assert_eq!(
            poll_pause(&json!({ "pollIntervalMs": 10 })),
            Duration::from_millis(10)
        );
        assert_eq!(poll_pause(&json!({ "pollIntervalMs": "soon" })), MAX_POLL_PAUSE);
        assert_eq!(poll_pause(&json!({})), MAX_POLL_PAUSE);
    }

    #[test]
    fn a_status_seen_on_polls_in_a_row_is_kept_once() {
        let mut statuses = Vec::new();
        for message in ["a", "a", "b", "b", "a"] {
            note_status(&mut statuses, message);
        }
        assert_eq!(statuses, ["a", "b", "a"]);
    }
}
