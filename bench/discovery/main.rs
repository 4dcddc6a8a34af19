//! Measures tool search on the `payments` example's catalogue: recall@1 and recall@5 over
//! the requests of `requests.json`, the time a search takes, and the bytes of `tools/list`
//! with and without search. `compare.sh --only discovery` runs it beside FastMCP's
//! `BM25SearchTransform` on the same tools and requests.
//!
//! ```text
//! discovery_bench --requests bench/discovery/requests.json [--json] [--repeat N]
//! discovery_bench --dump-tools FILE     # the catalogue as `tools/list` answers it (2025-11-25)
//! ```
//!
//! Recall is measured on the ranker itself, as `search_tools` uses it with its default
//! limit of 5; the time is the ranker's alone (what `search_tools` adds is its answer's
//! encoding), the median and 99th percentile of every request searched `--repeat` times.
//! The table also shows what each refinement over plain BM25 gains.

#[path = "../../examples/payments/catalog.rs"]
mod catalog;
#[path = "../../examples/payments/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;

use mcp_toolkit::Server;
use mcp_toolkit::discovery::{Bm25, Query, Ranker, ToolSearch};
use mcp_toolkit::protocol::ProtocolVersion;
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Instant;

#[derive(serde::Deserialize)]
struct Request {
    request: String,
    tool: String,
}

/// How many tools a search answers, as `search_tools` does by default.
const LIMIT: usize = 5;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if let Some(path) = value("--dump-tools") {
        let tools = runtime.block_on(list_tools(false, ProtocolVersion::V2025_11_25));
        std::fs::write(path, serde_json::to_vec_pretty(&tools).expect("JSON")).expect("writing the tools");
        return ExitCode::SUCCESS;
    }
    let Some(path) = value("--requests") else {
        eprintln!("usage: discovery_bench --requests FILE [--json] [--repeat N] | --dump-tools FILE");
        return ExitCode::from(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let requests: Vec<Request> = serde_json::from_str(&text).expect("requests: [{\"request\", \"tool\"}]");
    let repeat: usize = value("--repeat").map_or(200, |n| n.parse().expect("--repeat N"));
    let tools = catalog::tools();
    for request in &requests {
        assert!(
            tools.iter().any(|t| t.name() == request.tool),
            "`{}` names no tool of the catalogue",
            request.tool
        );
    }

    let variants = [
        ("plain BM25", Bm25::plain()),
        ("+ stems", Bm25::plain().stems(true)),
        ("+ field weights", Bm25::plain().stems(true).field_weights(true)),
        (
            "+ synonyms",
            Bm25::plain().stems(true).field_weights(true).synonyms(true),
        ),
        (
            "+ clipped and misspelt words",
            Bm25::plain()
                .stems(true)
                .field_weights(true)
                .synonyms(true)
                .forgiving(true),
        ),
        ("+ object ids", Bm25::new().name_coverage(false)),
        ("+ name coverage (ours, `Bm25::new()`)", Bm25::new()),
    ];
    let mut rows = Vec::new();
    for (name, ranker) in &variants {
        rows.push((*name, recall(ranker, &tools, &requests)));
    }
    let ours = &rows.last().expect("ours").1;
    let (p50, p99) = latency(&Bm25::new(), &tools, &requests, repeat);
    let build_ms = index_time(&tools);
    let full =
        serde_json::to_vec(&runtime.block_on(list_tools(false, ProtocolVersion::V2025_11_25))).unwrap();
    let searched =
        serde_json::to_vec(&runtime.block_on(list_tools(true, ProtocolVersion::V2025_11_25))).unwrap();
    let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
    let summary = json!({
        "peer": "mcp-toolkit ToolSearch::bm25()",
        "tools": tools.len(),
        "requests": requests.len(),
        "recall_at_1": round(ours.at_1),
        "recall_at_5": round(ours.at_5),
        "search_p50_us": round(p50),
        "search_p99_us": round(p99),
        "index_build_ms": round(build_ms),
        "list_bytes_full": full.len(),
        "list_bytes_search": searched.len(),
        "misses": ours.misses,
        "ablation": rows.iter().map(|(name, r)| json!({"ranker": name, "recall_at_1": round(r.at_1), "recall_at_5": round(r.at_5)})).collect::<Vec<_>>(),
    });
    if args.iter().any(|a| a == "--json") {
        println!("{summary}");
        return ExitCode::SUCCESS;
    }
    println!("{} tools, {} requests\n", tools.len(), requests.len());
    println!(
        "| ranker | recall@1 | recall@5 | recall@5, even half | recall@5, odd half |\n|---|---|---|---|---|"
    );
    for ((name, r), ranker) in rows.iter().zip(variants.iter().map(|(_, r)| r)) {
        let half = |parity: usize| {
            let part: Vec<&Request> = requests
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 2 == parity)
                .map(|(_, r)| r)
                .collect();
            recall_of(ranker, &tools, &part).at_5
        };
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.at_1,
            r.at_5,
            half(0),
            half(1)
        );
    }
    println!("\nsearch: p50 {p50:.1} µs, p99 {p99:.1} µs ({repeat} runs of each request)");
    println!("index: built in {build_ms:.2} ms (median of 20), once per catalogue");
    println!(
        "tools/list: {} bytes, {} with search ({:.1}% smaller)",
        full.len(),
        searched.len(),
        100.0 * (1.0 - searched.len() as f64 / full.len() as f64)
    );
    println!("\nmisses of ours (expected, then the first five):");
    for miss in &ours.misses {
        println!(
            "- {} → {} ; got {}",
            miss["request"], miss["expected"], miss["got"]
        );
    }
    ExitCode::SUCCESS
}

struct Recall {
    at_1: f64,
    at_5: f64,
    misses: Vec<Value>,
}

fn recall(ranker: &Bm25, tools: &[mcp_toolkit::Tool], requests: &[Request]) -> Recall {
    recall_of(ranker, tools, &requests.iter().collect::<Vec<_>>())
}

fn recall_of(ranker: &Bm25, tools: &[mcp_toolkit::Tool], requests: &[&Request]) -> Recall {
    let index = ranker.index(tools);
    let (mut first, mut five) = (0, 0);
    let mut misses = Vec::new();
    let mut hits = Vec::new();
    for request in requests {
        hits.clear();
        index.search(&Query::new(&request.request, LIMIT), &mut hits);
        let names: Vec<&str> = hits.iter().map(|h| tools[h.position].name()).collect();
        match names.iter().position(|n| *n == request.tool) {
            Some(0) => {
                first += 1;
                five += 1;
            }
            Some(_) => five += 1,
            None => misses.push(json!({"request": request.request, "expected": request.tool, "got": names})),
        }
    }
    let n = requests.len().max(1) as f64;
    Recall {
        at_1: first as f64 / n,
        at_5: five as f64 / n,
        misses,
    }
}

/// The median and 99th percentile of a search's time, in microseconds: each request
/// searched `repeat` times, after one run to warm up.
fn latency(ranker: &Bm25, tools: &[mcp_toolkit::Tool], requests: &[Request], repeat: usize) -> (f64, f64) {
    let index = ranker.index(tools);
    let mut hits = Vec::with_capacity(LIMIT);
    let mut samples = Vec::with_capacity(requests.len() * repeat);
    for request in requests {
        hits.clear();
        index.search(&Query::new(&request.request, LIMIT), &mut hits);
    }
    for _ in 0..repeat {
        for request in requests {
            hits.clear();
            let start = Instant::now();
            index.search(&Query::new(&request.request, LIMIT), &mut hits);
            samples.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// The median time to build the index of `tools`, in milliseconds, of 20 builds.
fn index_time(tools: &[mcp_toolkit::Tool]) -> f64 {
    let mut samples: Vec<f64> = (0..20)
        .map(|_| {
            let start = Instant::now();
            let index = Bm25::new().index(tools);
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            drop(index);
            elapsed
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// The `tools` of `tools/list` on the payments catalogue, with search on or off.
async fn list_tools(search: bool, version: ProtocolVersion) -> Value {
    let mut server = Server::new("payments", "1.0.0").tools(catalog::tools());
    if search {
        server = server.tool_search(ToolSearch::bm25().max_results(LIMIT));
    }
    let client = server.test_client_legacy(version).await.expect("a client");
    let listed = client.request("tools/list", json!({})).await.expect("tools/list");
    listed["tools"].clone()
}
