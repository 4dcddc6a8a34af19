//! Logs on standard error, chosen by `RUST_LOG`: what [`Server::run`](crate::Server::run)
//! sets up, and [`log_to_stderr`] for a server started another way.

use std::str::FromStr;
use tracing::level_filters::LevelFilter;
use tracing_subscriber::filter::{ParseError, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// What is logged when `RUST_LOG` is unset or empty: warnings and errors, and where an HTTP
/// server listens (`warn,mcp_toolkit::server=info`). Requests are logged at `INFO` and
/// below, so they cost nothing here.
fn default_filter() -> Targets {
    Targets::new()
        .with_default(LevelFilter::WARN)
        .with_target("mcp_toolkit::server", LevelFilter::INFO)
}

/// Sends `tracing` events (the framework's and the program's) to standard error, never
/// standard output, which carries the protocol on stdio. `RUST_LOG` chooses what is
/// logged: a level (`debug`), targets with levels (`mcp_toolkit=debug,my_server=trace`), or
/// both (`info,mcp_toolkit::engine=debug`). Unset, it logs warnings, errors and where an
/// HTTP server listens. A `RUST_LOG` that cannot be read is said on standard error and the
/// default is used.
///
/// [`Server::run`](crate::Server::run) calls it; call it first thing in `main` when a
/// server starts another way ([`Server::serve_stdio`](crate::Server::serve_stdio),
/// [`Server::serve_http`](crate::Server::serve_http)). Returns `false`, changing nothing,
/// when the program has installed a `tracing` subscriber of its own already.
///
/// ```
/// mcp_toolkit::log_to_stderr();
/// tracing::warn!("this goes to standard error");
/// assert!(!mcp_toolkit::log_to_stderr()); // the first call's subscriber stays
/// ```
pub fn log_to_stderr() -> bool {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .filter(|value| !value.trim().is_empty());
    let filter = match filter.as_deref().map(parse) {
        Some(Ok(filter)) => filter,
        Some(Err(error)) => {
            eprintln!("RUST_LOG is not a log filter ({error}); logging warnings and errors");
            default_filter()
        }
        None => default_filter(),
    };
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    tracing_subscriber::registry()
        .with(stderr)
        .with(filter)
        .try_init()
        .is_ok()
}

/// A `RUST_LOG` value as a filter: `level`, `target=level` and `target`, comma-separated.
fn parse(value: &str) -> Result<Targets, ParseError> {
    // `Targets` reads `target` alone as "everything there"; a bare word that is a level
    // names the default level instead, as `RUST_LOG=debug` means.
    let mut targets = Targets::new();
    for directive in value.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        if let Ok(level) = LevelFilter::from_str(directive) {
            targets = targets.with_default(level);
            continue;
        }
        let one: Targets = directive.parse()?;
        targets = targets.with_targets(one);
    }
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;

    #[test]
    fn rust_log_reads_as_env_logger_users_expect() {
        let default = default_filter();
        assert!(default.would_enable("my_server", &Level::WARN));
        assert!(!default.would_enable("my_server", &Level::INFO));
        assert!(default.would_enable("mcp_toolkit::server::http", &Level::INFO));
        assert!(!default.would_enable("mcp_toolkit::engine::telemetry", &Level::INFO));

        let debug = parse("debug").unwrap();
        assert!(debug.would_enable("mcp_toolkit::engine", &Level::DEBUG));
        assert!(!debug.would_enable("mcp_toolkit::engine", &Level::TRACE));

        let mixed = parse("info, mcp_toolkit::engine=trace").unwrap();
        assert!(mixed.would_enable("my_server", &Level::INFO));
        assert!(mixed.would_enable("mcp_toolkit::engine::tools", &Level::TRACE));
        assert!(!mixed.would_enable("mcp_toolkit::server", &Level::DEBUG));

        assert!(parse("mcp_toolkit=loud").is_err());
    }
}
