//! Streamable HTTP: one endpoint (default `/mcp`) serving both protocol eras, on hyper's
//! HTTP/1.1 connections directly (`Server::into_router` wraps the same handler for axum).
//!
//! - **2026-07-28**: every POST stands alone. The `MCP-Protocol-Version`, `Mcp-Method` and
//!   `Mcp-Name` headers, and the `Mcp-Param-*` headers of a tool's arguments, must match the
//!   body (`mirror`). A request runs on a connection of its own,
//!   cancelled if the client goes away. The answer is plain JSON, or an SSE stream when
//!   notifications come before it; `subscriptions/listen` keeps its stream open.
//! - **2025-03-26 to 2025-11-25**: `initialize` opens a session (`Mcp-Session-Id`, random);
//!   later POSTs carry it; GET opens the stream for unsolicited notifications; DELETE ends
//!   the session. Their `MCP-Protocol-Version` may name any revision of this era (none
//!   means 2025-03-26), else 400; the revision negotiated shapes every answer. A request of
//!   the server's own goes out on the stream of the call that makes it, and the client's
//!   answer comes back in a POST of its own.
//!
//! Every event stream holds at most the server's stream backlog for a client that reads
//! it slowly; one whose client takes nothing for the stall time is cut with its connection
//! (`serve` closes it; under `into_router`, the body fails when next polled).
//!
//! Before any of that (`admission`): `Host` and `Origin` are checked against an allow-list
//! (DNS rebinding), bodies are bounded, `Accept` and `Content-Type` are checked, and an
//! optional bearer-token hook decides who is calling. `sessions` keeps the legacy
//! sessions, `response` shapes what goes back, `endpoint` routes, `app` holds the state they
//! share, and `serve` accepts connections and serves each with hyper.

// A refusal is the HTTP response itself; boxing it would only add an allocation.
#![allow(clippy::result_large_err)]

mod admission;
mod app;
mod endpoint;
mod mirror;
mod response;
mod serve;
mod sessions;

pub use app::HttpSettings;
#[cfg(feature = "oauth")]
pub(crate) use app::ResourceMetadata;
pub(crate) use app::{HttpApp, HttpOptions};
pub(crate) use endpoint::router;
pub(crate) use serve::serve;
