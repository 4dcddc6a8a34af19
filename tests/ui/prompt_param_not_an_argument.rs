use mcp_toolkit::prompt;

struct Snippet {
    code: String,
}

/// Asks the model to review code.
#[prompt]
fn review_code(
    /// The code to review
    snippet: Snippet,
) -> String {
    format!("Review this code:\n\n{}", snippet.code)
}

fn main() {}
