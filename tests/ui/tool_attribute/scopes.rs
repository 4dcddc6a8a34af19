// Mistakes in a tool's `scopes(...)`.
// One module per mistake; one compile reports them all.

mod scopes_not_a_list {
    use mcp_toolkit::tool;

    /// Deletes a note.
    #[tool(scopes = "notes:write")]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }
}

mod scope_not_a_string {
    use mcp_toolkit::tool;

    /// Deletes a note.
    #[tool(scopes("notes:write", notes_admin, 3))]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }
}

mod scope_empty {
    use mcp_toolkit::tool;

    /// Deletes a note.
    #[tool(scopes("notes:write", ""))]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }
}

mod scope_with_space {
    use mcp_toolkit::tool;

    /// Deletes a note.
    #[tool(scopes("notes:write notes:delete"))]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }
}

mod duplicate_scope {
    use mcp_toolkit::tool;

    /// Deletes a note.
    #[tool(scopes("notes:write", "notes:delete", "notes:write"))]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }
}

fn main() {}
