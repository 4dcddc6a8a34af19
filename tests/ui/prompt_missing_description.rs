use mcp_toolkit::prompt;

#[prompt]
fn review_code(code: String) -> String {
    format!("Review this code:\n\n{code}")
}

fn main() {}
