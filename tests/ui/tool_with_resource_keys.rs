use mcp_toolkit::tool;

/// Adds two numbers.
#[tool(size = 10, cache(ttl_ms = 1000), annotations(read_only, audience = ["user"]))]
fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn main() {}
