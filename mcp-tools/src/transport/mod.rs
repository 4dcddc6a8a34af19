//! Transports move bytes between a client and the engine: framing, admission, sessions and
//! streams. What the bytes mean is the engine's.

#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod signal;
pub(crate) mod stdio;
