use mcp_toolkit::tool;

/// Orders a coffee.
#[tool(name = "café")]
fn order(size: String) -> String {
    size
}

fn main() {}
