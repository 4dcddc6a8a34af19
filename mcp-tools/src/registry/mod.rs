//! What a server offers while it runs, changed at run time: each kind has a [`Registry`]
//! handle, [`ToolRegistry`], [`PromptRegistry`] and [`ResourceRegistry`], taken from the
//! server before it serves ([`Server::tool_registry`](crate::Server::tool_registry) and its
//! siblings). Adding, removing, enabling and disabling an item tells the clients with the
//! kind's `list_changed` notification. [`DefinitionError`] says why a definition was refused
//! (with [`NameError`] for a name that breaks the specification's rule, [`GroupError`] for a
//! tool's group that breaks its own).

// One generic catalog (`catalog::Catalog`: registration order, enabling, lock-free
// snapshots encoded once per revision, change notifications) under each kind's handle.
pub(crate) mod catalog;
mod handle;
mod prompts;
mod resources;
mod tools;

pub use crate::error::{DefinitionError, HeaderError};
pub use handle::Registry;
/// The part of the header name rule an `x-mcp-header` breaks, held by
/// [`HeaderError::Name`]: an HTTP token (RFC 9110, section 5.1) of one or more ASCII
/// letters, digits and ``!#$%&'*+-.^_`|~``.
///
/// ```
/// use mcp_toolkit::Tool;
/// use mcp_toolkit::registry::{DefinitionError, HeaderError, HeaderNameError};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"region": {"type": "string"}}});
/// let tool = Tool::from_json("deploy", "Deploys.", schema, |_, _| async { "" }).unwrap();
/// let Err(DefinitionError::InvalidHeader { error: HeaderError::Name { error, .. }, .. }) = tool.with_header("region", "Cloud Region") else { panic!() };
/// assert_eq!(error, HeaderNameError::Characters { name: "Cloud Region".into(), characters: vec![' '] });
/// ```
#[doc(inline)]
pub use mcp_toolkit_core::header::HeaderNameError;
/// The part of the group rule a tool's group breaks, held by
/// [`DefinitionError::InvalidGroup`]: 1 to 64 characters, each of `A-Z a-z 0-9 _ -`.
///
/// ```
/// use mcp_toolkit::Tool;
/// use mcp_toolkit::registry::{DefinitionError, GroupError};
/// use serde_json::json;
///
/// let tool = Tool::from_json("refund", "Refunds.", json!({"type": "object"}), |_, _| async { "" }).unwrap();
/// let Err(DefinitionError::InvalidGroup { error, .. }) = tool.with_group("") else { panic!() };
/// assert_eq!(error, GroupError::Empty);
/// ```
#[doc(inline)]
pub use mcp_toolkit_core::name::GroupError;
/// The part of the specification's name rule a tool or prompt name breaks, held by
/// [`DefinitionError::InvalidName`]: 1 to 128 characters, each of `A-Z a-z 0-9 _ - .`.
///
/// ```
/// use mcp_toolkit::registry::{DefinitionError, NameError};
/// use mcp_toolkit::tool::validate_tool_name;
///
/// let Err(DefinitionError::InvalidName { error, .. }) = validate_tool_name(&"x".repeat(200)) else { panic!() };
/// assert_eq!(error, NameError::TooLong { len: 200 });
/// assert_eq!(error.to_string(), "name is 200 characters long; a name has at most 128 characters");
/// ```
#[doc(inline)]
pub use mcp_toolkit_core::name::NameError;
pub use prompts::PromptRegistry;
pub use resources::ResourceRegistry;
pub use tools::ToolRegistry;
