// Mistakes in `group` of `#[tool(...)]`: the group rule, at the string.
// One module per mistake; one compile reports them all.

mod group_with_a_space {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(group = "billing team")]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod group_with_a_dot {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(group = "billing.eu")]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod group_empty {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(group = "")]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod group_not_a_string {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(group = billing)]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod group_on_a_resource {
    use mcp_toolkit::resource;

    /// The README.
    #[resource(uri = "file:///README.md", group = "docs")]
    fn readme() -> String {
        String::new()
    }
}

fn main() {}
