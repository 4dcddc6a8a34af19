//! Tools in the formats of model APIs (OpenAI's function calling, Anthropic's tool use) and
//! tool calls from outside the protocol: [`Server::execute`](crate::Server::execute) runs a
//! [`ToolCall`] in any shape models write.
//!
//! The tools and prompts in the formats of model APIs, for programs that call a model
//! directly and run the tools it asks for themselves: definitions for OpenAI's function
//! calling and Anthropic's tool use, a [`ToolCall`] read from whatever JSON a model wrote,
//! its result turned back into the message each API expects, and prompts filled in to
//! start a conversation with ([`GetPromptResult::to_openai_messages`]).

pub use crate::error::ExportError;

use crate::prompt::{GetPromptResult, HandlerError};
use crate::result::CallToolResult;
use crate::server::builder::Server;
use crate::tool::Tool;
use serde_json::{Value, json};

/// A call a model asked for, read from the JSON it wrote with [`ToolCall::from_json`], or
/// built by hand; [`Server::execute_call`] runs it.
///
/// ```
/// use mcp_toolkit::export::ToolCall;
/// use serde_json::json;
///
/// let anthropic = json!({"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 2, "b": 3}});
/// assert_eq!(
///     ToolCall::from_json(&anthropic).unwrap(),
///     ToolCall { id: Some("toolu_1".into()), name: "add".into(), arguments: json!({"a": 2, "b": 3}) }
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The id the API gave the call (`tool_call_id`, `tool_use_id`), to answer with.
    pub id: Option<String>,
    /// The tool.
    pub name: String,
    /// The arguments object.
    pub arguments: Value,
}

impl ToolCall {
    /// Reads a tool call in any of the shapes models and their APIs produce:
    ///
    /// - `{"name": ..., "arguments": {...}}` (and `"arguments"` as a JSON string);
    /// - `{"name": ..., "parameters": {...}}` (Llama's JSON tool calling);
    /// - OpenAI's `{"id": ..., "type": "function", "function": {"name": ..., "arguments": "{...}"}}`;
    /// - Anthropic's `{"type": "tool_use", "id": ..., "name": ..., "input": {...}}`.
    ///
    /// `Err` says what is missing or wrong, in words to pass back to the model.
    ///
    /// ```
    /// use mcp_toolkit::export::ToolCall;
    /// use serde_json::json;
    ///
    /// let openai = json!({"id": "call_1", "type": "function",
    ///                     "function": {"name": "add", "arguments": "{\"a\": 2, \"b\": 3}"}});
    /// let call = ToolCall::from_json(&openai).unwrap();
    /// assert_eq!(call.id.as_deref(), Some("call_1"));
    /// assert_eq!(call.arguments, json!({"a": 2, "b": 3}));
    ///
    /// let llama = json!({"name": "add", "parameters": {"a": 2, "b": 3}});
    /// assert_eq!(ToolCall::from_json(&llama).unwrap().arguments, json!({"a": 2, "b": 3}));
    ///
    /// assert!(ToolCall::from_json(&json!({"arguments": {}})).is_err());
    /// ```
    pub fn from_json(value: &Value) -> Result<ToolCall, ExportError> {
        let Value::Object(outer) = value else {
            return Err(ExportError::NotAnObject);
        };
        let id = outer.get("id").and_then(Value::as_str).map(str::to_owned);
        // OpenAI nests the call under `function`.
        let call = match outer.get("function") {
            Some(Value::Object(function)) => function,
            _ => outer,
        };
        let name = match call.get("name") {
            Some(Value::String(name)) => name.clone(),
            Some(other) => return Err(ExportError::NameNotAString(other.clone())),
            None => return Err(ExportError::NoName),
        };
        let arguments = ["arguments", "parameters", "input"]
            .iter()
            .find_map(|key| call.get(*key))
            .cloned()
            .unwrap_or_else(|| json!({}));
        let arguments = match arguments {
            // OpenAI sends the arguments as a JSON text.
            Value::String(text) => match serde_json::from_str(&text) {
                Ok(arguments) => arguments,
                Err(error) => {
                    return Err(ExportError::ArgumentsNotJson {
                        tool: name,
                        error: std::sync::Arc::new(error),
                        text,
                    });
                }
            },
            Value::Null => json!({}),
            other => other,
        };
        if !arguments.is_object() {
            return Err(ExportError::ArgumentsNotAnObject {
                tool: name,
                arguments,
            });
        }
        Ok(ToolCall { id, name, arguments })
    }
}

impl Server {
    /// The server's tools as OpenAI function-calling definitions, in registration order,
    /// for the `tools` of a chat completion request.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// assert_eq!(server.openai_tools().unwrap()[0]["function"]["name"], "add");
    /// ```
    pub fn openai_tools(&self) -> Result<Vec<Value>, ExportError> {
        self.registry.tools().iter().map(Tool::to_openai).collect()
    }

    /// The server's tools as Anthropic tool definitions, in registration order, for the
    /// `tools` of a messages request.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// assert_eq!(server.anthropic_tools().unwrap()[0]["input_schema"]["type"], "object");
    /// ```
    pub fn anthropic_tools(&self) -> Result<Vec<Value>, ExportError> {
        self.registry.tools().iter().map(Tool::to_anthropic).collect()
    }

    /// Runs a tool call a model asked for (any shape [`ToolCall::from_json`] reads) against
    /// the server's tools and state, and returns the result. A call that cannot be read, or
    /// names no tool, is an error result that says so, ready to go back to the model.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// let call = json!({"name": "add", "parameters": {"a": 2, "b": 3}});
    /// let result = server.execute(&call).await;
    /// assert_eq!(result.content()[0].as_text(), Some("5"));
    /// # });
    /// ```
    pub async fn execute(&self, call: &Value) -> CallToolResult {
        match ToolCall::from_json(call) {
            Ok(call) => self.execute_call(&call).await,
            Err(problem) => CallToolResult::error(problem.to_string()),
        }
    }

    /// Runs a [`ToolCall`] against the server's tools and state; see [`Server::execute`]. An
    /// unknown tool is an error result naming the tools there are.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server, export::ToolCall};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// let call = ToolCall { id: None, name: "add".into(), arguments: json!({"a": 2, "b": 3}) };
    /// assert_eq!(server.execute_call(&call).await.content()[0].as_text(), Some("5"));
    ///
    /// let unknown = ToolCall { name: "subtract".into(), ..call };
    /// let result = server.execute_call(&unknown).await;
    /// assert!(result.is_error());
    /// assert_eq!(result.content()[0].as_text(), Some("there is no tool `subtract`; the tools are `add`"));
    /// # });
    /// ```
    pub async fn execute_call(&self, call: &ToolCall) -> CallToolResult {
        let engine = match self.executor() {
            Ok(engine) => engine,
            Err(error) => return CallToolResult::internal(format!("the server cannot run calls: {error}")),
        };
        match engine.execute(&call.name, &call.arguments, None).await {
            Some(result) => result,
            None => CallToolResult::error(format!(
                "there is no tool `{}`; the tools are {}",
                call.name,
                crate::server::error::quoted(&engine.executable_tools())
            )),
        }
    }

    /// Fills in one of the server's prompts, for a program that talks to a model API
    /// itself: pass the result's [`to_openai_messages`](GetPromptResult::to_openai_messages)
    /// or [`to_anthropic_messages`](GetPromptResult::to_anthropic_messages) as the
    /// conversation's first messages. It runs as a `prompts/get` from an anonymous local
    /// client would: the arguments given as JSON (strings, as on the wire, or any JSON the
    /// parameter's type reads), hidden prompts stay hidden, the time limit applies, and an
    /// internal error's detail is masked. A prompt that asks the client something fails,
    /// since there is no client to answer.
    ///
    /// ```
    /// use mcp_toolkit::{prompt, prompts, export::ExportError, Server};
    /// use serde_json::json;
    ///
    /// /// Asks the model to review code.
    /// #[prompt]
    /// fn review_code(
    ///     /// The code to review
    ///     code: String,
    /// ) -> String {
    ///     format!("Review this code:\n{code}")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let server = Server::new("review", "1.0.0").prompts(prompts![review_code]);
    /// let filled = server.get_prompt("review_code", &json!({"code": "fn main() {}"})).await.unwrap();
    /// assert_eq!(
    ///     filled.to_openai_messages(),
    ///     [json!({"role": "user", "content": "Review this code:\nfn main() {}"})]
    /// );
    ///
    /// let missing = server.get_prompt("review_code", &json!({})).await.unwrap_err();
    /// assert!(matches!(missing, ExportError::PromptArguments { .. }));
    /// let unknown = server.get_prompt("summarize", &json!({})).await.unwrap_err();
    /// assert_eq!(unknown.to_string(), "there is no prompt `summarize`; the prompts are `review_code`");
    /// # });
    /// ```
    pub async fn get_prompt(&self, name: &str, arguments: &Value) -> Result<GetPromptResult, ExportError> {
        let engine = self
            .executor()
            .map_err(|error| ExportError::NotRunnable(std::sync::Arc::new(error)))?;
        let Some(filled) = engine.execute_prompt(name, arguments, None).await else {
            return Err(ExportError::UnknownPrompt {
                name: name.to_owned(),
                known: engine.local_prompt_names(),
            });
        };
        filled.map_err(|error| match error {
            HandlerError::Arguments(problem) => ExportError::PromptArguments {
                prompt: name.to_owned(),
                problem,
            },
            HandlerError::Failed(error) => ExportError::PromptFailed {
                prompt: name.to_owned(),
                error,
            },
        })
    }
}
