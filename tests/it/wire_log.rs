//! Checks recorded traffic (`MCP_TOOLKIT_WIRE_LOG` files) against the official schemas: every
//! message a server sent while the official clients and the conformance suite talked to it.
//!
//! Ignored by default because it needs recordings; `.ci/run` produces them and runs it with
//! `MCP_WIRE_LOGS=a.jsonl,b.jsonl cargo test --test it -- --ignored wire_log::`.

use crate::support;

use serde_json::Value;
use std::collections::HashMap;
use support::{REVISIONS, Spec};

const MODERN: &str = "2026-07-28";

/// What a connection has seen so far.
#[derive(Default)]
struct Conn {
    /// The revision `initialize` negotiated.
    legacy: Option<String>,
    /// Request id (as JSON text) → (method, the revision it was served in).
    requests: HashMap<String, (String, Option<String>)>,
    /// The revision of the latest request, for notifications.
    latest: Option<String>,
}

fn result_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
        "ping" | "logging/setLevel" => "EmptyResult",
        _ => return None,
    })
}

/// The schema type of a request the server sends the client.
fn server_request_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "elicitation/create" => "ElicitRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "roots/list" => "ListRootsRequest",
        "ping" => "PingRequest",
        _ => return None,
    })
}

fn notification_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
        _ => return None,
    })
}

fn envelope(spec: &Spec, success: bool) -> &'static str {
    match (success, spec.defines("JSONRPCResultResponse")) {
        (true, true) => "JSONRPCResultResponse",
        (true, false) => "JSONRPCResponse",
        (false, true) => "JSONRPCErrorResponse",
        (false, false) => "JSONRPCError",
    }
}

/// Checks one message the server sent; returns what it was checked as.
fn check(conn: &mut Conn, message: &Value) -> String {
    if let Some(batch) = message.as_array() {
        return batch
            .iter()
            .map(|m| check(conn, m))
            .collect::<Vec<_>>()
            .join(", ");
    }
    let default = conn.legacy.clone().unwrap_or_else(|| "2025-11-25".to_owned());
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        let revision = conn.latest.clone().unwrap_or(default);
        let spec = Spec::of(&revision);
        // A request of the server's own (legacy revisions) has an id; a notification none.
        let kind = if message.get("id").is_some() {
            server_request_type(method).unwrap_or("JSONRPCRequest")
        } else {
            notification_type(method).unwrap_or("JSONRPCNotification")
        };
        spec.assert_valid(kind, message);
        return format!("{kind} ({revision})");
    }
    let id = message.get("id").map(Value::to_string).unwrap_or_default();
    let (method, asked) = conn.requests.get(&id).cloned().unwrap_or_default();
    let mut revision = asked.unwrap_or_else(|| default.clone());
    if method == "initialize"
        && let Some(version) = message.pointer("/result/protocolVersion").and_then(Value::as_str)
    {
        conn.legacy = Some(version.to_owned());
        revision = version.to_owned();
    }
    if !REVISIONS.contains(&revision.as_str()) {
        revision = MODERN.to_owned(); // an unsupported revision is refused in 2026-07-28 terms
    }
    let spec = Spec::of(&revision);
    if message.get("error").is_some() {
        if message["id"].is_null() {
            // JSON-RPC 2.0 answers an unreadable request with `"id": null`, which the MCP
            // schemas do not model: check the rest of the response.
            let mut with_id = message.clone();
            with_id["id"] = Value::from(0);
            spec.assert_valid(envelope(spec, false), &with_id);
            return format!("error with null id ({revision})");
        }
        spec.assert_valid(envelope(spec, false), message);
        return format!("error ({revision})");
    }
    spec.assert_valid(envelope(spec, true), message);
    // 2026-07-28: a call that needs input ends its round with questions, not a result.
    if message["result"]["resultType"] == "input_required" {
        spec.assert_valid("InputRequiredResult", &message["result"]);
        return format!("InputRequiredResult ({revision})");
    }
    // The tasks extension (SEP-2663) answers a call with a task, a shape the revision's schema
    // does not define (nor does it define `tasks/*`): only the envelope is checked.
    if message["result"]["resultType"] == "task" {
        return format!("CreateTaskResult, envelope only ({revision})");
    }
    match result_type(&method) {
        Some(kind) => {
            spec.assert_valid(kind, &message["result"]);
            format!("{kind} ({revision})")
        }
        None => format!("result of `{method}` ({revision})"),
    }
}

#[test]
#[ignore = "needs wire logs: MCP_WIRE_LOGS=a.jsonl,b.jsonl (.ci/run records them)"]
fn recorded_traffic_follows_the_specification() {
    let paths = std::env::var("MCP_WIRE_LOGS").expect("MCP_WIRE_LOGS names the wire logs to check");
    // Unlike the other tests, this one has no expected documents to fall back on.
    for revision in REVISIONS {
        assert!(
            Spec::of(revision).available(),
            "checking recorded traffic needs the official schemas: set MCP_SPEC_DIR to a folder \
             holding <revision>/schema.json"
        );
    }
    let mut checked: HashMap<String, usize> = HashMap::new();
    let mut total = 0;
    for path in paths.split(',').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
        let mut conns: HashMap<u64, Conn> = HashMap::new();
        let mut lines = 0;
        for line in text.lines() {
            lines += 1;
            let record: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {line}"));
            let conn = conns.entry(record["conn"].as_u64().unwrap_or(0)).or_default();
            let message = &record["msg"];
            if record["dir"] == "in" {
                let requests = message
                    .as_array()
                    .cloned()
                    .unwrap_or_else(|| vec![message.clone()]);
                for request in requests {
                    if let (Some(id), Some(method)) =
                        (request.get("id"), request.get("method").and_then(Value::as_str))
                    {
                        let asked = request
                            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                        conn.latest = asked.clone().or_else(|| conn.legacy.clone());
                        conn.requests.insert(id.to_string(), (method.to_owned(), asked));
                    }
                }
                continue;
            }
            let kind = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(conn, message)))
                .unwrap_or_else(|_| {
                    panic!("{path}: a message the server sent breaks the specification:\n{line}")
                });
            *checked.entry(kind).or_default() += 1;
            total += 1;
        }
        assert!(lines > 0, "{path} recorded nothing");
    }
    let mut kinds: Vec<_> = checked.into_iter().collect();
    kinds.sort();
    for (kind, count) in kinds {
        println!("{count:6}  {kind}");
    }
    println!("messages the servers sent, checked against the schemas: {total} passed, 0 failed");
    assert!(total > 0, "no message was checked");
}
