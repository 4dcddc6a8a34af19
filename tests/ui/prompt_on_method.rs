use mcp_toolkit::prompt;

struct Reviewer {
    style: String,
}

impl Reviewer {
    /// Asks the model to review code.
    #[prompt]
    fn review_code(&self, code: String) -> String {
        format!("Review this code in the {} style:\n\n{code}", self.style)
    }
}

fn main() {}
