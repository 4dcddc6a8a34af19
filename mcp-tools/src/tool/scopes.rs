//! The OAuth scopes a tool needs (`#[tool(scopes("notes:write"))]`, [`Tool::with_scopes`]),
//! and what happens to a caller whose token lacks them ([`ScopePolicy`]).
//!
//! Scopes are checked against the [`Principal`] the transport established: over HTTP with
//! `Server::oauth` (feature `oauth`) or [`Server::bearer_auth`](crate::Server::bearer_auth).
//! Where there is no principal (stdio, HTTP without authorization) nothing is checked: the
//! caller is whoever started the server.

use super::Tool;
use crate::context::Principal;

/// What a caller whose token lacks a tool's scopes gets; set with
/// `Server::scope_policy` (feature `http`).
///
/// - [`Challenge`](ScopePolicy::Challenge) (the default): the tool is listed, and calling
///   it answers HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
///   scope="<the tool's scopes>", resource_metadata="..."`, so the client can ask the
///   authorization server for more (step-up authorization) and call again.
/// - [`Hide`](ScopePolicy::Hide): the tool is not listed for that caller, and calling it is
///   an unknown tool, as [`Server::tool_visibility`](crate::Server::tool_visibility) does.
///
/// ```
/// use mcp_toolkit::{tool::ScopePolicy, Server};
///
/// assert_eq!(ScopePolicy::default(), ScopePolicy::Challenge);
/// let server = Server::new("notes", "1.0.0").scope_policy(ScopePolicy::Hide);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScopePolicy {
    /// List the tool; refuse a call with 403 and a step-up challenge.
    #[default]
    Challenge,
    /// Neither list the tool nor let it be called.
    Hide,
}

impl Tool {
    /// The scopes a caller's token must all hold to call the tool (none: anyone may).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Deletes a note.
    /// #[tool(scopes("notes:write", "notes:delete"))]
    /// fn delete_note(id: u32) -> String { format!("deleted {id}") }
    ///
    /// let tool = tools![delete_note].remove(0);
    /// assert_eq!(tool.scopes(), ["notes:write", "notes:delete"]);
    /// ```
    pub fn scopes(&self) -> &[String] {
        &self.def.scopes
    }

    /// Sets the scopes a caller's token must all hold to call the tool, replacing those it
    /// had. Each is one scope token (no spaces or quotes), as the authorization server
    /// issues it; they are compared exactly.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, auth::Principal};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let add = tools![add].remove(0).with_scopes(["math:use"]);
    /// assert_eq!(add.scopes(), ["math:use"]);
    /// assert!(add.allows(&Principal::new("ada").with_scopes(["math:use", "other"])));
    /// assert!(!add.allows(&Principal::new("bob")));
    /// ```
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Tool {
        let mut all: Vec<String> = Vec::new();
        for scope in scopes.into_iter().map(Into::into) {
            if !all.contains(&scope) {
                all.push(scope);
            }
        }
        self.def_mut().scopes = all;
        self
    }

    /// Whether `caller`'s token holds every scope the tool needs.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, auth::Principal};
    ///
    /// /// Deletes a note.
    /// #[tool(scopes("notes:write"))]
    /// fn delete_note(id: u32) -> String { format!("deleted {id}") }
    ///
    /// let tool = tools![delete_note].remove(0);
    /// assert!(tool.allows(&Principal::new("ada").with_scopes(["notes:write"])));
    /// assert!(!tool.allows(&Principal::new("bob").with_scopes(["notes:read"])));
    /// ```
    pub fn allows(&self, caller: &Principal) -> bool {
        self.def.scopes.iter().all(|scope| caller.has_scope(scope))
    }
}
