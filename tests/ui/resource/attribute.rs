// Mistakes in `#[resource(...)]` and where it goes.
// One module per mistake; one compile reports them all.

mod resource_missing_description {
    use mcp_toolkit::resource;

    #[resource(uri = "docs://readme")]
    fn readme() -> String {
        String::new()
    }
}

mod resource_missing_uri {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(mime_type = "text/markdown")]
    fn readme() -> String {
        String::new()
    }
}

mod resource_size_not_an_integer {
    use mcp_toolkit::resource;

    /// The logo.
    #[resource(uri = "assets://logo.png", size = "2 KB")]
    fn logo() -> Vec<u8> {
        Vec::new()
    }
}

mod resource_size_on_template {
    use mcp_toolkit::resource;

    /// A user's avatar.
    #[resource(uri = "users://{id}/avatar.png", mime_type = "image/png", size = 2048)]
    fn avatar(id: u64) -> Vec<u8> {
        id.to_be_bytes().to_vec()
    }
}

mod scopes_on_resource {
    use mcp_toolkit::resource;

    /// Every note.
    #[resource(uri = "notes://all", scopes("notes:read"))]
    fn all_notes() -> String {
        String::new()
    }
}

mod task_on_resource {
    use mcp_toolkit::resource;

    /// Every note.
    #[resource(uri = "notes://all", task = "required")]
    fn all_notes() -> String {
        String::new()
    }
}

mod resource_on_method {
    use mcp_toolkit::resource;

    struct Docs;

    impl Docs {
        /// The README.
        #[resource(uri = "docs://readme")]
        fn readme(&self) -> String {
            String::new()
        }
    }
}

fn main() {}
