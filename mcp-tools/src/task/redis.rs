//! The Redis task store: shared by every instance of a server that connects to the same
//! Redis (feature `redis`).

use super::{CHANGES_BACKLOG, StoreError, StoreFuture, StoredTask, TaskStore};
use ::redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSub};
use ::redis::{Client, RedisError, RedisResult, Script};
use futures_util::StreamExt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::AbortHandle;

/// Keeps tasks in Redis, where every instance of a server that connects to it finds them:
/// any instance serves `tasks/*` for any task, and hears when a task changes on another.
///
/// # Layout
///
/// Each task is one hash, at the key `{prefix}task:{id}`, with the fields `v` (its
/// version), `e` (when it expires, in milliseconds since the Unix epoch) and `d` (its data),
/// and Redis's own expiry (`PEXPIREAT`) set to `e`: Redis forgets a task when its time is
/// up, and by Redis's clock. [`create`](TaskStore::create) and
/// [`replace`](TaskStore::replace) are Lua scripts, each atomic in Redis: the first writes
/// only a key that is not there, the second only over the version it replaces. Each then
/// publishes the task's id on the channel `{prefix}tasks:changes`; every store connected to
/// the same Redis with the same prefix subscribes to it, on a connection of its own, and
/// hands the ids to its [`changes`](TaskStore::changes). The prefix is `mcp-toolkit:` unless
/// [`RedisStoreBuilder::prefix`] says otherwise, so several servers can share one Redis
/// without seeing each other's tasks.
///
/// # Durability
///
/// A write is acknowledged once Redis has applied it, and is as durable as Redis is
/// configured to make it: with `appendonly yes` (as the deployment guide runs it) Redis
/// writes it to its append-only file before answering, so a Redis process that is killed
/// and restarted still has it; with the default `appendfsync everysec`, a crash of the
/// machine itself may lose the last second. The store sends neither `WAIT` (for replicas)
/// nor anything that forces an fsync.
///
/// # When Redis is down
///
/// No call hangs: each gives up after [`RedisStoreBuilder::timeout`] (2 s unless set) with
/// [`StoreError::Unavailable`], and the store connects again on its own once Redis is back,
/// resubscribing to the channel too. A `replace` that failed that way may or may not have
/// been applied: read the task again to know. Ids published while the subscription was
/// down are missed, and its receivers are not told so (no `Lagged`): a watcher that must
/// not miss a change reads again what it watches after an outage, which the store logs
/// (`tracing`, at `warn` when the subscription is lost and `info` when it is back).
///
/// The store speaks RESP3 (Redis 6 or later, or Valkey), which lets it notice a dropped
/// connection before the next call needs it; `?protocol=resp2` in the URL makes it speak
/// RESP2 instead. It does not speak TLS (`rediss://`) nor to a Redis Cluster.
///
/// ```no_run
/// use mcp_toolkit::task::{RedisStore, StoredTask, TaskStore};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::task::StoreError> {
/// // Two handles, as two instances of a server would hold them.
/// let here = RedisStore::connect("redis://127.0.0.1:6379").await?;
/// let there = RedisStore::builder("redis://127.0.0.1:6379").prefix("mcp-toolkit:").connect().await?;
/// let mut changes = there.changes();
///
/// here.create(StoredTask::new("t1", 1, u64::MAX, "{}")).await?;
/// assert_eq!(&*changes.recv().await.unwrap(), "t1");
/// assert_eq!(there.load("t1").await?.unwrap().version, 1);
/// # Ok(())
/// # }
/// ```
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    /// `{prefix}tasks:changes`, where writes announce the ids of the tasks they wrote.
    channel: String,
    timeout: Duration,
    changes: broadcast::Sender<Arc<str>>,
    create: Script,
    replace: Script,
    /// The task that forwards the channel's ids to `changes`: it ends with the store.
    subscriber: AbortHandle,
}

/// How a [`RedisStore`] connects: its key prefix and how long a call may take. Made by
/// [`RedisStore::builder`].
///
/// ```no_run
/// use mcp_toolkit::task::RedisStore;
/// use std::time::Duration;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::task::StoreError> {
/// let store = RedisStore::builder("redis://127.0.0.1:6379")
///     .prefix("reports:")
///     .timeout(Duration::from_secs(1))
///     .connect()
///     .await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until `connect` is called"]
pub struct RedisStoreBuilder {
    url: String,
    prefix: String,
    timeout: Duration,
}

impl RedisStore {
    /// The prefix of every key and of the channel, unless [`RedisStoreBuilder::prefix`]
    /// says otherwise.
    pub const DEFAULT_PREFIX: &'static str = "mcp-toolkit:";

    /// How long a call may take before it fails, unless [`RedisStoreBuilder::timeout`] says
    /// otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// Connects to the Redis at `url` (`redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`), with
    /// the default prefix and timeout, and subscribes to its changes. Fails with
    /// [`StoreError::InvalidUrl`] for a URL it cannot use, and with
    /// [`StoreError::Open`] (naming the address, never the credentials) when Redis cannot
    /// be reached now.
    ///
    /// ```no_run
    /// use mcp_toolkit::task::{RedisStore, TaskStore};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::task::StoreError> {
    /// let store = RedisStore::connect("redis://127.0.0.1:6379").await?;
    /// assert!(store.is_shared());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        RedisStore::builder(url).connect().await
    }

    /// A store to connect to the Redis at `url`, with a prefix or timeout of its own.
    pub fn builder(url: impl Into<String>) -> RedisStoreBuilder {
        RedisStoreBuilder {
            url: url.into(),
            prefix: RedisStore::DEFAULT_PREFIX.to_owned(),
            timeout: RedisStore::DEFAULT_TIMEOUT,
        }
    }

    /// The prefix of its keys and channel.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    fn key(&self, id: &str) -> String {
        format!("{}task:{id}", self.prefix)
    }

    /// Runs `call` on the shared connection, within the store's timeout. A call refused
    /// before it reached Redis (the connection was down) is tried once more, on the
    /// connection the refusal made the manager open: that is what lets the first call after
    /// Redis came back succeed.
    async fn run<T, F, Fut>(&self, call: F) -> Result<T, StoreError>
    where
        F: Fn(ConnectionManager) -> Fut,
        Fut: Future<Output = RedisResult<T>>,
    {
        let attempt = async {
            match call(self.connection.clone()).await {
                Err(refused) if refused.is_connection_refusal() => call(self.connection.clone()).await,
                done => done,
            }
        };
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(done) => done.map_err(unavailable),
            Err(_) => Err(StoreError::unavailable("redis", Problem::NoAnswer(self.timeout))),
        }
    }
}

impl RedisStoreBuilder {
    /// The prefix of every key the store writes and of its channel (default
    /// `mcp-toolkit:`). Stores with different prefixes share nothing.
    pub fn prefix(mut self, prefix: impl Into<String>) -> RedisStoreBuilder {
        self.prefix = prefix.into();
        self
    }

    /// How long one call may take before it fails with [`StoreError::Unavailable`], and the
    /// first connection before it fails with [`StoreError::Open`] (default 2 s).
    pub fn timeout(mut self, timeout: Duration) -> RedisStoreBuilder {
        self.timeout = timeout;
        self
    }

    /// Connects, and subscribes to the store's channel: ids published from then on reach
    /// [`changes`](TaskStore::changes).
    pub async fn connect(self) -> Result<RedisStore, StoreError> {
        let RedisStoreBuilder { url, prefix, timeout } = self;
        let client = client(&url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            // A call during an outage waits for the reconnection it starts: a short one.
            .set_number_of_retries(2)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500));
        // What a failure to connect names: the address, never the credentials.
        let cannot_open = |source: Box<dyn std::error::Error + Send + Sync>| StoreError::Open {
            store: address(&client),
            source,
        };
        let connecting = ConnectionManager::new_with_config(client.clone(), config);
        let connection = match tokio::time::timeout(timeout, connecting).await {
            Ok(connected) => connected.map_err(|e| cannot_open(Box::new(e)))?,
            Err(_) => return Err(cannot_open(Box::new(Problem::NoAnswer(timeout)))),
        };

        let channel = format!("{prefix}tasks:changes");
        let pubsub = subscribe(&client, &channel, timeout).await.map_err(|e| match e {
            Subscribe::Redis(e) => cannot_open(Box::new(e)),
            Subscribe::NoAnswer => cannot_open(Box::new(Problem::NoAnswer(timeout))),
        })?;
        let (changes, _) = broadcast::channel(CHANGES_BACKLOG);
        let subscriber =
            tokio::spawn(listen(client, channel.clone(), pubsub, changes.clone(), timeout)).abort_handle();
        tracing::debug!(%prefix, "connected to the redis task store");

        Ok(RedisStore {
            connection,
            prefix,
            channel,
            timeout,
            changes,
            create: Script::new(CREATE),
            replace: Script::new(REPLACE),
            subscriber,
        })
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        self.subscriber.abort();
    }
}

impl std::fmt::Debug for RedisStore {
    // Not the URL: it may hold a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// Writes the task at `KEYS[1]` unless a key is there; then publishes its id.
/// `ARGV`: version, expires at (ms), `PEXPIREAT`'s argument or `""` for never, data,
/// channel, id. Returns 1 when written, 0 when the key was there.
const CREATE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'e', ARGV[2], 'd', ARGV[4])
if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
";

/// Writes the task at `KEYS[1]` if the version kept is `ARGV[1]`; then publishes its id.
/// `ARGV`: the version replaced, the new version, expires at (ms), `PEXPIREAT`'s argument
/// or `""` for never, data, channel, id. Returns 1 when written, 0 otherwise (another
/// write came first, or the task is gone).
const REPLACE: &str = r"
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'e', ARGV[3], 'd', ARGV[5])
if ARGV[4] ~= '' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
else
  redis.call('PERSIST', KEYS[1])
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
";

/// `PEXPIREAT`'s argument for a task that expires at `expires_at`, or `""` for one whose
/// time is past any Redis can keep (`u64::MAX` is "never"): Redis takes at most `i64::MAX`.
fn expire_at(expires_at: u64) -> String {
    if i64::try_from(expires_at).is_ok() {
        expires_at.to_string()
    } else {
        String::new()
    }
}

impl TaskStore for RedisStore {
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let key = self.key(&task.id);
            let (version, expires, expire_at) = (
                task.version.to_string(),
                task.expires_at.to_string(),
                expire_at(task.expires_at),
            );
            let created: i64 = self
                .run(|mut connection| {
                    let mut call = self.create.key(&key);
                    call.arg(&version)
                        .arg(&expires)
                        .arg(&expire_at)
                        .arg(&task.data)
                        .arg(&self.channel)
                        .arg(&task.id);
                    async move { call.invoke_async(&mut connection).await }
                })
                .await?;
            if created == 1 {
                Ok(())
            } else {
                Err(StoreError::Exists { id: task.id })
            }
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        Box::pin(async move {
            let key = self.key(id);
            let fields: (Option<u64>, Option<u64>, Option<String>) = self
                .run(|mut connection| {
                    let mut read = ::redis::cmd("HMGET");
                    read.arg(&key).arg("v").arg("e").arg("d");
                    async move { read.query_async(&mut connection).await }
                })
                .await?;
            match fields {
                (None, None, None) => Ok(None),
                (Some(version), Some(expires_at), Some(data)) => {
                    Ok(Some(StoredTask::new(id, version, expires_at, data)))
                }
                _ => Err(StoreError::unavailable("redis", Problem::Malformed { key })),
            }
        })
    }

    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            // Version 0 replaces nothing: a task starts at 1.
            let Some(replaced) = task.version.checked_sub(1) else {
                return Ok(false);
            };
            let key = self.key(&task.id);
            let (replaced, version) = (replaced.to_string(), task.version.to_string());
            let (expires, expire_at) = (task.expires_at.to_string(), expire_at(task.expires_at));
            let written: i64 = self
                .run(|mut connection| {
                    let mut call = self.replace.key(&key);
                    call.arg(&replaced)
                        .arg(&version)
                        .arg(&expires)
                        .arg(&expire_at)
                        .arg(&task.data)
                        .arg(&self.channel)
                        .arg(&task.id);
                    async move { call.invoke_async(&mut connection).await }
                })
                .await?;
            Ok(written == 1)
        })
    }

    fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }

    fn is_shared(&self) -> bool {
        true
    }
}

/// What went wrong, beyond what the Redis client says.
#[derive(Debug, thiserror::Error)]
enum Problem {
    #[error("redis did not answer within {0:?}")]
    NoAnswer(Duration),
    #[error("the value at key `{key}` is not a task as this store writes one (a hash of `v`, `e` and `d`)")]
    Malformed { key: String },
}

fn unavailable(e: RedisError) -> StoreError {
    StoreError::unavailable("redis", e)
}

/// The server `client` connects to, as a URL without credentials: `redis://HOST:PORT`, or
/// a Unix socket's path.
fn address(client: &Client) -> String {
    match client.get_connection_info().addr() {
        ::redis::ConnectionAddr::Unix(path) => path.display().to_string(),
        tcp => format!("redis://{tcp}"),
    }
}

/// The client for `url`, speaking RESP3 unless the URL names a protocol.
fn client(url: &str) -> Result<Client, StoreError> {
    let invalid = |reason: String| StoreError::InvalidUrl {
        url: url.to_owned(),
        reason,
    };
    if url.starts_with("rediss://") {
        return Err(invalid(
            "this build of mcp-toolkit speaks to Redis without TLS; expected `redis://HOST:PORT`".to_owned(),
        ));
    }
    let client = Client::open(url).map_err(|e| {
        invalid(format!(
            "expected `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` ({e})"
        ))
    })?;
    if url.contains("protocol=") {
        return Ok(client);
    }
    let info = client.get_connection_info().clone();
    let settings = info
        .redis_settings()
        .clone()
        .set_protocol(::redis::ProtocolVersion::RESP3);
    Client::open(info.set_redis_settings(settings)).map_err(|e| invalid(e.to_string()))
}

/// Why a subscription could not be made.
enum Subscribe {
    Redis(RedisError),
    NoAnswer,
}

/// A connection of its own, subscribed to `channel`.
async fn subscribe(client: &Client, channel: &str, timeout: Duration) -> Result<PubSub, Subscribe> {
    let subscribing = async {
        let mut pubsub = client.get_async_pubsub().await?;
        pubsub.subscribe(channel).await?;
        Ok(pubsub)
    };
    match tokio::time::timeout(timeout, subscribing).await {
        Ok(done) => done.map_err(Subscribe::Redis),
        Err(_) => Err(Subscribe::NoAnswer),
    }
}

/// How often the subscription's connection is pinged, to notice a Redis that went away
/// without closing it.
const PING_EVERY: Duration = Duration::from_secs(10);

/// The longest wait between two attempts to subscribe again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Forwards the ids published on `channel` to `changes`, subscribing again (with backoff)
/// whenever the subscription is lost. Ends when the store is dropped (it aborts this).
async fn listen(
    client: Client,
    channel: String,
    mut pubsub: PubSub,
    changes: broadcast::Sender<Arc<str>>,
    timeout: Duration,
) {
    loop {
        let why = forward(pubsub, &changes, timeout).await;
        tracing::warn!(%channel, %why, "lost the subscription to task changes; changes made until it is back are missed");
        let mut backoff = Duration::from_millis(100);
        pubsub = loop {
            tokio::time::sleep(backoff).await;
            match subscribe(&client, &channel, timeout).await {
                Ok(pubsub) => break pubsub,
                Err(Subscribe::Redis(e)) => {
                    tracing::debug!(%channel, error = %e, "could not subscribe to task changes again; trying later");
                }
                Err(Subscribe::NoAnswer) => {
                    tracing::debug!(%channel, "redis did not answer the subscription within {timeout:?}; trying later");
                }
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        };
        tracing::info!(%channel, "subscribed to task changes again; those made while it was lost were missed");
    }
}

/// Forwards the subscription's messages until it is lost; says why.
async fn forward(pubsub: PubSub, changes: &broadcast::Sender<Arc<str>>, timeout: Duration) -> String {
    let (mut sink, mut messages) = pubsub.split();
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            message = messages.next() => {
                let Some(message) = message else {
                    return "the connection closed".to_owned();
                };
                match std::str::from_utf8(message.get_payload_bytes()) {
                    // Nobody listening is no error.
                    Ok(id) => {
                        let _ = changes.send(Arc::from(id));
                    }
                    Err(_) => tracing::debug!("ignored a task change whose id is not UTF-8"),
                }
            }
            _ = ping.tick() => {
                match tokio::time::timeout(timeout, sink.ping::<::redis::Value>()).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => return format!("a ping failed: {e}"),
                    Err(_) => return format!("a ping had no answer within {timeout:?}"),
                }
            }
        }
    }
}
