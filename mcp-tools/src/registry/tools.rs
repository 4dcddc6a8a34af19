//! The tools a server offers while it runs: [`ToolRegistry`] adds, removes, enables and
//! disables them, and every change reaches connected clients as
//! `notifications/tools/list_changed`. It is the tool kind of the generic
//! [`Catalog`](super::catalog::Catalog).

use super::catalog::Item;
use super::handle::Registry;
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;
use serde_json::Value;

impl Item for Tool {
    fn key(&self) -> &str {
        self.name()
    }

    fn definition(&self, version: ProtocolVersion) -> Value {
        Tool::definition(self, version)
    }
}

/// A handle on a server's tools, for changing them while it serves; from
/// [`Server::tool_registry`](crate::Server::tool_registry). Cheap to clone; a tool can take one as a
/// parameter, since it implements [`FromContext`](crate::FromContext).
///
/// Every change that alters the list reaches connected clients as
/// `notifications/tools/list_changed` (revision 2026-07-28: on their `subscriptions/listen`
/// streams).
///
/// ```
/// use mcp_toolkit::{tool, tools, Server, registry::ToolRegistry};
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
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let mut server = Server::new("files", "1.0.0").tools(tools![unlock, empty_trash]);
/// server.tool_registry().set_enabled("empty_trash", false);
/// let client = server.test_client()?;
/// assert_eq!(client.list_tools().await?.len(), 1);
///
/// client.call("unlock", json!({})).await?;
/// assert_eq!(client.list_tools().await?.len(), 2);
/// # Ok(())
/// # }
/// ```
pub type ToolRegistry = Registry<Tool>;

impl Registry<Tool> {
    /// Adds a tool, enabled; its name must be new, and its parameters mirrored into headers
    /// valid (see [`Tool::with_header`](crate::Tool::with_header)).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, registry::DefinitionError, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tool_registry();
    /// registry.add(tools![hello].remove(0)).unwrap();
    /// assert_eq!(registry.tools()[0].name(), "hello");
    ///
    /// let again = registry.add(tools![hello].remove(0));
    /// assert_eq!(again, Err(DefinitionError::DuplicateName("hello".into())));
    /// ```
    pub fn add(&self, tool: Tool) -> Result<(), DefinitionError> {
        if let Some(error) = tool.header_error() {
            return Err(error);
        }
        self.add_item(tool)
            .map_err(|tool| DefinitionError::DuplicateName(tool.name().to_owned()))
    }

    /// The enabled tools, in registration order.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Says goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello, goodbye]).tool_registry();
    /// registry.set_enabled("hello", false);
    /// let tools = registry.tools();
    /// let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    /// assert_eq!(names, ["goodbye"]);
    /// ```
    pub fn tools(&self) -> Vec<Tool> {
        self.items()
    }
}
