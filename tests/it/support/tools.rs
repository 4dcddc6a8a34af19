//! Tools both the stdio fixture (`fixture.rs` beside this file, whose module `tools` this is)
//! and the tests' in-process servers (as `support::tools`) serve.

use mcp_toolkit::protocol::LoggingLevel;
use mcp_toolkit::{Context, tool};
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

/// Where to ship a book: the form `order_book` asks for.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Shipping {
    /// Street and number
    pub street: String,
    /// Express delivery
    #[serde(default)]
    pub express: bool,
}

/// Orders a book, asking where to ship it, for a blurb, and for the client's roots.
#[tool]
pub async fn order_book(ctx: Context, title: String) -> Result<String, mcp_toolkit::ToolError> {
    let shipping = match ctx.elicit::<Shipping>("Where should the book go?").await? {
        mcp_toolkit::ask::Elicitation::Accept(shipping) => shipping,
        mcp_toolkit::ask::Elicitation::Decline | mcp_toolkit::ask::Elicitation::Cancel => {
            return Ok("not ordered".into());
        }
    };
    let blurb = ctx
        .sample(format!("One line about {title}"))
        .max_tokens(60)
        .await?;
    let roots = ctx.list_roots().await?;
    let speed = if shipping.express { "express" } else { "standard" };
    Ok(format!(
        "{title} to {} ({speed}, {} roots): {}",
        shipping.street,
        roots.len(),
        blurb.text().unwrap_or_default()
    ))
}

/// Asks for a form and for the roots at once: one round in revision 2026-07-28.
#[tool]
pub async fn ask_two(ctx: Context) -> Result<String, mcp_toolkit::ToolError> {
    use std::future::IntoFuture;
    let (form, roots) = tokio::join!(
        ctx.elicit::<Shipping>("Where to?").key("where").into_future(),
        ctx.list_roots().key("roots").into_future()
    );
    let street = match form? {
        mcp_toolkit::ask::Elicitation::Accept(shipping) => shipping.street,
        _ => "nowhere".into(),
    };
    Ok(format!("{street}, {} roots", roots?.len()))
}

/// Asks for the roots if it may, and does without them otherwise.
#[tool]
pub async fn roots_if_any(ctx: Context) -> Result<String, mcp_toolkit::ToolError> {
    match ctx.list_roots().await {
        Ok(roots) => Ok(format!("{} roots", roots.len())),
        Err(mcp_toolkit::ask::AskError::MissingCapability(capability)) => {
            Ok(format!("no `{capability}`: no roots"))
        }
        Err(error) => Err(error.into()),
    }
}
