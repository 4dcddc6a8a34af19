//! Names at the edges of the rule, and names from raw identifiers.
use mcp_toolkit::{tool, tools};

/// One character.
#[tool(name = "x")]
fn shortest() {}

/// 128 characters.
#[tool(name = "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy")]
fn longest() {}

/// Dotted.
#[tool(name = "admin.tools.list")]
fn admin_tools_list() {}

/// Mixed case and digits.
#[tool(name = "DATA_EXPORT_v2")]
fn data_export() {}

/// A keyword as the name.
#[tool]
fn r#type() {}

fn main() {
    let tools = tools![shortest, longest, admin_tools_list, data_export, r#type];
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["x", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "admin.tools.list", "DATA_EXPORT_v2", "type"]);
}
