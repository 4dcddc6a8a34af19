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

fn main() {}
