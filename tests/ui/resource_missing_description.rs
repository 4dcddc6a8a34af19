use mcp_tools::resource;

#[resource(uri = "docs://readme")]
fn readme() -> String {
    String::new()
}

fn main() {}
