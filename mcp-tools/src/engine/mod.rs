//! The protocol engine: one incoming message in, responses and notifications out.
//!
//! Transports only move bytes: they hand each message to [`Engine::handle`] (or parse it
//! once as an [`Incoming`] and [`Engine::serve`] it) with the [`Connection`] it arrived on
//! and an [`Outbox`] for what goes back. The engine serves both protocol eras at once: a
//! request whose `_meta` names a protocol revision is served statelessly (2026-07-28);
//! `initialize` puts the connection in legacy mode (2024-11-05 to 2025-11-25) for the
//! requests that follow.
//!
//! One folder per stage, each naming only the stages before it (the architecture test
//! checks it):
//!
//! 1. [`wire`]: a message's envelope in and its bytes out (errors, the outbox, the
//!    connection, the era, spans, `input_required` rounds, encoding);
//! 2. [`state`]: what the engine holds (the engine, limits, catalog pages, the records of
//!    tasks, spilled results and skills);
//! 3. [`asks`]: the server asking the client;
//! 4. [`tasks`]: tool calls that outlive their request (the tasks extension);
//! 5. [`budgets`]: results over their budget, paged into the task store;
//! 6. [`methods`]: one module per method family;
//! 7. [`route`]: dispatch to the methods, and the middleware around each exchange.

mod asks;
mod budgets;
mod methods;
mod route;
mod state;
mod tasks;
mod wire;

pub(crate) use budgets::READ_RESULT;
pub(crate) use methods::discovery::link as link_search;
pub(crate) use methods::extensions::{extension_problems, with_builtin};
pub(crate) use methods::prompts::link as link_prompts;
pub(crate) use methods::resources::link as link_resources;
pub(crate) use methods::skills::link as link_skills;
pub(crate) use methods::tools::link_budgets as link_spill;
#[cfg(feature = "http")]
pub(crate) use route::dispatch::Incoming;
pub(crate) use state::core::{Engine, Offers, Options, Visibilities};
pub(crate) use state::limits;
pub(crate) use state::listing::Feed;
pub(crate) use tasks::EXTENSION as TASKS_EXTENSION;
pub(crate) use tasks::link as link_tasks;
pub(crate) use wire::connection::{Carrier, Connection};
pub(crate) use wire::encode::ServerInfo;
pub(crate) use wire::encode::error as encode_error;
#[cfg(feature = "http")]
pub(crate) use wire::outbox::Settled;
pub(crate) use wire::outbox::{Backlog, ErrorInfo, Outbox, Outgoing, Queue, Sink};
