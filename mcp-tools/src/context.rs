//! What a tool can know about the request that called it, and what it can send back while it
//! runs: [`Context`], shared [`State`], and the [`FromContext`] trait behind both.

use crate::ToolError;
use crate::protocol::{Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId};
use crate::registry::ToolRegistry;
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
/// type is what counts). It never appears in the tool's input schema.
///
/// ```
/// use mcp_tools::{tool, Context};
///
/// /// Counts slowly to `n`, reporting progress.
/// #[tool]
/// async fn count(n: u32, cx: Context) -> String {
///     for i in 1..=n {
///         if cx.is_cancelled() {
///             return "cancelled".into();
///         }
///         cx.report_progress(f64::from(i), Some(f64::from(n)), None);
///     }
///     format!("counted to {n}")
/// }
/// ```
#[derive(Clone, Default)]
pub struct Context {
    inner: Arc<Inner>,
}

#[derive(Clone, Default)]
struct Inner {
    request_id: Option<RequestId>,
    protocol_version: Option<ProtocolVersion>,
    client_info: Option<Arc<Implementation>>,
    client_capabilities: Option<Arc<Value>>,
    progress_token: Option<ProgressToken>,
    log_level: Option<LoggingLevel>,
    lenient_arguments: bool,
    cancellation: CancellationToken,
    notifier: Option<Notifier>,
    state: StateMap,
    registry: Option<ToolRegistry>,
    principal: Option<Arc<Principal>>,
}

/// Where a tool's notifications go: the transport's outgoing stream for this request.
pub(crate) type Notifier = Arc<dyn Fn(Notification) + Send + Sync>;

/// A notification a tool sends while it runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Notification {
    pub(crate) method: &'static str,
    pub(crate) params: Value,
}

/// What the engine knows of a request when it builds its [`Context`].
#[derive(Default)]
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

impl Context {
    pub(crate) fn new(
        info: RequestInfo,
        cancellation: CancellationToken,
        notifier: Option<Notifier>,
        state: StateMap,
        registry: Option<ToolRegistry>,
        principal: Option<Arc<Principal>>,
    ) -> Context {
        Context {
            inner: Arc::new(Inner {
                request_id: info.request_id,
                protocol_version: info.protocol_version,
                client_info: info.client_info,
                client_capabilities: info.client_capabilities,
                progress_token: info.progress_token,
                log_level: info.log_level,
                lenient_arguments: info.lenient_arguments,
                cancellation,
                notifier,
                state,
                registry,
                principal,
            }),
        }
    }

    /// Who is calling, when the transport checks a bearer token (see
    /// `Server::bearer_auth`); `None` on stdio or without a check.
    pub fn principal(&self) -> Option<&Principal> {
        self.inner.principal.as_deref()
    }

    /// Whether object and array arguments may arrive as JSON text (`Server::lenient_arguments`).
    pub(crate) fn lenient_arguments(&self) -> bool {
        self.inner.lenient_arguments
    }

    /// The registry of the server serving the call.
    pub(crate) fn registry(&self) -> Option<&ToolRegistry> {
        self.inner.registry.as_ref()
    }

    /// A context for calling a server's tools outside any request (the `call` command).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn for_engine(engine: &crate::engine::Engine) -> Context {
        Context::new(
            RequestInfo {
                protocol_version: Some(ProtocolVersion::LATEST),
                ..RequestInfo::default()
            },
            CancellationToken::new(),
            None,
            engine.state.clone(),
            Some(engine.registry.clone()),
            None,
        )
    }

    /// Adds shared state, as `Server::state` does, for calling tools outside a server (in
    /// unit tests, say).
    ///
    /// ```
    /// use mcp_tools::{Context, State};
    /// use mcp_tools::FromContext;
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
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.request_id.as_ref()
    }

    /// The protocol revision of the request; `None` outside a server.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.inner.protocol_version
    }

    /// The client's self-reported name and version, when it gave them. Never base security
    /// decisions on it.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.client_info.as_deref()
    }

    /// The capabilities the client declared, as JSON.
    pub fn client_capabilities(&self) -> Option<&Value> {
        self.inner.client_capabilities.as_deref()
    }

    /// Whether the client asked for progress on this request (sent a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some() && self.inner.notifier.is_some()
    }

    /// Reports progress as `notifications/progress`, if the client asked for it; otherwise
    /// does nothing. `progress` should grow with every call; `total` is `None` when unknown.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let (Some(token), Some(notifier)) = (&self.inner.progress_token, &self.inner.notifier) else {
            return;
        };
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        if let Some(message) = message {
            params["message"] = json!(message);
        }
        notifier(Notification {
            method: "notifications/progress",
            params,
        });
    }

    /// Whether a log message of this level reaches the client: it asked for this level or a
    /// less severe one.
    pub fn logs_at(&self, level: LoggingLevel) -> bool {
        self.inner.notifier.is_some() && self.inner.log_level.is_some_and(|min| level >= min)
    }

    /// Sends a log message (`notifications/message`) to the client, if it asked for messages
    /// of this level; otherwise does nothing. `data` is any JSON, usually a string.
    pub fn log(&self, level: LoggingLevel, data: impl Into<Value>) {
        if !self.logs_at(level) {
            return;
        }
        if let Some(notifier) = &self.inner.notifier {
            notifier(Notification {
                method: "notifications/message",
                params: json!({ "level": level, "data": data.into() }),
            });
        }
    }

    /// Logs at [`LoggingLevel::Debug`].
    pub fn debug(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Debug, message);
    }

    /// Logs at [`LoggingLevel::Info`].
    pub fn info(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Info, message);
    }

    /// Logs at [`LoggingLevel::Warning`].
    pub fn warning(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Warning, message);
    }

    /// Logs at [`LoggingLevel::Error`].
    pub fn error(&self, message: impl Into<Value>) {
        self.log(LoggingLevel::Error, message);
    }

    /// Whether the client cancelled the request. A long tool checks it between steps.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Completes when the client cancels the request; use it in `tokio::select!`.
    pub async fn cancelled(&self) {
        self.inner.cancellation.cancelled().await;
    }

    /// The shared state of type `T` given to the server, if any.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.inner.state.get::<T>().map(State)
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.request_id)
            .field("protocol_version", &self.inner.protocol_version)
            .field("client_info", &self.inner.client_info)
            .field("progress_token", &self.inner.progress_token)
            .field("log_level", &self.inner.log_level)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// Who is calling: what a server's bearer-token check (`Server::bearer_auth`) found the
/// token to stand for.
///
/// ```
/// use mcp_tools::Principal;
/// let ada = Principal::new("ada").with_scopes(["notes:read"]);
/// assert!(ada.has_scope("notes:read") && !ada.has_scope("notes:write"));
/// ```
#[derive(Debug, Clone, PartialEq)]
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
    pub fn new(subject: impl Into<String>) -> Principal {
        Principal {
            subject: subject.into(),
            scopes: Vec::new(),
            claims: Value::Null,
        }
    }

    /// Sets the scopes.
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Principal {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the claims.
    pub fn with_claims(mut self, claims: Value) -> Principal {
        self.claims = claims;
        self
    }

    /// Whether the token allows `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// Shared state given to the server, borrowed by a tool that names a `State<T>` parameter.
///
/// ```
/// use mcp_tools::{tool, State};
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
/// use mcp_tools::{tool, Context, FromContext, ToolError};
///
/// /// The name of the calling client.
/// struct ClientName(String);
///
/// impl FromContext for ClientName {
///     fn from_context(cx: &Context) -> Result<Self, ToolError> {
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
pub trait FromContext: Sized + Send + 'static {
    /// Extracts the value; an error fails the call with its message.
    fn from_context(cx: &Context) -> Result<Self, ToolError>;

    /// The shared state this type needs, so a server can refuse to start without it.
    #[doc(hidden)]
    fn __required_state() -> Option<StateKey> {
        None
    }
}

impl FromContext for Context {
    fn from_context(cx: &Context) -> Result<Self, ToolError> {
        Ok(cx.clone())
    }
}

impl<T: Send + Sync + 'static> FromContext for State<T> {
    fn from_context(cx: &Context) -> Result<Self, ToolError> {
        cx.state::<T>().ok_or_else(|| {
            tracing::error!(
                state = std::any::type_name::<T>(),
                "a tool needs state the server was not given"
            );
            ToolError::new("internal error")
        })
    }

    fn __required_state() -> Option<StateKey> {
        Some(StateKey::of::<T>())
    }
}

/// Identifies a type of shared state.
#[doc(hidden)]
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
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        Arc::make_mut(&mut self.map).insert(TypeId::of::<T>(), Arc::new(value));
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
