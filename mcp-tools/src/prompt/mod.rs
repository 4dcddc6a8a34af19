//! The prompt model: a [`Prompt`] is a definition (name, title, description, arguments)
//! and a handler that turns a `prompts/get`'s arguments into messages. `#[prompt]` builds
//! one from a documented fn.

mod result;

pub use result::{GetPromptResult, IntoPromptResult, PromptMessage};

/// The error a [`#[prompt]`](macro@crate::prompt) fn fails with, named for where it is
/// written: it is [`ToolError`], as every handler fails the same way. An `Err` answers
/// `prompts/get` with a JSON-RPC error: `ToolError::new(message)` sends its message,
/// [`ToolError::not_found`] is `-32602` (the arguments name nothing that is there), and
/// anything else converted with `?` is `internal error`, its detail logged.
///
/// ```
/// use mcp_toolkit::prompt::{PromptError, PromptMessage};
/// use mcp_toolkit::{prompt, prompts, Server};
/// use serde_json::json;
///
/// /// Asks the model to review a note.
/// #[prompt]
/// fn review(
///     /// The note's number
///     id: u32,
/// ) -> Result<PromptMessage, PromptError> {
///     match id {
///         1 => Ok(PromptMessage::user("Review this note: buy milk")),
///         _ => Err(PromptError::not_found(format!("there is no note {id}"))),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let client = Server::new("notes", "1.0.0").prompts(prompts![review]).test_client()?;
/// assert!(client.get_prompt("review", json!({"id": "2"})).await.is_err());
/// assert_eq!(client.last_response().unwrap()["error"]["message"], "there is no note 2");
/// # Ok(())
/// # }
/// ```
pub type PromptError = ToolError;

use crate::completion::{Complete, Completing, Completions, CompletionsBuilder};
use crate::context::{Context, StateKey};
use crate::error::ToolError;
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::RawArguments;
use crate::tool::args::{Arguments, Of, Refusal};
use crate::tool::param::{Kind, Param};
use crate::tool::{Icon, validate_tool_name};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

/// A prompt a server offers: what `prompts/list` shows of it, and how `prompts/get` fills
/// it in. Made by `#[prompt]`; cheap to clone.
///
/// ```
/// use mcp_toolkit::{prompt, prompts, Context};
/// use serde_json::json;
///
/// /// Asks the model to review code.
/// #[prompt]
/// fn review_code(
///     /// The code to review
///     code: String,
///     /// The language it is written in
///     language: Option<String>,
/// ) -> String {
///     format!("Review this {} code:\n\n{code}", language.as_deref().unwrap_or("source"))
/// }
///
/// let prompt = &prompts![review_code][0];
/// assert_eq!(prompt.name(), "review_code");
/// assert_eq!(
///     prompt.definition(mcp_toolkit::protocol::ProtocolVersion::LATEST)["arguments"],
///     json!([
///         {"name": "code", "description": "The code to review", "required": true},
///         {"name": "language", "description": "The language it is written in", "required": false}
///     ])
/// );
/// ```
#[derive(Clone)]
pub struct Prompt {
    def: Arc<Definition>,
    handler: HandlerFn,
}

struct Definition {
    name: String,
    title: Option<String>,
    description: Option<String>,
    arguments: Vec<PromptArgument>,
    /// How each argument completes: its choices (an enum's values), or a fn.
    completions: Completions,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    required_state: Vec<StateKey>,
    /// Whether a `prompts/get` can ask the client things (it takes from its context).
    may_ask: bool,
}

type HandlerFn = fn(&Context, RawArguments<'_>) -> PromptInvocation;

/// An argument of a prompt, as `prompts/list` shows it (and a
/// [`ListedPrompt`](crate::testing::ListedPrompt) reads it: `required` left out is `false`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PromptArgument {
    /// The argument's name.
    pub name: String,
    /// What to pass, from the parameter's doc comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the argument must be given (not an `Option`, no default).
    #[serde(default)]
    pub required: bool,
}

impl Prompt {
    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// The prompt's title, for people.
    pub fn title(&self) -> Option<&str> {
        self.def.title.as_deref()
    }

    /// What the prompt is for, from the fn's doc comment.
    pub fn description(&self) -> Option<&str> {
        self.def.description.as_deref()
    }

    /// The prompt's arguments.
    pub fn arguments(&self) -> &[PromptArgument] {
        &self.def.arguments
    }

    /// The definition as `prompts/list` shows it in a protocol revision.
    pub fn definition(&self, version: ProtocolVersion) -> Value {
        let def = &self.def;
        let mut out = json!({ "name": def.name });
        if version >= ProtocolVersion::V2025_06_18
            && let Some(title) = &def.title
        {
            out["title"] = json!(title);
        }
        if let Some(description) = &def.description {
            out["description"] = json!(description);
        }
        if !def.arguments.is_empty() {
            out["arguments"] = json!(def.arguments);
        }
        if version >= ProtocolVersion::V2025_11_25 && !def.icons.is_empty() {
            out["icons"] = json!(def.icons);
        }
        if version >= ProtocolVersion::V2025_06_18
            && let Some(meta) = &def.meta
        {
            out["_meta"] = json!(meta);
        }
        out
    }

    /// The shared state (`State<T>`) the prompt's parameters need.
    #[doc(hidden)]
    pub fn required_state(&self) -> &[StateKey] {
        &self.def.required_state
    }

    /// Whether a `prompts/get` of this prompt can ask the client things.
    pub(crate) fn may_ask(&self) -> bool {
        self.def.may_ask
    }

    /// Completes `argument` from its partial `value`, given the other arguments
    /// (`completion/complete`), as [`Completions::complete`] does: `None` when the prompt
    /// has no such argument.
    pub(crate) fn complete(
        &self,
        cx: &Context,
        argument: &str,
        value: &str,
        given: &Map<String, Value>,
    ) -> Option<Completing> {
        self.def
            .arguments
            .iter()
            .any(|a| a.name == argument)
            .then(|| self.def.completions.complete(cx, argument, value, given))
    }

    /// Starts a `prompts/get`: decodes the arguments and, if they are good, returns the
    /// work that fills the prompt in.
    pub(crate) fn invoke(&self, cx: &Context, arguments: RawArguments<'_>) -> PromptInvocation {
        (self.handler)(cx, arguments)
    }
}

impl fmt::Debug for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prompt")
            .field("name", &self.def.name)
            .finish_non_exhaustive()
    }
}

/// Why a `prompts/get` has no messages. Not public API.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerError {
    /// The arguments do not fit the prompt's parameters: every problem (`-32602`).
    Arguments(String),
    /// The prompt's fn failed: its error, as a tool's would be.
    Failed(ToolError),
}

/// The work of one request a handler answers (`prompts/get`, `resources/read`): its
/// result `T`, or why there is none. Not public API.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub enum Work<T> {
    /// Answered already (bad arguments, a sync fn).
    Ready(Result<T, HandlerError>),
    /// An `async fn`'s future.
    Future(Pin<Box<dyn Future<Output = Result<T, HandlerError>> + Send>>),
}

/// The work of one `prompts/get`. Not public API.
#[doc(hidden)]
pub type PromptInvocation = Work<GetPromptResult>;

impl<T: Send + 'static> Work<T> {
    /// Boxes an async fn's work.
    pub fn future<F>(future: F) -> Work<T>
    where
        F: Future<Output = Result<T, HandlerError>> + Send + 'static,
    {
        Work::Future(Box::pin(future))
    }

    /// A sync fn's result, made at once: prompts and resources are assembled, not
    /// scheduled. A panic is an internal error, as a tool's is.
    pub fn now(fill: impl FnOnce() -> Result<T, HandlerError>) -> Work<T> {
        Work::Ready(
            std::panic::catch_unwind(AssertUnwindSafe(fill)).unwrap_or_else(|panic| Err(panicked(&*panic))),
        )
    }

    /// Runs the work to its result; a panic becomes an internal error.
    pub(crate) async fn run(self) -> Result<T, HandlerError> {
        match self {
            Work::Ready(result) => result,
            Work::Future(mut future) => {
                std::future::poll_fn(|cx| {
                    match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
                        Ok(poll) => poll,
                        Err(panic) => Poll::Ready(Err(panicked(&*panic))),
                    }
                })
                .await
            }
        }
    }
}

fn panicked(panic: &(dyn std::any::Any + Send)) -> HandlerError {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a non-string panic payload)");
    HandlerError::Failed(ToolError::internal(format!("the handler panicked: {message}")))
}

/// A request's arguments (a prompt's, a resource template's variables), all strings on
/// the wire, split by parameter: a tool's [`Arguments`], reading strings. Not public API.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct RequestArguments<'a, T>(Arguments<'a>, std::marker::PhantomData<fn() -> T>);

/// A prompt's arguments. Not public API.
#[doc(hidden)]
pub type PromptArguments<'a> = RequestArguments<'a, GetPromptResult>;

impl<'a, T> RequestArguments<'a, T> {
    /// Matches a request's arguments to the handler's parameters.
    pub fn parse(
        raw: RawArguments<'a>,
        names: &'static [&'static str],
    ) -> Result<RequestArguments<'a, T>, Work<T>> {
        Arguments::split(raw, names, Of::Prompt)
            .map(|args| RequestArguments(args, std::marker::PhantomData))
            .map_err(|problem| Work::Ready(Err(HandlerError::Arguments(problem))))
    }

    /// Fills parameter `index`; `None` when that failed.
    pub fn take<P>(&mut self, index: usize, param: Param<P>, cx: &Context) -> Option<P> {
        self.0.take(index, param, cx)
    }

    /// Checks for arguments no parameter took; `Err` when anything failed.
    pub fn finish(&mut self) -> Result<(), crate::tool::args::Rejected> {
        self.0.finish()
    }

    /// The failed request's error.
    pub fn into_failure(self) -> Work<T> {
        Work::Ready(Err(match self.0.into_refusal() {
            Refusal::Problems(problems) => HandlerError::Arguments(problems),
            Refusal::Internal(detail) => HandlerError::Failed(ToolError::internal(detail)),
        }))
    }
}

/// How a handler's return type `R` converts into its result `T` (a prompt's, a
/// resource's). Generated code builds it in one place, spanned at the return type, from the
/// conversion named by its trait (`<R as IntoPromptResult>::into_prompt_result`), so a type
/// that does not convert fails that trait's own bound, reported once, there, with its
/// message alone. Not public API.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Converter<R, T> {
    convert: fn(R) -> Result<T, ToolError>,
}

/// How a prompt's return type converts. Not public API.
#[doc(hidden)]
pub type PromptRet<R> = Converter<R, GetPromptResult>;

impl<R, T> Converter<R, T> {
    /// A conversion by `convert`.
    pub const fn new(convert: fn(R) -> Result<T, ToolError>) -> Converter<R, T> {
        Converter { convert }
    }

    /// Converts a return value.
    pub fn convert(self, value: R) -> Result<T, HandlerError> {
        (self.convert)(value).map_err(HandlerError::Failed)
    }
}

impl<R, T> Clone for Converter<R, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, T> Copy for Converter<R, T> {}

/// A `#[prompt]` fn: what `prompts![...]` takes. `#[prompt]` implements it for each fn it
/// marks; there is nothing to implement or call by hand. A name in `prompts![...]` that is
/// not a `#[prompt]` fn is a compile error that names this trait.
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
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a prompt",
    label = "not a `#[prompt]` fn",
    note = "`prompts![...]` takes the names of fns marked with `#[prompt]`"
)]
pub trait PromptFn {
    /// The prompt's name, checked at compile time.
    #[doc(hidden)]
    const NAME: &'static str;
    /// Builds the prompt.
    #[doc(hidden)]
    fn prompt() -> Prompt;
}

/// Assembles a prompt from what the macro read. Not public API.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct PromptBuilder {
    name: &'static str,
    description: Option<&'static str>,
    title: Option<&'static str>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    arguments: Vec<PromptArgument>,
    completions: CompletionsBuilder,
    required_state: Vec<StateKey>,
    may_ask: bool,
}

impl PromptBuilder {
    /// Starts a prompt.
    pub fn new(name: &'static str, description: Option<&'static str>) -> PromptBuilder {
        debug_assert!(validate_tool_name(name).is_ok(), "checked by `#[prompt]`");
        PromptBuilder {
            name,
            description,
            title: None,
            icons: Vec::new(),
            meta: None,
            arguments: Vec::new(),
            completions: CompletionsBuilder::default(),
            required_state: Vec::new(),
            may_ask: false,
        }
    }

    /// Sets the title.
    pub fn title(mut self, title: &'static str) -> PromptBuilder {
        self.title = Some(title);
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> PromptBuilder {
        self.icons.push(icon);
        self
    }

    /// Adds a `_meta` entry.
    pub fn meta<V: Serialize + ?Sized>(mut self, key: &'static str, value: &V) -> PromptBuilder {
        crate::tool::insert_meta(&mut self.meta, self.name, key, value);
        self
    }

    /// Adds a parameter: an argument (a string on the wire), or one the framework fills in.
    pub fn param<T>(
        mut self,
        name: &'static str,
        description: Option<&'static str>,
        param: Param<T>,
    ) -> PromptBuilder {
        self.completions.param(name, &param);
        match param.kind {
            Kind::Injected { state, .. } => {
                self.may_ask = true;
                self.required_state.extend(state().into_keys());
            }
            Kind::Argument(argument) => {
                self.arguments.push(PromptArgument {
                    name: name.to_owned(),
                    description: description.map(str::to_owned),
                    required: argument.absent.is_none(),
                });
            }
        }
        self
    }

    /// Completes argument `name` with `complete` (`#[complete(..)]`), in place of the
    /// choices of its type.
    pub fn complete<M>(mut self, name: &'static str, complete: impl Complete<M>) -> PromptBuilder {
        self.completions
            .complete(name, complete, &mut self.required_state);
        self
    }

    /// Finishes the prompt.
    pub fn build(self, handler: HandlerFn) -> Prompt {
        Prompt {
            def: Arc::new(Definition {
                name: self.name.to_owned(),
                title: self.title.map(str::to_owned),
                description: self.description.map(str::to_owned),
                arguments: self.arguments,
                completions: self.completions.build(),
                icons: self.icons,
                meta: self.meta,
                required_state: self.required_state,
                may_ask: self.may_ask,
            }),
            handler,
        }
    }
}
