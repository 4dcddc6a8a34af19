//! The server the official conformance suite (`@modelcontextprotocol/conformance`) tests:
//! it implements the `test_*` tools its tool scenarios call, with the fixture values they
//! expect. Run it with `--http 127.0.0.1:PORT` and point the suite at `/mcp`.
//!
//! ```text
//! cargo run --bin conformance -- --http 127.0.0.1:3001
//! ```

mod common;

use mcp_tools::protocol::LoggingLevel;
use mcp_tools::{CallToolResult, Content, Context, Server, ToolRegistry, tool, tools};
use std::time::Duration;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A silent WAV file.
const SILENT_WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Returns a simple text response.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[tool]
fn test_image_content() -> Content {
    Content::image_base64(RED_PIXEL_PNG, "image/png")
}

/// Returns audio.
#[tool]
fn test_audio_content() -> Content {
    Content::audio_base64(SILENT_WAV, "audio/wav")
}

/// Returns an embedded resource.
#[tool]
fn test_embedded_resource() -> Content {
    Content::embedded_text(
        "test://embedded-resource",
        Some("text/plain".into()),
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource.
#[tool]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image_base64(RED_PIXEL_PNG, "image/png"),
        Content::embedded_text(
            "test://mixed-content-resource",
            Some("application/json".into()),
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Sends three log messages while it runs.
#[tool]
async fn test_tool_with_logging(cx: Context) -> &'static str {
    for (i, message) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.log(LoggingLevel::Info, message);
    }
    "Tool with logging executed successfully"
}

/// Logs at the level the request asked for (2026-07-28).
#[tool]
async fn test_logging_tool(cx: Context) -> &'static str {
    cx.info("Logging tool called");
    "Logged"
}

/// Always fails, as a tool error the model can read.
#[tool]
fn test_error_handling() -> CallToolResult {
    CallToolResult::error("This tool intentionally returns an error for testing")
}

/// Reports progress in three steps.
#[tool]
async fn test_tool_with_progress(cx: Context) -> &'static str {
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.report_progress(step, Some(100.0), Some(&format!("Completed step {step} of 100")));
    }
    "Progress test completed"
}

/// Changes the tool list, so subscribers hear `notifications/tools/list_changed`.
#[tool]
fn test_trigger_tool_change(registry: ToolRegistry) -> &'static str {
    let enabled = registry.get("test_simple_text").is_some();
    registry.set_enabled("test_simple_text", !enabled);
    registry.set_enabled("test_simple_text", true);
    "Tool list changed"
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    common::log_to_stderr();
    let served = Server::new("mcp-tools-conformance", env!("CARGO_PKG_VERSION"))
        .tools(tools![
            test_simple_text,
            test_image_content,
            test_audio_content,
            test_embedded_resource,
            test_multiple_content_types,
            test_tool_with_logging,
            test_logging_tool,
            test_error_handling,
            test_tool_with_progress,
            test_trigger_tool_change,
        ])
        .run()
        .await;
    common::exit(served)
}
