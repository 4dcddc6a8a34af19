//! The engine's hot paths, without a transport: decoding a message, dispatching it,
//! decoding the arguments, calling the tool and encoding the answer, for `tools/call` and
//! `tools/list`, in both eras, with 2 tools and with 10,000; and the two rounds of a
//! 2026-07-28 call whose tool asks the client once.
//!
//! `cargo bench -p mcp-toolkit --bench hot_paths`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_toolkit::__bench::LineEngine;
use mcp_toolkit::{Context, Json, Server, Tool, ToolError, ask::Elicitation, tool, tools};
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

/// Adds two numbers, logging at debug level: a tool with a `Context` that asks nothing.
#[tool]
async fn add_logged(cx: Context, a: f64, b: f64) -> f64 {
    cx.debug("adding");
    a + b
}

/// What `confirm` asks.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirmation {
    /// Go ahead?
    confirm: bool,
}

/// Ask the user to confirm, once.
#[tool]
async fn confirm(cx: Context) -> Result<&'static str, ToolError> {
    match cx.elicit::<Confirmation>("Go ahead?").await? {
        Elicitation::Accept(Confirmation { confirm: true }) => Ok("confirmed"),
        Elicitation::Accept(_) | Elicitation::Decline | Elicitation::Cancel => Ok("not confirmed"),
    }
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

/// The two lines of a 2026-07-28 call of `confirm`: round 1, which the server answers
/// with `input_required`, and round 2, which answers the form and echoes the
/// `requestState` that round 1 returned (valid for 10 minutes, so it serves every
/// iteration).
fn asking_rounds(engine: &mut LineEngine) -> (String, String) {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
    let params = format!(r#""name":"confirm","arguments":{{}},{meta}"#);
    let first = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{params}}}}}"#);
    let answer = answer_of(engine, &first);
    assert_eq!(answer["result"]["resultType"], "input_required", "{answer}");
    let (key, _) = answer["result"]["inputRequests"]
        .as_object()
        .and_then(|asked| asked.iter().next())
        .expect("one input request");
    let responses = json!({ key: { "action": "accept", "content": { "confirm": true } } });
    let state = &answer["result"]["requestState"];
    let second = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{{params},"inputResponses":{responses},"requestState":{state}}}}}"#
    );
    for _ in 0..2 {
        let done = answer_of(engine, &second);
        assert_eq!(done["result"]["resultType"], "complete", "{done}");
        assert_eq!(done["result"]["content"][0]["text"], "confirmed", "{done}");
    }
    (first, second)
}

/// The one answer to `line`, parsed.
fn answer_of(engine: &mut LineEngine, line: &str) -> serde_json::Value {
    let answers = engine.handle(line.as_bytes());
    assert_eq!(answers.len(), 1, "one answer, at once");
    serde_json::from_slice(&answers[0]).expect("JSON")
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
    let mut asking = LineEngine::new(Server::new("bench", "1.0.0").tools(tools![confirm, add_logged]))
        .expect("a valid server");
    let (round_1, round_2) = asking_rounds(&mut asking);
    let with_context = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{meta},"name":"add_logged","arguments":{{"a":1,"b":2}}}}}}"#
    );
    group.bench_function("tools/call with a Context, 2026-07-28", |b| {
        b.iter(|| black_box(asking.handle(black_box(with_context.as_bytes()))))
    });
    group.bench_function("tools/call asking, 2026-07-28: round 1 (input_required)", |b| {
        b.iter(|| black_box(asking.handle(black_box(round_1.as_bytes()))))
    });
    group.bench_function("tools/call asking, 2026-07-28: round 2 (answered)", |b| {
        b.iter(|| black_box(asking.handle(black_box(round_2.as_bytes()))))
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
