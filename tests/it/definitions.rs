//! The full tool definitions `#[tool]` produces, and what calling them does.

use mcp_toolkit::testing::ClientError;
use mcp_toolkit::{CallToolResult, Context, Error, Json, Server, State, ToolError, tool, tools};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool(annotations(read_only, idempotent))]
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
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("division by zero: `b` must not be 0")),
        Operation::Divide => Ok(a / b),
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct TextStats {
    /// Number of characters.
    characters: usize,
    /// Number of whitespace-separated words.
    words: usize,
}

/// Count the characters and words of a text.
///
/// # Arguments
/// * `text` - The text to analyze
#[tool(name = "text_analyzer")]
fn analyze(text: String) -> Json<TextStats> {
    Json(TextStats {
        characters: text.chars().count(),
        words: text.split_whitespace().count(),
    })
}

fn definition(tool: &mcp_toolkit::Tool) -> Value {
    serde_json::to_value(tool).unwrap()
}

async fn call(tool: &mcp_toolkit::Tool, args: Value) -> CallToolResult {
    tool.call(&Context::default(), args).await
}

fn text(result: &CallToolResult) -> &str {
    result.content()[0].as_text().expect("a text block")
}

#[test]
fn calculator_definition() {
    let tools = tools![calculator];
    assert_eq!(
        definition(&tools[0]),
        json!({
            "name": "calculator",
            "title": "Calculator",
            "description": "Perform basic arithmetic on two numbers.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "operation": {
                        "type": "string",
                        "enum": ["add", "subtract", "multiply", "divide"],
                        "description": "The operation to perform"
                    },
                    "a": { "type": "number", "description": "The first operand" },
                    "b": { "type": "number", "description": "The second operand" }
                },
                "required": ["operation", "a", "b"],
                "additionalProperties": false
            },
            "annotations": { "readOnlyHint": true, "idempotentHint": true }
        })
    );
    // Properties keep the parameters' order.
    let keys: Vec<&String> = tools[0].input_schema()["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["operation", "a", "b"]);
}

#[test]
fn text_analyzer_definition() {
    let tools = tools![analyze];
    assert_eq!(
        definition(&tools[0]),
        json!({
            "name": "text_analyzer",
            "title": "Text Analyzer",
            "description": "Count the characters and words of a text.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "text": { "type": "string", "description": "The text to analyze" }
                },
                "required": ["text"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "characters": { "type": "integer", "minimum": 0, "description": "Number of characters." },
                    "words": { "type": "integer", "minimum": 0, "description": "Number of whitespace-separated words." }
                },
                "required": ["characters", "words"]
            }
        })
    );
}

#[derive(Deserialize, Serialize, schemars::JsonSchema, Debug)]
#[serde(rename_all = "snake_case")]
enum Sort {
    Newest,
    Oldest,
}

/// A date range.
#[derive(Deserialize, schemars::JsonSchema, Debug)]
#[allow(dead_code)] // read through `Debug`
struct Range {
    /// First day, inclusive.
    from: String,
    /// Last day, inclusive.
    to: Option<String>,
}

/// Search the notes.
#[tool]
async fn search(
    /// Words to look for
    query: String,
    /// How many results at most
    #[default(10)]
    limit: u32,
    /// Order of the results
    sort: Option<Sort>,
    /// Only notes written in this range
    range: Option<Range>,
    /// Tags the notes must all have
    tags: Vec<String>,
    /// Exact field matches
    fields: HashMap<String, i64>,
) -> String {
    format!("{query} {limit} {sort:?} {range:?} {tags:?} {}", fields.len())
}

#[test]
fn optional_default_enum_nested_vec_and_map() {
    let tools = tools![search];
    assert_eq!(
        definition(&tools[0])["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "description": "Words to look for" },
                "limit": { "type": "integer", "minimum": 0, "description": "How many results at most", "default": 10 },
                "sort": { "type": "string", "enum": ["newest", "oldest"], "description": "Order of the results" },
                "range": {
                    "description": "Only notes written in this range",
                    "type": "object",
                    "properties": {
                        "from": { "type": "string", "description": "First day, inclusive." },
                        "to": { "type": ["string", "null"], "description": "Last day, inclusive." }
                    },
                    "required": ["from"]
                },
                "tags": { "type": "array", "items": { "type": "string" }, "description": "Tags the notes must all have" },
                "fields": {
                    "type": "object",
                    "additionalProperties": { "type": "integer" },
                    "description": "Exact field matches"
                }
            },
            "required": ["query", "tags", "fields"],
            "additionalProperties": false
        })
    );
}

/// Reports the server's health.
#[tool]
fn health() -> &'static str {
    "ok"
}

#[test]
fn no_argument_tool() {
    let tools = tools![health];
    assert_eq!(
        definition(&tools[0]),
        json!({
            "name": "health",
            "title": "Health",
            "description": "Reports the server's health.",
            "inputSchema": { "type": "object", "additionalProperties": false }
        })
    );
}

/// A node of a tree.
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
struct Node {
    /// The node's label.
    label: String,
    /// Its children.
    children: Vec<Node>,
}

/// Counts the nodes of a tree.
#[tool]
fn count_nodes(tree: Node) -> usize {
    fn count(node: &Node) -> usize {
        1 + node.children.iter().map(count).sum::<usize>()
    }
    count(&tree)
}

#[test]
fn recursive_type_uses_defs() {
    let tools = tools![count_nodes];
    let node = json!({
        "description": "A node of a tree.",
        "type": "object",
        "properties": {
            "label": { "type": "string", "description": "The node's label." },
            "children": { "type": "array", "items": { "$ref": "#/$defs/Node" }, "description": "Its children." }
        },
        "required": ["label", "children"]
    });
    let mut inline = node.clone();
    inline["description"] = json!("The tree");
    let schema = definition(&tools[0])["inputSchema"].clone();
    assert_eq!(schema["$defs"], json!({ "Node": node }));
    assert_eq!(schema["properties"]["tree"]["properties"], node["properties"]);
    assert_eq!(schema["required"], json!(["tree"]));
}

#[tokio::test]
async fn recursive_arguments_decode() {
    let tools = tools![count_nodes];
    let tree = json!({"tree": {"label": "a", "children": [{"label": "b", "children": []}, {"label": "c", "children": []}]}});
    assert_eq!(text(&call(&tools[0], tree).await), "3");
}

#[tokio::test]
async fn calls_succeed_and_fail_as_results() {
    let tools = tools![calculator, analyze];
    let result = call(&tools[0], json!({"operation": "multiply", "a": 6, "b": 7})).await;
    assert_eq!(text(&result), "42");
    assert!(!result.is_error());
    assert!(result.structured_content().is_none());

    let result = call(&tools[0], json!({"operation": "divide", "a": 1, "b": 0})).await;
    assert!(result.is_error());
    assert_eq!(text(&result), "division by zero: `b` must not be 0");

    let result = call(&tools[1], json!({"text": "hello big world"})).await;
    assert_eq!(
        result.structured_content().unwrap().get(),
        r#"{"characters":15,"words":3}"#
    );
    assert_eq!(text(&result), r#"{"characters":15,"words":3}"#);
}

#[tokio::test]
async fn argument_errors_name_the_argument_and_what_was_expected() {
    let tools = tools![calculator, search];
    let calculator = &tools[0];
    let cases = [
        (
            json!({"operation": "add", "a": "one", "b": 2}),
            "argument `a`: expected a number, received the string \"one\"",
        ),
        (
            json!({"operation": "modulo", "a": 1, "b": 2}),
            "argument `operation`: expected one of \"add\", \"subtract\", \"multiply\", \"divide\", received the string \"modulo\"",
        ),
        (
            json!({"operation": "add", "a": 1}),
            "argument `b` is missing: expected a number",
        ),
        (
            json!({"operation": "add", "a": 1, "b": 2, "c": 3}),
            "argument `c` is not accepted; the accepted arguments are `operation`, `a`, `b`",
        ),
        (
            json!([1, 2]),
            "the arguments must be a JSON object such as {\"operation\": ..., \"a\": ..., \"b\": ...}; received an array",
        ),
        (
            json!({"operation": 5, "b": true}),
            "3 problems with the arguments:\nargument `operation`: expected one of \"add\", \"subtract\", \"multiply\", \"divide\", received the number 5\nargument `a` is missing: expected a number\nargument `b`: expected a number, received true",
        ),
    ];
    for (args, expected) in cases {
        let result = call(calculator, args.clone()).await;
        assert!(result.is_error(), "{args}");
        assert_eq!(text(&result), expected, "{args}");
    }

    let search = &tools[1];
    let nested = call(
        search,
        json!({"query": "q", "tags": ["a", 7], "fields": {}, "range": {"to": "x"}, "limit": -1}),
    )
    .await;
    assert_eq!(
        text(&nested),
        "3 problems with the arguments:\nargument `limit`: expected an integer of at least 0, received the number -1\nargument `range` is missing the field `from`: expected a string\nargument `tags[1]`: expected a string, received the number 7"
    );
}

#[tokio::test]
async fn optional_arguments_accept_absence_and_null_and_defaults_apply() {
    let tools = tools![search];
    let result = call(
        &tools[0],
        json!({"query": "q", "tags": [], "fields": {"x": 1}, "sort": null}),
    )
    .await;
    assert_eq!(text(&result), "q 10 None None [] 1");
    let result = call(
        &tools[0],
        json!({"query": "q", "tags": ["t"], "fields": {}, "sort": "oldest", "limit": 3, "range": {"from": "a"}}),
    )
    .await;
    assert_eq!(
        text(&result),
        "q 3 Some(Oldest) Some(Range { from: \"a\", to: None }) [\"t\"] 0"
    );
}

type Ctx = Context;

struct Greeting(String);

/// Greets the caller with the server's greeting.
#[tool]
fn greet(
    /// Who to greet
    name: String,
    cx: Ctx,
    greeting: State<Greeting>,
) -> String {
    assert!(cx.request_id().is_none());
    format!("{}, {name}!", greeting.0.0)
}

#[tokio::test]
async fn injected_parameters_are_not_arguments() {
    let tools = tools![greet];
    assert_eq!(
        definition(&tools[0])["inputSchema"],
        json!({
            "type": "object",
            "properties": { "name": { "type": "string", "description": "Who to greet" } },
            "required": ["name"],
            "additionalProperties": false
        })
    );
    // The state it takes is required: a server without it does not start.
    let refused = Server::new("greeter", "1.0.0").tools(tools![greet]).test_client();
    assert!(
        matches!(&refused, Err(ClientError::Server(Error::MissingState { needed_by, .. })) if needed_by == "greet")
    );
    let cx = Context::default().with_state(Greeting("Hello".into()));
    let result = tools[0].call(&cx, json!({"name": "Ada"})).await;
    assert_eq!(text(&result), "Hello, Ada!");

    // A key named like an injected parameter is not an argument.
    let result = tools[0].call(&cx, json!({"name": "Ada", "cx": 1})).await;
    assert_eq!(
        text(&result),
        "argument `cx` is not accepted; the accepted arguments are `name`"
    );
}

/// Always fails to finish.
#[tool]
async fn explode(
    /// Anything
    input: String,
) -> String {
    panic!("secret detail: {input}")
}

/// Panics synchronously.
#[tool]
fn explode_sync() -> String {
    panic!("secret detail")
}

#[tokio::test]
async fn a_panicking_tool_is_an_internal_error_without_details() {
    let tools = tools![explode, explode_sync];
    for (tool, args) in tools.iter().zip([json!({"input": "x"}), json!({})]) {
        let result = call(tool, args).await;
        assert!(result.is_error());
        assert_eq!(text(&result), "internal error");
    }
}

/// Finds values of a kind.
#[tool(
    title = "Find by kind",
    description = "Find values by their kind.",
    annotations(destructive = false, open_world = false, title = "Finder"),
    icons("https://example.com/find.png", icon(src = "data:image/svg+xml;base64,PHN2Zz4=", mime_type = "image/svg+xml", sizes = ["any"], theme = "dark")),
    meta(version = 2, "com.example/beta" = true)
)]
fn find(r#type: String) -> Vec<mcp_toolkit::Content> {
    vec![mcp_toolkit::Content::text(r#type)]
}

#[tokio::test]
async fn every_attribute_key_and_raw_identifiers() {
    let tools = tools![find];
    assert_eq!(
        definition(&tools[0]),
        json!({
            "name": "find",
            "title": "Find by kind",
            "description": "Find values by their kind.",
            "inputSchema": {
                "type": "object",
                "properties": { "type": { "type": "string" } },
                "required": ["type"],
                "additionalProperties": false
            },
            "annotations": { "title": "Finder", "destructiveHint": false, "openWorldHint": false },
            "icons": [
                { "src": "https://example.com/find.png" },
                { "src": "data:image/svg+xml;base64,PHN2Zz4=", "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "dark" }
            ],
            "_meta": { "version": 2, "com.example/beta": true }
        })
    );
    assert_eq!(text(&call(&tools[0], json!({"type": "leaf"})).await), "leaf");
}

#[test]
fn the_users_fn_stays_callable() {
    assert_eq!(analyze("a b c".into()).0.words, 3);
    assert_eq!(health(), "ok");
    let future = calculator(Operation::Add, 1.0, 2.0);
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future);
    assert_eq!(result.unwrap(), 3.0);
}

#[derive(Serialize, schemars::JsonSchema)]
struct Point {
    x: i32,
    y: i32,
}

/// Lists points.
#[tool]
fn points() -> Json<Vec<Point>> {
    Json(vec![Point { x: 1, y: 2 }])
}

#[tokio::test]
async fn non_object_structured_output_keeps_its_schema() {
    let tools = tools![points];
    assert_eq!(
        definition(&tools[0])["outputSchema"],
        json!({
            "type": "array",
            "items": {
                "type": "object",
                "properties": { "x": { "type": "integer" }, "y": { "type": "integer" } },
                "required": ["x", "y"]
            }
        })
    );
    let result = call(&tools[0], json!({})).await;
    assert_eq!(result.structured_content().unwrap().get(), r#"[{"x":1,"y":2}]"#);
}

#[test]
fn runtime_tools_check_their_definition() {
    use mcp_toolkit::{
        Tool,
        registry::{DefinitionError, NameError},
    };
    let bad_name = Tool::from_json("a b", "x", json!({"type": "object"}), |_, _| async { "" });
    let Err(DefinitionError::InvalidName { name, error }) = &bad_name else {
        panic!("not a name error: {bad_name:?}");
    };
    assert_eq!(name, "a b");
    assert!(matches!(error, NameError::Characters { characters, .. } if characters == &[' ']));
    let error = bad_name.unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool name `a b` contains the character ` ` (a space); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`"
    );
    assert!(std::error::Error::source(&error).is_some());
    let empty = Tool::from_json("", "x", json!({"type": "object"}), |_, _| async { "" });
    assert!(matches!(
        empty,
        Err(DefinitionError::InvalidName {
            error: NameError::Empty,
            ..
        })
    ));
    let bad_schema = Tool::from_json("ab", "x", json!({"type": "string"}), |_, _| async { "" });
    assert_eq!(
        bad_schema.unwrap_err().to_string(),
        "invalid input schema for tool `ab`: it must be an object schema with `\"type\": \"object\"`, not `{\"type\":\"string\"}`"
    );
}

#[test]
fn each_revision_sees_the_fields_it_knows() {
    use mcp_toolkit::protocol::ProtocolVersion::*;
    let tools = tools![find, points];
    let keys = |v: Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let find = &tools[0];
    assert_eq!(
        keys(find.definition(V2024_11_05)),
        ["name", "description", "inputSchema"]
    );
    assert_eq!(
        keys(find.definition(V2025_03_26)),
        ["name", "description", "inputSchema", "annotations"]
    );
    assert_eq!(
        keys(find.definition(V2025_06_18)),
        [
            "name",
            "title",
            "description",
            "inputSchema",
            "annotations",
            "_meta"
        ]
    );
    assert_eq!(
        keys(find.definition(V2025_11_25)),
        [
            "name",
            "title",
            "description",
            "inputSchema",
            "annotations",
            "icons",
            "_meta"
        ]
    );
    assert_eq!(find.definition(V2026_07_28), definition(find));

    let points = &tools[1];
    let wrapped = json!({
        "type": "object",
        "properties": { "result": definition(points)["outputSchema"] },
        "required": ["result"]
    });
    assert_eq!(points.definition(V2025_06_18)["outputSchema"], wrapped);
    assert_eq!(points.definition(V2025_11_25)["outputSchema"], wrapped);
    assert_eq!(
        points.definition(V2026_07_28)["outputSchema"],
        definition(points)["outputSchema"]
    );
}

/// Refunds a charge, in full or in part.
#[tool(
    group = "billing",
    search_hint = "refund money back return payment chargeback",
    always_load,
    max_result_chars = 2000,
    meta(team = "billing")
)]
async fn refund_charge(charge_id: String, amount_cents: Option<u64>) -> Result<String, ToolError> {
    Ok(format!("refunded {charge_id} {amount_cents:?}"))
}

#[tokio::test]
async fn the_hints_for_hosts_are_listed_in_every_revision() {
    use crate::support::Spec;
    use mcp_toolkit::protocol::ProtocolVersion;
    let hints = json!({
        "anthropic/alwaysLoad": true,
        "anthropic/searchHint": "refund money back return payment chargeback",
        "anthropic/maxResultSizeChars": 2000
    });
    let mut with_team = hints.clone();
    with_team["team"] = json!("billing");
    for (version, revision, meta) in [
        (ProtocolVersion::V2024_11_05, "2024-11-05", &hints),
        (ProtocolVersion::V2025_06_18, "2025-06-18", &with_team),
        (ProtocolVersion::V2025_11_25, "2025-11-25", &with_team),
        (ProtocolVersion::V2026_07_28, "2026-07-28", &with_team),
    ] {
        let server = Server::new("billing", "1.0.0").tools(tools![refund_charge]);
        let client = match version {
            ProtocolVersion::V2026_07_28 => server.test_client().unwrap(),
            legacy => server.test_client_legacy(legacy).await.unwrap(),
        };
        let listed = client.request("tools/list", json!({})).await.unwrap();
        Spec::of(revision).assert_valid("ListToolsResult", &listed);
        let tool = &listed["tools"][0];
        assert_eq!(tool["name"], "refund_charge", "{revision}");
        // The user's `meta(...)` from 2025-06-18 on, the hints in every revision; the group
        // stays with the server.
        assert_eq!(&tool["_meta"], meta, "{revision}");
        assert!(tool.get("group").is_none(), "{revision}: {tool}");
        assert_eq!(tool, &tools![refund_charge][0].definition(version), "{revision}");
    }
    let tool = &tools![refund_charge][0];
    assert_eq!(tool.group(), Some("billing"));
    assert_eq!(definition(tool)["_meta"], with_team);
}
