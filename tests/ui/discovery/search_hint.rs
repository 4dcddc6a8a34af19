// Mistakes in `search_hint` of `#[tool(...)]`.
// One module per mistake; one compile reports them all.

mod search_hint_empty {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(search_hint = "")]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod search_hint_blank {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(search_hint = "   ")]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

mod search_hint_also_in_meta {
    use mcp_toolkit::tool;

    /// Refunds a charge.
    #[tool(search_hint = "refund money back", meta("anthropic/searchHint" = "chargeback"))]
    fn refund_charge(charge_id: String) -> String {
        charge_id
    }
}

fn main() {}
