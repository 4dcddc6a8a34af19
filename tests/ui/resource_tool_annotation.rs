use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(read_only))]
fn readme() -> String {
    String::new()
}

fn main() {}
