use mcp_toolkit::prompt;

/// Reviews a note.
#[prompt(scopes("notes:read"))]
fn review_note(id: u32) -> String {
    format!("Review note {id}.")
}

fn main() {}
