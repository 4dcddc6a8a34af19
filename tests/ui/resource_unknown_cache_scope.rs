use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme", cache(ttl_ms = 60000, scope = "shared"))]
fn readme() -> String {
    String::new()
}

fn main() {}
