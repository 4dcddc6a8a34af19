//! Why a server could not start or stopped.

use crate::error::DefinitionError;

/// Why a server could not start or stopped. Everything a server checks before serving is
/// checked by every way of serving it, [`Server::test_client`](crate::Server::test_client) included, so a test finds
/// these too.
///
/// ```
/// use mcp_toolkit::{tool, tools, Error, Server, State};
/// use mcp_toolkit::testing::ClientError;
///
/// struct Database;
///
/// /// Counts the rows.
/// #[tool]
/// fn count_rows(db: State<Database>) -> u64 { 0 }
///
/// let error = Server::new("db", "1.0.0").tools(tools![count_rows]).test_client().unwrap_err();
/// assert!(matches!(&error, ClientError::Server(Error::MissingState { needed_by, .. }) if needed_by == "count_rows"));
/// assert!(error.to_string().ends_with("but the server has no such state (it holds none); give it with `Server::state`"));
///
/// assert!(Server::new("db", "1.0.0").tools(tools![count_rows]).state(Database).test_client().is_ok());
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The tools given to the server break a rule.
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    /// The tools given to the server break several rules: every one of them.
    #[error("the tools break {} rules: {}", .0.len(), join(.0))]
    Definitions(Vec<DefinitionError>),
    /// A tool, prompt or resource needs shared state the server was not given.
    #[error(
        "`{needed_by}` needs `State<{state}>`, but the server has no such state ({}); give it with `Server::state`",
        held_states(.held)
    )]
    MissingState {
        /// What needs it: a tool's or a prompt's name, a resource's URI (or URI template).
        needed_by: String,
        /// The state's type.
        state: &'static str,
        /// The types of the state the server holds, in the order given.
        held: Vec<&'static str>,
    },
    /// The name given with `HttpSettings::instance_name` cannot start session ids: it is not
    /// 1 to 63 of `A-Z a-z 0-9 - _`. It holds the name.
    #[cfg(feature = "http")]
    #[error("{}", instance_name_rule(.0))]
    InvalidInstanceName(String),
    /// The name given to `Server::toolsets_header` is not an HTTP header name (a token:
    /// letters, digits and ``!#$%&'*+-.^_`|~``). It holds the name.
    #[cfg(feature = "http")]
    #[error("`{0}` is not an HTTP header name; `Server::toolsets_header` takes one such as `X-MCP-Toolsets`")]
    InvalidToolsetsHeader(String),
    /// The OAuth resource server given with `Server::oauth` cannot be served (feature
    /// `oauth`).
    #[cfg(feature = "oauth")]
    #[error(transparent)]
    OAuth(#[from] crate::oauth::ConfigError),
    /// The task store could not be opened (`--task-store`, or a store's own `open`).
    #[error(transparent)]
    TaskStore(#[from] crate::task::StoreError),
    /// Reading or writing the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// The command line asked for something that cannot be done.
    #[cfg(feature = "cli")]
    #[error(transparent)]
    Cli(#[from] CliError),
}

impl Error {
    /// Says on standard error what went wrong, with every cause (`error: cannot open the
    /// task store sqlite:tasks.db: file is not a database`), and gives the exit status a
    /// command line should end with: 2 for a command line that could not be run, 1 for a
    /// tool call that failed (its result is printed already, so nothing more is said) and
    /// for everything else. For a program's `main` after `Server::run` (feature `cli`).
    ///
    /// ```
    /// use std::process::ExitCode;
    ///
    /// let error = mcp_toolkit::Error::Io(std::io::Error::other("the pipe broke"));
    /// assert_eq!(error.report(), ExitCode::from(1)); // and stderr says `error: transport I/O failed: the pipe broke`
    /// ```
    pub fn report(self) -> std::process::ExitCode {
        #[cfg(feature = "cli")]
        if let Error::Cli(cli) = &self {
            if !matches!(
                cli,
                CliError::ToolFailed(_) | CliError::PromptFailed { .. } | CliError::ReadFailed { .. }
            ) {
                eprintln!("error: {}", with_causes(cli));
            }
            return std::process::ExitCode::from(cli.exit_code());
        }
        eprintln!("error: {}", with_causes(&self));
        std::process::ExitCode::from(1)
    }
}

/// What `error` says, followed by each of its causes that it does not say already,
/// separated by `: `.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut said = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        let text = error.to_string();
        if !said.contains(&text) {
            said.push_str(": ");
            said.push_str(&text);
        }
        cause = error.source();
    }
    said
}

#[cfg(feature = "cli")]
/// Why the command line did not do what it was asked; [`Error::report`] prints it and gives
/// the exit status.
///
/// ```
/// use mcp_toolkit::{server::CliError, Error, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let error = Server::new("notes", "1.0.0").run_with_args(["call"]).await.unwrap_err();
/// assert!(matches!(error, Error::Cli(CliError::MissingOperand("call"))));
/// assert_eq!(error.to_string(), "`call` needs the tool's name: call <NAME> [ARGUMENTS]");
///
/// let error = Server::new("notes", "1.0.0").run_with_args(["prompt", "summary"]).await.unwrap_err();
/// let Error::Cli(CliError::UnknownPrompt { name, known }) = &error else { panic!("{error:?}") };
/// assert_eq!((name.as_str(), known.len()), ("summary", 0));
/// assert_eq!(error.to_string(), "there is no prompt `summary`; this server has no prompts");
/// # }
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// An argument the command line does not take: an unknown option or command, or a word
    /// after the last one its command takes. It holds the argument.
    #[error("unexpected argument '{0}' found\n\nFor more information, try '--help'.")]
    UnexpectedArgument(String),
    /// An argument that is not UTF-8 text. It holds the argument.
    #[error("the argument {0:?} is not valid UTF-8")]
    ArgumentNotUtf8(std::ffi::OsString),
    /// An option or a command without the operand it needs. It holds the option or the
    /// command as typed: `--http` (an address), `--task-store` (a URL), `--wire-log` (a file), `call` and `prompt`
    /// (a name), `read` (a URI).
    #[error("{}", missing_operand(.0))]
    MissingOperand(&'static str),
    /// A command given with `--http`, which serves and so takes none. It holds the command.
    #[error("`--http` serves, so it cannot come with `{0}`")]
    CommandWithHttp(String),
    /// `call` named no tool the server has.
    #[error("no tool is named `{name}`; the tools are {}", quoted(.known))]
    UnknownTool {
        /// The name given.
        name: String,
        /// The names of the tools there are.
        known: Vec<String>,
    },
    /// `prompt` named no prompt the server has.
    #[error("there is no prompt `{name}`; {}", crate::error::name_list("prompts", .known))]
    UnknownPrompt {
        /// The name given.
        name: String,
        /// The names of the prompts there are.
        known: Vec<String>,
    },
    /// `read` named a URI that no resource has and no resource template matches.
    #[error("{}", unknown_resource(.uri, .known))]
    UnknownResource {
        /// The URI given.
        uri: String,
        /// The URIs (and URI templates) of the resources there are.
        known: Vec<String>,
    },
    /// The arguments of `call` or `prompt` are not JSON.
    #[error("the arguments are not JSON: {0}")]
    ArgumentsNotJson(#[source] std::sync::Arc<serde_json::Error>),
    /// A variable of the environment the server reads when it serves is not UTF-8 text. It
    /// holds the variable's name.
    #[error("`{0}` is not valid UTF-8")]
    VariableNotUtf8(&'static str),
    /// `MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring.
    #[error(
        "`{var}` is not a key ring: {0}; expected base64 keys of 32 bytes separated by commas, \
         the key that seals first (`openssl rand -base64 32` makes one)",
        var = KEYS_VAR
    )]
    InvalidKeyRing(#[source] crate::seal::SealKeyError),
    /// `MCP_TOOLKIT_TASK_LEASE` is not a duration. It holds what the variable says.
    #[error("`{var}` is not a duration: `{0}`; expected a number with a unit, such as `10s` or `500ms`", var = TASK_LEASE_VAR)]
    InvalidTaskLease(String),
    /// `MCP_TOOLKIT_SHUTDOWN_GRACE` is not a duration. It holds what the variable says.
    #[error("`{var}` is not a duration: `{0}`; expected a number with a unit, such as `10s` or `500ms`", var = SHUTDOWN_GRACE_VAR)]
    InvalidShutdownGrace(String),
    /// `--task-store` names no store this server can open.
    #[error("`--task-store`: {0}")]
    InvalidTaskStore(#[source] std::sync::Arc<crate::task::StoreError>),
    /// `MCP_TOOLKIT_INSTANCE` cannot start session ids: it is not 1 to 63 of
    /// `A-Z a-z 0-9 - _`. It holds the name.
    #[error("`{var}`: {rule}", var = INSTANCE_VAR, rule = instance_name_rule(.0))]
    InvalidInstanceName(String),
    /// The tool ran and its result is an error result (printed already, as every result is).
    #[error("the tool `{0}` returned an error result")]
    ToolFailed(String),
    /// The prompt could not be filled in (said already on standard error).
    #[error("the prompt `{name}` could not be filled in: {error}")]
    PromptFailed {
        /// The prompt.
        name: String,
        /// Why: its arguments did not fit (a message for the caller), or its fn failed.
        error: crate::ToolError,
    },
    /// The resource could not be read (said already on standard error).
    #[error("the resource `{uri}` could not be read: {error}")]
    ReadFailed {
        /// The URI asked for.
        uri: String,
        /// Why: the template's variables did not fit (a message for the caller), or its fn
        /// failed.
        error: crate::ToolError,
    },
}

#[cfg(feature = "cli")]
impl CliError {
    /// The exit status it calls for: 1 when the tool failed, 2 when the command line was
    /// wrong.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::ToolFailed(_) | CliError::PromptFailed { .. } | CliError::ReadFailed { .. } => 1,
            _ => 2,
        }
    }
}

fn join(problems: &[DefinitionError]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The state a server holds, for [`Error::MissingState`]: "it holds `State<A>` and
/// `State<B>`", or "it holds none".
fn held_states(held: &[&'static str]) -> String {
    let named: Vec<String> = held.iter().map(|name| format!("`State<{name}>`")).collect();
    match named.as_slice() {
        [] => "it holds none".to_owned(),
        [one] => format!("it holds {one}"),
        [init @ .., last] => format!("it holds {} and {last}", init.join(", ")),
    }
}

/// The environment variable with the keys that seal `requestState`.
#[cfg(feature = "cli")]
pub(crate) const KEYS_VAR: &str = "MCP_TOOLKIT_REQUEST_STATE_KEYS";
/// The environment variable with the instance's name.
#[cfg(feature = "cli")]
pub(crate) const INSTANCE_VAR: &str = "MCP_TOOLKIT_INSTANCE";
/// The environment variable with how long a running task's lease lasts.
#[cfg(feature = "cli")]
pub(crate) const TASK_LEASE_VAR: &str = "MCP_TOOLKIT_TASK_LEASE";
/// The environment variable with how long a shutdown waits for running tasks.
#[cfg(feature = "cli")]
pub(crate) const SHUTDOWN_GRACE_VAR: &str = "MCP_TOOLKIT_SHUTDOWN_GRACE";

/// What [`CliError::MissingOperand`] says of the option or command.
#[cfg(feature = "cli")]
fn missing_operand(of: &str) -> String {
    let (what, usage) = match of {
        "--http" => ("the address to serve on", "--http <ADDR>"),
        "--wire-log" => ("the file to append to", "--wire-log <FILE>"),
        "call" => ("the tool's name", "call <NAME> [ARGUMENTS]"),
        "prompt" => ("the prompt's name", "prompt <NAME> [ARGUMENTS]"),
        "read" => ("the resource's URI", "read <URI>"),
        _ => return format!("`{of}` needs a value"),
    };
    format!("`{of}` needs {what}: {usage}")
}

/// What [`CliError::UnknownResource`] says.
#[cfg(feature = "cli")]
fn unknown_resource(uri: &str, known: &[String]) -> String {
    if known.is_empty() {
        format!("no resource has the URI `{uri}`; this server has no resources")
    } else {
        format!(
            "no resource has the URI `{uri}`, and no template matches it; the resources are {}",
            quoted(known)
        )
    }
}

/// What is said of an instance name that cannot start session ids.
#[cfg(feature = "http")]
fn instance_name_rule(name: &str) -> String {
    format!(
        "the instance name `{}` cannot start session ids; a name is 1 to 63 of `A-Z`, `a-z`, `0-9`, `-` and `_`",
        name.escape_debug()
    )
}

/// The names in backticks, comma-separated: `` `a`, `b` ``.
pub(crate) fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_each_cause_once() {
        let store = crate::task::StoreError::Open {
            store: "sqlite:tasks.db".to_owned(),
            source: Box::new(std::io::Error::other("file is not a database")),
        };
        assert_eq!(
            with_causes(&Error::TaskStore(store)),
            "cannot open the task store sqlite:tasks.db: file is not a database"
        );
        // A message that says its cause already does not say it twice.
        let io = Error::Io(std::io::Error::other("the pipe broke"));
        assert_eq!(with_causes(&io), "transport I/O failed: the pipe broke");
    }
}
