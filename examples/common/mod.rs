//! What every example server does before serving.

/// Sends `tracing` logs to stderr (stdout carries protocol messages only), at the level
/// named by `RUST_LOG` (`error`, `warn`, `info`, `debug`, `trace`; default `warn`).
pub fn log_to_stderr() {
    let level = std::env::var("RUST_LOG")
        .ok()
        .and_then(|l| l.parse::<tracing_subscriber::filter::LevelFilter>().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::WARN);
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_ansi(false)
        .init();
}

/// The exit status of a server's command line: 0 when it did what it was asked, else what
/// [`mcp_toolkit::Error::report`] says (after saying what went wrong on stderr).
pub fn exit(served: Result<(), mcp_toolkit::Error>) -> std::process::ExitCode {
    served.map_or_else(mcp_toolkit::Error::report, |()| std::process::ExitCode::SUCCESS)
}
