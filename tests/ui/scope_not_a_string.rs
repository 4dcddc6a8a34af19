use mcp_toolkit::tool;

/// Deletes a note.
#[tool(scopes("notes:write", notes_admin, 3))]
fn delete_note(id: u32) -> String {
    format!("deleted {id}")
}

fn main() {}
