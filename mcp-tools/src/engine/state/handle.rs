//! The handle every method family is given for a request: where it came from, its id, where
//! its answer goes, and who sent it; the family adds what it parsed of the params.

use crate::engine::state::core::Auth;
use crate::engine::wire::connection::Connection;
use crate::engine::wire::outbox::Outbox;
use crate::protocol::jsonrpc::Id;
use std::sync::Arc;

/// One request on its way through the engine, from dispatch to the family that answers it.
#[derive(Clone, Copy)]
pub(crate) struct Handle<'r> {
    /// The connection it arrived on (the legacy session, the requests in flight).
    pub(crate) conn: &'r Arc<Connection>,
    /// Its JSON-RPC id, echoed as sent.
    pub(crate) id: Id<'r>,
    /// Where its answer, and everything sent within it, goes.
    pub(crate) out: &'r Outbox,
    /// Who sent it, when the transport authenticated it.
    pub(crate) auth: Auth<'r>,
}
