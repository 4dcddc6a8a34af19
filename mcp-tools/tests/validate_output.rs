//! With the `validate-output` feature, structured content that breaks a tool's output schema
//! never reaches the client: it is an internal error, and the mismatch goes to the log.
//! Run with `cargo test -p mcp-toolkit --features validate-output --test validate_output`.
//!
//! The runtime crate's one integration test: it needs the feature, which the suite's test
//! binary (`tests/it`) does not turn on, and `#[tool]` expands to `::mcp_toolkit` paths,
//! which only a crate outside the runtime can name.

use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{Context, Json, Server, Tool, testing::ClientError, tool, tools};
use serde_json::json;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Stats {
    /// How many values there were.
    count: usize,
    /// Their mean.
    mean: f64,
}

/// Counts values and averages them.
#[tool]
fn stats(
    /// The values
    values: Vec<f64>,
) -> Json<Stats> {
    let count = values.len();
    // The mean of no values is NaN, which JSON spells `null`: not the number the schema promises.
    let mean = values.iter().sum::<f64>() / count as f64;
    Json(Stats { count, mean })
}

/// The first primes.
#[tool]
fn primes(
    /// How many
    count: usize,
) -> Json<Vec<u32>> {
    Json([2, 3, 5, 7, 11].into_iter().take(count).collect())
}

fn server() -> Server {
    let text_only = Tool::from_json(
        "text_only",
        "Promises structure, returns text.",
        json!({"type": "object"}),
        |_, _: Context| async { "42" },
    )
    .unwrap()
    .with_output_schema(json!({"type": "object", "properties": {"answer": {"type": "integer"}}}));
    Server::new("checked", "1.0.0")
        .tools(tools![stats, primes])
        .tools([text_only])
}

#[tokio::test]
async fn matching_structured_content_is_sent_in_both_eras() -> Result<(), ClientError> {
    let modern = server().test_client()?;
    let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await?;
    for client in [&modern, &legacy] {
        let result = client.call("stats", json!({"values": [1.0, 2.0, 6.0]})).await?;
        assert!(!result.is_error(), "{:?}", result.response());
        assert_eq!(
            result.structured::<serde_json::Value>()?,
            json!({"count": 3, "mean": 3.0})
        );
        // Wrapped as {"result": [...]} for 2025-06-18, checked against the tool's own schema.
        let primes = client.call("primes", json!({"count": 3})).await?;
        assert!(!primes.is_error(), "{:?}", primes.response());
        assert_eq!(primes.structured::<Vec<u32>>()?, [2, 3, 5]);
    }
    Ok(())
}

#[tokio::test]
async fn content_that_breaks_the_schema_is_an_internal_error() -> Result<(), ClientError> {
    let client = server().test_client()?;
    let result = client.call("stats", json!({"values": []})).await?;
    assert!(result.is_error());
    assert_eq!(result.text(), Some("internal error"));
    assert!(result.response()["result"].get("structuredContent").is_none());

    let missing = client.call("text_only", json!({})).await?;
    assert_eq!(missing.text(), Some("internal error"));

    // The next call is served as usual.
    let after = client.call("stats", json!({"values": [4.0]})).await?;
    assert!(!after.is_error());
    Ok(())
}

#[tokio::test]
async fn the_mismatch_is_named_when_details_are_exposed() -> Result<(), ClientError> {
    let client = server().expose_internal_errors(true).test_client()?;
    let result = client.call("stats", json!({"values": []})).await?;
    assert_eq!(
        result.text(),
        Some(
            "internal error: the structured content does not match the tool's output schema: at `/mean`: null is not of type \"number\""
        )
    );
    let missing = client.call("text_only", json!({})).await?;
    assert_eq!(
        missing.text(),
        Some("internal error: the tool has an output schema but returned no structured content")
    );
    Ok(())
}
