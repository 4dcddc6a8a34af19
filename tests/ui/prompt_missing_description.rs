use mcp_tools::prompt;

#[prompt]
fn review_code(code: String) -> String {
    format!("Review this code:\n\n{code}")
}

fn main() {}
