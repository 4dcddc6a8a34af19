//! Procedural macros for [`mcp-toolkit`](https://docs.rs/mcp-toolkit).
//!
//! Do not depend on this crate directly: `mcp-toolkit` re-exports [`macro@tool`],
//! [`macro@prompt`] and [`macro@resource`] and documents them, and the code they generate names `::mcp_toolkit`.
//!
//! A pipeline, as in serde_derive's `internals/` (`pipeline`), one for tools, prompts and
//! resources, which differ only where their `kind` says: parse the attribute (`attr`, on the shared
//! list parser `list`) and the fn into a small model that keeps the tokens for spans
//! (`model`, `docs`); check it, all rules in one place (`check`, with the rules the runtime shares
//! from `mcp-toolkit-core`: names, URI templates, date-times); expand it through
//! one skeleton for the normal and the error output (`expand`). One `Ctxt` collects
//! every mistake on the way, so all are reported in one compile; with mistakes, the user's
//! fn and a stub are still emitted so one error does not cascade.

#![forbid(unsafe_code)]

mod asks;
mod attr;
mod check;
mod ctxt;
mod docs;
mod expand;
mod kind;
mod list;
mod model;
mod name;
mod pipeline;
mod skills;
mod uri;

use proc_macro::TokenStream;

/// Turns a documented fn into an MCP tool. See `mcp_toolkit::tool` for the full guide.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    pipeline::tool(args.into(), input.into()).into_tokens().into()
}

/// Turns a documented fn into an MCP prompt. See `mcp_toolkit::prompt` for the full guide.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    pipeline::prompt(args.into(), input.into()).into_tokens().into()
}

/// Turns a documented fn into an MCP resource or resource template. See `mcp_toolkit::resource`
/// for the full guide.
#[proc_macro_attribute]
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    pipeline::resource(args.into(), input.into()).into_tokens().into()
}

/// Turns a fn into a custom method of an extension. See `mcp_toolkit::method` for the full
/// guide.
#[proc_macro_attribute]
pub fn method(args: TokenStream, input: TokenStream) -> TokenStream {
    pipeline::method(args.into(), input.into()).into_tokens().into()
}

/// `instance => a, b`: the tools of `&self` methods `a` and `b`, built from `instance` (an
/// `&Arc<T>`). What `tools![instance => a, b]` expands to; not public API.
#[doc(hidden)]
#[proc_macro]
pub fn method_tools(input: TokenStream) -> TokenStream {
    expand::method_tools(input.into()).into()
}

/// Embeds the skills of a folder, checked at compile time. See `mcp_toolkit::skills!` for the
/// full guide.
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    skills::skills(input.into()).into()
}
