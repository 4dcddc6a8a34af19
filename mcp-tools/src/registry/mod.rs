//! What a server offers while it runs, kept in catalogs that clients list and that change
//! at run time: one generic [`Catalog`](catalog::Catalog) (registration order, enabling,
//! lock-free snapshots encoded once per revision, change notifications) and, on top of it,
//! each kind's public handle, a [`Registry`]: [`ToolRegistry`], [`PromptRegistry`] (resources
//! next).

pub(crate) mod catalog;
mod handle;
mod prompts;
mod resources;
mod tools;

pub use handle::Registry;
pub use prompts::PromptRegistry;
pub use resources::ResourceRegistry;
pub use tools::ToolRegistry;
