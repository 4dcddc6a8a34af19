//! What tasks cost (the tasks extension, `io.modelcontextprotocol/tasks`), for each task
//! store: the in-memory default, SQLite on a temporary file (feature `sqlite`) and Redis
//! (feature `redis`, when `redis-server` is on PATH: started here on a free port with
//! `--save "" --appendonly yes`, and skipped with a note otherwise).
//!
//! - `tasks/store/STORE/...`: the store alone. A short task's writes and reads (`create`,
//!   `replace` twice, `load`: created working, a status message, finished, polled once),
//!   with the records the engine writes; and `load` alone, among 1,000 tasks.
//! - `tasks/e2e/STORE/...`: through the engine, with the in-process test client: a call of a
//!   `task = "required"` tool that finishes at once (the call creates a finished task: what
//!   creating costs); a tool that yields once and then finishes (created working, then
//!   finished: create and finish), one and 32 calls in flight, timed until every task is
//!   finished in the store; and `tasks/get` of a finished task.
//! - Before the timings (unless a filter leaves out `memory`): the heap 10,000 finished tasks
//!   hold in the in-memory store, counted by this binary's global allocator, and how the
//!   store's limit and the tasks' TTL bound it.
//!
//! `cargo bench -p mcp-toolkit --bench tasks --features sqlite,redis`
//!
//! Quick by default: 10 samples in about 2 s for each figure. Everything runs on one
//! current-thread tokio runtime (SQLite's own thread aside), as a single-core server would,
//! each sample's operations in one `block_on`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use mcp_toolkit::task::{MemoryStore, StoreFuture, StoredTask, TaskStore};
use mcp_toolkit::testing::{ClientError, TestClient};
use mcp_toolkit::tool::TaskSupport;
use mcp_toolkit::{Context, Server, Tool};
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::runtime::Runtime;
use tokio::sync::{Notify, broadcast};

// ---------------------------------------------------------------------------------------
// The heap, counted.

/// The system allocator, counting the bytes and blocks live while a [`HeapWindow`] is open.
struct Counting;

/// Whether a window is open: outside one, allocation costs one relaxed load more.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed since the window opened.
static BYTES: AtomicIsize = AtomicIsize::new(0);
/// Blocks allocated minus blocks freed since the window opened.
static BLOCKS: AtomicIsize = AtomicIsize::new(0);

fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: every call goes to `System` with the caller's arguments unchanged; the counters
// only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which `System.alloc` shares.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() && COUNTING.load(Ordering::Relaxed) {
            BYTES.fetch_add(signed(layout.size()), Ordering::Relaxed);
            BLOCKS.fetch_add(1, Ordering::Relaxed);
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() && COUNTING.load(Ordering::Relaxed) {
            BYTES.fetch_add(signed(layout.size()), Ordering::Relaxed);
            BLOCKS.fetch_add(1, Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(block, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            BYTES.fetch_sub(signed(layout.size()), Ordering::Relaxed);
            BLOCKS.fetch_sub(1, Ordering::Relaxed);
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, and the caller upholds `realloc`'s contract.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() && COUNTING.load(Ordering::Relaxed) {
            BYTES.fetch_add(signed(new_size) - signed(layout.size()), Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Counts the heap from when it opens to when it is dropped; one at a time.
struct HeapWindow;

/// What the heap holds more than when a window opened.
#[derive(Debug, Clone, Copy)]
struct Held {
    bytes: isize,
    blocks: isize,
}

impl HeapWindow {
    fn open() -> HeapWindow {
        BYTES.store(0, Ordering::Relaxed);
        BLOCKS.store(0, Ordering::Relaxed);
        COUNTING.store(true, Ordering::SeqCst);
        HeapWindow
    }

    fn held(&self) -> Held {
        Held {
            bytes: BYTES.load(Ordering::Relaxed),
            blocks: BLOCKS.load(Ordering::Relaxed),
        }
    }
}

impl Drop for HeapWindow {
    fn drop(&mut self) {
        COUNTING.store(false, Ordering::SeqCst);
    }
}

/// The process's resident set (`VmRSS`), in KiB; 0 where `/proc` has none.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// `n` with a comma every three digits, as the README writes numbers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

fn mib(bytes: isize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

// ---------------------------------------------------------------------------------------
// The server: three tools that run only as tasks.

/// A small result, as a report tool would return.
const REPORT: &str = "report for 2026-07: 42 rows, 3 warnings, saved as reports/2026-07.csv";

/// `report_now` finishes at once (its call creates a finished task); `report_soon` yields
/// once first (created working, then finished); `report_held` sets a status message and
/// waits to be cancelled (its record is the one a working task keeps). All three run only
/// as tasks; `report_plain` is `report_now` as a plain tool, never a task.
fn tools() -> Vec<Tool> {
    let schema = json!({ "type": "object" });
    let now = Tool::from_json(
        "report_now",
        "Builds a small report at once.",
        schema.clone(),
        |_, _| async { REPORT },
    );
    let soon = Tool::from_json(
        "report_soon",
        "Builds a small report after yielding once.",
        schema.clone(),
        |_, _| async {
            tokio::task::yield_now().await;
            REPORT
        },
    );
    let held = Tool::from_json(
        "report_held",
        "Works until cancelled.",
        schema,
        |_, cx: Context| async move {
            cx.set_status("step 1 of 2");
            cx.cancelled().await;
            "stopped"
        },
    );
    let valid = "the tools' names and schemas are valid";
    let plain = Tool::from_json(
        "report_plain",
        "Builds a small report at once, as a plain call.",
        json!({ "type": "object" }),
        |_, _| async { REPORT },
    )
    .expect(valid);
    [now, soon, held]
        .into_iter()
        .map(|tool| tool.expect(valid).with_task_support(TaskSupport::Required))
        .chain([plain])
        .collect()
}

fn bench_client(store: impl TaskStore) -> TestClient {
    Server::new("task-bench", "1.0.0")
        .tools(tools())
        .task_store(store)
        .test_client()
        .expect("the server serves")
}

/// `_meta` of a request from a client that declares the tasks extension.
fn tasks_meta() -> Value {
    json!({
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        }
    })
}

/// Calls `tool` as a client that declares the extension: the task it made.
async fn call(client: &TestClient, tool: &str) -> Result<Value, ClientError> {
    let params = json!({ "name": tool, "arguments": {}, "_meta": tasks_meta() });
    client.request("tools/call", params).await
}

/// Calls `tool` and checks the task it made is `status`; its id.
async fn call_expecting(client: &TestClient, tool: &str, status: &str) -> String {
    let task = call(client, tool)
        .await
        .unwrap_or_else(|e| panic!("calling `{tool}` failed: {e}"));
    assert_eq!(task["resultType"], "task", "{task}");
    assert_eq!(task["status"], status, "{task}");
    task["taskId"].as_str().expect("a task id").to_owned()
}

async fn tasks_get(client: &TestClient, id: &str) -> Value {
    let params = json!({ "taskId": id, "_meta": tasks_meta() });
    client
        .request("tasks/get", params)
        .await
        .unwrap_or_else(|e| panic!("tasks/get failed: {e}"))
}

/// Makes `n` calls of `tool`, `in_flight` at a time, each checked to make a task of
/// `status`.
async fn calls(client: &Arc<TestClient>, tool: &'static str, status: &'static str, n: u64, in_flight: u64) {
    let next = Arc::new(AtomicU64::new(0));
    let mut callers = tokio::task::JoinSet::new();
    for _ in 0..in_flight.min(n) {
        let client = Arc::clone(client);
        let next = Arc::clone(&next);
        callers.spawn(async move {
            while next.fetch_add(1, Ordering::Relaxed) < n {
                call_expecting(&client, tool, status).await;
            }
        });
    }
    while let Some(done) = callers.join_next().await {
        done.expect("a caller panicked");
    }
}

/// A store shared with the bench, counting the tasks it sees finished (`completed`): how
/// the bench knows when the work it started is done.
struct Counted {
    store: Arc<dyn TaskStore>,
    finished: Arc<Finished>,
}

#[derive(Default)]
struct Finished {
    count: AtomicU64,
    changed: Notify,
}

impl Finished {
    async fn wait_for(&self, n: u64) {
        loop {
            let changed = self.changed.notified();
            if self.count.load(Ordering::Acquire) >= n {
                return;
            }
            changed.await;
        }
    }
}

impl TaskStore for Counted {
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()> {
        self.store.create(task)
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        self.store.load(id)
    }

    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool> {
        // The engine writes a record's status first.
        let completed = task.data.starts_with(r#"{"status":"completed""#);
        let replaced = self.store.replace(task);
        Box::pin(async move {
            let replaced = replaced.await?;
            if replaced && completed {
                self.finished.count.fetch_add(1, Ordering::Release);
                self.finished.changed.notify_waiters();
            }
            Ok(replaced)
        })
    }

    fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.store.changes()
    }

    fn is_shared(&self) -> bool {
        self.store.is_shared()
    }
}

// ---------------------------------------------------------------------------------------
// The stores.

/// A store to measure: how to open a fresh one.
enum Kind {
    Memory,
    #[cfg(feature = "sqlite")]
    Sqlite,
    #[cfg(feature = "redis")]
    Redis(redis_server::RedisServer),
}

impl Kind {
    fn name(&self) -> &'static str {
        match self {
            Kind::Memory => "memory",
            #[cfg(feature = "sqlite")]
            Kind::Sqlite => "sqlite",
            #[cfg(feature = "redis")]
            Kind::Redis(_) => "redis",
        }
    }

    /// Every store this build and machine have, with a note on stderr for each left out.
    fn available() -> Vec<Kind> {
        #[allow(unused_mut)] // with neither feature
        let mut kinds = vec![Kind::Memory];
        #[cfg(feature = "sqlite")]
        kinds.push(Kind::Sqlite);
        #[cfg(not(feature = "sqlite"))]
        eprintln!("note: SQLite store skipped: build with `--features sqlite`");
        #[cfg(feature = "redis")]
        match redis_server::RedisServer::start() {
            Ok(server) => kinds.push(Kind::Redis(server)),
            Err(why) => eprintln!("note: Redis store skipped: {why}"),
        }
        #[cfg(not(feature = "redis"))]
        eprintln!("note: Redis store skipped: build with `--features redis`");
        kinds
    }

    /// A fresh, empty store (a new file; a new key prefix in Redis), and what to keep until
    /// it is dropped (the file, removed then).
    #[cfg_attr(not(feature = "redis"), allow(unused_variables))]
    fn open(&self, rt: &Runtime) -> Opened {
        match self {
            Kind::Memory => Opened {
                store: Arc::new(MemoryStore::new()),
                _file: None,
            },
            #[cfg(feature = "sqlite")]
            Kind::Sqlite => {
                let file = TempDb::new();
                let store =
                    mcp_toolkit::task::SqliteStore::open(&file.0).expect("a sqlite store in the temp dir");
                Opened {
                    store: Arc::new(store),
                    _file: Some(file),
                }
            }
            #[cfg(feature = "redis")]
            Kind::Redis(server) => {
                let store = rt
                    .block_on(
                        mcp_toolkit::task::RedisStore::builder(server.url())
                            .prefix(format!("bench{}:", unique()))
                            .connect(),
                    )
                    .expect("connecting to the redis-server started for the bench");
                Opened {
                    store: Arc::new(store),
                    _file: None,
                }
            }
        }
    }
}

struct Opened {
    store: Arc<dyn TaskStore>,
    _file: Option<TempDb>,
}

/// A number no earlier call returned, for file names, prefixes and task ids.
fn unique() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A SQLite file in the temp dir, removed (with its log) when dropped.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
struct TempDb(std::path::PathBuf);

impl TempDb {
    #[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
    fn new() -> TempDb {
        let name = format!("mcp-toolkit-bench-tasks-{}-{}.db", std::process::id(), unique());
        TempDb(std::env::temp_dir().join(name))
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for end in ["", "-wal", "-shm"] {
            let mut path = self.0.clone().into_os_string();
            path.push(end);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A `redis-server` for the bench: on a free loopback port, no snapshots, an append-only
/// file (as the deployment guide runs it) in a folder of its own; killed when dropped.
#[cfg(feature = "redis")]
mod redis_server {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::path::PathBuf;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    pub(crate) struct RedisServer {
        port: u16,
        dir: PathBuf,
        child: Child,
    }

    impl RedisServer {
        /// Starts one, or says why not (no `redis-server` on PATH, or it did not answer).
        pub(crate) fn start() -> Result<RedisServer, String> {
            let binary = std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths)
                .map(|dir| dir.join("redis-server"))
                .find(|path| path.is_file())
                .ok_or("`redis-server` is not on PATH (Debian's package `redis-server`)")?;
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|listener| listener.local_addr())
                .map_err(|e| format!("no free loopback port: {e}"))?
                .port();
            let dir = std::env::temp_dir().join(format!("mcp-toolkit-bench-redis-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
            let child = Command::new(&binary)
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "yes", "--daemonize", "no"])
                .arg("--dir")
                .arg(&dir)
                .arg("--logfile")
                .arg(dir.join("redis.log"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .map_err(|e| format!("starting {}: {e}", binary.display()))?;
            let server = RedisServer { port, dir, child };
            let deadline = Instant::now() + Duration::from_secs(20);
            while !server.answers_ping() {
                if Instant::now() > deadline {
                    return Err(format!(
                        "{} did not answer PING within 20 s (its log: {})",
                        binary.display(),
                        server.dir.join("redis.log").display()
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(server)
        }

        pub(crate) fn url(&self) -> String {
            format!("redis://127.0.0.1:{}", self.port)
        }

        fn answers_ping(&self) -> bool {
            let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
                return false;
            };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
            let mut answer = [0; 7];
            stream.write_all(b"PING\r\n").is_ok()
                && stream.read_exact(&mut answer).is_ok()
                && &answer == b"+PONG\r\n"
        }
    }

    impl Drop for RedisServer {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The records the engine writes.

/// A short task's records as the engine writes them: working with a status message, and
/// completed with a small result.
struct Records {
    working: String,
    completed: String,
}

/// Reads them from a server's in-memory store.
fn records(rt: &Runtime) -> Records {
    let store = Arc::new(MemoryStore::new());
    let shared = Counted {
        store: Arc::clone(&store) as Arc<dyn TaskStore>,
        finished: Arc::default(),
    };
    let client = bench_client(shared);
    rt.block_on(async {
        let load = |id: String| {
            let store = Arc::clone(&store);
            async move {
                let task = store.load(&id).await.expect("the memory store loads");
                task.expect("the task is kept").data
            }
        };
        let held = call_expecting(&client, "report_held", "working").await;
        let working = load(held.clone()).await;
        client
            .request("tasks/cancel", json!({ "taskId": held, "_meta": tasks_meta() }))
            .await
            .expect("tasks/cancel");
        let completed = load(call_expecting(&client, "report_now", "completed").await).await;
        Records { working, completed }
    })
}

fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

// ---------------------------------------------------------------------------------------
// The store alone.

/// How many tasks one store takes before the bench opens a fresh one (outside the timing):
/// the in-memory store holds 10,000 at most.
const CHUNK: u64 = 1_000;

/// Times `n` tasks' lives in stores of `kind`, a fresh store every [`CHUNK`] tasks:
/// `create`, `replace` twice, `load`.
fn time_cycles(rt: &Runtime, kind: &Kind, records: &Records, n: u64) -> Duration {
    let mut elapsed = Duration::ZERO;
    let mut left = n;
    while left > 0 {
        let chunk = left.min(CHUNK);
        left -= chunk;
        let opened = kind.open(rt);
        let store = &opened.store;
        let expires_at = now_ms() + 3_600_000;
        let ids: Vec<String> = (0..chunk).map(|_| format!("bench-{:016x}", unique())).collect();
        let start = Instant::now();
        rt.block_on(async {
            for id in &ids {
                let task = StoredTask::new(id.as_str(), 1, expires_at, records.working.as_str());
                store.create(task).await.expect("create");
                let status = StoredTask::new(id.as_str(), 2, expires_at, records.working.as_str());
                assert!(
                    store.replace(status).await.expect("replace"),
                    "the first replace won"
                );
                let done = StoredTask::new(id.as_str(), 3, expires_at, records.completed.as_str());
                assert!(
                    store.replace(done).await.expect("replace"),
                    "the second replace won"
                );
                black_box(store.load(id).await.expect("load"));
            }
        });
        elapsed += start.elapsed();
    }
    elapsed
}

/// A store of `kind` holding `n` finished tasks; their ids.
fn filled(rt: &Runtime, kind: &Kind, records: &Records, n: u64) -> (Opened, Vec<String>) {
    let opened = kind.open(rt);
    let expires_at = now_ms() + 3_600_000;
    let ids: Vec<String> = (0..n).map(|_| format!("bench-{:016x}", unique())).collect();
    rt.block_on(async {
        // At once: SQLite commits the queued writes together.
        let mut creates = tokio::task::JoinSet::new();
        for id in &ids {
            let store = Arc::clone(&opened.store);
            let task = StoredTask::new(id.as_str(), 1, expires_at, records.completed.as_str());
            creates.spawn(async move { store.create(task).await });
        }
        while let Some(created) = creates.join_next().await {
            created.expect("a create panicked").expect("create");
        }
    });
    (opened, ids)
}

fn quick(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(1));
}

fn store_benches(c: &mut Criterion, rt: &Runtime, kinds: &[Kind], records: &Records) {
    let mut group = c.benchmark_group("tasks/store");
    quick(&mut group);
    for kind in kinds {
        let name = kind.name();
        group.bench_function(format!("{name}/create, replace ×2, load"), |b| {
            b.iter_custom(|n| time_cycles(rt, kind, records, n));
        });
        let (opened, ids) = filled(rt, kind, records, 1_000);
        group.bench_function(format!("{name}/load among 1,000"), |b| {
            b.iter_custom(|n| {
                rt.block_on(async {
                    let start = Instant::now();
                    for id in ids.iter().cycle().take(usize::try_from(n).unwrap_or(usize::MAX)) {
                        let task = opened.store.load(id).await.expect("load");
                        assert!(black_box(task).is_some(), "the task is kept");
                    }
                    start.elapsed()
                })
            });
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------
// Through the engine.

/// Times `n` calls of `tool`, `in_flight` at a time, on fresh servers and stores of `kind`
/// (one every [`CHUNK`] calls), until every task they made is finished in the store.
fn time_calls(rt: &Runtime, kind: &Kind, tool: &'static str, in_flight: u64, n: u64) -> Duration {
    let mut elapsed = Duration::ZERO;
    let mut left = n;
    while left > 0 {
        let chunk = left.min(CHUNK);
        left -= chunk;
        let opened = kind.open(rt);
        let finished = Arc::<Finished>::default();
        let client = Arc::new(bench_client(Counted {
            store: Arc::clone(&opened.store),
            finished: Arc::clone(&finished),
        }));
        let start = Instant::now();
        rt.block_on(async {
            if tool == "report_now" {
                calls(&client, tool, "completed", chunk, in_flight).await;
            } else {
                calls(&client, tool, "working", chunk, in_flight).await;
                finished.wait_for(chunk).await;
            }
        });
        elapsed += start.elapsed();
        drop(client);
        // Let the client's connection close before its store goes.
        rt.block_on(tokio::task::yield_now());
    }
    elapsed
}

fn e2e_benches(c: &mut Criterion, rt: &Runtime, kinds: &[Kind]) {
    let mut group = c.benchmark_group("tasks/e2e");
    quick(&mut group);
    // The same call answered directly, not as a task: the floor of the figures below (the
    // test client's and the engine's own cost).
    let plain = bench_client(MemoryStore::new());
    group.bench_function("call, no task (the floor)", |b| {
        b.iter_custom(|n| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..n {
                    let answer = call(&plain, "report_plain").await.expect("a plain call");
                    assert_eq!(answer["resultType"], "complete", "{answer}");
                }
                start.elapsed()
            })
        });
    });
    drop(plain);
    for kind in kinds {
        let name = kind.name();
        group.bench_function(format!("{name}/call, finished at once"), |b| {
            b.iter_custom(|n| time_calls(rt, kind, "report_now", 1, n));
        });
        for in_flight in [1, 32] {
            group.bench_function(
                format!("{name}/call, working then finished, {in_flight} in flight"),
                |b| b.iter_custom(|n| time_calls(rt, kind, "report_soon", in_flight, n)),
            );
        }
        let opened = kind.open(rt);
        let client = Arc::new(bench_client(Counted {
            store: Arc::clone(&opened.store),
            finished: Arc::default(),
        }));
        let id = rt.block_on(async {
            calls(&client, "report_now", "completed", 999, 32).await;
            call_expecting(&client, "report_now", "completed").await
        });
        group.bench_function(format!("{name}/tasks/get, finished task among 1,000"), |b| {
            b.iter_custom(|n| {
                rt.block_on(async {
                    let start = Instant::now();
                    for _ in 0..n {
                        let task = tasks_get(&client, &id).await;
                        assert_eq!(task["status"], "completed", "{task}");
                    }
                    start.elapsed()
                })
            });
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------
// Memory.

/// The heap 10,000 finished tasks hold in the in-memory store, and how the store's limit
/// and the tasks' TTL bound it. Printed, not timed.
fn memory_report(rt: &Runtime, records: &Records) {
    const TASKS: u64 = 10_000;
    println!(
        "tasks/memory: the engine's record of a task is {} bytes of JSON working (with a status message), {} finished",
        records.working.len(),
        records.completed.len()
    );

    // 10,000 tasks made through the engine, after one made before counting (so what is
    // made once, on the first task, is not counted).
    let client = Arc::new(bench_client(MemoryStore::with_limit(TASKS as usize + 1)));
    rt.block_on(call_expecting(&client, "report_now", "completed"));
    let rss_before = rss_kib();
    let window = HeapWindow::open();
    rt.block_on(calls(&client, "report_now", "completed", TASKS, 1));
    let held = window.held();
    drop(window);
    let rss_after = rss_kib();
    println!(
        "tasks/memory: {} finished tasks (the engine, in-memory store): heap +{:.2} MiB in {} blocks, {} bytes and {:.1} blocks a task; VmRSS {:.1} → {:.1} MiB",
        thousands(TASKS),
        mib(held.bytes),
        thousands(held.blocks.unsigned_abs() as u64),
        held.bytes / TASKS as isize,
        held.blocks as f64 / TASKS as f64,
        rss_before as f64 / 1024.0,
        rss_after as f64 / 1024.0,
    );
    drop(client);

    // The same records written to a store directly: the store's share.
    let window = HeapWindow::open();
    let store = MemoryStore::new();
    let expires_at = now_ms() + 3_600_000;
    rt.block_on(async {
        for _ in 0..TASKS {
            let task = StoredTask::new(
                format!("{:032x}", unique()),
                1,
                expires_at,
                records.completed.as_str(),
            );
            store.create(task).await.expect("create");
        }
    });
    let held = window.held();
    drop(window);
    drop(store);
    println!(
        "tasks/memory: the same records in a MemoryStore alone: heap +{:.2} MiB, {} bytes a task",
        mib(held.bytes),
        held.bytes / TASKS as isize,
    );

    // A limit: past it, a call is refused and nothing more is held.
    let limit = 1_000;
    let bounded = Arc::new(bench_client(MemoryStore::with_limit(limit)));
    rt.block_on(calls(&bounded, "report_now", "completed", limit as u64, 1));
    let window = HeapWindow::open();
    let mut refused = 0;
    let mut first = None;
    rt.block_on(async {
        for _ in 0..TASKS {
            match call(&bounded, "report_now").await {
                Ok(task) => panic!("a call past the limit made a task: {task}"),
                Err(ClientError::Rpc { code, message, .. }) => {
                    refused += 1;
                    first.get_or_insert(format!("{} {message}", code.get()));
                }
                Err(other) => panic!("a call past the limit failed otherwise: {other}"),
            }
        }
    });
    let held = window.held();
    drop(window);
    println!(
        "tasks/memory: MemoryStore::with_limit({}) full: {} of {} more calls refused ({}); heap {:+} bytes after them",
        thousands(limit as u64),
        thousands(refused),
        thousands(TASKS),
        first.unwrap_or_default(),
        held.bytes,
    );
    drop(bounded);

    // A TTL: expired tasks are dropped by the create that finds the store full, or by the
    // next load.
    for (made, then) in [
        (TASKS, "one more call"),
        (TASKS / 2, "one more call, then tasks/get"),
    ] {
        let client = Server::new("task-bench", "1.0.0")
            .tools(tools())
            .task_store(MemoryStore::with_limit(TASKS as usize))
            .task_ttl(Duration::from_secs(1))
            .test_client()
            .expect("the server serves");
        let window = HeapWindow::open();
        let client = Arc::new(client);
        rt.block_on(calls(&client, "report_now", "completed", made, 1));
        let full = window.held();
        std::thread::sleep(Duration::from_millis(1_100));
        let id = rt.block_on(call_expecting(&client, "report_now", "completed"));
        let after_create = window.held();
        let after_get = (then != "one more call").then(|| {
            rt.block_on(tasks_get(&client, &id));
            window.held()
        });
        drop(window);
        print!(
            "tasks/memory: task_ttl(1 s), {} tasks in a store of {}: heap +{:.2} MiB; 1.1 s later, {then}: +{:.2} MiB",
            thousands(made),
            thousands(TASKS),
            mib(full.bytes),
            mib(after_create.bytes),
        );
        match after_get {
            Some(held) => println!(" after the call, +{:.2} MiB after tasks/get", mib(held.bytes)),
            None => println!(),
        }
    }
}

/// Whether criterion's command line leaves in the memory figures: no filter, or one that
/// `tasks/memory` contains or that names `memory`; never with `--list`.
fn wants_memory(args: &[String]) -> bool {
    const VALUED: &[&str] = &[
        "-c",
        "--color",
        "-s",
        "--save-baseline",
        "-b",
        "--baseline",
        "--baseline-lenient",
        "--format",
        "--profile-time",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--plotting-backend",
        "--output-format",
    ];
    let mut filters = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--list" {
            return false;
        }
        if VALUED.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') {
            filters.push(arg.as_str());
        }
    }
    filters.is_empty()
        || filters
            .iter()
            .any(|filter| "tasks/memory".contains(filter) || filter.contains("memory"))
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let records = records(&rt);
    let args: Vec<String> = std::env::args().skip(1).collect();
    if wants_memory(&args) {
        memory_report(&rt, &records);
    }
    let mut c = Criterion::default().configure_from_args();
    let kinds = Kind::available();
    store_benches(&mut c, &rt, &kinds, &records);
    e2e_benches(&mut c, &rt, &kinds);
    c.final_summary();
    // Before the runtime: the Redis stores' tasks end with it.
    drop(kinds);
}
