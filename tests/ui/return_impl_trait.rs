use mcp_toolkit::tool;

/// Greets someone.
#[tool]
fn greet(name: String) -> impl std::fmt::Display {
    format!("Hello, {name}!")
}

fn main() {}
