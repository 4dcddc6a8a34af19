use mcp_toolkit::tool;

/// Echoes a value.
#[tool]
fn echo<T: serde::de::DeserializeOwned + schemars::JsonSchema>(value: T) -> String {
    let _ = value;
    String::new()
}

fn main() {}
