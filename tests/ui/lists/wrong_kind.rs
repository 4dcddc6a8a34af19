// A definition of the wrong kind in a list.
// One module per mistake; one compile reports them all.

mod not_a_tool_in_tools {
    use mcp_toolkit::tools;

    struct Calculator;

    pub fn main() {
        let _ = tools![Calculator];
    }
}

mod not_a_prompt_in_prompts {
    use mcp_toolkit::{prompts, tool};

    /// Adds two numbers.
    #[tool]
    fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    pub fn main() {
        let _ = prompts![add];
    }
}

mod not_a_resource_in_resources {
    use mcp_toolkit::{prompt, resources};

    /// Summarizes.
    #[prompt]
    fn summarize(text: String) -> String {
        text
    }

    pub fn main() {
        let _ = resources![summarize];
    }
}

mod not_a_tool_method {
    use mcp_toolkit::{tool, tools};
    use std::sync::Arc;

    struct Counter;

    impl Counter {
        /// Counts.
        #[tool]
        fn count(&self) -> u64 {
            1
        }

        fn reset(&self) {}
    }

    pub fn main() {
        let counter = Arc::new(Counter);
        let _ = tools![counter => count, reset];
    }
}

fn main() {}
