//! The integration tests: one binary, one module per area, so the dependency graph is linked
//! once rather than once per area. `support` holds what the areas share; the compile-error
//! suite (`tests/compile_errors.rs`) is a binary of its own.
//!
//! Run one area with `cargo test --test it <area>::`, for instance
//! `cargo test --test it stdio::`.

mod support;

mod apps;
mod architecture;
mod asks;
mod bad_input;
mod cli;
mod client;
mod client_oauth;
mod client_requests;
mod completion;
mod definitions;
mod discovery;
mod execute;
mod export;
mod extensions;
mod headers;
mod http;
mod lenient;
mod limits;
mod load;
mod methods;
mod notes;
mod oauth;
mod prompts;
mod resources;
mod result_budget;
mod server;
mod skills;
mod stdio;
mod task_store_redis;
mod task_stores;
mod tasks;
mod telemetry;
mod test_client;
mod visibility;
mod wire_log;
