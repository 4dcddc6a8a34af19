//! `sampling/createMessage`: a message from the client's model.

use super::{answer_as, read};
use crate::content::{Content, Role};
use crate::context::Context;
use crate::error::{AskError, ClientCapability};
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::{QUOTED_CHARS, cut};
use crate::tool::Tool;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::{Future, IntoFuture};
use std::pin::Pin;

/// The tokens a sampling request allows when it does not say: enough for a paragraph.
const DEFAULT_MAX_TOKENS: u32 = 1000;

/// A message of a sampling conversation: who said it, and what.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who said it.
    pub role: Role,
    /// What was said: text, an image or audio.
    pub content: Content,
}

impl SamplingMessage {
    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage {
            role: Role::User,
            content: Content::text(text),
        }
    }

    /// A text message from the model (for a conversation with earlier turns).
    pub fn assistant(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage {
            role: Role::Assistant,
            content: Content::text(text),
        }
    }
}

/// Which model the server would like the client to pick; the client may ignore it.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ModelPreferences {
    /// Model names or families, best first (`"claude-3-5-sonnet"`, `"sonnet"`).
    pub hints: Vec<String>,
    /// How much cost matters, 0 to 1.
    pub cost_priority: Option<f64>,
    /// How much speed matters, 0 to 1.
    pub speed_priority: Option<f64>,
    /// How much capability matters, 0 to 1.
    pub intelligence_priority: Option<f64>,
}

impl ModelPreferences {
    fn to_json(&self) -> Value {
        let mut preferences = Map::new();
        if !self.hints.is_empty() {
            let hints: Vec<Value> = self.hints.iter().map(|name| json!({ "name": name })).collect();
            preferences.insert("hints".into(), json!(hints));
        }
        for (key, value) in [
            ("costPriority", self.cost_priority),
            ("speedPriority", self.speed_priority),
            ("intelligencePriority", self.intelligence_priority),
        ] {
            if let Some(value) = value {
                preferences.insert(key.into(), json!(value));
            }
        }
        Value::Object(preferences)
    }
}

/// What to ask the client's model: the conversation and how to sample it. A `&str` or a
/// `String` is one user message; [`Context::sample`]'s builder sets the rest.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to sample; 1000 when `None`.
    pub max_tokens: Option<u32>,
    /// A system prompt the client may use.
    pub system_prompt: Option<String>,
    /// The sampling temperature.
    pub temperature: Option<f64>,
    /// Sequences that end sampling.
    pub stop_sequences: Vec<String>,
    /// Which model the server would like.
    pub model_preferences: Option<ModelPreferences>,
    /// Tools the model may call while sampling (needs the client's `sampling.tools`).
    pub tools: Vec<Tool>,
}

impl From<&str> for SamplingRequest {
    fn from(text: &str) -> SamplingRequest {
        SamplingRequest::from(text.to_owned())
    }
}

impl From<String> for SamplingRequest {
    fn from(text: String) -> SamplingRequest {
        SamplingRequest {
            messages: vec![SamplingMessage::user(text)],
            ..SamplingRequest::default()
        }
    }
}

impl From<Vec<SamplingMessage>> for SamplingRequest {
    fn from(messages: Vec<SamplingMessage>) -> SamplingRequest {
        SamplingRequest {
            messages,
            ..SamplingRequest::default()
        }
    }
}

impl SamplingRequest {
    /// The request's `params` for a revision.
    fn to_params(&self, version: ProtocolVersion) -> Value {
        let messages: Vec<Value> = self
            .messages
            .iter()
            .map(|message| json!({ "role": message.role, "content": message.content }))
            .collect();
        let mut params = json!({
            "messages": messages,
            "maxTokens": self.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        });
        if let Some(system) = &self.system_prompt {
            params["systemPrompt"] = json!(system);
        }
        if let Some(temperature) = self.temperature {
            params["temperature"] = json!(temperature);
        }
        if !self.stop_sequences.is_empty() {
            params["stopSequences"] = json!(self.stop_sequences);
        }
        if let Some(preferences) = &self.model_preferences {
            params["modelPreferences"] = preferences.to_json();
        }
        if !self.tools.is_empty() {
            let tools: Vec<Value> = self.tools.iter().map(|tool| tool.definition(version)).collect();
            params["tools"] = json!(tools);
        }
        params
    }
}

/// What the client's model answered.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct SamplingResponse {
    /// Who said it: the model.
    pub role: Role,
    /// The content blocks, as sent: `text`, `image`, `audio`, and with tools `tool_use`.
    #[serde(deserialize_with = "one_or_many")]
    pub content: Vec<Value>,
    /// The model that answered.
    pub model: String,
    /// Why sampling stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`), if known.
    #[serde(default, rename = "stopReason")]
    pub stop_reason: Option<String>,
}

impl SamplingResponse {
    /// The answer's text: its text blocks joined; `None` when it has none.
    ///
    /// ```
    /// use mcp_toolkit::ask::SamplingResponse;
    /// use serde_json::json;
    ///
    /// let response: SamplingResponse = serde_json::from_value(json!({
    ///     "role": "assistant", "model": "m", "content": {"type": "text", "text": "Paris"}
    /// })).unwrap();
    /// assert_eq!(response.text(), Some("Paris".to_owned()));
    /// ```
    pub fn text(&self) -> Option<String> {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter(|block| block["type"] == "text")
            .filter_map(|block| block["text"].as_str())
            .collect();
        (!texts.is_empty()).then(|| texts.concat())
    }
}

/// Whether an answer is a `CreateMessageResult`: a role, a model, and content blocks that
/// are each one of the sampling content kinds with the fields it requires.
fn check(answer: &Value) -> Result<(), String> {
    let response: SamplingResponse = read(answer)?;
    let one = !answer["content"].is_array();
    for (at, block) in response.content.iter().enumerate() {
        let place = if one {
            "`content`".to_owned()
        } else {
            format!("`content[{at}]`")
        };
        check_block(block).map_err(|reason| format!("{place}: {reason}"))?;
    }
    Ok(())
}

/// A field a content block requires: its name, the test its value passes, and what that
/// test wants, for the reason it failed.
type Field = (&'static str, fn(&Value) -> bool, &'static str);

/// Whether a block is text, an image, audio, a tool use or a tool result, with the fields
/// its kind requires.
fn check_block(block: &Value) -> Result<(), String> {
    let Some(kind) = block.get("type").and_then(Value::as_str) else {
        return Err("expected a content block with a `type`".to_owned());
    };
    let required: &[Field] = match kind {
        "text" => &[("text", Value::is_string, "a string")],
        "image" | "audio" => &[
            ("data", Value::is_string, "a string"),
            ("mimeType", Value::is_string, "a string"),
        ],
        "tool_use" => &[
            ("id", Value::is_string, "a string"),
            ("name", Value::is_string, "a string"),
            ("input", Value::is_object, "an object"),
        ],
        "tool_result" => &[
            ("toolUseId", Value::is_string, "a string"),
            ("content", Value::is_array, "a list"),
        ],
        other => {
            let other = cut(other, QUOTED_CHARS).unwrap_or(other);
            return Err(format!(
                "unknown block type `{other}`; expected `text`, `image`, `audio`, `tool_use` or `tool_result`"
            ));
        }
    };
    for (field, fits, what) in required {
        if !block.get(*field).is_some_and(fits) {
            return Err(format!("a `{kind}` block needs `{field}`, {what}"));
        }
    }
    if block.get("_meta").is_some_and(|meta| !meta.is_object()) {
        return Err("`_meta` must be an object".to_owned());
    }
    Ok(())
}

/// `content` is one block or, with tools (2025-11-25 on), a list of them.
fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Value>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Array(blocks) => blocks,
        block => vec![block],
    })
}

/// An ask for a message from the client's model, made by [`Context::sample`]; set what
/// it needs, then `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct Sample<'a> {
    cx: &'a Context,
    request: SamplingRequest,
    key: Option<String>,
}

impl Sample<'_> {
    /// The most tokens to sample (1000 by default).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.request.max_tokens = Some(max_tokens);
        self
    }

    /// A system prompt the client may use.
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.request.system_prompt = Some(prompt.into());
        self
    }

    /// Adds a message to the conversation.
    pub fn message(mut self, message: SamplingMessage) -> Self {
        self.request.messages.push(message);
        self
    }

    /// The sampling temperature.
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.request.temperature = Some(temperature);
        self
    }

    /// Sequences that end sampling.
    pub fn stop_sequences<S: Into<String>>(mut self, stops: impl IntoIterator<Item = S>) -> Self {
        self.request.stop_sequences = stops.into_iter().map(Into::into).collect();
        self
    }

    /// Which model the server would like.
    pub fn model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.request.model_preferences = Some(preferences);
        self
    }

    /// Tools the model may call while sampling; needs the client's `sampling.tools`.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Self {
        self.request.tools = tools.into_iter().collect();
        self
    }

    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`sample_N` by default). Keys must differ within a call.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for Sample<'a> {
    type Output = Result<SamplingResponse, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let version = self.cx.protocol_version().unwrap_or(ProtocolVersion::LATEST);
            let needs: &[ClientCapability] = if self.request.tools.is_empty() {
                &[ClientCapability::Sampling]
            } else {
                &[ClientCapability::Sampling, ClientCapability::SamplingTools]
            };
            let params = self.request.to_params(version);
            let answer = (self.cx)
                .ask(
                    needs,
                    "sampling/createMessage",
                    params,
                    self.key.as_deref(),
                    check,
                )
                .await?;
            answer_as("sampling/createMessage", &answer)
        })
    }
}

impl Context {
    /// Asks the client's model for a message: `request` is a `&str` or `String` (one user
    /// message) or a [`SamplingRequest`]; the builder this returns sets the token limit,
    /// system prompt, temperature and the rest. Needs the client's `sampling` capability;
    /// see [the asks](crate::ask) for how this works in each protocol era.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Suggests a title for a text.
    /// #[tool]
    /// async fn suggest_title(cx: Context, text: String) -> Result<String, ToolError> {
    ///     let answer = cx.sample(format!("A five-word title for: {text}")).max_tokens(20).await?;
    ///     Ok(answer.text().unwrap_or_default())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("titles", "1.0.0")
    ///     .tools(tools![suggest_title])
    ///     .test_client()?
    ///     .on_sample(|request| async move {
    ///         assert_eq!(request["maxTokens"], 20);
    ///         json!({"role": "assistant", "model": "test", "content": {"type": "text", "text": "On Engines"}})
    ///     });
    /// let result = client.call("suggest_title", json!({"text": "notes on engines"})).await?;
    /// assert_eq!(result.text(), Some("On Engines"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn sample(&self, request: impl Into<SamplingRequest>) -> Sample<'_> {
        Sample {
            cx: self,
            request: request.into(),
            key: None,
        }
    }
}

impl fmt::Debug for Sample<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("request", &self.request)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}
