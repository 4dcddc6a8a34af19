//! The tools a server offers while it runs: [`ToolRegistry`] adds, removes, enables and
//! disables them, and every change reaches connected clients as
//! `notifications/tools/list_changed`. It is the tool kind of the generic
//! [`Catalog`](super::catalog::Catalog).

use super::catalog::{Catalog, Item, Snapshot};
use crate::context::{Context, FromContext};
use crate::error::{DefinitionError, ToolError};
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::watch;

/// A handle on a server's tools, for changing them while it serves; from
/// [`Server::registry`](crate::Server::registry). Cheap to clone; a tool can take one as a
/// parameter, since it implements [`FromContext`].
///
/// Every change that alters the list reaches connected clients as
/// `notifications/tools/list_changed` (revision 2026-07-28: on their `subscriptions/listen`
/// streams).
///
/// ```
/// use mcp_tools::{tool, tools, Server, ToolRegistry};
/// use serde_json::json;
///
/// /// Deletes everything in the trash.
/// #[tool(annotations(destructive))]
/// fn empty_trash() -> &'static str { "emptied" }
///
/// /// Makes the tools that need care callable.
/// #[tool]
/// fn unlock(registry: ToolRegistry) -> &'static str {
///     registry.set_enabled("empty_trash", true);
///     "unlocked"
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_tools::ClientError> {
/// let server = Server::new("files", "1.0.0").tools(tools![unlock, empty_trash]);
/// server.registry().set_enabled("empty_trash", false);
/// let client = server.test_client()?;
/// assert_eq!(client.list_tools().await?.len(), 1);
///
/// client.call("unlock", json!({})).await?;
/// assert_eq!(client.list_tools().await?.len(), 2);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ToolRegistry {
    catalog: Catalog<Tool>,
}

impl Item for Tool {
    fn key(&self) -> &str {
        self.name()
    }

    fn definition(&self, version: ProtocolVersion) -> Value {
        Tool::definition(self, version)
    }
}

impl ToolRegistry {
    pub(crate) fn new() -> ToolRegistry {
        ToolRegistry {
            catalog: Catalog::new(),
        }
    }

    /// Adds a tool, enabled; its name must be new.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, DefinitionError, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").registry();
    /// registry.add(tools![hello].remove(0)).unwrap();
    /// assert_eq!(registry.tools()[0].name(), "hello");
    ///
    /// let again = registry.add(tools![hello].remove(0));
    /// assert_eq!(again, Err(DefinitionError::DuplicateName("hello".into())));
    /// ```
    pub fn add(&self, tool: Tool) -> Result<(), DefinitionError> {
        self.catalog
            .add(tool)
            .map_err(|tool| DefinitionError::DuplicateName(tool.name().to_owned()))
    }

    /// Removes a tool by name, enabled or not, returning it; `None` when there is no such
    /// tool.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).registry();
    /// let removed = registry.remove("hello").unwrap();
    /// assert_eq!(removed.name(), "hello");
    /// assert!(registry.remove("hello").is_none());
    /// assert!(registry.tools().is_empty());
    /// ```
    pub fn remove(&self, name: &str) -> Option<Tool> {
        self.catalog.remove(name)
    }

    /// Enables or disables a tool: a disabled tool is neither listed nor callable, but stays
    /// registered. Returns whether the tool exists.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).registry();
    /// assert!(registry.set_enabled("hello", false));
    /// assert!(registry.get("hello").is_none());
    /// assert!(registry.set_enabled("hello", true));
    /// assert!(registry.get("hello").is_some());
    /// assert!(!registry.set_enabled("goodbye", true)); // no such tool
    /// ```
    pub fn set_enabled(&self, name: &str, enabled: bool) -> bool {
        self.catalog.set_enabled(name, enabled)
    }

    /// The enabled tools, in registration order.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Says goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello, goodbye]).registry();
    /// registry.set_enabled("hello", false);
    /// let tools = registry.tools();
    /// let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    /// assert_eq!(names, ["goodbye"]);
    /// ```
    pub fn tools(&self) -> Vec<Tool> {
        self.snapshot().items().to_vec()
    }

    /// Finds an enabled tool by name.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).registry();
    /// assert_eq!(registry.get("hello").unwrap().description(), Some("Says hello."));
    /// assert!(registry.get("goodbye").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<Tool> {
        self.snapshot().get(name).cloned()
    }

    /// The enabled tools at this moment.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot<Tool>> {
        self.catalog.snapshot()
    }

    /// Completes on the next change, for `list_changed` notifications.
    pub(crate) fn watch(&self) -> watch::Receiver<Arc<Snapshot<Tool>>> {
        self.catalog.watch()
    }
}

impl FromContext for ToolRegistry {
    fn from_context(cx: &Context) -> Result<Self, ToolError> {
        cx.service::<ToolRegistry>()
            .map(|registry| (*registry).clone())
            .ok_or_else(|| ToolError::new("this call is not served by a server with a tool registry"))
    }
}
