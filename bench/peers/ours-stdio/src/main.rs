//! The calculator on mcp-tools with `default-features = false`: stdio only, no HTTP stack.
//! `compare.sh --build-times` times its clean release build, what a user of a stdio-only
//! server pays.

// The shared tool code also has what only the text analyzer uses.
#[allow(dead_code)]
#[path = "../../tools.rs"]
mod tools;

use mcp_tools::{Server, ToolError, tool, tools};

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
    let operation = match operation {
        Operation::Add => tools::Operation::Add,
        Operation::Subtract => tools::Operation::Subtract,
        Operation::Multiply => tools::Operation::Multiply,
        Operation::Divide => tools::Operation::Divide,
    };
    tools::calculate(operation, a, b).map_err(ToolError::new)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    match Server::new("calculator", "1.0.0")
        .tools(tools![calculator])
        .serve_stdio()
        .await
    {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ours-stdio: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
