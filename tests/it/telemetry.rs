//! Every request runs in one `tracing` span with the OpenTelemetry semantic conventions'
//! fields for MCP servers, and a `traceparent` in its `_meta` makes the caller's span its
//! parent (SEP-414): checked on the spans an OpenTelemetry SDK exports (in memory), over the
//! in-process client, a byte stream, and HTTP; on the plain `tracing` span with a layer that
//! records what it sees; and on a server binary's log over real stdio.

use crate::support;

use mcp_toolkit::middleware::{Flow, Middleware, Request};
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{Context, Server, ToolError, tool, tools};
use opentelemetry::trace::{
    SpanContext, SpanId, SpanKind, Status, TraceContextExt, TraceFlags, TraceId, TraceState,
    TracerProvider as _,
};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::modern_meta;
use tracing::Subscriber;
use tracing::span::{Attributes, Id, Record};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";
const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Always fails.
#[tool]
async fn fail() -> Result<String, ToolError> {
    Err(ToolError::new("it failed, as it does"))
}

/// Adds on the blocking pool.
#[tool]
fn add_blocking(a: i64, b: i64) -> i64 {
    a + b
}

/// Asks the client for its roots, waits a little, and logs before it answers.
#[tool]
async fn roots_then_wait(cx: Context) -> Result<String, ToolError> {
    let roots = cx.list_roots().await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    tracing::info!(roots = roots.len(), "answering after the ask");
    Ok(format!("{} roots", roots.len()))
}

fn server() -> Server {
    Server::new("telemetry", "1.0.0").tools(tools![add, fail, add_blocking, roots_then_wait])
}

/// A subscriber for this thread that exports spans through an OpenTelemetry SDK to memory.
struct Exported {
    exporter: InMemorySpanExporter,
    _provider: SdkTracerProvider,
    _guard: tracing::subscriber::DefaultGuard,
}

impl Exported {
    fn install() -> Exported {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("telemetry-tests"));
        let guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(layer));
        Exported {
            exporter,
            _provider: provider,
            _guard: guard,
        }
    }

    fn spans(&self) -> Vec<SpanData> {
        self.exporter.get_finished_spans().unwrap()
    }

    /// The exported span named `name` once there is one: a call that waits ends its span
    /// in its task, just after its response is sent.
    async fn span(&self, name: &str) -> SpanData {
        eventually(
            || self.spans().into_iter().find(|s| s.name == name),
            || format!("no span named `{name}` in {:#?}", self.names()),
        )
        .await
    }

    fn names(&self) -> Vec<String> {
        self.spans().into_iter().map(|s| s.name.into_owned()).collect()
    }

    fn clear(&self) {
        self.exporter.reset();
    }
}

fn attr(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.as_str().into_owned())
}

/// The attributes the conventions name, as the span has them.
fn conventions(span: &SpanData) -> HashMap<&'static str, String> {
    [
        "mcp.method.name",
        "gen_ai.tool.name",
        "gen_ai.prompt.name",
        "gen_ai.operation.name",
        "mcp.resource.uri",
        "jsonrpc.request.id",
        "mcp.protocol.version",
        "mcp.session.id",
        "network.transport",
        "network.protocol.name",
        "client.address",
        "error.type",
        "rpc.response.status_code",
    ]
    .into_iter()
    .filter_map(|key| attr(span, key).map(|value| (key, value)))
    .collect()
}

fn expected(pairs: &[(&'static str, &str)]) -> HashMap<&'static str, String> {
    pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
}

fn assert_child_of_traceparent(span: &SpanData) {
    assert_eq!(span.span_context.trace_id(), TraceId::from_hex(TRACE_ID).unwrap());
    assert_eq!(span.parent_span_id, SpanId::from_hex(PARENT_ID).unwrap());
    assert!(span.parent_span_is_remote);
    assert_eq!(span.span_kind, SpanKind::Server);
}

#[tokio::test]
async fn a_traceparent_in_meta_becomes_the_parent_of_the_request_span() {
    let otel = Exported::install();
    let client = server().test_client().unwrap();
    let meta = json!({ "traceparent": TRACEPARENT, "tracestate": "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE" });
    let result = client
        .request(
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 2, "b": 3 }, "_meta": meta }),
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "5");
    let id = client.last_response().unwrap()["id"].to_string();

    let span = otel.span("tools/call add").await;
    assert_child_of_traceparent(&span);
    assert_eq!(
        span.span_context.trace_state().get("rojo"),
        Some("00f067aa0ba902b7")
    );
    assert_eq!(span.status, Status::Unset);
    assert_eq!(
        conventions(&span),
        expected(&[
            ("mcp.method.name", "tools/call"),
            ("gen_ai.tool.name", "add"),
            ("gen_ai.operation.name", "execute_tool"),
            ("jsonrpc.request.id", &id),
            ("mcp.protocol.version", "2026-07-28"),
        ])
    );

    // Methods without a target are named by the method alone, each its own span.
    client
        .request("tools/list", json!({ "_meta": { "traceparent": TRACEPARENT } }))
        .await
        .unwrap();
    let list = otel.span("tools/list").await;
    assert_child_of_traceparent(&list);
    assert_ne!(list.span_context.span_id(), span.span_context.span_id());
    assert_eq!(attr(&list, "mcp.method.name").as_deref(), Some("tools/list"));
    assert_eq!(attr(&list, "gen_ai.tool.name"), None);

    // A call run on the blocking pool: its span ends with its response, in its task.
    client
        .request("tools/call", json!({ "name": "add_blocking", "arguments": { "a": 1, "b": 1 }, "_meta": { "traceparent": TRACEPARENT } }))
        .await
        .unwrap();
    let blocking = otel.span("tools/call add_blocking").await;
    assert_child_of_traceparent(&blocking);
}

#[tokio::test]
async fn failures_set_error_type_and_the_status() {
    let otel = Exported::install();
    let client = server().test_client().unwrap();

    let unknown = client
        .request(
            "tools/call",
            json!({ "name": "nope", "arguments": {}, "_meta": { "traceparent": TRACEPARENT } }),
        )
        .await;
    assert!(unknown.is_err(), "{unknown:?}");
    let span = otel.span("tools/call nope").await;
    assert_child_of_traceparent(&span);
    assert_eq!(attr(&span, "error.type").as_deref(), Some("-32602"));
    assert_eq!(attr(&span, "rpc.response.status_code").as_deref(), Some("-32602"));
    assert_eq!(span.status, Status::error("Unknown tool: nope"));

    let failed = client.call("fail", json!({})).await.unwrap();
    assert!(failed.is_error());
    let span = otel.span("tools/call fail").await;
    assert_eq!(attr(&span, "error.type").as_deref(), Some("tool_error"));
    // The call itself succeeded: no JSON-RPC error code.
    assert_eq!(attr(&span, "rpc.response.status_code"), None);
    assert!(matches!(span.status, Status::Error { .. }), "{:?}", span.status);

    // A method the revision does not have.
    let missing = client.request("nothing/here", json!({})).await;
    assert!(missing.is_err());
    let span = otel.span("nothing/here").await;
    assert_eq!(attr(&span, "error.type").as_deref(), Some("-32601"));

    // Success leaves no error behind.
    client.call("add", json!({ "a": 1, "b": 2 })).await.unwrap();
    let span = otel.span("tools/call add").await;
    assert_eq!(attr(&span, "error.type"), None);
    assert_eq!(span.status, Status::Unset);
}

/// Gives each request's span the parent a gateway names in `_meta`, its own way.
struct Upstream(Arc<Mutex<Vec<bool>>>);

impl Middleware for Upstream {
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        // The span is not entered while `on_request` runs.
        self.0.lock().unwrap().push(tracing::Span::current().is_none());
        if let Some(Value::String(parent)) = request.meta().get("com.example/parent") {
            let remote = SpanContext::new(
                TraceId::from_hex(TRACE_ID).unwrap(),
                SpanId::from_hex(parent).unwrap(),
                TraceFlags::SAMPLED,
                true,
                TraceState::NONE,
            );
            let parent = opentelemetry::Context::new().with_remote_span_context(remote);
            request.span().set_parent(parent).unwrap();
            request.span().record("mcp.session.id", "gateway");
        }
        Flow::Continue
    }
}

#[tokio::test]
async fn a_middleware_gives_the_request_span_a_parent_of_its_own() {
    let otel = Exported::install();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let client = server()
        .middleware(Upstream(Arc::clone(&seen)))
        .test_client()
        .unwrap();
    client
        .request(
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 1, "b": 1 }, "_meta": { "com.example/parent": PARENT_ID } }),
        )
        .await
        .unwrap();
    let span = otel.span("tools/call add").await;
    assert_child_of_traceparent(&span);
    assert_eq!(attr(&span, "mcp.session.id").as_deref(), Some("gateway"));
    assert_eq!(*seen.lock().unwrap(), [true]);
}

#[tokio::test]
async fn a_malformed_traceparent_is_ignored() {
    let otel = Exported::install();
    let client = server().test_client().unwrap();
    let malformed = [
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // 00 has no more
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // short
    ];
    for traceparent in malformed {
        otel.clear();
        client
            .request("tools/call", json!({ "name": "add", "arguments": { "a": 1, "b": 1 }, "_meta": { "traceparent": traceparent } }))
            .await
            .unwrap();
        let span = otel.span("tools/call add").await;
        assert_eq!(span.parent_span_id, SpanId::INVALID, "{traceparent}");
        assert_ne!(
            span.span_context.trace_id(),
            TraceId::from_hex(TRACE_ID).unwrap(),
            "{traceparent}"
        );
        assert!(span.span_context.is_valid());
    }

    // A later version is read for the fields it shares with 00.
    otel.clear();
    let later = format!("cc{}-and-more", &TRACEPARENT[2..]);
    client
        .request(
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 1, "b": 1 }, "_meta": { "traceparent": later } }),
        )
        .await
        .unwrap();
    assert_child_of_traceparent(&otel.span("tools/call add").await);

    // The parent's sampling decision travels: the SDK's default sampler follows an unsampled
    // parent, and exports nothing.
    otel.clear();
    let unsampled = TRACEPARENT.replace("-01", "-00");
    client
        .request(
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 1, "b": 1 }, "_meta": { "traceparent": unsampled } }),
        )
        .await
        .unwrap();
    client.request("tools/list", json!({})).await.unwrap();
    otel.span("tools/list").await;
    assert_eq!(otel.names(), ["tools/list"]);
}

#[tokio::test]
async fn a_legacy_call_that_asks_and_waits_is_one_span_with_its_parent() {
    let otel = Exported::install();
    let client = server()
        .test_client_legacy(ProtocolVersion::V2025_06_18)
        .await
        .unwrap()
        .with_roots([("file:///tmp", "tmp")]);
    let asked = Instant::now();
    let result = client
        .request(
            "tools/call",
            json!({ "name": "roots_then_wait", "arguments": {}, "_meta": { "traceparent": TRACEPARENT } }),
        )
        .await
        .unwrap();
    let took = asked.elapsed();
    assert_eq!(result["content"][0]["text"], "1 roots");

    let span = otel.span("tools/call roots_then_wait").await;
    assert_child_of_traceparent(&span);
    assert_eq!(attr(&span, "mcp.protocol.version").as_deref(), Some("2025-06-18"));
    // The span lasted the whole call: the ask and the wait after it.
    let lasted = span.end_time.duration_since(span.start_time).unwrap();
    assert!(lasted >= Duration::from_millis(50), "{lasted:?}");
    assert!(lasted <= took + Duration::from_secs(1), "{lasted:?} of {took:?}");
    // The tool's event is in the request's span.
    assert!(
        span.events.iter().any(|e| e.name == "answering after the ask"),
        "{:?}",
        span.events
    );
    // `initialize` learns its revision by running.
    let initialize = otel.span("initialize").await;
    assert_eq!(
        attr(&initialize, "mcp.protocol.version").as_deref(),
        Some("2025-06-18")
    );
    assert_eq!(initialize.parent_span_id, SpanId::INVALID);
}

#[tokio::test]
async fn a_byte_stream_serves_requests_in_spans_too() {
    let otel = Exported::install();
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (reader, writer) = tokio::io::split(server_end);
    let serving = tokio::spawn(server().serve_io(reader, writer));
    let (client_read, mut client_write) = tokio::io::split(client_end);
    let request = json!({
        "jsonrpc": "2.0", "id": "call-1", "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 2, "b": 2 }, "_meta": modern_meta(json!({ "traceparent": TRACEPARENT })) }
    });
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    client_write
        .write_all(format!("{request}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = tokio::io::BufReader::new(client_read).lines();
    let answer: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "4");
    let span = otel.span("tools/call add").await;
    assert_child_of_traceparent(&span);
    assert_eq!(attr(&span, "jsonrpc.request.id").as_deref(), Some("call-1"));
    // What carries an arbitrary stream is not known.
    assert_eq!(attr(&span, "network.transport"), None);
    drop(client_write);
    drop(lines);
    serving.await.unwrap().unwrap();
}

/// A server on a free port of 127.0.0.1, stopped when the returned sender is dropped.
async fn serve_http(server: Server) -> (String, tokio::sync::oneshot::Sender<()>) {
    let http = server.bind_http("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", http.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    (url, stop)
}

fn post(client: &reqwest::Client, url: &str) -> reqwest::RequestBuilder {
    client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
}

#[tokio::test]
async fn http_requests_carry_the_session_and_the_network() {
    let otel = Exported::install();
    let (url, _stop) = serve_http(server()).await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();

    // A legacy session.
    let initialized = post(&client, &url)
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }))
        .send()
        .await
        .unwrap();
    let session = initialized.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let in_session = |body: Value| {
        post(&client, &url)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-06-18")
            .json(&body)
    };
    in_session(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .send()
        .await
        .unwrap();
    let called: Value = in_session(json!({ "jsonrpc": "2.0", "id": "c-7", "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 20, "b": 22 }, "_meta": { "traceparent": TRACEPARENT } } }))
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(called["result"]["content"][0]["text"], "42");
    let span = otel.span("tools/call add").await;
    assert_child_of_traceparent(&span);
    assert_eq!(
        conventions(&span),
        expected(&[
            ("mcp.method.name", "tools/call"),
            ("gen_ai.tool.name", "add"),
            ("gen_ai.operation.name", "execute_tool"),
            ("jsonrpc.request.id", "c-7"),
            ("mcp.protocol.version", "2025-06-18"),
            ("mcp.session.id", &session),
            ("network.transport", "tcp"),
            ("network.protocol.name", "http"),
            ("client.address", "127.0.0.1"),
        ])
    );

    // A 2026-07-28 request: no session; an unknown tool is an error with its code.
    otel.clear();
    let refused: Value = post(&client, &url)
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "nope")
        .json(&json!({ "jsonrpc": "2.0", "id": 8, "method": "tools/call",
            "params": { "name": "nope", "arguments": {}, "_meta": modern_meta(json!({ "traceparent": TRACEPARENT })) } }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refused["error"]["code"], -32602);
    let span = otel.span("tools/call nope").await;
    assert_child_of_traceparent(&span);
    assert_eq!(
        conventions(&span),
        expected(&[
            ("mcp.method.name", "tools/call"),
            ("gen_ai.tool.name", "nope"),
            ("gen_ai.operation.name", "execute_tool"),
            ("jsonrpc.request.id", "8"),
            ("mcp.protocol.version", "2026-07-28"),
            ("network.transport", "tcp"),
            ("network.protocol.name", "http"),
            ("client.address", "127.0.0.1"),
            ("error.type", "-32602"),
            ("rpc.response.status_code", "-32602"),
        ])
    );
}

/// What a plain `tracing` layer sees of spans: their fields as recorded, by span, and the
/// span each event was in.
#[derive(Clone, Default)]
struct Seen {
    spans: Arc<Mutex<Vec<SeenSpan>>>,
    /// Each event's message, and the id of the span it was in.
    events: Arc<Mutex<Vec<SeenEvent>>>,
}

/// An event's message, and the id of the span it was in.
type SeenEvent = (String, Option<u64>);

#[derive(Debug, Clone)]
struct SeenSpan {
    id: u64,
    name: &'static str,
    target: String,
    level: tracing::Level,
    fields: HashMap<String, String>,
    closed: bool,
}

struct Fields<'a>(&'a mut HashMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Seen {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: LayerContext<'_, S>) {
        let mut fields = HashMap::new();
        attrs.record(&mut Fields(&mut fields));
        let meta = attrs.metadata();
        self.spans.lock().unwrap().push(SeenSpan {
            id: id.into_u64(),
            name: meta.name(),
            target: meta.target().to_owned(),
            level: *meta.level(),
            fields,
            closed: false,
        });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: LayerContext<'_, S>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some(span) = spans
            .iter_mut()
            .rev()
            .find(|s| s.id == id.into_u64() && !s.closed)
        {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn on_event(&self, event: &tracing::Event<'_>, cx: LayerContext<'_, S>) {
        let mut fields = HashMap::new();
        event.record(&mut Fields(&mut fields));
        let message = fields.remove("message").unwrap_or_default();
        let span = cx.event_span(event).map(|s| s.id().into_u64());
        self.events.lock().unwrap().push((message, span));
    }

    fn on_close(&self, id: Id, _: LayerContext<'_, S>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some(span) = spans
            .iter_mut()
            .rev()
            .find(|s| s.id == id.into_u64() && !s.closed)
        {
            span.closed = true;
        }
    }
}

impl Seen {
    fn request_spans(&self) -> Vec<SeenSpan> {
        let spans = self.spans.lock().unwrap();
        spans
            .iter()
            .filter(|s| s.target == "mcp_toolkit::request")
            .cloned()
            .collect()
    }

    /// The closed request span for `method` (and `tool`), once there is one.
    async fn closed(&self, method: &str, tool: Option<&str>) -> SeenSpan {
        let found = || {
            self.request_spans().into_iter().find(|s| {
                s.closed
                    && s.fields.get("mcp.method.name").map(String::as_str) == Some(method)
                    && s.fields.get("gen_ai.tool.name").map(String::as_str) == tool
            })
        };
        eventually(found, || {
            format!("no closed span for {method}: {:#?}", self.request_spans())
        })
        .await
    }
}

#[tokio::test]
async fn without_opentelemetry_the_fields_are_on_the_tracing_span() {
    let seen = Seen::default();
    let _guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(seen.clone()));
    let client = server()
        .test_client_legacy(ProtocolVersion::V2025_03_26)
        .await
        .unwrap()
        .with_roots([("file:///tmp", "tmp")]);
    let result = client.call("roots_then_wait", json!({})).await.unwrap();
    assert_eq!(result.text(), Some("1 roots"));
    let id = client.last_response().unwrap()["id"].to_string();

    let span = seen.closed("tools/call", Some("roots_then_wait")).await;
    assert_eq!((span.name, span.level), ("mcp.request", tracing::Level::INFO));
    let field = |key: &str| span.fields.get(key).map(String::as_str);
    assert_eq!(field("otel.name"), Some("tools/call roots_then_wait"));
    assert_eq!(field("otel.kind"), Some("server"));
    assert_eq!(field("gen_ai.operation.name"), Some("execute_tool"));
    assert_eq!(field("jsonrpc.request.id"), Some(id.as_str()));
    assert_eq!(field("mcp.protocol.version"), Some("2025-03-26"));
    assert_eq!(field("error.type"), None);
    // The tool's event, after its ask and its wait, was in the request's span.
    let events = seen.events.lock().unwrap().clone();
    let (_, parent) = events
        .iter()
        .find(|(message, _)| message == "answering after the ask")
        .expect("the tool's event");
    assert_eq!(*parent, Some(span.id));

    // A tool error, recorded after the span began.
    client.call("fail", json!({})).await.unwrap();
    let span = seen.closed("tools/call", Some("fail")).await;
    assert_eq!(
        span.fields.get("error.type").map(String::as_str),
        Some("tool_error")
    );
    assert_eq!(
        span.fields.get("otel.status_code").map(String::as_str),
        Some("error")
    );
}

#[test]
fn over_stdio_the_span_says_pipe() {
    // The fixture logs with `tracing`'s formatter at the level RUST_LOG names: at `info`,
    // each event inside a request is printed with the request span's fields.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-toolkit-fixture"))
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "explode", "arguments": {}, "_meta": modern_meta(json!({})) }
    });
    writeln!(stdin, "{request}").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    drop(stdin); // end of input: the server stops
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    child.wait().unwrap();
    let failure = log
        .lines()
        .find(|l| l.contains("a tool failed with an internal error"))
        .unwrap_or_else(|| panic!("no internal error logged in:\n{log}"));
    for field in [
        "mcp.request{",
        "mcp.method.name=\"tools/call\"",
        "gen_ai.tool.name=\"explode\"",
        "jsonrpc.request.id=\"1\"",
        "mcp.protocol.version=\"2026-07-28\"",
        "network.transport=\"pipe\"",
    ] {
        assert!(failure.contains(field), "`{field}` not in: {failure}");
    }
}

/// What `find` finds, once it finds it (spans end in their tasks, just after the response
/// is sent); a panic saying `missing()` after `support::PATIENCE`.
async fn eventually<T>(mut find: impl FnMut() -> Option<T>, missing: impl Fn() -> String) -> T {
    let deadline = Instant::now() + support::PATIENCE;
    loop {
        if let Some(found) = find() {
            return found;
        }
        assert!(Instant::now() < deadline, "{}", missing());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
