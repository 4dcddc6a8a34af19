//! The hints a server gives hosts about a tool, for tool discovery: the `_meta` keys they
//! travel under, and how many characters of a result hosts accept
//! (`#[tool(max_result_chars = N)]`, `Tool::with_max_result_chars`). `#[tool]` refuses a
//! number outside it at compile time, and a `meta(...)` entry that says again what a hint
//! key sends; the runtime clamps a number given at run time.

/// The most characters of a tool's result hosts accept, whatever a tool asks for.
pub const MAX_RESULT_CHARS: usize = 500_000;

/// The `_meta` key of `#[tool(always_load)]`: `true` asks a host to load the tool up front.
pub const ALWAYS_LOAD: &str = "anthropic/alwaysLoad";

/// The `_meta` key of `#[tool(search_hint = "...")]`: the words a host's tool search should
/// match.
pub const SEARCH_HINT: &str = "anthropic/searchHint";

/// The `_meta` key of `#[tool(max_result_chars = N)]`: the most characters of a result a
/// host should accept.
pub const MAX_RESULT_SIZE_CHARS: &str = "anthropic/maxResultSizeChars";
