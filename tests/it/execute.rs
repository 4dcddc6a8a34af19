//! A call made through the server itself (`Server::execute`) runs exactly as a `tools/call`
//! would: the same visibility, rate limits, limit on calls in progress, time limits and
//! masking of internal errors. Also: a parameter filled in from the context that fails
//! with an internal error is masked and logged like every other internal error, and every
//! duplicate tool name is reported at once.

use mcp_toolkit::server::Limits;
use mcp_toolkit::{
    Context, Error, FromContext, Server, State, ToolError, export::ToolCall, registry::DefinitionError,
    server::RateLimit, tool, tools,
};
use serde_json::json;
use std::time::Duration;

/// Adds two numbers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Resets everything; only for callers who identified themselves.
#[tool]
fn admin_reset() -> &'static str {
    "reset"
}

/// Sleeps.
#[tool]
async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Answers at once.
#[tool]
async fn quick() -> &'static str {
    "quick"
}

struct Database;

/// Counts rows.
#[tool]
fn count_rows(_db: State<Database>) -> u64 {
    0
}

/// The configuration a tool reads from disk before it runs.
struct Config(String);

impl FromContext for Config {
    type Rejection = ToolError;

    fn from_context(_: &Context) -> Result<Self, ToolError> {
        // `?` on an io error makes an internal error: its detail names a path.
        Ok(Config(std::fs::read_to_string(
            "/nonexistent/secret-dir/app.toml",
        )?))
    }
}

/// Says what the configuration is.
#[tool]
fn configured(config: Config) -> String {
    config.0
}

fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
    ToolCall {
        id: None,
        name: name.into(),
        arguments,
    }
}

#[tokio::test]
async fn execute_sees_only_what_an_anonymous_caller_may_see() {
    let server = Server::new("exec", "1.0.0")
        .tools(tools![add, admin_reset])
        .tool_visibility(|tool, caller| caller.is_some() || !tool.name().starts_with("admin"));
    let hidden = server.execute_call(&call("admin_reset", json!({}))).await;
    assert!(hidden.is_error());
    assert_eq!(
        hidden.content()[0].as_text(),
        Some("there is no tool `admin_reset`; the tools are `add`")
    );
    let sum = server
        .execute(&json!({"name": "add", "arguments": {"a": 2, "b": 3}}))
        .await;
    assert_eq!(sum.content()[0].as_text(), Some("5"));
}

#[tokio::test]
async fn execute_keeps_the_rate_limit_across_calls() {
    let server = Server::new("exec", "1.0.0")
        .tools(tools![add])
        .limits(Limits::default().rate_limit(RateLimit::per_minute(2)));
    for _ in 0..2 {
        assert!(
            !server
                .execute_call(&call("add", json!({"a": 1, "b": 1})))
                .await
                .is_error()
        );
    }
    let refused = server.execute_call(&call("add", json!({"a": 1, "b": 1}))).await;
    assert!(refused.is_error());
    let text = refused.content()[0].as_text().unwrap();
    assert!(
        text.starts_with("too many calls: this server takes 2 calls per minute; try again in "),
        "{text}"
    );

    // A change of configuration starts afresh, with the new limit.
    let server = server.limits(Limits::default().rate_limit(RateLimit::per_minute(3)));
    for _ in 0..3 {
        assert!(
            !server
                .execute_call(&call("add", json!({"a": 1, "b": 1})))
                .await
                .is_error()
        );
    }
    assert!(
        server
            .execute_call(&call("add", json!({"a": 1, "b": 1})))
            .await
            .is_error()
    );
}

#[tokio::test]
async fn execute_keeps_the_time_limit_and_the_limit_on_calls_in_progress() {
    let server = std::sync::Arc::new(
        Server::new("exec", "1.0.0").tools(tools![nap, quick]).limits(
            Limits::default()
                .tool_timeout("nap", Duration::from_millis(300))
                .max_concurrent_calls(1),
        ),
    );
    let slow = {
        let server = std::sync::Arc::clone(&server);
        tokio::spawn(async move { server.execute_call(&call("nap", json!({"ms": 10_000}))).await })
    };
    // The nap starts as soon as this task yields, and holds the one permit until it ends.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let busy = server.execute_call(&call("quick", json!({}))).await;
    assert!(busy.is_error());
    assert_eq!(
        busy.content()[0].as_text(),
        Some("the server is busy: 1 calls are in progress, its limit; try again shortly")
    );
    let stopped = slow.await.unwrap();
    assert_eq!(
        stopped.content()[0].as_text(),
        Some("the tool `nap` did not finish within 300 ms and was stopped")
    );
    // The permit went with the call that held it.
    assert_eq!(
        server.execute_call(&call("quick", json!({}))).await.content()[0].as_text(),
        Some("quick")
    );
}

#[tokio::test]
async fn execute_refuses_a_server_that_would_not_start() {
    let server = Server::new("exec", "1.0.0").tools(tools![count_rows]);
    let refused = server.execute_call(&call("count_rows", json!({}))).await;
    assert!(refused.is_error());
    assert_eq!(refused.content()[0].as_text(), Some("internal error"));
    assert_eq!(
        refused.internal_detail(),
        Some(
            "the server cannot run calls: `count_rows` needs `State<it::execute::Database>`, but the server has no such state (it holds none); give it with `Server::state`"
        )
    );
    let ready = server.state(Database);
    assert_eq!(
        ready.execute_call(&call("count_rows", json!({}))).await.content()[0].as_text(),
        Some("0")
    );
}

#[tokio::test]
async fn a_parameter_that_fails_with_an_internal_error_is_masked_and_its_detail_kept_for_the_log() {
    let server = || Server::new("config", "1.0.0").tools(tools![configured]);
    let client = server().test_client().unwrap();
    let masked = client.call("configured", json!({})).await.unwrap();
    assert!(masked.is_error());
    assert_eq!(masked.text(), Some("internal error"));
    assert!(
        !masked.response().to_string().contains("secret-dir"),
        "{}",
        masked.response()
    );

    let executed = server().execute_call(&call("configured", json!({}))).await;
    assert_eq!(executed.content()[0].as_text(), Some("internal error"));
    let detail = executed.internal_detail().unwrap();
    assert!(
        detail.starts_with("filling in parameter `config` failed: "),
        "{detail}"
    );

    let exposed = server().expose_internal_errors(true).test_client().unwrap();
    let shown = exposed.call("configured", json!({})).await.unwrap();
    assert!(
        shown
            .text()
            .unwrap()
            .starts_with("internal error: filling in parameter `config` failed: "),
        "{:?}",
        shown.text()
    );
}

#[test]
fn every_duplicate_tool_name_is_reported_at_once() {
    let server = Server::new("twice", "1.0.0")
        .tools(tools![add])
        .tools(tools![add, nap])
        .tools(tools![nap]);
    let error = server.test_client().unwrap_err();
    assert!(
        matches!(
            &error,
            mcp_toolkit::testing::ClientError::Server(Error::Definitions(problems)) if problems == &[
                DefinitionError::DuplicateName("add".into()),
                DefinitionError::DuplicateName("nap".into()),
            ]
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the tools break 2 rules: duplicate tool name `add`: every tool of a server needs its own name; duplicate tool name `nap`: every tool of a server needs its own name"
    );
}
