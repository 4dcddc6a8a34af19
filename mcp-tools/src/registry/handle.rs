//! The handle on one kind of a server's items, for changing them while it serves:
//! [`Registry<T>`], which is [`ToolRegistry`](super::ToolRegistry) for tools and
//! [`PromptRegistry`](super::PromptRegistry) for prompts.

use super::catalog::{Catalog, Item, Snapshot};
use crate::context::{Context, FromContext};
use crate::error::ToolError;
use std::fmt;
use std::sync::Arc;
use tokio::sync::{broadcast, watch};

/// How many announcements of changed items a slow listener may fall behind by before it
/// misses some (it is then told every item it watches changed).
const UPDATES_BUFFERED: usize = 256;

/// A handle on one kind of a server's items (its tools, its prompts), for changing them
/// while it serves. Cheap to clone; a tool can take one as a parameter, since it
/// implements [`FromContext`]. Every change that alters the list reaches connected clients
/// as the kind's `list_changed` notification.
pub struct Registry<T: Item> {
    catalog: Catalog<T>,
    /// Announcements that one item's contents changed, by key (resources: by URI).
    updates: broadcast::Sender<Arc<str>>,
}

impl<T: Item> Clone for Registry<T> {
    fn clone(&self) -> Self {
        Registry {
            catalog: self.catalog.clone(),
            updates: self.updates.clone(),
        }
    }
}

impl<T: Item> fmt::Debug for Registry<T> {
    /// The keys (names, URIs) of the items enabled now.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let snapshot = self.catalog.snapshot();
        f.debug_struct("Registry")
            .field(
                "enabled",
                &snapshot.items().iter().map(Item::key).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<T: Item> Registry<T> {
    /// An empty registry.
    pub(crate) fn new() -> Registry<T> {
        Registry {
            catalog: Catalog::new(),
            updates: broadcast::channel(UPDATES_BUFFERED).0,
        }
    }

    /// Adds an item, enabled; `Err` gives it back when its name is taken.
    pub(crate) fn add_item(&self, item: T) -> Result<(), T> {
        self.catalog.add(item)
    }

    /// Adds items, enabled, with one change for them all; gives back those whose name was
    /// taken.
    pub(crate) fn add_items(&self, items: impl IntoIterator<Item = T>) -> Vec<T> {
        self.catalog.add_all(items)
    }

    /// Removes an item by name, enabled or not, returning it; `None` when there is none.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).tool_registry();
    /// let removed = registry.remove("hello").unwrap();
    /// assert_eq!(removed.name(), "hello");
    /// assert!(registry.remove("hello").is_none());
    /// assert!(registry.tools().is_empty());
    /// ```
    pub fn remove(&self, name: &str) -> Option<T> {
        self.catalog.remove(name)
    }

    /// Enables or disables an item: a disabled item is neither listed nor usable, but stays
    /// registered. Returns whether the item exists.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).tool_registry();
    /// assert!(registry.set_enabled("hello", false));
    /// assert!(registry.get("hello").is_none());
    /// assert!(registry.set_enabled("hello", true));
    /// assert!(registry.get("hello").is_some());
    /// assert!(!registry.set_enabled("goodbye", true)); // no such tool
    /// ```
    pub fn set_enabled(&self, name: &str, enabled: bool) -> bool {
        self.catalog.set_enabled(name, enabled)
    }

    /// Finds an enabled item by name.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let registry = Server::new("greeter", "1.0.0").tools(tools![hello]).tool_registry();
    /// assert_eq!(registry.get("hello").unwrap().description(), Some("Says hello."));
    /// assert!(registry.get("goodbye").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<T> {
        self.snapshot().get(name).cloned()
    }

    /// The enabled items, in registration order.
    pub(crate) fn items(&self) -> Vec<T> {
        self.snapshot().items().to_vec()
    }

    /// The enabled items at this moment.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot<T>> {
        self.catalog.snapshot()
    }

    /// Completes on the next change, for `list_changed` notifications.
    pub(crate) fn watch(&self) -> watch::Receiver<Arc<Snapshot<T>>> {
        self.catalog.watch()
    }

    /// Announces that the contents behind `key` changed, to whoever listens now.
    pub(crate) fn announce_update(&self, key: &str) {
        // No receiver means no one subscribed: nothing to tell.
        let _ = self.updates.send(Arc::from(key));
    }

    /// The announcements of changed contents from now on.
    pub(crate) fn updates(&self) -> broadcast::Receiver<Arc<str>> {
        self.updates.subscribe()
    }
}

impl<T: Item> FromContext for Registry<T> {
    type Rejection = ToolError;

    fn from_context(cx: &Context) -> Result<Self, Self::Rejection> {
        cx.service::<Registry<T>>()
            .map(|registry| (*registry).clone())
            .ok_or_else(|| ToolError::new("this call is not served by a server with this registry"))
    }
}
