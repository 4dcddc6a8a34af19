use mcp_toolkit::tool;

/// A calculator.
#[tool]
struct Calculator {
    precision: u8,
}

fn main() {
    let _ = Calculator { precision: 2 }.precision;
}
