// Mistakes in a tool's `annotations(...)`.
// One module per mistake; one compile reports them all.

mod annotations_not_a_list {
    use mcp_toolkit::tool;

    /// Reads a file.
    #[tool(annotations = read_only)]
    fn read(path: String) -> String {
        path
    }
}

mod annotation_flag_not_a_bool {
    use mcp_toolkit::tool;

    /// Reads a file.
    #[tool(annotations(read_only = "yes", idempotent))]
    fn read(path: String) -> String {
        path
    }
}

mod duplicate_annotation_title {
    use mcp_toolkit::tool;

    /// Deletes a file.
    #[tool(annotations(title = "Delete", destructive, title = "Remove"))]
    fn delete(path: String) -> String {
        path
    }
}

mod unknown_annotation {
    use mcp_toolkit::tool;

    /// Adds two numbers.
    #[tool(annotations(readonly))]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
}

fn main() {}
