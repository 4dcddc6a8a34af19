//! The tools in the formats of model APIs, for programs that call a model directly and run
//! the tools it asks for themselves: definitions for OpenAI's function calling and
//! Anthropic's tool use, a [`ToolCall`] read from whatever JSON a model wrote, and its result
//! turned back into the message each API expects.

use crate::content::Content;
use crate::context::{Context, RequestInfo};
use crate::result::CallToolResult;
use crate::server::Server;
use crate::tool::Tool;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

/// A model API's rule for tool names: 1 to 64 of `A-Z a-z 0-9 _ -` (OpenAI and Anthropic
/// alike; MCP also allows `.` and up to 128).
fn api_name_problem(name: &str) -> Option<String> {
    let fits = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    (!fits).then(|| {
        format!(
            "tool `{name}` cannot be offered to a model API: names there are 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`; rename it with `#[tool(name = \"...\")]`"
        )
    })
}

impl Tool {
    /// The tool as an OpenAI function-calling definition:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    ///
    /// `Err` names the rule when the tool's name does not fit the API's (MCP allows `.`
    /// and longer names; OpenAI does not).
    ///
    /// ```
    /// use mcp_tools::{tool, tools};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let function = tools![add][0].to_openai().unwrap();
    /// assert_eq!(function["type"], "function");
    /// assert_eq!(function["function"]["name"], "add");
    /// assert_eq!(function["function"]["parameters"]["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn to_openai(&self) -> Result<Value, String> {
        let function = self.api_definition("parameters")?;
        Ok(json!({ "type": "function", "function": function }))
    }

    /// The tool as an Anthropic tool definition: `{"name", "description", "input_schema"}`.
    ///
    /// `Err` names the rule when the tool's name does not fit the API's.
    ///
    /// ```
    /// use mcp_tools::{tool, tools};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let definition = tools![add][0].to_anthropic().unwrap();
    /// assert_eq!(definition["name"], "add");
    /// assert_eq!(definition["description"], "Adds two numbers.");
    /// assert_eq!(definition["input_schema"]["type"], "object");
    /// ```
    pub fn to_anthropic(&self) -> Result<Value, String> {
        self.api_definition("input_schema").map(Value::Object)
    }

    /// The name, description and input schema (under `schema_key`) as the model APIs take
    /// them; `Err` when the name breaks their rules.
    fn api_definition(&self, schema_key: &str) -> Result<Map<String, Value>, String> {
        if let Some(problem) = api_name_problem(self.name()) {
            return Err(problem);
        }
        let mut definition = Map::new();
        definition.insert("name".into(), self.name().into());
        if let Some(description) = self.description() {
            definition.insert("description".into(), description.into());
        }
        definition.insert(schema_key.into(), Value::Object(self.input_schema().clone()));
        Ok(definition)
    }
}

/// A call a model asked for, read from the JSON it wrote with [`ToolCall::from_json`], or
/// built by hand; [`Server::execute_call`] runs it.
///
/// ```
/// use mcp_tools::ToolCall;
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
    /// use mcp_tools::ToolCall;
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
    pub fn from_json(value: &Value) -> Result<ToolCall, String> {
        let Value::Object(outer) = value else {
            return Err("a tool call must be a JSON object with a `name`".to_owned());
        };
        let id = outer.get("id").and_then(Value::as_str).map(str::to_owned);
        // OpenAI nests the call under `function`.
        let call = match outer.get("function") {
            Some(Value::Object(function)) => function,
            _ => outer,
        };
        let name = match call.get("name") {
            Some(Value::String(name)) => name.clone(),
            Some(other) => return Err(format!("the tool call's `name` must be a string, not {other}")),
            None => return Err("the tool call has no `name`".to_owned()),
        };
        let arguments = ["arguments", "parameters", "input"]
            .iter()
            .find_map(|key| call.get(*key))
            .cloned()
            .unwrap_or_else(|| json!({}));
        let arguments = match arguments {
            // OpenAI sends the arguments as a JSON text.
            Value::String(text) => serde_json::from_str(&text)
                .map_err(|e| format!("the arguments of `{name}` are not valid JSON ({e}): {text}"))?,
            Value::Null => json!({}),
            other => other,
        };
        if !arguments.is_object() {
            return Err(format!(
                "the arguments of `{name}` must be a JSON object, not {arguments}"
            ));
        }
        Ok(ToolCall { id, name, arguments })
    }
}

impl Server {
    /// The server's tools as OpenAI function-calling definitions, in registration order,
    /// for the `tools` of a chat completion request.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// assert_eq!(server.openai_tools().unwrap()[0]["function"]["name"], "add");
    /// ```
    pub fn openai_tools(&self) -> Result<Vec<Value>, String> {
        self.registry().tools().iter().map(Tool::to_openai).collect()
    }

    /// The server's tools as Anthropic tool definitions, in registration order, for the
    /// `tools` of a messages request.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// assert_eq!(server.anthropic_tools().unwrap()[0]["input_schema"]["type"], "object");
    /// ```
    pub fn anthropic_tools(&self) -> Result<Vec<Value>, String> {
        self.registry().tools().iter().map(Tool::to_anthropic).collect()
    }

    /// Runs a tool call a model asked for (any shape [`ToolCall::from_json`] reads) against
    /// the server's tools and state, and returns the result. A call that cannot be read, or
    /// names no tool, is an error result that says so, ready to go back to the model.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
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
            Err(problem) => CallToolResult::error(problem),
        }
    }

    /// Runs a [`ToolCall`] against the server's tools and state; see [`Server::execute`]. An
    /// unknown tool is an error result naming the tools there are.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server, ToolCall};
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
        let registry = self.registry();
        let Some(tool) = registry.get(&call.name) else {
            let known: Vec<String> = registry
                .tools()
                .iter()
                .map(|t| format!("`{}`", t.name()))
                .collect();
            return CallToolResult::error(format!(
                "there is no tool `{}`; the tools are {}",
                call.name,
                known.join(", ")
            ));
        };
        let cx = Context::new(
            RequestInfo {
                lenient_arguments: self.options().lenient_arguments,
                ..RequestInfo::default()
            },
            CancellationToken::new(),
            None,
            self.state_map().clone(),
            Some(registry),
            None,
        );
        let result = tool.call(&cx, call.arguments.clone()).await;
        self.options().finish(&tool, result)
    }
}

impl CallToolResult {
    /// The result as the text a model reads: the text blocks joined by blank lines,
    /// structured output as JSON when there is no text, and a short note for each block
    /// that is not text.
    fn model_text(&self) -> String {
        let mut parts: Vec<String> = self.content().iter().map(describe_block).collect();
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
    /// use mcp_tools::CallToolResult;
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
    /// use mcp_tools::CallToolResult;
    ///
    /// let block = CallToolResult::error("cannot divide by zero").to_anthropic_block("toolu_1");
    /// assert_eq!(block["is_error"], true);
    /// assert_eq!(block["content"][0]["text"], "cannot divide by zero");
    /// ```
    pub fn to_anthropic_block(&self, tool_use_id: &str) -> Value {
        let mut content: Vec<Value> = self
            .content()
            .iter()
            .map(|block| match block {
                Content::Image(image) => json!({
                    "type": "image",
                    "source": { "type": "base64", "media_type": image.mime_type, "data": image.data },
                }),
                other => json!({ "type": "text", "text": describe_block(other) }),
            })
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

/// A content block in words: its text, or what it is.
fn describe_block(block: &Content) -> String {
    match block {
        Content::Text(text) => text.text.clone(),
        Content::Image(image) => format!("[an image, {}]", image.mime_type),
        Content::Audio(audio) => format!("[audio, {}]", audio.mime_type),
        Content::ResourceLink(link) => format!("[a resource: {}]", link.uri),
        Content::Resource(_) => "[an embedded resource]".to_owned(),
    }
}
