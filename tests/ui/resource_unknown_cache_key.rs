use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", cache(ttl = 60000))]
fn readme() -> String {
    String::new()
}

fn main() {}
