//! What a tool can know about the request that called it, and what it can send back while it
//! runs: [`Context`], shared [`State`], and the [`FromContext`] trait behind both.

use crate::error::{ClientRequestError, ToolError};
use crate::protocol::{Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId};
use serde_json::{Value, json};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The request a tool is serving: its id, the client, the protocol revision, progress,
/// logging and cancellation.
///
/// A tool receives it by naming a parameter of this type (any name, any path or alias: the
/// type is what counts). It never appears in the tool's input schema. Outside a server
/// ([`Tool::call`](crate::Tool::call) in a unit test), `Context::default()` stands for a
/// request that asked for nothing.
///
/// ```
/// use mcp_toolkit::{tool, tools, Context, Server, protocol::ProtocolVersion};
/// use serde_json::json;
///
/// /// Says which client called, in which protocol revision.
/// #[tool]
/// async fn whoami(cx: Context) -> String {
///     let client = cx.client_info().map_or("an unnamed client", |c| c.name.as_str());
///     let version = cx.protocol_version().map_or("no revision".into(), |v| v.to_string());
///     format!("{client}, {version}")
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let server = || Server::new("who", "1.0.0").tools(tools![whoami]);
/// let modern = server().test_client()?;
/// assert_eq!(modern.list_tools().await?[0].json()["inputSchema"], json!({"type": "object", "additionalProperties": false}));
/// assert_eq!(modern.call("whoami", json!({})).await?.text(), Some("mcp-toolkit-client, 2026-07-28"));
///
/// let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await?;
/// assert_eq!(legacy.call("whoami", json!({})).await?.text(), Some("mcp-toolkit-client, 2025-06-18"));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct Context {
    inner: Arc<ContextParts>,
}

/// The way back to the client of one call: the notifications the tool sends while it runs,
/// and the requests of the server's own it makes. The engine implements it for each call;
/// it is a trait so this layer need not know the engine.
pub(crate) trait ClientChannel: Send + Sync {
    /// Sends a notification on the call's way out (nothing once the call is cancelled).
    fn notify(&self, notification: Notification);

    /// Asks the client `method` with `params` and waits for its answer: the `result`, or why
    /// there is none. In the `initialize` era this is a request on the call's way out; in
    /// revision 2026-07-28 it is an input request of the call's round, under `key` (one the
    /// channel makes up when `None`), answered when the client retries the call with an
    /// answer to this very question that passes `check` (else it is asked again).
    fn request(
        &self,
        method: &str,
        params: Value,
        key: Option<&str>,
        check: Check,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, ClientRequestError>> + Send>>;

    /// Sets the status message of the task the call runs as; a call that is not a task
    /// has none.
    fn set_status(&self, message: String) {
        let _ = message;
    }

    /// Sends a custom notification (an extension's, checked already) on the call's way out;
    /// a channel that sends no notifications drops it.
    fn notify_custom(&self, method: &str, params: Value) {
        let _ = (method, params);
    }
}

/// Whether a client's answer is a result of the request it answers (the whole of it, as
/// the request's result type says), before the tool sees it; why not, when it is not.
pub(crate) type Check = fn(&Value) -> Result<(), String>;

/// The check of a request the framework knows nothing of ([`Context::send_request`]): a
/// JSON-RPC result is an object.
pub(crate) fn any_result(answer: &Value) -> Result<(), String> {
    if answer.is_object() {
        Ok(())
    } else {
        Err("a result must be an object".to_owned())
    }
}

/// A notification a tool sends while it runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Notification {
    pub(crate) method: &'static str,
    pub(crate) params: Value,
}

/// What the engine knows of a request when it builds its [`Context`].
#[derive(Clone, Default)]
pub(crate) struct RequestInfo {
    pub(crate) request_id: Option<RequestId>,
    pub(crate) protocol_version: Option<ProtocolVersion>,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) client_capabilities: Option<Arc<Value>>,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) log_level: Option<LoggingLevel>,
    /// Whether object and array arguments may arrive as JSON text.
    pub(crate) lenient_arguments: bool,
}

/// Everything a [`Context`] is made of, as the engine (or a test) assembles it.
#[derive(Clone, Default)]
pub(crate) struct ContextParts {
    pub(crate) info: RequestInfo,
    pub(crate) cancellation: CancellationToken,
    pub(crate) state: StateMap,
    pub(crate) services: StateMap,
    pub(crate) principal: Option<Arc<Principal>>,
    pub(crate) client: Option<Arc<dyn ClientChannel>>,
    /// The figures of the progress last reported, which a status message repeats.
    pub(crate) last_progress: LastProgress,
}

/// The `progress` and `total` a call reported last ([`Context::report_progress`]), for
/// [`Context::set_status`] to send with its message: `0` and none before any report.
#[derive(Default)]
pub(crate) struct LastProgress(std::sync::Mutex<(f64, Option<f64>)>);

impl LastProgress {
    fn get(&self) -> (f64, Option<f64>) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn set(&self, progress: f64, total: Option<f64>) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = (progress, total);
    }
}

impl Clone for LastProgress {
    fn clone(&self) -> LastProgress {
        LastProgress(std::sync::Mutex::new(self.get()))
    }
}

impl Context {
    pub(crate) fn from_parts(parts: ContextParts) -> Context {
        Context {
            inner: Arc::new(parts),
        }
    }

    /// Who is calling, when the transport checks a bearer token (HTTP with
    /// `Server::bearer_auth` (feature `http`)); `None` on stdio, in a
    /// [`TestClient`](crate::testing::TestClient), or without a check.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, auth::Principal, Server};
    /// use serde_json::json;
    ///
    /// /// Says who is calling.
    /// #[tool]
    /// fn whoami(cx: Context) -> String {
    ///     cx.principal().map_or("nobody".into(), |caller| caller.subject.clone())
    /// }
    ///
    /// # async fn call_whoami(addr: std::net::SocketAddr, token: &str) -> String {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    /// #     let request = format!(
    /// #         "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: whoami\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
    /// #         body.len()
    /// #     );
    /// #     let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    /// #     stream.write_all(request.as_bytes()).await.unwrap();
    /// #     let mut response = String::new();
    /// #     stream.read_to_string(&mut response).await.unwrap();
    /// #     response
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let client = Server::new("who", "1.0.0").tools(tools![whoami]).test_client()?;
    /// assert_eq!(client.call("whoami", json!({})).await?.text(), Some("nobody"));
    ///
    /// let http = Server::new("who", "1.0.0")
    ///     .tools(tools![whoami])
    ///     .bearer_auth(|token| async move { (token == "secret").then(|| Principal::new("ada")) })
    ///     .bind_http("127.0.0.1:0")
    ///     .await?;
    /// let addr = http.local_addr();
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(http.run_until(async { stopped.await.ok(); }));
    ///
    /// // `call_whoami` posts a `tools/call` of `whoami` with `Authorization: Bearer {token}`.
    /// assert!(call_whoami(addr, "secret").await.contains(r#"{"type":"text","text":"ada"}"#));
    /// assert!(call_whoami(addr, "guess").await.starts_with("HTTP/1.1 401"));
    ///
    /// stop.send(()).ok();
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub fn principal(&self) -> Option<&Principal> {
        self.inner.principal.as_deref()
    }

    /// Whether object and array arguments may arrive as JSON text (`Server::lenient_arguments`).
    pub(crate) fn lenient_arguments(&self) -> bool {
        self.inner.info.lenient_arguments
    }

    /// A service the framework lends tools (the tool registry, say), by type.
    pub(crate) fn service<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.inner.services.get::<T>()
    }

    /// Adds shared state, as `Server::state` does, for calling tools outside a server (in
    /// unit tests, say).
    ///
    /// ```
    /// use mcp_toolkit::{Context, State};
    /// use mcp_toolkit::FromContext;
    ///
    /// let cx = Context::default().with_state(42_u32);
    /// let answer = State::<u32>::from_context(&cx).unwrap();
    /// assert_eq!(*answer, 42);
    /// ```
    pub fn with_state<T: Send + Sync + 'static>(mut self, value: T) -> Context {
        let inner = Arc::make_mut(&mut self.inner);
        inner.state.insert(value);
        self
    }

    /// The JSON-RPC id of the request; `None` outside a server.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Gives the id of its own request.
    /// #[tool]
    /// fn my_id(cx: Context) -> String {
    ///     cx.request_id().map_or("none".into(), |id| id.to_string())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("ids", "1.0.0").tools(tools![my_id]).test_client()?;
    /// assert_eq!(client.call("my_id", json!({})).await?.text(), Some("1"));
    /// assert_eq!(client.call("my_id", json!({})).await?.text(), Some("2"));
    /// assert!(Context::default().request_id().is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.info.request_id.as_ref()
    }

    /// The protocol revision of the request; `None` outside a server. A tool rarely needs
    /// it: the server shapes results for each revision.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// Tells whether the client sees structured output.
    /// #[tool]
    /// fn structured(cx: Context) -> bool {
    ///     cx.protocol_version().is_some_and(|v| v.has_structured_output())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = || Server::new("versions", "1.0.0").tools(tools![structured]);
    /// let modern = server().test_client()?;
    /// assert_eq!(modern.call("structured", json!({})).await?.text(), Some("true"));
    /// let oldest = server().test_client_legacy(ProtocolVersion::V2024_11_05).await?;
    /// assert_eq!(oldest.call("structured", json!({})).await?.text(), Some("false"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.inner.info.protocol_version
    }

    /// The client's self-reported name and version, when it gave them (`clientInfo`). Never
    /// base security decisions on it.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Greets the client by name.
    /// #[tool]
    /// fn greet(cx: Context) -> String {
    ///     match cx.client_info() {
    ///         Some(client) => format!("hello, {} {}", client.name, client.version),
    ///         None => "hello, stranger".into(),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("greeter", "1.0.0").tools(tools![greet]).test_client()?;
    /// let greeting = client.call("greet", json!({})).await?;
    /// assert!(greeting.text().unwrap().starts_with("hello, mcp-toolkit-client "));
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.info.client_info.as_deref()
    }

    /// The capabilities the client declared, as JSON (`{}` for none); `None` outside a
    /// server.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Tells whether the client can answer sampling requests.
    /// #[tool]
    /// fn can_sample(cx: Context) -> bool {
    ///     cx.client_capabilities().is_some_and(|c| c.get("sampling").is_some())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("caps", "1.0.0").tools(tools![can_sample]).test_client()?;
    /// assert_eq!(client.call("can_sample", json!({})).await?.text(), Some("false")); // it declares `{}`
    /// assert!(Context::default().client_capabilities().is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_capabilities(&self) -> Option<&Value> {
        self.inner.info.client_capabilities.as_deref()
    }

    /// Whether the client renders [MCP Apps](crate::app) views: it declares the extension
    /// `io.modelcontextprotocol/ui` with the MIME type `text/html;profile=mcp-app`, in
    /// `initialize` (2024-11-05 to 2025-11-25) or in this request's `_meta` (2026-07-28).
    /// A tool linked to a view answers every client with text all the same; this tells it
    /// whether a shorter text will do, because the view shows the rest.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Lists the notes; shown on a board in hosts that render apps.
    /// #[tool]
    /// fn list_notes(cx: Context) -> String {
    ///     if cx.client_supports_apps() { "3 notes, on the board".into() } else { "- milk\n- eggs\n- bread".into() }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("notes", "1.0.0").tools(tools![list_notes]).test_client()?;
    /// assert_eq!(client.call("list_notes", json!({})).await?.text(), Some("- milk\n- eggs\n- bread"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_supports_apps(&self) -> bool {
        self.client_capabilities()
            .and_then(|capabilities| capabilities.get("extensions"))
            .and_then(|extensions| extensions.get(mcp_toolkit_core::app::EXTENSION))
            .and_then(|ui| ui.get("mimeTypes"))
            .and_then(Value::as_array)
            .is_some_and(|types| {
                types
                    .iter()
                    .any(|t| t.as_str() == Some(mcp_toolkit_core::app::MIME_TYPE))
            })
    }

    /// Whether the client asked for progress on this request (sent a `progressToken`), for a
    /// tool that would otherwise do work only to report it.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Tells whether progress was asked for.
    /// #[tool]
    /// fn asked(cx: Context) -> bool {
    ///     cx.wants_progress()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("progress", "1.0.0").tools(tools![asked]).test_client()?;
    /// assert_eq!(client.call("asked", json!({})).await?.text(), Some("false"));
    /// assert_eq!(client.call_with_progress("asked", json!({})).await?.text(), Some("true"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn wants_progress(&self) -> bool {
        self.inner.info.progress_token.is_some() && self.inner.client.is_some()
    }

    /// Reports progress as `notifications/progress`, if the client asked for it; otherwise
    /// does nothing. `progress` should grow with every call; `total` is `None` when unknown;
    /// `message` says what is happening.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Copies the files.
    /// #[tool]
    /// async fn copy(files: Vec<String>, cx: Context) -> String {
    ///     let total = files.len() as f64;
    ///     for (done, file) in files.iter().enumerate() {
    ///         cx.report_progress(done as f64 + 1.0, Some(total), Some(&format!("copied {file}")));
    ///     }
    ///     format!("copied {total} files")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("copier", "1.0.0").tools(tools![copy]).test_client()?;
    /// let result = client.call_with_progress("copy", json!({"files": ["a.txt", "b.txt"]})).await?;
    /// let last = &result.notifications()[1];
    /// assert_eq!(last["method"], "notifications/progress");
    /// assert_eq!(last["params"]["progress"], 2.0);
    /// assert_eq!(last["params"]["total"], 2.0);
    /// assert_eq!(last["params"]["message"], "copied b.txt");
    ///
    /// let quiet = client.call("copy", json!({"files": ["a.txt"]})).await?; // no progressToken
    /// assert!(quiet.notifications().is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let (Some(token), Some(client)) = (&self.inner.info.progress_token, &self.inner.client) else {
            return;
        };
        self.inner.last_progress.set(progress, total);
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        if let Some(message) = message {
            params["message"] = json!(message);
        }
        client.notify(Notification {
            method: "notifications/progress",
            params,
        });
    }

    /// Whether a log message of this level reaches the client: it asked for this level or a
    /// less severe one. Check it before building a message that is costly to make.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, protocol::LoggingLevel};
    /// use serde_json::json;
    ///
    /// /// Tells whether debug messages reach the client.
    /// #[tool]
    /// fn debugging(cx: Context) -> bool {
    ///     cx.logs_at(LoggingLevel::Debug)
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("logs", "1.0.0").tools(tools![debugging]).test_client()?;
    /// assert_eq!(client.call("debugging", json!({})).await?.text(), Some("false")); // no level asked for
    /// client.set_log_level(LoggingLevel::Info).await?;
    /// assert_eq!(client.call("debugging", json!({})).await?.text(), Some("false"));
    /// client.set_log_level(LoggingLevel::Debug).await?;
    /// assert_eq!(client.call("debugging", json!({})).await?.text(), Some("true"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn logs_at(&self, level: LoggingLevel) -> bool {
        self.inner.client.is_some() && self.inner.info.log_level.is_some_and(|min| level >= min)
    }

    /// Sends a log message (`notifications/message`) to the client, if it asked for messages
    /// of this level; otherwise does nothing. `data` is any JSON, usually a string.
    /// [`debug`](Context::debug), [`info`](Context::info), [`warning`](Context::warning) and
    /// [`error`](Context::error) are the common levels.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, protocol::LoggingLevel};
    /// use serde_json::json;
    ///
    /// /// Imports rows, saying what it does.
    /// #[tool]
    /// async fn import(cx: Context) -> &'static str {
    ///     cx.debug("opened the file");
    ///     cx.info("importing 3 rows");
    ///     cx.warning("row 2 has no date; using today");
    ///     cx.error("row 3 is not valid CSV; skipped");
    ///     cx.log(LoggingLevel::Notice, json!({"imported": 2, "skipped": 1}));
    ///     "imported 2 rows"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("importer", "1.0.0").tools(tools![import]).test_client()?;
    /// client.set_log_level(LoggingLevel::Info).await?; // info and more severe
    /// let result = client.call("import", json!({})).await?;
    /// let sent: Vec<&serde_json::Value> = result.notifications().iter().map(|n| &n["params"]).collect();
    /// assert_eq!(sent, [
    ///     &json!({"level": "info", "data": "importing 3 rows"}),
    ///     &json!({"level": "warning", "data": "row 2 has no date; using today"}),
    ///     &json!({"level": "error", "data": "row 3 is not valid CSV; skipped"}),
    ///     &json!({"level": "notice", "data": {"imported": 2, "skipped": 1}}),
    /// ]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn log(&self, level: LoggingLevel, data: impl Into<Value>) {
        if !self.logs_at(level) {
            return;
        }
        if let Some(client) = &self.inner.client {
            client.notify(Notification {
                method: "notifications/message",
                params: json!({ "level": level, "data": data.into() }),
            });
        }
    }

    /// Logs at [`LoggingLevel::Debug`]: `cx.debug(m)` is `cx.log(LoggingLevel::Debug, m)`.
    /// The example on [`Context::log`] calls it.
    pub fn debug(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Debug, message);
    }

    /// Logs at [`LoggingLevel::Info`]: `cx.info(m)` is `cx.log(LoggingLevel::Info, m)`.
    /// The example on [`Context::log`] calls it.
    pub fn info(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Info, message);
    }

    /// Logs at [`LoggingLevel::Warning`]: `cx.warning(m)` is `cx.log(LoggingLevel::Warning, m)`.
    /// The example on [`Context::log`] calls it.
    pub fn warning(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Warning, message);
    }

    /// Logs at [`LoggingLevel::Error`]: `cx.error(m)` is `cx.log(LoggingLevel::Error, m)`.
    /// The example on [`Context::log`] calls it.
    pub fn error(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Error, message);
    }

    /// Whether the client cancelled the request (`notifications/cancelled`, or on HTTP a
    /// client that went away). A cancelled call gets no response, and an `async fn` tool is
    /// stopped where it waits; a sync tool's thread cannot be stopped, so a long sync tool
    /// checks this between steps.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, State};
    /// use serde_json::json;
    /// use tokio::sync::mpsc::UnboundedSender;
    ///
    /// /// Scans until it is cancelled, then says how it ended.
    /// #[tool]
    /// fn scan(cx: Context, report: State<UnboundedSender<&'static str>>) -> &'static str {
    ///     while !cx.is_cancelled() {
    ///         std::thread::sleep(std::time::Duration::from_millis(1));
    ///     }
    ///     report.send("stopped").ok();
    ///     "stopped"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let (report, mut reports) = tokio::sync::mpsc::unbounded_channel();
    /// let client = Server::new("scanner", "1.0.0").tools(tools![scan]).state(report).test_client()?;
    /// let call = tokio::spawn(async move { client.call("scan", json!({})).await });
    /// tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    /// call.abort(); // drops the client, which cancels its calls in flight
    /// assert_eq!(reports.recv().await, Some("stopped"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Completes when the client cancels the request. The tool's own future is dropped on
    /// cancellation, so this is for work it handed to a task of its own (`tokio::spawn`),
    /// which would otherwise run on.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, State};
    /// use serde_json::json;
    /// use tokio::sync::mpsc::UnboundedSender;
    ///
    /// /// Starts a job that runs until the call is cancelled.
    /// #[tool]
    /// async fn watch(cx: Context, report: State<UnboundedSender<&'static str>>) -> &'static str {
    ///     tokio::spawn(async move {
    ///         cx.cancelled().await;
    ///         report.send("job stopped").ok();
    ///     });
    ///     std::future::pending().await
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let (report, mut reports) = tokio::sync::mpsc::unbounded_channel();
    /// let client = Server::new("watcher", "1.0.0").tools(tools![watch]).state(report).test_client()?;
    /// let call = tokio::spawn(async move { client.call("watch", json!({})).await });
    /// tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    /// call.abort(); // drops the client, which cancels its calls in flight
    /// assert_eq!(reports.recv().await, Some("job stopped"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn cancelled(&self) {
        self.inner.cancellation.cancelled().await;
    }

    /// The token a cancellation of the call sets.
    pub(crate) fn cancellation(&self) -> &CancellationToken {
        &self.inner.cancellation
    }

    /// Says how far the call has got. In a task it is the `statusMessage` a client reads
    /// with `tasks/get` (and hears in `notifications/tasks`) while the tool works; only the
    /// latest message counts. In a call that is not a task, the message goes out as
    /// `notifications/progress` when the client asked for progress (sent a
    /// `progressToken`), with the figures of the last
    /// [`report_progress`](Context::report_progress) (`progress` 0 before any), so a client
    /// without the tasks extension hears it too; otherwise it goes nowhere.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// /// Builds the monthly report; takes a while.
    /// #[tool(task)]
    /// async fn build_report(ctx: Context, month: String) -> Result<String, ToolError> {
    ///     for step in 1..=2 {
    ///         ctx.report_progress(f64::from(step - 1), Some(2.0), None);
    ///         ctx.set_status(format!("step {step} of 2"));
    ///         tokio::time::sleep(Duration::from_millis(10)).await;
    ///     }
    ///     Ok(format!("report for {month}"))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// // A client without the tasks extension that asked for progress hears each step.
    /// let client = Server::new("reports", "1.0.0").tools(tools![build_report]).test_client()?;
    /// let result = client.call_with_progress("build_report", json!({"month": "May"})).await?;
    /// let last = &result.notifications()[3]["params"];
    /// assert_eq!((&last["progress"], &last["total"]), (&json!(1.0), &json!(2.0)));
    /// assert_eq!(last["message"], "step 2 of 2");
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_status(&self, message: impl Into<String>) {
        let Some(client) = &self.inner.client else {
            return;
        };
        let message = message.into();
        if let Some(token) = &self.inner.info.progress_token {
            // A task sends no notifications: there the message is the task's status alone.
            let (progress, total) = self.inner.last_progress.get();
            let mut params = json!({ "progressToken": token, "progress": progress });
            if let Some(total) = total {
                params["total"] = json!(total);
            }
            params["message"] = json!(message);
            client.notify(Notification {
                method: "notifications/progress",
                params,
            });
        }
        client.set_status(message);
    }

    /// Sends a request of the server's own to the client that made this call, and waits for
    /// its answer: the JSON `result`, or a [`ClientRequestError`] saying why there is none.
    ///
    /// This is the low-level way, with no capability check and no typed answer:
    /// [`elicit`](Context::elicit), [`sample`](Context::sample) and
    /// [`list_roots`](Context::list_roots) are the usual ones. In the `initialize`-era
    /// revisions (2024-11-05 to 2025-11-25) the request goes out on standard output (over
    /// stdio) or on the call's event stream (over HTTP), and the answer comes back as a
    /// message of its own. In revision 2026-07-28 it becomes an input request of the call's
    /// `input_required` result, and the answer arrives when the client calls again (see
    /// [`elicit`](Context::elicit) for what that means for the tool's code). If the call
    /// ends first (cancelled, timed out, the client gone), the request is abandoned and a
    /// late answer is dropped.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, ask::ClientRequestError, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Counts the client's roots.
    /// #[tool]
    /// async fn count_roots(cx: Context) -> Result<String, ClientRequestError> {
    ///     let result = cx.send_request("roots/list", json!({})).await?;
    ///     Ok(format!("{} roots", result["roots"].as_array().map_or(0, Vec::len)))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("roots", "1.0.0")
    ///     .tools(tools![count_roots])
    ///     .test_client()?
    ///     .with_roots([("file:///home/ada/src", "src")]);
    /// assert_eq!(client.call("count_roots", json!({})).await?.text(), Some("1 roots"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send_request(&self, method: &str, params: Value) -> Result<Value, ClientRequestError> {
        self.request_keyed(method, params, None, any_result).await
    }

    /// [`send_request`](Context::send_request) under a key of the tool's choosing for
    /// revision 2026-07-28's input requests, whose answers must pass `check` there.
    pub(crate) async fn request_keyed(
        &self,
        method: &str,
        params: Value,
        key: Option<&str>,
        check: Check,
    ) -> Result<Value, ClientRequestError> {
        let Some(client) = &self.inner.client else {
            return Err(ClientRequestError::NoClient);
        };
        tokio::select! {
            answer = client.request(method, params, key, check) => answer,
            () = self.inner.cancellation.cancelled() => Err(ClientRequestError::CallEnded),
        }
    }

    /// Sends a custom notification to the client, an extension's (SEP-3371): `method` is
    /// `vendor/name` and none of the protocol's own. Like progress and log messages, it goes
    /// on the call's way out while the call runs (nothing once it is cancelled, or runs as
    /// a task). A name that breaks the rule is an error, and nothing is sent.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Imports the notes, announcing each.
    /// #[tool]
    /// fn import(cx: Context) -> Result<&'static str, ToolError> {
    ///     cx.notify("com.example/imported", json!({"note": "milk"}))?;
    ///     assert!(cx.notify("notifications/progress", json!({})).is_err());
    ///     Ok("done")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("notes", "1.0.0").tools(tools![import]).test_client()?;
    /// let result = client.call("import", json!({})).await?;
    /// assert_eq!(result.notifications()[0]["method"], "com.example/imported");
    /// assert_eq!(result.notifications()[0]["params"], json!({"note": "milk"}));
    /// # Ok(())
    /// # }
    /// ```
    pub fn notify(&self, method: &str, params: Value) -> Result<(), ToolError> {
        mcp_toolkit_core::method::check(method)
            .map_err(|error| ToolError::internal(format!("cannot send a notification: method {error}")))?;
        if let Some(client) = &self.inner.client {
            client.notify_custom(method, params);
        }
        Ok(())
    }

    /// The shared state of type `T` given to the server, if any: for a tool that works
    /// with or without it. A `State<T>` parameter is the usual way, and makes the server
    /// refuse to start without the state.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// The greeting, set by the server or the default.
    /// struct Greeting {
    ///     text: &'static str,
    /// }
    ///
    /// /// Greets.
    /// #[tool]
    /// fn greet(cx: Context) -> &'static str {
    ///     cx.state::<Greeting>().map_or("hello", |greeting| greeting.text)
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let plain = Server::new("greeter", "1.0.0").tools(tools![greet]).test_client()?;
    /// assert_eq!(plain.call("greet", json!({})).await?.text(), Some("hello"));
    ///
    /// let french = Server::new("greeter", "1.0.0").tools(tools![greet]).state(Greeting { text: "bonjour" });
    /// assert_eq!(french.test_client()?.call("greet", json!({})).await?.text(), Some("bonjour"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.inner.state.get::<T>().map(State)
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.info.request_id)
            .field("protocol_version", &self.inner.info.protocol_version)
            .field("client_info", &self.inner.info.client_info)
            .field("progress_token", &self.inner.info.progress_token)
            .field("log_level", &self.inner.info.log_level)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// Who is calling: what a server's bearer-token check
/// (`Server::bearer_auth` (feature `http`)) found the token to stand for. Tools
/// read it with [`Context::principal`].
///
/// ```
/// use mcp_toolkit::auth::Principal;
/// let ada = Principal::new("ada").with_scopes(["notes:read"]);
/// assert!(ada.has_scope("notes:read") && !ada.has_scope("notes:write"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Principal {
    /// Who the token was issued to.
    pub subject: String,
    /// What the token allows.
    pub scopes: Vec<String>,
    /// Anything else the check wants tools to see.
    pub claims: Value,
}

impl Principal {
    /// A principal with no scopes or claims.
    ///
    /// ```
    /// use mcp_toolkit::auth::Principal;
    ///
    /// let ada = Principal::new("ada");
    /// assert_eq!(ada.subject, "ada");
    /// assert!(ada.scopes.is_empty() && ada.claims.is_null());
    /// ```
    pub fn new(subject: impl Into<String>) -> Principal {
        Principal {
            subject: subject.into(),
            scopes: Vec::new(),
            claims: Value::Null,
        }
    }

    /// Sets the scopes, replacing any set before.
    ///
    /// ```
    /// use mcp_toolkit::auth::Principal;
    ///
    /// let ada = Principal::new("ada").with_scopes(["notes:read", "notes:write"]);
    /// assert_eq!(ada.scopes, ["notes:read", "notes:write"]);
    /// ```
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Principal {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the claims: anything else the token check found that tools should see.
    ///
    /// ```
    /// use mcp_toolkit::auth::Principal;
    /// use serde_json::json;
    ///
    /// let ada = Principal::new("ada").with_claims(json!({"org": "analytical-engines"}));
    /// assert_eq!(ada.claims["org"], "analytical-engines");
    /// ```
    pub fn with_claims(mut self, claims: Value) -> Principal {
        self.claims = claims;
        self
    }

    /// Whether the token allows `scope`, compared exactly.
    ///
    /// ```
    /// use mcp_toolkit::auth::Principal;
    ///
    /// let ada = Principal::new("ada").with_scopes(["notes:read"]);
    /// assert!(ada.has_scope("notes:read"));
    /// assert!(!ada.has_scope("notes:write"));
    /// assert!(!ada.has_scope("notes"));
    /// ```
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// Shared state given to the server, borrowed by a tool that names a `State<T>` parameter.
///
/// ```
/// use mcp_toolkit::{tool, State};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// struct Counter {
///     hits: AtomicU64,
/// }
///
/// /// Counts the calls made so far.
/// #[tool]
/// fn hits(counter: State<Counter>) -> u64 {
///     counter.hits.fetch_add(1, Ordering::Relaxed) + 1
/// }
/// ```
pub struct State<T: ?Sized>(pub Arc<T>);

impl<T: ?Sized> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&&*self.0).finish()
    }
}

/// A parameter type the framework fills in from the request instead of from the client's
/// arguments. [`Context`] and [`State<T>`] implement it; implement it for your own types to
/// inject them too. Injected parameters never appear in a tool's input schema.
///
/// ```
/// use mcp_toolkit::{tool, Context, FromContext};
/// use std::convert::Infallible;
///
/// /// The name of the calling client.
/// struct ClientName(String);
///
/// impl FromContext for ClientName {
///     type Rejection = Infallible;
///
///     fn from_context(cx: &Context) -> Result<Self, Infallible> {
///         Ok(ClientName(cx.client_info().map_or("unknown".into(), |c| c.name.clone())))
///     }
/// }
///
/// /// Greets the client.
/// #[tool]
/// fn greet(client: ClientName) -> String {
///     format!("hello, {}", client.0)
/// }
/// ```
///
/// A type that reads shared state says which in [`required_state`](FromContext::required_state),
/// so that a server lacking it refuses to start, as it does for a `State<T>` parameter:
///
/// ```
/// use mcp_toolkit::{tool, tools, Context, Error, FromContext, RequiredState, Server, State, ToolError};
/// use mcp_toolkit::testing::ClientError;
/// use std::collections::HashMap;
///
/// /// The signed-in users' names, by the subject their token was issued to.
/// struct Sessions {
///     users: HashMap<String, String>,
/// }
///
/// /// The user who called, from the sessions the server holds.
/// struct User(String);
///
/// impl FromContext for User {
///     type Rejection = ToolError;
///
///     fn from_context(cx: &Context) -> Result<Self, ToolError> {
///         let sessions = State::<Sessions>::from_context(cx)?;
///         let subject = cx.principal().map_or("", |caller| caller.subject.as_str());
///         match sessions.users.get(subject) {
///             Some(name) => Ok(User(name.clone())),
///             None => Err(ToolError::new("sign in first")),
///         }
///     }
///
///     fn required_state() -> RequiredState {
///         RequiredState::of::<Sessions>()
///     }
/// }
///
/// /// Says who you are.
/// #[tool]
/// fn whoami(user: User) -> String {
///     user.0
/// }
///
/// let error = Server::new("users", "1.0.0").tools(tools![whoami]).test_client().unwrap_err();
/// assert!(matches!(error, ClientError::Server(Error::MissingState { .. })));
///
/// let sessions = Sessions { users: HashMap::new() };
/// assert!(Server::new("users", "1.0.0").tools(tools![whoami]).state(sessions).test_client().is_ok());
/// ```
pub trait FromContext: Sized + Send + 'static {
    /// Why the value could not be extracted: it fails the call as the [`ToolError`] it
    /// becomes. [`Infallible`](std::convert::Infallible) for a value that is always there.
    type Rejection: Into<ToolError>;

    /// Extracts the value; an error fails the call.
    fn from_context(cx: &Context) -> Result<Self, Self::Rejection>;

    /// The shared state [`from_context`](FromContext::from_context) reads: a server given a
    /// tool, prompt, resource or completion fn that takes this type, but not this state,
    /// refuses to start with [`Error::MissingState`](crate::Error::MissingState) rather than
    /// fail every call. `State<T>` says `T`; the default says none. A type that reads state
    /// returns it, [`RequiredState::of`] each type, or the `required_state` of the types it
    /// is made of.
    fn required_state() -> RequiredState {
        RequiredState::default()
    }
}

impl FromContext for Context {
    type Rejection = std::convert::Infallible;

    fn from_context(cx: &Context) -> Result<Self, Self::Rejection> {
        Ok(cx.clone())
    }
}

impl<T: Send + Sync + 'static> FromContext for State<T> {
    type Rejection = ToolError;

    fn from_context(cx: &Context) -> Result<Self, Self::Rejection> {
        cx.state::<T>().ok_or_else(|| {
            tracing::error!(
                state = std::any::type_name::<T>(),
                "a tool needs state the server was not given"
            );
            ToolError::new("internal error")
        })
    }

    /// `T`.
    fn required_state() -> RequiredState {
        RequiredState::of::<T>()
    }
}

/// The types of shared state an injected parameter reads, which the server must hold
/// (given with `Server::state`) to start: what [`FromContext::required_state`] returns.
///
/// ```
/// use mcp_toolkit::{FromContext, RequiredState, State};
///
/// struct Pool;
/// struct Cache;
///
/// let both = RequiredState::of::<Pool>().and(State::<Cache>::required_state());
/// assert_eq!(both, RequiredState::of::<Pool>().and(RequiredState::of::<Cache>()).and(RequiredState::of::<Pool>()));
/// assert!(format!("{both:?}").ends_with("Cache\"])"));
/// assert_ne!(both, RequiredState::default());
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RequiredState {
    /// Each type once, in the order named.
    keys: Vec<StateKey>,
}

impl RequiredState {
    /// State of type `T`: the `T` of a `State<T>`.
    pub fn of<T: Send + Sync + 'static>() -> RequiredState {
        RequiredState {
            keys: vec![StateKey::of::<T>()],
        }
    }

    /// This state and `other`'s, each type once.
    pub fn and(mut self, other: RequiredState) -> RequiredState {
        for key in other.keys {
            if !self.keys.contains(&key) {
                self.keys.push(key);
            }
        }
        self
    }

    /// The types, in the order named.
    pub(crate) fn into_keys(self) -> Vec<StateKey> {
        self.keys
    }
}

impl fmt::Debug for RequiredState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RequiredState")
            .field(&self.keys.iter().map(StateKey::type_name).collect::<Vec<_>>())
            .finish()
    }
}

/// Identifies a type of shared state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateKey {
    pub(crate) id: TypeId,
    pub(crate) type_name: &'static str,
}

impl StateKey {
    fn of<T: 'static>() -> StateKey {
        StateKey {
            id: TypeId::of::<T>(),
            type_name: std::any::type_name::<T>(),
        }
    }

    /// The Rust type's name, for error messages.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

/// Shared state by type, cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct StateMap {
    map: Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
    /// The types held, by name, in the order given: for the error that names them.
    names: Arc<Vec<&'static str>>,
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        let replaced = Arc::make_mut(&mut self.map).insert(TypeId::of::<T>(), Arc::new(value));
        if replaced.is_none() {
            Arc::make_mut(&mut self.names).push(std::any::type_name::<T>());
        }
    }

    /// The names of the types held, in the order they were given.
    pub(crate) fn type_names(&self) -> &[&'static str] {
        &self.names
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.map
            .get(&TypeId::of::<T>())
            .and_then(|v| Arc::clone(v).downcast::<T>().ok())
    }

    pub(crate) fn contains(&self, key: &StateKey) -> bool {
        self.map.contains_key(&key.id)
    }
}
