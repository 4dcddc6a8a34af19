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
/// assert!(matches!(&error, ClientError::Server(Error::MissingState { tool, .. }) if tool == "count_rows"));
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
        "tool `{tool}` needs `State<{state}>`, but the server has no such state ({}); give it with `Server::state`",
        held_states(.held)
    )]
    MissingState {
        /// The tool (or the prompt's name, or the resource's URI).
        tool: String,
        /// The state's type.
        state: &'static str,
        /// The types of the state the server holds, in the order given.
        held: Vec<&'static str>,
    },
    /// The name given with `HttpSettings::instance_name` cannot prefix session ids.
    #[cfg(feature = "http")]
    #[error("{0}")]
    InvalidInstanceName(String),
    /// The OAuth resource server given with `Server::oauth` cannot be served (feature
    /// `oauth`).
    #[cfg(feature = "oauth")]
    #[error(transparent)]
    OAuth(#[from] crate::oauth::ConfigError),
    /// Reading or writing the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// The command line asked for something that cannot be done.
    #[cfg(feature = "cli")]
    #[error(transparent)]
    Cli(#[from] CliError),
}

impl Error {
    /// Says on standard error what went wrong, and gives the exit status a command line
    /// should end with: 2 for a command line that could not be run, 1 for a tool call that
    /// failed (its result is printed already, so nothing more is said) and for everything
    /// else. For a program's `main` after `Server::run` (feature `cli`).
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
                eprintln!("error: {cli}");
            }
            return std::process::ExitCode::from(cli.exit_code());
        }
        eprintln!("error: {self}");
        std::process::ExitCode::from(1)
    }
}

#[cfg(feature = "cli")]
/// Why the command line did not do what it was asked; [`Error::report`] prints it and gives
/// the exit status.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// The arguments could not be read: the message says what was wrong.
    #[error("{0}")]
    Usage(String),
    /// `call` named no tool the server has.
    #[error("no tool is named `{name}`; the tools are {}", quoted(.known))]
    UnknownTool {
        /// The name given.
        name: String,
        /// The names of the tools there are.
        known: Vec<String>,
    },
    /// `call`'s arguments are not JSON.
    #[error("the arguments are not JSON: {0}")]
    ArgumentsNotJson(#[source] std::sync::Arc<serde_json::Error>),
    /// The tool ran and its result is an error result (printed already, as every result is).
    #[error("the tool `{0}` returned an error result")]
    ToolFailed(String),
    /// The prompt could not be filled in (said already on standard error).
    #[error("the prompt `{name}` could not be filled in: {message}")]
    PromptFailed {
        /// The prompt.
        name: String,
        /// Why.
        message: String,
    },
    /// The resource could not be read (said already on standard error).
    #[error("the resource `{uri}` could not be read: {message}")]
    ReadFailed {
        /// The URI asked for.
        uri: String,
        /// Why.
        message: String,
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

/// The names in backticks, comma-separated: `` `a`, `b` ``.
pub(crate) fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    quoted.join(", ")
}
