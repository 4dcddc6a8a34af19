// Mistakes in `always_load` of `#[tool(...)]`.
// One module per mistake; one compile reports them all.

mod always_load_twice {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(always_load, name = "list_invoices", always_load)]
    fn list_invoices() -> String {
        String::new()
    }
}

mod always_load_not_a_bool {
    use mcp_toolkit::tool;

    /// Lists the account's open invoices.
    #[tool(always_load = "yes")]
    fn list_invoices() -> String {
        String::new()
    }
}

fn main() {}
