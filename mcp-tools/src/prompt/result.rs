//! What a prompt fills in: [`GetPromptResult`], its [`PromptMessage`]s, and the return
//! types that convert into one ([`IntoPromptResult`]).

use crate::content::{Content, Role};
use crate::error::ToolError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::Display;

/// A message of a filled-in prompt: who says it, and what.
///
/// ```
/// use mcp_toolkit::{Content, prompt::PromptMessage, content::Role};
///
/// let ask = PromptMessage::user("Review this code.");
/// assert_eq!(ask.role, Role::User);
/// let shown = PromptMessage::new(Role::User, Content::image_base64("iVBORw==", "image/png"));
/// assert!(shown.content.as_text().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image, audio, or an embedded resource.
    pub content: Content,
}

impl PromptMessage {
    /// A message with any content.
    pub fn new(role: Role, content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role,
            content: content.into(),
        }
    }

    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> PromptMessage {
        PromptMessage::new(Role::User, Content::text(text))
    }

    /// A text message from the assistant (an example answer, say).
    pub fn assistant(text: impl Into<String>) -> PromptMessage {
        PromptMessage::new(Role::Assistant, Content::text(text))
    }
}

/// A filled-in prompt, as `prompts/get` answers it.
///
/// ```
/// use mcp_toolkit::{prompt::GetPromptResult, prompt::PromptMessage};
///
/// let result = GetPromptResult::new(vec![PromptMessage::user("Hello")]).with_description("A greeting");
/// assert_eq!(result.messages.len(), 1);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GetPromptResult {
    /// What this filled-in prompt is, if it says more than the prompt's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// The result's `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl GetPromptResult {
    /// A result of these messages.
    pub fn new(messages: Vec<PromptMessage>) -> GetPromptResult {
        GetPromptResult {
            messages,
            ..GetPromptResult::default()
        }
    }

    /// Sets the description.
    pub fn with_description(mut self, description: impl Into<String>) -> GetPromptResult {
        self.description = Some(description.into());
        self
    }

    /// The messages as OpenAI chat messages, to start or extend a chat completion's
    /// `messages`: `{"role": "user" | "assistant", "content": ...}`, the content a string
    /// when it is text. A user message carries images as `image_url` parts and WAV or MP3
    /// audio as `input_audio`; what a message of its role cannot carry (an image from the
    /// assistant, a resource link) goes as a note in words.
    ///
    /// ```
    /// use mcp_toolkit::{Content, prompt::GetPromptResult, prompt::PromptMessage, content::Role};
    /// use serde_json::json;
    ///
    /// let filled = GetPromptResult::new(vec![
    ///     PromptMessage::user("What is in this picture?"),
    ///     PromptMessage::new(Role::User, Content::image_base64("iVBORw==", "image/png")),
    ///     PromptMessage::assistant("A cat."),
    /// ]);
    /// assert_eq!(filled.to_openai_messages(), [
    ///     json!({"role": "user", "content": "What is in this picture?"}),
    ///     json!({"role": "user", "content": [
    ///         {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw=="}}]}),
    ///     json!({"role": "assistant", "content": "A cat."}),
    /// ]);
    /// ```
    pub fn to_openai_messages(&self) -> Vec<Value> {
        self.messages
            .iter()
            .map(|message| {
                let content = match message.content.openai_part(message.role) {
                    part if part["type"] == "text" => part["text"].clone(),
                    part => Value::Array(vec![part]),
                };
                serde_json::json!({ "role": role_name(message.role), "content": content })
            })
            .collect()
    }

    /// The messages as Anthropic messages, to start or extend a messages request's
    /// `messages`: consecutive messages of one role become one message whose `content`
    /// holds their blocks, as the API wants turns to alternate. A user message carries
    /// images as `image` blocks and embedded text or PDF resources as `document` blocks;
    /// what a message of its role cannot carry goes as a note in words.
    ///
    /// ```
    /// use mcp_toolkit::{prompt::GetPromptResult, prompt::PromptMessage};
    /// use serde_json::json;
    ///
    /// let filled = GetPromptResult::new(vec![
    ///     PromptMessage::user("Review this code."),
    ///     PromptMessage::user("fn main() {}"),
    ///     PromptMessage::assistant("It does nothing."),
    /// ]);
    /// assert_eq!(filled.to_anthropic_messages(), [
    ///     json!({"role": "user", "content": [
    ///         {"type": "text", "text": "Review this code."},
    ///         {"type": "text", "text": "fn main() {}"}]}),
    ///     json!({"role": "assistant", "content": [{"type": "text", "text": "It does nothing."}]}),
    /// ]);
    /// ```
    pub fn to_anthropic_messages(&self) -> Vec<Value> {
        let mut turns: Vec<(Role, Vec<Value>)> = Vec::new();
        for message in &self.messages {
            let block = message.content.anthropic_block(message.role, true);
            match turns.last_mut() {
                Some((role, blocks)) if *role == message.role => blocks.push(block),
                _ => turns.push((message.role, vec![block])),
            }
        }
        turns
            .into_iter()
            .map(|(role, blocks)| serde_json::json!({ "role": role_name(role), "content": blocks }))
            .collect()
    }
}

/// The wire name of a role, as the model APIs spell it too.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// A type a `#[prompt]` fn can return: text (one user message), a [`PromptMessage`], a
/// `Vec` of them, a whole [`GetPromptResult`], or a `Result` of these.
///
/// An `Err` answers the `prompts/get` with a JSON-RPC error: [`ToolError::new`] and plain
/// text are messages for the client (`-32603`), [`ToolError::not_found`] too, as invalid
/// params (`-32602`: the arguments name something that is not there), anything else an
/// internal error whose detail goes to the server's log, as for tools.
///
/// ```
/// use mcp_toolkit::{prompt::IntoPromptResult, prompt::PromptMessage};
///
/// let one = "Summarize the notes.".into_prompt_result().unwrap();
/// assert_eq!(one.messages, [PromptMessage::user("Summarize the notes.")]);
/// let failed: Result<String, String> = Err("there are no notes".into());
/// assert_eq!(failed.into_prompt_result().unwrap_err().message(), "there are no notes");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a prompt",
    label = "not a prompt's result",
    note = "return text (`String`, `&'static str`), a `PromptMessage`, a `Vec<PromptMessage>`, a `GetPromptResult`, or a `Result` of these"
)]
pub trait IntoPromptResult {
    /// The filled-in prompt, or the error to answer with.
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        Ok(self)
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl IntoPromptResult for Cow<'static, str> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Display + 'static> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        match self {
            Ok(value) => value.into_prompt_result(),
            Err(error) => Err(ToolError::classify(&error)),
        }
    }
}
