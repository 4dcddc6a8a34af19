// Two definitions under one name in `tools![...]`, `prompts![...]` and `resources![...]`.
// One module per mistake; one compile reports them all.

mod duplicate_tool_names {
    use mcp_toolkit::{tool, tools};

    /// Adds two numbers.
    #[tool(name = "add")]
    fn plus(a: i32, b: i32) -> i32 {
        a + b
    }

    /// Also adds two numbers.
    #[tool]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    pub fn main() {
        let _ = tools![plus, add];
    }
}

mod duplicate_prompt_names {
    use mcp_toolkit::{prompt, prompts};

    /// Asks for a summary.
    #[prompt(name = "summary")]
    fn summarize(text: String) -> String {
        format!("Summarize:\n\n{text}")
    }

    /// Also asks for a summary.
    #[prompt]
    fn summary(text: String) -> String {
        format!("Summarize briefly:\n\n{text}")
    }

    pub fn main() {
        let _ = prompts![summarize, summary];
    }
}

mod duplicate_resource_uris {
    use mcp_toolkit::{resource, resources};

    /// The README.
    #[resource(uri = "docs://readme")]
    fn readme() -> String {
        String::new()
    }

    /// The README again.
    #[resource(uri = "docs://readme")]
    fn again() -> String {
        String::new()
    }

    pub fn main() {
        let _ = resources![readme, again];
    }
}

fn main() {}
