//! Stage 1, the wire: what a message is on the way in and on the way out, and nothing of
//! what the engine holds.
//!
//! `failure` (what goes wrong, as a JSON-RPC error), `outbox` (where answers and
//! notifications go, and the queue behind it), `connection` (what a transport knows of its
//! peer), `era` (which protocol revision a request speaks, read from its `_meta` or the
//! connection's handshake), `telemetry` (the span each request runs in), `rounds` (the
//! `input_required` rounds of 2026-07-28 and their sealed `requestState`), `encode` (every
//! answer's bytes).

pub(crate) mod connection;
pub(crate) mod encode;
pub(crate) mod era;
pub(crate) mod failure;
pub(crate) mod outbox;
pub(crate) mod rounds;
pub(crate) mod telemetry;
