//! The task stores' one shared suite: every `TaskStore` (in memory, SQLite, Redis) passes the
//! same cases through the trait, and the tests below run it on each store, plus what is
//! particular to one (a memory store's limit, a SQLite file's restart).
//!
//! A store joins with one line:
//! `run_suite(Arc::new(store), Some(Arc::new(second_handle_on_the_same_backing))).await`.
//! Every case makes ids of its own, unique to the run, so the suite can run against a
//! backing store that other tests (or earlier runs) use too.

use mcp_toolkit::task::{
    MemoryStore, RESULT_ID_PREFIX, SqliteStore, StoreError, StoreUrl, StoredTask, TaskStore,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

/// How long a change may take to be announced before the suite calls it lost.
const HEARD_WITHIN: Duration = Duration::from_secs(5);

/// How many writers race to replace the same version.
const WRITERS: usize = 16;

/// Runs every case on `store`. `second` is another handle onto the same backing store (a
/// second `SqliteStore` on the same file, a second connection to the same Redis), or `None`
/// for a store that only one handle reaches (memory); with it, the cases that span two
/// handles run too, each way.
pub(crate) async fn run_suite(store: Arc<dyn TaskStore>, second: Option<Arc<dyn TaskStore>>) {
    round_trip(&*store).await;
    a_second_create_of_an_id_is_refused(&*store).await;
    an_unknown_id_loads_nothing(&*store).await;
    replaces_follow_the_version(&*store).await;
    a_stale_replace_loses_and_writes_nothing(&*store).await;
    a_replace_of_an_unknown_id_creates_nothing(&*store).await;
    a_task_whose_time_is_up_is_gone(&*store).await;
    changes_are_announced(&*store).await;
    concurrent_replaces_have_one_winner(&store).await;
    spilled_pages_are_kept_until_their_time(&*store).await;
    if let Some(second) = second {
        two_handles_see_one_store(&*store, &*second).await;
        two_handles_see_one_store(&*second, &*store).await;
        a_page_spilled_on_one_handle_reads_on_the_other(&*store, &*second).await;
    }
}

/// The pages of a result spilled over its budget: records under `RESULT_ID_PREFIX`, written
/// once, of any size, gone when their time is up.
async fn spilled_pages_are_kept_until_their_time(store: &dyn TaskStore) {
    let result = unique("spilled");
    let page = |n: usize| format!("{RESULT_ID_PREFIX}{result}:{n}");
    let expires_at = now_ms() + 1_000;
    // A page of 1 MiB: a store keeps large records as they are.
    let big = "é".repeat(512 * 1024);
    for n in 1..=3 {
        let data = format!("{{\"page\":{n},\"text\":\"{big}\"}}");
        store
            .create(StoredTask::new(page(n), 1, expires_at, data))
            .await
            .expect("a spilled page is kept");
    }
    let second = store.load(&page(2)).await.expect("load").expect("the page loads");
    assert!(
        second.data.starts_with("{\"page\":2,"),
        "the page is the one written"
    );
    assert_eq!(second.data.len(), big.len() + 20);
    assert_eq!(
        store.load(&page(4)).await.expect("load"),
        None,
        "no page past the last"
    );
    tokio::time::sleep(Duration::from_millis(expires_at.saturating_sub(now_ms()) + 50)).await;
    for n in 1..=3 {
        assert_eq!(
            store.load(&page(n)).await.expect("load"),
            None,
            "a spilled page whose time is up loads nothing"
        );
    }
}

/// A page one instance spilled is read by another sharing the store.
async fn a_page_spilled_on_one_handle_reads_on_the_other(a: &dyn TaskStore, b: &dyn TaskStore) {
    let id = format!("{RESULT_ID_PREFIX}{}:2", unique("shared-page"));
    a.create(StoredTask::new(&id, 1, in_an_hour(), "page two"))
        .await
        .expect("create");
    let read = b
        .load(&id)
        .await
        .expect("load")
        .expect("the other handle reads it");
    assert_eq!(read.data, "page two");
}

/// An id no other case, test or run uses.
fn unique(case: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{case}-{}-{nanos}-{n}", std::process::id())
}

fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// An expiry an hour away: no case outlives it.
fn in_an_hour() -> u64 {
    now_ms() + 3_600_000
}

/// Waits for `id` on `changes`, skipping the ids of other cases; panics, naming `what`, if
/// it is not heard within [`HEARD_WITHIN`].
async fn hear(changes: &mut broadcast::Receiver<Arc<str>>, id: &str, what: &str) {
    let heard = tokio::time::timeout(HEARD_WITHIN, async {
        loop {
            match changes.recv().await {
                Ok(changed) if &*changed == id => return,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => panic!("{what}: the changes channel closed"),
            }
        }
    })
    .await;
    assert!(
        heard.is_ok(),
        "{what}: `{id}` was not announced within {HEARD_WITHIN:?}"
    );
}

/// The next of `ids` announced on `changes`.
async fn next_of(changes: &mut broadcast::Receiver<Arc<str>>, ids: &[&str], what: &str) -> String {
    let heard = tokio::time::timeout(HEARD_WITHIN, async {
        loop {
            match changes.recv().await {
                Ok(changed) if ids.contains(&&*changed) => return changed.to_string(),
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => panic!("{what}: the changes channel closed"),
            }
        }
    })
    .await;
    heard.unwrap_or_else(|_| panic!("{what}: none of {ids:?} was announced within {HEARD_WITHIN:?}"))
}

async fn round_trip(store: &dyn TaskStore) {
    let plain = StoredTask::new(unique("round-trip"), 1, in_an_hour(), r#"{"status":"working"}"#);
    // Opaque data is kept byte for byte: quotes, escapes, non-ASCII, and a large result.
    let odd = StoredTask::new(
        unique("round-trip-odd"),
        1,
        in_an_hour(),
        "{\"message\":\"naïve \\\"quoted\\\" ✓\\n\",\"tab\":\"\t\",\"emoji\":\"🦀\"}",
    );
    let large = StoredTask::new(
        unique("round-trip-large"),
        1,
        in_an_hour(),
        "x".repeat(256 * 1024),
    );
    // `u64::MAX` is "never".
    let never = StoredTask::new(unique("round-trip-never"), 1, u64::MAX, "{}");
    for task in [plain, odd, large, never] {
        store.create(task.clone()).await.expect("create");
        let loaded = store.load(&task.id).await.expect("load");
        assert_eq!(
            loaded.as_ref(),
            Some(&task),
            "round trip: a created task loads as it was"
        );
    }
}

async fn a_second_create_of_an_id_is_refused(store: &dyn TaskStore) {
    let id = unique("exists");
    store
        .create(StoredTask::new(&id, 1, in_an_hour(), "first"))
        .await
        .expect("create");
    let again = store
        .create(StoredTask::new(&id, 1, in_an_hour(), "second"))
        .await;
    assert!(
        matches!(&again, Err(StoreError::Exists { id: named }) if *named == id),
        "a second create of `{id}` must fail with `Exists` naming it, got {again:?}"
    );
    let kept = store
        .load(&id)
        .await
        .expect("load")
        .expect("the first task is kept");
    assert_eq!(kept.data, "first", "a refused create writes nothing");
}

async fn an_unknown_id_loads_nothing(store: &dyn TaskStore) {
    let loaded = store.load(&unique("unknown")).await.expect("load");
    assert_eq!(loaded, None, "an id never created loads nothing");
}

async fn replaces_follow_the_version(store: &dyn TaskStore) {
    let id = unique("replace");
    store
        .create(StoredTask::new(&id, 1, in_an_hour(), "v1"))
        .await
        .expect("create");
    for version in 2..=4 {
        // A replace may move the expiry too.
        let task = StoredTask::new(&id, version, in_an_hour() + version, format!("v{version}"));
        assert!(
            store.replace(task.clone()).await.expect("replace"),
            "replacing version {} with {version}",
            version - 1
        );
        let loaded = store.load(&id).await.expect("load");
        assert_eq!(loaded, Some(task), "a replace that succeeded is what loads next");
    }
}

async fn a_stale_replace_loses_and_writes_nothing(store: &dyn TaskStore) {
    let id = unique("stale");
    store
        .create(StoredTask::new(&id, 1, in_an_hour(), "v1"))
        .await
        .expect("create");
    let second = StoredTask::new(&id, 2, in_an_hour(), "v2");
    assert!(
        store.replace(second.clone()).await.expect("replace"),
        "replacing version 1 with 2"
    );
    // Each of these names a version the store does not keep next to the one it keeps.
    for (version, what) in [
        (2, "a replace that read version 1 too"),
        (1, "a replace of version 0"),
        (0, "a replace to version 0"),
        (4, "a replace that skips a version"),
        (u64::MAX, "a replace far ahead"),
    ] {
        let stale = StoredTask::new(&id, version, in_an_hour(), "stale");
        assert!(!store.replace(stale).await.expect("replace"), "{what} must lose");
    }
    let loaded = store.load(&id).await.expect("load");
    assert_eq!(loaded, Some(second), "a replace that lost writes nothing");
}

async fn a_replace_of_an_unknown_id_creates_nothing(store: &dyn TaskStore) {
    let id = unique("replace-unknown");
    let replaced = store
        .replace(StoredTask::new(&id, 2, in_an_hour(), "v2"))
        .await
        .expect("replace");
    assert!(!replaced, "a replace of an id never created must lose");
    assert_eq!(
        store.load(&id).await.expect("load"),
        None,
        "a replace that lost creates nothing"
    );
}

async fn a_task_whose_time_is_up_is_gone(store: &dyn TaskStore) {
    let id = unique("expiry");
    // Long enough that the load just after the create comes before it, on a loaded machine.
    let expires_at = now_ms() + 1_000;
    store
        .create(StoredTask::new(&id, 1, expires_at, "v1"))
        .await
        .expect("create");
    assert!(
        store.load(&id).await.expect("load").is_some(),
        "a task loads before its time is up"
    );
    tokio::time::sleep(Duration::from_millis(expires_at.saturating_sub(now_ms()) + 50)).await;
    assert_eq!(
        store.load(&id).await.expect("load"),
        None,
        "a task whose time is up loads nothing"
    );
    let late = StoredTask::new(&id, 2, in_an_hour(), "v2");
    assert!(
        !store.replace(late).await.expect("replace"),
        "a task whose time is up cannot be replaced"
    );
    assert_eq!(
        store.load(&id).await.expect("load"),
        None,
        "a replace that lost does not revive the task"
    );
    // Its id is free again.
    let again = StoredTask::new(&id, 1, in_an_hour(), "again");
    store
        .create(again.clone())
        .await
        .expect("the id of a task whose time is up can be created again");
    assert_eq!(
        store.load(&id).await.expect("load"),
        Some(again),
        "the task created again loads"
    );
}

async fn changes_are_announced(store: &dyn TaskStore) {
    let mut changes = store.changes();
    let id = unique("changes");
    store
        .create(StoredTask::new(&id, 1, in_an_hour(), "v1"))
        .await
        .expect("create");
    hear(&mut changes, &id, "a create").await;
    assert!(
        store
            .replace(StoredTask::new(&id, 2, in_an_hour(), "v2"))
            .await
            .expect("replace")
    );
    hear(&mut changes, &id, "a replace").await;
    // What fails is not announced: the next of the two ids heard is the one created after.
    let other = unique("changes-other");
    assert!(
        !store
            .replace(StoredTask::new(&id, 2, in_an_hour(), "stale"))
            .await
            .expect("replace")
    );
    assert!(
        store
            .create(StoredTask::new(&id, 1, in_an_hour(), "again"))
            .await
            .is_err()
    );
    store
        .create(StoredTask::new(&other, 1, in_an_hour(), "v1"))
        .await
        .expect("create");
    let next = next_of(
        &mut changes,
        &[&id, &other],
        "after a stale replace and a refused create",
    )
    .await;
    assert_eq!(
        next, other,
        "a replace that lost, or a create refused, must not be announced"
    );
}

async fn concurrent_replaces_have_one_winner(store: &Arc<dyn TaskStore>) {
    let id = unique("race");
    store
        .create(StoredTask::new(&id, 1, in_an_hour(), "v1"))
        .await
        .expect("create");
    for version in 2..=4 {
        let writers: Vec<_> = (0..WRITERS)
            .map(|writer| {
                let store = Arc::clone(store);
                let task = StoredTask::new(&id, version, in_an_hour(), format!("writer {writer}"));
                tokio::spawn(async move { store.replace(task).await.expect("replace") })
            })
            .collect();
        let mut winners = Vec::new();
        for (writer, handle) in writers.into_iter().enumerate() {
            if handle.await.expect("a writer panicked") {
                winners.push(writer);
            }
        }
        assert_eq!(
            winners.len(),
            1,
            "{WRITERS} writers replaced version {} at once: exactly one wins, {winners:?} did",
            version - 1
        );
        let kept = store.load(&id).await.expect("load").expect("the task is kept");
        assert_eq!(
            (kept.version, kept.data),
            (version, format!("writer {}", winners[0])),
            "the winner's write is kept"
        );
    }
}

/// `a` and `b` are two handles onto one backing store.
async fn two_handles_see_one_store(a: &dyn TaskStore, b: &dyn TaskStore) {
    let mut b_changes = b.changes();
    let id = unique("two-handles");
    let first = StoredTask::new(&id, 1, in_an_hour(), "v1");
    a.create(first.clone()).await.expect("create");
    assert_eq!(
        b.load(&id).await.expect("load"),
        Some(first),
        "a task created through one handle loads through the other"
    );
    let again = b.create(StoredTask::new(&id, 1, in_an_hour(), "again")).await;
    assert!(
        matches!(again, Err(StoreError::Exists { .. })),
        "a create through the other handle of the same id must fail with `Exists`, got {again:?}"
    );
    // Both read version 1; `a` writes first, so `b`'s write is stale.
    let from_a = StoredTask::new(&id, 2, in_an_hour(), "from a");
    assert!(
        a.replace(from_a.clone()).await.expect("replace"),
        "the first replace wins"
    );
    let from_b = StoredTask::new(&id, 2, in_an_hour(), "from b");
    assert!(
        !b.replace(from_b).await.expect("replace"),
        "a replace through the other handle of the same version loses"
    );
    assert_eq!(
        b.load(&id).await.expect("load"),
        Some(from_a.clone()),
        "the other handle loads the winner"
    );
    assert_eq!(
        a.load(&id).await.expect("load"),
        Some(from_a),
        "and so does the first"
    );
    if a.is_shared() && b.is_shared() {
        hear(
            &mut b_changes,
            &id,
            "a change made through another handle of a shared store",
        )
        .await;
    }
}

/// A file in the temp dir for a SQLite store, removed with its log when dropped.
struct TempDb(PathBuf);

impl TempDb {
    fn new(name: &str) -> TempDb {
        TempDb(std::env::temp_dir().join(format!("{}.db", unique(&format!("mcp-task-stores-{name}")))))
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", self.0.display()));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_store_passes_the_suite() {
    run_suite(Arc::new(MemoryStore::new()), None).await;
}

#[tokio::test]
async fn a_memory_store_drops_its_oldest_spilled_pages_never_a_task() {
    // Three pages of 40 bytes (id and data) fit; tasks do not count against it.
    let store = MemoryStore::with_limit(1).with_result_limit(120);
    store
        .create(StoredTask::new("task", 1, in_an_hour(), "x".repeat(500)))
        .await
        .expect("a task is no spilled result");
    let page = |n: usize| StoredTask::new(format!("result:r:{n}"), 1, in_an_hour(), "y".repeat(30));
    for n in 1..=5 {
        store.create(page(n)).await.expect("room is made for a page");
        assert!(store.result_bytes() <= 120, "{} bytes", store.result_bytes());
    }
    assert_eq!(store.result_bytes(), 120);
    for n in 1..=2 {
        assert_eq!(
            store.load(&format!("result:r:{n}")).await.expect("load"),
            None,
            "page {n} was dropped"
        );
    }
    for n in 3..=5 {
        assert!(
            store
                .load(&format!("result:r:{n}"))
                .await
                .expect("load")
                .is_some(),
            "page {n} is kept"
        );
    }
    assert!(
        store.load("task").await.expect("load").is_some(),
        "the task is never dropped for a page"
    );
    let huge = StoredTask::new("result:huge:1", 1, in_an_hour(), "z".repeat(200));
    let refused = store.create(huge).await;
    assert!(
        matches!(
            refused,
            Err(StoreError::ResultTooLarge {
                bytes: 213,
                limit: 120
            })
        ),
        "a page larger than the limit is refused, got {refused:?}"
    );
    assert_eq!(store.result_bytes(), 120, "and nothing was dropped for it");
}

#[tokio::test]
async fn a_full_memory_store_refuses_until_a_task_expires() {
    let store = MemoryStore::with_limit(2);
    let brief = now_ms() + 300;
    store
        .create(StoredTask::new("brief", 1, brief, "{}"))
        .await
        .expect("the first task fits");
    store
        .create(StoredTask::new("lasting", 1, in_an_hour(), "{}"))
        .await
        .expect("the second task fits");
    let third = store
        .create(StoredTask::new("third", 1, in_an_hour(), "{}"))
        .await;
    assert!(
        matches!(third, Err(StoreError::Full { limit: 2 })),
        "a third task is refused with `Full`, got {third:?}"
    );
    let message = third.unwrap_err().to_string();
    assert!(message.contains("holds 2 tasks"), "{message}");
    assert_eq!(
        store.load("third").await.expect("load"),
        None,
        "a refused create writes nothing"
    );
    tokio::time::sleep(Duration::from_millis(brief.saturating_sub(now_ms()) + 50)).await;
    store
        .create(StoredTask::new("third", 1, in_an_hour(), "{}"))
        .await
        .expect("a task whose time is up frees room");
    let fourth = store
        .create(StoredTask::new("fourth", 1, in_an_hour(), "{}"))
        .await;
    assert!(
        matches!(fourth, Err(StoreError::Full { limit: 2 })),
        "then it is full again, got {fourth:?}"
    );
}

#[tokio::test]
async fn a_memory_store_refuses_a_task_past_its_byte_limit_until_one_expires() {
    // Ids of 5 bytes: each task below holds its id and data.
    let store = MemoryStore::new().with_task_byte_limit(1_000);
    assert_eq!(store.task_byte_limit(), 1_000);
    let brief = now_ms() + 300;
    store
        .create(StoredTask::new("brief", 1, brief, "a".repeat(595)))
        .await
        .expect("600 bytes fit");
    store
        .create(StoredTask::new("large", 1, in_an_hour(), "b".repeat(295)))
        .await
        .expect("900 bytes fit");
    // Spilled pages have a limit of their own: they take nothing from the tasks'.
    store
        .create(StoredTask::new("result:r:1", 1, in_an_hour(), "p".repeat(500)))
        .await
        .expect("a page is no task");
    assert_eq!(store.task_bytes(), 900);
    let third = store
        .create(StoredTask::new("third", 1, in_an_hour(), "c".repeat(395)))
        .await;
    let Err(refused) = third else {
        panic!("a task past the byte limit is refused, got {third:?}")
    };
    assert!(
        matches!(
            refused,
            StoreError::BytesFull {
                held: 900,
                bytes: 400,
                limit: 1_000
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "the task store holds 900 bytes of tasks and this one needs 400, more than the 1000 bytes it may hold; try again when some have expired"
    );
    assert_eq!(
        store.load("third").await.expect("load"),
        None,
        "a refused create writes nothing"
    );
    // A kept task's writes are never refused, and its size is counted as it is now.
    assert!(
        store
            .replace(StoredTask::new("large", 2, in_an_hour(), "d".repeat(95)))
            .await
            .expect("replace")
    );
    assert_eq!(
        store.task_bytes(),
        700,
        "a smaller record frees what it no longer holds"
    );
    let again = store
        .create(StoredTask::new("third", 1, in_an_hour(), "c".repeat(395)))
        .await;
    assert!(
        matches!(again, Err(StoreError::BytesFull { held: 700, .. })),
        "still too much, got {again:?}"
    );
    tokio::time::sleep(Duration::from_millis(brief.saturating_sub(now_ms()) + 50)).await;
    store
        .create(StoredTask::new("third", 1, in_an_hour(), "c".repeat(395)))
        .await
        .expect("a task whose time is up frees its bytes");
    assert_eq!(store.task_bytes(), 500);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_passes_the_suite() {
    let db = TempDb::new("suite");
    let store = SqliteStore::open(&db.0).expect("open");
    // A second store on the same file: another connection, as a restarted process has.
    let second = SqliteStore::open(&db.0).expect("a second open of the same file");
    assert!(!store.is_shared(), "a sqlite store is not shared by instances");
    run_suite(Arc::new(store), Some(Arc::new(second))).await;
}

#[tokio::test]
async fn a_sqlite_store_keeps_its_tasks_across_a_restart() {
    let db = TempDb::new("restart");
    let (lasting, brief) = (unique("lasting"), unique("brief"));
    let brief_until = now_ms() + 500;
    {
        let store = SqliteStore::open(&db.0).expect("open");
        store
            .create(StoredTask::new(&lasting, 1, in_an_hour(), "v1"))
            .await
            .expect("create");
        assert!(
            store
                .replace(StoredTask::new(&lasting, 2, in_an_hour(), "v2"))
                .await
                .expect("replace")
        );
        store
            .create(StoredTask::new(&brief, 1, brief_until, "v1"))
            .await
            .expect("create");
    }
    // Opened again the way a server's `--task-store sqlite:PATH` opens it.
    let url: StoreUrl = format!("sqlite:{}", db.0.display())
        .parse()
        .expect("a sqlite URL");
    let store = url.open().await.expect("open again");
    let kept = store
        .load(&lasting)
        .await
        .expect("load")
        .expect("a task survives the restart");
    assert_eq!(
        (kept.version, kept.data.as_str()),
        (2, "v2"),
        "with its last write"
    );
    assert!(
        store
            .replace(StoredTask::new(&lasting, 3, in_an_hour(), "v3"))
            .await
            .expect("replace"),
        "and takes the next"
    );
    tokio::time::sleep(Duration::from_millis(brief_until.saturating_sub(now_ms()) + 50)).await;
    assert_eq!(
        store.load(&brief).await.expect("load"),
        None,
        "a task whose time ran out meanwhile is gone"
    );
}
