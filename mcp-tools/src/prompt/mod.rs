//! The prompt model: a [`Prompt`] is a definition (name, title, description, arguments)
//! and a handler that turns a `prompts/get`'s arguments into messages. `#[prompt]` builds
//! one from a documented fn.

mod result;
pub(crate) mod work;

pub use result::{GetPromptResult, IntoPromptResult, PromptMessage};
pub(crate) use work::{HandlerError, PromptInvocation, Work};

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

use crate::completion::{Completing, Completions};
use crate::context::{Context, StateKey};
use crate::error::ToolError;
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::RawArguments;
use crate::tool::Icon;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fmt;
use std::sync::Arc;

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
    pub(crate) def: Arc<Definition>,
    pub(crate) handler: HandlerFn,
}

pub(crate) struct Definition {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) arguments: Vec<PromptArgument>,
    /// How each argument completes: its choices (an enum's values), or a fn.
    pub(crate) completions: Completions,
    pub(crate) icons: Vec<Icon>,
    pub(crate) meta: Option<Map<String, Value>>,
    pub(crate) required_state: Vec<StateKey>,
    /// Whether a `prompts/get` can ask the client things (it takes from its context).
    pub(crate) may_ask: bool,
}

pub(crate) type HandlerFn = fn(&Context, RawArguments<'_>) -> PromptInvocation;

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
    pub(crate) fn required_state(&self) -> &[StateKey] {
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
