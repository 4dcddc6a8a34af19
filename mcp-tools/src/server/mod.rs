//! Serving: the transports and the settings of [`Server`](crate::Server), and why serving
//! fails ([`Error`](crate::Error) is at the crate's root). `HttpServer` (feature `http`) is a Streamable
//! HTTP endpoint that is bound and listening; [`RateLimit`] bounds how often a client
//! may call; with the `cli` feature, `CliError` says why the command line of
//! `Server::run` was refused.

// The files: the builder and stdio (`builder`), Streamable HTTP (`http`), the log `run`
// installs (`log`), and why serving fails (`error`). `Server` and `Error` are shown at the
// crate's root, so each has one public path. What is built on a server sits above it: the
// command line (`crate::cli`), the in-process test client (`crate::testing`) and the
// model-API formats (`crate::export`).
pub(crate) mod builder;
pub(crate) mod error;
#[cfg(feature = "http")]
pub(crate) mod http;
#[cfg(feature = "cli")]
pub(crate) mod log;

#[cfg(feature = "cli")]
pub use error::CliError;
#[cfg(feature = "http")]
pub use http::HttpServer;

pub use crate::engine::limits::Limits;
pub use crate::rate::RateLimit;
#[cfg(feature = "http")]
pub use crate::transport::http::HttpSettings;
