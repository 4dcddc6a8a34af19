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

fn main() {}
