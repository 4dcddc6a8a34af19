// Mistakes in a tool's `icons(...)` and `meta(...)`.
// One module per mistake; one compile reports them all.

mod duplicate_icon_key {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(icons(icon(src = "https://example.com/add.png", theme = "light", theme = "dark")))]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod duplicate_meta_key {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(meta(cost = 1, "cost" = 2))]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod meta_key_without_value {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(meta(priority, cost = 3))]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

fn main() {}
