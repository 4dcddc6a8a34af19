use mcp_toolkit::resource;

/// The README.
#[resource(uri = "docs://readme")]
fn readme(lang: String) -> String {
    lang
}

fn main() {}
