//! The Redis task store against a real `redis-server` (started by `support::redis`): what
//! only a shared store does (two handles, as two instances hold them, see each other's
//! tasks and changes) and what only a server can do to it (be killed and come back).
//! Skipped, with a note on stderr, where `redis-server` is not installed and `CI` is unset.

use crate::support::redis::RedisServer;
use mcp_toolkit::task::{RedisStore, StoreError, StoredTask, TaskStore};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

/// How long a change may take to cross from one handle to another.
const HEARD_WITHIN: Duration = Duration::from_secs(5);

fn now_ms() -> u64 {
    u64::try_from(SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis()).unwrap()
}

fn in_an_hour() -> u64 {
    now_ms() + 3_600_000
}

async fn connect(redis: &RedisServer) -> RedisStore {
    RedisStore::connect(&redis.url())
        .await
        .expect("connect to redis-server")
}

/// The next id `changes` hears, within [`HEARD_WITHIN`].
async fn heard(changes: &mut broadcast::Receiver<Arc<str>>) -> String {
    match tokio::time::timeout(HEARD_WITHIN, changes.recv()).await {
        Ok(Ok(id)) => id.to_string(),
        Ok(Err(e)) => panic!("changes: {e}"),
        Err(_) => panic!("no change heard within {HEARD_WITHIN:?}"),
    }
}

/// Nothing heard on `changes` for a moment.
async fn silent(changes: &mut broadcast::Receiver<Arc<str>>) {
    if let Ok(got) = tokio::time::timeout(Duration::from_millis(300), changes.recv()).await {
        panic!("expected no change, heard {got:?}");
    }
}

fn assert_unavailable<T: std::fmt::Debug>(result: Result<T, StoreError>) {
    match result {
        Err(StoreError::Unavailable { store: "redis", .. }) => {}
        other => panic!("expected the redis store to be unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn redis_store_passes_the_suite() {
    let Some(redis) = RedisServer::start() else { return };
    let store: Arc<dyn TaskStore> = Arc::new(connect(&redis).await);
    let second: Arc<dyn TaskStore> = Arc::new(connect(&redis).await);
    crate::task_stores::run_suite(store, Some(second)).await;
}

#[tokio::test]
async fn two_handles_share_tasks_and_hear_each_others_changes() {
    let Some(redis) = RedisServer::start() else { return };
    // One speaks RESP3 (the default), the other RESP2, as the URL may ask.
    let here = connect(&redis).await;
    let there = RedisStore::connect(&format!("{}/?protocol=resp2", redis.url()))
        .await
        .unwrap();
    assert!(here.is_shared() && there.is_shared());
    let (mut heard_here, mut heard_there) = (here.changes(), there.changes());

    let task = StoredTask::new("t1", 1, in_an_hour(), r#"{"status":"working"}"#);
    here.create(task.clone()).await.unwrap();
    // Every handle hears it, the one that wrote it too: the change went through Redis.
    assert_eq!(heard(&mut heard_there).await, "t1");
    assert_eq!(heard(&mut heard_here).await, "t1");
    assert_eq!(there.load("t1").await.unwrap(), Some(task.clone()));

    let mut done = task.clone();
    done.version = 2;
    done.data = r#"{"status":"completed"}"#.into();
    assert!(there.replace(done.clone()).await.unwrap());
    assert_eq!(heard(&mut heard_here).await, "t1");
    assert_eq!(heard(&mut heard_there).await, "t1");
    assert_eq!(here.load("t1").await.unwrap(), Some(done.clone()));

    // The handle that read version 1 loses, and nothing is announced.
    let mut stale = task.clone();
    stale.version = 2;
    stale.data = r#"{"status":"cancelled"}"#.into();
    assert!(!here.replace(stale).await.unwrap());
    assert!(matches!(
        there.create(task).await,
        Err(StoreError::Exists { id }) if id == "t1"
    ));
    silent(&mut heard_here).await;
    assert_eq!(there.load("t1").await.unwrap(), Some(done));
    assert_eq!(here.load("t2").await.unwrap(), None);
}

#[tokio::test]
async fn redis_expires_tasks_at_their_time() {
    let Some(redis) = RedisServer::start() else { return };
    let store = connect(&redis).await;

    let soon = now_ms() + 400;
    store
        .create(StoredTask::new("brief", 1, soon, "{}"))
        .await
        .unwrap();
    // Redis holds the expiry itself, to the millisecond the task names.
    let ttl: i64 = redis.command(&["PEXPIRETIME", "mcp-toolkit:task:brief"])[1..]
        .parse()
        .unwrap();
    assert_eq!(ttl, i64::try_from(soon).unwrap());
    assert!(store.load("brief").await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(store.load("brief").await.unwrap(), None);
    assert!(
        !store
            .replace(StoredTask::new("brief", 2, in_an_hour(), "{}"))
            .await
            .unwrap()
    );
    // Its id is free again.
    store
        .create(StoredTask::new("brief", 1, in_an_hour(), "{}"))
        .await
        .unwrap();

    // `u64::MAX` is never; a replace that sets a time and one that takes it back away.
    store
        .create(StoredTask::new("long", 1, u64::MAX, "{}"))
        .await
        .unwrap();
    assert_eq!(redis.command(&["PTTL", "mcp-toolkit:task:long"]), ":-1");
    assert!(
        store
            .replace(StoredTask::new("long", 2, in_an_hour(), "{}"))
            .await
            .unwrap()
    );
    assert_ne!(redis.command(&["PTTL", "mcp-toolkit:task:long"]), ":-1");
    assert!(
        store
            .replace(StoredTask::new("long", 3, u64::MAX, "{}"))
            .await
            .unwrap()
    );
    assert_eq!(redis.command(&["PTTL", "mcp-toolkit:task:long"]), ":-1");
    assert_eq!(store.load("long").await.unwrap().unwrap().expires_at, u64::MAX);

    // A task whose time is already up is not kept.
    store
        .create(StoredTask::new("late", 1, now_ms() - 1, "{}"))
        .await
        .unwrap();
    assert_eq!(store.load("late").await.unwrap(), None);
}

#[tokio::test]
async fn prefixes_keep_stores_apart() {
    let Some(redis) = RedisServer::start() else { return };
    let one = RedisStore::builder(redis.url())
        .prefix("one:")
        .connect()
        .await
        .unwrap();
    let two = RedisStore::builder(redis.url())
        .prefix("two:")
        .connect()
        .await
        .unwrap();
    assert_eq!(one.prefix(), "one:");
    let mut heard_two = two.changes();

    one.create(StoredTask::new("same", 1, in_an_hour(), "one"))
        .await
        .unwrap();
    two.create(StoredTask::new("same", 1, in_an_hour(), "two"))
        .await
        .unwrap();
    // `two` heard its own change only, though `one`'s was published first.
    assert_eq!(heard(&mut heard_two).await, "same");
    silent(&mut heard_two).await;
    assert_eq!(one.load("same").await.unwrap().unwrap().data, "one");
    assert_eq!(two.load("same").await.unwrap().unwrap().data, "two");
    assert_eq!(redis.command(&["EXISTS", "one:task:same", "two:task:same"]), ":2");
}

#[tokio::test]
async fn a_key_that_is_not_a_task_is_an_error_not_a_task() {
    let Some(redis) = RedisServer::start() else { return };
    let store = connect(&redis).await;
    assert_eq!(redis.command(&["HSET", "mcp-toolkit:task:odd", "v", "1"]), ":1");
    assert_eq!(redis.command(&["SET", "mcp-toolkit:task:text", "hello"]), "+OK");
    for id in ["odd", "text"] {
        assert_unavailable(store.load(id).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_concurrent_replaces_across_handles_exactly_one_wins() {
    let Some(redis) = RedisServer::start() else { return };
    let stores = [Arc::new(connect(&redis).await), Arc::new(connect(&redis).await)];
    stores[0]
        .create(StoredTask::new("race", 1, in_an_hour(), "start"))
        .await
        .unwrap();

    let racers: Vec<_> = (0..32)
        .map(|n| {
            let store = Arc::clone(&stores[n % 2]);
            tokio::spawn(async move {
                let won = store
                    .replace(StoredTask::new("race", 2, in_an_hour(), format!("racer {n}")))
                    .await
                    .unwrap();
                won.then_some(n)
            })
        })
        .collect();
    let mut winners = Vec::new();
    for racer in racers {
        winners.extend(racer.await.unwrap());
    }
    assert_eq!(winners.len(), 1, "winners: {winners:?}");
    let kept = stores[1].load("race").await.unwrap().unwrap();
    assert_eq!((kept.version, kept.data), (2, format!("racer {}", winners[0])));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_redis_keeps_acknowledged_tasks_and_the_store_recovers() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let (here, there) = (connect(&redis).await, connect(&redis).await);
    let mut heard_here = here.changes();
    let task = StoredTask::new("kept", 1, in_an_hour(), r#"{"status":"working"}"#);
    here.create(task.clone()).await.unwrap();
    assert_eq!(heard(&mut heard_here).await, "kept");

    // Killed as a crash would, right after the acknowledgement.
    redis.kill();
    let outage = Instant::now();
    // Every call fails, and soon: none waits for Redis to come back.
    for _ in 0..2 {
        let started = Instant::now();
        assert_unavailable(here.load("kept").await);
        assert_unavailable(here.create(StoredTask::new("lost", 1, in_an_hour(), "{}")).await);
        let mut next = task.clone();
        next.version = 2;
        assert_unavailable(here.replace(next).await);
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "three calls in an outage took {took:?}"
        );
    }

    redis.restart();
    // The task was acknowledged before the crash: the append-only file kept it. The handle
    // that failed during the outage and the one that sat idle both work at once.
    assert_eq!(here.load("kept").await.unwrap(), Some(task.clone()));
    assert_eq!(there.load("kept").await.unwrap(), Some(task.clone()));
    assert_eq!(there.load("lost").await.unwrap(), None);
    let mut next = task.clone();
    next.version = 2;
    assert!(there.replace(next).await.unwrap());

    // Once the subscription is back, changes made on the other handle are heard again. Ids
    // published before it is back are missed (as documented), so publish until one is heard.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut published = 0;
    let first = loop {
        assert!(
            Instant::now() < deadline,
            "no change heard after the restart (outage began {:?} ago)",
            outage.elapsed()
        );
        there
            .create(StoredTask::new(
                format!("after-{published}"),
                1,
                in_an_hour(),
                "{}",
            ))
            .await
            .unwrap();
        published += 1;
        match tokio::time::timeout(Duration::from_millis(250), heard_here.recv()).await {
            Ok(Ok(id)) if id.starts_with("after-") => break id,
            Ok(Ok(_)) | Err(_) => {}
            Ok(Err(broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(e)) => panic!("changes: {e}"),
        }
    };
    // From then on, every change is heard, in order.
    let first: usize = first["after-".len()..].parse().unwrap();
    for n in first + 1..published {
        assert_eq!(heard(&mut heard_here).await, format!("after-{n}"));
    }
    there
        .create(StoredTask::new("last", 1, in_an_hour(), "{}"))
        .await
        .unwrap();
    assert_eq!(heard(&mut heard_here).await, "last");
}

#[tokio::test]
async fn a_redis_that_is_not_there_fails_to_open_at_once() {
    // A port nothing listens on: connecting fails, and does not hang.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let started = Instant::now();
    let failed = RedisStore::connect(&format!("redis://127.0.0.1:{port}")).await;
    // Named by its address, with the cause.
    match failed {
        Err(StoreError::Open { store, source }) => {
            assert_eq!(store, format!("redis://127.0.0.1:{port}"));
            assert!(
                source.to_string().to_lowercase().contains("connection refused"),
                "{source}"
            );
        }
        other => panic!("expected the redis store not to open, got {other:?}"),
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn urls_it_cannot_use_are_refused_with_what_it_takes() {
    for url in ["rediss://127.0.0.1:6379", "redis://", "redis://host:port"] {
        match RedisStore::connect(url).await {
            Err(StoreError::InvalidUrl { url: given, reason }) => {
                assert_eq!(given, url);
                assert!(reason.contains("redis://"), "{url}: {reason}");
            }
            other => panic!("{url}: expected an invalid URL, got {other:?}"),
        }
    }
}
