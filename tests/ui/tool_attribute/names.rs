// Tool names the specification does not allow.
// One module per mistake; one compile reports them all.

mod name_empty {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod name_129_characters {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod name_non_ascii_ident {
    use mcp_toolkit::tool;

    /// Orders a coffee.
    #[tool]
    fn café(size: String) -> String {
        size
    }
}

mod name_non_ascii_literal {
    use mcp_toolkit::tool;

    /// Orders a coffee.
    #[tool(name = "café")]
    fn order(size: String) -> String {
        size
    }
}

mod name_with_at {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "add@v2")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod name_with_comma {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "add,sum")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod name_with_slash {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "math/add")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod name_with_space {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(name = "add numbers")]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

fn main() {}
