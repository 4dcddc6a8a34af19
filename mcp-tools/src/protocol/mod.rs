//! The protocol as data: the MCP and JSON-RPC value types the framework reads and writes.

mod types;

pub use types::{Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId};
