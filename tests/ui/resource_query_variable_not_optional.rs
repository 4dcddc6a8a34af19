use mcp_toolkit::resource;

/// Searches the docs.
#[resource(uri = "docs://search{?q,page}")]
fn search(q: String, #[default(1)] page: u32) -> String {
    format!("{q} {page}")
}

fn main() {}
