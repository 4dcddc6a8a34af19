use mcp_toolkit::prompt;

struct Review {
    text: String,
}

/// Asks the model to review code.
#[prompt]
fn review_code(code: String) -> Review {
    Review { text: code }
}

fn main() {}
