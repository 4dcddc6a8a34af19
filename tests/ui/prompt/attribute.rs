// Mistakes in `#[prompt(...)]` and where it goes.
// One module per mistake; one compile reports them all.

mod prompt_missing_description {
    use mcp_toolkit::prompt;

    #[prompt]
    fn review_code(code: String) -> String {
        format!("Review this code:\n\n{code}")
    }
}

mod prompt_name_with_space {
    use mcp_toolkit::prompt;

    /// Asks the model to review code.
    #[prompt(name = "review code")]
    fn review_code(code: String) -> String {
        format!("Review this code:\n\n{code}")
    }
}

mod prompt_with_resource_keys {
    use mcp_toolkit::prompt;

    /// Asks the model to review code.
    #[prompt(size = 10, cache(scope = "public"))]
    fn review_code(code: String) -> String {
        format!("Review this code:\n\n{code}")
    }
}

mod prompt_with_tool_only_key {
    use mcp_toolkit::prompt;

    /// Asks the model to review code.
    #[prompt(title = "Code review", annotations(read_only))]
    fn review_code(code: String) -> String {
        format!("Review this code:\n\n{code}")
    }
}

mod scopes_on_prompt {
    use mcp_toolkit::prompt;

    /// Reviews a note.
    #[prompt(scopes("notes:read"))]
    fn review_note(id: u32) -> String {
        format!("Review note {id}.")
    }
}

mod task_on_prompt {
    use mcp_toolkit::prompt;

    /// Reviews a note.
    #[prompt(task)]
    fn review_note(id: u32) -> String {
        format!("Review note {id}.")
    }
}

mod prompt_on_method {
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
}

fn main() {}
