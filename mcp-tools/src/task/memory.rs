//! The in-memory task store: the default, for one process.

use super::{CHANGES_BACKLOG, StoreError, StoreFuture, StoredTask, TaskStore, is_result_id, now_ms};
use foldhash::HashMap;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Keeps tasks in the process's memory: nothing to set up, gone when the process ends, and
/// seen by no other instance. The server's default.
///
/// Bounded: a task is dropped once its time is up, and past [`MemoryStore::limit`] tasks
/// a new one is refused with [`StoreError::Full`] (the client's call gets an error that
/// says so) until some expire; so is a new one that would take the bytes the tasks hold
/// past [`MemoryStore::task_byte_limit`] ([`StoreError::BytesFull`]). Spilled results (records under
/// [`RESULT_ID_PREFIX`](super::RESULT_ID_PREFIX)) do not count as tasks: they are held
/// under a byte limit of their own ([`MemoryStore::result_limit`]), and to make room for a
/// new one the oldest are dropped before their time; a task is never dropped for them.
///
/// ```
/// use mcp_toolkit::Server;
/// use mcp_toolkit::task::MemoryStore;
///
/// let store = MemoryStore::with_limit(1_000)
///     .with_task_byte_limit(128 * 1024 * 1024)
///     .with_result_limit(64 * 1024 * 1024);
/// assert_eq!(store.result_limit(), 64 * 1024 * 1024);
/// let server = Server::new("reports", "1.0.0").task_store(store);
/// ```
#[derive(Debug)]
pub struct MemoryStore {
    tasks: Mutex<Tasks>,
    limit: usize,
    task_byte_limit: usize,
    result_limit: usize,
    changes: broadcast::Sender<Arc<str>>,
}

#[derive(Debug, Default)]
struct Tasks {
    by_id: HashMap<Arc<str>, StoredTask>,
    /// The earliest time a kept task expires: no sweep is needed before it.
    next_expiry: u64,
    /// How many records are tasks (the others are spilled results).
    task_count: usize,
    /// The bytes the tasks hold.
    task_bytes: usize,
    /// The bytes the spilled results hold.
    result_bytes: usize,
    /// The spilled results, oldest first, with their sizes; some may be gone already.
    result_order: VecDeque<(Arc<str>, usize)>,
}

/// What a record holds in memory, as counted against the byte limits.
fn footprint(task: &StoredTask) -> usize {
    task.id.len() + task.data.len()
}

impl Tasks {
    /// Drops the tasks whose time is up at `now`, once one may be.
    fn sweep(&mut self, now: u64) {
        if now < self.next_expiry {
            return;
        }
        let (mut tasks, mut task_bytes, mut results) = (0, 0, 0);
        self.by_id.retain(|id, task| {
            let kept = !task.expired_at(now);
            if !kept && is_result_id(id) {
                results += footprint(task);
            } else if !kept {
                tasks += 1;
                task_bytes += footprint(task);
            }
            kept
        });
        self.task_count -= tasks;
        self.task_bytes -= task_bytes;
        self.result_bytes -= results;
        let by_id = &self.by_id;
        self.result_order.retain(|(id, _)| by_id.contains_key(id));
        self.next_expiry = self
            .by_id
            .values()
            .map(|t| t.expires_at)
            .min()
            .unwrap_or(u64::MAX);
    }

    /// Makes room for a spilled result of `bytes` under `limit` by dropping the oldest;
    /// `false` when it is larger than the limit itself.
    fn room_for_result(&mut self, bytes: usize, limit: usize) -> bool {
        if bytes > limit {
            return false;
        }
        while self.result_bytes + bytes > limit {
            let Some((id, size)) = self.result_order.pop_front() else {
                break;
            };
            if self.by_id.remove(&id).is_some() {
                self.result_bytes -= size;
            }
        }
        true
    }
}

impl MemoryStore {
    /// How many tasks a store made with [`MemoryStore::new`] holds at most.
    pub const DEFAULT_LIMIT: usize = 10_000;

    /// How many bytes of tasks a store made with [`MemoryStore::new`] holds at most:
    /// 256 MiB.
    pub const DEFAULT_TASK_BYTE_LIMIT: usize = 256 * 1024 * 1024;

    /// How many bytes of spilled results a store made with [`MemoryStore::new`] holds at
    /// most: 256 MiB.
    pub const DEFAULT_RESULT_LIMIT: usize = 256 * 1024 * 1024;

    /// A store of at most [`MemoryStore::DEFAULT_LIMIT`] tasks,
    /// [`MemoryStore::DEFAULT_TASK_BYTE_LIMIT`] bytes of them, and
    /// [`MemoryStore::DEFAULT_RESULT_LIMIT`] bytes of spilled results.
    pub fn new() -> MemoryStore {
        MemoryStore::with_limit(MemoryStore::DEFAULT_LIMIT)
    }

    /// A store of at most `limit` tasks (and the default bytes of tasks and of spilled
    /// results).
    pub fn with_limit(limit: usize) -> MemoryStore {
        MemoryStore {
            tasks: Mutex::new(Tasks {
                next_expiry: u64::MAX,
                ..Tasks::default()
            }),
            limit,
            task_byte_limit: MemoryStore::DEFAULT_TASK_BYTE_LIMIT,
            result_limit: MemoryStore::DEFAULT_RESULT_LIMIT,
            changes: broadcast::channel(CHANGES_BACKLOG).0,
        }
    }

    /// The same store, holding at most `bytes` of spilled results (their ids and data):
    /// past it, the oldest are dropped to make room, and a page larger than all of it is
    /// refused with [`StoreError::ResultTooLarge`].
    pub fn with_result_limit(mut self, bytes: usize) -> MemoryStore {
        self.result_limit = bytes;
        self
    }

    /// The same store, holding at most `bytes` of tasks (their ids and data: what the
    /// server writes of each, its arguments while it may run again and its result
    /// included). A new task that would take the tasks past it is refused with
    /// [`StoreError::BytesFull`] (the client's call gets error `-32000` that says so) until
    /// some expire; the writes of a task already kept are never refused, so a large result
    /// may take the bytes past the limit, and no new task is taken until they are below.
    ///
    /// ```
    /// use mcp_toolkit::task::{MemoryStore, StoreError, StoredTask, TaskStore};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let store = MemoryStore::new().with_task_byte_limit(100);
    /// store.create(StoredTask::new("t1", 1, u64::MAX, "x".repeat(60))).await.unwrap();
    /// assert_eq!(store.task_bytes(), 62);
    /// let refused = store.create(StoredTask::new("t2", 1, u64::MAX, "y".repeat(60))).await;
    /// assert!(matches!(refused, Err(StoreError::BytesFull { held: 62, bytes: 62, limit: 100 })));
    /// // The task's own writes go on: a result larger than the rest is kept.
    /// store.replace(StoredTask::new("t1", 2, u64::MAX, "z".repeat(500))).await.unwrap();
    /// assert_eq!(store.task_bytes(), 502);
    /// # }
    /// ```
    pub fn with_task_byte_limit(mut self, bytes: usize) -> MemoryStore {
        self.task_byte_limit = bytes;
        self
    }

    /// How many tasks it holds at most.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many bytes of tasks it holds at most.
    pub fn task_byte_limit(&self) -> usize {
        self.task_byte_limit
    }

    /// How many bytes of tasks it holds now (expired ones not yet swept included).
    pub fn task_bytes(&self) -> usize {
        self.tasks().task_bytes
    }

    /// How many bytes of spilled results it holds at most.
    pub fn result_limit(&self) -> usize {
        self.result_limit
    }

    /// How many bytes of spilled results it holds now (expired ones not yet swept
    /// included).
    ///
    /// ```
    /// use mcp_toolkit::task::{MemoryStore, StoredTask, TaskStore};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let store = MemoryStore::new().with_result_limit(120);
    /// for n in 0..10 {
    ///     let page = StoredTask::new(format!("result:r{n}"), 1, u64::MAX, "x".repeat(30));
    ///     store.create(page).await.unwrap();
    /// }
    /// // Each page holds 39 bytes (its id and data): the oldest were dropped to keep three.
    /// assert_eq!(store.result_bytes(), 117);
    /// assert!(store.load("result:r0").await.unwrap().is_none());
    /// assert!(store.load("result:r9").await.unwrap().is_some());
    /// # }
    /// ```
    pub fn result_bytes(&self) -> usize {
        self.tasks().result_bytes
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
            let result = is_result_id(&task.id);
            let bytes = footprint(&task);
            let over_bytes = |tasks: &Tasks| tasks.task_bytes.saturating_add(bytes) > self.task_byte_limit;
            if !result && (tasks.task_count >= self.limit || over_bytes(&tasks)) {
                tasks.next_expiry = 0;
                tasks.sweep(now);
                if tasks.task_count >= self.limit {
                    return Err(StoreError::Full { limit: self.limit });
                }
                if over_bytes(&tasks) {
                    return Err(StoreError::BytesFull {
                        held: tasks.task_bytes,
                        bytes,
                        limit: self.task_byte_limit,
                    });
                }
            }
            tasks.sweep(now);
            if tasks.by_id.contains_key(task.id.as_str()) {
                return Err(StoreError::Exists { id: task.id });
            }
            if result && !tasks.room_for_result(bytes, self.result_limit) {
                return Err(StoreError::ResultTooLarge {
                    bytes,
                    limit: self.result_limit,
                });
            }
            let id: Arc<str> = task.id.as_str().into();
            tasks.next_expiry = tasks.next_expiry.min(task.expires_at);
            tasks.by_id.insert(Arc::clone(&id), task);
            if result {
                tasks.result_bytes += bytes;
                tasks.result_order.push_back((Arc::clone(&id), bytes));
            } else {
                tasks.task_count += 1;
                tasks.task_bytes += bytes;
            }
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
                // A spilled result is written once: its size was counted when created.
                Some((id, kept))
                    if !is_result_id(id)
                        && !kept.expired_at(now)
                        && kept.version.checked_add(1) == Some(task.version) =>
                {
                    Some(Arc::clone(id))
                }
                _ => None,
            };
            if let Some(id) = &id {
                let bytes = footprint(&task);
                if let Some(old) = tasks.by_id.insert(Arc::clone(id), task) {
                    tasks.task_bytes -= footprint(&old);
                }
                tasks.task_bytes += bytes;
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
