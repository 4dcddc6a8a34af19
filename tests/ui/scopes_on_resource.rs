use mcp_tools::resource;

/// Every note.
#[resource(uri = "notes://all", scopes("notes:read"))]
fn all_notes() -> String {
    String::new()
}

fn main() {}
