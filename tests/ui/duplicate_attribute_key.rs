use mcp_toolkit::tool;

/// Adds two numbers.
#[tool(name = "add", title = "Add", name = "sum")]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn main() {}
