//! The protocol as data: the MCP and JSON-RPC value types the framework reads and writes.

pub(crate) mod arguments;
pub(crate) mod id_scan;
pub(crate) mod jsonrpc;
pub(crate) mod messages;
mod types;

pub use types::{Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId};
