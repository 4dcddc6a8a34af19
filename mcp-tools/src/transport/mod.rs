//! Transports move bytes between a client and the engine; they know nothing of MCP.

pub(crate) mod stdio;
