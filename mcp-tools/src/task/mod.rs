//! Where tasks live: the [`TaskStore`] a server keeps its tasks in, and the stores it comes
//! with.
//!
//! A tool marked `#[tool(task)]` answers a client that declares the tasks extension
//! (`io.modelcontextprotocol/tasks`, revision 2026-07-28) with a task, which the client
//! polls with `tasks/get`, answers with `tasks/update` and stops with `tasks/cancel`. The
//! server writes each task to its store, so that:
//!
//! - a task outlives the request that made it, and (with a durable store) the process;
//! - any instance sharing the store can serve `tasks/*` for it, resume it after the client
//!   answers its questions, and hear that it changed;
//! - a task whose instance died turns `failed` once its lease runs out, never `working`
//!   forever.
//!
//! | store | where | shared by instances | survives a restart |
//! |---|---|---|---|
//! | [`MemoryStore`] (the default) | the process | no | no |
//! | `SqliteStore` (feature `sqlite`) | a file | no | yes |
//! | `RedisStore` (feature `redis`) | a Redis server | yes | as Redis persists |
//!
//! A store keeps each task as opaque data with a version: every write names the version it
//! replaces, and loses to any write that came first ([`TaskStore::replace`]). What a task
//! holds, and every rule of how it changes, is the server's; a store only keeps bytes
//! safely. The guide's tasks chapter shows the stores in use.

mod memory;
#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "sqlite")]
mod sqlite;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis::{RedisStore, RedisStoreBuilder};
#[cfg(feature = "sqlite")]
#[cfg_attr(docsrs, doc(cfg(feature = "sqlite")))]
pub use sqlite::SqliteStore;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

/// The prefix of the ids under which a server keeps spilled results: the pages of tool
/// results larger than their budget (see the guide's result budgets chapter), one record
/// per page, each with the time-to-live the server gives them. They are a cache, not
/// tasks: a store may drop them before their time to make room, and [`MemoryStore`] keeps
/// them under a byte limit of their own ([`MemoryStore::result_limit`]), dropping the
/// oldest first and never a task. Task ids never start with it.
///
/// ```
/// assert_eq!(mcp_toolkit::task::RESULT_ID_PREFIX, "result:");
/// ```
pub const RESULT_ID_PREFIX: &str = "result:";

/// Whether `id` names a spilled result's page rather than a task.
pub(crate) fn is_result_id(id: &str) -> bool {
    id.starts_with(RESULT_ID_PREFIX)
}

/// Whether `id` could be an id this server made, of a task or a spilled result: 32 random
/// hexadecimal digits, after an instance's name (1 to 63 of `A-Z a-z 0-9 - _`) and a dot
/// where the store is not shared. An id a client sent that is anything else (a megabyte of
/// text, a key of another namespace) is unknown without asking the store.
pub(crate) fn could_be_id(id: &str) -> bool {
    (32..=96).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// What a store's operations return: a boxed future, so a store is a trait object.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// One task as a store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredTask {
    /// The task's id: unguessable, made by the server.
    pub id: String,
    /// Counts the task's writes: 1 when created, one more with each [`TaskStore::replace`].
    pub version: u64,
    /// When the store may forget the task: milliseconds since the Unix epoch.
    pub expires_at: u64,
    /// The task as the server wrote it (JSON): a store keeps it as it is.
    pub data: String,
}

impl StoredTask {
    /// A task as a store keeps it.
    ///
    /// ```
    /// use mcp_toolkit::task::StoredTask;
    ///
    /// let task = StoredTask::new("t1", 1, u64::MAX, "{}");
    /// assert_eq!((task.id.as_str(), task.version), ("t1", 1));
    /// ```
    pub fn new(id: impl Into<String>, version: u64, expires_at: u64, data: impl Into<String>) -> StoredTask {
        StoredTask {
            id: id.into(),
            version,
            expires_at,
            data: data.into(),
        }
    }

    /// Whether the task's time is up at `now` (milliseconds since the Unix epoch).
    pub fn expired_at(&self, now: u64) -> bool {
        self.expires_at <= now
    }
}

/// Where a server keeps its tasks.
///
/// Three come with the crate ([`MemoryStore`], and behind features `SqliteStore` and
/// `RedisStore`); another backend implements these five methods. Each must hold to what
/// its method says: the server's correctness across instances rests on
/// [`create`](TaskStore::create) being durable before it returns and on
/// [`replace`](TaskStore::replace) being an atomic compare-and-set.
///
/// ```
/// use mcp_toolkit::task::{MemoryStore, StoredTask, TaskStore};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let store = MemoryStore::new();
/// store.create(StoredTask::new("t1", 1, u64::MAX, "first")).await.unwrap();
/// let mut task = store.load("t1").await.unwrap().unwrap();
/// task.version += 1;
/// task.data = "second".into();
/// assert!(store.replace(task.clone()).await.unwrap());
/// // A write that read the task before the one above loses.
/// assert!(!store.replace(task).await.unwrap());
/// assert_eq!(store.load("t1").await.unwrap().unwrap().data, "second");
/// # }
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task (its version 1). Returns only once [`load`](TaskStore::load) on any
    /// instance sharing the store finds it. An id already kept is an error
    /// ([`StoreError::Exists`]); so is a store that holds as many tasks as it may
    /// ([`StoreError::Full`]), or as many bytes of them ([`StoreError::BytesFull`]).
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()>;

    /// The task `id`, or `None` when there is none or its time is up.
    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>>;

    /// Replaces the task `task.id` with `task` if the version kept is `task.version - 1`,
    /// atomically: `false` (and nothing written) when another write came first or the task
    /// is gone. Each write that succeeds is announced on [`changes`](TaskStore::changes).
    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool>;

    /// The ids of tasks as they are created or replaced, here and on every instance
    /// sharing the store. A receiver that falls behind misses ids (it is told
    /// `Lagged`) and should read again what it watches.
    fn changes(&self) -> broadcast::Receiver<Arc<str>>;

    /// Whether other instances share the store, so that any of them may serve a task.
    /// A store that is not shared has its task ids carry the instance's name, for a load
    /// balancer to route `tasks/*` by.
    fn is_shared(&self) -> bool;
}

/// Why a store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store holds as many tasks as it may.
    #[error("the task store holds {limit} tasks, as many as it may; try again when some have expired")]
    Full {
        /// How many it may hold.
        limit: usize,
    },
    /// The tasks the store holds take as many bytes as it may keep of them.
    #[error(
        "the task store holds {held} bytes of tasks and this one needs {bytes}, more than the {limit} bytes it may hold; try again when some have expired"
    )]
    BytesFull {
        /// The bytes the tasks hold now.
        held: usize,
        /// The new task's size.
        bytes: usize,
        /// The most the store holds.
        limit: usize,
    },
    /// A spilled result's page is larger than all the store keeps of spilled results.
    #[error(
        "a spilled result's page of {bytes} bytes is more than the {limit} bytes the task store keeps of them"
    )]
    ResultTooLarge {
        /// The page's size.
        bytes: usize,
        /// The most the store keeps.
        limit: usize,
    },
    /// A task with this id is kept already.
    #[error("a task with id `{id}` exists already")]
    Exists {
        /// The id.
        id: String,
    },
    /// The store could not be opened: a file that is no SQLite database, a folder that is
    /// missing, a Redis that does not answer. [`Error::report`](crate::Error::report) says
    /// it with every cause: `cannot open the task store sqlite:tasks.db: file is not a
    /// database`.
    #[error("cannot open the task store {store}")]
    Open {
        /// What was opened, as a URL: `sqlite:PATH`, `redis://HOST:PORT` (without
        /// credentials).
        store: String,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The store could not be reached, or failed.
    #[error("the task store ({store}) failed")]
    Unavailable {
        /// Which store: `sqlite`, `redis`.
        store: &'static str,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A task store URL that names no store this server can open.
    #[error("unknown task store `{url}`: {reason}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl StoreError {
    /// A store failure: `store` names the store, `source` says why.
    pub fn unavailable(
        store: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> StoreError {
        StoreError::Unavailable {
            store,
            source: source.into(),
        }
    }
}

/// A task store named by a URL, as the command line's `--task-store URL` takes it:
/// `memory:`, `sqlite:PATH` (feature `sqlite`), `redis://HOST:PORT` (feature `redis`). A URL
/// of a store this build cannot open is refused, and the error lists the ones it can.
///
/// ```
/// use mcp_toolkit::task::StoreUrl;
///
/// assert!("memory:".parse::<StoreUrl>().is_ok());
/// let wrong = "postgres://db".parse::<StoreUrl>().unwrap_err();
/// assert!(wrong.to_string().contains("expected `memory:`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreUrl {
    /// `memory:`
    Memory,
    /// `sqlite:PATH`
    Sqlite(std::path::PathBuf),
    /// `redis://…` or `rediss://…`, as given.
    Redis(String),
}

impl std::str::FromStr for StoreUrl {
    type Err = StoreError;

    fn from_str(url: &str) -> Result<StoreUrl, StoreError> {
        let invalid = |reason: &str| StoreError::InvalidUrl {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        if url == "memory:" || url == "memory" {
            return Ok(StoreUrl::Memory);
        }
        if let Some(path) = url.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err(invalid("`sqlite:` needs a file's path, as in `sqlite:tasks.db`"));
            }
            return if cfg!(feature = "sqlite") {
                Ok(StoreUrl::Sqlite(path.into()))
            } else {
                Err(invalid(&without("sqlite")))
            };
        }
        if url.starts_with("redis://") || url.starts_with("rediss://") {
            return if cfg!(feature = "redis") {
                Ok(StoreUrl::Redis(url.to_owned()))
            } else {
                Err(invalid(&without("redis")))
            };
        }
        Err(invalid(&format!("expected {}", store_urls(&STORE_KINDS))))
    }
}

/// A kind of store a URL may name, as errors and the command line's help list them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StoreKind {
    /// The URL's form: `sqlite:PATH`.
    pub(crate) url: &'static str,
    /// What the store is, in a few words (for the command line's help).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) what: &'static str,
    /// Whether this build opens it.
    pub(crate) built: bool,
}

/// Every kind of store, in the order they are listed.
pub(crate) const STORE_KINDS: [StoreKind; 3] = [
    StoreKind {
        url: "memory:",
        what: "the default",
        built: true,
    },
    StoreKind {
        url: "sqlite:PATH",
        what: "a file that outlives the process",
        built: cfg!(feature = "sqlite"),
    },
    StoreKind {
        url: "redis://HOST:PORT",
        what: "shared by instances",
        built: cfg!(feature = "redis"),
    },
];

/// The URLs of the stores of `kinds` that are built, in backticks: `` `memory:` or
/// `sqlite:PATH` ``.
pub(crate) fn store_urls(kinds: &[StoreKind]) -> String {
    let urls: Vec<String> = kinds
        .iter()
        .filter(|kind| kind.built)
        .map(|kind| format!("`{}`", kind.url))
        .collect();
    match urls.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Why a URL of a store this build lacks is refused.
fn without(feature: &str) -> String {
    format!(
        "this server was built without the `{feature}` feature of mcp-toolkit; expected {}",
        store_urls(&STORE_KINDS)
    )
}

impl StoreUrl {
    /// Opens the store the URL names (connecting to Redis).
    pub async fn open(&self) -> Result<Arc<dyn TaskStore>, StoreError> {
        match self {
            StoreUrl::Memory => Ok(Arc::new(MemoryStore::new())),
            #[cfg(feature = "sqlite")]
            StoreUrl::Sqlite(path) => Ok(Arc::new(SqliteStore::open(path)?)),
            #[cfg(feature = "redis")]
            StoreUrl::Redis(url) => Ok(Arc::new(RedisStore::connect(url).await?)),
            #[allow(unreachable_patterns)]
            other => Err(StoreError::InvalidUrl {
                url: format!("{other:?}"),
                reason: format!(
                    "this server was built without the feature that opens it; expected {}",
                    store_urls(&STORE_KINDS)
                ),
            }),
        }
    }
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// How many changes a receiver of [`TaskStore::changes`] may fall behind by before it is
/// told it lagged.
pub(crate) const CHANGES_BACKLOG: usize = 1024;

#[cfg(test)]
mod tests {
    use super::{STORE_KINDS, StoreUrl, could_be_id, store_urls};

    #[test]
    fn only_ids_the_server_could_have_made_are_looked_for() {
        let random = "0123456789abcdef0123456789abcdef";
        assert!(could_be_id(random));
        assert!(could_be_id(&format!("mcp-0.{random}")));
        assert!(could_be_id(&format!("{}.{random}", "n".repeat(63))));
        assert!(!could_be_id("nope"));
        assert!(!could_be_id(&"a".repeat(100_000)));
        assert!(!could_be_id(&format!("result:{random}:2")));
        assert!(!could_be_id(&format!("{random} ")));
        assert!(!could_be_id(&format!("ünï.{random}")));
    }

    #[test]
    fn only_the_stores_this_build_opens_are_offered() {
        let built = |sqlite: bool, redis: bool| {
            let mut kinds = STORE_KINDS;
            kinds[1].built = sqlite;
            kinds[2].built = redis;
            store_urls(&kinds)
        };
        assert_eq!(built(false, false), "`memory:`");
        assert_eq!(built(true, false), "`memory:` or `sqlite:PATH`");
        assert_eq!(built(false, true), "`memory:` or `redis://HOST:PORT`");
        assert_eq!(
            built(true, true),
            "`memory:`, `sqlite:PATH` or `redis://HOST:PORT`"
        );
        let this_build = store_urls(&STORE_KINDS);
        assert_eq!(
            this_build,
            built(cfg!(feature = "sqlite"), cfg!(feature = "redis"))
        );

        let unknown = "postgres://db".parse::<StoreUrl>().unwrap_err().to_string();
        assert_eq!(
            unknown,
            format!("unknown task store `postgres://db`: expected {this_build}")
        );
        for (url, feature, built) in [
            ("sqlite:tasks.db", "sqlite", cfg!(feature = "sqlite")),
            ("redis://127.0.0.1:6379", "redis", cfg!(feature = "redis")),
        ] {
            let parsed = url.parse::<StoreUrl>();
            if built {
                assert!(parsed.is_ok(), "{url}: {parsed:?}");
            } else {
                assert_eq!(
                    parsed.unwrap_err().to_string(),
                    format!(
                        "unknown task store `{url}`: this server was built without the `{feature}` feature of mcp-toolkit; expected {this_build}"
                    )
                );
            }
        }
    }
}
