//! Every kind of return value converts into a tool result.
use mcp_toolkit::{CallToolResult, Content, Json, ToolError, tool, tools};
use std::borrow::Cow;

/// Text.
#[tool]
fn a() -> String { String::new() }
/// Static text.
#[tool]
fn b() -> &'static str { "" }
/// Borrowed or owned text.
#[tool]
fn c() -> Cow<'static, str> { Cow::Borrowed("") }
/// A number.
#[tool]
fn d() -> u64 { 1 }
/// A truth.
#[tool]
fn e() -> bool { true }
/// Nothing.
#[tool]
async fn f() {}
/// Structured.
#[tool]
fn g() -> Json<Vec<u8>> { Json(vec![]) }
/// Content.
#[tool]
fn h() -> Content { Content::text("") }
/// Several contents.
#[tool]
fn i() -> Vec<Content> { vec![] }
/// A whole result.
#[tool]
fn j() -> CallToolResult { CallToolResult::text("") }
/// A fallible result with a string error.
#[tool]
fn k() -> Result<Json<u8>, String> { Ok(Json(1)) }
/// A fallible result with a tool error.
#[tool]
async fn l() -> Result<(), ToolError> { Ok(()) }

fn main() {
    assert_eq!(tools![a, b, c, d, e, f, g, h, i, j, k, l].len(), 12);
}
