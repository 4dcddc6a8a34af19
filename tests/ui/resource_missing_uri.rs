use mcp_tools::resource;

/// The README.
#[resource(mime_type = "text/markdown")]
fn readme() -> String {
    String::new()
}

fn main() {}
