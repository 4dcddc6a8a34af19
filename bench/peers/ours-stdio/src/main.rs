//! The calculator on mcp-toolkit with `default-features = false`: stdio only, no HTTP stack.
//! `compare.sh --build-times` times its clean release build, what a user of a stdio-only
//! server pays; `compare.sh`'s `many` measure serves it with `--extra-tools 999`, the
//! calculator among 1,000 tools. With `--noop-middleware N` it serves through N middleware
//! that do nothing, for `instructions.sh` to count what one costs a call.
//!
//! ```text
//! ours-stdio [--extra-tools N] [--noop-middleware N]
//! ```

#[path = "../../ours_calculator.rs"]
mod ours_calculator;

use mcp_toolkit::{Server, Tool, tools};
use ours_calculator::calculator;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let (mut extra, mut noop) = (0, 0);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let count = args.next().and_then(|n| n.parse::<usize>().ok());
        match (flag.as_str(), count) {
            ("--extra-tools", Some(n)) => extra = n,
            ("--noop-middleware", Some(n)) => noop = n,
            _ => {
                eprintln!("usage: ours-stdio [--extra-tools N] [--noop-middleware N]");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let mut server = Server::new("calculator", "1.0.0")
        .tools(tools![calculator])
        .tools((0..extra).map(extra_tool));
    for _ in 0..noop {
        server = server.middleware(Noop);
    }
    match server.serve_stdio().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ours-stdio: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// A middleware that keeps every hook's default: it does nothing.
struct Noop;

impl mcp_toolkit::middleware::Middleware for Noop {}

/// Tool `i` of the extra ones: a definition of the calculator's size (a description, two
/// documented parameters, one of them an enum), built from data.
fn extra_tool(i: usize) -> Tool {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "unit": { "type": "string", "enum": ["metre", "foot", "inch"], "description": "The unit to convert to" },
            "value": { "type": "number", "description": "The length to convert" }
        },
        "required": ["unit", "value"],
        "additionalProperties": false
    });
    Tool::from_json(
        format!("convert_{i}"),
        "Convert a length between units of measure.",
        schema,
        |_, _| async { "0" },
    )
    .expect("a valid definition")
}
