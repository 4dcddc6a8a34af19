//! Write a documented Rust function, get a [Model Context Protocol](https://modelcontextprotocol.io)
//! tool: its name checked at compile time, its description from the doc comment, its input
//! schema from the parameter types. One server answers both protocol eras, on stdio or
//! Streamable HTTP.
//!
//! # Tools
//!
//! A tool is a function a model can call: a name, a description for the model, a JSON
//! Schema of its arguments, and the code that runs. [`#[tool]`](macro@tool) makes one from a
//! fn and leaves the fn as it was, so your own tests can call it; [`tools!`] lists the tools
//! a server offers and refuses two with one name at compile time. Each is a [`Tool`];
//! [`Tool::from_json`] builds one at run time, for tools that come from data.
//!
//! ```
//! use mcp_toolkit::{tool, tools, ToolError};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! #[serde(rename_all = "lowercase")]
//! enum Operation { Add, Subtract, Multiply, Divide }
//!
//! /// Perform basic arithmetic on two numbers.
//! #[tool(annotations(read_only, idempotent))]
//! async fn calculator(
//!     /// The operation to perform
//!     operation: Operation,
//!     /// The first operand
//!     a: f64,
//!     /// The second operand
//!     b: f64,
//! ) -> Result<f64, ToolError> {
//!     match operation {
//!         Operation::Add => Ok(a + b),
//!         Operation::Subtract => Ok(a - b),
//!         Operation::Multiply => Ok(a * b),
//!         Operation::Divide if b == 0.0 => Err(ToolError::new("division by zero: `b` must not be 0")),
//!         Operation::Divide => Ok(a / b),
//!     }
//! }
//!
//! let tools = tools![calculator];
//! assert_eq!(tools[0].name(), "calculator");
//! assert_eq!(tools[0].description(), Some("Perform basic arithmetic on two numbers."));
//! assert_eq!(tools[0].input_schema()["required"], serde_json::json!(["operation", "a", "b"]));
//! ```
//!
//! # A server
//!
//! A [`Server`] has a name and a version, tools, shared state and limits, and serves them.
//! MCP clients launch a server and talk to it on standard input and output:
//!
//! ```no_run
//! use mcp_toolkit::{tool, tools, Server};
//!
//! /// Adds two numbers.
//! #[tool]
//! fn add(a: f64, b: f64) -> f64 { a + b }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), mcp_toolkit::Error> {
//!     Server::new("calculator", env!("CARGO_PKG_VERSION"))
//!         .tools(tools![add])
//!         .serve_stdio()
//!         .await
//! }
//! ```
//!
//! # Parameters and schemas
//!
//! Each parameter is an argument named as in the fn (without `r#`), described by its own
//! `///` comment or by an entry of an `# Arguments` (or `Args:`) list in the fn's doc
//! comment. Its type gives its JSON Schema through [`schemars`]: inline (a recursive type is
//! the only one that uses `$defs`), without `title`s or Rust-only `format`s. `Option<T>` is
//! not required and accepts `null`; `#[default(expr)]` makes an argument optional with that
//! default. The object rejects unknown arguments (`additionalProperties: false`). An
//! argument's type implements `serde::Deserialize` and `schemars::JsonSchema` and owns its
//! data (`String`, not `&str`).
//!
//! ```
//! use mcp_toolkit::{tool, tools};
//! use serde_json::json;
//!
//! /// Searches the notes.
//! #[tool]
//! fn search(
//!     /// Words to look for
//!     query: String,
//!     /// Only notes with this tag
//!     tag: Option<String>,
//!     /// The most notes to return
//!     #[default(10)]
//!     limit: u32,
//! ) -> String {
//!     format!("{query} {tag:?} {limit}")
//! }
//!
//! let search = tools![search].remove(0);
//! let schema = search.input_schema();
//! assert_eq!(schema["required"], json!(["query"]));
//! assert_eq!(schema["properties"]["query"], json!({"type": "string", "description": "Words to look for"}));
//! assert_eq!(schema["properties"]["limit"]["default"], 10);
//! assert_eq!(schema["additionalProperties"], false);
//! ```
//!
//! Arguments that do not fit never reach the fn: the model gets one error result that names
//! every problem, so it can correct them in one go.
//!
//! # Return types
//!
//! A tool returns anything that implements [`IntoCallToolResult`]:
//!
//! | return type | the result |
//! |---|---|
//! | `String`, `&str`, numbers, `bool` | one text block |
//! | `()` | no content |
//! | [`Json<T>`] | structured output (`structuredContent`, and the same JSON as text); `T`'s schema is the tool's `outputSchema` |
//! | [`Content`], `Vec<Content>` | text, images, audio, links to resources, embedded resources |
//! | [`CallToolResult`] | the result as you build it |
//! | `Result<T, E>` of these, `E: Display` | an `Err` is a result with `isError: true` whose text the model reads; [`ToolError`] is the usual `E` |
//!
//! A tool that panics answers `internal error`; the panic's message goes to the log, and the
//! server goes on. A sync fn runs on tokio's blocking pool, so it may block; an `async fn`
//! runs on the runtime and must not.
//!
//! # Context and State
//!
//! Parameters whose type implements [`FromContext`] are filled by the framework and are not
//! in the schema: [`Context`] (the request's id, the client, the protocol revision,
//! progress, logging, cancellation), [`State<T>`] (shared state given with
//! [`Server::state`]; a server without it refuses to start) and [`ToolRegistry`](crate::registry::ToolRegistry) (the
//! server's tools, to change while serving).
//!
//! ```
//! use mcp_toolkit::{tool, tools, Context, Server, State};
//! use serde_json::json;
//! use std::sync::Mutex;
//!
//! #[derive(Default)]
//! struct Notes {
//!     lines: Mutex<Vec<String>>,
//! }
//!
//! /// Keeps a note and says how many there are.
//! #[tool]
//! fn remember(text: String, notes: State<Notes>, cx: Context) -> usize {
//!     let mut lines = notes.lines.lock().unwrap();
//!     lines.push(text);
//!     cx.report_progress(1.0, Some(1.0), Some("saved"));
//!     lines.len()
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
//! let server = Server::new("notes", "1.0.0").tools(tools![remember]).state(Notes::default());
//! let client = server.test_client()?;
//! assert_eq!(client.list_tools().await?[0]["inputSchema"]["required"], json!(["text"]));
//! client.call("remember", json!({"text": "buy milk"})).await?;
//! let second = client.call_with_progress("remember", json!({"text": "call Ada"})).await?;
//! assert_eq!(second.text(), Some("2"));
//! assert_eq!(second.notifications()[0]["params"]["message"], "saved");
//! # Ok(())
//! # }
//! ```
//!
//! # Methods
//!
//! `#[tool]` also goes on methods taking `&self`, for tools that share something their type
//! owns (a connection pool, a cache). `tools![instance => method_a, method_b]` registers
//! them from an `Arc` of the instance; see [`tools!`].
//!
//! # Protocol eras and transports
//!
//! A server speaks every revision in
//! [`ProtocolVersion::ALL`](protocol::ProtocolVersion::ALL), in two eras, even on one
//! connection:
//!
//! - **2026-07-28**: stateless. Each request carries the revision and the client's identity
//!   and capabilities in its `_meta`; `server/discover` describes the server.
//! - **2024-11-05 to 2025-11-25**: `initialize` opens a session at a negotiated revision.
//!
//! Definitions and results are shaped as the client's revision defines them
//! ([`Tool::definition`]): no `structuredContent` before 2025-06-18, and structured output
//! that is not an object wrapped as `{"result": ...}` in 2025-06-18 and 2025-11-25.
//!
//! | transport | serve with |
//! |---|---|
//! | stdio: one client, one message per line | [`Server::serve_stdio`] |
//! | any byte stream pair (a socket, a pipe) | [`Server::serve_io`] |
//! | Streamable HTTP on `/mcp` (legacy revisions from 2025-03-26) | [`Server::serve_http`]; [`Server::bind_http`] to learn the port first; [`Server::into_router`] to merge into an axum application |
//!
//! Over HTTP, `Host` and `Origin` must be loopback names unless [`HttpSettings::allowed_hosts`](crate::server::HttpSettings::allowed_hosts) and
//! [`HttpSettings::allowed_origins`](crate::server::HttpSettings::allowed_origins) say otherwise; [`Server::bearer_auth`] checks a token on every
//! request, and [`Server::tool_visibility`] makes the tool list depend on the caller.
//!
//! # Limits
//!
//! Every limit has a default that is safe to run with. Reaching one fails only the message,
//! call or stream it concerns, with an error that says what happened, and the server goes
//! on. A stream of subscriptions whose client falls behind is told, once it has caught up,
//! that everything it listens to changed.
//!
//! | limit | default | set with |
//! |---|---|---|
//! | message size | 16 MiB | [`Limits::max_message_size`](crate::server::Limits::max_message_size) |
//! | result size | 16 MiB | [`Limits::max_result_size`](crate::server::Limits::max_result_size) |
//! | calls in progress | 1024 | [`Limits::max_concurrent_calls`](crate::server::Limits::max_concurrent_calls) |
//! | call time | 60 s | [`Limits::call_timeout`](crate::server::Limits::call_timeout), [`Limits::tool_timeout`](crate::server::Limits::tool_timeout) |
//! | notifications one stream holds for a slow client | 256 messages, 256 KiB | [`Limits::stream_backlog`](crate::server::Limits::stream_backlog) |
//! | time a stream with a full backlog may take nothing | 30 s | [`Limits::stream_stall_timeout`](crate::server::Limits::stream_stall_timeout) |
//!
//! # Testing
//!
//! [`Server::test_client`] gives a [`TestClient`](crate::testing::TestClient) that talks to the server inside the test
//! process: no binary to spawn, no transport, but every message goes through the real
//! engine as JSON, so a test sees what a client would receive. [`Server::test_client_legacy`]
//! opens a legacy session instead.
//!
//! ```
//! use mcp_toolkit::{tool, tools, Server};
//! use serde_json::json;
//!
//! /// Adds two numbers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
//! let client = Server::new("calc", "1.0.0").tools(tools![add]).test_client()?;
//! assert_eq!(client.list_tools().await?.len(), 1);
//! let sum = client.call("add", json!({"a": 2, "b": 3})).await?;
//! assert_eq!(sum.text(), Some("5"));
//! let wrong = client.call("add", json!({"a": "two"})).await?;
//! assert!(wrong.is_error()); // names `a` and the missing `b`, as the model reads it
//! # Ok(())
//! # }
//! ```
//!
//! # Calling model APIs directly
//!
//! A program that calls a model API itself, and runs the tools the model asks for, needs no
//! MCP client: [`Server::openai_tools`] and [`Server::anthropic_tools`] give the definitions
//! in each API's format, [`Server::execute`] runs a tool call in any shape models write
//! ([`ToolCall`](crate::export::ToolCall)), and [`CallToolResult::to_openai_message`] and
//! [`CallToolResult::to_anthropic_block`] turn the result into what the API expects back.
//!
//! ```
//! use mcp_toolkit::{tool, tools, Server};
//! use serde_json::json;
//!
//! /// Adds two numbers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), mcp_toolkit::export::ExportError> {
//! let server = Server::new("calc", "1.0.0").tools(tools![add]);
//! let definitions = server.openai_tools()?; // the request's `tools`
//! assert_eq!(definitions[0]["function"]["name"], "add");
//!
//! // The model's answer asks for a call:
//! let tool_call = json!({"id": "call_1", "type": "function",
//!                        "function": {"name": "add", "arguments": "{\"a\": 2, \"b\": 3}"}});
//! let result = server.execute(&tool_call).await;
//! assert_eq!(
//!     result.to_openai_message("call_1"),
//!     json!({"role": "tool", "tool_call_id": "call_1", "content": "5"})
//! );
//! # Ok(())
//! # }
//! ```
//!
//! # The command line
//!
//! With the `cli` feature, `Server::run` gives a server a command line: no arguments
//! serves stdio, `--http 127.0.0.1:8080` serves HTTP, `tools` prints the definitions, and
//! `call NAME '{"a": 1}'` runs one tool and prints its result.
//!
//! # Telemetry
//!
//! Every request the engine serves, over any transport and in either era, runs in one
//! `tracing` span at `INFO`, target `mcp_toolkit::request`, from its arrival until its response
//! (a call that waits, asks the client or runs on the blocking pool included). Its fields
//! are those of the OpenTelemetry semantic conventions for MCP servers: `mcp.method.name`,
//! `gen_ai.tool.name` and `gen_ai.operation.name` (`tools/call`), `gen_ai.prompt.name`
//! (`prompts/get`), `mcp.resource.uri`, `jsonrpc.request.id`, `mcp.protocol.version`,
//! `mcp.session.id` (legacy HTTP sessions), `network.transport`, `network.protocol.name`,
//! `client.address`, and on failure `error.type` (the JSON-RPC error code, or `tool_error`
//! for a result with `isError`) and `rpc.response.status_code`; with `otel.kind = "server"`
//! and `otel.name = "tools/call add"` for tracing-opentelemetry. With the `otel` feature, a
//! request's `traceparent` and `tracestate` in `_meta` (SEP-414) make the caller's span its
//! parent. With no subscriber, or one that leaves the target out, a span costs a check.
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `http` | on | [`Server::serve_http`], [`Server::bind_http`], [`Server::into_router`] (axum, hyper) |
//! | `cli` | off | `Server::run`: the command line (lexopt) |
//! | `validate-output` | off | every structured result is checked against its tool's `outputSchema` before it is sent; a mismatch is an [internal error](CallToolResult::internal) |
//! | `oauth` | off | `Server::oauth`: an OAuth 2.1 resource server (Protected Resource Metadata, JWT access tokens checked against the issuer's JWKS, introspection, per-tool scopes); see the `oauth` module |
//! | `otel` | off | a request's `traceparent` and `tracestate` in `_meta` become the remote parent of its span (tracing-opentelemetry); see [Telemetry](#telemetry) |
//!
//! stdio, [`TestClient`](crate::testing::TestClient) and the macros are always there.

#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]
#![forbid(unsafe_code)]

// The crate's root holds what a tool author touches on the first day; everything else
// lives in exactly one public module named for its concept. An item shown at the root is
// defined in a private module (or hidden where its module is public), so it has one
// documented path.

// The layers, bottom up; a module names only those above it in this list (see the
// README's architecture section).
pub mod ask;
mod completion;
pub mod content;
mod context;
mod engine;
mod error;
#[cfg(feature = "oauth")]
pub mod oauth;
// RFC 6570 URI templates: one dependency-free file, shared with the macro crate.
#[allow(unreachable_pub, dead_code)]
mod uri_template {
    include!("uri_template.rs");
}
mod form;
pub mod prompt;
pub mod protocol;
// W3C trace context from `_meta`, made the parent of a request's span.
#[cfg(feature = "otel")]
mod otel;
mod rate;
pub mod registry;
pub mod resource;
mod result;
pub mod seal;
pub mod server;
pub mod tool;
mod transport;
mod wire_log;

#[doc(inline)]
pub use content::Content;
#[doc(inline)]
pub use context::{Context, FromContext, State};
#[doc(inline)]
pub use error::ToolError;
#[doc(inline)]
pub use result::{CallToolResult, IntoCallToolResult, Json};
#[doc(inline)]
pub use server::builder::Server;
#[doc(inline)]
pub use server::error::Error;
#[doc(inline)]
pub use tool::Tool;

/// Who is calling: the authenticated caller of a request, as an authorization layer
/// (the `oauth` feature's resource server, or your own) vouches for it.
pub mod auth {
    pub use crate::context::Principal;
}

/// Tools in the formats of model APIs (OpenAI's function calling, Anthropic's tool use) and
/// tool calls from outside the protocol: [`Server::execute`](crate::Server::execute) runs a
/// [`ToolCall`](crate::export::ToolCall) in any shape models write.
pub mod export {
    pub use crate::error::ExportError;
    pub use crate::server::export::ToolCall;
}

/// Testing a server without a transport: [`Server::test_client`](crate::Server::test_client)
/// gives a [`TestClient`](crate::testing::TestClient) that talks to the server inside the test process, through the
/// same engine every transport drives; both test clients fail with the one [`ClientError`](crate::testing::ClientError).
///
/// No feature gates it: it brings no dependency the engine does not have, and a binary
/// that never calls `test_client` links none of it.
pub mod testing {
    pub use crate::server::testing::{CallResponse, ClientError, Completion, TestClient};
}

/// Turns a documented fn into an MCP tool.
///
/// ```
/// use mcp_toolkit::{tool, Json};
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct TextStats { characters: usize, words: usize }
///
/// /// Count the characters and words of a text.
/// ///
/// /// # Arguments
/// /// * `text` - The text to analyze
/// #[tool(name = "text_analyzer")]
/// fn analyze(text: String) -> Json<TextStats> {
///     Json(TextStats { characters: text.chars().count(), words: text.split_whitespace().count() })
/// }
///
/// // The fn is untouched: call it in your own tests.
/// assert_eq!(analyze("a b".into()).0.words, 2);
/// ```
///
/// # Attribute keys
///
/// | key | meaning |
/// |---|---|
/// | `name = "..."` | the name clients call (default: the fn's name without `r#`); 1 to 128 of `A-Z a-z 0-9 _ - .`, checked at compile time |
/// | `title = "..."` | the display title (default: from the name, `text_analyzer` → `Text Analyzer`) |
/// | `description = "..."` | overrides the doc comment; one of the two is required |
/// | `annotations(read_only, destructive, idempotent, open_world, title = "...")` | behaviour hints; a flag alone means `true`, or write `destructive = false` |
/// | `icons("https://…", icon(src = "…", mime_type = "…", sizes = ["48x48"], theme = "dark"))` | icons |
/// | `meta(key = value, "com.example/key" = value)` | the definition's `_meta`; values are any expression that serializes |
///
/// On a parameter: `///` describes it, `#[default(expr)]` makes it optional with a default.
///
/// # Parameters
///
/// A parameter is an argument the client sends unless its type implements
/// [`FromContext`] ([`Context`],
/// [`State<T>`](State)), in which case the framework fills it in. An argument's type
/// must implement `serde::Deserialize` and `schemars::JsonSchema`, and own its data
/// (`String`, not `&str`).
///
/// # Returns
///
/// Anything that implements [`IntoCallToolResult`]. A sync fn
/// runs on tokio's blocking pool, so it may block; an `async fn` runs on the runtime and
/// must not.
#[doc(inline)]
pub use mcp_toolkit_macros::tool;

/// The tools a server offers: `tools![calculator, analyze]`, by the names of `#[tool]` fns
/// (paths work: `tools![math::add]`). Evaluates to a `Vec<Tool>`.
///
/// `tools![instance => method, ...]` gives the tools of `#[tool]` methods taking `&self`,
/// built from `instance`, an `Arc` of the type: for servers whose tools share something
/// they own (a connection pool, a cache). Each call borrows the instance.
///
/// ```
/// use mcp_toolkit::{tool, tools, Server};
/// use std::sync::{Arc, Mutex};
///
/// struct Cache { entries: Mutex<Vec<String>> }
///
/// impl Cache {
///     /// Remembers a line.
///     #[tool]
///     fn remember(&self, line: String) -> usize {
///         let mut entries = self.entries.lock().unwrap();
///         entries.push(line);
///         entries.len()
///     }
/// }
///
/// let cache = Arc::new(Cache { entries: Mutex::new(Vec::new()) });
/// let mut server = Server::new("cache", "1.0.0").tools(tools![cache => remember]);
/// assert_eq!(server.tool_registry().tools()[0].name(), "remember");
/// ```
///
/// Two tools with one name are a compile error:
///
/// ```compile_fail
/// use mcp_toolkit::{tool, tools};
///
/// /// Adds.
/// #[tool(name = "add")]
/// fn plus(a: i32, b: i32) -> i32 { a + b }
///
/// /// Also adds.
/// #[tool]
/// fn add(a: i32, b: i32) -> i32 { a + b }
///
/// let _ = tools![plus, add]; // two tools are named `add`
/// ```
#[macro_export]
macro_rules! tools {
    ($instance:expr => $($method:ident),+ $(,)?) => {{
        let instance: &::std::sync::Arc<_> = &$instance;
        $crate::__private::method_tools!(instance => $($method),+)
    }};
    ($($tool:path),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::Entry] = &[$( $crate::__private::entry::<$tool>() ),*];
        const _: () = $crate::__private::assert_unique_names::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES), "tool");
        ENTRIES.iter().map(|(_, tool)| tool()).collect::<::std::vec::Vec<$crate::Tool>>()
    }};
}

/// Turns a documented fn into an MCP prompt: a template that clients list, fill in with
/// arguments and hand to the model as messages.
///
/// ```
/// use mcp_toolkit::protocol::ProtocolVersion;
/// use mcp_toolkit::{prompt, prompts, prompt::PromptMessage};
/// use serde_json::json;
///
/// /// Asks the model to review code.
/// #[prompt(title = "Code review")]
/// fn review_code(
///     /// The code to review
///     code: String,
///     /// The language it is written in
///     language: Option<String>,
/// ) -> Vec<PromptMessage> {
///     let language = language.as_deref().unwrap_or("source");
///     vec![
///         PromptMessage::user(format!("Review this {language} code:\n\n{code}")),
///         PromptMessage::assistant("I will look at correctness first, then style."),
///     ]
/// }
///
/// let prompts = prompts![review_code];
/// assert_eq!(
///     prompts[0].definition(ProtocolVersion::LATEST),
///     json!({
///         "name": "review_code",
///         "title": "Code review",
///         "description": "Asks the model to review code.",
///         "arguments": [
///             {"name": "code", "description": "The code to review", "required": true},
///             {"name": "language", "description": "The language it is written in", "required": false}
///         ]
///     })
/// );
///
/// // The fn is untouched: call it in your own tests.
/// assert_eq!(review_code("fn main() {}".into(), None).len(), 2);
/// ```
///
/// # Attribute keys
///
/// | key | meaning |
/// |---|---|
/// | `name = "..."` | the name clients ask for (default: the fn's name without `r#`); 1 to 128 of `A-Z a-z 0-9 _ - .`, checked at compile time |
/// | `title = "..."` | the display title (default: from the name, `review_code` → `Review Code`) |
/// | `description = "..."` | overrides the doc comment; one of the two is required |
/// | `icons("https://…", icon(src = "…", mime_type = "…", sizes = ["48x48"], theme = "dark"))` | icons |
/// | `meta(key = value, "com.example/key" = value)` | the definition's `_meta`; values are any expression that serializes |
///
/// `annotations(...)` is a tool's and an error here. On a parameter: `///` describes the
/// argument, `#[default(expr)]` makes it optional with a default.
///
/// # Arguments
///
/// A prompt's arguments are strings on the wire. A `String` parameter takes the text as it
/// is; any other argument type (it implements `serde::Deserialize` and
/// `schemars::JsonSchema`, as a tool's) reads the text as JSON, so `"3"` fills a `u32`.
/// An argument that does not parse fails the `prompts/get` with an invalid-params error
/// (`-32602`) naming it. `Option<T>` and `#[default(..)]` make an argument not required.
/// Parameters whose type implements [`FromContext`] ([`Context`], [`State<T>`](State)) are
/// filled in by the framework and are not arguments.
///
/// # Completions
///
/// `completion/complete` offers values for an argument as the user types it. An argument
/// whose type is an enum of strings completes from its values with no code;
/// `#[complete(my_fn)]` on a parameter names a `fn(&str, &serde_json::Map<String,
/// serde_json::Value>) -> Vec<String>` that gets the value typed so far and the arguments
/// already given, and returns candidates. The server keeps those that start with the value
/// (then those that contain it, ignoring case), at most 100, with `total` and `hasMore`.
///
/// ```
/// use mcp_toolkit::{prompt, prompts, Server};
/// use serde_json::{json, Map, Value};
///
/// /// The cities of a country, for completing `city`.
/// fn cities(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
///     match given.get("country").and_then(Value::as_str) {
///         Some("pt") => vec!["Lisbon".into(), "Porto".into()],
///         _ => vec!["Paris".into(), "Lyon".into()],
///     }
/// }
///
/// /// Plans a city break.
/// #[prompt]
/// fn city_break(
///     /// The country, as a two-letter code
///     country: String,
///     /// The city
///     #[complete(cities)]
///     city: String,
/// ) -> String {
///     format!("Plan a weekend in {city} ({country}).")
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("trips", "1.0.0").prompts(prompts![city_break]).test_client()?;
/// let completed = client.request("completion/complete", json!({
///     "ref": {"type": "ref/prompt", "name": "city_break"},
///     "argument": {"name": "city", "value": "p"},
///     "context": {"arguments": {"country": "pt"}}
/// })).await?;
/// assert_eq!(completed["completion"], json!({"values": ["Porto"], "total": 1, "hasMore": false}));
/// # Ok(())
/// # }
/// ```
///
/// # Returns
///
/// Anything that implements [`IntoPromptResult`](crate::prompt::IntoPromptResult): text (`String`, `&'static str`) for one
/// user message, a [`PromptMessage`](crate::prompt::PromptMessage) (a role, and text, an image, audio or an embedded
/// resource), a `Vec<PromptMessage>`, a whole [`GetPromptResult`](crate::prompt::GetPromptResult), or a `Result` of these,
/// whose `Err` answers the request with an error. A sync fn runs at once, on the task that
/// answers the request: prompts assemble text; an `async fn` may await.
///
/// `#[prompt]` goes on free fns only, not on methods: a prompt that needs something shared
/// takes it as a [`State<T>`](State) parameter.
#[doc(inline)]
pub use mcp_toolkit_macros::prompt;

/// The prompts a server offers: `prompts![review_code, summarize]`, by the names of
/// `#[prompt]` fns (paths work: `prompts![docs::review_code]`). Evaluates to a
/// `Vec<Prompt>`.
///
/// ```
/// use mcp_toolkit::{prompt, prompts};
///
/// /// Asks for a summary.
/// #[prompt]
/// fn summarize(text: String) -> String {
///     format!("Summarize:\n\n{text}")
/// }
///
/// assert_eq!(prompts![summarize][0].name(), "summarize");
/// ```
///
/// Two prompts with one name are a compile error:
///
/// ```compile_fail,E0080
/// use mcp_toolkit::{prompt, prompts};
///
/// /// Summarizes.
/// #[prompt(name = "summary")]
/// fn summarize(text: String) -> String { text }
///
/// /// Also summarizes.
/// #[prompt]
/// fn summary(text: String) -> String { text }
///
/// let _ = prompts![summarize, summary]; // two prompts are named `summary`
/// ```
#[macro_export]
macro_rules! prompts {
    ($($prompt:path),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::PromptEntry] = &[$( $crate::__private::prompt_entry::<$prompt>() ),*];
        const _: () = $crate::__private::assert_unique_names::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES), "prompt");
        ENTRIES.iter().map(|(_, prompt)| prompt()).collect::<::std::vec::Vec<$crate::prompt::Prompt>>()
    }};
}

/// Turns a documented fn into an MCP resource, or a resource template when its URI has
/// `{...}` variables: clients list it and read it by URI. The fn's value is the contents.
///
/// ```
/// use mcp_toolkit::{resource, resources};
///
/// /// The project's README.
/// #[resource(uri = "docs://readme", mime_type = "text/markdown")]
/// async fn readme() -> String {
///     "# mcp-toolkit".to_owned()
/// }
///
/// /// A chapter of the guide.
/// #[resource(uri = "docs://guide/{chapter}{?lang}", mime_type = "text/markdown")]
/// fn chapter(chapter: u32, lang: Option<String>) -> String {
///     format!("chapter {chapter} in {}", lang.as_deref().unwrap_or("en"))
/// }
///
/// // The fn is untouched: call it in your own tests.
/// assert_eq!(chapter(2, None), "chapter 2 in en");
/// let resources = resources![readme, chapter];
/// assert_eq!(resources[1].uri(), "docs://guide/{chapter}{?lang}");
/// ```
///
/// The attribute takes `uri` (required), `name` (default: the fn's name), `title`,
/// `description` (default: the doc comment), `mime_type`, `icons(...)` and `meta(...)`, as
/// [`macro@tool`] does; and, for clients to judge a resource before reading it:
///
/// - `size = 4096`: the contents' length in bytes ([`Resource::size`](crate::resource::Resource::size)), for a fixed URI
///   only, as a template's resources differ;
/// - `annotations(audience = ["user", "assistant"], priority = 0.5, last_modified =
///   "2025-01-12T15:00:58Z")`: who the contents are for, how much they matter (0 to 1),
///   when they changed (RFC 3339) ([`Resource::annotations`](crate::resource::Resource::annotations));
/// - `cache(ttl_ms = 60000, scope = "public")`: the `ttlMs` and `cacheScope` of its reads
///   in revision 2026-07-28 ([`Resource::ttl_ms`](crate::resource::Resource::ttl_ms), [`Resource::cache_scope`](crate::resource::Resource::cache_scope)). Without
///   it, reads say `ttlMs: 0`, read again; an authenticated caller's reads are always
///   `private`.
///
/// Each is checked at compile time: a size on a template, a role other than `"user"` or
/// `"assistant"` (or one given twice), a priority out of range, a date-time RFC 3339 does
/// not allow, an unknown scope or key is an error at its token.
///
/// The URI is parsed as an RFC 6570 template at compile time, and each mistake is a compile
/// error at its text. Each variable of a template is a parameter of the same name, decoded
/// from its text like a prompt's argument; a query variable (`{?lang}`, `{&page}`) may be
/// left out of a URI, so its parameter is an `Option<_>` or has a `#[default(..)]`. Other
/// parameters are injected: [`Context`], [`State<T>`](State), any [`FromContext`] type. A
/// fixed URI's fn takes no arguments.
///
/// The return type is anything [`IntoReadResult`](crate::resource::IntoReadResult): text, JSON, bytes, or a `Result` of
/// these, whose `Err` answers the read with an error. A sync fn runs at once, on the task
/// that reads the request; an `async fn` is awaited.
///
/// # Completions
///
/// `completion/complete` offers values for a template's variable as the user types it, as
/// it does for a prompt's argument ([`macro@prompt`]): a variable whose type is an enum of
/// strings completes from its values with no code, and `#[complete(my_fn)]` on its
/// parameter names a `fn(&str, &serde_json::Map<String, serde_json::Value>) ->
/// Vec<String>` that gets the value typed so far and the variables already given. The
/// request's `ref` is `{"type": "ref/resource", "uri": ...}` with the template as
/// `resources/templates/list` shows it. A fixed URI has no variables, so no completion.
///
/// ```
/// use mcp_toolkit::{resource, resources, Server};
/// use serde_json::{json, Map, Value};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// #[serde(rename_all = "lowercase")]
/// enum Shelf { Fiction, History, Poetry }
///
/// /// The books on a shelf, for completing `title`.
/// fn titles(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
///     match given.get("shelf").and_then(Value::as_str) {
///         Some("poetry") => vec!["Odes".into(), "Sonnets".into()],
///         _ => vec!["Dune".into(), "Emma".into()],
///     }
/// }
///
/// /// A book.
/// #[resource(uri = "library://{shelf}/{title}")]
/// fn book(shelf: Shelf, #[complete(titles)] title: String) -> String {
///     let _ = shelf;
///     title
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("library", "1.0.0").resources(resources![book]).test_client()?;
/// let (template, given) = ("library://{shelf}/{title}", json!({"shelf": "poetry"}));
/// let shelves = client.complete_resource(template, "shelf", "", given.clone()).await?;
/// assert_eq!(shelves.values, ["fiction", "history", "poetry"]);
/// let books = client.complete_resource(template, "title", "s", given).await?;
/// assert_eq!(books.values, ["Sonnets", "Odes"]);
/// assert_eq!((books.total, books.has_more), (Some(2), false));
/// # Ok(())
/// # }
/// ```
#[doc(inline)]
pub use mcp_toolkit_macros::resource;

/// The resources a server offers: `resources![readme, profile]`, by the names of
/// `#[resource]` fns (paths work). Evaluates to a `Vec<Resource>`.
///
/// Two resources with one URI are a compile error:
///
/// ```compile_fail,E0080
/// use mcp_toolkit::{resource, resources};
///
/// /// The README.
/// #[resource(uri = "docs://readme")]
/// fn readme() -> String { String::new() }
///
/// /// The README again.
/// #[resource(uri = "docs://readme")]
/// fn again() -> String { String::new() }
///
/// let _ = resources![readme, again]; // two resources have the URI `docs://readme`
/// ```
#[macro_export]
macro_rules! resources {
    ($($resource:path),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::ResourceEntry] = &[$( $crate::__private::resource_entry::<$resource>() ),*];
        const _: () = $crate::__private::assert_unique_uris::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES));
        ENTRIES.iter().map(|(_, resource)| resource()).collect::<::std::vec::Vec<$crate::resource::Resource>>()
    }};
}

/// The engine without a transport, for the benchmarks in `benches/`. Not public API.
#[doc(hidden)]
pub mod __bench {
    use crate::engine::{Connection, Engine, Outbox, Queue};
    use crate::{Error, Server};
    use std::sync::Arc;

    /// Feeds messages to the engine as a transport would, one connection.
    #[allow(missing_debug_implementations)] // support for generated code, not public API
    pub struct LineEngine {
        engine: Arc<Engine>,
        conn: Arc<Connection>,
        out: Outbox,
        queue: Queue,
    }

    impl LineEngine {
        /// The engine of `server`. Call from within a tokio runtime.
        pub fn new(server: Server) -> Result<LineEngine, Error> {
            let (out, queue) = Outbox::channel();
            Ok(LineEngine {
                engine: server.into_engine()?,
                conn: Arc::new(Connection::new()),
                out,
                queue,
            })
        }

        /// Handles one message; returns what was answered without waiting.
        pub fn handle(&mut self, message: &[u8]) -> Vec<Vec<u8>> {
            self.engine.handle(&self.conn, message, &self.out, None);
            let mut answers = Vec::new();
            while let Ok(answer) = self.queue.try_recv() {
                answers.push(answer.bytes);
            }
            answers
        }
    }
}

/// What generated code names. Not public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use mcp_toolkit_macros::method_tools;

    pub use crate::tool::{
        Arguments, FromArgument, InjectedProbe, Invocation, OptionalProbe, Param, RawArguments,
        RequiredProbe, Slot, ToolBuilder, ToolFn,
    };

    pub use crate::tool::{Ret, ret};

    pub use crate::completion::Completer;

    pub use crate::prompt::{
        PromptArguments, PromptBuilder, PromptError, PromptFn, PromptInvocation, PromptRet, RequestArguments,
        Work, prompt_ret,
    };

    pub use crate::resource::{
        ReadOutput, ResourceArguments, ResourceBuilder, ResourceFn, ResourceInvocation, ResourceRet,
        resource_ret,
    };

    use crate::Tool;
    use crate::prompt::Prompt;
    use crate::resource::Resource;

    /// A tool of `tools![...]`: its name, for the duplicate check, and its constructor.
    pub type Entry = (&'static str, fn() -> Tool);

    /// A prompt of `prompts![...]`: its name and its constructor.
    pub type PromptEntry = (&'static str, fn() -> Prompt);

    /// A resource of `resources![...]`: its URI, for the duplicate check, and its constructor.
    pub type ResourceEntry = (&'static str, fn() -> Resource);

    /// The entry of a `#[resource]` fn.
    pub const fn resource_entry<T: ResourceFn>() -> ResourceEntry {
        (T::URI, T::resource)
    }

    /// The entry of a `#[tool]` fn.
    pub const fn entry<T: ToolFn>() -> Entry {
        (T::NAME, T::tool)
    }

    /// The entry of a `#[prompt]` fn.
    pub const fn prompt_entry<T: PromptFn>() -> PromptEntry {
        (T::NAME, T::prompt)
    }

    /// The body of a tool or prompt whose macro had errors; never runs, because the crate
    /// does not compile.
    pub fn unreachable_stub<T>() -> T {
        unreachable!("a `#[tool]`, `#[prompt]` or `#[resource]` with compile errors was built")
    }

    /// The names (URIs) of the entries of `tools![...]`, `prompts![...]` or `resources![...]`.
    pub const fn names<const N: usize, F>(entries: &[(&'static str, F)]) -> [&'static str; N] {
        let mut names = [""; N];
        let mut i = 0;
        while i < N {
            names[i] = entries[i].0;
            i += 1;
        }
        names
    }

    /// Fails compilation when two of the names in `tools![...]` (`noun` is `"tool"`) or
    /// `prompts![...]` (`"prompt"`) are equal. `N` is the number of entries: the names are
    /// sorted (a heapsort, in `N log N` comparisons, so hundreds of tools stay cheap to
    /// check), then neighbours compared.
    pub const fn assert_unique_names<const N: usize>(entries: &[&'static str; N], noun: &str) {
        if let Some(name) = first_duplicate(entries) {
            duplicate_name(noun, name);
        }
    }

    /// Fails compilation when two of the URIs in `resources![...]` are equal.
    pub const fn assert_unique_uris<const N: usize>(entries: &[&'static str; N]) {
        if let Some(uri) = first_duplicate(entries) {
            fail(&[
                b"two resources in `resources![...]` have the URI `",
                uri.as_bytes(),
                b"`; every resource needs its own URI",
            ]);
        }
    }

    /// A string that is in `entries` twice, if any: the entries are sorted (a heapsort, in
    /// `N log N` comparisons, so hundreds of entries stay cheap to check), then neighbours
    /// compared.
    const fn first_duplicate<const N: usize>(entries: &[&'static str; N]) -> Option<&'static str> {
        let mut order = [0usize; N];
        let mut i = 0;
        while i < N {
            order[i] = i;
            i += 1;
        }
        let mut start = N / 2;
        while start > 0 {
            start -= 1;
            sift_down(&mut order, entries, start, N);
        }
        let mut end = N;
        while end > 1 {
            end -= 1;
            let top = order[0];
            order[0] = order[end];
            order[end] = top;
            sift_down(&mut order, entries, 0, end);
        }
        let mut k = 1;
        while k < N {
            let name = entries[order[k]];
            if str_eq(entries[order[k - 1]], name) {
                return Some(name);
            }
            k += 1;
        }
        None
    }

    /// Restores the max-heap order of `order[root..end]` by name.
    const fn sift_down<const N: usize>(
        order: &mut [usize; N],
        entries: &[&'static str; N],
        mut root: usize,
        end: usize,
    ) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && str_lt(entries[order[child]], entries[order[child + 1]]) {
                child += 1;
            }
            if !str_lt(entries[order[root]], entries[order[child]]) {
                return;
            }
            let parent = order[root];
            order[root] = order[child];
            order[child] = parent;
            root = child;
        }
    }

    /// Byte-wise `a < b`.
    const fn str_lt(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let mut i = 0;
        while i < a.len() && i < b.len() {
            if a[i] != b[i] {
                return a[i] < b[i];
            }
            i += 1;
        }
        a.len() < b.len()
    }

    const fn str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// "two tools in `tools![...]` are named `add`; ...", for a `noun` and a `name`.
    const fn duplicate_name(noun: &str, name: &str) -> ! {
        let (noun, name) = (noun.as_bytes(), name.as_bytes());
        fail(&[
            b"two ",
            noun,
            b"s in `",
            noun,
            b"s![...]` are named `",
            name,
            b"`; every ",
            noun,
            b" needs its own name: rename one with `#[",
            noun,
            b"(name = \"...\")]`",
        ])
    }

    /// Panics (a compile error in a `const`) with the message made of `parts`.
    const fn fail(parts: &[&[u8]]) -> ! {
        let mut buffer = [0u8; 512];
        let mut len = 0;
        let mut p = 0;
        while p < parts.len() {
            let part = parts[p];
            let mut i = 0;
            while i < part.len() && len < buffer.len() {
                buffer[len] = part[i];
                len += 1;
                i += 1;
            }
            p += 1;
        }
        let (message, _) = buffer.split_at(len);
        match core::str::from_utf8(message) {
            Ok(message) => panic!("{}", message),
            Err(_) => panic!("two entries of `tools![...]`, `prompts![...]` or `resources![...]` clash"),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn finds_a_duplicate_wherever_it_is() {
            const UNIQUE: [&str; 7] = ["b", "a", "ab", "ba", "abc", "c", "aa"];
            const _: () = assert_unique_names::<7>(&UNIQUE, "tool");
            let cases = [
                ["x", "b", "c", "d", "e", "f", "x"],
                ["a", "b", "c", "d", "c", "f", "g"],
                ["g", "f", "e", "d", "c", "b", "g"],
            ];
            for names in cases {
                let found = std::panic::catch_unwind(|| assert_unique_names::<7>(&names, "tool"));
                assert!(found.is_err(), "{names:?}");
            }
        }

        #[test]
        fn names_the_duplicate_and_the_attribute_that_renames() {
            let message = |noun: &str| {
                let panic = std::panic::catch_unwind(|| assert_unique_names::<3>(&["b", "a", "b"], noun))
                    .expect_err("`b` is there twice");
                panic.downcast_ref::<String>().cloned().unwrap_or_default()
            };
            assert_eq!(
                message("tool"),
                "two tools in `tools![...]` are named `b`; every tool needs its own name: rename one with `#[tool(name = \"...\")]`"
            );
            assert_eq!(
                message("prompt"),
                "two prompts in `prompts![...]` are named `b`; every prompt needs its own name: rename one with `#[prompt(name = \"...\")]`"
            );
        }

        #[test]
        fn names_the_duplicate_uri() {
            const _: () = assert_unique_uris::<2>(&["docs://a", "docs://{a}"]);
            let panic = std::panic::catch_unwind(|| assert_unique_uris::<3>(&["a://x", "b://{y}", "a://x"]))
                .expect_err("`a://x` is there twice");
            assert_eq!(
                panic.downcast_ref::<String>().cloned().unwrap_or_default(),
                "two resources in `resources![...]` have the URI `a://x`; every resource needs its own URI"
            );
        }

        #[test]
        fn the_names_are_the_entries_first_halves() {
            const ENTRIES: &[Entry] = &[("a", unreachable_stub::<Tool>), ("b", unreachable_stub::<Tool>)];
            assert_eq!(names::<2, _>(ENTRIES), ["a", "b"]);
        }
    }
}
