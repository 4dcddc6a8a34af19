use mcp_toolkit::{prompt, resources};

/// Summarizes.
#[prompt]
fn summarize(text: String) -> String {
    text
}

fn main() {
    let _ = resources![summarize];
}
