use mcp_toolkit::{resource, resources};

/// The README.
#[resource(uri = "docs://readme")]
fn readme() -> String {
    String::new()
}

/// The README again.
#[resource(uri = "docs://readme")]
fn again() -> String {
    String::new()
}

fn main() {
    let _ = resources![readme, again];
}
