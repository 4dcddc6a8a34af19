//! What every list method has in common (`tools/list`, `resources/list`,
//! `resources/templates/list` and `prompts/list`): pages in registration order with
//! opaque cursors, definitions encoded once per revision, per-caller visibility,
//! `ttlMs`/`cacheScope`, and `list_changed` notifications on legacy connections and on
//! modern listen streams.

use crate::engine::state::core::{Auth, Engine, Visibility, sees};
use crate::engine::wire::encode;
use crate::engine::wire::era::Era;
use crate::engine::wire::failure::Failure;
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::Id;
use crate::registry::catalog::{Item, Snapshot};
use base64::Engine as _;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use tokio::sync::watch;

/// How the protocol names one kind of listed item.
#[derive(Debug)]
pub(crate) struct ListKind {
    /// The member of the list result that holds the items.
    pub(crate) key: &'static str,
    /// The notification that the list changed.
    pub(crate) changed: &'static str,
    /// The `subscriptions/listen` filter that asks for those notifications.
    pub(crate) listen_filter: &'static str,
}

/// Tools.
pub(crate) const TOOLS: ListKind = ListKind {
    key: "tools",
    changed: "notifications/tools/list_changed",
    listen_filter: "toolsListChanged",
};

/// Prompts.
pub(crate) const PROMPTS: ListKind = ListKind {
    key: "prompts",
    changed: "notifications/prompts/list_changed",
    listen_filter: "promptsListChanged",
};

/// Resources with a fixed URI.
pub(crate) const RESOURCES: ListKind = ListKind {
    key: "resources",
    changed: "notifications/resources/list_changed",
    listen_filter: "resourcesListChanged",
};

/// Resource templates: listed apart, announced with the resources.
pub(crate) const RESOURCE_TEMPLATES: ListKind = ListKind {
    key: "resourceTemplates",
    changed: "notifications/resources/list_changed",
    listen_filter: "resourcesListChanged",
};

/// What a list request asked for and how the server lists.
pub(crate) struct ListRequest<'a> {
    pub(crate) id: &'a RawValue,
    pub(crate) version: ProtocolVersion,
    pub(crate) modern: bool,
    pub(crate) cursor: Option<&'a str>,
    pub(crate) page_size: Option<usize>,
    pub(crate) ttl_ms: u64,
    /// The server's identity, for modern results.
    pub(crate) identity: &'a RawValue,
}

impl Engine {
    /// A list request as this server lists: its page size, its `ttlMs`, its identity.
    pub(crate) fn list_request<'a>(
        &'a self,
        id: Id<'a>,
        era: &Era,
        cursor: Option<&'a str>,
    ) -> ListRequest<'a> {
        ListRequest {
            id: id.raw,
            version: era.version(),
            modern: era.is_modern(),
            cursor,
            page_size: self.options.limits.page_size,
            ttl_ms: self.options.list_ttl_ms,
            identity: &self.identity,
        }
    }
}

/// One page of the items of a catalog that `caller` may see (all of them, without a
/// visibility rule) and that `select` picks (all, without one), as `request` asks for it.
/// A list that depends on the caller says it is private.
pub(crate) fn list_for<T: Item>(
    kind: &ListKind,
    snapshot: &Snapshot<T>,
    request: &ListRequest<'_>,
    rule: Option<&Arc<Visibility<T>>>,
    caller: Auth<'_>,
    select: Option<&dyn Fn(&T) -> bool>,
) -> Result<Vec<u8>, Failure> {
    let listed = |item: &T| select.is_none_or(|select| select(item)) && sees(rule, item, caller);
    let filtered = rule.is_some() || select.is_some();
    list_page(
        kind,
        snapshot,
        request,
        filtered.then_some(&listed as &dyn Fn(&T) -> bool),
        rule.is_some(),
    )
}

/// One page of a catalog as `request` asks for it, encoded as its response. With a
/// visibility rule the list depends on the caller: only what `visible` allows is listed, and
/// the result says it is private.
pub(crate) fn list_page<T: Item>(
    kind: &ListKind,
    snapshot: &Snapshot<T>,
    request: &ListRequest<'_>,
    visible: Option<&dyn Fn(&T) -> bool>,
    private: bool,
) -> Result<Vec<u8>, Failure> {
    let items = snapshot.items();
    let selected: Option<Vec<usize>> =
        visible.map(|visible| (0..items.len()).filter(|&i| visible(&items[i])).collect());
    let total = selected.as_ref().map_or(items.len(), Vec::len);
    let start = match request.cursor {
        None => 0,
        Some(cursor) => decode_cursor(cursor)
            .filter(|&offset| offset <= total)
            .ok_or_else(|| Failure::invalid_params("Invalid cursor"))?,
    };
    let end = match request.page_size {
        Some(size) => start.saturating_add(size.max(1)).min(total),
        None => total,
    };
    let next = (end < total).then(|| encode_cursor(end));
    let page = match &selected {
        None => snapshot.page(request.version, start..end),
        Some(indices) => Cow::Owned(snapshot.select(request.version, &indices[start..end])),
    };
    let scope = if private { "private" } else { "public" };
    Ok(encode::list_result(
        request.id,
        kind.key,
        &page,
        next.as_deref(),
        request.modern.then_some(request.identity),
        request.ttl_ms,
        scope,
    ))
}

fn encode_cursor(offset: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("offset:{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("offset:")?
        .parse()
        .ok()
}

/// Changes to one catalog, as a notification to send.
pub(crate) struct Feed {
    pub(crate) kind: &'static ListKind,
    changes: Box<dyn Changes>,
}

impl Feed {
    /// Changes to a catalog from now on.
    pub(crate) fn new<T: Item>(
        kind: &'static ListKind,
        mut changes: watch::Receiver<Arc<Snapshot<T>>>,
    ) -> Feed {
        changes.mark_unchanged();
        Feed {
            kind,
            changes: Box::new(changes),
        }
    }

    /// Whether the catalog changed since the last look (not once it is gone); the next
    /// look sees only what changes from now on. For a reader in this process that looks
    /// when it needs to know, instead of waiting on [`next_change`].
    pub(crate) fn saw_change(&mut self) -> bool {
        self.changes.saw_change()
    }
}

/// A catalog's watch, with its item type forgotten.
trait Changes: Send {
    /// Completes on the next change: `false` when the catalog is gone.
    fn changed(&mut self) -> Pin<Box<dyn Future<Output = bool> + Send + '_>>;
    /// Whether it changed since the last look, marking it seen.
    fn saw_change(&mut self) -> bool;
}

impl<T: Item> Changes for watch::Receiver<Arc<Snapshot<T>>> {
    fn changed(&mut self) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        Box::pin(async move { watch::Receiver::changed(self).await.is_ok() })
    }

    fn saw_change(&mut self) -> bool {
        let changed = self.has_changed().unwrap_or(false);
        self.mark_unchanged();
        changed
    }
}

/// The next change among `feeds`: the kind that changed, or `None` when every catalog is
/// gone (or there is none to watch).
pub(crate) async fn next_change(feeds: &mut [Feed]) -> Option<&'static ListKind> {
    let kinds: Vec<&'static ListKind> = feeds.iter().map(|f| f.kind).collect();
    let mut waits: Vec<_> = feeds.iter_mut().map(|f| Some(f.changes.changed())).collect();
    std::future::poll_fn(|cx| {
        let mut open = false;
        for (i, wait) in waits.iter_mut().enumerate() {
            let Some(future) = wait else { continue };
            match future.as_mut().poll(cx) {
                Poll::Ready(true) => return Poll::Ready(Some(kinds[i])),
                Poll::Ready(false) => *wait = None,
                Poll::Pending => open = true,
            }
        }
        if open { Poll::Pending } else { Poll::Ready(None) }
    })
    .await
}
