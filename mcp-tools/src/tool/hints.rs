//! The hints a tool gives hosts for tool discovery (`#[tool(group, search_hint, always_load,
//! max_result_chars)]`): a host that loads tools on demand searches them by their hint,
//! loads those marked `always_load` up front, and caps each result at its
//! `max_result_chars`. The last three travel in the definition's `_meta`, in every
//! protocol revision; the group stays with the server.

use super::{MIN_RESULT_BUDGET, Tool};
use crate::error::DefinitionError;
use mcp_toolkit_core::hint::{ALWAYS_LOAD, MAX_RESULT_SIZE_CHARS, SEARCH_HINT};
use serde_json::{Map, Value};

/// The most characters of a result hosts accept: [`Tool::with_max_result_chars`] clamps to
/// it, and `#[tool(max_result_chars = ...)]` refuses more.
///
/// ```
/// use mcp_toolkit::tool::MAX_RESULT_CHARS;
///
/// assert_eq!(MAX_RESULT_CHARS, 500_000);
/// ```
pub const MAX_RESULT_CHARS: usize = mcp_toolkit_core::hint::MAX_RESULT_CHARS;

/// Adds the host hints to a definition's `_meta` (creating it when there is a hint and no
/// map): they replace a user's `meta(...)` entry of the same key.
pub(crate) fn insert_hints(
    meta: &mut Option<Map<String, Value>>,
    always_load: bool,
    search_hint: Option<&str>,
    max_result_chars: Option<usize>,
) {
    if always_load {
        meta.get_or_insert_with(Map::new)
            .insert(ALWAYS_LOAD.to_owned(), Value::Bool(true));
    }
    if let Some(hint) = search_hint {
        meta.get_or_insert_with(Map::new)
            .insert(SEARCH_HINT.to_owned(), Value::String(hint.to_owned()));
    }
    if let Some(chars) = max_result_chars {
        meta.get_or_insert_with(Map::new)
            .insert(MAX_RESULT_SIZE_CHARS.to_owned(), Value::from(chars));
    }
}

/// A tool's result budget from its own `result_budget` and its `max_result_chars`: the
/// smaller of the two, never under [`MIN_RESULT_BUDGET`] (a budget of bytes holds at most as
/// many characters).
pub(crate) fn own_budget(result_budget: Option<usize>, max_result_chars: Option<usize>) -> Option<usize> {
    let chars = max_result_chars.map(|chars| chars.max(MIN_RESULT_BUDGET));
    match (result_budget, chars) {
        (Some(bytes), Some(chars)) => Some(bytes.min(chars)),
        (bytes, chars) => bytes.or(chars),
    }
}

/// `chars` within what hosts accept: 1 to [`MAX_RESULT_CHARS`].
pub(crate) fn clamp_result_chars(chars: usize) -> usize {
    chars.clamp(1, MAX_RESULT_CHARS)
}

impl Tool {
    /// The tool's group, if it has one (`#[tool(group = "...")]`): a word the server may
    /// sort or filter its tools by. It is not sent to clients.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Refunds a charge.
    /// #[tool(group = "billing")]
    /// fn refund_charge(charge_id: String) -> String { format!("refunded {charge_id}") }
    ///
    /// assert_eq!(tools![refund_charge][0].group(), Some("billing"));
    /// ```
    pub fn group(&self) -> Option<&str> {
        self.def.group.as_deref()
    }

    /// Puts the tool in a group, replacing the one it had. A group is 1 to 64 characters of
    /// `A-Z a-z 0-9 _ -` (a tool name's characters without the dot); `Err` says how it is
    /// not ([`DefinitionError::InvalidGroup`]).
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let refund = Tool::from_json("refund", "Refunds a charge.", json!({"type": "object"}), |_, _| async { "done" })
    ///     .unwrap();
    /// assert_eq!(refund.clone().with_group("billing").unwrap().group(), Some("billing"));
    /// assert_eq!(
    ///     refund.with_group("billing.eu").unwrap_err().to_string(),
    ///     "tool `refund`: group `billing.eu` contains the character `.`; a group is 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`"
    /// );
    /// ```
    pub fn with_group(mut self, group: impl Into<String>) -> Result<Tool, DefinitionError> {
        let group = group.into();
        mcp_toolkit_core::name::check_group(&group).map_err(|error| DefinitionError::InvalidGroup {
            tool: self.def.name.clone(),
            error,
        })?;
        self.def_mut().group = Some(group);
        Ok(self)
    }

    /// The words a host's tool search should match, if given (`#[tool(search_hint =
    /// "...")]`), sent as `_meta["anthropic/searchHint"]`.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, protocol::ProtocolVersion};
    ///
    /// /// Refunds a charge.
    /// #[tool(search_hint = "refund money back return payment chargeback")]
    /// fn refund_charge(charge_id: String) -> String { format!("refunded {charge_id}") }
    ///
    /// let refund = tools![refund_charge].remove(0);
    /// assert_eq!(refund.search_hint(), Some("refund money back return payment chargeback"));
    /// let listed = refund.definition(ProtocolVersion::V2024_11_05);
    /// assert_eq!(listed["_meta"]["anthropic/searchHint"], "refund money back return payment chargeback");
    /// ```
    pub fn search_hint(&self) -> Option<&str> {
        self.def.search_hint.as_deref()
    }

    /// Sets the words a host's tool search should match, replacing the ones it had; an
    /// empty or blank hint removes it.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let refund = Tool::from_json("refund", "Refunds a charge.", json!({"type": "object"}), |_, _| async { "done" })
    ///     .unwrap()
    ///     .with_search_hint("refund money back chargeback");
    /// assert_eq!(refund.search_hint(), Some("refund money back chargeback"));
    /// assert_eq!(refund.with_search_hint("  ").search_hint(), None);
    /// ```
    pub fn with_search_hint(mut self, hint: impl Into<String>) -> Tool {
        let hint = hint.into();
        self.def_mut().search_hint = (!hint.trim().is_empty()).then_some(hint);
        self
    }

    /// Whether a host that loads tools on demand should load this one up front
    /// (`#[tool(always_load)]`), sent as `_meta["anthropic/alwaysLoad"]: true`.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Lists the account's open invoices.
    /// #[tool(always_load)]
    /// fn list_invoices() -> String { String::new() }
    ///
    /// let invoices = tools![list_invoices].remove(0);
    /// assert!(invoices.always_load());
    /// assert_eq!(serde_json::to_value(&invoices).unwrap()["_meta"]["anthropic/alwaysLoad"], true);
    /// ```
    pub fn always_load(&self) -> bool {
        self.def.always_load
    }

    /// Sets whether a host should load the tool up front; `false` sends nothing.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let invoices = Tool::from_json("list_invoices", "Lists the open invoices.", json!({"type": "object"}), |_, _| async { "" })
    ///     .unwrap()
    ///     .with_always_load(true);
    /// assert!(invoices.always_load());
    /// assert!(!invoices.with_always_load(false).always_load());
    /// ```
    pub fn with_always_load(mut self, always: bool) -> Tool {
        self.def_mut().always_load = always;
        self
    }

    /// The most characters of a result a host should accept from the tool, if set
    /// (`#[tool(max_result_chars = ...)]`), sent as `_meta["anthropic/maxResultSizeChars"]`.
    /// The server also answers with no more: see [`Tool::with_max_result_chars`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Lists the account's open invoices.
    /// #[tool(max_result_chars = 200_000)]
    /// fn list_invoices() -> String { String::new() }
    ///
    /// let invoices = tools![list_invoices].remove(0);
    /// assert_eq!(invoices.max_result_chars(), Some(200_000));
    /// assert_eq!(invoices.result_budget(), Some(200_000));
    /// ```
    pub fn max_result_chars(&self) -> Option<usize> {
        self.def.max_result_chars
    }

    /// Sets how many characters of a result hosts should accept, linking nothing (see
    /// `Tool::with_max_result_chars`, which links the spilling).
    pub(crate) fn set_max_result_chars(&mut self, chars: usize) {
        self.def_mut().max_result_chars = Some(clamp_result_chars(chars));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_hints_replace_a_users_entry_of_their_key() {
        let mut meta = json!({"team": "billing", "anthropic/searchHint": "mine"})
            .as_object()
            .cloned();
        insert_hints(&mut meta, false, Some("refund chargeback"), Some(2000));
        assert_eq!(
            Value::Object(meta.unwrap()),
            json!({"team": "billing", "anthropic/searchHint": "refund chargeback", "anthropic/maxResultSizeChars": 2000})
        );
        let mut none = None;
        insert_hints(&mut none, false, None, None);
        assert_eq!(none, None, "no hint, no `_meta`");
        insert_hints(&mut none, true, None, None);
        assert_eq!(
            Value::Object(none.unwrap()),
            json!({"anthropic/alwaysLoad": true})
        );
    }

    #[test]
    fn the_budget_is_the_smaller_never_under_the_least() {
        assert_eq!(own_budget(None, None), None);
        assert_eq!(own_budget(Some(50_000), None), Some(50_000));
        assert_eq!(own_budget(None, Some(2000)), Some(2000));
        assert_eq!(own_budget(Some(50_000), Some(2000)), Some(2000));
        assert_eq!(own_budget(Some(4096), Some(200_000)), Some(4096));
        assert_eq!(own_budget(None, Some(1)), Some(MIN_RESULT_BUDGET));
        assert_eq!(own_budget(Some(4096), Some(10)), Some(MIN_RESULT_BUDGET));
        assert_eq!(clamp_result_chars(0), 1);
        assert_eq!(clamp_result_chars(usize::MAX), MAX_RESULT_CHARS);
    }
}
