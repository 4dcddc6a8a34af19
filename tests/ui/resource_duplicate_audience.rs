use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(audience = ["assistant", "assistant"]))]
fn readme() -> String {
    String::new()
}

fn main() {}
