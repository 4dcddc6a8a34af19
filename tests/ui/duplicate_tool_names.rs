use mcp_toolkit::{tool, tools};

/// Adds two numbers.
#[tool(name = "add")]
fn plus(a: i32, b: i32) -> i32 {
    a + b
}

/// Also adds two numbers.
#[tool]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn main() {
    let _ = tools![plus, add];
}
