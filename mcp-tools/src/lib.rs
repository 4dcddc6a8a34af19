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
//! | [`TestClient`] | a client in the test process: lists and calls a [`Server`]'s tools through the real engine, in either protocol era |
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
mod export;
pub mod protocol;
mod registry;
mod result;
mod server;
mod testing;
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
pub use export::ToolCall;
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
pub use testing::{CallResponse, ClientError, TestClient};
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
/// `tools![instance => method, ...]` gives the tools of `#[tool]` methods taking `&self`,
/// built from `instance`, an `Arc` of the type: for servers whose tools share something
/// they own (a connection pool, a cache). Each call borrows the instance.
///
/// ```
/// use mcp_tools::{tool, tools, Server};
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
/// let server = Server::new("cache", "1.0.0").tools(tools![cache => remember]);
/// assert_eq!(server.registry().tools()[0].name(), "remember");
/// ```
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
    ($instance:expr => $($method:ident),+ $(,)?) => {{
        let instance: &::std::sync::Arc<_> = &$instance;
        $crate::__private::method_tools!(instance => $($method),+)
    }};
    ($($tool:path),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::Entry] = &[$( $crate::__private::entry::<$tool>() ),*];
        const _: () = $crate::__private::assert_unique_names::<{ ENTRIES.len() }>(ENTRIES);
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
    pub use mcp_tools_macros::method_tools;

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

    /// Fails compilation when two names in `tools![...]` are equal. `N` is the number of
    /// entries: the names are sorted (a heapsort, in `N log N` comparisons, so hundreds of
    /// tools stay cheap to check), then neighbours compared.
    pub const fn assert_unique_names<const N: usize>(entries: &[Entry]) {
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
            let name = entries[order[k]].0;
            if str_eq(entries[order[k - 1]].0, name) {
                duplicate_name(name);
            }
            k += 1;
        }
    }

    /// Restores the max-heap order of `order[root..end]` by name.
    const fn sift_down<const N: usize>(
        order: &mut [usize; N],
        entries: &[Entry],
        mut root: usize,
        end: usize,
    ) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && str_lt(entries[order[child]].0, entries[order[child + 1]].0) {
                child += 1;
            }
            if !str_lt(entries[order[root]].0, entries[order[child]].0) {
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

    #[cfg(test)]
    mod tests {
        use super::*;

        const fn entries<const N: usize>(names: [&'static str; N]) -> [Entry; N] {
            let mut entries = [("", unreachable_stub as fn() -> Tool); N];
            let mut i = 0;
            while i < N {
                entries[i].0 = names[i];
                i += 1;
            }
            entries
        }

        #[test]
        fn finds_a_duplicate_wherever_it_is() {
            const UNIQUE: [Entry; 7] = entries(["b", "a", "ab", "ba", "abc", "c", "aa"]);
            const _: () = assert_unique_names::<7>(&UNIQUE);
            let cases = [
                ["x", "b", "c", "d", "e", "f", "x"],
                ["a", "b", "c", "d", "c", "f", "g"],
                ["g", "f", "e", "d", "c", "b", "g"],
            ];
            for names in cases {
                let all = entries(names);
                let found = std::panic::catch_unwind(|| assert_unique_names::<7>(&all));
                assert!(found.is_err(), "{names:?}");
            }
        }
    }
}
