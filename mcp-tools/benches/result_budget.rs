//! What result budgets cost: a tool that answers 5 MB of text, sent whole (no budget) or
//! spilled into the in-memory task store under a budget of 50,000 bytes (the first page
//! answered, the rest kept as pages); then reading every page back through `read_result`.
//! Before the timings, the bytes 10,000 spilled results leave in a `MemoryStore` under its
//! byte limit of spilled results.
//!
//! `cargo bench -p mcp-toolkit --bench result_budget`
//!
//! Quick by default: 10 samples for each figure, on one current-thread tokio runtime, with
//! the in-process test client (`Server::test_client`), which encodes and parses every
//! message as a transport's client would.

use criterion::{Criterion, Throughput};
use mcp_toolkit::task::{MemoryStore, StoreFuture, StoredTask, TaskStore};
use mcp_toolkit::testing::TestClient;
use mcp_toolkit::{Server, tool, tools};
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::sync::broadcast;

/// Exports a report: `size` bytes of numbered lines.
#[tool]
fn report(size: usize) -> String {
    let mut text = String::with_capacity(size + 64);
    let mut n = 0;
    while text.len() < size {
        n += 1;
        text.push_str(&format!(
            "line {n}: the quick brown fox jumps over the lazy dog\n"
        ));
    }
    text.truncate(size);
    text
}

const FIVE_MB: usize = 5_000_000;
const BUDGET: usize = 50_000;

/// A store the bench can look into while the server holds it.
struct Shared(Arc<MemoryStore>);

impl TaskStore for Shared {
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()> {
        self.0.create(task)
    }
    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        self.0.load(id)
    }
    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool> {
        self.0.replace(task)
    }
    fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.changes()
    }
    fn is_shared(&self) -> bool {
        false
    }
}

fn client(rt: &Runtime, budget: Option<usize>) -> TestClient {
    let _entered = rt.enter();
    let server = Server::new("bench", "1.0.0")
        .tools(tools![report])
        .limits(mcp_toolkit::server::Limits::default().max_result_size(64 << 20));
    let server = match budget {
        Some(bytes) => server.result_budget(bytes),
        None => server,
    };
    server.test_client().expect("the server starts")
}

/// The bytes 10,000 spilled results of 3 pages each leave in a memory store whose limit of
/// spilled results is 1 MiB, and how many the store still holds.
fn memory_of_spills(rt: &Runtime) {
    let store = Arc::new(MemoryStore::new().with_result_limit(1 << 20));
    let _entered = rt.enter();
    let client = Server::new("bench", "1.0.0")
        .tools(tools![report])
        .result_budget(1024)
        .task_store(Shared(Arc::clone(&store)))
        .test_client()
        .expect("the server starts");
    let mut most = 0;
    rt.block_on(async {
        for _ in 0..10_000 {
            let first = client
                .call("report", json!({ "size": 2500 }))
                .await
                .expect("a call");
            black_box(first);
            most = most.max(store.result_bytes());
        }
    });
    println!(
        "10,000 spilled results of 2,500 bytes (3 pages each) under a limit of 1 MiB: the store held \
         {most} bytes at most, {} at the end",
        store.result_bytes()
    );
}

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    memory_of_spills(&rt);

    let mut group = c.benchmark_group("result_budget");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Bytes(FIVE_MB as u64));
    let whole = client(&rt, None);
    group.bench_function("5MB/sent whole (no budget)", |b| {
        b.iter(|| {
            rt.block_on(async { black_box(whole.call("report", json!({ "size": FIVE_MB })).await.unwrap()) })
        });
    });
    let budgeted = client(&rt, Some(BUDGET));
    group.bench_function("5MB/spilled, first page answered", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(budgeted.call("report", json!({ "size": FIVE_MB })).await.unwrap())
            })
        });
    });
    group.bench_function("5MB/spilled, then every page read through read_result", |b| {
        b.iter(|| {
            rt.block_on(async {
                let first = budgeted.call("report", json!({ "size": FIVE_MB })).await.unwrap();
                let link = serde_json::to_value(&first.content()[1]).unwrap();
                let uri = link["uri"].as_str().unwrap();
                let id = uri
                    .strip_prefix("mcp-result://")
                    .unwrap()
                    .strip_suffix("/1")
                    .unwrap()
                    .to_owned();
                let mut page = 2;
                loop {
                    let read = budgeted
                        .call("read_result", json!({ "id": id, "page": page }))
                        .await
                        .unwrap();
                    let line = read.content()[1].as_text().unwrap().to_owned();
                    black_box(read);
                    if line.contains("the end of result") {
                        break;
                    }
                    page += 1;
                }
            })
        });
    });
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}
