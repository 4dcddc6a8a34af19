use mcp_toolkit::{Context, State, prompt};
use serde_json::{Map, Value};

fn names(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
    Vec::new()
}

/// Greets someone.
#[prompt]
fn greet(
    #[complete(names)] cx: Context,
    #[complete(names)] greeting: State<String>,
    #[complete(names)] name: String,
) -> String {
    let _ = cx;
    format!("{} {name}", *greeting)
}

fn main() {}
