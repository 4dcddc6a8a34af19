// Mistakes in `max_result_chars` of `#[tool(...)]` (and on the other attributes).
// One module per mistake; one compile reports them all.

mod chars_zero {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(max_result_chars = 0)]
    fn list_invoices() -> String {
        String::new()
    }
}

mod chars_more_than_hosts_accept {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(max_result_chars = 600_000)]
    fn list_invoices() -> String {
        String::new()
    }
}

mod chars_negative {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(max_result_chars = -2000)]
    fn list_invoices() -> String {
        String::new()
    }
}

mod chars_as_string {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(max_result_chars = "200k")]
    fn list_invoices() -> String {
        String::new()
    }
}

mod chars_with_another_suffix {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(max_result_chars = 200_000u32)]
    fn list_invoices() -> String {
        String::new()
    }
}

mod chars_on_a_prompt {
    use mcp_toolkit::prompt;

    /// Reviews the code.
    #[prompt(max_result_chars = 200_000)]
    fn review(code: String) -> String {
        code
    }
}

fn main() {}
