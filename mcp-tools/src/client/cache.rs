//! The lists a [`Client`](super::Client) keeps while the server says they are fresh
//! (revision 2026-07-28's `ttlMs` on `tools/list`, `prompts/list`, `resources/list` and
//! `resources/templates/list`), and forgets as soon as it hears that one changed.
//!
//! A list is kept whole, every page of it, for the shortest `ttlMs` of its pages counted
//! from the first page's arrival; a page with `ttlMs` 0, negative or absent (every legacy
//! revision) keeps nothing. `cacheScope` needs no handling here: a client is one
//! authorization context, so `"private"` lists are as reusable by it as `"public"` ones.
//!
//! What makes a list stale before its time: the kind's `notifications/*/list_changed`
//! (heard on a [`Subscription`](super::Subscription) as it arrives, or on the connection's
//! feed when the next list is asked for), a feed that fell behind (any list may have
//! changed), and, in process, the server's own catalog changing. A fetch that a change
//! overtook is not kept.

use super::lock;
use crate::engine::Feed;
use serde_json::Value;
use std::any::Any;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::{self, error::TryRecvError};

/// The longest a list is kept, whatever `ttlMs` says.
const MAX_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The lists a client caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListKind {
    Tools,
    Prompts,
    Resources,
    ResourceTemplates,
}

impl ListKind {
    const ALL: [ListKind; 4] = [
        ListKind::Tools,
        ListKind::Prompts,
        ListKind::Resources,
        ListKind::ResourceTemplates,
    ];

    /// The lists a `list_changed` notification says changed (resources and their
    /// templates share one).
    fn announced_by(method: &str) -> &'static [ListKind] {
        match method {
            "notifications/tools/list_changed" => &[ListKind::Tools],
            "notifications/prompts/list_changed" => &[ListKind::Prompts],
            "notifications/resources/list_changed" => &[ListKind::Resources, ListKind::ResourceTemplates],
            _ => &[],
        }
    }
}

/// One list's place in the cache.
#[derive(Default)]
struct Slot {
    /// The list (a `Vec` of its item type) and until when it is fresh.
    kept: Option<(Instant, Arc<dyn Any + Send + Sync>)>,
    /// Counts the times the list was made stale: a fetch begun before the last of them
    /// is not kept.
    generation: u64,
}

/// What a client knows of the freshness of its lists.
pub(super) struct ListCache {
    slots: Mutex<[Slot; 4]>,
    /// The connection's notifications that belong to no request (a legacy session's list
    /// changes), read up at each list.
    feed: Mutex<Option<broadcast::Receiver<Value>>>,
    /// In process: the server's catalogs themselves.
    local: Mutex<Vec<Feed>>,
}

/// How long a list page may be kept: its `ttlMs`, none when absent, zero or negative.
pub(super) fn page_ttl(page: &Value) -> Duration {
    page.get("ttlMs")
        .and_then(Value::as_u64)
        .map_or(Duration::ZERO, |ms| Duration::from_millis(ms).min(MAX_TTL))
}

impl ListCache {
    /// A cache that reads list changes from `feed` (the connection's unsolicited
    /// notifications) and, in process, from the server's catalogs (`local`).
    pub(super) fn new(feed: Option<broadcast::Receiver<Value>>, local: Vec<Feed>) -> Arc<ListCache> {
        Arc::new(ListCache {
            slots: Mutex::new(Default::default()),
            feed: Mutex::new(feed),
            local: Mutex::new(local),
        })
    }

    /// A notification heard: a list change makes its lists stale.
    pub(super) fn heard(&self, note: &Value) {
        if let Some(method) = note.get("method").and_then(Value::as_str) {
            self.forget(ListKind::announced_by(method));
        }
    }

    /// Makes every list stale.
    pub(super) fn clear(&self) {
        self.forget(&ListKind::ALL);
    }

    /// Makes the lists of `kinds` stale.
    pub(super) fn forget(&self, kinds: &[ListKind]) {
        if kinds.is_empty() {
            return;
        }
        let mut slots = lock(&self.slots);
        for kind in kinds {
            let slot = &mut slots[*kind as usize];
            slot.kept = None;
            slot.generation += 1;
        }
    }

    /// Takes in the changes heard since the last look: on the connection's feed and, in
    /// process, in the server's catalogs.
    fn catch_up(&self) {
        let mut heard = Vec::new();
        let mut lagged = false;
        if let Some(feed) = lock(&self.feed).as_mut() {
            loop {
                match feed.try_recv() {
                    Ok(note) => heard.push(note),
                    Err(TryRecvError::Lagged(_)) => lagged = true,
                    Err(TryRecvError::Empty | TryRecvError::Closed) => break,
                }
            }
        }
        if lagged {
            self.clear();
        }
        for note in &heard {
            self.heard(note);
        }
        let changed: Vec<&'static str> = lock(&self.local)
            .iter_mut()
            .filter_map(|feed| feed.saw_change().then_some(feed.kind.changed))
            .collect();
        for method in changed {
            self.forget(ListKind::announced_by(method));
        }
    }

    /// The list of `kind`, if one is kept and still fresh; else the generation a fetch
    /// begins in, to give [`keep`](ListCache::keep).
    pub(super) fn get<T: Clone + Send + Sync + 'static>(&self, kind: ListKind) -> Result<Vec<T>, u64> {
        self.catch_up();
        let mut slots = lock(&self.slots);
        let slot = &mut slots[kind as usize];
        if let Some((fresh_until, list)) = &slot.kept {
            if Instant::now() < *fresh_until
                && let Some(list) = list.downcast_ref::<Vec<T>>()
            {
                return Ok(list.clone());
            }
            slot.kept = None;
        }
        Err(slot.generation)
    }

    /// Keeps `list`, fetched from `received` on and fresh for `ttl`, unless it went stale
    /// since its fetch began (`generation`) or `ttl` is zero.
    pub(super) fn keep<T: Clone + Send + Sync + 'static>(
        &self,
        kind: ListKind,
        generation: u64,
        list: &[T],
        received: Instant,
        ttl: Duration,
    ) {
        // Whatever changed while the list was fetched is taken in first.
        self.catch_up();
        let mut slots = lock(&self.slots);
        let slot = &mut slots[kind as usize];
        if ttl.is_zero() || slot.generation != generation {
            return;
        }
        slot.kept = Some((received + ttl, Arc::new(list.to_vec())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ttl_follows_the_page_and_anything_odd_is_zero() {
        assert_eq!(page_ttl(&json!({"ttlMs": 1500})), Duration::from_millis(1500));
        for page in [
            json!({}),
            json!({"ttlMs": 0}),
            json!({"ttlMs": -5}),
            json!({"ttlMs": "1"}),
        ] {
            assert_eq!(page_ttl(&page), Duration::ZERO, "{page}");
        }
        assert_eq!(page_ttl(&json!({"ttlMs": u64::MAX})), MAX_TTL);
    }

    #[test]
    fn a_change_forgets_its_lists_and_overtakes_a_fetch() {
        let cache = ListCache::new(None, Vec::new());
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        let generation = cache.get::<u8>(ListKind::Tools).unwrap_err();
        cache.keep(ListKind::Tools, generation, &[1u8], now, minute);
        let generation = cache.get::<u8>(ListKind::ResourceTemplates).unwrap_err();
        cache.keep(ListKind::ResourceTemplates, generation, &[2u8], now, minute);
        assert_eq!(cache.get::<u8>(ListKind::Tools), Ok(vec![1]));

        cache.heard(&json!({"method": "notifications/resources/list_changed"}));
        assert_eq!(cache.get::<u8>(ListKind::Tools), Ok(vec![1]));
        let generation = cache.get::<u8>(ListKind::ResourceTemplates).unwrap_err();
        // A change heard while the list was fetched: what the fetch brought is not kept.
        cache.heard(&json!({"method": "notifications/resources/list_changed"}));
        cache.keep(ListKind::ResourceTemplates, generation, &[3u8], now, minute);
        assert!(cache.get::<u8>(ListKind::ResourceTemplates).is_err());

        // Zero keeps nothing; a list past its time is gone.
        let generation = cache.get::<u8>(ListKind::Prompts).unwrap_err();
        cache.keep(ListKind::Prompts, generation, &[4u8], now, Duration::ZERO);
        assert!(cache.get::<u8>(ListKind::Prompts).is_err());
        let generation = cache.get::<u8>(ListKind::Prompts).unwrap_err();
        cache.keep(
            ListKind::Prompts,
            generation,
            &[4u8],
            now - minute,
            Duration::from_secs(1),
        );
        assert!(cache.get::<u8>(ListKind::Prompts).is_err());
    }

    #[test]
    fn the_feed_is_read_at_each_look_and_a_lag_forgets_everything() {
        let (sender, receiver) = broadcast::channel(2);
        let cache = ListCache::new(Some(receiver), Vec::new());
        let keep = |kind| {
            let generation = cache.get::<u8>(kind).unwrap_err();
            cache.keep(kind, generation, &[1u8], Instant::now(), Duration::from_secs(60));
        };
        keep(ListKind::Tools);
        keep(ListKind::Prompts);
        sender
            .send(json!({"method": "notifications/prompts/list_changed"}))
            .unwrap();
        assert!(cache.get::<u8>(ListKind::Tools).is_ok());
        assert!(cache.get::<u8>(ListKind::Prompts).is_err());
        keep(ListKind::Prompts);
        for _ in 0..3 {
            sender.send(json!({"method": "notifications/message"})).unwrap();
        }
        assert!(cache.get::<u8>(ListKind::Tools).is_err());
        assert!(cache.get::<u8>(ListKind::Prompts).is_err());
    }
}
