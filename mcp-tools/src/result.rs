//! What a tool returns: [`CallToolResult`], and the [`IntoCallToolResult`] conversion every
//! tool's return type goes through.

use crate::content::{Content, Role};
use crate::error::{ClientCapability, ToolError};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::fmt::Display;

/// The result of one tool call: content blocks for the model, optional structured output,
/// and whether the call failed.
///
/// Most tools never build one: their return type converts through [`IntoCallToolResult`].
///
/// ```
/// use mcp_toolkit::{CallToolResult, Content};
///
/// let ok = CallToolResult::text("42");
/// assert!(!ok.is_error());
///
/// let failed = CallToolResult::error("the file does not exist; list the folder first");
/// assert!(failed.is_error());
/// assert_eq!(failed.content()[0].as_text(), Some("the file does not exist; list the folder first"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallToolResult {
    content: Vec<Content>,
    structured: Option<Box<RawValue>>,
    is_error: bool,
    /// Boxed, as `internal` is: both are rare, and results travel by value.
    meta: Option<Box<Map<String, Value>>>,
    /// What went wrong, for the server's log, when the client reads only `internal error`.
    internal: Option<Box<str>>,
    /// The client capability the call needed and lacked, when that is why it failed.
    missing: Option<ClientCapability>,
    /// The URL the user must visit before the call can go on, when that is why it failed.
    url_required: Option<Box<str>>,
}

impl CallToolResult {
    /// A successful result with these content blocks.
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, Content};
    ///
    /// let result = CallToolResult::new(vec![
    ///     Content::text("The chart:"),
    ///     Content::image(&[0x89, b'P', b'N', b'G'], "image/png"),
    /// ]);
    /// assert_eq!(result.content().len(), 2);
    /// assert!(!result.is_error());
    /// ```
    pub fn new(content: Vec<Content>) -> CallToolResult {
        CallToolResult {
            content,
            ..CallToolResult::default()
        }
    }

    /// A successful result with one text block.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// let result = CallToolResult::text("42");
    /// assert_eq!(
    ///     serde_json::to_value(&result).unwrap(),
    ///     serde_json::json!({"content": [{"type": "text", "text": "42"}]})
    /// );
    /// ```
    pub fn text(text: impl Into<String>) -> CallToolResult {
        CallToolResult::new(vec![Content::text(text)])
    }

    /// A failed result (`isError: true`) whose text tells the model what went wrong, so it
    /// can correct itself: what a tool's `Err(ToolError::new(message))` becomes. A tool
    /// fails with [`ToolError`] (see there); build this only for a tool that returns a
    /// whole `CallToolResult`.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// let result = CallToolResult::error("no such file; list the folder first");
    /// assert_eq!(
    ///     serde_json::to_value(&result).unwrap(),
    ///     serde_json::json!({"content": [{"type": "text", "text": "no such file; list the folder first"}], "isError": true})
    /// );
    /// ```
    pub fn error(message: impl Into<String>) -> CallToolResult {
        CallToolResult {
            is_error: true,
            ..CallToolResult::text(message)
        }
    }

    /// A successful result with structured output (`structuredContent`) and the same JSON as
    /// text, for clients that read only text.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    /// let r = CallToolResult::structured(&serde_json::json!({"words": 3})).unwrap();
    /// assert_eq!(r.structured_content().unwrap().get(), r#"{"words":3}"#);
    /// assert_eq!(r.content()[0].as_text(), Some(r#"{"words":3}"#));
    /// ```
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Result<CallToolResult, serde_json::Error> {
        let json = serde_json::to_string(value)?;
        let raw = RawValue::from_string(json.clone())?;
        Ok(CallToolResult {
            structured: Some(raw),
            ..CallToolResult::text(json)
        })
    }

    /// A successful result with structured output (`structuredContent`) and a text of its
    /// own: the text for the model and for clients that read only text, the structured
    /// output for a program or an [MCP Apps](crate::app) view, which renders it.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    /// let r = CallToolResult::structured_with_text(&serde_json::json!({"notes": ["milk"]}), "1 note: milk").unwrap();
    /// assert_eq!(r.structured_content().unwrap().get(), r#"{"notes":["milk"]}"#);
    /// assert_eq!(r.content()[0].as_text(), Some("1 note: milk"));
    /// ```
    pub fn structured_with_text<T: Serialize + ?Sized>(
        value: &T,
        text: impl Into<String>,
    ) -> Result<CallToolResult, serde_json::Error> {
        Ok(CallToolResult {
            structured: Some(serde_json::value::to_raw_value(value)?),
            ..CallToolResult::text(text)
        })
    }

    /// The result the client sees when a tool fails in a way that is not its message to give
    /// (a panic, a bug): `internal error`, with the details left to the server's log.
    pub(crate) fn internal_error() -> CallToolResult {
        CallToolResult::error(INTERNAL_ERROR)
    }

    /// An internal error with its detail: what a tool's `Err(ToolError::internal(detail))`
    /// (or `?` on any other error) becomes. The client reads `internal error`, and the server
    /// logs the detail with the tool's name (or sends it, when it
    /// [exposes internal errors](crate::Server::expose_internal_errors)).
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// let result = CallToolResult::internal("the cache at /var/lib/app is corrupt");
    /// assert!(result.is_error());
    /// assert_eq!(result.content()[0].as_text(), Some("internal error"));
    /// assert_eq!(result.internal_detail(), Some("the cache at /var/lib/app is corrupt"));
    /// ```
    pub fn internal(detail: impl Into<String>) -> CallToolResult {
        CallToolResult {
            internal: Some(detail.into().into_boxed_str()),
            ..CallToolResult::internal_error()
        }
    }

    /// The detail of an internal error, withheld from the client; `None` for other results.
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, IntoCallToolResult, ToolError};
    ///
    /// assert_eq!(CallToolResult::error("no such note").internal_detail(), None);
    /// let failed: Result<u8, ToolError> = Err(std::io::Error::other("disk full").into());
    /// assert_eq!(failed.into_call_tool_result().internal_detail(), Some("disk full"));
    /// ```
    pub fn internal_detail(&self) -> Option<&str> {
        self.internal.as_deref()
    }

    /// The client capability the call needed and the client lacked, when that is why it
    /// failed (see [`ToolError::missing_capability`]).
    pub(crate) fn missing_capability(&self) -> Option<ClientCapability> {
        self.missing
    }

    /// The URL the user must visit, and the message saying why, when that is why the call
    /// failed (see [`ToolError::url_required`]).
    pub(crate) fn required_url(&self) -> Option<(&str, &str)> {
        let url = self.url_required.as_deref()?;
        let text = self.content.first().and_then(Content::as_text)?;
        let message = text
            .strip_suffix(url)
            .and_then(|m| m.strip_suffix(": "))
            .unwrap_or(text);
        Some((url, message))
    }

    /// The result as sent when details are exposed: the internal detail replaces the
    /// `internal error` text.
    pub(crate) fn exposing_detail(self) -> CallToolResult {
        match self.internal {
            Some(detail) => CallToolResult::error(format!("{INTERNAL_ERROR}: {detail}")),
            None => self,
        }
    }

    /// Marks the result as failed or not, keeping its content: for a failure that carries
    /// more than text (an image of what went wrong). Text alone is [`ToolError::new`].
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, Content};
    ///
    /// let result = CallToolResult::new(vec![Content::text("3 of 5 files copied")]).with_error(true);
    /// assert!(result.is_error());
    /// assert_eq!(result.content()[0].as_text(), Some("3 of 5 files copied"));
    /// ```
    pub fn with_error(mut self, is_error: bool) -> CallToolResult {
        self.is_error = is_error;
        self
    }

    /// Adds a `_meta` entry; an entry with the same key is replaced.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    /// use serde_json::json;
    ///
    /// let result = CallToolResult::text("ok").with_meta("com.example/elapsedMs", json!(12));
    /// assert_eq!(result.meta().unwrap()["com.example/elapsedMs"], 12);
    /// assert_eq!(serde_json::to_value(&result).unwrap()["_meta"], json!({"com.example/elapsedMs": 12}));
    /// ```
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> CallToolResult {
        self.meta.get_or_insert_default().insert(key.into(), value);
        self
    }

    /// The content blocks.
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, Content};
    ///
    /// let result = CallToolResult::text("hello");
    /// assert_eq!(result.content(), [Content::text("hello")]);
    /// ```
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The structured output, as JSON text; `None` unless the result was made with
    /// [`CallToolResult::structured`] (as a tool returning [`Json<T>`] does).
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, IntoCallToolResult, Json};
    ///
    /// let result = Json(vec![2, 3, 5]).into_call_tool_result();
    /// assert_eq!(result.structured_content().unwrap().get(), "[2,3,5]");
    /// assert!(CallToolResult::text("[2,3,5]").structured_content().is_none());
    /// ```
    pub fn structured_content(&self) -> Option<&RawValue> {
        self.structured.as_deref()
    }

    /// Whether the call failed.
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, IntoCallToolResult};
    ///
    /// assert!(!CallToolResult::text("done").is_error());
    /// assert!(Err::<String, _>("the disk is full").into_call_tool_result().is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The result's `_meta`, as [`CallToolResult::with_meta`] set it.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// assert!(CallToolResult::text("ok").meta().is_none());
    /// let traced = CallToolResult::text("ok").with_meta("com.example/trace", "a1b2".into());
    /// assert_eq!(traced.meta().unwrap()["com.example/trace"], "a1b2");
    /// ```
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_deref()
    }
}

/// What a client reads for a failure whose detail it is not given.
const INTERNAL_ERROR: &str = "internal error";

/// Serializes the result as the newest protocol revision shapes it.
impl Serialize for CallToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = 1
            + usize::from(self.structured.is_some())
            + usize::from(self.is_error)
            + usize::from(self.meta.is_some());
        let mut s = serializer.serialize_struct("CallToolResult", fields)?;
        s.serialize_field("content", &self.content)?;
        if let Some(structured) = &self.structured {
            s.serialize_field("structuredContent", structured)?;
        }
        if self.is_error {
            s.serialize_field("isError", &true)?;
        }
        if let Some(meta) = &self.meta {
            s.serialize_field("_meta", meta)?;
        }
        s.end()
    }
}

/// Structured output: the value becomes the result's `structuredContent` (and the same JSON
/// as text), and `T`'s JSON Schema becomes the tool's `outputSchema`.
///
/// ```
/// use mcp_toolkit::{tool, Json};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct TextStats {
///     /// Characters in the text.
///     characters: usize,
///     /// Whitespace-separated words.
///     words: usize,
/// }
///
/// /// Counts the characters and words of a text.
/// #[tool]
/// fn text_stats(text: String) -> Json<TextStats> {
///     Json(TextStats { characters: text.chars().count(), words: text.split_whitespace().count() })
/// }
/// ```
///
/// A `T` that is not a JSON object (a number, a list) is sent as it is to clients of
/// revision 2026-07-28, and wrapped as `{"result": ...}` for the 2025 revisions, which
/// require objects.
///
/// As a parameter, `Json<T>` is the same argument as `T`, with the same schema:
///
/// ```
/// use mcp_toolkit::{tool, tools, Json};
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Point {
///     x: f64,
///     y: f64,
/// }
///
/// /// Measures the distance from the origin.
/// #[tool]
/// fn norm(point: Json<Point>) -> f64 {
///     point.0.x.hypot(point.0.y)
/// }
///
/// let schema = tools![norm][0].input_schema().clone();
/// assert_eq!(schema["properties"]["point"]["required"], json!(["x", "y"]));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Json<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Json)
    }
}

impl<T: JsonSchema> JsonSchema for Json<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// Converts a tool's return value into its [`CallToolResult`], and says which output
/// schema the tool has.
///
/// Implemented for text (`String`, `&str`, `Cow<str>`, numbers, `bool`, `char`), `()` (no
/// content), [`Json<T>`] (structured output), [`Content`] and `Vec<Content>`,
/// [`CallToolResult`] itself, and `Result<T, E>` of any of these with `E: Display` (an `Err`
/// becomes an `isError` result: see the `Result` implementation for what the client reads).
///
/// ```
/// use mcp_toolkit::{IntoCallToolResult, Json};
///
/// assert_eq!(2.5.into_call_tool_result().content()[0].as_text(), Some("2.5"));
/// assert!(().into_call_tool_result().content().is_empty());
/// assert!(Json(vec![1, 2]).into_call_tool_result().structured_content().is_some());
///
/// let failed: Result<u32, String> = Err("the queue is empty".into());
/// assert!(failed.into_call_tool_result().is_error());
/// ```
///
/// Implement it for a type of your own to return it from tools:
///
/// ```
/// use mcp_toolkit::{tool, tools, CallToolResult, Content, Context, IntoCallToolResult};
/// use serde_json::json;
///
/// /// A file's text, sent as an embedded resource.
/// struct FileText { path: String, text: String }
///
/// impl IntoCallToolResult for FileText {
///     fn into_call_tool_result(self) -> CallToolResult {
///         let uri = format!("file://{}", self.path);
///         CallToolResult::new(vec![Content::embedded_text(uri, Some("text/plain".into()), self.text)])
///     }
/// }
///
/// /// Reads a file.
/// #[tool]
/// fn read(path: String) -> FileText {
///     FileText { path, text: "hello".into() }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let result = tools![read][0].call(&Context::default(), json!({"path": "/notes.txt"})).await;
/// let block = serde_json::to_value(&result.content()[0]).unwrap();
/// assert_eq!(block["resource"]["uri"], "file:///notes.txt");
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "this return type does not convert into a tool result",
    note = "a tool may return text (`String`, `&str`, numbers, `bool`, `char`), `()`, `Json<T>` for structured output, `Content` or `Vec<Content>`, a `CallToolResult`, or `Result<T, E>` of these where `E: Display`",
    note = "for structured output, return `Json<T>` where `T` derives `serde::Serialize` and `schemars::JsonSchema`"
)]
pub trait IntoCallToolResult {
    /// The result.
    fn into_call_tool_result(self) -> CallToolResult;

    /// The tool's `outputSchema`, for return types that are structured.
    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        let _ = generator;
        None
    }
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoCallToolResult for () {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::new(Vec::new())
    }
}

impl IntoCallToolResult for String {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for &str {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for Cow<'_, str> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self.into_owned())
    }
}

// Not recommended: the message's note names numbers, `bool` and `char` at once, so the
// compiler's list of the types that convert stays short enough to be read whole.
macro_rules! display_as_text {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl IntoCallToolResult for $t {
            fn into_call_tool_result(self) -> CallToolResult {
                CallToolResult::text(self.to_string())
            }
        }
    )*};
}

display_as_text!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, bool, char
);

impl IntoCallToolResult for Content {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::new(vec![self])
    }
}

impl IntoCallToolResult for Vec<Content> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::new(self)
    }
}

// Not recommended, so that a `Json<T>` whose `T` lacks a trait is reported as the return
// type that does not convert, with the message's note on what to derive, rather than as
// `T`'s missing trait with every type that has it.
#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema> IntoCallToolResult for Json<T> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::structured(&self.0).unwrap_or_else(|error| {
            tracing::error!(%error, output = std::any::type_name::<T>(), "a tool's structured output failed to serialize");
            CallToolResult::internal_error()
        })
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(generator.subschema_for::<T>())
    }
}

/// An `Err` is a failed result. [`ToolError::new`] and plain text (`String`, `&'static str`,
/// `Cow<'static, str>`, `Box<str>`) are messages for the model and are sent as they are; any
/// other error, and a [`ToolError`] converted with `?`, is an internal detail: the client
/// reads `internal error` and the server logs the detail
/// (see [`Server::expose_internal_errors`](crate::Server::expose_internal_errors)).
///
/// ```
/// use mcp_toolkit::IntoCallToolResult;
///
/// let told: Result<u8, String> = Err("the list is empty; add an item first".into());
/// assert_eq!(told.into_call_tool_result().content()[0].as_text(), Some("the list is empty; add an item first"));
///
/// let io: Result<u8, std::io::Error> = Err(std::io::Error::other("/srv/data: permission denied"));
/// let result = io.into_call_tool_result();
/// assert_eq!(result.content()[0].as_text(), Some("internal error"));
/// assert_eq!(result.internal_detail(), Some("/srv/data: permission denied"));
/// ```
impl<T: IntoCallToolResult, E: Display + 'static> IntoCallToolResult for Result<T, E> {
    fn into_call_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_call_tool_result(),
            Err(error) => error_result(&error),
        }
    }

    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        T::output_schema(generator)
    }
}

/// The result for a tool's error: its message when it was written for the model, `internal
/// error` with the detail kept otherwise.
fn error_result<E: Display + 'static>(error: &E) -> CallToolResult {
    let error = ToolError::classify(error);
    if let Some(url) = error.required_url() {
        return CallToolResult {
            url_required: Some(url.into()),
            ..CallToolResult::error(format!("{}: {url}", error.message()))
        };
    }
    if let Some(capability) = error.missing_capability() {
        return CallToolResult {
            missing: Some(capability),
            ..CallToolResult::error(error.message())
        };
    }
    if error.is_internal() {
        CallToolResult::internal(error.message())
    } else {
        CallToolResult::error(error.message())
    }
}

// The result in the formats of model APIs, for programs that run the tools a model asks for.
impl CallToolResult {
    /// The result as the text a model reads: the text blocks joined by blank lines,
    /// structured output as JSON when there is no text, and a short note for each block
    /// that is not text.
    fn model_text(&self) -> String {
        let mut parts: Vec<String> = self.content().iter().map(Content::model_text).collect();
        if parts.is_empty()
            && let Some(structured) = self.structured_content()
        {
            parts.push(structured.get().to_owned());
        }
        parts.join("\n\n")
    }

    /// The result as an OpenAI tool message, to append to the chat's messages:
    /// `{"role": "tool", "tool_call_id": ..., "content": "..."}`.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// let message = CallToolResult::text("5").to_openai_message("call_1");
    /// assert_eq!(message, serde_json::json!({"role": "tool", "tool_call_id": "call_1", "content": "5"}));
    /// ```
    pub fn to_openai_message(&self, tool_call_id: &str) -> Value {
        json!({ "role": "tool", "tool_call_id": tool_call_id, "content": self.model_text() })
    }

    /// The result as an Anthropic `tool_result` block, for the next user message:
    /// `{"type": "tool_result", "tool_use_id": ..., "content": [...], "is_error": ...}`.
    /// Images go as image blocks; other blocks as text.
    ///
    /// ```
    /// use mcp_toolkit::CallToolResult;
    ///
    /// let block = CallToolResult::error("cannot divide by zero").to_anthropic_block("toolu_1");
    /// assert_eq!(block["is_error"], true);
    /// assert_eq!(block["content"][0]["text"], "cannot divide by zero");
    /// ```
    pub fn to_anthropic_block(&self, tool_use_id: &str) -> Value {
        let mut content: Vec<Value> = self
            .content()
            .iter()
            .map(|block| block.anthropic_block(Role::User, false))
            .collect();
        if content.is_empty() {
            content.push(json!({ "type": "text", "text": self.model_text() }));
        }
        json!({
            "type": "tool_result",
            "tool_use_id": tool_use_id,
            "content": content,
            "is_error": self.is_error(),
        })
    }
}
