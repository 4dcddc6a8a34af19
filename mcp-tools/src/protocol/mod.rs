//! The protocol as data: the MCP and JSON-RPC value types the framework reads and writes.

pub(crate) mod arguments;
pub(crate) mod id_scan;
pub(crate) mod jsonrpc;
pub(crate) mod messages;
#[cfg(any(feature = "oauth", feature = "client-oauth"))]
pub(crate) mod oauth;
mod types;

pub use mcp_toolkit_core::ErrorCode;
pub use types::{Implementation, LoggingLevel, ProgressToken, ProtocolVersion, RequestId};

/// `N` bytes from the system's random source as `2N` lowercase hex digits: the unguessable
/// ids the server hands out (sessions, its requests to clients, elicitations) and the
/// names of its temporary files.
pub(crate) fn random_hex<const N: usize>() -> Result<String, getrandom::Error> {
    use std::fmt::Write as _;
    let mut bytes = [0_u8; N];
    getrandom::fill(&mut bytes)?;
    let mut hex = String::with_capacity(2 * N);
    for byte in bytes {
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}
