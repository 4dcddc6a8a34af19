//! The command line every server gets with the `cli` feature: [`Server::run`].

use crate::context::Context;
use crate::protocol::ProtocolVersion;
use crate::server::{Error, Server};
use clap::{Arg, ArgAction, Command};
use std::io::Write;

impl Server {
    /// Runs the server as its command line says:
    ///
    /// | command | what it does |
    /// |---|---|
    /// | *(none)* | serves MCP on stdin and stdout, as clients launch servers |
    /// | `--http 127.0.0.1:8080` | serves Streamable HTTP on that address until Ctrl-C |
    /// | `tools` | prints the tool definitions as JSON |
    /// | `call NAME '{"a": 1}'` | runs one tool and prints its result as JSON; exits 1 if the tool failed |
    /// | `--wire-log FILE` | also records every message received and sent to FILE |
    /// | `--help`, `--version` | say so |
    ///
    /// ```no_run
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_tools::Error> {
    ///     Server::new("adder", env!("CARGO_PKG_VERSION")).tools(tools![add]).run().await
    /// }
    /// ```
    pub async fn run(self) -> Result<(), Error> {
        match self.run_command().await {
            Err(Error::Cli(message)) => {
                eprintln!("error: {message}");
                std::process::exit(2);
            }
            other => other,
        }
    }

    async fn run_command(self) -> Result<(), Error> {
        let matches = self.command().get_matches();
        if let Some(path) = matches.get_one::<String>("wire-log") {
            crate::wire_log::record_to(std::path::Path::new(path));
        }
        match matches.subcommand() {
            Some(("tools", _)) => {
                let tools: Vec<serde_json::Value> = self
                    .registry()
                    .tools()
                    .iter()
                    .map(|t| t.definition(ProtocolVersion::LATEST))
                    .collect();
                print_json(&serde_json::Value::Array(tools))
            }
            Some(("call", call)) => {
                let name = call
                    .get_one::<String>("name")
                    .map(String::as_str)
                    .unwrap_or_default();
                let arguments = call.get_one::<String>("arguments").map_or("{}", String::as_str);
                let arguments: serde_json::Value = serde_json::from_str(arguments)
                    .map_err(|e| Error::Cli(format!("the arguments are not JSON: {e}")))?;
                let engine = self.into_engine()?;
                let tool = engine.registry.get(name).ok_or_else(|| {
                    let names: Vec<String> = engine
                        .registry
                        .tools()
                        .iter()
                        .map(|t| format!("`{}`", t.name()))
                        .collect();
                    Error::Cli(format!(
                        "no tool is named `{name}`; the tools are {}",
                        names.join(", ")
                    ))
                })?;
                let cx = Context::for_engine(&engine);
                let result = engine.options.finish(&tool, tool.call(&cx, arguments).await);
                print_json(&result)?;
                if result.is_error() {
                    std::process::exit(1);
                }
                Ok(())
            }
            _ => match matches.get_one::<String>("http") {
                Some(addr) => self.serve_http(addr.as_str()).await,
                None => self.serve_stdio().await,
            },
        }
    }

    fn command(&self) -> Command {
        let (name, version) = self.name_and_version();
        Command::new(name.to_owned())
            .version(version.to_owned())
            .about(
                "An MCP server. With no arguments it serves MCP on stdin and stdout, as clients launch it.",
            )
            .arg(
                Arg::new("http")
                    .long("http")
                    .value_name("ADDR")
                    .action(ArgAction::Set)
                    .help("Serve Streamable HTTP on this address instead, such as 127.0.0.1:8080"),
            )
            .arg(
                Arg::new("wire-log")
                    .long("wire-log")
                    .value_name("FILE")
                    .action(ArgAction::Set)
                    .help("Append every message received and sent to FILE, one JSON line each"),
            )
            .subcommand(Command::new("tools").about("Print the tool definitions as JSON"))
            .subcommand(
                Command::new("call")
                    .about("Run one tool and print its result as JSON (exit status 1 if the tool failed)")
                    .arg(Arg::new("name").required(true).help("The tool's name"))
                    .arg(
                        Arg::new("arguments")
                            .help("The arguments, a JSON object such as '{\"a\": 1}' (default {})"),
                    ),
            )
            .args_conflicts_with_subcommands(true)
    }
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(|e| Error::Cli(e.to_string()))?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
