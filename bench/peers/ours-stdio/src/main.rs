//! The calculator on mcp-tools with `default-features = false`: stdio only, no HTTP stack.
//! `compare.sh --build-times` times its clean release build, what a user of a stdio-only
//! server pays.

#[path = "../../ours_calculator.rs"]
mod ours_calculator;

use mcp_tools::{Server, tools};
use ours_calculator::calculator;

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
