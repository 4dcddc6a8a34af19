use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme")]
fn readme() -> u64 {
    3
}

fn main() {}
