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
/// as the [`ToolRegistry`](crate::registry::ToolRegistry) does; items are known by their URI (or
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

    /// Tells the clients subscribed to `uri` that its contents changed, so they read it
    /// again: `notifications/resources/updated` to each legacy session that sent
    /// `resources/subscribe` for it, and on each 2026-07-28 `subscriptions/listen` stream
    /// whose `resourceSubscriptions` name it. The URI is compared as written, and may be
    /// one a template matches (`notes://3` for `notes://{id}`). Clients that subscribed to
    /// nothing hear nothing; the call never waits.
    ///
    /// A tool that changes what a resource reads takes the registry as a parameter:
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, tool, tools, registry::ResourceRegistry, Server, State};
    /// use std::sync::Mutex;
    ///
    /// /// The motto of the day.
    /// #[resource(uri = "motto://today", mime_type = "text/plain")]
    /// fn motto(current: State<Mutex<String>>) -> String {
    ///     current.lock().unwrap().clone()
    /// }
    ///
    /// /// Change the motto of the day.
    /// #[tool]
    /// fn set_motto(
    ///     /// The new motto
    ///     motto: String,
    ///     current: State<Mutex<String>>,
    ///     resources: ResourceRegistry,
    /// ) -> &'static str {
    ///     *current.lock().unwrap() = motto;
    ///     resources.notify_updated("motto://today");
    ///     "changed"
    /// }
    ///
    /// let server = Server::new("mottos", "1.0.0")
    ///     .state(Mutex::new("carpe diem".to_owned()))
    ///     .tools(tools![set_motto])
    ///     .resources(resources![motto]);
    /// ```
    pub fn notify_updated(&self, uri: &str) {
        self.announce_update(uri);
    }
}
