//! The tools a server offers while it runs: [`ToolRegistry`] adds, removes, enables and
//! disables them, and every change reaches connected clients as
//! `notifications/tools/list_changed`.
//!
//! Readers never lock: each change publishes a new immutable [`Snapshot`], which finds a
//! tool by name in constant time and encodes its `tools/list` pages once per protocol
//! revision.

use crate::ToolError;
use crate::context::{Context, FromContext};
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
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
    shared: Arc<Shared>,
}

struct Shared {
    /// All tools, enabled or not, in registration order. Writers hold this lock.
    entries: Mutex<Vec<Entry>>,
    /// The enabled tools as clients see them, republished on every change.
    snapshot: watch::Sender<Arc<Snapshot>>,
}

struct Entry {
    tool: Tool,
    enabled: bool,
}

impl ToolRegistry {
    pub(crate) fn new() -> ToolRegistry {
        let (snapshot, _) = watch::channel(Arc::new(Snapshot::new(Vec::new())));
        ToolRegistry {
            shared: Arc::new(Shared {
                entries: Mutex::new(Vec::new()),
                snapshot,
            }),
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
        self.change(|entries| {
            if entries.iter().any(|e| e.tool.name() == tool.name()) {
                return Err(DefinitionError::DuplicateName(tool.name().to_owned()));
            }
            entries.push(Entry { tool, enabled: true });
            Ok(())
        })
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
        self.change(|entries| {
            let index = entries.iter().position(|e| e.tool.name() == name)?;
            Some(entries.remove(index).tool)
        })
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
        self.change(
            |entries| match entries.iter_mut().find(|e| e.tool.name() == name) {
                Some(entry) => {
                    entry.enabled = enabled;
                    true
                }
                None => false,
            },
        )
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
        self.snapshot().tools.clone()
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

    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        self.shared.snapshot.borrow().clone()
    }

    /// Completes on the next change, for `list_changed` notifications.
    pub(crate) fn watch(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.shared.snapshot.subscribe()
    }

    /// Applies a change and publishes the new snapshot when the tool list changed.
    fn change<R>(&self, edit: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
        let mut entries = self.shared.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let before: Vec<(String, bool)> = entries
            .iter()
            .map(|e| (e.tool.name().to_owned(), e.enabled))
            .collect();
        let result = edit(&mut entries);
        let after: Vec<(String, bool)> = entries
            .iter()
            .map(|e| (e.tool.name().to_owned(), e.enabled))
            .collect();
        if before != after {
            let enabled = entries
                .iter()
                .filter(|e| e.enabled)
                .map(|e| e.tool.clone())
                .collect();
            self.shared
                .snapshot
                .send_replace(Arc::new(Snapshot::new(enabled)));
        }
        result
    }
}

impl FromContext for ToolRegistry {
    fn from_context(cx: &Context) -> Result<Self, ToolError> {
        cx.registry()
            .cloned()
            .ok_or_else(|| ToolError::new("this call is not served by a server with a tool registry"))
    }
}

/// The enabled tools at one moment, with what serving them needs precomputed.
pub(crate) struct Snapshot {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    /// Each tool's definition encoded for each revision, on first use.
    encoded: [OnceLock<Vec<Box<RawValue>>>; ProtocolVersion::ALL.len()],
    /// The whole list as one page, for each revision, on first use.
    whole: [OnceLock<String>; ProtocolVersion::ALL.len()],
}

impl Snapshot {
    fn new(tools: Vec<Tool>) -> Snapshot {
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name().to_owned(), i))
            .collect();
        Snapshot {
            tools,
            by_name,
            encoded: Default::default(),
            whole: Default::default(),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    pub(crate) fn len(&self) -> usize {
        self.tools.len()
    }

    pub(crate) fn tool(&self, index: usize) -> &Tool {
        &self.tools[index]
    }

    /// The definitions of the tools at `indices`, as a JSON array, for this revision.
    pub(crate) fn select(&self, version: ProtocolVersion, indices: &[usize]) -> String {
        let index = ProtocolVersion::ALL
            .iter()
            .position(|v| *v == version)
            .unwrap_or(0);
        let encoded = self.encoded(index, version);
        join(indices.iter().map(|&i| &*encoded[i]))
    }

    fn encoded(&self, index: usize, version: ProtocolVersion) -> &[Box<RawValue>] {
        self.encoded[index].get_or_init(|| {
            self.tools
                .iter()
                .map(|tool| serde_json::value::to_raw_value(&tool.definition(version)).unwrap_or_default())
                .collect()
        })
    }

    /// The definitions of tools `range`, as a JSON array, for this revision. The whole list
    /// is encoded once and then borrowed.
    pub(crate) fn page(&self, version: ProtocolVersion, range: std::ops::Range<usize>) -> Cow<'_, str> {
        let index = ProtocolVersion::ALL
            .iter()
            .position(|v| *v == version)
            .unwrap_or(0);
        if range == (0..self.tools.len()) {
            return Cow::Borrowed(self.whole[index].get_or_init(|| self.join(index, version, range)));
        }
        Cow::Owned(self.join(index, version, range))
    }

    fn join(&self, index: usize, version: ProtocolVersion, range: std::ops::Range<usize>) -> String {
        join(self.encoded(index, version)[range].iter().map(|t| &**t))
    }
}

/// `[a,b,...]` from encoded definitions.
fn join<'a>(tools: impl Iterator<Item = &'a RawValue>) -> String {
    let mut out = String::from("[");
    for (i, tool) in tools.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(tool.get());
    }
    out.push(']');
    out
}
