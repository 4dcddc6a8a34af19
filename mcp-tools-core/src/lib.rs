//! What the runtime crate `mcp-toolkit` and its macros `mcp-toolkit-macros` both need, written
//! once: RFC 6570 URI templates, the rules of MCP Apps (view URIs, CSP origins), the MCP name rule (and a tool group's), the custom method
//! name rule, the `x-mcp-header` name rule, the limits of a tool's hints to hosts, RFC 3339
//! date-times, the JSON-RPC error codes and the rules of skills (reading and checking a
//! folder of them). The macros run these checks at compile time, the runtime on data it
//! meets.
//!
//! This crate is an implementation detail of `mcp-toolkit`, with no stability promise of its
//! own: depend on `mcp-toolkit`, which re-exports what users need (the error codes, as
//! `mcp_toolkit::protocol::ErrorCode`). Besides `std` it uses a YAML loader, `serde_json` and
//! SHA-256, for skills.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod app;
pub mod date_time;
mod error_code;
pub mod header;
pub mod hint;
pub mod method;
pub mod name;
pub mod skill;
pub mod uri_template;

pub use error_code::ErrorCode;
