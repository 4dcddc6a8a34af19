use mcp_toolkit::prompt;

/// Asks the model to review code.
#[prompt(name = "review code")]
fn review_code(code: String) -> String {
    format!("Review this code:\n\n{code}")
}

fn main() {}
