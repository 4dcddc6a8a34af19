//! Extension points (SEP-3371), driven through the notes example over stdio and HTTP in
//! both eras: its extension `com.example/notes-stats` is declared, its custom method
//! `notes/stats` answers (and refuses bad params with every problem named), and its `Audit`
//! middleware logs one `audit` event per exchange with the method, name, outcome, the
//! messages the server sent (progress and rounds counted) and the duration.

use super::notes::{add, logged_wires, wires};
use crate::support::{Peer, initialize, modern_meta};
use serde_json::json;
use std::collections::BTreeMap;

const NOTES: &str = env!("CARGO_BIN_EXE_notes");
const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");

#[test]
fn notes_stats_answers_and_the_extension_is_declared_on_every_wire() {
    for mut wire in wires(json!({})) {
        let wire = &mut *wire;
        let label = wire.label();
        let kept = add(wire, "milk", "buy milk", &["shopping"]);
        let trashed = add(wire, "eggs", "buy eggs", &["shopping"]);
        let deleted = wire.call_plain("delete_note", json!({ "id": trashed }));
        assert!(
            deleted.response["result"]["isError"] != json!(true),
            "{label}: {}",
            deleted.response
        );
        let _ = kept;

        let stats = wire.request("notes/stats", json!({}));
        assert_eq!(stats["result"]["notes"], 1, "{label}: {stats}");
        assert_eq!(stats["result"]["trashed"], 1, "{label}: {stats}");
        if label.starts_with("2026-07-28") {
            assert_eq!(stats["result"]["resultType"], "complete", "{label}: {stats}");
            assert_eq!(
                stats["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
                "notes"
            );
            let discover = wire.request("server/discover", json!({}));
            let extensions = &discover["result"]["capabilities"]["extensions"];
            assert_eq!(
                extensions["com.example/notes-stats"],
                json!({}),
                "{label}: {discover}"
            );
            // The framework's own are declared through the same list.
            assert_eq!(extensions["io.modelcontextprotocol/tasks"], json!({}), "{label}");
            assert_eq!(
                extensions["io.modelcontextprotocol/skills"],
                json!({ "directoryRead": true }),
                "{label}"
            );
        } else {
            assert_eq!(stats["result"].get("resultType"), None, "{label}: {stats}");
        }

        // Every problem with the params is named, in one invalid-params error.
        let bad = wire.request("notes/stats", json!({ "verbose": true, "limit": 3 }));
        assert_eq!(bad["error"]["code"], -32602, "{label}: {bad}");
        assert_eq!(
            bad["error"]["message"],
            "2 problems with the arguments:\nargument `verbose` is not accepted; this method takes no arguments\nargument `limit` is not accepted; this method takes no arguments",
            "{label}"
        );
        let unknown = wire.request("notes/unknown", json!({}));
        assert_eq!(unknown["error"]["code"], -32601, "{label}: {unknown}");
    }
}

/// The `audit` events in a log, each as its fields (`method` → `tools/call`).
fn audit_events(log: &str) -> Vec<BTreeMap<String, String>> {
    log.lines()
        .filter_map(|line| line.split_once(" audit: exchange "))
        .map(|(_, fields)| fields_of(fields))
        .collect()
}

/// `a="x y" b=2` as `{a: x y, b: 2}`.
fn fields_of(text: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let mut rest = text.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted.find('"').unwrap_or(quoted.len());
                (&quoted[..end], quoted.get(end + 1..).unwrap_or(""))
            }
            None => after.split_once(' ').unwrap_or((after, "")),
        };
        fields.insert(key.trim().to_owned(), value.to_owned());
        rest = next.trim_start();
    }
    fields
}

/// The one event of the exchange `method` (of `name`) at position `nth` among them.
fn event<'a>(
    events: &'a [BTreeMap<String, String>],
    method: &str,
    name: Option<&str>,
) -> Vec<&'a BTreeMap<String, String>> {
    events
        .iter()
        .filter(|e| e["method"] == method && e.get("name").map(String::as_str) == name)
        .collect()
}

#[test]
fn the_audit_middleware_logs_one_event_per_exchange_on_every_wire() {
    let capabilities = json!({ "elicitation": {} });
    for mut wire in logged_wires(capabilities, "audit=info") {
        let wire = &mut *wire;
        let label = wire.label();
        let legacy = !label.starts_with("2026-07-28");
        add(wire, "milk", "buy milk", &["shopping"]);
        wire.request("notes/stats", json!({}));
        wire.request("notes/unknown", json!({}));
        let cleared = wire.call(
            "clear_notes",
            json!({}),
            &mut |_, _| json!({ "action": "accept", "content": { "confirm": true } }),
        );
        assert_eq!(cleared.asked.len(), 1, "{label}");
        // Every exchange so far: `initialize` (legacy), 2 calls, 2 requests, and the rounds
        // of `clear_notes` (one exchange in the legacy era, two in 2026-07-28).
        let expected = 5;
        let log = wire.log_when(&|log| audit_events(log).len() >= expected);
        let events = audit_events(&log);
        assert_eq!(events.len(), expected, "{label}: one event per exchange:\n{log}");
        for fields in &events {
            let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
            let named = fields["method"] == "tools/call";
            let mut wanted = vec!["duration_ms", "messages", "method"];
            if named {
                wanted.push("name");
            }
            wanted.push("outcome");
            assert_eq!(keys, wanted, "{label}: {fields:?}");
            assert!(
                fields["duration_ms"].parse::<u64>().is_ok(),
                "{label}: {fields:?}"
            );
        }

        let added = event(&events, "tools/call", Some("add_note"));
        assert_eq!(
            (added[0]["outcome"].as_str(), added[0]["messages"].as_str()),
            ("ok", "1"),
            "{label}"
        );
        let stats = event(&events, "notes/stats", None);
        assert_eq!(
            (stats[0]["outcome"].as_str(), stats[0]["messages"].as_str()),
            ("ok", "1"),
            "{label}"
        );
        let unknown = event(&events, "notes/unknown", None);
        assert_eq!(unknown[0]["outcome"], "error", "{label}");
        let clear = event(&events, "tools/call", Some("clear_notes"));
        let clear: Vec<(&str, &str)> = clear
            .iter()
            .map(|e| (e["outcome"].as_str(), e["messages"].as_str()))
            .collect();
        if legacy {
            // The elicitation request went out inside the call's exchange.
            assert_eq!(clear, [("ok", "2")], "{label}");
            assert_eq!(event(&events, "initialize", None)[0]["outcome"], "ok", "{label}");
        } else {
            // Each round is an exchange of its own.
            assert_eq!(clear, [("input_required", "1"), ("ok", "1")], "{label}");
        }
    }
}

#[test]
fn the_audit_event_counts_the_progress_sent_in_the_exchange() {
    let mut peer = Peer::spawn_with_log(NOTES, "audit=info");
    initialize(&mut peer, "2025-11-25");
    for (id, title) in [(1, "one"), (2, "two"), (3, "three")] {
        peer.request(json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "add_note", "arguments": { "title": title, "body": "words", "tags": [] } }
        }));
    }
    peer.send(json!({
        "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "name": "summarize_notes", "_meta": { "progressToken": "sum" } }
    }));
    let mut progress = 0;
    while peer.recv().get("id").is_none() {
        progress += 1;
    }
    assert_eq!(progress, 3);
    let summarized = |log: &str| {
        audit_events(log)
            .into_iter()
            .find(|e| e.get("name").map(String::as_str) == Some("summarize_notes"))
    };
    let log = peer.log_when(|log| summarized(log).is_some());
    let fields = summarized(&log).unwrap_or_else(|| panic!("no audit event of the call:\n{log}"));
    assert_eq!(fields["outcome"], "ok");
    assert_eq!(fields["messages"], "4", "3 progress notifications and the result");
}

#[test]
fn a_cancelled_call_is_audited_as_cancelled() {
    let mut peer = Peer::spawn_with_log(NOTES, "audit=info");
    peer.request(json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": { "elicitation": {} }, "clientInfo": { "name": "tests", "version": "1.0.0" } }
    }));
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "add_note", "arguments": { "title": "milk", "body": "buy milk", "tags": [] } }
    }));
    // `clear_notes` waits on the user's answer; the client cancels instead of answering.
    peer.send(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "clear_notes" }
    }));
    let asked = peer.recv();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    peer.send(json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 2 }
    }));
    let cleared = |log: &str| {
        audit_events(log)
            .into_iter()
            .find(|e| e.get("name").map(String::as_str) == Some("clear_notes"))
    };
    let log = peer.log_when(|log| cleared(log).is_some());
    let fields = cleared(&log).unwrap_or_else(|| panic!("no audit event of the call:\n{log}"));
    assert_eq!(fields["outcome"], "cancelled");
    // The elicitation request, and the notice that it is withdrawn.
    assert_eq!(fields["messages"], "2", "{fields:?}");
}

/// A request to the fixture for its `Trial` middleware: `tools/call` of `echo`, in the
/// stateless revision when `modern`, with `fixture/middleware` set to `trial`.
fn trial_call(peer: &mut Peer, id: u64, modern: bool, trial: &str) -> serde_json::Value {
    let mut meta = json!({ "fixture/middleware": trial });
    if modern {
        meta = modern_meta(meta);
    }
    peer.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "echo", "arguments": { "text": "hi" }, "_meta": meta }
    }))
}

#[test]
fn a_middleware_answer_is_shaped_for_its_revision() {
    let mut peer = Peer::spawn(FIXTURE);
    // 2026-07-28: a result says its type and the server, as the method's would.
    let modern = trial_call(&mut peer, 1, true, "answer");
    assert_eq!(modern["result"]["answeredBy"], "the middleware", "{modern}");
    assert_eq!(modern["result"]["resultType"], "complete", "{modern}");
    assert_eq!(
        modern["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "fixture",
        "{modern}"
    );
    // Before it, a result is only what the middleware answered.
    initialize(&mut peer, "2025-11-25");
    let legacy = trial_call(&mut peer, 2, false, "answer");
    assert_eq!(
        legacy["result"],
        json!({ "answeredBy": "the middleware" }),
        "{legacy}"
    );
}

#[test]
fn a_middleware_that_panics_costs_one_answer_at_most_and_the_server_serves_on() {
    let mut peer = Peer::spawn_logged(FIXTURE);
    for modern in [true, false] {
        if !modern {
            initialize(&mut peer, "2025-11-25");
        }
        // Before the method: the request is answered with an internal error, nothing leaked.
        let refused = trial_call(&mut peer, 1, modern, "panic");
        assert_eq!(refused["error"]["code"], -32603, "{refused}");
        assert_eq!(refused["error"]["message"], "internal error", "{refused}");
        assert!(!refused.to_string().contains("bug"), "{refused}");
        // On a message or at the end: the answer goes out whole.
        for (id, trial) in [(2, "panic-on-message"), (3, "panic-on-end")] {
            let answered = trial_call(&mut peer, id, modern, trial);
            assert_eq!(
                answered["result"]["content"][0]["text"], "hi",
                "{trial}: {answered}"
            );
        }
        let plain = trial_call(&mut peer, 4, modern, "none");
        assert_eq!(plain["result"]["content"][0]["text"], "hi", "{plain}");
    }
    let log = peer.log_when(|log| log.matches("a middleware panicked").count() >= 6);
    for hook in ["on_request", "on_message", "on_end"] {
        assert!(
            log.contains(&format!("hook=\"{hook}\"")) || log.contains(&format!("hook={hook}")),
            "{hook}: {log}"
        );
    }
}

/// The built-in rate limits are a middleware: the innermost, so a middleware of the user's
/// sees a refused call as it sees any answer (a tool error, `error` at its end), and the
/// tool does not run; in both eras, with the server's identity on the modern answer.
#[tokio::test]
async fn the_rate_limits_are_a_middleware_the_others_see_refusing() {
    use mcp_toolkit::middleware::{Exchange, Middleware, Outcome};
    use mcp_toolkit::protocol::ProtocolVersion;
    use mcp_toolkit::server::{Limits, RateLimit};
    use mcp_toolkit::testing::ClientError;
    use mcp_toolkit::{Server, tool, tools};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    static RUNS: AtomicUsize = AtomicUsize::new(0);

    /// Counts its runs.
    #[tool]
    fn tick() -> usize {
        RUNS.fetch_add(1, Ordering::SeqCst) + 1
    }

    struct Ends(Arc<Mutex<Vec<String>>>);
    impl Middleware for Ends {
        fn on_end(&self, exchange: &Exchange, outcome: Outcome) {
            let line = format!("{} {}", exchange.method(), outcome.as_str());
            self.0.lock().unwrap().push(line);
        }
    }

    for legacy in [false, true] {
        RUNS.store(0, Ordering::SeqCst);
        let ends = Arc::new(Mutex::new(Vec::new()));
        let server = Server::new("ticker", "1.0.0")
            .tools(tools![tick])
            .limits(Limits::default().rate_limit(RateLimit::per_minute(1)))
            .middleware(Ends(Arc::clone(&ends)));
        let client = if legacy {
            server.test_client_legacy(ProtocolVersion::V2025_06_18).await
        } else {
            server.test_client()
        }
        .map_err(|error: ClientError| error.to_string())
        .unwrap();
        let first = client
            .request("tools/call", json!({"name": "tick", "arguments": {}}))
            .await
            .unwrap();
        assert_eq!(first["content"][0]["text"], "1", "{first}");
        let refused = client
            .request("tools/call", json!({"name": "tick", "arguments": {}}))
            .await
            .unwrap();
        assert_eq!(refused["isError"], json!(true), "{refused}");
        let text = refused["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("too many calls: this server takes 1 call per minute"),
            "{text}"
        );
        if !legacy {
            assert_eq!(refused["resultType"], "complete", "{refused}");
        }
        assert_eq!(RUNS.load(Ordering::SeqCst), 1, "the refused call did not run");
        // Other methods are not limited.
        client.request("tools/list", json!({})).await.unwrap();
        let seen = ends.lock().unwrap().clone();
        let calls: Vec<&String> = seen
            .iter()
            .filter(|line| line.starts_with("tools/call"))
            .collect();
        assert_eq!(calls, ["tools/call ok", "tools/call error"], "{seen:?}");
    }
}

/// Each exchange reads as its own request, though the server reuses what one exchange
/// copied for the next on the same thread: the name, id and `_meta` of one never show in
/// another, a name sent with escapes reads decoded, a large `_meta` reads whole, and
/// `on_end` sees what `on_request` saw; in both eras.
#[tokio::test]
async fn each_exchange_reads_as_its_own_request() {
    use mcp_toolkit::middleware::{Exchange, Flow, Middleware, Outcome, Request};
    use mcp_toolkit::protocol::ProtocolVersion;
    use mcp_toolkit::{Server, tool, tools};
    use std::sync::{Arc, Mutex};

    /// Adds two numbers.
    #[tool]
    fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    fn seen(exchange: &Exchange) -> String {
        let mark = exchange.meta().get("k").map(|k| k.to_string().len());
        format!(
            "{} {:?} {} {:?} {:?}",
            exchange.method(),
            exchange.name(),
            exchange.id(),
            mark,
            exchange.protocol_version().map(|version| version.as_str()),
        )
    }

    struct Record(Arc<Mutex<Vec<String>>>);
    impl Middleware for Record {
        fn on_request(&self, request: &mut Request<'_>) -> Flow {
            let line = format!("request {}", seen(request.exchange()));
            self.0.lock().unwrap().push(line);
            Flow::Continue
        }
        fn on_end(&self, exchange: &Exchange, _: Outcome) {
            let line = format!("end {}", seen(exchange));
            self.0.lock().unwrap().push(line);
        }
    }

    for legacy in [false, true] {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let server = Server::new("calc", "1.0.0")
            .tools(tools![add])
            .middleware(Record(Arc::clone(&lines)));
        let client = if legacy {
            server
                .test_client_legacy(ProtocolVersion::V2025_06_18)
                .await
                .unwrap()
        } else {
            server.test_client().unwrap()
        };
        let large = "x".repeat(5_000);
        let requests = [
            (
                "tools/call",
                json!({"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": {"k": large}}),
            ),
            ("tools/list", json!({})),
            ("tools/call", json!({"name": "a\"d\\d", "arguments": {}})),
            (
                "tools/call",
                json!({"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": {"k": "v"}}),
            ),
            ("tools/call", json!({"name": 7, "arguments": {}})),
        ];
        for (method, params) in requests {
            let _ = client.request(method, params).await;
        }
        let version = if legacy { "2025-06-18" } else { "2026-07-28" };
        let lines = lines.lock().unwrap().clone();
        let exchanges: Vec<&str> = lines
            .iter()
            .filter_map(|line| line.strip_prefix("request "))
            .collect();
        // Ids count from 1; the legacy client's `initialize` took the first.
        let first = 1 + usize::from(legacy);
        let ids: Vec<String> = (first..first + 5).map(|id| id.to_string()).collect();
        assert_eq!(
            exchanges[exchanges.len() - 5..],
            [
                format!("tools/call Some(\"add\") {} Some(5002) Some({version:?})", ids[0]),
                format!("tools/list None {} None Some({version:?})", ids[1]),
                format!(
                    "tools/call Some(\"a\\\"d\\\\d\") {} None Some({version:?})",
                    ids[2]
                ),
                format!("tools/call Some(\"add\") {} Some(3) Some({version:?})", ids[3]),
                format!("tools/call None {} None Some({version:?})", ids[4]),
            ],
            "{lines:#?}"
        );
        // Each exchange ends as it began, before the next one begins.
        for pair in lines.chunks(2) {
            assert_eq!(
                pair[0].strip_prefix("request "),
                pair[1].strip_prefix("end "),
                "{lines:#?}"
            );
        }
    }
}

/// A hook left to its default is learned and no longer called, but only that very hook:
/// a wrapper whose own hooks call the defaults of the middleware it holds (at the same
/// address, its first field) is still called every time, as is a middleware that keeps
/// one hook and leaves the others.
#[tokio::test]
async fn a_hook_is_skipped_only_when_it_is_the_default() {
    use mcp_toolkit::middleware::{Exchange, Flow, Middleware, Outcome, Request};
    use mcp_toolkit::{Server, tool, tools};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Adds two numbers.
    #[tool]
    fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    /// Keeps every default.
    struct Quiet;
    impl Middleware for Quiet {}

    /// Counts, then hands over to the middleware it wraps.
    #[repr(C)]
    struct Counted<M> {
        inner: M,
        requests: Arc<AtomicUsize>,
        ends: Arc<AtomicUsize>,
    }
    impl<M: Middleware> Middleware for Counted<M> {
        fn on_request(&self, request: &mut Request<'_>) -> Flow {
            self.requests.fetch_add(1, Ordering::SeqCst);
            self.inner.on_request(request)
        }
        fn on_end(&self, exchange: &Exchange, outcome: Outcome) {
            self.ends.fetch_add(1, Ordering::SeqCst);
            self.inner.on_end(exchange, outcome);
        }
    }

    let (requests, ends) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let client = Server::new("calc", "1.0.0")
        .tools(tools![add])
        .middleware(Quiet)
        .middleware(Counted {
            inner: Quiet,
            requests: Arc::clone(&requests),
            ends: Arc::clone(&ends),
        })
        .middleware(Quiet)
        .test_client()
        .unwrap();
    for n in 0..5 {
        let result = client.call("add", json!({"a": n, "b": 1})).await.unwrap();
        assert_eq!(result.text(), Some((n + 1).to_string().as_str()));
    }
    assert_eq!(requests.load(Ordering::SeqCst), 5);
    assert_eq!(ends.load(Ordering::SeqCst), 5);
}
