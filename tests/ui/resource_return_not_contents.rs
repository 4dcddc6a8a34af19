use mcp_tools::resource;

/// The README.
#[resource(uri = "docs://readme")]
fn readme() -> u64 {
    3
}

fn main() {}
