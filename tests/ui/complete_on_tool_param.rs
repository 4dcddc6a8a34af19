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

fn main() {}
