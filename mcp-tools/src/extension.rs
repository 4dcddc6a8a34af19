//! Extensions (SEP-3371): what a server declares beyond the core protocol, and the custom
//! methods it serves for them.
//!
//! An [`Extension`] has an id (`vendor/name`), settings (a JSON object) and the ids of the
//! extensions it depends on. [`Server::extension`](crate::Server::extension) declares it in
//! `server/discover` and in the `capabilities.extensions` of revisions that have them
//! (2026-07-28); a duplicate id or a dependency the server does not declare stops the
//! server at start, naming it. The framework's own extensions (tasks, skills) are declared
//! the same way, so an extension may depend on them.
//!
//! [`#[method(name = "vendor/name")]`](macro@crate::method) turns a fn into a custom method
//! ([`Method`]), taking what a `#[tool]` takes: arguments (the request's params, every
//! problem named in one `-32602`) and injected parameters ([`State<T>`](crate::State),
//! [`Context`]). A fn returning `()` handles a notification of that name.
//!
//! ```
//! use mcp_toolkit::extension::Extension;
//! use mcp_toolkit::{method, methods, Json, Server, State, ToolError};
//! use serde_json::json;
//!
//! struct Notes { items: Vec<String> }
//!
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Stats { notes: usize }
//!
//! /// How many notes there are.
//! #[method(name = "notes/stats")]
//! async fn stats(notes: State<Notes>) -> Result<Json<Stats>, ToolError> {
//!     Ok(Json(Stats { notes: notes.items.len() }))
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
//! let client = Server::new("notes", "1.0.0")
//!     .state(Notes { items: vec!["milk".into()] })
//!     .extension(Extension::new("com.example/notes-stats").methods(methods![stats]))
//!     .test_client()?;
//! let discover = client.request("server/discover", json!(null)).await?;
//! assert_eq!(discover["capabilities"]["extensions"]["com.example/notes-stats"], json!({}));
//! let stats = client.request("notes/stats", json!({})).await?;
//! assert_eq!(stats["notes"], 1);
//! # Ok(())
//! # }
//! ```

use crate::context::{Context, StateKey};
use crate::error::ToolError;
use crate::prompt::Work;
use crate::protocol::arguments::RawArguments;
use crate::result::Json;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// An extension a server declares: its id, settings, dependencies and custom methods.
///
/// ```
/// use mcp_toolkit::extension::Extension;
/// use mcp_toolkit::Server;
/// use serde_json::json;
///
/// let server = Server::new("notes", "1.0.0")
///     .extension(Extension::new("com.example/search").settings(json!({"fuzzy": true})))
///     .extension(Extension::new("com.example/notes-stats").depends_on("com.example/search"));
/// assert!(server.test_client().is_ok());
///
/// // A dependency the server does not declare stops it at start, naming both.
/// let error = Server::new("notes", "1.0.0")
///     .extension(Extension::new("com.example/notes-stats").depends_on("com.example/search"))
///     .test_client()
///     .unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "extension `com.example/notes-stats` depends on `com.example/search`, which the server does not declare; declare it with `Server::extension`"
/// );
/// ```
#[derive(Clone)]
pub struct Extension {
    id: String,
    settings: Value,
    depends_on: Vec<String>,
    methods: Vec<Method>,
    gate: Gate,
    /// Declared in `initialize` too (revisions before 2026-07-28 have no `extensions`
    /// capability of their own, but clients of an extension that says so read it there).
    in_initialize: bool,
}

/// When the framework declares one of its own extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Always (every extension a user declares).
    Always,
    /// While the server has a tool that may run as a task (the tasks extension).
    TaskTools,
}

impl Extension {
    /// An extension with this id (`vendor/name`, such as `com.example/notes-stats`), no
    /// settings (`{}`), no dependencies and no methods. An id without a vendor prefix stops
    /// the server at start.
    pub fn new(id: impl Into<String>) -> Extension {
        Extension {
            id: id.into(),
            settings: Value::Object(Map::new()),
            depends_on: Vec::new(),
            methods: Vec::new(),
            gate: Gate::Always,
            in_initialize: false,
        }
    }

    /// The settings declared with the id: a JSON object (anything else stops the server at
    /// start).
    pub fn settings(mut self, settings: Value) -> Extension {
        self.settings = settings;
        self
    }

    /// Adds an extension this one needs; the server must declare it too (or serve it
    /// itself, as it does the tasks and skills extensions).
    pub fn depends_on(mut self, id: impl Into<String>) -> Extension {
        self.depends_on.push(id.into());
        self
    }

    /// Adds custom methods, usually `methods![...]`.
    pub fn methods(mut self, methods: impl IntoIterator<Item = Method>) -> Extension {
        self.methods.extend(methods);
        self
    }

    /// The id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The ids this extension depends on.
    pub(crate) fn dependencies(&self) -> &[String] {
        &self.depends_on
    }

    /// The custom methods.
    pub(crate) fn custom_methods(&self) -> &[Method] {
        &self.methods
    }

    /// One of the framework's own extensions, declared while `gate` holds.
    pub(crate) fn gated(mut self, gate: Gate) -> Extension {
        self.gate = gate;
        self
    }

    pub(crate) fn gate(&self) -> Gate {
        self.gate
    }

    /// One of the framework's own extensions whose clients read it in `initialize` too (MCP
    /// Apps, whose hosts negotiate any revision).
    pub(crate) fn in_initialize(mut self) -> Extension {
        self.in_initialize = true;
        self
    }

    /// What is wrong with the extension's id and settings, if anything.
    pub(crate) fn problem(&self) -> Option<String> {
        match self.id.split_once('/') {
            Some((vendor, name)) if !vendor.is_empty() && !name.is_empty() => {}
            _ => {
                return Some(format!(
                    "extension id `{}` has no vendor prefix; write `vendor/name`, such as `com.example/{}`",
                    self.id,
                    self.id.trim_matches('/')
                ));
            }
        }
        if !self.settings.is_object() {
            return Some(format!(
                "the settings of extension `{}` must be a JSON object, such as `{{\"fuzzy\": true}}`",
                self.id
            ));
        }
        None
    }
}

impl fmt::Debug for Extension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extension")
            .field("id", &self.id)
            .field("settings", &self.settings)
            .field("depends_on", &self.depends_on)
            .field("methods", &self.methods)
            .finish()
    }
}

/// The extensions a server declares (its own among them), and the custom methods they
/// serve by name.
#[derive(Clone, Default)]
pub(crate) struct Extensions {
    declared: Vec<Extension>,
    methods: HashMap<&'static str, Method>,
}

impl Extensions {
    /// The extensions `declared`, in order.
    pub(crate) fn new(declared: Vec<Extension>) -> Extensions {
        let methods = declared
            .iter()
            .flat_map(Extension::custom_methods)
            .map(|method| (method.name(), method.clone()))
            .collect();
        Extensions { declared, methods }
    }

    /// The custom method `name`, if the server serves one.
    pub(crate) fn method(&self, name: &str) -> Option<&Method> {
        if self.methods.is_empty() {
            return None;
        }
        self.methods.get(name)
    }

    /// `capabilities.extensions`: each extension's id and settings; the tasks extension
    /// only while `task_tools`.
    pub(crate) fn declared(&self, task_tools: bool) -> Map<String, Value> {
        self.declared
            .iter()
            .filter(|e| e.gate == Gate::Always || task_tools)
            .map(|e| (e.id.clone(), e.settings.clone()))
            .collect()
    }

    /// `capabilities.extensions` of an `initialize` answer: only the extensions whose
    /// clients read them there.
    pub(crate) fn declared_in_initialize(&self) -> Map<String, Value> {
        self.declared
            .iter()
            .filter(|e| e.in_initialize)
            .map(|e| (e.id.clone(), e.settings.clone()))
            .collect()
    }
}

/// A custom method (or notification) a server serves, made by
/// [`#[method]`](macro@crate::method) and listed with [`methods!`](crate::methods). Cheap to
/// clone.
#[derive(Clone)]
pub struct Method {
    pub(crate) def: Arc<Definition>,
}

pub(crate) struct Definition {
    pub(crate) name: &'static str,
    pub(crate) notification: bool,
    pub(crate) required_state: Vec<StateKey>,
    pub(crate) may_ask: bool,
    pub(crate) handler: HandlerFn,
}

pub(crate) type HandlerFn = fn(&Context, RawArguments<'_>) -> Work<Value>;

impl Method {
    /// The method's name (`notes/stats`).
    pub fn name(&self) -> &'static str {
        self.def.name
    }

    /// Whether it handles a notification (its fn returns `()`).
    pub fn is_notification(&self) -> bool {
        self.def.notification
    }

    /// The shared state its fn takes.
    pub(crate) fn required_state(&self) -> &[StateKey] {
        &self.def.required_state
    }

    /// Whether its fn takes something from its context.
    pub(crate) fn may_ask(&self) -> bool {
        self.def.may_ask
    }

    /// Starts a request or notification: decodes the params and, if they are good,
    /// returns the work that answers it.
    pub(crate) fn invoke(&self, cx: &Context, params: RawArguments<'_>) -> Work<Value> {
        (self.def.handler)(cx, params)
    }
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Method")
            .field("name", &self.def.name)
            .field("notification", &self.def.notification)
            .finish_non_exhaustive()
    }
}

/// What a [`#[method]`](macro@crate::method) fn's name stands for in `methods![...]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a method",
    label = "not a `#[method]` fn",
    note = "`methods![...]` takes the names of fns marked with `#[method(name = \"vendor/name\")]`"
)]
pub trait MethodFn {
    /// The method's name, checked at compile time.
    #[doc(hidden)]
    const NAME: &'static str;
    /// Builds the method.
    #[doc(hidden)]
    fn method() -> Method;
}

/// What a [`#[method]`](macro@crate::method) fn returns: the `result` of its answer.
///
/// [`Json<T>`] answers with `T` itself (in revision 2026-07-28 with `resultType` and the
/// server's `_meta` added when it is an object); a `serde_json::Value` as it is; `()` with
/// `{}` (and makes the fn a notification handler). `Result<T, E>` answers an `Err` as a
/// JSON-RPC error: [`ToolError::new`]'s message with `-32603`,
/// [`ToolError::not_found`] with `-32602`, anything else as `internal error` (its detail
/// logged), as a prompt's error is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the result of a custom method",
    label = "not a method's result",
    note = "return `Json<T>` (with `T: Serialize`), `serde_json::Value`, `()` for a notification, or a `Result` of one of them"
)]
pub trait IntoMethodResult {
    /// The answer's `result`, or the error that answers instead.
    fn into_method_result(self) -> Result<Value, ToolError>;
}

impl IntoMethodResult for () {
    fn into_method_result(self) -> Result<Value, ToolError> {
        Ok(Value::Object(Map::new()))
    }
}

impl IntoMethodResult for Value {
    fn into_method_result(self) -> Result<Value, ToolError> {
        Ok(self)
    }
}

impl<T: Serialize> IntoMethodResult for Json<T> {
    fn into_method_result(self) -> Result<Value, ToolError> {
        serde_json::to_value(&self.0).map_err(|error| {
            ToolError::internal(format!(
                "the result of type `{}` failed to serialize: {error}",
                std::any::type_name::<T>()
            ))
        })
    }
}

impl<T: IntoMethodResult, E: fmt::Display + 'static> IntoMethodResult for Result<T, E> {
    fn into_method_result(self) -> Result<Value, ToolError> {
        match self {
            Ok(value) => value.into_method_result(),
            Err(error) => Err(ToolError::classify(&error)),
        }
    }
}
