// What a resource cannot return.
// One module per mistake; one compile reports them all.

mod resource_return_not_contents {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme")]
    fn readme() -> u64 {
        3
    }
}

fn main() {}
