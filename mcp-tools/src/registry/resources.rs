//! The resources a server offers while it runs: [`ResourceRegistry`] adds, removes,
//! enables and disables them, and every change reaches connected clients as
//! `notifications/resources/list_changed`.

use super::catalog::Item;
use super::handle::Registry;
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
use crate::resource::Resource;
use serde_json::Value;

impl Item for Resource {
    fn key(&self) -> &str {
        self.uri()
    }

    fn definition(&self, version: ProtocolVersion) -> Value {
        Resource::definition(self, version)
    }
}

/// A handle on a server's resources and resource templates, for changing them while it
/// serves; from [`Server::resource_registry`](crate::Server::resource_registry). It works
/// as the [`ToolRegistry`](crate::ToolRegistry) does; items are known by their URI (or
/// URI template), and clients are told of changes with
/// `notifications/resources/list_changed`.
pub type ResourceRegistry = Registry<Resource>;

impl Registry<Resource> {
    /// Adds a resource, enabled; its URI must be new.
    pub fn add(&self, resource: Resource) -> Result<(), DefinitionError> {
        self.add_item(resource)
            .map_err(|resource| DefinitionError::DuplicateResourceUri(resource.uri().to_owned()))
    }

    /// The enabled resources and templates, in registration order.
    pub fn resources(&self) -> Vec<Resource> {
        self.items()
    }
}
