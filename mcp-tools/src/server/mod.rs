//! [`Server`] and what it does: the builder and stdio (`builder`), Streamable HTTP
//! (`http`), the in-process test client (`testing`), model-API formats and calls outside the
//! protocol (`export`), the command line (`cli`) and the terminal that answers the asks of
//! its `call` (`terminal`), and why serving fails (`error`).

mod builder;
#[cfg(feature = "cli")]
mod cli;
mod error;
mod export;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "cli")]
mod log;
#[cfg(feature = "cli")]
mod terminal;
mod testing;

pub use builder::Server;
#[cfg(feature = "cli")]
pub use error::CliError;
pub use error::Error;
pub use export::ToolCall;
#[cfg(feature = "http")]
pub use http::HttpServer;
#[cfg(feature = "cli")]
pub use log::log_to_stderr;
pub use testing::{CallResponse, ClientError, TestClient};
