use mcp_toolkit::{prompts, tool};

/// Adds two numbers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = prompts![add];
}
