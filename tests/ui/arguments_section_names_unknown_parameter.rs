use mcp_toolkit::tool;

/// Counts the words of a text.
///
/// # Arguments
/// * `txt` - The text
#[tool]
fn words(text: String) -> usize {
    text.split_whitespace().count()
}

fn main() {}
