//! Hearing what changes on the server without asking each time: [`Client::subscribe`]
//! gives a [`Subscription`], a stream of [`Change`]s that lives until it is dropped.
//!
//! - In 2026-07-28 it is one `subscriptions/listen` request that stays open: the server
//!   acknowledges what it agrees to, then sends each change tagged with the request's id.
//!   Dropping the subscription cancels the request (`notifications/cancelled`; over HTTP
//!   its event stream is closed too).
//! - Up to 2025-11-25 a session hears every list change, and the updates of the resources
//!   it named with `resources/subscribe`, outside any request: the subscription reads them
//!   from the client's feed. Dropping it sends `resources/unsubscribe` for each URI no
//!   other subscription of the client's still watches.
//!
//! Either way, what arrives waits in a ring of [`BACKLOG`] changes for the reader: a
//! server that sends faster than the reader takes has the oldest dropped, and the reader
//! is told how many with [`Change::Missed`] before it reads what was kept.

use super::link::Link;
use super::ring::{Ring, Taken};
use super::{Client, ClientError, lock};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::broadcast::error::RecvError;

/// The most changes a subscription holds for a reader that falls behind.
pub(super) const BACKLOG: usize = 1024;

/// What a [`Subscription`] listens to: list changes of tools, prompts and resources, and
/// updates of resources by URI. What the server agreed to is
/// [`Subscription::agreed`], in the same terms.
///
/// ```
/// use mcp_toolkit::client::Topics;
///
/// let topics = Topics::new().tools().resource("notes://all").resource("notes://all");
/// assert!(topics.hears_tools() && !topics.hears_prompts());
/// assert_eq!(topics.resource_uris(), ["notes://all"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Topics {
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: Vec<String>,
}

impl Topics {
    /// Nothing yet.
    pub fn new() -> Topics {
        Topics::default()
    }

    /// Changes of the tool list (`notifications/tools/list_changed`).
    pub fn tools(mut self) -> Topics {
        self.tools = true;
        self
    }

    /// Changes of the prompt list (`notifications/prompts/list_changed`).
    pub fn prompts(mut self) -> Topics {
        self.prompts = true;
        self
    }

    /// Changes of the resource list and of the resource templates
    /// (`notifications/resources/list_changed`).
    pub fn resources(mut self) -> Topics {
        self.resources = true;
        self
    }

    /// Updates of the resource at `uri` (`notifications/resources/updated`); a URI given
    /// twice counts once.
    pub fn resource(mut self, uri: impl Into<String>) -> Topics {
        let uri = uri.into();
        if !self.uris.contains(&uri) {
            self.uris.push(uri);
        }
        self
    }

    /// Whether changes of the tool list are heard.
    pub fn hears_tools(&self) -> bool {
        self.tools
    }

    /// Whether changes of the prompt list are heard.
    pub fn hears_prompts(&self) -> bool {
        self.prompts
    }

    /// Whether changes of the resource list are heard.
    pub fn hears_resources(&self) -> bool {
        self.resources
    }

    /// The resources whose updates are heard.
    pub fn resource_uris(&self) -> &[String] {
        &self.uris
    }

    /// The `notifications` filter of `subscriptions/listen`.
    fn filter(&self) -> Value {
        let mut filter = serde_json::Map::new();
        for (asked, key) in [
            (self.tools, "toolsListChanged"),
            (self.prompts, "promptsListChanged"),
            (self.resources, "resourcesListChanged"),
        ] {
            if asked {
                filter.insert(key.to_owned(), Value::Bool(true));
            }
        }
        if !self.uris.is_empty() {
            filter.insert("resourceSubscriptions".to_owned(), json!(self.uris));
        }
        Value::Object(filter)
    }

    /// What an acknowledgment's `notifications` agreed to.
    fn agreed(filter: &Value) -> Topics {
        let uris = filter["resourceSubscriptions"]
            .as_array()
            .map(|uris| uris.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        Topics {
            tools: filter["toolsListChanged"] == true,
            prompts: filter["promptsListChanged"] == true,
            resources: filter["resourcesListChanged"] == true,
            uris,
        }
    }

    /// Whether `note` is one of these topics.
    fn covers(&self, note: &Value) -> bool {
        match Change::read(note) {
            Some(Change::ToolList) => self.tools,
            Some(Change::PromptList) => self.prompts,
            Some(Change::ResourceList) => self.resources,
            Some(Change::Resource { uri }) => self.uris.contains(&uri),
            _ => false,
        }
    }
}

/// What a [`Subscription`] tells; the example on [`Client::subscribe`] reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// The tool list changed: list it again.
    ToolList,
    /// The prompt list changed.
    PromptList,
    /// The resource list (or the templates) changed.
    ResourceList,
    /// The resource at `uri` changed: read it again.
    Resource {
        /// The resource's URI, as subscribed to.
        uri: String,
    },
    /// The reader fell behind and `count` notifications were dropped, the oldest first:
    /// anything it listens to may have changed meanwhile. Over a legacy session's feed the
    /// count takes in notifications of every kind, not only those listened to.
    Missed {
        /// How many were dropped.
        count: u64,
    },
}

impl Change {
    /// The change a notification tells, if it tells one.
    fn read(note: &Value) -> Option<Change> {
        Some(match note["method"].as_str()? {
            "notifications/tools/list_changed" => Change::ToolList,
            "notifications/prompts/list_changed" => Change::PromptList,
            "notifications/resources/list_changed" => Change::ResourceList,
            "notifications/resources/updated" => Change::Resource {
                uri: note["params"]["uri"].as_str()?.to_owned(),
            },
            _ => return None,
        })
    }
}

/// The changes a server sends, as they come: from [`Client::subscribe`]. A
/// [`Stream`](https://docs.rs/futures-util/0.3/futures_util/stream/trait.Stream.html) of `Result<Change, ClientError>` (feature `http`, on
/// by default), or read with [`next`](Subscription::next).
///
/// It ends (`None`) when the server ends it; an error comes first when it ended for one:
/// [`ClientError::Closed`] when the connection went, [`ClientError::Rpc`] when the server
/// refused it. Dropping it ends it on the server's side too. While it lives it holds the
/// connection open, as a request in flight does, even once its client is dropped.
///
/// At most 1,024 changes wait for the reader; when more come first, the oldest are
/// dropped and the reader reads [`Change::Missed`] before the rest. The client's memory
/// stays bounded whatever the server sends.
///
/// ```
/// use futures_util::StreamExt;
/// use mcp_toolkit::client::{Change, Topics};
/// use mcp_toolkit::{prompt, prompts, Server};
///
/// /// Asks for a haiku.
/// #[prompt]
/// fn haiku() -> String { "Write a haiku.".to_owned() }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::client::ClientError> {
/// let mut server = Server::new("poet", "1.0.0").prompts(prompts![haiku]);
/// let prompts = server.prompt_registry();
/// let client = server.test_client()?;
///
/// let changes = client.subscribe(Topics::new().prompts()).await?;
/// prompts.remove("haiku");
/// let heard: Vec<Change> = changes.take(1).map(Result::unwrap).collect().await;
/// assert_eq!(heard, [Change::PromptList]);
/// # Ok(())
/// # }
/// ```
pub struct Subscription {
    ring: Arc<Ring>,
    agreed: Topics,
    ending: Ending,
    /// The task that hands what arrives to the ring.
    pump: Option<tokio::task::AbortHandle>,
    /// Whether the server ended it: then nothing is left to cancel.
    ended: bool,
}

/// How a subscription goes when it is dropped.
enum Ending {
    /// 2026-07-28: its listen request is cancelled.
    Listen { link: Link, id: i64 },
    /// A legacy session: the URIs it watches are unwatched once nothing else watches them.
    Unwatch {
        link: Link,
        ids: Arc<AtomicI64>,
        watching: Arc<Mutex<HashMap<String, usize>>>,
    },
}

impl fmt::Debug for Subscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let request = match &self.ending {
            Ending::Listen { id, .. } => Some(*id),
            Ending::Unwatch { .. } => None,
        };
        f.debug_struct("Subscription")
            .field("agreed", &self.agreed)
            .field("listen_request", &request)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl Subscription {
    /// What the server agreed to send, of what was asked for: in 2026-07-28 its
    /// acknowledgment; in a legacy session the lists whose changes its capabilities
    /// announce (`listChanged`) and the URIs `resources/subscribe` accepted. What a server
    /// does not support is left out, not refused.
    pub fn agreed(&self) -> &Topics {
        &self.agreed
    }

    /// The next change, when it comes; `None` once the subscription has ended.
    pub async fn next(&mut self) -> Option<Result<Change, ClientError>> {
        std::future::poll_fn(|cx| self.poll_change(cx)).await
    }

    fn poll_change(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Change, ClientError>>> {
        loop {
            let taken = match self.ring.poll_take(cx) {
                Poll::Ready(taken) => taken,
                Poll::Pending => return Poll::Pending,
            };
            return Poll::Ready(match taken {
                Taken::Note(note) => match Change::read(&note) {
                    Some(change) => Some(Ok(change)),
                    // Nothing asked for (a task's status, say): passed over.
                    None => continue,
                },
                Taken::Missed(count) => Some(Ok(Change::Missed { count })),
                Taken::Ended(error) => {
                    self.ended = true;
                    error.map(Err)
                }
            });
        }
    }

    /// Reads up to the acknowledgment of a listen request, which comes first: what the
    /// server agreed to.
    async fn acknowledged(&mut self) -> Result<Topics, ClientError> {
        loop {
            match self.ring.take().await {
                Taken::Note(note) if note["method"] == "notifications/subscriptions/acknowledged" => {
                    return Ok(Topics::agreed(&note["params"]["notifications"]));
                }
                Taken::Note(note) => {
                    tracing::debug!(%note, "a notification came before the listen stream's acknowledgment; passed over");
                }
                Taken::Missed(_) => {}
                Taken::Ended(error) => {
                    self.ended = true;
                    return Err(error.unwrap_or_else(|| ClientError::NoResponse {
                        method: "subscriptions/listen".to_owned(),
                    }));
                }
            }
        }
    }
}

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl futures_util::Stream for Subscription {
    type Item = Result<Change, ClientError>;

    fn poll_next(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_change(cx)
    }
}

/// Dropping a subscription ends it: its listen request is cancelled (2026-07-28), or the
/// resources only it watched are unsubscribed from (legacy revisions).
impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(pump) = &self.pump {
            pump.abort();
        }
        let (link, messages) = match &self.ending {
            Ending::Listen { .. } if self.ended => return,
            Ending::Listen { link, id } => {
                link.forget(*id);
                let cancel = json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": { "requestId": id, "reason": "the client dropped the subscription" },
                });
                (link, vec![(None, cancel)])
            }
            Ending::Unwatch { link, ids, watching } => {
                let unsubscribe = |uri: &String| {
                    let id = ids.fetch_add(1, Ordering::Relaxed);
                    let request = json!({ "jsonrpc": "2.0", "id": id, "method": "resources/unsubscribe", "params": { "uri": uri } });
                    (Some(id), request)
                };
                let last: Vec<&String> = self
                    .agreed
                    .uris
                    .iter()
                    .filter(|uri| unwatch(watching, uri))
                    .collect();
                (link, last.into_iter().map(unsubscribe).collect())
            }
        };
        // Without a runtime nothing can be sent; the connection is going anyway.
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        for (id, message) in messages {
            match id {
                Some(id) => link.send_unanswered(id, &message),
                None => link.send(&message),
            }
        }
    }
}

/// One watcher of `uri` fewer; whether it was the last.
fn unwatch(watching: &Mutex<HashMap<String, usize>>, uri: &str) -> bool {
    let mut watching = lock(watching);
    match watching.get_mut(uri) {
        Some(count) if *count > 1 => {
            *count -= 1;
            false
        }
        Some(_) => {
            watching.remove(uri);
            true
        }
        None => false,
    }
}

impl Client {
    /// Listens to what changes on the server: list changes and updates of resources, as
    /// `topics` asks. Gives a [`Subscription`] once the server has agreed
    /// ([`agreed`](Subscription::agreed) says to what); it yields each [`Change`] as it
    /// arrives, on every transport and in every revision, until it is dropped.
    ///
    /// In 2026-07-28 this is a `subscriptions/listen` request, which stays open; in a
    /// legacy session, a `resources/subscribe` for each URI not yet watched (list changes
    /// come to a legacy session unasked). Each change heard also makes the client's kept
    /// lists stale (see [`list_tools`](Client::list_tools)). A server that refuses the
    /// request fails it with [`ClientError::Rpc`]; one that does not acknowledge it within
    /// the request timeout, with [`ClientError::Timeout`].
    ///
    /// ```
    /// use mcp_toolkit::client::{Change, Topics};
    /// use mcp_toolkit::{resource, resources, tool, tools, Server};
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Every note.
    /// #[resource(uri = "notes://all")]
    /// fn all_notes() -> &'static str { "milk" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::client::ClientError> {
    /// let mut server = Server::new("notes", "1.0.0").tools(tools![hello]).resources(resources![all_notes]);
    /// let (tools, notes) = (server.tool_registry(), server.resource_registry());
    /// let client = server.test_client()?;
    ///
    /// let topics = Topics::new().tools().prompts().resource("notes://all").resource("notes://none");
    /// let mut changes = client.subscribe(topics).await?;
    /// // No prompts to hear of, and no resource at the second URI.
    /// assert_eq!(changes.agreed(), &Topics::new().tools().resource("notes://all"));
    ///
    /// tools.set_enabled("hello", false);
    /// assert_eq!(changes.next().await.unwrap()?, Change::ToolList);
    /// notes.notify_updated("notes://all");
    /// assert_eq!(changes.next().await.unwrap()?, Change::Resource { uri: "notes://all".into() });
    /// drop(changes); // cancels the `subscriptions/listen` request
    /// # Ok(())
    /// # }
    /// ```
    pub async fn subscribe(&self, topics: Topics) -> Result<Subscription, ClientError> {
        let ring = Ring::new(BACKLOG, Some(Arc::clone(&self.cache)));
        if self.version.is_modern() {
            self.listen(topics, ring).await
        } else {
            self.watch(topics, ring).await
        }
    }

    /// Opens a `subscriptions/listen` stream and waits for its acknowledgment.
    async fn listen(&self, topics: Topics, ring: Arc<Ring>) -> Result<Subscription, ClientError> {
        let id = self.next_id();
        let params = self.params(json!({ "notifications": topics.filter() }), None);
        let request =
            json!({ "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params });
        let inbox = self
            .link
            .open(id, &request, Vec::new(), Some(Arc::clone(&ring)))?;
        let conn_id = self.link.conn_id();
        let pumped = Arc::clone(&ring);
        let pump = tokio::spawn(async move {
            // A response ends the stream: a result when the server ended it, an error when
            // it refused it. Cancelled in process, it ends with none.
            let error = match inbox.pump(conn_id, &pumped).await {
                Some(Ok(response)) => response.get("error").map(super::rpc_error),
                Some(Err(error)) => Some(error),
                None => None,
            };
            pumped.close(error);
        });
        let mut subscription = Subscription {
            ring,
            agreed: Topics::default(),
            ending: Ending::Listen {
                link: self.link.clone(),
                id,
            },
            pump: Some(pump.abort_handle()),
            ended: false,
        };
        match tokio::time::timeout(self.timeout, subscription.acknowledged()).await {
            Ok(agreed) => subscription.agreed = agreed?,
            Err(_) => return Err(self.timed_out("subscriptions/listen")),
        }
        Ok(subscription)
    }

    /// A legacy session's subscription: `resources/subscribe` for each URI not yet
    /// watched, and the changes asked for read from the client's feed.
    async fn watch(&self, topics: Topics, ring: Arc<Ring>) -> Result<Subscription, ClientError> {
        // Read from now, so that nothing sent while the URIs are subscribed to is missed.
        let mut feed = self.link.feed();
        let mut subscription = Subscription {
            ring: Arc::clone(&ring),
            agreed: Topics::default(),
            ending: Ending::Unwatch {
                link: self.link.clone(),
                ids: Arc::clone(&self.next_id),
                watching: Arc::clone(&self.watching),
            },
            pump: None,
            ended: false,
        };
        let capabilities = lock(&self.server)["capabilities"].clone();
        let subscribable = capabilities["resources"]["subscribe"] == true;
        for uri in topics.uris.iter().filter(|_| subscribable) {
            let first = {
                let mut watching = lock(&self.watching);
                let count = watching.entry(uri.clone()).or_insert(0);
                *count += 1;
                *count == 1
            };
            // Agreed from here: dropping the subscription (on an error below) unwatches it.
            subscription.agreed.uris.push(uri.clone());
            if !first {
                continue;
            }
            match self.request("resources/subscribe", json!({ "uri": uri })).await {
                Ok(_) => {}
                Err(ClientError::Rpc { message, .. }) => {
                    tracing::debug!(uri, message, "the server refused a resource subscription");
                    subscription.agreed.uris.pop();
                    unwatch(&self.watching, uri);
                }
                Err(error) => return Err(error),
            }
        }
        let announced = |key: &str| capabilities[key]["listChanged"] == true;
        subscription.agreed.tools = topics.tools && announced("tools");
        subscription.agreed.prompts = topics.prompts && announced("prompts");
        subscription.agreed.resources = topics.resources && announced("resources");
        let agreed = subscription.agreed.clone();
        let link = self.link.clone();
        let pump = tokio::spawn(async move {
            let reason = loop {
                let received = tokio::select! {
                    received = feed.recv() => received,
                    reason = link.closed() => break reason,
                };
                match received {
                    Ok(note) if agreed.covers(&note) => ring.push(note),
                    Ok(_) => {}
                    Err(RecvError::Lagged(count)) => ring.missed(count),
                    Err(RecvError::Closed) => {
                        break "the connection's feed of notifications ended".to_owned();
                    }
                }
            };
            // What came before the end is still read first.
            while let Ok(note) = feed.try_recv() {
                if agreed.covers(&note) {
                    ring.push(note);
                }
            }
            ring.close(Some(ClientError::Closed { reason }));
        });
        subscription.pump = Some(pump.abort_handle());
        Ok(subscription)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_make_the_listen_filter_and_read_the_acknowledgment() {
        let topics = Topics::new().prompts().resources().resource("a://1");
        let filter = topics.filter();
        assert_eq!(
            filter,
            json!({"promptsListChanged": true, "resourcesListChanged": true, "resourceSubscriptions": ["a://1"]})
        );
        assert_eq!(Topics::agreed(&filter), topics);
        assert_eq!(Topics::new().filter(), json!({}));
        assert_eq!(Topics::agreed(&json!(null)), Topics::new());
    }

    #[test]
    fn only_the_changes_asked_for_are_covered() {
        let topics = Topics::new().tools().resource("a://1");
        let note = |method: &str, uri: &str| json!({"method": method, "params": {"uri": uri}});
        assert!(topics.covers(&note("notifications/tools/list_changed", "")));
        assert!(topics.covers(&note("notifications/resources/updated", "a://1")));
        assert!(!topics.covers(&note("notifications/resources/updated", "a://2")));
        assert!(!topics.covers(&note("notifications/prompts/list_changed", "")));
        assert!(!topics.covers(&note("notifications/message", "")));
    }

    #[test]
    fn a_subscription_goes_to_another_task_and_its_client_is_shared() {
        fn shared<T: Send + Sync>() {}
        fn sent<T: Send>(_: T) {}
        shared::<Subscription>();
        shared::<Client>();
        let client = crate::Server::new("any", "1.0.0").test_client().unwrap();
        sent(client.subscribe(Topics::new().tools()));
    }

    #[test]
    fn the_last_watcher_of_a_uri_unwatches_it() {
        let watching = Mutex::new(HashMap::from([("a://1".to_owned(), 2)]));
        assert!(!unwatch(&watching, "a://1"));
        assert!(unwatch(&watching, "a://1"));
        assert!(!unwatch(&watching, "a://1"));
    }
}
