//! The limits a server keeps whatever its tools do: call timeouts (the server's and a tool's
//! own), the number of calls in progress, and the size of a result. Each one fails the call
//! it concerns with an error result that says why, and the server goes on serving.

use mcp_tools::{ClientError, Server, TestClient, tool, tools};
use serde_json::json;
use std::time::Duration;

/// Never answers.
#[tool]
async fn hang() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Sleeps, then answers.
#[tool]
async fn nap(
    /// Milliseconds to sleep
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Blocks its thread, then answers.
#[tool]
fn grind(
    /// Milliseconds to block
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    "done".to_owned()
}

/// Returns this many bytes of text.
#[tool]
async fn blob(
    /// How many bytes
    bytes: usize,
) -> String {
    "x".repeat(bytes)
}

/// Answers at once.
#[tool]
async fn echo(
    /// Any text
    text: String,
) -> String {
    text
}

fn server() -> Server {
    Server::new("limits", "1.0.0").tools(tools![hang, nap, grind, blob, echo])
}

async fn still_serving(client: &TestClient) -> Result<(), ClientError> {
    let echo = client.call("echo", json!({"text": "still here"})).await?;
    assert_eq!(echo.text(), Some("still here"));
    assert!(!echo.is_error());
    Ok(())
}

#[tokio::test]
async fn a_call_that_runs_too_long_is_stopped_with_an_error_result() -> Result<(), ClientError> {
    let client = server()
        .call_timeout(Duration::from_millis(150))
        .tool_timeout("nap", Duration::from_secs(5))
        .test_client()?;

    let hung = client.call("hang", json!({})).await?;
    assert!(hung.is_error());
    assert_eq!(
        hung.text(),
        Some("the tool `hang` did not finish within 150 ms and was stopped")
    );

    // `nap` has a limit of its own, longer than the server's.
    let nap = client.call("nap", json!({"ms": 400})).await?;
    assert_eq!(nap.text(), Some("slept 400 ms"));
    assert!(!nap.is_error());

    still_serving(&client).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_tool_that_runs_too_long_is_answered_on_time() -> Result<(), ClientError> {
    let client = server()
        .tool_timeout("grind", Duration::from_millis(100))
        .test_client()?;
    let ground = client.call("grind", json!({"ms": 600})).await?;
    assert!(ground.is_error());
    assert_eq!(
        ground.text(),
        Some("the tool `grind` did not finish within 100 ms and was stopped")
    );
    still_serving(&client).await
}

#[tokio::test]
async fn calls_over_the_concurrency_limit_are_refused_until_one_ends() -> Result<(), ClientError> {
    let client = server()
        .max_concurrent_calls(2)
        .call_timeout(Duration::from_millis(300))
        .test_client()?;

    // Two calls that wait take both permits; the third is refused at once.
    let (first, second, third) = tokio::join!(
        client.call("hang", json!({})),
        client.call("hang", json!({})),
        client.call("nap", json!({"ms": 1})),
    );
    let third = third?;
    assert!(third.is_error());
    assert_eq!(
        third.text(),
        Some("the server is busy: 2 calls are in progress, its limit; try again shortly")
    );
    for hung in [first?, second?] {
        assert!(
            hung.text()
                .is_some_and(|t| t.contains("did not finish within 300 ms"))
        );
    }

    // Calls answered without waiting never count, and the permits are back.
    still_serving(&client).await?;
    let nap = client.call("nap", json!({"ms": 1})).await?;
    assert_eq!(nap.text(), Some("slept 1 ms"));
    Ok(())
}

#[tokio::test]
async fn a_result_too_large_to_send_becomes_an_error_result() -> Result<(), ClientError> {
    let client = server().max_result_size(4096).test_client()?;

    let fits = client.call("blob", json!({"bytes": 3000})).await?;
    assert!(!fits.is_error());
    assert_eq!(fits.text().map(str::len), Some(3000));

    let refused = client.call("blob", json!({"bytes": 5000})).await?;
    assert!(refused.is_error());
    let text = refused.text().unwrap_or_default();
    assert!(
        text.starts_with("the result is ")
            && text.ends_with(" bytes, more than this server sends (4096 bytes); ask for less"),
        "{text}"
    );
    still_serving(&client).await
}
