use mcp_toolkit::tool;

/// Deletes a note.
#[tool(scopes = "notes:write")]
fn delete_note(id: u32) -> String {
    format!("deleted {id}")
}

fn main() {}
