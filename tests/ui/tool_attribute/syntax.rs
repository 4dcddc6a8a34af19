// Mistakes in the syntax of `#[tool(...)]`.
// One module per mistake; one compile reports them all.

mod missing_equals {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name "add")]
    fn plus(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod missing_value {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name =, title = "Add")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod doubled_comma {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "add",, title = "Add")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod value_without_key {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool("add")]
    fn plus(a: i32, b: i32) -> i32 {
        a + b
    }
}

fn main() {}
