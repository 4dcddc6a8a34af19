// Where `#[complete(...)]` cannot go.
// One module per mistake; one compile reports them all.

mod complete_on_tool_param {
    use mcp_toolkit::tool;
    use serde_json::{Map, Value};

    fn cities(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
        vec!["Lisbon".to_owned()]
    }

    /// Looks up the weather.
    #[tool]
    fn weather(#[complete(cities)] city: String) -> String {
        city
    }
}

mod resource_complete_not_on_variable {
    use mcp_toolkit::{Context, resource};
    use serde_json::{Map, Value};

    fn names(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
        Vec::new()
    }

    /// The README.
    #[resource(uri = "docs://readme")]
    fn readme(#[complete(names)] cx: Context) -> String {
        let _ = cx;
        String::new()
    }

    /// A user's profile.
    #[resource(uri = "users://{user_id}/profile")]
    fn profile(#[complete(names)] user_id: String, #[complete(names)] cx: Context) -> String {
        let _ = cx;
        user_id
    }
}

fn main() {}
