//! Transports move bytes between a client and the engine; they know nothing of MCP.

#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod stdio;
