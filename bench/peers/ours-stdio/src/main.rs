//! The calculator on mcp-toolkit with `default-features = false`: stdio only, no HTTP stack.
//! `compare.sh --build-times` times its clean release build, what a user of a stdio-only
//! server pays; `compare.sh`'s `many` measure serves it with `--extra-tools 999`, the
//! calculator among 1,000 tools. With `--noop-middleware N` it serves through N middleware
//! that do nothing, with `--request-middleware N` through N that implement only `on_request`
//! (reading the method), and with `--end-middleware N` through N that implement only
//! `on_end` (counting exchanges, as an audit would): for `instructions.sh` to count what
//! each costs a call.
//!
//! ```text
//! ours-stdio [--extra-tools N] [--noop-middleware N] [--request-middleware N] [--end-middleware N]
//! ```

#[path = "../../ours_calculator.rs"]
mod ours_calculator;

use mcp_toolkit::middleware::{Exchange, Flow, Middleware, Outcome, Request};
use mcp_toolkit::{Server, Tool, tools};
use std::sync::atomic::{AtomicUsize, Ordering};
use ours_calculator::calculator;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let (mut extra, mut noop, mut requests, mut ends) = (0, 0, 0, 0);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let count = args.next().and_then(|n| n.parse::<usize>().ok());
        match (flag.as_str(), count) {
            ("--extra-tools", Some(n)) => extra = n,
            ("--noop-middleware", Some(n)) => noop = n,
            ("--request-middleware", Some(n)) => requests = n,
            ("--end-middleware", Some(n)) => ends = n,
            _ => {
                eprintln!(
                    "usage: ours-stdio [--extra-tools N] [--noop-middleware N] [--request-middleware N] [--end-middleware N]"
                );
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
    for _ in 0..requests {
        server = server.middleware(Gate);
    }
    for _ in 0..ends {
        server = server.middleware(Ends(AtomicUsize::new(0)));
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

impl Middleware for Noop {}

/// A middleware that implements only `on_request`: it reads the method and lets it through.
struct Gate;

impl Middleware for Gate {
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        if request.method() == "shutdown/now" {
            return Flow::Reject(mcp_toolkit::protocol::ErrorCode::INVALID_REQUEST, "no".to_owned());
        }
        Flow::Continue
    }
}

/// A middleware that implements only `on_end`: it counts the exchanges.
struct Ends(AtomicUsize);

impl Middleware for Ends {
    fn on_end(&self, _: &Exchange, _: Outcome) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

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
