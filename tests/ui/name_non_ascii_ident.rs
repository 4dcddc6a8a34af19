use mcp_toolkit::tool;

/// Orders a coffee.
#[tool]
fn café(size: String) -> String {
    size
}

fn main() {}
