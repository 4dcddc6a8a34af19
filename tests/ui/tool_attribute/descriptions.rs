// A tool's description and its `# Arguments` section.
// One module per mistake; one compile reports them all.

mod missing_description {
    use mcp_toolkit::tool;

    #[tool]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

mod arguments_section_names_unknown_parameter {
    use mcp_toolkit::tool;

    /// Counts the words of a text.
    ///
    /// # Arguments
    /// * `txt` - The text
    #[tool]
    fn words(text: String) -> usize {
        text.split_whitespace().count()
    }
}

fn main() {}
