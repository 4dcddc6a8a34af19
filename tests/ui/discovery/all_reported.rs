use mcp_toolkit::tool;

/// Refunds a charge, in full or in part.
#[tool(
    group = "billing team",
    search_hint = " ",
    always_load,
    max_result_chars = 0,
    always_load = true,
    max_result_chars = 600_000,
    meta("anthropic/alwaysLoad" = false)
)]
fn refund_charge(charge_id: String, amount_cents: Option<u64>) -> String {
    format!("{charge_id} {amount_cents:?}")
}

fn main() {}
