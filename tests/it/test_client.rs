//! `TestClient`: a server's tools listed and called in process, through the real engine, in
//! both protocol eras; every result it reads is checked against the official schema of its
//! revision.

use crate::support;

use mcp_toolkit::protocol::{ErrorCode, LoggingLevel, ProtocolVersion};
use mcp_toolkit::server::Limits;
use mcp_toolkit::{
    CallToolResult, Context, Error, FromContext, Json, RequiredState, Server, State, Tool, ToolError,
    testing::ClientError, testing::ListedTool, testing::TestClient, tool, tools,
};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use support::Spec;
use support::tools::{block, explode, log, progress, sleep};

const LEGACY: [ProtocolVersion; 4] = [
    ProtocolVersion::V2024_11_05,
    ProtocolVersion::V2025_03_26,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
];

#[derive(serde::Deserialize, schemars::JsonSchema)]
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
        Operation::Divide if b == 0.0 => Err(ToolError::new("cannot divide by zero")),
        Operation::Divide => Ok(a / b),
    }
}

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct TextStats {
    characters: usize,
    words: usize,
}

/// Count the characters and words of a text.
#[tool(name = "text_analyzer")]
fn analyze(
    /// The text to analyze
    text: String,
) -> Json<TextStats> {
    Json(TextStats {
        characters: text.chars().count(),
        words: text.split_whitespace().count(),
    })
}

/// The primes below `n`.
#[tool]
fn primes(
    /// The bound
    n: u32,
) -> Json<Vec<u32>> {
    Json((2..n).filter(|i| (2..*i).all(|d| i % d != 0)).collect())
}

struct Visits {
    count: AtomicU32,
}

/// Counts its calls.
#[tool]
fn visit(visits: State<Visits>) -> u32 {
    visits.count.fetch_add(1, Ordering::SeqCst) + 1
}

fn server() -> Server {
    Server::new("suite", "1.0.0").tools(tools![
        calculator, analyze, primes, progress, log, sleep, block, explode
    ])
}

fn every_tool() -> Vec<Tool> {
    server().tool_registry().tools()
}

/// Asserts that a call's result is valid in the client's revision.
fn assert_valid_result(client: &TestClient, response: &Value) {
    Spec::of(client.protocol_version().as_str()).assert_valid("CallToolResult", &response["result"]);
}

fn method(notification: &Value) -> &str {
    notification["method"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_modern_client_lists_and_calls_the_tools_as_sent() -> Result<(), ClientError> {
    let client = server().test_client()?;
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);

    let listed = client.list_tools().await?;
    let defined: Vec<Value> = every_tool()
        .iter()
        .map(|t| t.definition(ProtocolVersion::V2026_07_28))
        .collect();
    assert_eq!(
        listed.iter().map(ListedTool::json).collect::<Vec<_>>(),
        defined.iter().collect::<Vec<_>>()
    );
    let calculator = &listed[0];
    assert_eq!(
        (calculator.name(), calculator.title(), calculator.description()),
        (
            "calculator",
            Some("Calculator"),
            Some("Perform basic arithmetic on two numbers.")
        )
    );
    assert_eq!(
        calculator.input_schema()["required"],
        json!(["operation", "a", "b"])
    );
    let hints = calculator.annotations().expect("the calculator's hints");
    assert_eq!(
        (
            hints.read_only_hint,
            hints.idempotent_hint,
            hints.destructive_hint
        ),
        (Some(true), Some(true), None)
    );
    assert_eq!(calculator.output_schema(), None);
    let analyzer = listed.iter().find(|t| t.name() == "text_analyzer").unwrap();
    assert_eq!(
        analyzer.output_schema().unwrap()["required"],
        json!(["characters", "words"])
    );
    let list = client.last_response().unwrap();
    Spec::of("2026-07-28").assert_valid("ListToolsResultResponse", &list);
    assert_eq!(list["result"]["cacheScope"], "public");

    let sum = client
        .call("calculator", json!({"operation": "add", "a": 2, "b": 3}))
        .await?;
    assert!(!sum.is_error());
    assert_eq!(sum.text(), Some("5"));
    assert!(sum.notifications().is_empty());
    Spec::of("2026-07-28").assert_valid("CallToolResultResponse", sum.response());
    assert_eq!(
        sum.response()["result"],
        json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": "5"}],
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "suite", "version": "1.0.0"}},
        })
    );
    assert_eq!(client.last_response().as_ref(), Some(sum.response()));
    assert_eq!(
        sum.meta().unwrap()["io.modelcontextprotocol/serverInfo"]["name"],
        "suite"
    );
    Ok(())
}

#[tokio::test]
async fn a_legacy_client_opens_a_session_in_every_revision() -> Result<(), ClientError> {
    for version in LEGACY {
        let client = server().test_client_legacy(version).await?;
        assert_eq!(client.protocol_version(), version);

        let listed = client.list_tools().await?;
        let defined: Vec<Value> = every_tool().iter().map(|t| t.definition(version)).collect();
        let sent: Vec<&Value> = listed.iter().map(ListedTool::json).collect();
        assert_eq!(sent, defined.iter().collect::<Vec<_>>(), "{version}");
        // Each field as the revision has it: annotations from 2025-03-26, titles and
        // output schemas (wrapped when not an object's) from 2025-06-18.
        let primes = listed.iter().find(|t| t.name() == "primes").unwrap();
        let hints = listed[0].annotations().map(|a| a.read_only_hint);
        assert_eq!(
            hints,
            (version >= ProtocolVersion::V2025_03_26).then_some(Some(true)),
            "{version}"
        );
        let modern_fields = version >= ProtocolVersion::V2025_06_18;
        assert_eq!(primes.title().is_some(), modern_fields, "{version}");
        assert_eq!(
            primes
                .output_schema()
                .map(|s| s["properties"]["result"]["type"].clone()),
            modern_fields.then(|| json!("array")),
            "{version}"
        );
        let list = client.last_response().unwrap();
        Spec::of(version.as_str()).assert_valid("ListToolsResult", &list["result"]);
        assert!(list["result"].get("resultType").is_none(), "{version}");

        let product = client
            .call("calculator", json!({"operation": "multiply", "a": 6, "b": 7}))
            .await?;
        assert_eq!(product.text(), Some("42"), "{version}");
        assert_valid_result(&client, product.response());
        assert_eq!(
            product.response()["result"],
            json!({"content": [{"type": "text", "text": "42"}]}),
            "{version}"
        );
        assert!(product.meta().is_none());

        let pong = client.request("ping", Value::Null).await?;
        assert_eq!(pong, json!({}));
    }
    Ok(())
}

#[tokio::test]
async fn a_legacy_client_refuses_a_revision_it_did_not_ask_for() {
    match server().test_client_legacy(ProtocolVersion::V2026_07_28).await {
        Err(ClientError::Negotiation { requested, offered }) => {
            assert_eq!(requested, ProtocolVersion::V2026_07_28);
            assert_eq!(offered, "2025-11-25");
        }
        other => panic!("expected a refused negotiation, got {other:?}"),
    }
}

#[tokio::test]
async fn list_tools_walks_every_page() -> Result<(), ClientError> {
    let names = |tools: &[ListedTool]| -> Vec<String> { tools.iter().map(|t| t.name().to_owned()).collect() };
    let names_sent = |tools: &[Value]| -> Vec<String> {
        tools
            .iter()
            .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let all: Vec<String> = every_tool().iter().map(|t| t.name().to_owned()).collect();
    assert_eq!(all.len(), 8);

    let modern = server().limits(Limits::default().page_size(3)).test_client()?;
    assert_eq!(names(&modern.list_tools().await?), all);
    // The last page ends the list; one page alone has a cursor to the next.
    let last = modern.last_response().unwrap();
    assert_eq!(names_sent(last["result"]["tools"].as_array().unwrap()), all[6..]);
    assert!(last["result"].get("nextCursor").is_none());
    let first = modern.request("tools/list", json!({})).await?;
    assert_eq!(names_sent(first["tools"].as_array().unwrap()), all[..3]);
    let cursor = first["nextCursor"].clone();
    assert!(cursor.is_string());
    let second = modern.request("tools/list", json!({ "cursor": cursor })).await?;
    assert_eq!(names_sent(second["tools"].as_array().unwrap()), all[3..6]);

    let legacy = server()
        .limits(Limits::default().page_size(3))
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await?;
    assert_eq!(names(&legacy.list_tools().await?), all);

    let bad = modern
        .request("tools/list", json!({ "cursor": "not a cursor" }))
        .await
        .unwrap_err();
    assert!(
        matches!(
            bad,
            ClientError::Rpc {
                code: ErrorCode::INVALID_PARAMS,
                ..
            }
        ),
        "{bad:?}"
    );
    Ok(())
}

#[tokio::test]
async fn bad_arguments_are_error_results_naming_every_problem() -> Result<(), ClientError> {
    let expected = "3 problems with the arguments:\n\
        argument `operation`: expected one of \"add\", \"subtract\", \"multiply\", \"divide\", received the string \"power\"\n\
        argument `a`: expected a number, received the string \"2\"\n\
        argument `b` is missing: expected a number";
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await?;
    for client in [&modern, &legacy] {
        let wrong = client
            .call("calculator", json!({"operation": "power", "a": "2"}))
            .await?;
        assert!(wrong.is_error());
        assert_eq!(wrong.text(), Some(expected));
        assert_eq!(wrong.response()["result"]["isError"], true);
        assert_valid_result(client, wrong.response());
        let no_output = wrong.structured::<f64>().unwrap_err();
        assert!(
            no_output.to_string().contains("the call failed: 3 problems"),
            "{no_output}"
        );

        let by_zero = client
            .call("calculator", json!({"operation": "divide", "a": 1, "b": 0}))
            .await?;
        assert!(by_zero.is_error());
        assert_eq!(by_zero.text(), Some("cannot divide by zero"));
    }
    Ok(())
}

#[tokio::test]
async fn an_unknown_tool_is_a_json_rpc_error() -> Result<(), ClientError> {
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2024_11_05).await?;
    for client in [&modern, &legacy] {
        match client.call("calculate", json!({})).await {
            Err(ClientError::Rpc { code, message, data }) => {
                assert_eq!(code, ErrorCode::INVALID_PARAMS);
                assert_eq!(message, "Unknown tool: calculate");
                assert_eq!(data, None);
            }
            other => panic!("expected a JSON-RPC error, got {other:?}"),
        }
        let response = client.last_response().unwrap();
        assert_eq!(response["error"]["code"], -32602);
    }
    Ok(())
}

#[tokio::test]
async fn structured_output_is_typed_in_2026_07_28() -> Result<(), ClientError> {
    let client = server().test_client()?;
    let stats = client
        .call("text_analyzer", json!({"text": "the quick brown fox"}))
        .await?;
    assert_valid_result(&client, stats.response());
    assert_eq!(
        stats.structured::<TextStats>()?,
        TextStats {
            characters: 19,
            words: 4
        }
    );
    assert_eq!(
        stats.response()["result"]["structuredContent"],
        json!({"characters": 19, "words": 4})
    );
    assert_eq!(stats.text(), Some(r#"{"characters":19,"words":4}"#));

    // Not an object: sent as it is.
    let primes = client.call("primes", json!({"n": 12})).await?;
    assert_valid_result(&client, primes.response());
    assert_eq!(
        primes.response()["result"]["structuredContent"],
        json!([2, 3, 5, 7, 11])
    );
    assert_eq!(primes.structured::<Vec<u32>>()?, [2, 3, 5, 7, 11]);

    match primes.structured::<TextStats>() {
        Err(ClientError::StructuredContent { type_name, .. }) => assert!(type_name.ends_with("TextStats")),
        other => panic!("expected a deserialization error, got {other:?}"),
    }
    let none = client
        .call("calculator", json!({"operation": "add", "a": 1, "b": 1}))
        .await?;
    assert!(matches!(
        none.structured::<f64>(),
        Err(ClientError::NoStructuredContent { .. })
    ));
    Ok(())
}

#[tokio::test]
async fn structured_output_wrapped_by_2025_revisions_is_unwrapped() -> Result<(), ClientError> {
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let client = server().test_client_legacy(version).await?;
        let primes = client.call("primes", json!({"n": 12})).await?;
        assert_valid_result(&client, primes.response());
        assert_eq!(
            primes.response()["result"]["structuredContent"],
            json!({"result": [2, 3, 5, 7, 11]}),
            "{version}"
        );
        assert_eq!(primes.structured::<Vec<u32>>()?, [2, 3, 5, 7, 11]);
        assert_eq!(primes.structured_content(), Some(&json!([2, 3, 5, 7, 11])));

        // An object is never wrapped.
        let stats = client.call("text_analyzer", json!({"text": "a b"})).await?;
        assert_eq!(
            stats.response()["result"]["structuredContent"],
            json!({"characters": 3, "words": 2})
        );
        assert_eq!(
            stats.structured::<TextStats>()?,
            TextStats {
                characters: 3,
                words: 2
            }
        );
    }

    // Before 2025-06-18 there is no structured output, only the text.
    let client = server().test_client_legacy(ProtocolVersion::V2025_03_26).await?;
    let primes = client.call("primes", json!({"n": 6})).await?;
    assert_eq!(primes.text(), Some("[2,3,5]"));
    match primes.structured::<Vec<u32>>() {
        Err(ClientError::NoStructuredContent { reason }) => {
            assert_eq!(reason, "protocol revision 2025-03-26 has no structured output")
        }
        other => panic!("expected no structured output, got {other:?}"),
    }
    Ok(())
}

#[tokio::test]
async fn structured_output_of_a_tool_without_an_output_schema_is_unwrapped() -> Result<(), ClientError> {
    let answer = Tool::from_json("answer", "The answer.", json!({"type": "object"}), |_, _| async {
        CallToolResult::structured(&42)
    })
    .unwrap();
    let object = Tool::from_json("object", "An object.", json!({"type": "object"}), |_, _| async {
        CallToolResult::structured(&json!({"result": {"nested": true}}))
    })
    .unwrap();
    let server = Server::new("untyped", "1").tools([answer, object]);
    let client = server.test_client_legacy(ProtocolVersion::V2025_11_25).await?;
    let answer = client.call("answer", json!({})).await?;
    assert_eq!(
        answer.response()["result"]["structuredContent"],
        json!({"result": 42})
    );
    assert_eq!(answer.structured::<u32>()?, 42);
    let object = client.call("object", json!({})).await?;
    assert_eq!(
        object.structured_content(),
        Some(&json!({"result": {"nested": true}}))
    );
    Ok(())
}

#[tokio::test]
async fn progress_notifications_arrive_with_the_call_that_asked() -> Result<(), ClientError> {
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_03_26).await?;
    for client in [&modern, &legacy] {
        let quiet = client.call("progress", json!({"steps": 3})).await?;
        assert_eq!(quiet.text(), Some("3 steps"));
        assert!(quiet.notifications().is_empty());

        let result = client.call_with_progress("progress", json!({"steps": 3})).await?;
        assert_eq!(result.text(), Some("3 steps"));
        let token = result.notifications()[0]["params"]["progressToken"].clone();
        assert!(token.is_number() || token.is_string());
        let spec = Spec::of(client.protocol_version().as_str());
        for notification in result.notifications() {
            spec.assert_valid("ProgressNotification", notification);
        }
        let params: Vec<Value> = result
            .notifications()
            .iter()
            .map(|n| n["params"].clone())
            .collect();
        assert_eq!(
            params,
            (1..=3)
                .map(|step| json!({"progressToken": token, "progress": f64::from(step), "total": 3.0, "message": format!("step {step}")}))
                .collect::<Vec<_>>()
        );
    }
    Ok(())
}

#[tokio::test]
async fn log_messages_arrive_at_the_level_asked_for() -> Result<(), ClientError> {
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_11_25).await?;
    for client in [&modern, &legacy] {
        let unasked = client
            .call("log", json!({"level": "error", "message": "unheard"}))
            .await?;
        assert!(unasked.notifications().is_empty());

        client.set_log_level(LoggingLevel::Warning).await?;
        let below = client
            .call("log", json!({"level": "info", "message": "too quiet"}))
            .await?;
        assert!(below.notifications().is_empty());
        let heard = client
            .call("log", json!({"level": "error", "message": "disk full"}))
            .await?;
        assert_eq!(heard.text(), Some("logged"));
        let [message] = heard.notifications() else {
            panic!("expected one log message, got {:?}", heard.notifications())
        };
        assert_eq!(method(message), "notifications/message");
        assert_eq!(message["params"], json!({"level": "error", "data": "disk full"}));
        Spec::of(client.protocol_version().as_str()).assert_valid("LoggingMessageNotification", message);
    }
    Ok(())
}

#[tokio::test]
async fn tools_share_the_servers_state() -> Result<(), ClientError> {
    let server = || Server::new("visits", "1").tools(tools![visit]);
    let client = server()
        .state(Visits {
            count: AtomicU32::new(0),
        })
        .test_client()?;
    assert_eq!(client.call("visit", json!({})).await?.text(), Some("1"));
    assert_eq!(client.call("visit", json!({})).await?.text(), Some("2"));

    match server().test_client() {
        Err(ClientError::Server(Error::MissingState {
            needed_by,
            state,
            held,
        })) => {
            assert_eq!(needed_by, "visit");
            assert!(state.ends_with("Visits"), "{state}");
            assert!(held.is_empty(), "{held:?}");
        }
        other => panic!("expected the missing state to be reported, got {other:?}"),
    }
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await;
    assert!(matches!(
        legacy,
        Err(ClientError::Server(Error::MissingState { .. }))
    ));
    Ok(())
}

/// The salutation the server greets with.
struct Salutation(&'static str);

/// A parameter type of the user's own that reads two states and says so.
struct Greeter {
    visits: State<Visits>,
    salutation: State<Salutation>,
}

impl FromContext for Greeter {
    type Rejection = ToolError;

    fn from_context(cx: &Context) -> Result<Self, ToolError> {
        Ok(Greeter {
            visits: State::from_context(cx)?,
            salutation: State::from_context(cx)?,
        })
    }

    fn required_state() -> RequiredState {
        State::<Visits>::required_state().and(RequiredState::of::<Salutation>())
    }
}

/// Greets the visitor by number.
#[tool]
fn greet_visitor(greeter: Greeter) -> String {
    let number = greeter.visits.count.fetch_add(1, Ordering::SeqCst) + 1;
    format!("{}, visitor {number}", greeter.salutation.0.0)
}

#[tokio::test]
async fn a_parameter_type_of_ones_own_declares_the_state_it_reads() -> Result<(), ClientError> {
    let server = || Server::new("greeter", "1").tools(tools![greet_visitor]);
    let visits = || Visits {
        count: AtomicU32::new(0),
    };
    let client = server()
        .state(Salutation("Hello"))
        .state(visits())
        .test_client()?;
    assert_eq!(
        client.call("greet_visitor", json!({})).await?.text(),
        Some("Hello, visitor 1")
    );

    // Each state it declares is checked before the server serves, the first missing named.
    match server().state(visits()).test_client() {
        Err(ClientError::Server(Error::MissingState {
            needed_by,
            state,
            held,
        })) => {
            assert_eq!(needed_by, "greet_visitor");
            assert!(state.ends_with("Salutation"), "{state}");
            assert_eq!(held.len(), 1);
            assert!(held[0].ends_with("Visits"), "{held:?}");
        }
        other => panic!("expected the missing state to be reported, got {other:?}"),
    }
    assert!(matches!(
        server().state(Salutation("Hi")).test_client(),
        Err(ClientError::Server(Error::MissingState { state, .. })) if state.ends_with("Visits")
    ));
    Ok(())
}

#[tokio::test]
async fn a_panicking_tool_is_an_internal_error_and_the_server_goes_on() -> Result<(), ClientError> {
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await?;
    for client in [&modern, &legacy] {
        let result = client.call("explode", json!({})).await?;
        assert!(result.is_error());
        assert_eq!(result.text(), Some("internal error"));
        assert!(!result.response().to_string().contains("secret"));
        assert_valid_result(client, result.response());

        let after = client
            .call("calculator", json!({"operation": "subtract", "a": 5, "b": 3}))
            .await?;
        assert_eq!(after.text(), Some("2"));
    }
    Ok(())
}

#[tokio::test]
async fn sync_tools_run_on_a_current_thread_runtime() -> Result<(), ClientError> {
    let client = server().test_client()?;
    let (blocked, slept) = tokio::join!(
        client.call("block", json!({"ms": 20})),
        client.call("sleep", json!({"ms": 20})),
    );
    assert_eq!(blocked?.text(), Some("blocked 20 ms"));
    assert_eq!(slept?.text(), Some("slept 20 ms"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_serves_concurrent_calls_on_a_multi_thread_runtime() -> Result<(), ClientError> {
    let client = Arc::new(server().test_client_legacy(ProtocolVersion::V2025_11_25).await?);
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..16_u32 {
        let client = Arc::clone(&client);
        calls.spawn(async move {
            let (tool, args, expected) = match i % 3 {
                0 => ("sleep", json!({"ms": 10}), "slept 10 ms".to_owned()),
                1 => ("block", json!({"ms": 10}), "blocked 10 ms".to_owned()),
                _ => ("progress", json!({"steps": i}), format!("{i} steps")),
            };
            let result = client.call_with_progress(tool, args).await?;
            assert_eq!(result.text(), Some(expected.as_str()));
            // Each call sees its own progress, and only its own.
            let steps = if tool == "progress" { i } else { 0 };
            let tokens: Vec<&Value> = result
                .notifications()
                .iter()
                .map(|n| &n["params"]["progressToken"])
                .collect();
            assert_eq!(tokens.len(), steps as usize);
            assert!(tokens.windows(2).all(|pair| pair[0] == pair[1]));
            Ok::<_, ClientError>(())
        });
    }
    while let Some(call) = calls.join_next().await {
        call.expect("the call's task ran to its end")?;
    }
    Ok(())
}
