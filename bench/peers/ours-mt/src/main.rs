//! The calculator on mcp-toolkit, served over Streamable HTTP by a multi-thread runtime with
//! a given number of worker threads, for the `workers` measure of `compare.sh` (how the
//! HTTP endpoint scales from one worker to two).
//!
//! ```text
//! ours-mt --workers 2 --http 127.0.0.1:8080
//! ```

#[path = "../../ours_calculator.rs"]
mod ours_calculator;

use mcp_toolkit::{Server, tools};
use ours_calculator::calculator;

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
