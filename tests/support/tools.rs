//! Tools several test servers serve: the stdio fixture (which includes this file by path),
//! and the in-process servers of the test files (as `support::tools`).

use mcp_tools::protocol::LoggingLevel;
use mcp_tools::{Context, tool};
use serde_json::json;
use std::time::Duration;

/// Echoes the text back.
#[tool]
pub async fn echo(
    /// Any text
    text: String,
) -> String {
    text
}

/// Sleeps, then says how long; stops early when cancelled.
#[tool]
pub async fn sleep(
    /// Milliseconds to sleep
    ms: u64,
    cx: Context,
) -> String {
    tokio::select! {
        _ = tokio::time::sleep(Duration::from_millis(ms)) => format!("slept {ms} ms"),
        _ = cx.cancelled() => "cancelled".to_owned(),
    }
}

/// Blocks its thread, as sync code may: runs on the blocking pool, never stalling others.
#[tool]
pub fn block(
    /// Milliseconds to block
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

/// Reports progress in steps.
#[tool]
pub async fn progress(
    /// How many steps
    steps: u32,
    cx: Context,
) -> String {
    for step in 1..=steps {
        cx.report_progress(
            f64::from(step),
            Some(f64::from(steps)),
            Some(&format!("step {step}")),
        );
        tokio::task::yield_now().await;
    }
    format!("{steps} steps")
}

/// Logs a message at a level.
#[tool]
pub async fn log(
    /// The level
    level: LoggingLevel,
    /// The message
    message: String,
    cx: Context,
) -> &'static str {
    cx.log(level, message);
    "logged"
}

/// Panics with a secret.
#[tool]
pub async fn explode() -> String {
    panic!("the secret is 42")
}

/// Asks the client for its roots (a request of the server's own) and says what came back.
#[tool]
pub async fn ask_roots(cx: Context) -> Result<String, String> {
    match cx.send_request("roots/list", json!({})).await {
        Ok(result) => Ok(format!("roots: {result}")),
        Err(error) => Err(error.to_string()),
    }
}
