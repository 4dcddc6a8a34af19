use mcp_tools::resource;

/// The README.
#[resource(uri = "docs://readme")]
fn readme(lang: String) -> String {
    lang
}

fn main() {}
