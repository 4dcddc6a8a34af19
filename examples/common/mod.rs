//! What every example server does before serving.

/// The exit status of a server's command line: 0 when it did what it was asked, else what
/// [`mcp_toolkit::Error::report`] says (after saying what went wrong on stderr).
pub fn exit(served: Result<(), mcp_toolkit::Error>) -> std::process::ExitCode {
    served.map_or_else(mcp_toolkit::Error::report, |()| std::process::ExitCode::SUCCESS)
}
