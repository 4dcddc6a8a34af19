use mcp_tools::tool;

/// Orders a coffee.
#[tool]
fn café(size: String) -> String {
    size
}

fn main() {}
