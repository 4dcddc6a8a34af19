//! A server whose tools exercise what the example servers cannot: slow and blocking work,
//! progress, logging, cancellation, panics and a tool list that changes while serving.
//! The integration tests drive it over real pipes.
//!
//! The tools the tests also serve in process are in `tools.rs` beside this file; the ones
//! only this server has are here.

mod tools;

use mcp_toolkit::middleware::{Exchange, Flow, Message, Middleware, Outcome, Request};
use mcp_toolkit::server::Limits;
use mcp_toolkit::{Context, Server, ToolError, registry::ToolRegistry, tool, tools};
use serde_json::{Value, json};
use std::time::Duration;
use tools::{ask_roots, ask_two, block, echo, explode, log, order_book, progress, roots_if_any, sleep};

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

/// Needs the user to sign in at a URL first.
#[tool]
async fn needs_sign_in(ctx: Context) -> Result<String, mcp_toolkit::ToolError> {
    // A real tool would check its own record of the sign-in here (in revision 2026-07-28
    // it runs again once the user has been to the URL).
    let _asker = ctx;
    Err(mcp_toolkit::ToolError::url_required(
        "https://calendar.example/authorize?state=7",
        "Sign in to your calendar",
    ))
}

/// Waits a moment, then reports progress and logs: as a task, none of it is sent.
#[tool(task)]
async fn quiet_task(cx: Context) -> &'static str {
    tokio::time::sleep(Duration::from_millis(50)).await;
    cx.report_progress(1.0, Some(1.0), Some("halfway"));
    cx.info("working");
    tokio::time::sleep(Duration::from_millis(50)).await;
    "done"
}

/// Says where it is: a status, a progress report, another status.
#[tool]
async fn staged(cx: Context) -> &'static str {
    cx.set_status("starting");
    cx.report_progress(1.0, Some(2.0), None);
    tokio::task::yield_now().await;
    cx.set_status("halfway");
    "staged"
}

/// Acts only on requests whose `_meta` carries `fixture/middleware`: `answer` answers in the
/// method's place; `panic`, `panic-on-message` and `panic-on-end` panic in that hook.
struct Trial;

/// What a request asks of [`Trial`].
fn trial(meta: &serde_json::Map<String, Value>) -> Option<&str> {
    meta.get("fixture/middleware").and_then(Value::as_str)
}

impl Middleware for Trial {
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        match trial(request.meta()) {
            Some("answer") => Flow::Answer(json!({ "answeredBy": "the middleware" })),
            Some("panic") => panic!("the middleware hit a bug before the method"),
            _ => Flow::Continue,
        }
    }

    fn on_message(&self, exchange: &Exchange, _: &Message<'_>) {
        if trial(exchange.meta()) == Some("panic-on-message") {
            panic!("the middleware hit a bug on a message");
        }
    }

    fn on_end(&self, exchange: &Exchange, _: Outcome) {
        if trial(exchange.meta()) == Some("panic-on-end") {
            panic!("the middleware hit a bug at the end");
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    // Served without `run`, so it installs the log itself, as such a server would.
    mcp_toolkit::log_to_stderr();
    let served = Server::new("fixture", "1.0.0")
        .limits(
            Limits::default()
                .max_message_size(64 * 1024)
                .tool_timeout("hang", Duration::from_millis(300))
                .tool_timeout("ask_roots", Duration::from_secs(2))
                .tool_timeout("order_book", Duration::from_secs(2))
                .max_concurrent_calls(20_000),
        )
        .tools(tools![
            echo,
            sleep,
            block,
            progress,
            log,
            toggle,
            explode,
            read_config,
            hang,
            ask_roots,
            order_book,
            ask_two,
            roots_if_any,
            needs_sign_in,
            quiet_task,
            staged
        ])
        .middleware(Trial)
        .serve_stdio()
        .await;
    served.map_or_else(mcp_toolkit::Error::report, |()| std::process::ExitCode::SUCCESS)
}
