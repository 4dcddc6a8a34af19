//! `#[tool(result_budget = ...)]` in the forms it is written: alone, with a `usize` suffix,
//! beside other keys.
use mcp_toolkit::{tool, tools};

/// Exports every note.
#[tool(result_budget = 50_000)]
fn export() -> String {
    String::new()
}

/// Exports every note, with the budget's type written out.
#[tool(result_budget = 1024usize, task)]
async fn export_all() -> String {
    String::new()
}

fn main() {
    let tools = tools![export, export_all];
    assert_eq!(tools[0].result_budget(), Some(50_000));
    assert_eq!(tools[1].result_budget(), Some(1024));
}
