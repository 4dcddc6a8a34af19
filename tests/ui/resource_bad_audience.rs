use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(audience = ["user", "model"]))]
fn readme() -> String {
    String::new()
}

fn main() {}
