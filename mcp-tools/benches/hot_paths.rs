//! The engine's hot paths, without a transport: decoding a message, dispatching it,
//! decoding the arguments, calling the tool and encoding the answer, for `tools/call` and
//! `tools/list`, in both eras, with 2 tools and with 10,000.
//!
//! `cargo bench -p mcp-tools --bench hot_paths`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_tools::__bench::LineEngine;
use mcp_tools::{Json, Server, Tool, ToolError, tool, tools};
use serde_json::json;
use std::hint::black_box;

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool]
async fn calculator(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("division by zero")),
        Operation::Divide => Ok(a / b),
    }
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct TextStats {
    characters: usize,
    words: usize,
}

/// Count the characters and words of a text.
#[tool(name = "text_analyzer")]
async fn analyze(
    /// The text to analyze
    text: String,
) -> Json<TextStats> {
    Json(TextStats {
        characters: text.chars().count(),
        words: text.split_whitespace().count(),
    })
}

/// A server with the two example tools and `extra` more built from data.
fn engine(extra: usize) -> LineEngine {
    let mut server = Server::new("bench", "1.0.0").tools(tools![calculator, analyze]);
    let schema = json!({"type": "object", "properties": {"x": {"type": "integer"}}});
    let more = (0..extra).map(|i| {
        Tool::from_json(
            format!("tool_{i}"),
            "A tool built from data.",
            schema.clone(),
            |_, _| async { "" },
        )
        .expect("a valid definition")
    });
    server = server.tools(more);
    let mut engine = LineEngine::new(server).expect("a valid server");
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}});
    assert_eq!(engine.handle(init.to_string().as_bytes()).len(), 1);
    engine
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _inside = runtime.enter();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let legacy_call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculator","arguments":{"operation":"add","a":1,"b":2}}}"#;
    let modern_call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{meta},"name":"calculator","arguments":{{"operation":"add","a":1,"b":2}}}}}}"#
    );
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let bad_args = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculator","arguments":{"operation":"power","a":"x"}}}"#;

    let mut group = c.benchmark_group("engine");
    let mut two = engine(0);
    let mut many = engine(10_000);
    group.bench_function("ping", |b| b.iter(|| black_box(two.handle(black_box(ping)))));
    group.bench_function("tools/call calculator, legacy", |b| {
        b.iter(|| black_box(two.handle(black_box(legacy_call))))
    });
    group.bench_function("tools/call calculator, 2026-07-28", |b| {
        b.iter(|| black_box(two.handle(black_box(modern_call.as_bytes()))))
    });
    group.bench_function("tools/call calculator, bad arguments", |b| {
        b.iter(|| black_box(two.handle(black_box(bad_args))))
    });
    group.bench_function("tools/call calculator, 10000 tools registered", |b| {
        b.iter(|| black_box(many.handle(black_box(legacy_call))))
    });
    group.bench_function("tools/list, 2 tools", |b| {
        b.iter(|| black_box(two.handle(black_box(list))))
    });
    group.bench_function("tools/list, 10002 tools", |b| {
        b.iter(|| black_box(many.handle(black_box(list))))
    });
    for size in [1024, 64 * 1024, 1024 * 1024] {
        let text = "lorem ipsum ".repeat(size / 12);
        let call = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"text_analyzer","arguments":{"text":text}}})
            .to_string();
        group.throughput(Throughput::Bytes(call.len() as u64));
        group.bench_function(
            format!("tools/call text_analyzer, {} KiB of text", size / 1024),
            |b| b.iter(|| black_box(two.handle(black_box(call.as_bytes())))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
