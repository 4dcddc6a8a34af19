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

mod resource_return_json_not_serializable {
    use mcp_toolkit::{Json, resource};

    struct Profile {
        name: String,
    }

    /// A user's profile.
    #[resource(uri = "users://{id}/profile")]
    fn profile(id: String) -> Json<Profile> {
        Json(Profile { name: id })
    }
}

fn main() {}
