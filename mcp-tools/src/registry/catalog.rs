//! One mechanism for every kind of listed item (tools, resources, resource templates and
//! prompts): items in registration order, added, removed, enabled and disabled at
//! run time, each change published as a new immutable [`Snapshot`] that readers take
//! without locking and that encodes each item's definition once per protocol revision.

use crate::protocol::ProtocolVersion;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use tokio::sync::watch;

/// Something a catalog lists: a [`Tool`](crate::Tool) or a [`Prompt`](crate::prompt::Prompt).
/// Implemented by this crate only: what a [`Registry`](crate::registry::Registry) can hold.
pub trait Item: Clone + Send + Sync + 'static {
    /// What tells items of this kind apart: a tool's or a prompt's name, a resource's URI.
    fn key(&self) -> &str;

    /// The item's definition as protocol revision `version` lists it.
    fn definition(&self, version: ProtocolVersion) -> Value;
}

/// The items of one kind a server offers, changeable while it serves. Cheap to clone.
pub(crate) struct Catalog<T: Item> {
    shared: Arc<Shared<T>>,
}

impl<T: Item> Clone for Catalog<T> {
    fn clone(&self) -> Self {
        Catalog {
            shared: Arc::clone(&self.shared),
        }
    }
}

struct Shared<T: Item> {
    /// All items, enabled or not, in registration order. Writers hold this lock.
    entries: Mutex<Vec<Entry<T>>>,
    /// The enabled items as clients see them, republished on every change.
    snapshot: watch::Sender<Arc<Snapshot<T>>>,
}

struct Entry<T> {
    item: T,
    enabled: bool,
}

impl<T: Item> Catalog<T> {
    pub(crate) fn new() -> Catalog<T> {
        let (snapshot, _) = watch::channel(Arc::new(Snapshot::new(Vec::new())));
        Catalog {
            shared: Arc::new(Shared {
                entries: Mutex::new(Vec::new()),
                snapshot,
            }),
        }
    }

    /// Adds an item, enabled; `Err` gives it back when its key is taken.
    pub(crate) fn add(&self, item: T) -> Result<(), T> {
        match self.add_all([item]).pop() {
            Some(taken) => Err(taken),
            None => Ok(()),
        }
    }

    /// Adds items, enabled, in their order, with one new snapshot for them all; gives back
    /// those whose key was taken, by an item already here or by an earlier one of `items`.
    pub(crate) fn add_all(&self, items: impl IntoIterator<Item = T>) -> Vec<T> {
        self.change(|entries| {
            let mut keys: foldhash::HashSet<String> =
                entries.iter().map(|e| e.item.key().to_owned()).collect();
            let before = entries.len();
            let mut taken = Vec::new();
            for item in items {
                if keys.insert(item.key().to_owned()) {
                    entries.push(Entry { item, enabled: true });
                } else {
                    taken.push(item);
                }
            }
            let changed = entries.len() != before;
            (taken, changed)
        })
    }

    /// Removes an item by key, enabled or not.
    pub(crate) fn remove(&self, key: &str) -> Option<T> {
        self.change(|entries| {
            let removed = entries
                .iter()
                .position(|e| e.item.key() == key)
                .map(|index| entries.remove(index).item);
            let changed = removed.is_some();
            (removed, changed)
        })
    }

    /// Enables or disables an item; `false` when there is no such item.
    pub(crate) fn set_enabled(&self, key: &str, enabled: bool) -> bool {
        self.change(|entries| match entries.iter_mut().find(|e| e.item.key() == key) {
            Some(entry) => {
                let changed = entry.enabled != enabled;
                entry.enabled = enabled;
                (true, changed)
            }
            None => (false, false),
        })
    }

    /// The enabled items at this moment.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot<T>> {
        self.shared.snapshot.borrow().clone()
    }

    /// Completes on the next change, for `list_changed` notifications.
    pub(crate) fn watch(&self) -> watch::Receiver<Arc<Snapshot<T>>> {
        self.shared.snapshot.subscribe()
    }

    /// Applies `edit`, which says whether it changed the list, and publishes a new snapshot
    /// when it did.
    fn change<R>(&self, edit: impl FnOnce(&mut Vec<Entry<T>>) -> (R, bool)) -> R {
        let mut entries = self.shared.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let (result, changed) = edit(&mut entries);
        if changed {
            let enabled = entries
                .iter()
                .filter(|e| e.enabled)
                .map(|e| e.item.clone())
                .collect();
            self.shared
                .snapshot
                .send_replace(Arc::new(Snapshot::new(enabled)));
        }
        result
    }
}

/// The enabled items at one moment, with what serving them needs precomputed.
pub(crate) struct Snapshot<T> {
    items: Vec<T>,
    by_key: foldhash::HashMap<String, usize>,
    /// Each item's definition encoded for each revision, on first use.
    encoded: [OnceLock<Vec<Box<RawValue>>>; ProtocolVersion::ALL.len()],
    /// The whole list as one page, for each revision, on first use.
    whole: [OnceLock<String>; ProtocolVersion::ALL.len()],
}

impl<T: Item> Snapshot<T> {
    /// A snapshot of `items`, in their order (a catalog that never changes).
    pub(crate) fn new(items: Vec<T>) -> Snapshot<T> {
        let by_key = items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.key().to_owned(), i))
            .collect();
        Snapshot {
            items,
            by_key,
            encoded: Default::default(),
            whole: Default::default(),
        }
    }

    /// The enabled item with this key.
    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        self.by_key.get(key).map(|&i| &self.items[i])
    }

    /// The enabled items, in registration order.
    pub(crate) fn items(&self) -> &[T] {
        &self.items
    }

    /// The definitions of the items at `indices`, as a JSON array, for this revision.
    pub(crate) fn select(&self, version: ProtocolVersion, indices: &[usize]) -> String {
        let encoded = self.encoded(version);
        join(indices.iter().map(|&i| &*encoded[i]))
    }

    /// The definitions of items `range`, as a JSON array, for this revision. The whole list
    /// is encoded once and then borrowed.
    pub(crate) fn page(&self, version: ProtocolVersion, range: std::ops::Range<usize>) -> Cow<'_, str> {
        if range == (0..self.items.len()) {
            let whole = &self.whole[revision_index(version)];
            return Cow::Borrowed(whole.get_or_init(|| join(self.encoded(version).iter().map(|d| &**d))));
        }
        Cow::Owned(join(self.encoded(version)[range].iter().map(|d| &**d)))
    }

    fn encoded(&self, version: ProtocolVersion) -> &[Box<RawValue>] {
        self.encoded[revision_index(version)].get_or_init(|| {
            self.items
                .iter()
                .map(|item| serde_json::value::to_raw_value(&item.definition(version)).unwrap_or_default())
                .collect()
        })
    }
}

fn revision_index(version: ProtocolVersion) -> usize {
    ProtocolVersion::ALL
        .iter()
        .position(|v| *v == version)
        .unwrap_or(0)
}

/// `[a,b,...]` from encoded definitions.
fn join<'a>(definitions: impl Iterator<Item = &'a RawValue>) -> String {
    let mut out = String::from("[");
    for (i, definition) in definitions.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(definition.get());
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Clone, Debug, PartialEq)]
    struct Named(&'static str);

    impl Item for Named {
        fn key(&self) -> &str {
            self.0
        }
        fn definition(&self, version: ProtocolVersion) -> Value {
            json!({ "name": self.0, "v": version.as_str() })
        }
    }

    #[test]
    fn changes_publish_snapshots_and_no_change_publishes_nothing() {
        let catalog = Catalog::new();
        let mut watch = catalog.watch();
        assert!(catalog.add(Named("a")).is_ok());
        assert_eq!(catalog.add(Named("a")), Err(Named("a")));
        assert!(catalog.add(Named("b")).is_ok());
        assert!(watch.has_changed().unwrap());
        watch.mark_unchanged();
        assert!(catalog.set_enabled("a", true)); // already enabled: no new snapshot
        assert!(!catalog.set_enabled("c", false));
        assert!(!watch.has_changed().unwrap());
        assert!(catalog.set_enabled("a", false));
        assert!(watch.has_changed().unwrap());
        let snapshot = catalog.snapshot();
        assert_eq!(snapshot.items(), [Named("b")]);
        assert!(snapshot.get("a").is_none());
        assert_eq!(catalog.remove("a"), Some(Named("a")));
        assert_eq!(catalog.remove("a"), None);
    }

    #[test]
    fn a_batch_is_one_change_and_gives_back_every_key_taken() {
        let catalog = Catalog::new();
        assert!(catalog.add(Named("a")).is_ok());
        let mut watch = catalog.watch();
        watch.mark_unchanged();
        let taken = catalog.add_all([Named("b"), Named("a"), Named("c"), Named("b")]);
        assert_eq!(taken, [Named("a"), Named("b")]);
        assert!(watch.has_changed().unwrap());
        assert_eq!(catalog.snapshot().items(), [Named("a"), Named("b"), Named("c")]);
        // Nothing new: no new snapshot.
        watch.mark_unchanged();
        assert_eq!(catalog.add_all([Named("c")]), [Named("c")]);
        assert!(!watch.has_changed().unwrap());
    }

    #[test]
    fn pages_are_encoded_per_revision_and_the_whole_list_once() {
        let catalog = Catalog::new();
        for name in ["a", "b", "c"] {
            catalog.add(Named(name)).unwrap();
        }
        let snapshot = catalog.snapshot();
        let v = ProtocolVersion::V2025_06_18;
        let whole = snapshot.page(v, 0..3);
        assert!(matches!(whole, Cow::Borrowed(_)));
        let all: Value = serde_json::from_str(&whole).unwrap();
        assert_eq!(all[2], json!({"name": "c", "v": "2025-06-18"}));
        let middle: Value = serde_json::from_str(&snapshot.page(v, 1..2)).unwrap();
        assert_eq!(middle, json!([{"name": "b", "v": "2025-06-18"}]));
        let chosen: Value =
            serde_json::from_str(&snapshot.select(ProtocolVersion::V2026_07_28, &[2, 0])).unwrap();
        assert_eq!(
            chosen,
            json!([{"name": "c", "v": "2026-07-28"}, {"name": "a", "v": "2026-07-28"}])
        );
    }
}
