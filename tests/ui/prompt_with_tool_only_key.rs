use mcp_toolkit::prompt;

/// Asks the model to review code.
#[prompt(title = "Code review", annotations(read_only))]
fn review_code(code: String) -> String {
    format!("Review this code:\n\n{code}")
}

fn main() {}
