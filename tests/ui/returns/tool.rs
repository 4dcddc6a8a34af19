// What a tool cannot return.
// One module per mistake; one compile reports them all.

mod return_impl_trait {
    use mcp_toolkit::tool;

    /// Greets someone.
    #[tool]
    fn greet(name: String) -> impl std::fmt::Display {
        format!("Hello, {name}!")
    }
}

mod return_not_a_result {
    use mcp_toolkit::tool;

    struct Report {
        lines: usize,
    }

    /// Reports on a text.
    #[tool]
    fn report(text: String) -> Report {
        Report { lines: text.lines().count() }
    }
}

fn main() {}
