use mcp_tools::tool;

/// Orders a coffee.
#[tool(name = "café")]
fn order(size: String) -> String {
    size
}

fn main() {}
