use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(audiences = ["user"]))]
fn readme() -> String {
    String::new()
}

fn main() {}
