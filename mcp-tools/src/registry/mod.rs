//! What a server offers while it runs, changed at run time: each kind has a [`Registry`]
//! handle, [`ToolRegistry`], [`PromptRegistry`] and [`ResourceRegistry`], taken from the
//! server before it serves ([`Server::tool_registry`](crate::Server::tool_registry) and its
//! siblings). Adding, removing, enabling and disabling an item tells the clients with the
//! kind's `list_changed` notification. [`DefinitionError`] says why a definition was refused.

// One generic catalog (`catalog::Catalog`: registration order, enabling, lock-free
// snapshots encoded once per revision, change notifications) under each kind's handle.
pub(crate) mod catalog;
mod handle;
mod prompts;
mod resources;
mod tools;

pub use crate::error::DefinitionError;
pub use handle::Registry;
pub use prompts::PromptRegistry;
pub use resources::ResourceRegistry;
pub use tools::ToolRegistry;
