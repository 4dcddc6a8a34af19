use mcp_toolkit::tool;

/// Counts words.
#[tool]
fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

fn main() {}
