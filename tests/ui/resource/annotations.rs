// Mistakes in a resource's `annotations(...)`.
// One module per mistake; one compile reports them all.

mod resource_bad_audience {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(audience = ["user", "model"]))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_duplicate_audience {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(audience = ["assistant", "assistant"]))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_bad_last_modified {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(last_modified = "2025-02-30T12:00:00Z"))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_priority_out_of_range {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(priority = 1.5))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_tool_annotation {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(read_only))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_unknown_annotation {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", annotations(audiences = ["user"]))]
    fn readme() -> String {
        String::new()
    }
}

fn main() {}
