use mcp_toolkit::tool;

/// Adds two numbers.
#[tool(icons(icon(src = "https://example.com/add.png", theme = "light", theme = "dark")))]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn main() {}
