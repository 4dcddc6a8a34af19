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

fn main() {}
