//! What `#[tool]` costs at compile time: the pipeline (parse the attribute and the fn into the
//! model, check, expand) on `proc_macro2` tokens, for a calculator-like tool and for a large
//! one (10 parameters, a long doc comment with an `# Arguments` list).
//!
//! `cargo bench -p mcp-toolkit-macros --bench expand`
//!
//! A bench cannot link a proc-macro crate, so the pipeline's modules are compiled into the
//! bench itself and it runs `pipeline::tool`, what `#[tool]` in `src/lib.rs` runs, on fns with
//! no mistakes. Outside the compiler `proc_macro2` uses its own token types; inside, every token
//! operation crosses the compiler's proc-macro bridge, so the figures are a lower bound of
//! what `rustc` spends in the macro.

// The pipeline's error paths go unused here, and so do the imports of the modules' unit tests
// when `--all-targets` builds this bench with `cfg(test)`.
#![allow(dead_code, unused_imports)]

#[path = "../src/asks.rs"]
mod asks;
#[path = "../src/attr.rs"]
mod attr;
#[path = "../src/check.rs"]
mod check;
#[path = "../src/ctxt.rs"]
mod ctxt;
#[path = "../src/docs.rs"]
mod docs;
#[path = "../src/expand.rs"]
mod expand;
#[path = "../src/kind.rs"]
mod kind;
#[path = "../src/list.rs"]
mod list;
#[path = "../src/model.rs"]
mod model;
#[path = "../src/name.rs"]
mod name;
#[path = "../src/pipeline.rs"]
mod pipeline;
#[path = "../src/uri.rs"]
mod uri;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use proc_macro2::TokenStream;
use quote::quote;
use std::hint::black_box;

/// What `#[tool]` in `src/lib.rs` runs, on input with no mistakes.
fn tool_impl(args: TokenStream, input: TokenStream) -> TokenStream {
    let expansion = pipeline::tool(args, input);
    assert!(expansion.errors.is_empty(), "the bench input has no mistakes");
    expansion.into_tokens()
}

fn calculator() -> (TokenStream, TokenStream) {
    let args = quote!(annotations(read_only, idempotent, open_world = false));
    let item = quote! {
        /// Perform basic arithmetic on two numbers.
        async fn calculator(
            /// The operation to perform
            operation: Operation,
            /// The first operand
            a: f64,
            /// The second operand
            b: f64,
        ) -> Result<f64, ToolError> {
            match operation {
                Operation::Add => Ok(a + b),
                Operation::Subtract => Ok(a - b),
                Operation::Multiply => Ok(a * b),
                Operation::Divide if b == 0.0 => Err(ToolError::new(
                    "cannot divide by zero: `b` must be a non-zero number",
                )),
                Operation::Divide => Ok(a / b),
            }
        }
    };
    (args, item)
}

fn large() -> (TokenStream, TokenStream) {
    let args = quote! {
        name = "search_documents",
        title = "Search documents",
        annotations(read_only, open_world),
        meta("com.example/category" = "search", cost = 3)
    };
    let item = quote! {
        /// Search the document store and return the best matches, ranked.
        ///
        /// The query is matched against titles, bodies and tags. Results are ranked by a
        /// blend of text relevance and freshness; `freshness_weight` sets the blend. Use
        /// `filters` to restrict the search to documents that carry every given tag, and
        /// `exclude` to drop documents that carry any of those. Dates are ISO 8601 days.
        ///
        /// Large result sets are paginated: pass the `cursor` of the previous page to get
        /// the next one. A search with no match is not an error: it returns no hits.
        ///
        /// # Arguments
        /// * `query` - The words to search for; quoted phrases match exactly
        /// * `limit` - How many hits to return, at most 100
        /// * `offset` - How many hits to skip before the first returned one
        /// * `filters` - Tags every returned document must carry
        /// * `exclude` - Tags no returned document may carry
        /// * `sort` - The order of the hits
        /// * `freshness_weight` - From 0 (relevance only) to 1 (newest first)
        /// * `language` - Only documents in this language (an ISO 639-1 code)
        /// * `after` - Only documents modified on or after this day
        /// * `cursor` - The cursor of the previous page, if any
        async fn search(
            query: String,
            limit: Option<u32>,
            #[default(0)]
            offset: u32,
            filters: Vec<String>,
            exclude: Vec<String>,
            sort: SortOrder,
            #[default(0.25)]
            freshness_weight: f64,
            language: Option<String>,
            after: Option<String>,
            cursor: Option<String>,
        ) -> Result<Json<SearchPage>, ToolError> {
            let limit = limit.unwrap_or(10).min(100) as usize;
            let hits = index()
                .search(&query, &filters, &exclude, language.as_deref(), after.as_deref())
                .map_err(|e| ToolError::new(format!("search failed: {e}")))?;
            let page = rank(hits, sort, freshness_weight).paginate(cursor, offset as usize, limit);
            Ok(Json(page))
        }
    };
    (args, item)
}

fn bench_expand(c: &mut Criterion) {
    let mut group = c.benchmark_group("expand");
    for (label, (args, item)) in [("calculator", calculator()), ("large", large())] {
        group.bench_function(label, |b| {
            b.iter_batched(
                || (args.clone(), item.clone()),
                |(args, item)| black_box(tool_impl(args, item)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_expand);
criterion_main!(benches);
