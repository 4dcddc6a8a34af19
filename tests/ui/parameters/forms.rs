// Parameters the macro cannot take as written.
// One module per mistake; one compile reports them all.

mod param_borrowed {
    use mcp_toolkit::tool;

    /// Counts words.
    #[tool]
    fn words(text: &str) -> usize {
        text.split_whitespace().count()
    }
}

mod param_pattern {
    use mcp_toolkit::tool;

    /// Adds a pair.
    #[tool]
    fn add((a, b): (i32, i32)) -> i32 {
        a + b
    }
}

mod duplicate_default {
    use mcp_toolkit::tool;

    /// Repeats a text.
    #[tool]
    fn repeat(
        text: String,
        #[default(2)]
        #[default(3)]
        times: usize,
    ) -> String {
        text.repeat(times)
    }
}

fn main() {}
