//! A server whose tools exercise what the example servers cannot: slow and blocking work,
//! progress, logging, cancellation, panics and a tool list that changes while serving.
//! The integration tests drive it over real pipes.

use mcp_tools::protocol::LoggingLevel;
use mcp_tools::{Context, Server, ToolError, ToolRegistry, tool, tools};
use std::time::Duration;

#[path = "../../examples/common/mod.rs"]
mod common;

/// Echoes the text back.
#[tool]
async fn echo(
    /// Any text
    text: String,
) -> String {
    text
}

/// Sleeps, then says how long; stops early when cancelled.
#[tool]
async fn sleep(
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
fn block(
    /// Milliseconds to block
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

/// Reports progress in steps.
#[tool]
async fn progress(
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
async fn log(
    /// The level
    level: LoggingLevel,
    /// The message
    message: String,
    cx: Context,
) -> &'static str {
    cx.log(level, message);
    "logged"
}

/// Enables or disables a tool.
#[tool]
fn toggle(
    /// The tool
    name: String,
    /// Whether clients may see and call it
    enabled: bool,
    registry: ToolRegistry,
) -> Result<String, ToolError> {
    if registry.set_enabled(&name, enabled) {
        Ok(format!(
            "{name} is {}",
            if enabled { "enabled" } else { "disabled" }
        ))
    } else {
        Err(ToolError::new(format!("no tool is named `{name}`")))
    }
}

/// Panics with a secret.
#[tool]
async fn explode() -> String {
    panic!("the secret is 42")
}

/// Reads a file that is not there: its `?`-converted error is an internal detail.
#[tool]
fn read_config() -> Result<String, ToolError> {
    Ok(std::fs::read_to_string("/nonexistent/secret-dir/app.toml")?)
}

/// Never answers: the server's time limit for it ends the call.
#[tool]
async fn hang() -> String {
    std::future::pending::<()>().await;
    unreachable!("a pending future never resolves")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), mcp_tools::Error> {
    common::log_to_stderr();
    Server::new("fixture", "1.0.0")
        .max_message_size(64 * 1024)
        .tool_timeout("hang", Duration::from_millis(300))
        .max_concurrent_calls(20_000)
        .tools(tools![
            echo,
            sleep,
            block,
            progress,
            log,
            toggle,
            explode,
            read_config,
            hang
        ])
        .serve_stdio()
        .await
}
