//! A small MCP client: lists a server's tools, or calls one. The server is a command to
//! start as a child process (one argument, split at spaces) or the URL of its Streamable
//! HTTP endpoint.
//!
//! ```text
//! cargo run --bin client -- "target/debug/calculator"
//! cargo run --bin client -- "target/debug/calculator" calculator '{"operation": "add", "a": 2, "b": 3}'
//! cargo run --bin client -- http://127.0.0.1:8080/mcp
//! ```
//!
//! It speaks 2026-07-28 to a server that offers it and opens an `initialize` session with
//! one that does not. A question the server asks (an elicitation) is printed on stderr and
//! declined: this client has no one to ask.

use mcp_toolkit::client::{Client, ClientError};
use serde_json::{Value, json};
use std::process::ExitCode;

const USAGE: &str = "usage: client <server command or URL> [tool] [arguments as a JSON object]";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.len() > 3 || args[0] == "--help" {
        eprintln!("{USAGE}");
        return if args.first().is_some_and(|a| a == "--help") {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        };
    }
    let arguments = match args.get(2).map(|text| serde_json::from_str::<Value>(text)) {
        None => json!({}),
        Some(Ok(arguments @ Value::Object(_))) => arguments,
        Some(Ok(other)) => {
            eprintln!("client: the arguments must be a JSON object, not {other}");
            return ExitCode::from(2);
        }
        Some(Err(e)) => {
            eprintln!("client: the arguments are not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args[0], args.get(1).map(String::as_str), arguments).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("client: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(server: &str, tool: Option<&str>, arguments: Value) -> Result<ExitCode, ClientError> {
    let connector = if server.starts_with("http://") || server.starts_with("https://") {
        Client::http(server)
    } else {
        let mut words = server.split_whitespace();
        let mut command = tokio::process::Command::new(words.next().unwrap_or_default());
        command.args(words);
        Client::stdio(command)
    };
    let client = connector
        .on_elicit(|request| async move {
            eprintln!(
                "the server asks: {}",
                request["message"].as_str().unwrap_or("(no message)")
            );
            eprintln!("(declined: this client has no one to ask)");
            json!({"action": "decline"})
        })
        .connect()
        .await?;
    let Some(tool) = tool else {
        println!("{} speaks {}", server, client.protocol_version());
        for listed in client.list_tools().await? {
            println!("{}: {}", listed.name(), listed.description().unwrap_or_default());
        }
        return Ok(ExitCode::SUCCESS);
    };
    let answer = client.call(tool, arguments).await?;
    match (answer.text(), answer.structured_content()) {
        (Some(text), _) => println!("{text}"),
        (None, Some(structured)) => println!("{structured}"),
        (None, None) => println!("{}", answer.response()["result"]),
    }
    client.close().await;
    Ok(if answer.is_error() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
