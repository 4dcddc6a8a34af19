// Completion functions: how they are named and what they must be.
// One module per mistake; one compile reports them all.

mod complete_fn_wrong_signature {
    use mcp_toolkit::prompt;

    fn cities(typed: &str) -> Vec<String> {
        vec![typed.to_owned()]
    }

    fn count(_typed: &str, _given: &serde_json::Map<String, serde_json::Value>) -> usize {
        0
    }

    /// Plans a trip.
    #[prompt]
    fn plan_trip(
        #[complete(cities)] from: String,
        #[complete(count)] to: String,
        #[complete(towns)] via: String,
    ) -> String {
        format!("{from} {to} {via}")
    }
}

mod resource_complete_fn_wrong_signature {
    use mcp_toolkit::resource;

    fn owners(typed: &str) -> Vec<String> {
        vec![typed.to_owned()]
    }

    fn count(_typed: &str, _given: &serde_json::Map<String, serde_json::Value>) -> usize {
        0
    }

    /// A repository's README.
    #[resource(uri = "repo://{owner}/{repo}{?branch}")]
    fn readme(
        #[complete(owners)] owner: String,
        #[complete(count)] repo: String,
        #[complete(branches)] branch: Option<String>,
    ) -> String {
        format!("{owner}/{repo}@{branch:?}")
    }
}

mod complete_not_one_path {
    use mcp_toolkit::prompt;
    use serde_json::{Map, Value};

    fn cities(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
        Vec::new()
    }

    /// Plans a trip.
    #[prompt]
    fn plan_trip(
        #[complete] from: String,
        #[complete(cities, cities)] to: String,
        #[complete("cities")] via: String,
        #[complete = cities] back: String,
    ) -> String {
        format!("{from} {to} {via} {back}")
    }
}

mod duplicate_complete {
    use mcp_toolkit::prompt;
    use serde_json::{Map, Value};

    fn cities(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
        Vec::new()
    }

    /// Plans a trip.
    #[prompt]
    fn plan_trip(
        #[complete(cities)]
        #[complete(cities)]
        city: String,
    ) -> String {
        city
    }
}

fn main() {}
