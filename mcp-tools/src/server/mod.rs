//! Serving: the transports and the settings of [`Server`](crate::Server), and why serving
//! fails ([`Error`](crate::Error) is at the crate's root). `HttpServer` (feature `http`) is a Streamable
//! HTTP endpoint that is bound and listening; [`RateLimit`] bounds how often a client
//! may call; with the `cli` feature, `CliError` says why the command line of
//! `Server::run` was refused.

// The files: the builder and stdio (`builder`), Streamable HTTP (`http`), the in-process
// test client (`testing`), model-API formats and calls outside the protocol (`export`),
// the command line (`cli`) and the terminal that answers the asks of its `call`
// (`terminal`), and why serving fails (`error`).
// `Server` and `Error` are shown at the crate's root, the test client in `testing` and the
// exports in `export`: their files stay here, crate-visible, so each has one public path.
pub(crate) mod builder;
#[cfg(feature = "cli")]
mod cli;
pub(crate) mod error;
pub(crate) mod export;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "cli")]
pub(crate) mod log;
#[cfg(feature = "cli")]
mod terminal;
pub(crate) mod testing;

#[cfg(feature = "cli")]
pub use error::CliError;
#[cfg(feature = "http")]
pub use http::HttpServer;

pub use crate::engine::limits::Limits;
pub use crate::rate::RateLimit;
#[cfg(feature = "http")]
pub use crate::transport::http::HttpSettings;
