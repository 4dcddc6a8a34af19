//! The hints for hosts, `#[tool(group, search_hint, always_load, max_result_chars)]`, in
//! the forms they are written: together, beside `result_budget` in either order, with a
//! `usize` suffix, `always_load = false`.
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{ToolError, tool, tools};

/// Refunds a charge, in full or in part.
#[tool(
    group = "billing",
    search_hint = "refund money back return payment chargeback",
    always_load,
    max_result_chars = 2000,
    result_budget = 50_000
)]
async fn refund_charge(charge_id: String, amount_cents: Option<u64>) -> Result<String, ToolError> {
    Ok(format!("{charge_id} {amount_cents:?}"))
}

/// Lists the account's open invoices.
#[tool(result_budget = 4096, max_result_chars = 200_000usize, always_load = false)]
fn list_invoices() -> String {
    String::new()
}

fn main() {
    let tools = tools![refund_charge, list_invoices];
    let refund = &tools[0];
    assert_eq!(refund.group(), Some("billing"));
    assert_eq!(
        refund.search_hint(),
        Some("refund money back return payment chargeback")
    );
    assert!(refund.always_load());
    assert_eq!(refund.max_result_chars(), Some(2000));
    // The smaller of the budget and the characters, whichever came first.
    assert_eq!(refund.result_budget(), Some(2000));
    let listed = refund.definition(ProtocolVersion::V2024_11_05);
    assert_eq!(listed["_meta"]["anthropic/maxResultSizeChars"], 2000);

    let invoices = &tools[1];
    assert!(!invoices.always_load());
    assert_eq!(invoices.group(), None);
    assert_eq!(invoices.max_result_chars(), Some(200_000));
    assert_eq!(invoices.result_budget(), Some(4096));
}
