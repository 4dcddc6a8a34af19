//! The calculator on mcp-tools, served over Streamable HTTP by a multi-thread runtime with
//! a given number of worker threads, for the `workers` measure of `compare.sh` (how the
//! HTTP endpoint scales from one worker to two).
//!
//! ```text
//! ours-mt --workers 2 --http 127.0.0.1:8080
//! ```

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

fn main() -> std::process::ExitCode {
    let mut workers = 1;
    let mut addr = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--workers" => workers = args.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "--http" => addr = args.next(),
            _ => addr = None,
        }
    }
    let (Some(addr), 1..) = (addr, workers) else {
        eprintln!("usage: ours-mt --workers N --http ADDR");
        return std::process::ExitCode::from(2);
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("a runtime");
    let server = Server::new("calculator", "1.0.0").tools(tools![calculator]);
    match runtime.block_on(server.serve_http(addr.as_str())) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ours-mt: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
