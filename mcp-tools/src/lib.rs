//! Write a documented Rust function, get a [Model Context Protocol](https://modelcontextprotocol.io)
//! tool.
//!
//! ```
//! use mcp_tools::{tool, tools, Json, ToolError};
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
//! ```
//!
//! # The pieces
//!
//! | item | what it is |
//! |---|---|
//! | [`#[tool]`](macro@tool) | turns a fn into a tool: name, description, schemas, all checked at compile time |
//! | [`tools!`] | the list of tools a server offers, with duplicate names refused at compile time |
//! | [`Tool`] | one tool: its definition and handler; also built at run time with [`Tool::from_json`] |
//! | [`IntoCallToolResult`] | what a tool may return: text, `()`, [`Json<T>`], [`Content`], `Result<T, E>`, … |
//! | [`Context`], [`State`], [`FromContext`] | parameters filled from the request instead of the arguments |
//! | [`ToolError`] | a failure whose message the model reads |
//!
//! # How parameters become a schema
//!
//! Each parameter is an argument named as in the fn (without `r#`), described by its own
//! `///` comment or by an entry of an `# Arguments` (or `Args:`) list in the fn's doc
//! comment. Its type gives its JSON Schema through [`schemars`]: inline (a recursive type is
//! the only one that uses `$defs`), without `title`s or Rust-only `format`s. `Option<T>` is
//! not required and accepts `null`; `#[default(expr)]` makes an argument optional with that
//! default. The object rejects unknown arguments (`additionalProperties: false`).

#![warn(missing_docs, unreachable_pub)]

#[cfg(feature = "cli")]
mod cli;
mod content;
mod context;
mod engine;
mod error;
pub mod protocol;
mod registry;
mod result;
mod server;
mod tool;
mod transport;
mod wire_log;

#[doc(inline)]
pub use content::{
    Annotations, AudioContent, Content, EmbeddedResource, ImageContent, ResourceContents, ResourceLink, Role,
    TextContent,
};
#[doc(inline)]
pub use context::{Context, FromContext, Principal, State};
#[doc(inline)]
pub use error::{DefinitionError, ToolError};
#[doc(inline)]
pub use registry::ToolRegistry;
#[doc(inline)]
pub use result::{CallToolResult, IntoCallToolResult, Json};
#[cfg(feature = "http")]
#[doc(inline)]
pub use server::HttpServer;
#[doc(inline)]
pub use server::{Error, Server};
#[doc(inline)]
pub use tool::{Icon, IconTheme, Tool, ToolAnnotations, validate_tool_name};

/// Turns a documented fn into an MCP tool.
///
/// ```
/// use mcp_tools::{tool, Json};
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
pub use mcp_tools_macros::tool;

/// The tools a server offers: `tools![calculator, analyze]`, by the names of `#[tool]` fns
/// (paths work: `tools![math::add]`). Evaluates to a `Vec<Tool>`.
///
/// Two tools with one name are a compile error:
///
/// ```compile_fail
/// use mcp_tools::{tool, tools};
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
    ($($tool:path),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::Entry] = &[$( $crate::__private::entry::<$tool>() ),*];
        const _: () = $crate::__private::assert_unique_names(ENTRIES);
        ENTRIES.iter().map(|(_, tool)| tool()).collect::<::std::vec::Vec<$crate::Tool>>()
    }};
}

/// The engine without a transport, for the benchmarks in `benches/`. Not public API.
#[doc(hidden)]
pub mod __bench {
    use crate::engine::{Connection, Engine, Outbox};
    use crate::{Error, Server};
    use std::sync::Arc;
    use tokio::sync::mpsc;

    /// Feeds messages to the engine as a transport would, one connection.
    pub struct LineEngine {
        engine: Arc<Engine>,
        conn: Arc<Connection>,
        out: Outbox,
        queue: mpsc::UnboundedReceiver<Vec<u8>>,
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
                answers.push(answer);
            }
            answers
        }
    }
}

/// What generated code names. Not public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::tool::{
        Arguments, InjectedProbe, Invocation, OptionalProbe, Param, RawArguments, RequiredProbe, Slot,
        ToolBuilder, ToolFn,
    };

    use crate::{CallToolResult, IntoCallToolResult, Tool};
    use schemars::{Schema, SchemaGenerator};

    /// How a tool's return type converts. Generated code builds it in one place, spanned at
    /// the return type, so a type that does not convert is reported once, there.
    pub struct Ret<R> {
        convert: fn(R) -> CallToolResult,
        schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    }

    /// The conversion of return type `R`.
    pub const fn ret<R: IntoCallToolResult>() -> Ret<R> {
        Ret {
            convert: R::into_call_tool_result,
            schema: R::output_schema,
        }
    }

    impl<R> Ret<R> {
        /// Converts a return value.
        pub fn convert(self, value: R) -> CallToolResult {
            (self.convert)(value)
        }

        /// The output schema of the return type.
        pub fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
            (self.schema)(generator)
        }
    }

    impl<R> Clone for Ret<R> {
        fn clone(&self) -> Self {
            *self
        }
    }

    impl<R> Copy for Ret<R> {}

    /// A tool of `tools![...]`: its name, for the duplicate check, and its constructor.
    pub type Entry = (&'static str, fn() -> Tool);

    /// The entry of a `#[tool]` fn.
    pub const fn entry<T: ToolFn>() -> Entry {
        (T::NAME, T::tool)
    }

    /// The body of a tool whose `#[tool]` had errors; never runs, because the crate does
    /// not compile.
    pub fn unreachable_stub() -> Tool {
        unreachable!("a `#[tool]` with compile errors was built")
    }

    /// Fails compilation when two names in `tools![...]` are equal.
    pub const fn assert_unique_names(entries: &[Entry]) {
        let mut i = 0;
        while i < entries.len() {
            let mut j = i + 1;
            while j < entries.len() {
                if str_eq(entries[i].0, entries[j].0) {
                    duplicate_name(entries[i].0);
                }
                j += 1;
            }
            i += 1;
        }
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

    const fn duplicate_name(name: &str) -> ! {
        const PREFIX: &[u8] = b"two tools in `tools![...]` are named `";
        const SUFFIX: &[u8] = b"`; every tool needs its own name: rename one with `#[tool(name = \"...\")]`";
        let mut buffer = [0u8; 256];
        let mut len = 0;
        let parts: [&[u8]; 3] = [PREFIX, name.as_bytes(), SUFFIX];
        let mut p = 0;
        while p < parts.len() {
            let part = parts[p];
            let mut i = 0;
            while i < part.len() {
                buffer[len] = part[i];
                len += 1;
                i += 1;
            }
            p += 1;
        }
        let (message, _) = buffer.split_at(len);
        match core::str::from_utf8(message) {
            Ok(message) => panic!("{}", message),
            Err(_) => panic!("two tools in `tools![...]` have the same name"),
        }
    }
}
