//! Errors: [`ToolError`] is what a tool fails with; [`Error`] is what the framework fails with.

use mcp_toolkit_core::header::HeaderNameError;
use mcp_toolkit_core::name::{GroupError, NameError};
use std::fmt;

/// The error a tool returns to say "this call failed".
///
/// **Failing a call has one way: return `Err(ToolError)`** from a tool whose return type is
/// a `Result<_, ToolError>`. The rest is layered on it: `?` on any other error makes a
/// [`ToolError::internal`]; [`CallToolResult::error`](crate::CallToolResult::error) and
/// [`CallToolResult::internal`](crate::CallToolResult::internal) are the results these two
/// become, for a tool that builds its whole result itself; a JSON-RPC error instead of a
/// result comes only from the framework (an unknown tool, bad arguments), never from a tool.
///
/// A tool that returns `Err(ToolError)` answers the call with `isError: true`. What the
/// client reads depends on where the error came from:
///
/// - [`ToolError::new`] is a message written for the model: it is sent as it is, so the
///   model can read it and correct itself.
/// - An error converted with `?` (any `std::error::Error`), or made with
///   [`ToolError::internal`], is an internal detail: a database error can name tables,
///   hosts or file paths. The client reads `internal error`; the detail goes to the server's
///   log with the tool's name. [`Server::expose_internal_errors`](crate::Server::expose_internal_errors)
///   sends details too, for development.
///
/// `ToolError` does not implement `std::error::Error` itself, which is what lets `?` convert
/// every error type into it (as `anyhow::Error` does).
///
/// ```
/// use mcp_toolkit::ToolError;
///
/// fn divide(a: f64, b: f64) -> Result<f64, ToolError> {
///     if b == 0.0 {
///         return Err(ToolError::new("cannot divide by zero; pass a non-zero `b`"));
///     }
///     Ok(a / b)
/// }
///
/// fn parse(text: &str) -> Result<i64, ToolError> {
///     Ok(text.parse::<i64>()?) // any std error converts
/// }
///
/// assert_eq!(divide(1.0, 0.0).unwrap_err().to_string(), "cannot divide by zero; pass a non-zero `b`");
/// assert!(!divide(1.0, 0.0).unwrap_err().is_internal());
///
/// let converted = parse("x").unwrap_err();
/// assert_eq!(converted.message(), "invalid digit found in string");
/// assert!(converted.is_internal());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    kind: Kind,
    /// For [`ToolError::url_required`]: the URL.
    url: Option<Box<str>>,
}

/// What kind of failure a [`ToolError`] is, which decides what the client reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A message for the model, sent as it is.
    Told,
    /// A detail for the server's log.
    Internal,
    /// The call needs a capability the client did not declare.
    NeedsCapability(ClientCapability),
    /// The call needs the user to visit a URL first.
    NeedsUrl,
    /// What the request names does not exist: a message for the model, and the
    /// protocol's "not found" error for a resource read or a prompt.
    NotFound,
}

impl ToolError {
    /// An error with this message for the model. Say what was wrong and what would work,
    /// so the model can try again.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, ToolError};
    /// use serde_json::json;
    ///
    /// /// Reads a setting.
    /// #[tool]
    /// fn setting(name: String) -> Result<String, ToolError> {
    ///     match name.as_str() {
    ///         "theme" => Ok("dark".into()),
    ///         _ => Err(ToolError::new(format!("there is no setting `{name}`; the settings are `theme`"))),
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let result = tools![setting][0].call(&Context::default(), json!({"name": "font"})).await;
    /// assert!(result.is_error());
    /// assert_eq!(result.content()[0].as_text(), Some("there is no setting `font`; the settings are `theme`"));
    /// # });
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            kind: Kind::Told,
            url: None,
        }
    }

    /// An error whose detail is for the server's log, not for the client: the client reads
    /// `internal error` unless the server
    /// [exposes internal errors](crate::Server::expose_internal_errors). Errors converted
    /// with `?` are made this way.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, ToolError};
    /// use serde_json::json;
    ///
    /// /// Looks a customer up.
    /// #[tool]
    /// fn customer(id: u64) -> Result<String, ToolError> {
    ///     Err(ToolError::internal(format!("connection to db-7.internal:5432 refused (customer {id})")))
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let result = tools![customer][0].call(&Context::default(), json!({"id": 7})).await;
    /// assert_eq!(result.content()[0].as_text(), Some("internal error"));
    /// assert_eq!(result.internal_detail(), Some("connection to db-7.internal:5432 refused (customer 7)"));
    /// # });
    /// ```
    pub fn internal(detail: impl Into<String>) -> Self {
        ToolError {
            message: detail.into(),
            kind: Kind::Internal,
            url: None,
        }
    }

    /// What the request names does not exist, with this message saying what (`there is
    /// no note 999`): what a resource template's or a prompt's fn returns for an item that
    /// is not there, so that the client is told "not found" rather than "the server failed".
    ///
    /// The server answers as each revision says: a `resources/read` with the
    /// resource-not-found error, `-32602` in revision 2026-07-28 and `-32002` before, with
    /// the URI in `data` (`{"uri": ...}`), and a `resources/subscribe` or
    /// `subscriptions/listen` of that URI is refused the same way; a `prompts/get` with
    /// invalid params (`-32602`); a tool call with an error result carrying the message,
    /// as [`ToolError::new`] does.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ErrorCode;
    /// use mcp_toolkit::{resource, resources, testing::ClientError, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// A user's name.
    /// #[resource(uri = "users://{id}/name")]
    /// fn user_name(id: u64) -> Result<String, ToolError> {
    ///     match id {
    ///         7 => Ok("Ada".into()),
    ///         _ => Err(ToolError::not_found(format!("there is no user {id}"))),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("users", "1.0.0").resources(resources![user_name]).test_client()?;
    /// match client.read_resource("users://8/name").await {
    ///     Err(ClientError::Rpc { code, message, data }) => {
    ///         assert_eq!((code, message.as_str()), (ErrorCode::INVALID_PARAMS, "there is no user 8"));
    ///         assert_eq!(data, Some(json!({"uri": "users://8/name"})));
    ///     }
    ///     other => panic!("expected not found, got {other:?}"),
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn not_found(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            kind: Kind::NotFound,
            url: None,
        }
    }

    /// Whether the error says that what the request names does not exist
    /// ([`ToolError::not_found`]).
    pub(crate) fn is_not_found(&self) -> bool {
        self.kind == Kind::NotFound
    }

    /// The message: what the model reads, or for an internal error, its detail.
    ///
    /// ```
    /// use mcp_toolkit::ToolError;
    ///
    /// assert_eq!(ToolError::new("the folder is empty").message(), "the folder is empty");
    ///
    /// let converted: ToolError = "12x".parse::<u32>().unwrap_err().into();
    /// assert_eq!(converted.message(), "invalid digit found in string");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the message is an internal detail, withheld from clients by default: true for
    /// errors converted with `?` and made with [`ToolError::internal`].
    ///
    /// ```
    /// use mcp_toolkit::ToolError;
    ///
    /// assert!(!ToolError::new("the folder is empty").is_internal());
    /// assert!(ToolError::from(std::io::Error::other("disk /dev/sda2 failed")).is_internal());
    /// ```
    pub fn is_internal(&self) -> bool {
        self.kind == Kind::Internal
    }

    /// The client capability the call needed and the client did not declare, when that is
    /// why it failed: an ask ([`Context::elicit`](crate::Context::elicit),
    /// [`sample`](crate::Context::sample), [`list_roots`](crate::Context::list_roots)) the
    /// tool let propagate with `?`. The server answers such a failure with the protocol's
    /// missing-capability error (`-32021`) in revision 2026-07-28, and with an error result
    /// naming the capability in earlier ones.
    ///
    /// ```
    /// use mcp_toolkit::{ask::AskError, ask::ClientCapability, ToolError};
    ///
    /// let error = ToolError::from(AskError::MissingCapability(ClientCapability::Sampling));
    /// assert_eq!(error.missing_capability(), Some(ClientCapability::Sampling));
    /// assert_eq!(error.message(), "this request needs the client capability `sampling`, which the client did not declare");
    /// assert_eq!(ToolError::new("no").missing_capability(), None);
    /// ```
    pub fn missing_capability(&self) -> Option<ClientCapability> {
        match self.kind {
            Kind::NeedsCapability(capability) => Some(capability),
            _ => None,
        }
    }

    /// The call cannot go on until the user has visited `url` (to sign in to a third
    /// party, say), with `message` saying why: what a tool returns when it learns this
    /// only once it runs, where [`Context::elicit_url`](crate::Context::elicit_url) would
    /// wait for the user instead.
    ///
    /// The server answers as each revision says: in 2025-11-25, the URL-required error
    /// (`-32042`, the elicitation in its `data`), for a client that declared
    /// `elicitation.url`; in 2026-07-28, an `input_required` round whose question is that
    /// URL, after which the tool runs again (by then it should find the user's sign-in
    /// done); otherwise an error result with the message and the URL.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Lists the user's calendar events.
    /// #[tool]
    /// async fn events(cx: Context) -> Result<String, ToolError> {
    ///     let signed_in = false; // the tool's own record of the user's authorization
    ///     if !signed_in {
    ///         return Err(ToolError::url_required("https://calendar.example/authorize", "Sign in to your calendar"));
    ///     }
    ///     Ok("no events".into())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// // A client that cannot open URLs reads the URL in the error result.
    /// let client = Server::new("calendar", "1.0.0").tools(tools![events]).test_client()?;
    /// let result = client.call("events", json!({})).await?;
    /// assert!(result.is_error());
    /// assert_eq!(result.text(), Some("Sign in to your calendar: https://calendar.example/authorize"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn url_required(url: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            kind: Kind::NeedsUrl,
            url: Some(url.into().into_boxed_str()),
        }
    }

    /// Any error a handler returned, as the error it is for the client: a `ToolError` or
    /// an [`AskError`] as it is; plain text (`String`, `&'static str`, `Cow<'static, str>`,
    /// `Box<str>`) a message for the model; anything else an internal detail.
    pub(crate) fn classify<E: fmt::Display + 'static>(error: &E) -> ToolError {
        let any: &dyn std::any::Any = error;
        if let Some(error) = any.downcast_ref::<ToolError>() {
            return error.clone();
        }
        if let Some(error) = any.downcast_ref::<AskError>() {
            return ToolError::from(error.clone());
        }
        let told = any.is::<String>()
            || any.is::<&'static str>()
            || any.is::<std::borrow::Cow<'static, str>>()
            || any.is::<Box<str>>();
        if told {
            ToolError::new(error.to_string())
        } else {
            ToolError::internal(error.to_string())
        }
    }

    /// The URL the user must visit, for an error made with [`ToolError::url_required`].
    pub fn required_url(&self) -> Option<&str> {
        self.url.as_deref()
    }
}

/// A capability a client declares so a server may ask it things: the asks of
/// [`Context`](crate::Context) each need one.
///
/// ```
/// use mcp_toolkit::ask::ClientCapability;
/// use serde_json::json;
///
/// assert_eq!(ClientCapability::ElicitationForm.to_string(), "elicitation.form");
/// assert_eq!(ClientCapability::SamplingTools.as_json(), json!({"sampling": {"tools": {}}}));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClientCapability {
    /// `elicitation.form` (or `elicitation` alone, which means the same): forms.
    ElicitationForm,
    /// `elicitation.url`: sending the user to a URL (revision 2025-11-25 on).
    ElicitationUrl,
    /// `sampling`: asking the client's model for a message.
    Sampling,
    /// `sampling.tools`: offering the client's model tools while sampling.
    SamplingTools,
    /// `roots`: asking for the client's roots.
    Roots,
}

impl ClientCapability {
    /// The capability's path in the client's `capabilities`: `"sampling.tools"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientCapability::ElicitationForm => "elicitation.form",
            ClientCapability::ElicitationUrl => "elicitation.url",
            ClientCapability::Sampling => "sampling",
            ClientCapability::SamplingTools => "sampling.tools",
            ClientCapability::Roots => "roots",
        }
    }

    /// The capability as a `ClientCapabilities` object that declares it and nothing else:
    /// what `requiredCapabilities` of the missing-capability error carries.
    pub fn as_json(self) -> serde_json::Value {
        let (outer, inner) = match self.as_str().split_once('.') {
            Some((outer, inner)) => (outer, Some(inner)),
            None => (self.as_str(), None),
        };
        let declared = match inner {
            Some(inner) => serde_json::json!({ inner: {} }),
            None => serde_json::json!({}),
        };
        serde_json::json!({ outer: declared })
    }

    /// Whether `capabilities` (a client's declared `ClientCapabilities`) include this one.
    ///
    /// ```
    /// use mcp_toolkit::ask::ClientCapability;
    /// use serde_json::json;
    ///
    /// assert!(ClientCapability::ElicitationForm.declared_in(&json!({"elicitation": {}})));
    /// assert!(!ClientCapability::ElicitationUrl.declared_in(&json!({"elicitation": {}})));
    /// assert!(!ClientCapability::ElicitationForm.declared_in(&json!({"elicitation": {"url": {}}})));
    /// assert!(ClientCapability::Roots.declared_in(&json!({"roots": {"listChanged": true}})));
    /// ```
    pub fn declared_in(self, capabilities: &serde_json::Value) -> bool {
        fn object(value: Option<&serde_json::Value>) -> Option<&serde_json::Value> {
            value.filter(|v| v.is_object())
        }
        match self {
            // An empty `elicitation` declares forms, as it did before modes existed.
            ClientCapability::ElicitationForm => object(capabilities.get("elicitation"))
                .is_some_and(|e| e.get("form").is_some() || e.get("url").is_none()),
            ClientCapability::ElicitationUrl => {
                object(capabilities.get("elicitation").and_then(|e| e.get("url"))).is_some()
            }
            ClientCapability::Sampling => object(capabilities.get("sampling")).is_some(),
            ClientCapability::SamplingTools => {
                object(capabilities.get("sampling").and_then(|s| s.get("tools"))).is_some()
            }
            ClientCapability::Roots => object(capabilities.get("roots")).is_some(),
        }
    }
}

impl fmt::Display for ClientCapability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an ask of a tool's ([`Context::elicit`](crate::Context::elicit),
/// [`sample`](crate::Context::sample), [`list_roots`](crate::Context::list_roots),
/// [`elicit_url`](crate::Context::elicit_url)) got no answer it can use.
///
/// `?` turns it into a [`ToolError`]: a missing capability stays one (the server answers
/// it as the protocol says, see [`ToolError::missing_capability`]); content that does not
/// fit a form, or an answer that is not a result of its request (the client answered
/// badly), is a message for the model; anything else is an internal error. Like
/// `ToolError`, it does not implement `std::error::Error`, which is what lets it convert.
///
/// ```
/// use mcp_toolkit::{ask::AskError, ask::ClientCapability, ToolError};
///
/// let missing = AskError::MissingCapability(ClientCapability::Roots);
/// assert_eq!(missing.to_string(), "this request needs the client capability `roots`, which the client did not declare");
/// let unfit = AskError::InvalidContent { field: Some("age".into()), reason: "expected an integer, received the string \"x\"".into() };
/// assert_eq!(ToolError::from(unfit).message(), "the form's answer does not fit: field `age`: expected an integer, received the string \"x\"");
/// let bad = AskError::InvalidAnswer { method: "roots/list", reason: "missing field `roots`".into() };
/// let told = ToolError::from(bad);
/// assert_eq!(told.message(), "the client's answer to `roots/list` is not valid: missing field `roots`");
/// assert!(!told.is_internal()); // the client's fault, not the server's
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability the ask needs, so nothing was asked. A
    /// tool can fall back (do without the answer); with `?` the call fails as the protocol
    /// says.
    MissingCapability(ClientCapability),
    /// The request could not be made or was not answered: see [`ClientRequestError`].
    Client(ClientRequestError),
    /// The client's answer is not a valid result for the request (a `roots/list` result
    /// without `roots`, a sampling answer from the `system` role, say): the client answered
    /// badly. Only in the `initialize` era: in revision 2026-07-28 such an answer is asked
    /// for again. With `?` the call ends with an error result that says so, and the server
    /// logs it as a warning, the client's fault.
    InvalidAnswer {
        /// The request's method.
        method: &'static str,
        /// What is wrong with the answer.
        reason: String,
    },
    /// The user accepted a form with content that does not fit it.
    InvalidContent {
        /// The field that does not fit, when one is to blame.
        field: Option<String>,
        /// What is wrong.
        reason: String,
    },
    /// The type asked for is not a form the protocol can carry (a nested struct, a map):
    /// a mistake in the tool, also reported when the server starts
    /// ([`DefinitionError::NotAForm`]).
    NotAForm {
        /// The Rust type.
        type_name: &'static str,
        /// The field that cannot be a form field, by its name on the wire; `None` when the
        /// type as a whole cannot be a form (it is not a struct with named fields).
        field: Option<String>,
        /// Why, and what a form accepts.
        reason: String,
    },
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::MissingCapability(capability) => write!(
                f,
                "this request needs the client capability `{capability}`, which the client did not declare"
            ),
            AskError::Client(error) => fmt::Display::fmt(error, f),
            AskError::InvalidAnswer { method, reason } => {
                write!(f, "the client's answer to `{method}` is not valid: {reason}")
            }
            AskError::InvalidContent { field, reason } => {
                write!(
                    f,
                    "the form's answer does not fit: {}",
                    field_reason(field, reason)
                )
            }
            AskError::NotAForm {
                type_name,
                field,
                reason,
            } => {
                write!(
                    f,
                    "`{type_name}` cannot be asked for as a form: {}",
                    field_reason(field, reason)
                )
            }
        }
    }
}

impl From<ClientRequestError> for AskError {
    fn from(error: ClientRequestError) -> AskError {
        AskError::Client(error)
    }
}

/// `?` on an ask's error: see [`AskError`].
impl From<AskError> for ToolError {
    fn from(error: AskError) -> ToolError {
        let kind = match &error {
            AskError::MissingCapability(capability) => Kind::NeedsCapability(*capability),
            // The client's doing, not the server's: said to the model as it is.
            AskError::InvalidContent { .. } | AskError::InvalidAnswer { .. } => Kind::Told,
            _ => Kind::Internal,
        };
        ToolError {
            message: error.to_string(),
            kind,
            url: None,
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// `?` on any error: an internal error (see [`ToolError::internal`]).
impl<E: std::error::Error> From<E> for ToolError {
    /// An internal error whose detail is the error and every cause below it, outermost
    /// first, separated by `: ` (`reading notes.md: permission denied`), so the log shows
    /// why and not only what.
    fn from(error: E) -> Self {
        let mut detail = error.to_string();
        let mut cause = error.source();
        while let Some(inner) = cause {
            let said = inner.to_string();
            // Some errors repeat their cause in their own message already.
            if !detail.ends_with(&said) {
                detail.push_str(": ");
                detail.push_str(&said);
            }
            cause = inner.source();
        }
        ToolError::internal(detail)
    }
}

/// A tool definition that breaks a rule of the specification. Tools made with `#[tool]` are
/// checked at compile time; this reports the tools built at run time, and a server given
/// two tools with one name refuses to start with it ([`Error::Definition`](crate::Error::Definition)).
///
/// ```
/// use mcp_toolkit::{tool, tools, tool::validate_tool_name, Error, Server, Tool};
/// use mcp_toolkit::registry::{DefinitionError, NameError};
/// use mcp_toolkit::testing::ClientError;
/// use serde_json::json;
///
/// let Err(DefinitionError::InvalidName { name, error }) = validate_tool_name("add numbers") else { panic!() };
/// assert_eq!(name, "add numbers");
/// assert_eq!(error, NameError::Characters { name: "add numbers".into(), characters: vec![' '] });
///
/// let not_an_object = Tool::from_json("add", "Adds.", json!({"type": "array"}), |_, _| async { "" });
/// assert!(matches!(not_an_object, Err(DefinitionError::InvalidInputSchema { schema, .. }) if schema == json!({"type": "array"})));
///
/// /// Says hello.
/// #[tool]
/// fn hello() -> &'static str { "hello" }
///
/// let twice = Server::new("greeter", "1.0.0").tools(tools![hello]).tools(tools![hello]);
/// match twice.test_client() {
///     Err(ClientError::Server(Error::Definition(DefinitionError::DuplicateName(name)))) => assert_eq!(name, "hello"),
///     other => panic!("expected a duplicate name, got {other:?}"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The name is empty, longer than 128 characters, or has a character other than
    /// `A-Z a-z 0-9 _ - .`.
    #[error("tool {error}")]
    InvalidName {
        /// The name as given.
        name: String,
        /// Which part of the rule it breaks.
        #[source]
        error: NameError,
    },
    /// A tool's group is empty, longer than 64 characters, or has a character other than
    /// `A-Z a-z 0-9 _ -` ([`Tool::with_group`](crate::Tool::with_group)).
    #[error("tool `{tool}`: {error}")]
    InvalidGroup {
        /// The tool's name.
        tool: String,
        /// Which part of the rule the group breaks.
        #[source]
        error: GroupError,
    },
    /// The input schema is not a JSON object schema (`{"type": "object", ...}`).
    #[error(
        "invalid input schema for tool `{tool}`: it must be an object schema with `\"type\": \"object\"`, not `{schema}`"
    )]
    InvalidInputSchema {
        /// The tool's name.
        tool: String,
        /// The schema as given.
        schema: serde_json::Value,
    },
    /// Two tools have one name.
    #[error("duplicate tool name `{0}`: every tool of a server needs its own name")]
    DuplicateName(String),
    /// A tool has the name of the framework's own `read_result`, which reads the pages of
    /// results over their budget, on a server that budgets results.
    #[error(
        "the tool name `{0}` is the framework's on a server with a result budget (it reads the pages of results over their budget); rename the tool"
    )]
    ReservedName(String),
    /// A tool is named `search_tools` or `call_tool` on a server with tool search, whose
    /// own tools they are.
    #[error(
        "the tool name `{0}` is the framework's on a server with tool search (`Server::tool_search`); rename the tool"
    )]
    ReservedBySearch(String),
    /// A view ([`app`](crate::app)) or a tool's link to one breaks a rule: a URI that is
    /// not `ui://`, a template, a CSP entry that is not an origin.
    #[error("{owner}: {problem}")]
    InvalidView {
        /// The resource or tool, as `resource `ui://..`` or `tool `name``.
        owner: String,
        /// What is wrong.
        problem: String,
    },
    /// A tool is linked to a view the server does not serve.
    #[error(
        "tool `{tool}` is linked to the view `{uri}`, which the server does not serve; add a resource `#[resource(uri = \"{uri}\", app)]` to `Server::resources`, or link the tool to a view it serves"
    )]
    UnservedView {
        /// The tool.
        tool: String,
        /// The URI it names.
        uri: String,
    },
    /// A tool is linked to a resource that is not a view (it has no `app`).
    #[error(
        "tool `{tool}` is linked to `{uri}`, which is a resource but not a view; mark it `#[resource(uri = \"{uri}\", app)]` (or `Resource::with_app`) so it is served as `text/html;profile=mcp-app`"
    )]
    NotAView {
        /// The tool.
        tool: String,
        /// The URI it names.
        uri: String,
    },
    /// Two prompts have one name.
    #[error("duplicate prompt name `{0}`: every prompt of a server needs its own name")]
    DuplicatePromptName(String),
    /// Two resources have one URI (or URI template).
    #[error("duplicate resource URI `{0}`: every resource of a server needs its own URI")]
    DuplicateResourceUri(String),
    /// A tool asks for a form ([`Context::elicit`](crate::Context::elicit)) with a type the
    /// protocol cannot carry as one.
    #[error(
        "tool `{tool}` asks for a form it cannot send: `{type_name}` cannot be asked for as a form: {}",
        field_reason(.field, .reason)
    )]
    NotAForm {
        /// The tool.
        tool: String,
        /// The Rust type asked for.
        type_name: &'static str,
        /// The field that cannot be a form field, by its name on the wire; `None` when the
        /// type as a whole cannot be a form (it is not a struct with named fields).
        field: Option<String>,
        /// Why, and what a form accepts.
        reason: String,
    },
    /// A parameter mirrored into a header (`x-mcp-header`) breaks a rule of revision
    /// 2026-07-28: a client must drop such a tool, so a server never offers one.
    #[error("tool `{tool}` cannot be offered: {error}")]
    InvalidHeader {
        /// The tool.
        tool: String,
        /// What is wrong with its header parameters.
        #[source]
        error: HeaderError,
    },
    /// An extension's id has no vendor prefix, or its settings are not a JSON object.
    #[error("{0}")]
    InvalidExtension(String),
    /// Two extensions have one id (a server's own, tasks and skills, among them).
    #[error("duplicate extension `{0}`: every extension of a server needs its own id")]
    DuplicateExtension(String),
    /// An extension depends on one the server does not declare.
    #[error(
        "extension `{extension}` depends on `{needs}`, which the server does not declare; declare it with `Server::extension`"
    )]
    MissingDependency {
        /// The extension that depends.
        extension: String,
        /// The id it depends on.
        needs: String,
    },
    /// Two custom methods have one name, in one extension or in two.
    #[error("duplicate method `{0}`: every custom method of a server needs its own name")]
    DuplicateMethod(String),
}

/// What is wrong with a tool's parameters mirrored into headers: the `x-mcp-header`
/// annotations of its input schema ([`Tool::with_header`](crate::Tool::with_header), or a
/// schema given to [`Tool::from_json`](crate::Tool::from_json)). Properties are named by
/// their path from the schema's root, `properties` key by key (`region`, `target.region`).
///
/// ```
/// use mcp_toolkit::Tool;
/// use mcp_toolkit::registry::{DefinitionError, HeaderError};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"ratio": {"type": "number", "x-mcp-header": "Ratio"}}});
/// let Err(DefinitionError::InvalidHeader { error, .. }) = Tool::from_json("scale", "Scales.", schema, |_, _| async { "" }) else { panic!() };
/// assert_eq!(error, HeaderError::Type { property: "ratio".into(), found: "\"number\"".into() });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// The header name breaks the rule: not empty, an HTTP token.
    #[error("the `x-mcp-header` of property `{property}`: {error}")]
    Name {
        /// The property.
        property: String,
        /// Which part of the rule the name breaks.
        #[source]
        error: HeaderNameError,
    },
    /// The annotation is not a string.
    #[error(
        "the `x-mcp-header` of property `{property}` is `{value}`, not a string; it names the header, such as `\"Region\"` for `Mcp-Param-Region`"
    )]
    NotAName {
        /// The property.
        property: String,
        /// The annotation as given.
        value: serde_json::Value,
    },
    /// The property's type is not one a header carries.
    #[error(
        "property `{property}` has an `x-mcp-header` but its type is {found}; a header carries a `\"string\"`, an `\"integer\"` or a `\"boolean\"` (and `\"null\"` beside one)"
    )]
    Type {
        /// The property.
        property: String,
        /// Its `type`, as JSON, or `none`.
        found: String,
    },
    /// Two properties name one header, ignoring case.
    #[error(
        "properties `{first}` and `{second}` are both sent as the header `Mcp-Param-{name}` (header names are compared ignoring case); give each its own name"
    )]
    Duplicate {
        /// The property annotated first.
        first: String,
        /// The property annotated again.
        second: String,
        /// The name, as the second gives it.
        name: String,
    },
    /// An annotation that is not on a property reachable from the root through
    /// `properties` alone (it is under `items`, `anyOf`, `$defs`, ..., or on the root).
    #[error(
        "the `x-mcp-header` at `{pointer}` is not on a property reachable from the root through `properties` alone; only such properties (not under `items`, `anyOf`, `oneOf`, `allOf`, `not`, `if`, `$defs`, ...) can be sent as headers"
    )]
    Unreachable {
        /// Where it is, as a JSON pointer into the input schema.
        pointer: String,
    },
    /// [`Tool::with_header`](crate::Tool::with_header) names a property the schema does not
    /// have.
    #[error("the input schema has no property `{property}` to send as a header")]
    NoSuchProperty {
        /// The property.
        property: String,
    },
}

/// Why a request of the server's own ([`Context::send_request`](crate::Context::send_request))
/// has no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientRequestError {
    /// The call's protocol revision has no server-to-client requests (2026-07-28).
    #[error("protocol revision {0} has no requests from the server to the client")]
    NotInThisRevision(crate::protocol::ProtocolVersion),
    /// The call was not made by a client (a unit test's `Context::default()`, `Server::execute`).
    #[error("there is no client to ask: the call did not come from one")]
    NoClient,
    /// The client answered with a JSON-RPC error.
    #[error("the client refused the request: {message} (code {code})")]
    Refused {
        /// The error's code.
        code: crate::protocol::ErrorCode,
        /// The error's message.
        message: String,
        /// The error's data, if any.
        data: Option<serde_json::Value>,
    },
    /// The call ended (cancelled, timed out, or its client went away) before the answer.
    #[error("the call ended before the client answered")]
    CallEnded,
    /// The connection closed before the answer.
    #[error("the connection closed before the client answered")]
    Closed,
}

/// Why a tool or a tool call cannot cross to or from a model API
/// ([`Tool::to_openai`](crate::Tool::to_openai), [`ToolCall::from_json`](crate::export::ToolCall::from_json)).
/// The messages are worded to pass back to the model.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The tool's name breaks the model APIs' rule (1 to 64 of `A-Z a-z 0-9 _ -`).
    #[error(
        "tool `{0}` cannot be offered to a model API: names there are 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`; rename it with `#[tool(name = \"...\")]`"
    )]
    NameNotAllowed(String),
    /// The tool call is not a JSON object.
    #[error("a tool call must be a JSON object with a `name`")]
    NotAnObject,
    /// The tool call has no `name`.
    #[error("the tool call has no `name`")]
    NoName,
    /// The tool call's `name` is not a string.
    #[error("the tool call's `name` must be a string, not {0}")]
    NameNotAString(serde_json::Value),
    /// The arguments came as a JSON text that does not parse.
    #[error("the arguments of `{tool}` are not valid JSON ({error}): {text}")]
    ArgumentsNotJson {
        /// The tool called.
        tool: String,
        /// What the parser said.
        #[source]
        error: std::sync::Arc<serde_json::Error>,
        /// The text as sent.
        text: String,
    },
    /// The arguments are not an object.
    #[error("the arguments of `{tool}` must be a JSON object, not {arguments}")]
    ArgumentsNotAnObject {
        /// The tool called.
        tool: String,
        /// The arguments as sent.
        arguments: serde_json::Value,
    },
    /// [`Server::get_prompt`](crate::Server::get_prompt) named no prompt the server has.
    #[error("there is no prompt `{name}`; {}", name_list("prompts", .known))]
    UnknownPrompt {
        /// The name asked for.
        name: String,
        /// The prompts there are.
        known: Vec<String>,
    },
    /// The arguments do not fit the prompt's parameters.
    #[error("the arguments of the prompt `{prompt}` do not fit: {problem}")]
    PromptArguments {
        /// The prompt.
        prompt: String,
        /// Every problem, each naming its argument.
        problem: String,
    },
    /// The prompt's fn failed; an internal error's detail is masked as an answer masks it
    /// (the error reads `internal error`).
    #[error("the prompt `{prompt}` failed: {error}")]
    PromptFailed {
        /// The prompt.
        prompt: String,
        /// The error, as a client would read it.
        error: ToolError,
    },
    /// The server's own definitions keep it from running anything (what
    /// [`Server::test_client`](crate::Server::test_client) would report): the source is
    /// that [`Error`](crate::Error), which `downcast_ref` reaches.
    #[error("the server cannot run")]
    NotRunnable(#[source] std::sync::Arc<dyn std::error::Error + Send + Sync>),
}

/// `field `a`: reason`, or the reason alone when no field is to blame.
fn field_reason(field: &Option<String>, reason: &str) -> String {
    match field {
        Some(field) => format!("field `{field}`: {reason}"),
        None => reason.to_owned(),
    }
}

/// `the prompts are `a`, `b``, or that there are none.
pub(crate) fn name_list(kind: &str, names: &[String]) -> String {
    if names.is_empty() {
        return format!("this server has no {kind}");
    }
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    format!("the {kind} are {}", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::ToolError;

    /// An error with a message and, optionally, a cause.
    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<Layer>>);

    impl std::fmt::Display for Layer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Layer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|inner| inner as _)
        }
    }

    #[test]
    fn a_converted_error_keeps_every_cause() {
        let io = Layer("permission denied", None);
        let read = Layer("reading notes.md", Some(Box::new(io)));
        let error = ToolError::from(Layer("exporting the notes", Some(Box::new(read))));
        assert!(error.is_internal());
        assert_eq!(
            error.message(),
            "exporting the notes: reading notes.md: permission denied"
        );

        // A message that already ends with its cause does not say it twice.
        let repeated = Layer(
            "open failed: permission denied",
            Some(Box::new(Layer("permission denied", None))),
        );
        assert_eq!(
            ToolError::from(repeated).message(),
            "open failed: permission denied"
        );
    }
}
