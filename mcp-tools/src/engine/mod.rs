//! The protocol engine: one incoming message in, responses and notifications out.
//!
//! Transports only move bytes: they hand each message to [`Engine::handle`] (or parse it
//! once as an [`Incoming`] and [`Engine::serve`] it) with the [`Connection`] it arrived on
//! and an [`Outbox`] for what goes back. The engine serves both protocol eras at once: a
//! request whose `_meta` names a protocol revision is served statelessly (2026-07-28);
//! `initialize` puts the connection in legacy mode (2024-11-05 to 2025-11-25) for the
//! requests that follow.
//!
//! One module per concern, each depending only on those listed before it:
//! `failure`, `outbox`, `connection`, `telemetry` (the span each request runs in, and what
//! it records of the outcome), `era`, `encode` (the parts), `core` (the engine's
//! state and the contexts it makes), `listing` (pages and change feeds of any catalog),
//! `rounds` (the `input_required` rounds of 2026-07-28 and their sealed state), `client`
//! (asks: requests of the server's own, or questions of a round), then one module per
//! method family:
//! `lifecycle`, `tools` (with `spill`, which pages a result over its budget), `prompts`,
//! `resources`, `skills` (the skills extension), `completion`, `subscriptions` (with
//! `asking`, the rounds tools and prompts share); and `dispatch`, which routes to them.

mod asking;
mod client;
mod completion;
mod connection;
mod core;
mod dispatch;
mod encode;
mod era;
mod extensions;
mod failure;
mod layers;
mod lifecycle;
pub(crate) mod limits;
mod listing;
mod outbox;
mod prompts;
mod resources;
mod rounds;
mod skills;
mod spill;
mod subscriptions;
mod tasks;
mod telemetry;
mod tools;

pub(crate) use connection::{Carrier, Connection};
pub(crate) use core::{Engine, Offers, Options, ServerInfo, Visibilities};
#[cfg(feature = "http")]
pub(crate) use dispatch::Incoming;
pub(crate) use encode::error as encode_error;
pub(crate) use extensions::{extension_problems, with_builtin};
#[cfg(feature = "http")]
pub(crate) use outbox::Settled;
pub(crate) use outbox::{ErrorInfo, Outbox, Outgoing, Queue, Sink};
pub(crate) use skills::link as link_skills;
pub(crate) use spill::READ_RESULT;
pub(crate) use spill::link_spilling as link_spill;
pub(crate) use tasks::EXTENSION as TASKS_EXTENSION;
pub(crate) use tasks::link as link_tasks;
