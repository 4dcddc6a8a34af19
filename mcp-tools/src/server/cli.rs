//! The command line every server gets with the `cli` feature: [`Server::run`].

use super::builder::Server;
use super::error::{CliError, Error};
use super::terminal::Terminal;
use crate::protocol::ProtocolVersion;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

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
    /// A tool run by `call` may ask, as it would ask a client:
    ///
    /// - a form ([`Context::elicit`](crate::Context::elicit)) or a URL to visit
    ///   ([`Context::elicit_url`](crate::Context::elicit_url)) is prompted for on the
    ///   terminal, field by field, when standard input and standard error are both
    ///   terminals (prompts go to standard error; standard output carries only the result).
    ///   An empty line takes a field's default, or leaves an optional field out; Ctrl-D
    ///   cancels. Otherwise `elicitation` is not declared, and the ask fails with
    ///   [`AskError::MissingCapability`](crate::AskError::MissingCapability);
    /// - the roots ([`Context::list_roots`](crate::Context::list_roots)) are the current
    ///   directory, as one `file://` root (percent-encoded) named after it;
    /// - sampling ([`Context::sample`](crate::Context::sample)) is never declared: the command
    ///   line has no model to ask.
    ///
    /// A call that fails because the command line lacks a capability says so on standard
    /// error, after the result. The call's time limit includes the time spent answering.
    ///
    /// ```no_run
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main]
    /// async fn main() -> std::process::ExitCode {
    ///     let served = Server::new("adder", env!("CARGO_PKG_VERSION")).tools(tools![add]).run().await;
    ///     // Says what went wrong on stderr; 2 for a wrong command line, 1 for a failed call.
    ///     served.map_or_else(mcp_tools::Error::report, |()| std::process::ExitCode::SUCCESS)
    /// }
    /// ```
    pub async fn run(self) -> Result<(), Error> {
        let (name, version) = (self.info.name.clone(), self.info.version.clone());
        let invocation = parse(std::env::args_os().skip(1)).map_err(CliError::Usage)?;
        if let Some(path) = &invocation.wire_log {
            crate::wire_log::record_to(path);
        }
        match invocation.command {
            Command::Help => {
                print!("{}", help(&name));
                Ok(())
            }
            Command::Version => {
                println!("{name} {version}");
                Ok(())
            }
            Command::Tools => {
                let tools: Vec<serde_json::Value> = self
                    .registry()
                    .tools()
                    .iter()
                    .map(|t| t.definition(ProtocolVersion::LATEST))
                    .collect();
                print_json(&serde_json::Value::Array(tools))
            }
            Command::Call { name, arguments } => {
                let arguments: serde_json::Value = serde_json::from_str(arguments.as_deref().unwrap_or("{}"))
                    .map_err(|e| CliError::ArgumentsNotJson(e.to_string()))?;
                let engine = self.into_engine()?;
                let terminal = Arc::new(Terminal::detect());
                let local = Some(terminal.local_client());
                let Some(result) = engine.execute(&name, &arguments, local).await else {
                    let known = engine.executable_tools();
                    return Err(CliError::UnknownTool { name, known }.into());
                };
                print_json(&result)?;
                if let Some(capability) = result.missing_capability() {
                    eprintln!("{}", terminal.missing_note(&name, capability));
                }
                if result.is_error() {
                    return Err(CliError::ToolFailed(name).into());
                }
                Ok(())
            }
            Command::Serve { http: Some(addr) } => self.serve_http(addr.as_str()).await,
            Command::Serve { http: None } => self.serve_stdio().await,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve { http: Option<String> },
    Tools,
    Call { name: String, arguments: Option<String> },
    Help,
    Version,
}

#[derive(Debug, PartialEq)]
struct Invocation {
    command: Command,
    wire_log: Option<PathBuf>,
}

/// Reads the arguments (without the program's name). `Err` is the message for stderr.
fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Invocation, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut http = None;
    let mut wire_log = None;
    let mut words: Vec<String> = Vec::new();
    let unexpected =
        |arg: &str| format!("unexpected argument '{arg}' found\n\nFor more information, try '--help'.");
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("http") => http = Some(text(parser.value().map_err(|e| e.to_string())?)?),
            Long("wire-log") => wire_log = Some(PathBuf::from(parser.value().map_err(|e| e.to_string())?)),
            Short('h') | Long("help") => {
                return Ok(Invocation {
                    command: Command::Help,
                    wire_log,
                });
            }
            Short('V') | Long("version") => {
                return Ok(Invocation {
                    command: Command::Version,
                    wire_log,
                });
            }
            Value(value) => words.push(text(value)?),
            Long(option) => return Err(unexpected(&format!("--{option}"))),
            Short(option) => return Err(unexpected(&format!("-{option}"))),
        }
    }
    let command = match words.split_first() {
        None => Command::Serve { http },
        Some((word, rest)) if http.is_some() => {
            let _ = rest;
            return Err(format!("`--http` serves, so it cannot come with `{word}`"));
        }
        Some((word, [])) if word == "help" => Command::Help,
        Some((word, [])) if word == "tools" => Command::Tools,
        Some((word, rest)) if word == "call" => match rest {
            [name] => Command::Call {
                name: name.clone(),
                arguments: None,
            },
            [name, arguments] => Command::Call {
                name: name.clone(),
                arguments: Some(arguments.clone()),
            },
            [] => return Err("`call` needs the tool's name: call <NAME> [ARGUMENTS]".into()),
            [_, _, extra, ..] => return Err(unexpected(extra)),
        },
        Some((word, rest)) if word == "tools" || word == "help" => return Err(unexpected(&rest[0])),
        Some((word, _)) => return Err(unexpected(word)),
    };
    Ok(Invocation { command, wire_log })
}

/// An argument as text, or the message saying it is not.
fn text(value: OsString) -> Result<String, String> {
    value
        .into_string()
        .map_err(|value| format!("the argument {value:?} is not valid UTF-8"))
}

/// What `--help` prints.
fn help(name: &str) -> String {
    format!(
        "An MCP server. With no arguments it serves MCP on stdin and stdout, as clients launch it.

Usage: {name} [OPTIONS]
       {name} tools
       {name} call <NAME> [ARGUMENTS]

Commands:
  tools  Print the tool definitions as JSON
  call   Run one tool and print its result as JSON (exit status 1 if the tool failed);
         ARGUMENTS is a JSON object such as '{{\"a\": 1}}' (default {{}}). A form the tool
         asks for is prompted for on the terminal; its roots are the current directory

Options:
      --http <ADDR>      Serve Streamable HTTP on this address instead, such as 127.0.0.1:8080
      --wire-log <FILE>  Append every message received and sent to FILE, one JSON line each
  -h, --help             Print help
  -V, --version          Print version
"
    )
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Invocation, String> {
        parse(args.iter().map(OsString::from))
    }

    fn command(args: &[&str]) -> Command {
        parsed(args).unwrap().command
    }

    #[test]
    fn commands_and_options() {
        assert_eq!(command(&[]), Command::Serve { http: None });
        let http = Command::Serve {
            http: Some("127.0.0.1:8080".into()),
        };
        assert_eq!(command(&["--http", "127.0.0.1:8080"]), http);
        assert_eq!(command(&["--http=127.0.0.1:8080"]), http);
        assert_eq!(command(&["tools"]), Command::Tools);
        assert_eq!(
            command(&["call", "add"]),
            Command::Call {
                name: "add".into(),
                arguments: None
            }
        );
        assert_eq!(
            command(&["call", "add", "{}"]),
            Command::Call {
                name: "add".into(),
                arguments: Some("{}".into())
            }
        );
        assert_eq!(command(&["help"]), Command::Help);
        assert_eq!(command(&["tools", "-h"]), Command::Help);
        assert_eq!(command(&["-V"]), Command::Version);
        let logged = parsed(&["--wire-log", "/tmp/wire.jsonl", "tools"]).unwrap();
        assert_eq!(logged.wire_log, Some(PathBuf::from("/tmp/wire.jsonl")));
    }

    #[test]
    fn mistakes_are_named() {
        let error = |args: &[&str]| parsed(args).unwrap_err();
        assert!(error(&["--bogus"]).starts_with("unexpected argument '--bogus' found"));
        assert!(error(&["-x"]).starts_with("unexpected argument '-x' found"));
        assert!(error(&["serve"]).starts_with("unexpected argument 'serve' found"));
        assert!(error(&["tools", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert!(error(&["call", "a", "{}", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert_eq!(
            error(&["call"]),
            "`call` needs the tool's name: call <NAME> [ARGUMENTS]"
        );
        assert_eq!(
            error(&["--http", "127.0.0.1:1", "tools"]),
            "`--http` serves, so it cannot come with `tools`"
        );
        assert_eq!(error(&["--http"]), "missing argument for option '--http'");
    }
}
