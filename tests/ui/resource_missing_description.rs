use mcp_toolkit::resource;

#[resource(uri = "docs://readme")]
fn readme() -> String {
    String::new()
}

fn main() {}
