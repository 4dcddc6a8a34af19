use mcp_toolkit::resource;

/// Every note.
#[resource(uri = "notes://all", scopes("notes:read"))]
fn all_notes() -> String {
    String::new()
}

fn main() {}
