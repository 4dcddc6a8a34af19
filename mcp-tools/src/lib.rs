#![doc = include_str!("../README.md")]
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]
#![forbid(unsafe_code)]
// On docs.rs (`--cfg docsrs`, see Cargo.toml), each item gated by a feature is badged with it.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The crate's root holds what a tool author touches on the first day; everything else
// lives in exactly one public module named for its concept. An item shown at the root is
// defined in a private module (or hidden where its module is public), so it has one
// documented path.

#[doc = include_str!("docs/guide.md")]
pub mod guide {
    #[doc = include_str!("docs/tools.md")]
    pub mod tools {}
    #[doc = include_str!("docs/asks.md")]
    pub mod asks {}
    #[doc = include_str!("docs/tasks.md")]
    pub mod tasks {}
    #[doc = include_str!("docs/headers.md")]
    pub mod headers {}
    #[doc = include_str!("docs/result_budgets.md")]
    pub mod result_budgets {}
    #[doc = include_str!("docs/discovery.md")]
    pub mod discovery {}
    #[doc = include_str!("docs/prompts.md")]
    pub mod prompts {}
    #[doc = include_str!("docs/resources.md")]
    pub mod resources {}
    #[doc = include_str!("docs/skills.md")]
    pub mod skills {}
    #[doc = include_str!("docs/completions.md")]
    pub mod completions {}
    #[doc = include_str!("docs/extensions.md")]
    pub mod extensions {}
    #[doc = include_str!("docs/transports.md")]
    pub mod transports {}
    #[doc = include_str!("docs/limits.md")]
    pub mod limits {}
    #[doc = include_str!("docs/testing.md")]
    pub mod testing {}
    #[doc = include_str!("docs/client.md")]
    pub mod client {}
    #[cfg_attr(feature = "oauth", doc = include_str!("docs/authorization.md"))]
    #[cfg_attr(
        not(feature = "oauth"),
        doc = "Authorization: an OAuth 2.1 resource server, bearer tokens, scopes per tool. This chapter needs the `oauth` feature."
    )]
    pub mod authorization {}
    #[cfg_attr(feature = "otel", doc = include_str!("docs/telemetry.md"))]
    #[cfg_attr(
        not(feature = "otel"),
        doc = "Telemetry: request spans and W3C trace context. This chapter needs the `otel` feature."
    )]
    pub mod telemetry {}
    #[doc = include_str!("docs/deployment.md")]
    pub mod deployment {}
}

// The modules. Their layers, bottom up, are the `LAYERS` list of
// `tests/it/architecture.rs` (a module names only its own layer or lower ones); ARCHITECTURE.md
// draws them.
pub mod app;
pub mod ask;
pub mod completion;
pub mod content;
mod context;
pub mod discovery;
mod engine;
mod error;
pub mod extension;
mod form;
pub mod middleware;
#[cfg(feature = "oauth")]
pub mod oauth;
pub mod prompt;
pub mod protocol;
// W3C trace context from `_meta`, made the parent of a request's span.
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "otel")]
mod otel;
mod rate;
pub mod registry;
pub mod resource;
mod result;
pub mod seal;
pub mod server;
pub mod skill;
pub mod task;
pub mod tool;
mod transport;
mod wire_log;

#[doc(inline)]
pub use content::Content;
#[doc(inline)]
pub use context::{Context, FromContext, RequiredState, State};
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

pub mod export;

pub mod client;
pub mod testing;
#[cfg(feature = "cli")]
#[doc(inline)]
pub use server::log::log_to_stderr;

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
/// | `scopes("notes:write", ...)` | the OAuth scopes a caller's token must hold (see [authorization](crate::guide::authorization)) |
/// | `task`, `task = "required"` | whether calls may run as tasks ([`TaskSupport`](crate::tool::TaskSupport)): `task` (or `task = "optional"`) for a client that declares the tasks extension, `"required"` always; `"forbidden"`, the default, never |
/// | `result_budget = 50_000` | the most bytes of text a call answers with at once, at least 1024; a longer result comes in pages (see [result budgets](crate::guide::result_budgets)) |
/// | `group = "billing"` | a group the server may sort its tools by ([`Tool::group`]); 1 to 64 of `A-Z a-z 0-9 _ -`, checked at compile time; not sent to clients |
/// | `search_hint = "..."` | the words a host's tool search should match, sent as `_meta["anthropic/searchHint"]` in every revision; not empty |
/// | `always_load` | asks a host that loads tools on demand to load this one up front, sent as `_meta["anthropic/alwaysLoad"]: true` in every revision |
/// | `max_result_chars = 200_000` | the most characters of a result a host should accept, 1 to 500,000, sent as `_meta["anthropic/maxResultSizeChars"]` in every revision; also the tool's result budget (the smaller, with `result_budget`) |
///
/// On a parameter: `///` describes it, `#[default(expr)]` makes it optional with a default.
///
/// # Tasks
///
/// A tool that takes a while can answer its call with a task, which the client polls (the
/// tasks extension of revision 2026-07-28). `task` works alike on `async` and sync fns,
/// `&self` methods, and tools that take a [`Context`] and ask; a value other than
/// `"optional"`, `"required"` or `"forbidden"` is a compile error at the string.
///
/// ```
/// use mcp_toolkit::tool::TaskSupport;
/// use mcp_toolkit::{tool, tools, Context, ToolError};
///
/// /// Builds the monthly report; takes a while.
/// #[tool(task)]
/// async fn build_report(month: String) -> String {
///     format!("report for {month}")
/// }
///
/// /// Re-indexes everything; only ever runs as a task.
/// #[tool(task = "required")]
/// async fn reindex(ctx: Context) -> Result<String, ToolError> {
///     if ctx.is_cancelled() {
///         return Err(ToolError::new("cancelled"));
///     }
///     Ok("done".into())
/// }
///
/// /// Adds two numbers, at once.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// assert_eq!(tools![build_report][0].task_support(), TaskSupport::Optional);
/// assert_eq!(tools![reindex][0].task_support(), TaskSupport::Required);
/// assert_eq!(tools![add][0].task_support(), TaskSupport::Forbidden);
/// ```
///
/// ```compile_fail
/// use mcp_toolkit::tool;
///
/// /// Re-indexes everything.
/// #[tool(task = "always")] // unknown task support `always`; expected `optional`, `required` or `forbidden`
/// fn reindex() -> &'static str {
///     "done"
/// }
/// ```
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
    ($($tool:ty),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::Entry] =
            &[$( (<$tool as $crate::tool::ToolFn>::NAME, <$tool as $crate::tool::ToolFn>::tool) ),*];
        const _: () = if let ::core::option::Option::Some(duplicate) =
            $crate::__private::duplicate_name::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES), "tool")
        {
            ::core::panic!("{}", duplicate.message())
        };
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
/// `#[complete(my_fn)]` on a parameter names a completion fn
/// ([`Complete`](completion::Complete)) that gets the value typed so far and the arguments
/// already given, and returns candidates: in its simplest form a `fn(&str,
/// &serde_json::Map<String, serde_json::Value>) -> Vec<String>`; or a fn, sync or `async`,
/// that takes what a tool takes from the request (`State<T>`, `Context`) and then a
/// [`Partial`](completion::Partial), to complete from the server's data. The server keeps
/// the candidates that start with the value (then those that contain it, ignoring case), at
/// most 100, with `total` and `hasMore`.
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
    ($($prompt:ty),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::PromptEntry] =
            &[$( (<$prompt as $crate::prompt::PromptFn>::NAME, <$prompt as $crate::prompt::PromptFn>::prompt) ),*];
        const _: () = if let ::core::option::Option::Some(duplicate) =
            $crate::__private::duplicate_name::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES), "prompt")
        {
            ::core::panic!("{}", duplicate.message())
        };
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
/// parameter names a completion fn ([`Complete`](completion::Complete)) that gets the
/// value typed so far and the variables already given, and may take the server's state.
/// The
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

/// Embeds a folder of skills, checked at compile time: `skills!("skills")` takes every folder
/// with a `SKILL.md` below `skills/` (relative to the crate's `Cargo.toml`, as
/// `include_str!` is to the file) and evaluates to a [`Skills`](skill::Skills) for
/// [`Server::skills`]. Each file is embedded with its `sha256:` digest, size and MIME type
/// computed at compile time; editing a file rebuilds.
///
/// The checks are those of [`Skills::from_dir`](skill::Skills::from_dir), every mistake
/// reported at once, each naming its file: a `SKILL.md` beginning with YAML frontmatter that
/// holds `name` and `description` (strings); the folder named as `name`, which has 1 to 64
/// lowercase letters, digits and single hyphens, neither first nor last; at most 512 files
/// and 16 MiB per skill; no `metadata` key starting with `io.modelcontextprotocol/`; file and
/// folder names that fit in a `skill://` URI (ASCII letters, digits, `-._~` and the like);
/// no symbolic links. Hidden files and folders (`.git`, `.DS_Store`) are skipped.
///
/// ```
/// use mcp_toolkit::{skills, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let client = Server::new("notes", "1.0.0").skills(skills!("../examples/skills")).test_client()?;
/// let read = client.read_resource("skill://notes-workflow/SKILL.md").await?;
/// assert!(read.text().unwrap().starts_with("---\nname: notes-workflow\n"));
/// # Ok(())
/// # }
/// ```
///
/// A skill whose folder is not its name does not compile:
///
/// ```compile_fail
/// // `tests/ui/skills/fixtures/misnamed/wrong-folder/SKILL.md`: `name` is `right-name` but
/// // the skill's folder is `wrong-folder`; they must be the same
/// let _ = mcp_toolkit::skills!("../tests/ui/skills/fixtures/misnamed");
/// ```
pub use mcp_toolkit_macros::skills;

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
    ($($resource:ty),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::ResourceEntry] =
            &[$( (<$resource as $crate::resource::ResourceFn>::URI, <$resource as $crate::resource::ResourceFn>::resource) ),*];
        const _: () = if let ::core::option::Option::Some(duplicate) =
            $crate::__private::duplicate_uri::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES))
        {
            ::core::panic!("{}", duplicate.message())
        };
        ENTRIES.iter().map(|(_, resource)| resource()).collect::<::std::vec::Vec<$crate::resource::Resource>>()
    }};
}

/// Turns a documented fn into a custom method of an [`Extension`](extension::Extension)
/// (SEP-3371): `#[method(name = "vendor/name")]`.
///
/// The fn takes what a [`#[tool]`](macro@tool) takes: arguments, which are the members of
/// the request's params (`_meta`, `inputResponses` and `requestState` aside), decoded with
/// every problem named in one invalid-params error (`-32602`); and parameters the
/// framework fills in ([`State<T>`](State), [`Context`]). It returns what
/// [`IntoMethodResult`](extension::IntoMethodResult) converts: `Json<T>`,
/// `serde_json::Value`, or a `Result` of them. A fn that returns `()` handles the
/// notification of that name. List methods with [`methods!`] and give them to
/// [`Extension::methods`](extension::Extension::methods).
///
/// ```
/// use mcp_toolkit::extension::Extension;
/// use mcp_toolkit::{method, methods, Json, Server, State};
/// use serde_json::{json, Value};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// struct Hits { count: AtomicU64 }
///
/// /// Counts a page view.
/// #[method(name = "com.example/hit")]
/// fn hit(hits: State<Hits>, page: String) {
///     let _ = page;
///     hits.count.fetch_add(1, Ordering::Relaxed);
/// }
///
/// /// How many page views there were.
/// #[method(name = "com.example/hits")]
/// fn hits(hits: State<Hits>) -> Json<Value> {
///     Json(json!({ "hits": hits.count.load(Ordering::Relaxed) }))
/// }
///
/// let server = Server::new("pages", "1.0.0")
///     .state(Hits { count: AtomicU64::new(0) })
///     .extension(Extension::new("com.example/hits").methods(methods![hit, hits]));
/// # let _ = server;
/// ```
///
/// The name needs a vendor prefix and cannot be one of the protocol's methods; both are
/// compile errors at the name:
///
/// ```compile_fail
/// use mcp_toolkit::{method, Json};
///
/// /// Calls a tool.
/// #[method(name = "tools/call")] // name `tools/call` is a method of the protocol
/// fn call() -> Json<u8> { Json(1) }
/// ```
#[doc(inline)]
pub use mcp_toolkit_macros::method;

/// The custom methods of an extension: `methods![stats, export]`, by the names of
/// [`#[method]`](macro@method) fns (paths work). Evaluates to a
/// `Vec<`[`Method`](extension::Method)`>`.
///
/// Two methods with one name are a compile error:
///
/// ```compile_fail
/// use mcp_toolkit::{method, methods, Json};
///
/// /// Counts.
/// #[method(name = "com.example/count")]
/// fn count() -> Json<u8> { Json(1) }
///
/// /// Counts again.
/// #[method(name = "com.example/count")]
/// fn again() -> Json<u8> { Json(2) }
///
/// let _ = methods![count, again]; // two methods are named `com.example/count`
/// ```
#[macro_export]
macro_rules! methods {
    ($($method:ty),* $(,)?) => {{
        const ENTRIES: &[$crate::__private::MethodEntry] =
            &[$( (<$method as $crate::extension::MethodFn>::NAME, <$method as $crate::extension::MethodFn>::method) ),*];
        const _: () = if let ::core::option::Option::Some(duplicate) =
            $crate::__private::duplicate_name::<{ ENTRIES.len() }>(&$crate::__private::names(ENTRIES), "method")
        {
            ::core::panic!("{}", duplicate.message())
        };
        ENTRIES.iter().map(|(_, method)| method()).collect::<::std::vec::Vec<$crate::extension::Method>>()
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
#[path = "private/mod.rs"]
pub mod __private;
