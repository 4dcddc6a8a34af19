// Parameter and return types a prompt cannot have.
// One module per mistake; one compile reports them all.

mod prompt_param_not_an_argument {
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
}

mod prompt_return_not_a_result {
    use mcp_toolkit::prompt;

    struct Review {
        text: String,
    }

    /// Asks the model to review code.
    #[prompt]
    fn review_code(code: String) -> Review {
        Review { text: code }
    }
}

fn main() {}
