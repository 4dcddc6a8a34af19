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

fn main() {}
