//! The in-memory task store: the default, for one process.

use super::{CHANGES_BACKLOG, StoreError, StoreFuture, StoredTask, TaskStore, now_ms};
use foldhash::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Keeps tasks in the process's memory: nothing to set up, gone when the process ends, and
/// seen by no other instance. The server's default.
///
/// Bounded: a task is dropped once its time is up, and past [`MemoryStore::limit`] tasks
/// a new one is refused with [`StoreError::Full`] (the client's call gets an error that
/// says so) until some expire.
///
/// ```
/// use mcp_toolkit::Server;
/// use mcp_toolkit::task::MemoryStore;
///
/// let server = Server::new("reports", "1.0.0").task_store(MemoryStore::with_limit(1_000));
/// ```
#[derive(Debug)]
pub struct MemoryStore {
    tasks: Mutex<Tasks>,
    limit: usize,
    changes: broadcast::Sender<Arc<str>>,
}

#[derive(Debug, Default)]
struct Tasks {
    by_id: HashMap<Arc<str>, StoredTask>,
    /// The earliest time a kept task expires: no sweep is needed before it.
    next_expiry: u64,
}

impl Tasks {
    /// Drops the tasks whose time is up at `now`, once one may be.
    fn sweep(&mut self, now: u64) {
        if now < self.next_expiry {
            return;
        }
        self.by_id.retain(|_, task| !task.expired_at(now));
        self.next_expiry = self
            .by_id
            .values()
            .map(|t| t.expires_at)
            .min()
            .unwrap_or(u64::MAX);
    }
}

impl MemoryStore {
    /// How many tasks a store made with [`MemoryStore::new`] holds at most.
    pub const DEFAULT_LIMIT: usize = 10_000;

    /// A store of at most [`MemoryStore::DEFAULT_LIMIT`] tasks.
    pub fn new() -> MemoryStore {
        MemoryStore::with_limit(MemoryStore::DEFAULT_LIMIT)
    }

    /// A store of at most `limit` tasks.
    pub fn with_limit(limit: usize) -> MemoryStore {
        MemoryStore {
            tasks: Mutex::new(Tasks {
                next_expiry: u64::MAX,
                ..Tasks::default()
            }),
            limit,
            changes: broadcast::channel(CHANGES_BACKLOG).0,
        }
    }

    /// How many tasks it holds at most.
    pub fn limit(&self) -> usize {
        self.limit
    }

    fn tasks(&self) -> std::sync::MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn announce(&self, id: Arc<str>) {
        // Nobody listening is no error.
        let _ = self.changes.send(id);
    }
}

impl Default for MemoryStore {
    fn default() -> MemoryStore {
        MemoryStore::new()
    }
}

impl TaskStore for MemoryStore {
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()> {
        let created = (|| {
            let mut tasks = self.tasks();
            let now = now_ms();
            if tasks.by_id.len() >= self.limit {
                tasks.next_expiry = 0;
                tasks.sweep(now);
                if tasks.by_id.len() >= self.limit {
                    return Err(StoreError::Full { limit: self.limit });
                }
            }
            if tasks
                .by_id
                .get(task.id.as_str())
                .is_some_and(|t| !t.expired_at(now))
            {
                return Err(StoreError::Exists { id: task.id });
            }
            let id: Arc<str> = task.id.as_str().into();
            tasks.next_expiry = tasks.next_expiry.min(task.expires_at);
            tasks.by_id.insert(Arc::clone(&id), task);
            Ok(id)
        })();
        Box::pin(std::future::ready(created.map(|id| self.announce(id))))
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        let mut tasks = self.tasks();
        tasks.sweep(now_ms());
        let found = tasks.by_id.get(id).cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool> {
        let replaced = {
            let mut tasks = self.tasks();
            let now = now_ms();
            let expires_at = task.expires_at;
            let id = match tasks.by_id.get_key_value(task.id.as_str()) {
                Some((id, kept))
                    if !kept.expired_at(now) && kept.version.checked_add(1) == Some(task.version) =>
                {
                    Some(Arc::clone(id))
                }
                _ => None,
            };
            if let Some(id) = &id {
                tasks.by_id.insert(Arc::clone(id), task);
                tasks.next_expiry = tasks.next_expiry.min(expires_at);
            }
            id
        };
        let done = replaced.is_some();
        if let Some(id) = replaced {
            self.announce(id);
        }
        Box::pin(std::future::ready(Ok(done)))
    }

    fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }

    fn is_shared(&self) -> bool {
        false
    }
}
