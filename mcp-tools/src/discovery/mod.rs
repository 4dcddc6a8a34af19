//! Tool search: a server with hundreds of tools lists two, and the model finds the rest.
//!
//! A model reads every tool a server lists, in every conversation: a catalogue of 150 tools
//! costs tens of thousands of tokens before the first word, and the more there are the more
//! often the wrong one is picked. With [`Server::tool_search`](crate::Server::tool_search),
//! `tools/list` lists only the tools marked `#[tool(always_load)]` and two of the
//! framework's:
//!
//! - `search_tools` (`query`, and optionally `limit` and `group`) answers the tools that best
//!   match what the model wants to do, as full definitions (input schema included) in its
//!   `structuredContent`, and as a short list in its text;
//! - `call_tool` (`name`, `arguments`) calls one of them exactly as a direct `tools/call`
//!   would: its arguments checked, its scopes, its questions to the user, tasks, progress,
//!   result budgets.
//!
//! Nothing is kept per client: it works alike in both protocol eras, in legacy sessions and
//! behind a load balancer. A caller never finds a tool it may not see, and a direct
//! `tools/call` of any tool still works.
//!
//! ```
//! use mcp_toolkit::{discovery::ToolSearch, tool, tools, Server, ToolError};
//!
//! /// Refunds a charge, in full or in part.
//! #[tool(group = "billing", search_hint = "refund money back return payment chargeback")]
//! async fn refund_charge(charge_id: String, amount_cents: Option<u64>) -> Result<String, ToolError> {
//!     Ok(format!("refunded {charge_id}"))
//! }
//!
//! /// Lists the account's open invoices.
//! #[tool(always_load, max_result_chars = 200_000)]
//! async fn list_invoices() -> Result<String, ToolError> {
//!     Ok("in_1: 12.00 EUR".into())
//! }
//!
//! let server = Server::new("shop", "1.0.0")
//!     .tools(tools![refund_charge, list_invoices])
//!     .tool_search(ToolSearch::bm25().max_results(5));
//! ```
//!
//! The ranking is [`Bm25`] unless you bring your own [`Ranker`]: BM25F over each tool's
//! name, title, description, parameters, search hint and group, with stems and the everyday
//! words for API verbs ("money back" finds a refund). The guide's
//! [discovery chapter](crate::guide::discovery) shows the whole of it, with the figures of
//! `bench/discovery`.

mod bm25;
mod suggest;
mod synonyms;
mod text;

pub use bm25::Bm25;
pub(crate) use suggest::close_names;

use crate::tool::Tool;
use std::fmt;
use std::sync::Arc;

/// The name of the tool that searches, on a server with tool search.
pub const SEARCH_TOOLS: &str = "search_tools";

/// The name of the tool that calls a tool found by search, on a server with tool search.
pub const CALL_TOOL: &str = "call_tool";

/// The most results a search answers by default.
const DEFAULT_RESULTS: usize = 5;

/// The most results a search may be set to answer.
pub const MAX_RESULTS: usize = 50;

/// How a server searches its tools: the ranker, and how many tools a search answers at
/// most. Give it to [`Server::tool_search`](crate::Server::tool_search).
///
/// ```
/// use mcp_toolkit::discovery::{Bm25, ToolSearch};
///
/// let search = ToolSearch::bm25().max_results(8);
/// assert_eq!(search.results(), 8);
/// let custom = ToolSearch::with_ranker(Bm25::new().synonyms(false));
/// assert_eq!(custom.results(), 5);
/// ```
#[derive(Clone)]
pub struct ToolSearch {
    pub(crate) ranker: Arc<dyn Ranker>,
    results: usize,
}

impl ToolSearch {
    /// The built-in ranker, [`Bm25`], answering at most 5 tools a search.
    pub fn bm25() -> ToolSearch {
        ToolSearch::with_ranker(Bm25::new())
    }

    /// A ranker of your own: an embedding index, a ranker that knows your users' words.
    pub fn with_ranker(ranker: impl Ranker) -> ToolSearch {
        ToolSearch {
            ranker: Arc::new(ranker),
            results: DEFAULT_RESULTS,
        }
    }

    /// The most tools a search answers (1 to [`MAX_RESULTS`]; 5 by default); a search may
    /// ask for fewer with its `limit`.
    pub fn max_results(mut self, results: usize) -> ToolSearch {
        self.results = results.clamp(1, MAX_RESULTS);
        self
    }

    /// The most tools a search answers.
    pub fn results(&self) -> usize {
        self.results
    }
}

impl fmt::Debug for ToolSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSearch")
            .field("results", &self.results)
            .finish_non_exhaustive()
    }
}

/// Ranks a catalogue's tools for a request in plain words. [`Bm25`] is the built-in one;
/// implement it to bring your own.
///
/// The server builds an index once, and again only when its tools change; a search is a
/// call of [`ToolIndex::search`], on the thread that serves the request, so it should take
/// microseconds, not a network round trip.
///
/// ```
/// use mcp_toolkit::discovery::{Hit, Query, Ranker, ToolIndex, ToolSearch};
/// use mcp_toolkit::{Server, Tool};
///
/// /// Finds the tools whose name holds the request, as written.
/// struct Substring;
///
/// struct Names(Vec<String>);
///
/// impl Ranker for Substring {
///     fn index(&self, tools: &[Tool]) -> Box<dyn ToolIndex> {
///         Box::new(Names(tools.iter().map(|t| t.name().to_owned()).collect()))
///     }
/// }
///
/// impl ToolIndex for Names {
///     fn search(&self, query: &Query<'_>, hits: &mut Vec<Hit>) {
///         let found = self.0.iter().enumerate().filter(|(i, name)| query.admits(*i) && name.contains(query.text()));
///         hits.extend(found.take(query.limit()).map(|(position, _)| Hit { position, score: 1.0 }));
///     }
/// }
///
/// let server = Server::new("shop", "1.0.0").tool_search(ToolSearch::with_ranker(Substring));
/// ```
pub trait Ranker: Send + Sync + 'static {
    /// Builds the index of a catalogue: the tools, in the order a [`Hit`] names them by.
    fn index(&self, tools: &[Tool]) -> Box<dyn ToolIndex>;
}

/// A catalogue indexed by a [`Ranker`].
pub trait ToolIndex: Send + Sync {
    /// Pushes onto `hits` the tools that match `query`, best first: at most
    /// [`Query::limit`] of them, each one [`Query::admits`]. The server checks both again,
    /// so a ranker that errs shows no tool a caller may not see.
    fn search(&self, query: &Query<'_>, hits: &mut Vec<Hit>);
}

/// A search: the request in plain words, how many tools it wants, and which it may see.
pub struct Query<'a> {
    text: &'a str,
    limit: usize,
    admit: Option<&'a (dyn Fn(usize) -> bool + 'a)>,
}

impl<'a> Query<'a> {
    /// A search for `text`, answering at most `limit` tools, any of them.
    pub fn new(text: &'a str, limit: usize) -> Query<'a> {
        Query {
            text,
            limit,
            admit: None,
        }
    }

    /// The same search, admitting only the tools at the positions `admit` allows.
    pub fn only(self, admit: &'a (dyn Fn(usize) -> bool + 'a)) -> Query<'a> {
        Query {
            admit: Some(admit),
            ..self
        }
    }

    /// The request, as the caller wrote it.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The most tools to answer.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether the tool at `position` may be answered: the caller may see it, and it is in
    /// the groups asked for.
    pub fn admits(&self, position: usize) -> bool {
        self.admit.is_none_or(|admit| admit(position))
    }
}

impl fmt::Debug for Query<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Query")
            .field("text", &self.text)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// A tool a search found: its position in the catalogue the index was built from, and its
/// score (greater is better; only the order matters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Where the tool is in the catalogue given to [`Ranker::index`].
    pub position: usize,
    /// How well it matches.
    pub score: f32,
}
