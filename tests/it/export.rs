//! The tools in model APIs' formats, checked against the shapes their documentation gives:
//! OpenAI function calling (`{"type": "function", "function": {name, description,
//! parameters}}`) and Anthropic tool use (`{name, description, input_schema}`); a model's
//! tool call in each API's shape run against the server; its result as each API's message.

use mcp_toolkit::{
    CallToolResult, Content, Server, State, ToolError, export::ExportError, export::ToolCall, tool, tools,
};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU32, Ordering};

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool]
async fn calculator(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("cannot divide by zero")),
        Operation::Divide => Ok(a / b),
    }
}

/// Counts the calls made so far.
#[tool]
fn count(counter: State<AtomicU32>) -> u32 {
    counter.fetch_add(1, Ordering::SeqCst) + 1
}

/// A name MCP allows and model APIs do not.
#[tool(name = "notes.search")]
fn search() -> String {
    String::new()
}

fn server() -> Server {
    Server::new("export", "1.0.0")
        .state(AtomicU32::new(0))
        .tools(tools![calculator, count])
}

fn calculator_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "operation": { "description": "The operation to perform", "type": "string", "enum": ["add", "divide"] },
            "a": { "description": "The first operand", "type": "number" },
            "b": { "description": "The second operand", "type": "number" }
        },
        "required": ["operation", "a", "b"],
        "additionalProperties": false
    })
}

#[test]
fn openai_definitions_are_functions_with_the_input_schema_as_parameters() {
    let tools = server().openai_tools().unwrap();
    assert_eq!(
        tools[0],
        json!({
            "type": "function",
            "function": {
                "name": "calculator",
                "description": "Perform basic arithmetic on two numbers.",
                "parameters": calculator_schema()
            }
        })
    );
    assert_eq!(tools[1]["function"]["name"], "count");
    // A tool with no arguments still has an object schema, which the API requires.
    assert_eq!(tools[1]["function"]["parameters"]["type"], "object");
}

#[test]
fn anthropic_definitions_carry_the_input_schema() {
    let tools = server().anthropic_tools().unwrap();
    assert_eq!(
        tools[0],
        json!({
            "name": "calculator",
            "description": "Perform basic arithmetic on two numbers.",
            "input_schema": calculator_schema()
        })
    );
    assert_eq!(tools.len(), 2);
}

#[test]
fn a_name_the_apis_refuse_is_an_error_that_says_how_to_fix_it() {
    let server = Server::new("export", "1.0.0").tools(tools![search]);
    let expected = "tool `notes.search` cannot be offered to a model API: names there are 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`; rename it with `#[tool(name = \"...\")]`";
    let refused = server.openai_tools().unwrap_err();
    assert!(
        matches!(&refused, ExportError::NameNotAllowed(name) if name == "notes.search"),
        "{refused:?}"
    );
    assert_eq!(refused.to_string(), expected);
    assert_eq!(server.anthropic_tools().unwrap_err().to_string(), expected);
}

#[test]
fn tool_calls_are_read_in_every_shape_models_write() {
    let expected = |id: Option<&str>| ToolCall {
        id: id.map(str::to_owned),
        name: "calculator".to_owned(),
        arguments: json!({"operation": "add", "a": 2, "b": 3}),
    };
    let shapes = [
        (
            json!({"name": "calculator", "arguments": {"operation": "add", "a": 2, "b": 3}}),
            None,
        ),
        (
            json!({"name": "calculator", "arguments": "{\"operation\": \"add\", \"a\": 2, \"b\": 3}"}),
            None,
        ),
        (
            json!({"name": "calculator", "parameters": {"operation": "add", "a": 2, "b": 3}}),
            None,
        ),
        (
            json!({"id": "call_abc", "type": "function", "function": {"name": "calculator", "arguments": "{\"operation\":\"add\",\"a\":2,\"b\":3}"}}),
            Some("call_abc"),
        ),
        (
            json!({"type": "tool_use", "id": "toolu_01", "name": "calculator", "input": {"operation": "add", "a": 2, "b": 3}}),
            Some("toolu_01"),
        ),
    ];
    for (shape, id) in shapes {
        assert_eq!(ToolCall::from_json(&shape).unwrap(), expected(id), "{shape}");
    }
    let no_arguments = ToolCall::from_json(&json!({"name": "count"})).unwrap();
    assert_eq!(no_arguments.arguments, json!({}));

    let refused = [
        (json!([1]), "a tool call must be a JSON object with a `name`"),
        (json!({"arguments": {}}), "the tool call has no `name`"),
        (
            json!({"name": 7}),
            "the tool call's `name` must be a string, not 7",
        ),
        (
            json!({"name": "calculator", "arguments": [1, 2]}),
            "the arguments of `calculator` must be a JSON object, not [1,2]",
        ),
    ];
    for (shape, message) in refused {
        let refused = ToolCall::from_json(&shape).unwrap_err();
        assert_eq!(refused.to_string(), message, "{shape}");
    }
    let truncated = ToolCall::from_json(&json!({"name": "calculator", "arguments": "{\"a\": 2"}))
        .unwrap_err()
        .to_string();
    assert!(
        truncated
            .starts_with("the arguments of `calculator` are not valid JSON (EOF while parsing an object"),
        "{truncated}"
    );
}

#[tokio::test]
async fn a_models_tool_call_runs_against_the_servers_tools_and_state() {
    let server = server();
    let openai = json!({"id": "call_1", "type": "function", "function": {"name": "calculator", "arguments": "{\"operation\":\"divide\",\"a\":1,\"b\":4}"}});
    let result = server.execute(&openai).await;
    assert_eq!(result.content()[0].as_text(), Some("0.25"));
    assert!(!result.is_error());

    // State<T> is the server's: two calls, one counter.
    for expected in ["1", "2"] {
        let counted = server.execute(&json!({"name": "count"})).await;
        assert_eq!(counted.content()[0].as_text(), Some(expected));
    }

    let bad_arguments = server
        .execute(&json!({"name": "calculator", "parameters": {"operation": "power", "a": 1, "b": 2}}))
        .await;
    assert!(bad_arguments.is_error());
    assert_eq!(
        bad_arguments.content()[0].as_text(),
        Some("argument `operation`: expected one of \"add\", \"divide\", received the string \"power\"")
    );

    let unknown = server.execute(&json!({"name": "weather"})).await;
    assert!(unknown.is_error());
    assert_eq!(
        unknown.content()[0].as_text(),
        Some("there is no tool `weather`; the tools are `calculator`, `count`")
    );

    let unreadable = server.execute(&json!("calculator")).await;
    assert!(unreadable.is_error());
}

#[tokio::test]
async fn results_go_back_as_each_apis_message() {
    let server = server();
    let failed = server
        .execute(&json!({"name": "calculator", "arguments": {"operation": "divide", "a": 1, "b": 0}}))
        .await;
    assert_eq!(
        failed.to_openai_message("call_9"),
        json!({"role": "tool", "tool_call_id": "call_9", "content": "cannot divide by zero"})
    );
    assert_eq!(
        failed.to_anthropic_block("toolu_9"),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_9",
            "content": [{"type": "text", "text": "cannot divide by zero"}],
            "is_error": true
        })
    );

    let picture = CallToolResult::new(vec![
        Content::text("a dot"),
        Content::image(b"\x89PNG", "image/png"),
    ]);
    assert_eq!(
        picture.to_anthropic_block("toolu_2")["content"],
        json!([
            {"type": "text", "text": "a dot"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}}
        ])
    );
    assert_eq!(
        picture.to_openai_message("call_2")["content"],
        "a dot\n\n[an image, image/png]"
    );

    #[derive(serde::Serialize)]
    struct Stats {
        words: u32,
    }
    let structured = CallToolResult::structured(&Stats { words: 3 }).unwrap();
    assert_eq!(structured.to_openai_message("call_3")["content"], "{\"words\":3}");
}

/// Shows a screenshot and asks what went wrong.
#[mcp_toolkit::prompt]
fn diagnose(
    /// What the user saw
    symptom: String,
    /// How many lines of the log to quote
    lines: Option<u32>,
) -> Vec<mcp_toolkit::prompt::PromptMessage> {
    use mcp_toolkit::content::{EmbeddedResource, ResourceContents, Role};
    use mcp_toolkit::prompt::PromptMessage;
    let log = ResourceContents::Text {
        uri: "logs://today".into(),
        mime_type: Some("text/plain".into()),
        text: format!("{} lines of log", lines.unwrap_or(10)),
    };
    vec![
        PromptMessage::user(format!("The user saw: {symptom}")),
        PromptMessage::new(Role::User, Content::image_base64("iVBORw==", "image/png")),
        PromptMessage::new(Role::User, EmbeddedResource::new(log)),
        PromptMessage::assistant("Let me look."),
        PromptMessage::new(Role::Assistant, Content::image_base64("iVBORw==", "image/png")),
    ]
}

/// Fails inside.
#[mcp_toolkit::prompt]
fn broken() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("/etc/secret: permission denied"))
}

fn prompt_server() -> Server {
    Server::new("support", "1.0.0").prompts(mcp_toolkit::prompts![diagnose, broken])
}

#[tokio::test]
async fn a_filled_prompt_becomes_openai_chat_messages() {
    let filled = prompt_server()
        .get_prompt("diagnose", &json!({"symptom": "a blank page", "lines": "3"}))
        .await
        .unwrap();
    assert_eq!(
        Value::Array(filled.to_openai_messages()),
        json!([
            {"role": "user", "content": "The user saw: a blank page"},
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw=="}}]},
            {"role": "user", "content": "3 lines of log"},
            {"role": "assistant", "content": "Let me look."},
            // An assistant message carries text only: the image is named, not dropped.
            {"role": "assistant", "content": "[an image, image/png]"},
        ])
    );
}

#[tokio::test]
async fn a_filled_prompt_becomes_alternating_anthropic_messages() {
    let filled = prompt_server()
        .get_prompt("diagnose", &json!({"symptom": "a blank page"}))
        .await
        .unwrap();
    assert_eq!(
        Value::Array(filled.to_anthropic_messages()),
        json!([
            {"role": "user", "content": [
                {"type": "text", "text": "The user saw: a blank page"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
                {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "10 lines of log"}, "title": "logs://today"},
            ]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "text", "text": "[an image, image/png]"},
            ]},
        ])
    );
}

#[tokio::test]
async fn a_prompt_that_cannot_be_filled_says_why() {
    let server = prompt_server();
    let unknown = server.get_prompt("summarize", &json!({})).await.unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "there is no prompt `summarize`; the prompts are `diagnose`, `broken`"
    );

    let wrong = server
        .get_prompt("diagnose", &json!({"symptom": "x", "lines": "many"}))
        .await
        .unwrap_err();
    let ExportError::PromptArguments { prompt, problem } = &wrong else {
        panic!("not an arguments error: {wrong:?}");
    };
    assert_eq!(prompt, "diagnose");
    assert!(
        problem.contains("lines"),
        "the problem names the argument: {problem}"
    );

    // An internal error's detail stays in the server's log, as it would over the protocol.
    let failed = server.get_prompt("broken", &json!({})).await.unwrap_err();
    assert!(
        matches!(&failed, ExportError::PromptFailed { prompt, error } if prompt == "broken" && error.message() == "internal error"),
        "{failed:?}"
    );
    assert!(!failed.to_string().contains("secret"));

    let none = Server::new("empty", "1.0.0")
        .get_prompt("x", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        none.to_string(),
        "there is no prompt `x`; this server has no prompts"
    );
}
