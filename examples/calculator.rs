//! A calculator tool server: the Rust twin of the FastMCP calculator.
//!
//! ```text
//! cargo run --bin calculator
//! ```

mod common;

use mcp_toolkit::{Server, ToolError, tool, tools};

/// The four operations.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool(annotations(read_only, idempotent, open_world = false))]
async fn calculator(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err(ToolError::new(
            "cannot divide by zero: `b` must be a non-zero number",
        )),
        Operation::Divide => Ok(a / b),
    }
}

// One thread for tasks is plenty: stdio serves one client, and its reader answers most
// calls on a thread of its own. It also starts faster and stays smaller than the
// multi-threaded runtime; a server for many HTTP clients would use that one.
#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let served = Server::new("calculator", env!("CARGO_PKG_VERSION"))
        .title("Calculator")
        .instructions("Use `calculator` for arithmetic instead of computing in your head.")
        .tools(tools![calculator])
        .run()
        .await;
    common::exit(served)
}
