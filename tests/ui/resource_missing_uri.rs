use mcp_toolkit::resource;

/// The README.
#[resource(mime_type = "text/markdown")]
fn readme() -> String {
    String::new()
}

fn main() {}
