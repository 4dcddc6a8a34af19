// Mistakes in a resource's `cache(...)`.
// One module per mistake; one compile reports them all.

mod resource_unknown_cache_key {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", cache(ttl = 60000))]
    fn readme() -> String {
        String::new()
    }
}

mod resource_unknown_cache_scope {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme", cache(ttl_ms = 60000, scope = "shared"))]
    fn readme() -> String {
        String::new()
    }
}

fn main() {}
