use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(last_modified = "2025-02-30T12:00:00Z"))]
fn readme() -> String {
    String::new()
}

fn main() {}
