// Unknown, repeated and malformed keys of `#[tool(...)]`.
// One module per mistake; one compile reports them all.

mod unknown_attribute_key {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(nmae = "add")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod duplicate_attribute_key {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "add", title = "Add", name = "sum")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod malformed_values_all_reported {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = 1, colour = "x")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod tool_with_resource_keys {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(size = 10, cache(ttl_ms = 1000), annotations(read_only, audience = ["user"]))]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

fn main() {}
