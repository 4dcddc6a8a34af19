// URI templates and the parameters that fill them.
// One module per mistake; one compile reports them all.

mod resource_malformed_template {
    use mcp_toolkit::resource;

    /// A user's profile.
    #[resource(uri = "users://{user id}/profile{?}")]
    fn profile(user_id: String) -> String {
        user_id
    }
}

mod resource_variable_without_param {
    use mcp_toolkit::resource;

    /// A user's post.
    #[resource(uri = "users://{user_id}/posts/{post}")]
    fn post(user_id: String) -> String {
        user_id
    }
}

mod resource_param_without_variable {
    use mcp_toolkit::{Context, resource};

    /// A user's profile.
    #[resource(uri = "users://{user_id}/profile")]
    fn profile(user_id: String, lang: String, _cx: Context) -> String {
        user_id + &lang
    }
}

mod resource_query_variable_not_optional {
    use mcp_toolkit::resource;

    /// Searches the docs.
    #[resource(uri = "docs://search{?q,page}")]
    fn search(q: String, #[default(1)] page: u32) -> String {
        format!("{q} {page}")
    }
}

mod resource_fixed_uri_with_argument {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "docs://readme")]
    fn readme(lang: String) -> String {
        lang
    }
}

mod resource_param_of_another_type_without_variable {
    use mcp_toolkit::resource;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    enum Lang {
        En,
        Fr,
    }

    /// A user's profile.
    #[resource(uri = "users://{user_id}/profile")]
    fn profile(user_id: String, lang: Lang) -> String {
        let _ = lang;
        user_id
    }
}

fn main() {}
