//! The command line every server gets with the `cli` feature: [`Server::run`].

mod terminal;

use crate::ToolError;
use crate::engine::Engine;
use crate::prompt::HandlerError;
use crate::protocol::ProtocolVersion;
use crate::resource::Resource;
use crate::server::builder::{Server, compiled_here};
use crate::server::error::{CliError, Error, INSTANCE_VAR, KEYS_VAR, SHUTDOWN_GRACE_VAR, TASK_LEASE_VAR};
use serde_json::{Value, json};
use std::ffi::OsString;
use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use terminal::Terminal;

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
    /// | `resources` | prints the resource and resource-template definitions as JSON: `{"resources": [...], "resourceTemplates": [...]}` |
    /// | `read 'notes://3'` | reads one resource, by its URI or a URI one of its templates matches, and prints what it read (its `ReadResourceResult`: `{"contents": [...]}`) as JSON; exits 1, saying why on standard error, if that failed |
    /// | `--wire-log FILE` | also records every message received and sent to FILE |
    /// | `--help`, `--version` | say so |
    ///
    /// It logs to standard error as `RUST_LOG` says, through
    /// [`log_to_stderr`](crate::log_to_stderr), unless the program installed a `tracing`
    /// subscriber of its own first: warnings, errors (an internal error's detail, which the
    /// client does not see, with its causes) and where an HTTP server listens, by default.
    ///
    /// When it serves (stdio or `--http`), two environment variables configure what a
    /// deployment of several instances needs, without code:
    ///
    /// - `MCP_TOOLKIT_REQUEST_STATE_KEYS`: the keys that seal `requestState` (the state a call
    ///   that asks hands the client between rounds in 2026-07-28), in base64, separated by
    ///   commas, the key that seals first and every key opening
    ///   ([`KeyRing::from_base64_list`](crate::seal::KeyRing::from_base64_list)); `openssl rand
    ///   -base64 32` makes a key. Give every instance behind one load balancer the same
    ///   value, so a round answered by another instance goes on. Read only when the server
    ///   was given no ring in code ([`Server::request_state_keys`]); unset, each process
    ///   makes a random key of its own;
    /// - `MCP_TOOLKIT_INSTANCE`: this instance's name, which starts the legacy session ids it
    ///   issues (`<name>.<32 hex digits>`; see [`HttpSettings::instance_name`](crate::server::HttpSettings::instance_name)) so a load balancer
    ///   can send a session's requests back to it. Read only when no name was given in code;
    ///   unset, ids are the 32 hex digits alone.
    ///
    /// Two more set durations, as `10s` or `500ms`: `MCP_TOOLKIT_TASK_LEASE`
    /// ([`Server::task_lease`]) and `MCP_TOOLKIT_SHUTDOWN_GRACE` ([`Server::shutdown_grace`]).
    ///
    /// A value set but malformed (no key, a key that is not 32 bytes of base64, a name that
    /// breaks the rule) stops the server before it serves, with a usage error (exit status
    /// 2 with [`Error::report`]) that says which, never falling back to a default. An empty
    /// value is malformed too: a secret that did not arrive must not go unnoticed.
    ///
    /// A tool run by `call`, a prompt filled in by `prompt`, or a resource read by `read` may
    /// ask, as it would ask a client:
    ///
    /// - a form ([`Context::elicit`](crate::Context::elicit)) or a URL to visit
    ///   ([`Context::elicit_url`](crate::Context::elicit_url)) is prompted for on the
    ///   terminal, field by field, when standard input and standard error are both
    ///   terminals (prompts go to standard error; standard output carries only the result).
    ///   An empty line takes a field's default, or leaves an optional field out; Ctrl-D
    ///   cancels. Otherwise `elicitation` is not declared, and the ask fails with
    ///   [`AskError::MissingCapability`](crate::ask::AskError::MissingCapability);
    /// - the roots ([`Context::list_roots`](crate::Context::list_roots)) are the current
    ///   directory, as one `file://` root (percent-encoded) named after it;
    /// - sampling ([`Context::sample`](crate::Context::sample)) is never declared: the command
    ///   line has no model to ask.
    ///
    /// A call that fails because the command line lacks a capability says so on standard
    /// error, after the result (a prompt's or a read's, after its error). The time limit of a
    /// call, a prompt or a read includes the time spent answering.
    ///
    /// ```no_run
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: f64, b: f64) -> f64 { a + b }
    ///
    /// #[tokio::main]
    /// async fn main() -> std::process::ExitCode {
    ///     let served = Server::new("adder", env!("CARGO_PKG_VERSION")).tools(tools![add]).run().await;
    ///     // Says what went wrong on stderr; 2 for a wrong command line, 1 for a failed call.
    ///     served.map_or_else(mcp_toolkit::Error::report, |()| std::process::ExitCode::SUCCESS)
    /// }
    /// ```
    pub fn run(self) -> impl Future<Output = Result<(), Error>> + Send {
        compiled_here(self.run_command(std::env::args_os().skip(1).collect()))
    }

    /// [`run`](Server::run) with the arguments given rather than the program's: for a
    /// server with command-line options of its own, which takes those out and hands the
    /// rest here (`--http ADDR`, `tools`, `call NAME ARGS`, ... as `run` reads them; without
    /// the program's name).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use std::ffi::OsString;
    /// use std::path::PathBuf;
    ///
    /// /// Lists the bookmarks.
    /// #[tool]
    /// fn bookmarks() -> String { "no bookmarks yet".into() }
    ///
    /// /// Takes this server's own `--data DIR` out of the command line; the rest is the
    /// /// framework's.
    /// fn split(args: impl IntoIterator<Item = OsString>) -> (PathBuf, Vec<OsString>) {
    ///     let (mut data, mut rest) = (PathBuf::from("bookmarks"), Vec::new());
    ///     let mut args = args.into_iter();
    ///     while let Some(arg) = args.next() {
    ///         match arg.to_str() {
    ///             Some("--data") => data = args.next().map(PathBuf::from).unwrap_or_default(),
    ///             _ => rest.push(arg),
    ///         }
    ///     }
    ///     (data, rest)
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::Error> {
    /// // In `main`: `split(std::env::args_os().skip(1))`.
    /// let (data, rest) = split(["--data", "/srv/bookmarks", "tools"].map(OsString::from));
    /// assert_eq!(data, PathBuf::from("/srv/bookmarks"));
    /// Server::new("bookmarks", "1.0.0").tools(tools![bookmarks]).run_with_args(rest).await // prints the tools
    /// # }
    /// ```
    ///
    /// With clap, the same split is a field that takes what the program's own options
    /// leave: `#[arg(trailing_var_arg = true, allow_hyphen_values = true)] mcp:
    /// Vec<OsString>`, handed to `run_with_args` after the program's options.
    pub fn run_with_args<I>(self, args: I) -> impl Future<Output = Result<(), Error>> + Send
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let args = args.into_iter().map(Into::into).collect();
        compiled_here(self.run_command(args))
    }

    async fn run_command(mut self, args: Vec<OsString>) -> Result<(), Error> {
        crate::server::log::log_to_stderr();
        let (name, version) = (self.info.name.clone(), self.info.version.clone());
        let invocation = parse(args)?;
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
                let tools: Vec<Value> = self
                    .tool_registry()
                    .tools()
                    .iter()
                    .map(|t| t.definition(ProtocolVersion::LATEST))
                    .collect();
                print_json(&Value::Array(tools))
            }
            Command::Call { name, arguments } => {
                let arguments: Value = serde_json::from_str(arguments.as_deref().unwrap_or("{}"))
                    .map_err(|e| CliError::ArgumentsNotJson(Arc::new(e)))?;
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
                let prompts: Vec<Value> = self
                    .prompts
                    .iter()
                    .flat_map(|registry| registry.prompts())
                    .map(|p| p.definition(ProtocolVersion::LATEST))
                    .collect();
                print_json(&Value::Array(prompts))
            }
            Command::Prompt { name, arguments } => {
                let arguments: Value = serde_json::from_str(arguments.as_deref().unwrap_or("{}"))
                    .map_err(|e| CliError::ArgumentsNotJson(Arc::new(e)))?;
                let engine = self.into_engine()?;
                let terminal = Arc::new(Terminal::detect());
                let local = Some(terminal.local_client());
                let Some(filled) = engine.execute_prompt(&name, &arguments, local).await else {
                    let known = engine.local_prompt_names();
                    return Err(CliError::UnknownPrompt { name, known }.into());
                };
                match filled {
                    Ok(result) => print_json(&result),
                    Err(error) => {
                        let error = say_failed(error, &name, &terminal);
                        Err(CliError::PromptFailed { name, error }.into())
                    }
                }
            }
            Command::Resources => {
                let (templates, resources): (Vec<Resource>, Vec<Resource>) = self
                    .resources
                    .iter()
                    .flat_map(|registry| registry.resources())
                    .partition(Resource::is_template);
                let definitions = |resources: &[Resource]| -> Vec<Value> {
                    resources
                        .iter()
                        .map(|r| r.definition(ProtocolVersion::LATEST))
                        .collect()
                };
                print_json(&json!({
                    "resources": definitions(&resources),
                    "resourceTemplates": definitions(&templates),
                }))
            }
            Command::Read { uri } => {
                let engine = self.into_engine()?;
                let terminal = Arc::new(Terminal::detect());
                let Some(read) = engine.execute_read(&uri, Some(terminal.local_client())).await else {
                    let known = resource_uris(&engine);
                    return Err(CliError::UnknownResource { uri, known }.into());
                };
                match read {
                    Ok(contents) => print_json(&json!({ "contents": contents })),
                    Err(error) => {
                        let error = say_failed(error, &uri, &terminal);
                        Err(CliError::ReadFailed { uri, error }.into())
                    }
                }
            }
            Command::Serve { http, task_store } => {
                let mut server = self.configured_by(|name| std::env::var_os(name))?;
                if let Some(url) = task_store {
                    server = server.task_store_arc(url.open().await?);
                }
                match http {
                    Some(addr) => server.serve_http(addr.as_str()).await,
                    None => server.serve_stdio().await,
                }
            }
        }
    }
}

impl Server {
    /// The server with what the environment (`var` reads a variable) configures for
    /// serving: its key ring and its instance name, where the code gave none.
    fn configured_by(mut self, var: impl Fn(&str) -> Option<OsString>) -> Result<Server, CliError> {
        let text = |name: &'static str| -> Result<Option<String>, CliError> {
            var(name)
                .map(|value| value.into_string().map_err(|_| CliError::VariableNotUtf8(name)))
                .transpose()
        };
        match (text(KEYS_VAR)?, &self.options.request_state_keys) {
            (Some(_), Some(_)) => {
                tracing::warn!("`{KEYS_VAR}` is ignored: the server was given its keys in code");
            }
            (Some(keys), None) => {
                let ring = crate::seal::KeyRing::from_base64_list(&keys).map_err(CliError::InvalidKeyRing)?;
                self = self.request_state_keys(ring);
            }
            (None, _) => {}
        }
        if let Some(lease) = text(TASK_LEASE_VAR)? {
            let parsed = humantime::parse_duration(lease.trim())
                .map_err(|_| CliError::InvalidTaskLease(lease.clone()))?;
            self = self.task_lease(parsed);
        }
        if let Some(grace) = text(SHUTDOWN_GRACE_VAR)? {
            let parsed = humantime::parse_duration(grace.trim())
                .map_err(|_| CliError::InvalidShutdownGrace(grace.clone()))?;
            self = self.shutdown_grace(parsed);
        }
        match (text(INSTANCE_VAR)?, &self.http.settings.instance) {
            (Some(_), Some(_)) => {
                tracing::warn!("`{INSTANCE_VAR}` is ignored: the server was given its name in code");
            }
            (Some(name), None) => {
                if !crate::server::http::is_instance_name(&name) {
                    return Err(CliError::InvalidInstanceName(name));
                }
                self.http.settings.instance = Some(name);
            }
            (None, _) => {}
        }
        Ok(self)
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve {
        http: Option<String>,
        task_store: Option<crate::task::StoreUrl>,
    },
    Tools,
    Call {
        name: String,
        arguments: Option<String>,
    },
    Prompts,
    Prompt {
        name: String,
        arguments: Option<String>,
    },
    Resources,
    Read {
        uri: String,
    },
    Help,
    Version,
}

#[derive(Debug, PartialEq)]
struct Invocation {
    command: Command,
    wire_log: Option<PathBuf>,
}

/// Reads the arguments (without the program's name).
fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Invocation, CliError> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut http = None;
    let mut task_store = None;
    let mut wire_log = None;
    let mut words: Vec<String> = Vec::new();
    let unexpected = |arg: &str| CliError::UnexpectedArgument(arg.to_owned());
    while let Some(arg) = parser.next().map_err(unexpected_value)? {
        match arg {
            Long("http") => {
                let value = parser.value().map_err(|_| CliError::MissingOperand("--http"))?;
                http = Some(text(value)?);
            }
            Long("task-store") => {
                let value = parser
                    .value()
                    .map_err(|_| CliError::MissingOperand("--task-store"))?;
                task_store = Some(
                    text(value)?
                        .parse()
                        .map_err(|e| CliError::InvalidTaskStore(Arc::new(e)))?,
                );
            }
            Long("wire-log") => {
                let value = parser
                    .value()
                    .map_err(|_| CliError::MissingOperand("--wire-log"))?;
                wire_log = Some(PathBuf::from(value));
            }
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
        None => Command::Serve { http, task_store },
        Some((word, _)) if http.is_some() => return Err(CliError::CommandWithHttp(word.clone())),
        Some((word, [])) if word == "help" => Command::Help,
        Some((word, [])) if word == "tools" => Command::Tools,
        Some((word, [])) if word == "prompts" => Command::Prompts,
        Some((word, [])) if word == "resources" => Command::Resources,
        Some((word, rest)) if word == "call" => match rest {
            [name] => Command::Call {
                name: name.clone(),
                arguments: None,
            },
            [name, arguments] => Command::Call {
                name: name.clone(),
                arguments: Some(arguments.clone()),
            },
            [] => return Err(CliError::MissingOperand("call")),
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
            [] => return Err(CliError::MissingOperand("prompt")),
            [_, _, extra, ..] => return Err(unexpected(extra)),
        },
        Some((word, rest)) if word == "read" => match rest {
            [uri] => Command::Read { uri: uri.clone() },
            [] => return Err(CliError::MissingOperand("read")),
            [_, extra, ..] => return Err(unexpected(extra)),
        },
        Some((word, rest)) if ["tools", "prompts", "resources", "help"].contains(&word.as_str()) => {
            return Err(unexpected(&rest[0]));
        }
        Some((word, _)) => return Err(unexpected(word)),
    };
    Ok(Invocation { command, wire_log })
}

/// The error of an option given a value it does not take (`--flag=value`): the argument.
fn unexpected_value(error: lexopt::Error) -> CliError {
    CliError::UnexpectedArgument(match error {
        lexopt::Error::UnexpectedValue { option, value } => {
            format!("{option}={}", value.to_string_lossy())
        }
        other => other.to_string(),
    })
}

/// An argument as text.
fn text(value: OsString) -> Result<String, CliError> {
    value.into_string().map_err(CliError::ArgumentNotUtf8)
}

/// What `--help` says of `--task-store`'s URLs: the stores of `kinds` that are built, each
/// with what it is, wrapped to the help's width under the option's first line.
fn task_stores(kinds: &[crate::task::StoreKind]) -> String {
    let listed: Vec<String> = kinds
        .iter()
        .filter(|kind| kind.built)
        .map(|kind| format!("{} ({})", kind.url, kind.what))
        .collect();
    let mut text = String::new();
    let mut column = HELP_INDENT + "Keep tasks there: ".len();
    for word in listed.join(", ").split(' ') {
        if column + 1 + word.len() > HELP_WIDTH {
            text.push('\n');
            text.push_str(&" ".repeat(HELP_INDENT));
            column = HELP_INDENT;
        } else if !text.is_empty() {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += word.len();
    }
    text
}

/// Where the options' descriptions start in `--help`, and how wide its lines are at most.
const HELP_INDENT: usize = 25;
const HELP_WIDTH: usize = 92;

/// What `--help` prints.
fn help(name: &str) -> String {
    let stores = task_stores(&crate::task::STORE_KINDS);
    format!(
        "An MCP server. With no arguments it serves MCP on stdin and stdout, as clients launch it.

Usage: {name} [OPTIONS]
       {name} tools
       {name} call <NAME> [ARGUMENTS]
       {name} prompts
       {name} prompt <NAME> [ARGUMENTS]
       {name} resources
       {name} read <URI>

Commands:
  tools      Print the tool definitions as JSON
  call       Run one tool and print its result as JSON (exit status 1 if the tool failed);
             ARGUMENTS is a JSON object such as '{{\"a\": 1}}' (default {{}}). A form the tool
             asks for is prompted for on the terminal; its roots are the current directory
  prompts    Print the prompt definitions as JSON
  prompt     Fill in one prompt and print the result as JSON (exit status 1 if that failed,
             with the error on stderr); ARGUMENTS is a JSON object of strings such as
             '{{\"id\": \"3\"}}' (default {{}}). It asks as a tool run by `call` does
  resources  Print the resource and resource-template definitions as JSON
  read       Read one resource and print its contents as JSON (exit status 1 if that failed,
             with the error on stderr); URI is a resource's, or one a template matches,
             such as 'notes://3'. It asks as a tool run by `call` does

Options:
      --http <ADDR>      Serve Streamable HTTP on this address instead, such as 127.0.0.1:8080
      --task-store <URL> Keep tasks there: {stores}
      --wire-log <FILE>  Append every message received and sent to FILE, one JSON line each
  -h, --help             Print help
  -V, --version          Print version

Environment (read when serving):
  MCP_TOOLKIT_REQUEST_STATE_KEYS  Base64 keys of 32 bytes, separated by commas, that seal
                                  the state of calls that ask (the first seals, every one
                                  opens); instances behind one load balancer share them
  MCP_TOOLKIT_INSTANCE            This instance's name (1 to 63 of A-Z a-z 0-9 - _), put
                                  before the session ids it issues (NAME.HEX) for session
                                  stickiness, and before its task ids when its task store
                                  is not shared
  MCP_TOOLKIT_TASK_LEASE          How long a running task's lease lasts (default 30s): a
                                  task whose instance died is failed once it runs out
  MCP_TOOLKIT_SHUTDOWN_GRACE      How long the running tasks may finish when the server
                                  is asked to stop (default 10s); then they are failed
"
    )
}

/// Says on standard error why a prompt or a read (of `name`) failed, and, when the command
/// line lacked a capability, which: the error, for the [`CliError`] that `report` then does
/// not repeat (it exits 1, as for a failed call).
fn say_failed(error: HandlerError, name: &str, terminal: &Terminal) -> ToolError {
    let error = match error {
        HandlerError::Arguments(problems) => ToolError::new(problems),
        HandlerError::Failed(error) => error,
    };
    eprintln!("error: {}", error.message());
    if let Some(capability) = error.missing_capability() {
        eprintln!("{}", terminal.missing_note(name, capability));
    }
    error
}

/// The URIs (and URI templates) of the server's resources.
fn resource_uris(engine: &Engine) -> Vec<String> {
    engine
        .resources
        .iter()
        .flat_map(|registry| registry.resources())
        .map(|resource| resource.uri().to_owned())
        .collect()
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
    use crate::__private::ResourceBuilder;
    use crate::content::ResourceContents;
    use crate::context::Context;
    use crate::prompt::Work;
    use crate::protocol::arguments::RawArguments;
    use crate::resource::ReadOutput;
    use crate::server::HttpSettings;

    fn parsed(args: &[&str]) -> Result<Invocation, CliError> {
        parse(args.iter().map(OsString::from))
    }

    fn command(args: &[&str]) -> Command {
        parsed(args).unwrap().command
    }

    #[test]
    fn help_offers_only_the_task_stores_this_build_opens() {
        let text = help("notes");
        let stores = task_stores(&crate::task::STORE_KINDS);
        assert!(
            text.contains(&format!("--task-store <URL> Keep tasks there: {stores}\n")),
            "{text}"
        );
        assert!(text.contains("memory: (the default)"), "{text}");
        assert_eq!(text.contains("sqlite:PATH"), cfg!(feature = "sqlite"), "{text}");
        assert_eq!(text.contains("redis://"), cfg!(feature = "redis"), "{text}");
        for (sqlite, redis) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut kinds = crate::task::STORE_KINDS;
            kinds[1].built = sqlite;
            kinds[2].built = redis;
            let said = task_stores(&kinds);
            assert!(said.starts_with("memory: (the default)"), "{said}");
            assert_eq!(said.contains("sqlite:PATH (a file that"), sqlite, "{said}");
            assert_eq!(said.contains("redis://HOST:PORT (shared"), redis, "{said}");
            // Each line fits the help's width, the later ones aligned under the first.
            let option = format!("      --task-store <URL> Keep tasks there: {said}");
            for (i, line) in option.lines().enumerate() {
                assert!(line.len() <= HELP_WIDTH, "{line:?}");
                if i > 0 {
                    assert!(line.starts_with(&" ".repeat(HELP_INDENT)), "{line:?}");
                    assert!(!line[HELP_INDENT..].starts_with(' '), "{line:?}");
                }
            }
        }
        // With every store built, the lines of the help before stores were listed by build.
        let all = crate::task::STORE_KINDS.map(|kind| crate::task::StoreKind { built: true, ..kind });
        assert_eq!(
            task_stores(&all),
            "memory: (the default), sqlite:PATH (a file that\n                         outlives the process), redis://HOST:PORT (shared by instances)"
        );
    }

    #[test]
    fn commands_and_options() {
        assert_eq!(
            command(&[]),
            Command::Serve {
                http: None,
                task_store: None
            }
        );
        let http = Command::Serve {
            http: Some("127.0.0.1:8080".into()),
            task_store: None,
        };
        assert_eq!(command(&["--http", "127.0.0.1:8080"]), http);
        assert_eq!(command(&["--http=127.0.0.1:8080"]), http);
        assert_eq!(
            command(&["--task-store", "memory:", "--http", "127.0.0.1:8080"]),
            Command::Serve {
                http: Some("127.0.0.1:8080".into()),
                task_store: Some(crate::task::StoreUrl::Memory),
            }
        );
        let wrong = parsed(&["--task-store", "postgres://db"]).unwrap_err();
        assert_eq!(
            wrong.to_string(),
            format!(
                "`--task-store`: unknown task store `postgres://db`: expected {}",
                crate::task::store_urls(&crate::task::STORE_KINDS)
            )
        );
        assert_eq!(wrong.exit_code(), 2);
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
        assert_eq!(command(&["resources"]), Command::Resources);
        assert_eq!(
            command(&["read", "notes://3"]),
            Command::Read {
                uri: "notes://3".into()
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
        let error = |args: &[&str]| parsed(args).unwrap_err().to_string();
        assert!(matches!(parsed(&["--bogus"]), Err(CliError::UnexpectedArgument(arg)) if arg == "--bogus"));
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
        assert!(error(&["resources", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert!(error(&["read", "notes://1", "extra"]).starts_with("unexpected argument 'extra' found"));
        assert_eq!(error(&["read"]), "`read` needs the resource's URI: read <URI>");
        assert_eq!(
            error(&["--http", "127.0.0.1:1", "read", "notes://1"]),
            "`--http` serves, so it cannot come with `read`"
        );
        assert_eq!(
            error(&["call"]),
            "`call` needs the tool's name: call <NAME> [ARGUMENTS]"
        );
        assert_eq!(
            error(&["--http", "127.0.0.1:1", "tools"]),
            "`--http` serves, so it cannot come with `tools`"
        );
        assert_eq!(
            error(&["--http"]),
            "`--http` needs the address to serve on: --http <ADDR>"
        );
        assert_eq!(
            error(&["tools", "--wire-log"]),
            "`--wire-log` needs the file to append to: --wire-log <FILE>"
        );
        assert!(matches!(
            parsed(&["--http"]),
            Err(CliError::MissingOperand("--http"))
        ));
        assert!(matches!(parsed(&["read"]), Err(CliError::MissingOperand("read"))));
        assert!(matches!(
            parsed(&["--http", "127.0.0.1:1", "tools"]),
            Err(CliError::CommandWithHttp(command)) if command == "tools"
        ));
    }

    /// The server `configured_by` makes from these variables, or the usage error.
    fn configured(vars: &[(&str, &str)]) -> Result<Server, String> {
        let vars: Vec<(String, OsString)> = vars.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        let var = |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        Server::new("s", "1.0.0")
            .configured_by(var)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_environment_gives_a_key_ring_and_an_instance_name() {
        use base64::Engine as _;
        let key = |byte: u8| base64::engine::general_purpose::STANDARD.encode([byte; 32]);
        let plain = configured(&[]).unwrap();
        assert!(plain.options.request_state_keys.is_none() && plain.http.settings.instance.is_none());

        let keys = format!("{}, {}", key(1), key(2));
        let server = configured(&[(KEYS_VAR, &keys), (INSTANCE_VAR, "mcp-1")]).unwrap();
        assert_eq!(
            server.options.request_state_keys.as_ref().map(|r| r.len()),
            Some(2)
        );
        assert_eq!(server.http.settings.instance.as_deref(), Some("mcp-1"));
        let leased = configured(&[(TASK_LEASE_VAR, "2s")]).unwrap();
        assert_eq!(leased.options.tasks.lease, std::time::Duration::from_secs(2));
        let wrong = configured(&[(TASK_LEASE_VAR, "soon")]).expect_err("refused");
        assert_eq!(
            wrong.to_string(),
            "`MCP_TOOLKIT_TASK_LEASE` is not a duration: `soon`; expected a number with a unit, such as `10s` or `500ms`"
        );
        let graced = configured(&[(SHUTDOWN_GRACE_VAR, "1500ms")]).unwrap();
        assert_eq!(
            graced.options.shutdown_grace,
            std::time::Duration::from_millis(1500)
        );
        assert_eq!(plain.options.shutdown_grace, std::time::Duration::from_secs(10));
        let wrong = configured(&[(SHUTDOWN_GRACE_VAR, "later")]).expect_err("refused");
        assert_eq!(
            wrong.to_string(),
            "`MCP_TOOLKIT_SHUTDOWN_GRACE` is not a duration: `later`; expected a number with a unit, such as `10s` or `500ms`"
        );

        // What the code gave wins.
        let given = crate::seal::KeyRing::new(crate::seal::SealKey::from_bytes([9; 32]));
        let var = |name: &str| (name == KEYS_VAR).then(|| OsString::from("not a key"));
        let coded = Server::new("s", "1.0.0")
            .request_state_keys(given)
            .http(HttpSettings::default().instance_name("a"));
        let coded = coded.configured_by(var).unwrap();
        assert_eq!(coded.options.request_state_keys.map(|r| r.len()), Some(1));
        assert_eq!(coded.http.settings.instance.as_deref(), Some("a"));
    }

    #[test]
    fn a_malformed_variable_stops_the_server_and_says_why() {
        let key = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=";
        let error = |vars: &[(&str, &str)]| configured(vars).expect_err("refused");
        let expected = "expected base64 keys of 32 bytes separated by commas, the key that seals \
                        first (`openssl rand -base64 32` makes one)";
        assert_eq!(
            error(&[(KEYS_VAR, "")]),
            format!(
                "`MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring: a key ring needs at least one \
                 key; the list is empty; {expected}"
            )
        );
        assert_eq!(
            error(&[(KEYS_VAR, &format!("{key},c2hvcnQ="))]),
            format!(
                "`MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring: key 2 of the list: a seal key \
                 is 32 bytes; this one is 5; {expected}"
            )
        );
        assert!(error(&[(KEYS_VAR, "%%%")]).starts_with(
            "`MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring: key 1 of the list: a seal key must be base64"
        ));
        assert_eq!(
            error(&[(INSTANCE_VAR, "pod.1")]),
            "`MCP_TOOLKIT_INSTANCE`: the instance name `pod.1` cannot start session ids; a name is \
             1 to 63 of `A-Z`, `a-z`, `0-9`, `-` and `_`"
        );
        assert!(error(&[(INSTANCE_VAR, "")]).starts_with("`MCP_TOOLKIT_INSTANCE`: the instance name ``"));
        let usage = Server::new("s", "1.0.0")
            .configured_by(|name| (name == INSTANCE_VAR).then(|| OsString::from("a b")))
            .err()
            .unwrap();
        assert!(matches!(&usage, CliError::InvalidInstanceName(name) if name == "a b"));
        assert_eq!(usage.exit_code(), 2);
        let no_keys = Server::new("s", "1.0.0")
            .configured_by(|name| (name == KEYS_VAR).then(OsString::new))
            .err()
            .unwrap();
        assert!(matches!(
            no_keys,
            CliError::InvalidKeyRing(crate::seal::SealKeyError::NoKeys)
        ));
        assert!(std::error::Error::source(&no_keys).is_some());
    }

    #[cfg(unix)]
    #[test]
    fn a_variable_that_is_not_utf8_is_refused() {
        use std::os::unix::ffi::OsStringExt;
        let bytes = OsString::from_vec(vec![0xff, 0xfe]);
        let refused = Server::new("s", "1.0.0")
            .configured_by(|name| (name == KEYS_VAR).then(|| bytes.clone()))
            .err()
            .unwrap();
        assert_eq!(
            refused.to_string(),
            "`MCP_TOOLKIT_REQUEST_STATE_KEYS` is not valid UTF-8"
        );
        assert!(matches!(refused, CliError::VariableNotUtf8(KEYS_VAR)));
    }

    /// A resource that reads how many roots the client gave: the command line gives one.
    fn root_count(cx: &Context, _: RawArguments<'_>) -> Work<ReadOutput> {
        let cx = cx.clone();
        Work::future(async move {
            let roots = cx
                .list_roots()
                .await
                .map_err(|e| HandlerError::Failed(e.into()))?;
            Ok(ReadOutput::Text(format!("{} root", roots.len())))
        })
    }

    fn on_fire(_: &Context, _: RawArguments<'_>) -> Work<ReadOutput> {
        Work::now(|| {
            Err(HandlerError::Failed(crate::ToolError::internal(
                "the disk is on fire",
            )))
        })
    }

    fn named(name: &'static str) -> fn(&Context, RawArguments<'_>) -> Work<ReadOutput> {
        match name {
            "all" => |_, _| Work::now(|| Ok(ReadOutput::Text("every item".into()))),
            _ => |_, _| Work::now(|| Ok(ReadOutput::Blob(vec![1, 2, 3]))),
        }
    }

    async fn read(server: Server, uri: &str) -> Option<Result<Vec<ResourceContents>, HandlerError>> {
        let engine = server.into_engine().unwrap();
        let terminal = Arc::new(Terminal::detect());
        engine.execute_read(uri, Some(terminal.local_client())).await
    }

    fn items() -> Server {
        Server::new("items", "1.0.0").resources([
            // The template first: a fixed URI still wins over it.
            ResourceBuilder::new("items://{id}", "item", None).build(named("one")),
            ResourceBuilder::new("items://all", "all", None)
                .mime_type("text/markdown")
                .build(named("all")),
            ResourceBuilder::new("roots://count", "roots", None).build(root_count),
            ResourceBuilder::new("fire://now", "fire", None).build(on_fire),
        ])
    }

    #[tokio::test]
    async fn read_finds_a_fixed_uri_before_a_template() {
        let text = ResourceContents::Text {
            uri: "items://all".into(),
            mime_type: Some("text/markdown".into()),
            text: "every item".into(),
        };
        assert_eq!(read(items(), "items://all").await.unwrap().unwrap(), [text]);
        let blob = ResourceContents::Blob {
            uri: "items://7".into(),
            mime_type: Some("application/octet-stream".into()),
            blob: "AQID".into(),
        };
        assert_eq!(read(items(), "items://7").await.unwrap().unwrap(), [blob]);
        assert!(read(items(), "other://7").await.is_none());
        assert!(read(Server::new("none", "1.0.0"), "items://7").await.is_none());
    }

    #[tokio::test]
    async fn read_answers_asks_and_masks_internal_errors() {
        let roots = read(items(), "roots://count").await.unwrap().unwrap();
        assert!(matches!(&roots[..], [ResourceContents::Text { text, .. }] if text == "1 root"));
        let Some(Err(HandlerError::Failed(error))) = read(items(), "fire://now").await else {
            panic!("the read did not fail");
        };
        assert_eq!(error.message(), "internal error");
        let exposed = items().expose_internal_errors(true);
        let Some(Err(HandlerError::Failed(error))) = read(exposed, "fire://now").await else {
            panic!("the read did not fail");
        };
        assert_eq!(error.message(), "internal error: the disk is on fire");
    }

    #[test]
    fn an_unknown_uri_is_named_with_the_resources_there_are() {
        let unknown = |engine: &Engine| CliError::UnknownResource {
            uri: "other://7".into(),
            known: resource_uris(engine),
        };
        let engine = items().into_engine().unwrap();
        assert_eq!(
            unknown(&engine).to_string(),
            "no resource has the URI `other://7`, and no template matches it; the resources are \
             `items://{id}`, `items://all`, `roots://count`, `fire://now`"
        );
        let none = Server::new("none", "1.0.0").into_engine().unwrap();
        assert_eq!(
            unknown(&none).to_string(),
            "no resource has the URI `other://7`; this server has no resources"
        );
    }
}
