//! The command line every server gets with the `cli` feature: [`Server::run`].

use super::builder::Server;
use super::error::{CliError, Error};
use super::terminal::Terminal;
use crate::engine::Engine;
use crate::prompt::PromptError;
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
    /// | `prompts` | prints the prompt definitions as JSON |
    /// | `prompt NAME '{"a": "1"}'` | fills in one prompt and prints it (its `GetPromptResult`) as JSON; exits 1, saying why on standard error, if that failed |
    /// | `--wire-log FILE` | also records every message received and sent to FILE |
    /// | `--help`, `--version` | say so |
    ///
    /// A tool run by `call`, or a prompt filled in by `prompt`, may ask, as it would ask a
    /// client:
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
    /// error, after the result (a prompt's, after its error). The time limit of a call or a
    /// prompt includes the time spent answering.
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
            Command::Prompts => {
                let prompts: Vec<serde_json::Value> = self
                    .prompts
                    .iter()
                    .flat_map(|registry| registry.prompts())
                    .map(|p| p.definition(ProtocolVersion::LATEST))
                    .collect();
                print_json(&serde_json::Value::Array(prompts))
            }
            Command::Prompt { name, arguments } => {
                let arguments: serde_json::Value = serde_json::from_str(arguments.as_deref().unwrap_or("{}"))
                    .map_err(|e| CliError::ArgumentsNotJson(e.to_string()))?;
                let engine = self.into_engine()?;
                let terminal = Arc::new(Terminal::detect());
                let local = Some(terminal.local_client());
                let Some(filled) = engine.execute_prompt(&name, &arguments, local).await else {
                    return Err(CliError::Usage(unknown_prompt(&name, &engine)).into());
                };
                let error = match filled {
                    Ok(result) => return print_json(&result),
                    Err(error) => error,
                };
                let (message, capability) = match &error {
                    PromptError::Arguments(problems) => (problems.as_str(), None),
                    PromptError::Failed(error) => (error.message(), error.missing_capability()),
                };
                eprintln!("error: {message}");
                if let Some(capability) = capability {
                    eprintln!("{}", terminal.missing_note(&name, capability));
                }
                // Said already: `report` adds nothing and exits 1, as for a failed call.
                let message = message.to_owned();
                Err(CliError::PromptFailed { name, message }.into())
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
    Prompts,
    Prompt { name: String, arguments: Option<String> },
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
        Some((word, [])) if word == "prompts" => Command::Prompts,
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
        Some((word, rest)) if word == "prompt" => match rest {
            [name] => Command::Prompt {
                name: name.clone(),
                arguments: None,
            },
            [name, arguments] => Command::Prompt {
                name: name.clone(),
                arguments: Some(arguments.clone()),
            },
            [] => return Err("`prompt` needs the prompt's name: prompt <NAME> [ARGUMENTS]".into()),
            [_, _, extra, ..] => return Err(unexpected(extra)),
        },
        Some((word, rest)) if ["tools", "prompts", "help"].contains(&word.as_str()) => {
            return Err(unexpected(&rest[0]));
        }
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
       {name} prompts
       {name} prompt <NAME> [ARGUMENTS]

Commands:
  tools    Print the tool definitions as JSON
  call     Run one tool and print its result as JSON (exit status 1 if the tool failed);
           ARGUMENTS is a JSON object such as '{{\"a\": 1}}' (default {{}}). A form the tool
           asks for is prompted for on the terminal; its roots are the current directory
  prompts  Print the prompt definitions as JSON
  prompt   Fill in one prompt and print the result as JSON (exit status 1 if that failed,
           with the error on stderr); ARGUMENTS is a JSON object of strings such as
           '{{\"id\": \"3\"}}' (default {{}}). It asks as a tool run by `call` does

Options:
      --http <ADDR>      Serve Streamable HTTP on this address instead, such as 127.0.0.1:8080
      --wire-log <FILE>  Append every message received and sent to FILE, one JSON line each
  -h, --help             Print help
  -V, --version          Print version
"
    )
}

/// What `prompt` says of a name no prompt has.
fn unknown_prompt(name: &str, engine: &Engine) -> String {
    let names: Vec<String> = engine
        .prompts
        .iter()
        .flat_map(|registry| registry.prompts())
        .map(|prompt| format!("`{}`", prompt.name()))
        .collect();
    if names.is_empty() {
        format!("no prompt is named `{name}`; this server has no prompts")
    } else {
        format!(
            "no prompt is named `{name}`; the prompts are {}",
            names.join(", ")
        )
    }
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
        assert_eq!(command(&["prompts"]), Command::Prompts);
        assert_eq!(
            command(&["prompt", "review", r#"{"id": "1"}"#]),
            Command::Prompt {
                name: "review".into(),
                arguments: Some(r#"{"id": "1"}"#.into())
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
        assert!(error(&["prompts", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert!(error(&["prompt", "a", "{}", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert_eq!(
            error(&["prompt"]),
            "`prompt` needs the prompt's name: prompt <NAME> [ARGUMENTS]"
        );
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
