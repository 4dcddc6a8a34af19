//! A payments server modelled on Stripe's API: 222 tools over customers, payments,
//! refunds, disputes, payouts, products, invoices, subscriptions, checkout, Connect,
//! Issuing, Terminal, reporting, tax, webhooks and files, answering from an in-memory
//! account (`fixtures.rs`) that starts the same on every run.
//!
//! So many tools are more than a model should read at once: the server lists only
//! `search_tools` and `call_tool` (plus the few tools marked `always_load`), and the model
//! searches the catalogue for what the user asks. `PAYMENTS_TOOL_SEARCH=off` lists every
//! tool instead. The catalogue (`catalog.rs`) is also the tool discovery benchmark's
//! (`bench/discovery/`).
//!
//! - `create_refund` asks the user to confirm a refund over $100 (a form);
//! - `create_report_run` is a task: it takes a moment, and a client that declares the
//!   tasks extension polls it;
//! - `list_balance_transactions` answers with 200 lines, more than its 4000 characters:
//!   the answer comes a page at a time;
//! - `create_payout` declares the `payouts:write` scope: served over HTTP behind
//!   `Server::oauth` or `Server::bearer_auth`, it is neither listed nor found for a caller
//!   whose token lacks it (`ScopePolicy::Hide`). For a demonstration, `PAYMENTS_TOKENS`
//!   makes the HTTP endpoint take bearer tokens of its own: `reader=payments:read;admin=
//!   payments:read payouts:write` (each token `=` its scopes, space-separated; tokens
//!   separated by `;`).
//!
//! ```text
//! cargo run --bin payments                           # stdio, as clients launch it
//! cargo run --bin payments -- --http 127.0.0.1:8080  # Streamable HTTP
//! PAYMENTS_TOOL_SEARCH=off cargo run --bin payments -- tools   # every tool definition
//! PAYMENTS_TOKENS="reader=payments:read" cargo run --bin payments -- --http 127.0.0.1:8080
//! ```

#[path = "../common/mod.rs"]
mod common;

mod catalog;
mod fixtures;

use mcp_toolkit::Server;
use mcp_toolkit::auth::Principal;
use mcp_toolkit::discovery::ToolSearch;
use mcp_toolkit::tool::ScopePolicy;

// One thread for tasks is plenty: stdio serves one client, and its reader answers most
// calls on a thread of its own.
#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let mut server = Server::new("payments", env!("CARGO_PKG_VERSION"))
        .title("Payments")
        .instructions(
            "A shop's Stripe account. Amounts are in cents. Look objects up before changing \
             them; ids start with their kind (`cus_`, `ch_`, `pi_`, `in_`, `sub_`).",
        )
        .tools(catalog::tools())
        .scope_policy(ScopePolicy::Hide);
    if let Ok(tokens) = std::env::var("PAYMENTS_TOKENS") {
        let tokens = demo_tokens(&tokens);
        server = server.bearer_auth(move |token| {
            let found = tokens.iter().find(|(known, _)| *known == token);
            let principal =
                found.map(|(name, scopes)| Principal::new(name.clone()).with_scopes(scopes.clone()));
            async move { principal }
        });
    }
    if std::env::var("PAYMENTS_TOOL_SEARCH").as_deref() != Ok("off") {
        server = server.tool_search(ToolSearch::bm25().max_results(5));
    }
    common::exit(server.run().await)
}

/// `reader=payments:read;admin=payments:read payouts:write`: each token with its scopes.
fn demo_tokens(spec: &str) -> Vec<(String, Vec<String>)> {
    spec.split(';')
        .filter_map(|entry| {
            let (token, scopes) = entry.split_once('=')?;
            let scopes = scopes.split_whitespace().map(str::to_owned).collect();
            Some((token.trim().to_owned(), scopes))
        })
        .filter(|(token, _)| !token.is_empty())
        .collect()
}
