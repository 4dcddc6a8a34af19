//! Procedural macros for [`mcp-tools`](https://docs.rs/mcp-tools).
//!
//! Do not depend on this crate directly: `mcp-tools` re-exports [`macro@tool`] and documents
//! it, and the code it generates names `::mcp_tools`.
//!
//! The pipeline: parse the attribute and the fn into a small model that keeps the tokens
//! for spans (`model`), checking as it goes and collecting every mistake (`ctxt`); then
//! expand (`expand`). With mistakes, the user's fn and a stub are still emitted so one
//! error does not cascade.

mod attr;
mod ctxt;
mod docs;
mod expand;
mod model;
mod name;

use proc_macro::TokenStream;

/// Turns a documented fn into an MCP tool. See `mcp_tools::tool` for the full guide.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    tool_impl(args.into(), input.into()).into()
}

/// `instance => a, b`: the tools of `&self` methods `a` and `b`, built from `instance` (an
/// `&Arc<T>`). What `tools![instance => a, b]` expands to; not public API.
#[doc(hidden)]
#[proc_macro]
pub fn method_tools(input: TokenStream) -> TokenStream {
    expand::method_tools(input.into()).into()
}

fn tool_impl(args: proc_macro2::TokenStream, input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let mut cx = ctxt::Ctxt::default();
    let tool = model::ToolFn::from_input(&mut cx, args, input.clone());
    match tool {
        Some(tool) if !cx.has_errors() && tool.callable => expand::expand(&tool),
        Some(tool) => {
            let mut out = cx.into_compile_errors();
            out.extend(expand::expand_stub(Some(&tool)));
            out
        }
        None => {
            // Not a fn: keep the item as written so the rest of the crate still compiles.
            let mut out = cx.into_compile_errors();
            out.extend(input);
            out
        }
    }
}
