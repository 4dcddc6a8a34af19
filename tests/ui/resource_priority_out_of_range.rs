use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(priority = 1.5))]
fn readme() -> String {
    String::new()
}

fn main() {}
