//! The calculator tool on mcp-toolkit, written as in `examples/calculator.rs` over the shared
//! tool code (`tools.rs`); included with `#[path]` by `ours-mt` and `ours-stdio`.

use mcp_toolkit::{ToolError, tool};

// The shared tool code also has what only the text analyzer uses.
#[allow(dead_code)]
#[path = "tools.rs"]
mod tools;

/// The four operations.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool(annotations(read_only, idempotent, open_world = false))]
pub async fn calculator(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    let operation = match operation {
        Operation::Add => tools::Operation::Add,
        Operation::Subtract => tools::Operation::Subtract,
        Operation::Multiply => tools::Operation::Multiply,
        Operation::Divide => tools::Operation::Divide,
    };
    tools::calculate(operation, a, b).map_err(ToolError::new)
}
