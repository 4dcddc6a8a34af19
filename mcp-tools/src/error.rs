//! Errors: [`ToolError`] is what a tool fails with; [`Error`] is what the framework fails with.

use std::fmt;

/// The error a tool returns to say "this call failed", with a message for the model.
///
/// A tool that returns `Err(ToolError)` (or any `Result<T, E>` with `E: Display`) answers the
/// call with `isError: true` and the message as text, so the model can read it and correct
/// itself. Any `std::error::Error` converts into it with `?`.
///
/// `ToolError` does not implement `std::error::Error` itself, which is what lets `?` convert
/// every error type into it (as `anyhow::Error` does).
///
/// ```
/// use mcp_tools::ToolError;
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
/// assert_eq!(parse("x").unwrap_err().message(), "invalid digit found in string");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// An error with this message for the model. Say what was wrong and what would work,
    /// so the model can try again.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Context, ToolError};
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
        }
    }

    /// The message the model reads.
    ///
    /// ```
    /// use mcp_tools::ToolError;
    ///
    /// assert_eq!(ToolError::new("the folder is empty").message(), "the folder is empty");
    ///
    /// let converted: ToolError = "12x".parse::<u32>().unwrap_err().into();
    /// assert_eq!(converted.message(), "invalid digit found in string");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::new(error.to_string())
    }
}

/// A tool definition that breaks a rule of the specification. Tools made with `#[tool]` are
/// checked at compile time; this reports the tools built at run time, and a server given
/// two tools with one name refuses to start with it ([`Error::Definition`](crate::Error::Definition)).
///
/// ```
/// use mcp_tools::{tool, tools, validate_tool_name, DefinitionError, Error, Server, Tool};
/// use serde_json::json;
///
/// assert!(matches!(validate_tool_name("add numbers"), Err(DefinitionError::InvalidName(_))));
///
/// let not_an_object = Tool::from_json("add", "Adds.", json!({"type": "array"}), |_, _| async { "" });
/// assert!(matches!(not_an_object, Err(DefinitionError::InvalidInputSchema { .. })));
///
/// /// Says hello.
/// #[tool]
/// fn hello() -> &'static str { "hello" }
///
/// let twice = Server::new("greeter", "1.0.0").tools(tools![hello]).tools(tools![hello]);
/// match twice.test_client() {
///     Err(Error::Definition(DefinitionError::DuplicateName(name))) => assert_eq!(name, "hello"),
///     other => panic!("expected a duplicate name, got {other:?}"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The name is empty, longer than 128 characters, or has a character other than
    /// `A-Z a-z 0-9 _ - .`.
    #[error("invalid tool name: {0}")]
    InvalidName(String),
    /// The input schema is not a JSON object schema (`{"type": "object", ...}`).
    #[error("invalid input schema for tool `{tool}`: {reason}")]
    InvalidInputSchema {
        /// The tool's name.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// Two tools have one name.
    #[error("duplicate tool name `{0}`: every tool of a server needs its own name")]
    DuplicateName(String),
}
