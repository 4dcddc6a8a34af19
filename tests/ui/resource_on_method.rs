use mcp_toolkit::resource;

struct Docs;

impl Docs {
    /// The README.
    #[resource(uri = "docs://readme")]
    fn readme(&self) -> String {
        String::new()
    }
}

fn main() {}
