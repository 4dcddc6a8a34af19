// Mistakes in `result_budget` of `#[tool(...)]` (and on the other attributes).
// One module per mistake; one compile reports them all.

mod budget_zero {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = 0)]
    fn export() -> String {
        String::new()
    }
}

mod budget_negative {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = -50_000)]
    fn export() -> String {
        String::new()
    }
}

mod budget_too_small {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = 512)]
    fn export() -> String {
        String::new()
    }
}

mod budget_as_string {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = "50kb")]
    fn export() -> String {
        String::new()
    }
}

mod budget_as_float {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = 50.5)]
    fn export() -> String {
        String::new()
    }
}

mod budget_with_another_suffix {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = 50_000u32)]
    fn export() -> String {
        String::new()
    }
}

mod budget_as_flag {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget)]
    fn export() -> String {
        String::new()
    }
}

mod duplicate_budget {
    use mcp_toolkit::tool;

    /// Exports every note.
    #[tool(result_budget = 50_000, name = "export", result_budget = 20_000)]
    fn export() -> String {
        String::new()
    }
}

mod budget_on_a_prompt {
    use mcp_toolkit::prompt;

    /// Reviews the code.
    #[prompt(result_budget = 50_000)]
    fn review(code: String) -> String {
        code
    }
}

mod budget_on_a_resource {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "file:///README.md", result_budget = 50_000)]
    fn readme() -> String {
        String::new()
    }
}

fn main() {}
