//! The code of the issue that specified tool search, verbatim in shape: `todo!()` bodies
//! included, and the server built as one expression.
use mcp_toolkit::{Server, ToolError, discovery::ToolSearch, tool, tools};

/// Refunds a charge, in full or in part.
#[tool(group = "billing", search_hint = "refund money back return payment chargeback")]
async fn refund_charge(charge_id: String, amount_cents: Option<u64>) -> Result<String, ToolError> {
    todo!()
}

/// Lists the account's open invoices.
#[tool(always_load, max_result_chars = 200_000)]
async fn list_invoices() -> Result<String, ToolError> {
    todo!()
}

fn main() {
    let _server: Server = Server::new("shop", "1.0.0")
        .tools(tools![refund_charge, list_invoices /* , … 200 more */])
        .tool_search(ToolSearch::bm25().max_results(5))
        .toolsets_header("X-MCP-Toolsets");
}
