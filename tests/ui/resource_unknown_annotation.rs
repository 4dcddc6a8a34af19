use mcp_tools::resource;

/// The README.
#[resource(uri = "docs://readme", annotations(audiences = ["user"]))]
fn readme() -> String {
    String::new()
}

fn main() {}
