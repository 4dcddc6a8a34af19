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

fn main() {}
