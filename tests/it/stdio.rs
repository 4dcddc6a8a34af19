//! The example servers and the fixture server, spawned as processes and driven over real
//! pipes in both protocol eras. Every message a server sends is checked against the
//! official schema of the revision in use.

use crate::support;

use serde_json::{Value, json};
use std::io::Write;
use std::time::Duration;
use support::{Peer, Spec, initialize, modern_meta};

const CALCULATOR: &str = env!("CARGO_BIN_EXE_calculator");
const TEXT_ANALYZER: &str = env!("CARGO_BIN_EXE_text_analyzer");
const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");

const LEGACY: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const MODERN: &str = "2026-07-28";

/// The success-response type of a revision (they were renamed in 2025-11-25).
fn result_response(revision: &str) -> &'static str {
    if Spec::of(revision).defines("JSONRPCResultResponse") {
        "JSONRPCResultResponse"
    } else {
        "JSONRPCResponse"
    }
}

fn error_response(revision: &str) -> &'static str {
    if Spec::of(revision).defines("JSONRPCErrorResponse") {
        "JSONRPCErrorResponse"
    } else {
        "JSONRPCError"
    }
}

/// Checks a response and its result against a revision's schema.
fn assert_result(revision: &str, result_type: &str, response: &Value) {
    let spec = Spec::of(revision);
    spec.assert_valid(result_response(revision), response);
    spec.assert_valid(result_type, &response["result"]);
}

fn assert_error(revision: &str, response: &Value) {
    Spec::of(revision).assert_valid(error_response(revision), response);
}

fn calculator_definition(revision: &str) -> Value {
    let mut tool = json!({
        "name": "calculator",
        "title": "Calculator",
        "description": "Perform basic arithmetic on two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "operation": {
                    "type": "string",
                    "enum": ["add", "subtract", "multiply", "divide"],
                    "description": "The operation to perform"
                },
                "a": { "type": "number", "description": "The first operand" },
                "b": { "type": "number", "description": "The second operand" }
            },
            "required": ["operation", "a", "b"],
            "additionalProperties": false
        },
        "annotations": { "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false }
    });
    let map = tool.as_object_mut().unwrap();
    if revision < "2025-06-18" {
        map.remove("title");
    }
    if revision < "2025-03-26" {
        map.remove("annotations");
    }
    tool
}

#[test]
fn legacy_handshake_list_and_calls_in_every_legacy_revision() {
    for revision in LEGACY {
        let mut peer = Peer::spawn(CALCULATOR);
        let init = initialize(&mut peer, revision);
        assert_result(revision, "InitializeResult", &init);
        let mut server_info = json!({ "name": "calculator", "version": env!("CARGO_PKG_VERSION") });
        if revision >= "2025-06-18" {
            server_info["title"] = json!("Calculator");
        }
        assert_eq!(
            init,
            json!({
                "jsonrpc": "2.0", "id": 0,
                "result": {
                    "protocolVersion": revision,
                    "capabilities": { "tools": { "listChanged": true }, "logging": {} },
                    "serverInfo": server_info,
                    "instructions": "Use `calculator` for arithmetic instead of computing in your head."
                }
            })
        );

        let list = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
        assert_result(revision, "ListToolsResult", &list);
        assert_eq!(
            list,
            json!({ "jsonrpc": "2.0", "id": 1, "result": { "tools": [calculator_definition(revision)] } })
        );

        let call = peer.request(json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "calculator", "arguments": { "operation": "multiply", "a": 6, "b": 7 } }
        }));
        assert_result(revision, "CallToolResult", &call);
        assert_eq!(
            call,
            json!({ "jsonrpc": "2.0", "id": 2, "result": { "content": [{ "type": "text", "text": "42" }] } })
        );

        let divide = peer.request(json!({
            "jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": { "name": "calculator", "arguments": { "operation": "divide", "a": 1, "b": 0 } }
        }));
        assert_result(revision, "CallToolResult", &divide);
        assert_eq!(
            divide["result"],
            json!({ "content": [{ "type": "text", "text": "cannot divide by zero: `b` must be a non-zero number" }], "isError": true })
        );

        let ping = peer.request(json!({ "jsonrpc": "2.0", "id": "p", "method": "ping" }));
        assert_eq!(ping, json!({ "jsonrpc": "2.0", "id": "p", "result": {} }));

        let (status, rest) = peer.finish();
        assert!(status.success(), "{status}");
        assert!(rest.is_empty(), "{rest:?}");
    }
}

#[test]
fn initialize_negotiates_the_clients_revision_or_our_newest_legacy_one() {
    for (asked, answered) in [
        ("1999-01-01", "2025-11-25"),
        (MODERN, "2025-11-25"),
        ("2025-03-26", "2025-03-26"),
    ] {
        let mut peer = Peer::spawn(CALCULATOR);
        let init = initialize(&mut peer, asked);
        assert_eq!(init["result"]["protocolVersion"], answered, "asked for {asked}");
        assert_result(answered, "InitializeResult", &init);
    }
}

#[test]
fn a_second_initialize_is_refused() {
    let mut peer = Peer::spawn(CALCULATOR);
    initialize(&mut peer, "2025-06-18");
    let again = peer.request(json!({
        "jsonrpc": "2.0", "id": 9, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
    }));
    assert_error("2025-06-18", &again);
    assert_eq!(
        again,
        json!({ "jsonrpc": "2.0", "id": 9, "error": { "code": -32600, "message": "the connection is already initialized with protocol revision 2025-06-18" } })
    );
}

#[test]
fn requests_before_initialization_are_refused_except_ping() {
    let mut peer = Peer::spawn(CALCULATOR);
    let ping = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }));
    assert_eq!(ping, json!({ "jsonrpc": "2.0", "id": 1, "result": {} }));
    for method in ["tools/list", "tools/call", "logging/setLevel"] {
        let refused = peer.request(
            json!({ "jsonrpc": "2.0", "id": 2, "method": method, "params": { "name": "calculator" } }),
        );
        assert_error("2025-11-25", &refused);
        assert_eq!(
            refused["error"],
            json!({
                "code": -32602,
                "message": format!("`{method}` needs a protocol revision: send `initialize` first (revisions 2024-11-05 to 2025-11-25), or name the revision in `params._meta[\"io.modelcontextprotocol/protocolVersion\"]` (2026-07-28)"),
                "data": { "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] }
            })
        );
    }
}

#[test]
fn modern_discover_list_and_call() {
    let mut peer = Peer::spawn(CALCULATOR);
    let spec = Spec::of(MODERN);
    let identity = json!({ "io.modelcontextprotocol/serverInfo": { "name": "calculator", "version": env!("CARGO_PKG_VERSION"), "title": "Calculator" } });

    let discover = peer.request(json!({
        "jsonrpc": "2.0", "id": "discover-1", "method": "server/discover", "params": { "_meta": modern_meta(json!({})) }
    }));
    spec.assert_valid("DiscoverResultResponse", &discover);
    assert_eq!(
        discover,
        json!({
            "jsonrpc": "2.0", "id": "discover-1",
            "result": {
                "resultType": "complete",
                "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                "capabilities": { "tools": { "listChanged": true }, "logging": {} },
                "instructions": "Use `calculator` for arithmetic instead of computing in your head.",
                "ttlMs": 60000,
                "cacheScope": "public",
                "_meta": identity
            }
        })
    );

    let list = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": modern_meta(json!({})) } }));
    spec.assert_valid("ListToolsResultResponse", &list);
    assert_eq!(
        list["result"],
        json!({ "resultType": "complete", "tools": [calculator_definition(MODERN)], "ttlMs": 60000, "cacheScope": "public", "_meta": identity })
    );

    let call = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "calculator", "arguments": { "operation": "add", "a": 0.5, "b": 2 } }
    }));
    spec.assert_valid("CallToolResultResponse", &call);
    assert_eq!(
        call["result"],
        json!({ "resultType": "complete", "content": [{ "type": "text", "text": "2.5" }], "_meta": identity })
    );

    // Modern requests carry no session: the handshake, ping and setLevel are gone from this
    // revision.
    for method in ["initialize", "ping", "logging/setLevel"] {
        let gone = peer.request(json!({ "jsonrpc": "2.0", "id": 3, "method": method, "params": { "_meta": modern_meta(json!({})) } }));
        assert_error(MODERN, &gone);
        assert_eq!(
            gone["error"],
            json!({ "code": -32601, "message": format!("method `{method}` is not served by this server in protocol revision 2026-07-28") })
        );
    }
}

#[test]
fn modern_version_and_metadata_errors() {
    let mut peer = Peer::spawn(CALCULATOR);
    let unsupported = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": { "_meta": { "io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {} } }
    }));
    Spec::of(MODERN).assert_valid("UnsupportedProtocolVersionError", &unsupported);
    assert_eq!(
        unsupported,
        json!({
            "jsonrpc": "2.0", "id": 1,
            "error": {
                "code": -32022,
                "message": "Unsupported protocol version",
                "data": { "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], "requested": "1900-01-01" }
            }
        })
    );

    let no_capabilities = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/list",
        "params": { "_meta": { "io.modelcontextprotocol/protocolVersion": MODERN } }
    }));
    assert_error(MODERN, &no_capabilities);
    assert_eq!(
        no_capabilities["error"],
        json!({ "code": -32602, "message": "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is required in revision 2026-07-28 (send `{}` for none)" })
    );

    let bad_level = peer.request(json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/list",
        "params": { "_meta": modern_meta(json!({ "io.modelcontextprotocol/logLevel": "loud" })) }
    }));
    assert_eq!(bad_level["error"]["code"], -32602);
    assert!(
        bad_level["error"]["message"]
            .as_str()
            .unwrap()
            .contains("received \"loud\"")
    );
}

#[test]
fn one_process_serves_both_eras() {
    let mut peer = Peer::spawn(CALCULATOR);
    initialize(&mut peer, "2025-06-18");
    let legacy = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    assert!(legacy["result"].get("resultType").is_none());
    let modern = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "_meta": modern_meta(json!({})) } }));
    Spec::of(MODERN).assert_valid("ListToolsResultResponse", &modern);
    assert_eq!(modern["result"]["resultType"], "complete");
}

#[test]
fn unknown_tools_and_methods_are_protocol_errors() {
    for revision in ["2025-06-18", MODERN] {
        let mut peer = Peer::spawn(CALCULATOR);
        let meta = if revision == MODERN {
            json!({ "_meta": modern_meta(json!({})) })
        } else {
            initialize(&mut peer, revision);
            json!({})
        };
        let mut params = meta.clone();
        params["name"] = json!("nope");
        let unknown =
            peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }));
        assert_error(revision, &unknown);
        assert_eq!(
            unknown["error"],
            json!({ "code": -32602, "message": "Unknown tool: nope" })
        );

        let method =
            peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": meta }));
        assert_error(revision, &method);
        assert_eq!(method["error"]["code"], -32601);

        let no_name =
            peer.request(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": meta }));
        assert_eq!(
            no_name["error"],
            json!({ "code": -32602, "message": "invalid params: missing field `name`" })
        );
    }
}

#[test]
fn argument_errors_are_tool_results_the_model_can_read() {
    let mut peer = Peer::spawn(CALCULATOR);
    initialize(&mut peer, "2025-11-25");
    let call = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "calculator", "arguments": { "operation": "power", "a": "2", "c": 1 } }
    }));
    assert_result("2025-11-25", "CallToolResult", &call);
    assert_eq!(
        call["result"],
        json!({
            "content": [{ "type": "text", "text": "4 problems with the arguments:\nargument `operation`: expected one of \"add\", \"subtract\", \"multiply\", \"divide\", received the string \"power\"\nargument `a`: expected a number, received the string \"2\"\nargument `b` is missing: expected a number\nargument `c` is not accepted; the accepted arguments are `operation`, `a`, `b`" }],
            "isError": true
        })
    );
}

#[test]
fn json_rpc_errors_and_ids_echoed_exactly() {
    let mut peer = Peer::spawn(CALCULATOR);
    initialize(&mut peer, "2025-11-25");
    let spec = Spec::of("2025-11-25");

    peer.send_raw("{not json");
    let parse = peer.recv();
    // JSON-RPC 2.0 answers an unreadable id with `null`; the MCP schemas model only
    // readable ids, so the error object is what can be checked against them.
    spec.assert_valid("Error", &parse["error"]);
    assert_eq!(parse["id"], Value::Null);
    assert_eq!(parse["error"]["code"], -32700);

    peer.send_raw("[]");
    assert_eq!(
        peer.recv(),
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32600, "message": "JSON-RPC batches are not part of protocol revision 2025-11-25; send one message at a time" } })
    );
    peer.send_raw("42");
    assert_eq!(
        peer.recv(),
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32600, "message": "a JSON-RPC message must be an object, not a number" } })
    );
    peer.send_raw(r#"{"id":5,"method":"ping"}"#);
    assert_eq!(
        peer.recv(),
        json!({ "jsonrpc": "2.0", "id": 5, "error": { "code": -32600, "message": "`jsonrpc` is missing; it must be \"2.0\"" } })
    );
    peer.send_raw(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#);
    assert_eq!(
        peer.recv()["error"]["message"],
        "the request id must be a string or an integer between -2^63 and 2^63-1, not 1.5"
    );

    // Ids come back byte for byte.
    for id in [r#""caf\u00e9""#, "-9223372036854775808", r#""""#, "0"] {
        peer.send_raw(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        let response = peer.recv();
        assert_eq!(response["id"], serde_json::from_str::<Value>(id).unwrap());
        spec.assert_valid("JSONRPCResultResponse", &response);
    }
    // Notifications are never answered: the next message is the ping's response.
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/unknown" }));
    peer.send(
        json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 404 } }),
    );
    assert_eq!(
        peer.request(json!({ "jsonrpc": "2.0", "id": "last", "method": "ping" }))["result"],
        json!({})
    );
}

#[test]
fn batches_in_2025_03_26_only() {
    let mut peer = Peer::spawn(CALCULATOR);
    initialize(&mut peer, "2025-03-26");
    peer.send(json!([
        { "jsonrpc": "2.0", "id": 1, "method": "ping" },
        { "jsonrpc": "2.0", "method": "notifications/initialized" },
        { "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "calculator", "arguments": { "operation": "add", "a": 1, "b": 1 } } },
        { "jsonrpc": "2.0", "id": 3, "method": "nope" }
    ]));
    let batch = peer.recv();
    Spec::of("2025-03-26").assert_valid("JSONRPCBatchResponse", &batch);
    let mut responses = batch.as_array().unwrap().clone();
    responses.sort_by_key(|r| r["id"].as_i64());
    assert_eq!(responses.len(), 3);
    assert_eq!(responses[0], json!({ "jsonrpc": "2.0", "id": 1, "result": {} }));
    assert_eq!(responses[1]["result"]["content"][0]["text"], "2");
    assert_eq!(responses[2]["error"]["code"], -32601);
}

#[test]
fn structured_output_per_revision() {
    for revision in ["2024-11-05", "2025-06-18", MODERN] {
        let mut peer = Peer::spawn(TEXT_ANALYZER);
        let mut params = json!({ "name": "text_analyzer", "arguments": { "text": "héllo big  world" } });
        if revision == MODERN {
            params["_meta"] = modern_meta(json!({}));
        } else {
            initialize(&mut peer, revision);
        }
        let list_params = if revision == MODERN {
            json!({ "_meta": modern_meta(json!({})) })
        } else {
            json!({})
        };
        let list =
            peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": list_params }));
        let call =
            peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params }));
        assert_result(revision, "CallToolResult", &call);
        let text = r#"{"characters":16,"words":3}"#;
        assert_eq!(
            call["result"]["content"],
            json!([{ "type": "text", "text": text }])
        );
        let output_schema = &list["result"]["tools"][0]["outputSchema"];
        if revision == "2024-11-05" {
            assert!(call["result"].get("structuredContent").is_none());
            assert!(output_schema.is_null());
        } else {
            assert_eq!(
                call["result"]["structuredContent"],
                json!({ "characters": 16, "words": 3 })
            );
            assert_eq!(output_schema["type"], "object");
            assert_eq!(output_schema["required"], json!(["characters", "words"]));
        }
    }
}

#[test]
fn a_slow_call_does_not_hold_up_a_fast_one() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    for (id, tool, args) in [
        (1, "sleep", json!({ "ms": 400 })),
        (2, "block", json!({ "ms": 400 })),
    ] {
        peer.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": args } }));
    }
    peer.send(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "fast" } } }));
    peer.send(json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list" }));
    let order: Vec<i64> = (0..4).map(|_| peer.recv()["id"].as_i64().unwrap()).collect();
    assert_eq!(&order[..2], [3, 4], "answered as they finish: {order:?}");
    let mut slow = order[2..].to_vec();
    slow.sort();
    assert_eq!(slow, [1, 2]);
}

#[test]
fn requests_written_together_are_each_answered_once_in_order_without_waiting_for_more() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    // Answers to lines read together may leave together: every one must come, once, and a
    // call's progress must still come before its answer.
    let mut burst: Vec<String> = (1..=300)
        .map(|id| json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": format!("n{id}") } } }).to_string())
        .collect();
    burst.insert(
        150,
        json!({ "jsonrpc": "2.0", "id": "p", "method": "tools/call", "params": { "_meta": { "progressToken": 9 }, "name": "progress", "arguments": { "steps": 3 } } }).to_string(),
    );
    // The burst ends in half a line: the answers to the whole lines must not wait for the
    // rest of it.
    let ping = json!({ "jsonrpc": "2.0", "id": 1000, "method": "ping" }).to_string();
    let (head, tail) = ping.split_at(20);
    let mut stdin = peer.take_stdin();
    stdin
        .write_all(format!("{}\n{head}", burst.join("\n")).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    peer.give_back_stdin(stdin);
    let mut answered = std::collections::BTreeSet::new();
    let mut steps = Vec::new();
    while answered.len() < 301 {
        let message = peer.recv();
        if message["method"] == "notifications/progress" {
            assert!(!answered.contains("p"), "progress after its answer: {message}");
            steps.push(message["params"]["progress"].as_f64().unwrap());
            continue;
        }
        let id = match &message["id"] {
            Value::Number(n) => {
                assert_eq!(message["result"]["content"][0]["text"], format!("n{n}"));
                n.to_string()
            }
            id => id.as_str().unwrap().to_owned(),
        };
        assert!(answered.insert(id.clone()), "answered twice: {id}");
    }
    assert_eq!(steps, [1.0, 2.0, 3.0]);
    // The rest of the last line, with nothing behind it: answered without more input.
    peer.send_raw(tail);
    assert_eq!(peer.recv(), json!({ "jsonrpc": "2.0", "id": 1000, "result": {} }));
    let (status, rest) = peer.finish();
    assert!(status.success());
    assert!(rest.is_empty(), "nothing more: {rest:?}");
}

#[test]
fn cancelled_requests_stop_and_get_no_response() {
    // `sleep` takes a `Context` and watches its token; `hang` takes nothing from its
    // context, so only its task's abort stops it (its 300 ms time limit would answer it).
    for (tool, arguments) in [("sleep", json!({ "ms": 60000 })), ("hang", json!({}))] {
        let mut peer = Peer::spawn(FIXTURE);
        initialize(&mut peer, "2025-11-25");
        peer.send(json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": tool, "arguments": arguments } }));
        peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 7, "reason": "changed my mind" } }));
        // The id is free again at once, and nothing ever comes for the cancelled call.
        let reuse = peer.request(json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "again" } } }));
        assert_eq!(reuse["result"]["content"][0]["text"], "again", "{tool}");
        std::thread::sleep(std::time::Duration::from_millis(500));
        let (status, rest) = peer.finish();
        assert!(status.success(), "{tool}");
        assert!(
            rest.is_empty(),
            "nothing after a cancellation of {tool}: {rest:?}"
        );
    }
}

#[test]
fn duplicate_ids_in_flight_are_refused() {
    for (tool, arguments, answer) in [
        ("sleep", json!({ "ms": 300 }), "slept 300 ms"),
        (
            "hang",
            json!({}),
            "the tool `hang` did not finish within 300 ms and was stopped",
        ),
    ] {
        let mut peer = Peer::spawn(FIXTURE);
        initialize(&mut peer, "2025-11-25");
        peer.send(json!({ "jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": { "name": tool, "arguments": arguments } }));
        let second = peer.request(json!({ "jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "t" } } }));
        assert_eq!(
            second["error"],
            json!({ "code": -32600, "message": "request id \"x\" is already in use by a request in flight; use a new id" }),
            "{tool}"
        );
        assert_eq!(peer.recv()["result"]["content"][0]["text"], answer);
    }
}

#[test]
fn progress_notifications_carry_the_token() {
    for revision in ["2025-06-18", MODERN] {
        let mut peer = Peer::spawn(FIXTURE);
        let mut meta = json!({ "progressToken": "tok" });
        if revision == MODERN {
            meta = modern_meta(meta);
        } else {
            initialize(&mut peer, revision);
        }
        peer.send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "_meta": meta, "name": "progress", "arguments": { "steps": 3 } }
        }));
        for step in 1..=3 {
            let note = peer.recv();
            Spec::of(revision).assert_valid("ProgressNotification", &note);
            assert_eq!(
                note,
                json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progressToken": "tok", "progress": f64::from(step), "total": 3.0, "message": format!("step {step}") } })
            );
        }
        let done = peer.recv();
        assert_result(revision, "CallToolResult", &done);
    }
    // Without a token, no progress is sent.
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-06-18");
    let done = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "progress", "arguments": { "steps": 2 } } }));
    assert_eq!(done["result"]["content"][0]["text"], "2 steps");
}

#[test]
fn a_status_outside_a_task_goes_out_as_progress_when_the_client_asked_for_it() {
    for revision in ["2025-06-18", MODERN] {
        let mut peer = Peer::spawn(FIXTURE);
        let mut meta = json!({ "progressToken": "tok" });
        if revision == MODERN {
            meta = modern_meta(meta);
        } else {
            initialize(&mut peer, revision);
        }
        peer.send(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "_meta": meta, "name": "staged", "arguments": {} }
        }));
        // The figures are the last ones reported (none yet: 0), so progress never goes back.
        for expected in [
            json!({ "progressToken": "tok", "progress": 0.0, "message": "starting" }),
            json!({ "progressToken": "tok", "progress": 1.0, "total": 2.0 }),
            json!({ "progressToken": "tok", "progress": 1.0, "total": 2.0, "message": "halfway" }),
        ] {
            let note = peer.recv();
            Spec::of(revision).assert_valid("ProgressNotification", &note);
            assert_eq!(
                note,
                json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": expected }),
                "{revision}"
            );
        }
        let done = peer.recv();
        assert_result(revision, "CallToolResult", &done);
        assert_eq!(done["id"], 1);
        assert_eq!(done["result"]["content"][0]["text"], "staged");

        // Without a token the statuses go nowhere: the answer is the next message.
        let mut params = json!({ "name": "staged", "arguments": {} });
        if revision == MODERN {
            params["_meta"] = modern_meta(json!({}));
        }
        let quiet =
            peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params }));
        assert_eq!(quiet["result"]["content"][0]["text"], "staged", "{revision}");
        assert_eq!(peer.silent_for(Duration::from_millis(100)), None);
    }
}

#[test]
fn log_messages_only_at_the_level_the_client_asked_for() {
    let call = |level: &str| json!({ "name": "log", "arguments": { "level": level, "message": format!("at {level}") } });
    // Legacy: nothing before `logging/setLevel`, then its level and above.
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-06-18");
    let quiet =
        peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call("error") }));
    assert_eq!(quiet["result"]["content"][0]["text"], "logged");
    let set = peer.request(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": { "level": "warning" } }),
    );
    assert_eq!(set["result"], json!({}));
    assert_eq!(
        peer.request(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call("info") }))["id"],
        3
    );
    peer.send(json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": call("error") }));
    let message = peer.recv();
    Spec::of("2025-06-18").assert_valid("LoggingMessageNotification", &message);
    assert_eq!(
        message,
        json!({ "jsonrpc": "2.0", "method": "notifications/message", "params": { "level": "error", "data": "at error" } })
    );
    assert_eq!(peer.recv()["id"], 4);

    // Modern: per request, through `_meta`.
    let mut peer = Peer::spawn(FIXTURE);
    let mut params = call("notice");
    params["_meta"] = modern_meta(json!({ "io.modelcontextprotocol/logLevel": "info" }));
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }));
    let message = peer.recv();
    Spec::of(MODERN).assert_valid("LoggingMessageNotification", &message);
    assert_eq!(
        message["params"],
        json!({ "level": "notice", "data": "at notice" })
    );
    assert_eq!(peer.recv()["id"], 1);
    let mut params = call("emergency");
    params["_meta"] = modern_meta(json!({}));
    assert_eq!(
        peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params }))["id"],
        2
    );
}

#[test]
fn legacy_clients_hear_of_tool_list_changes() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "toggle", "arguments": { "name": "echo", "enabled": false } } }));
    let mut messages = [peer.recv(), peer.recv()];
    messages.sort_by_key(|m| m.get("id").is_some());
    Spec::of("2025-11-25").assert_valid("ToolListChangedNotification", &messages[0]);
    assert_eq!(
        messages[0],
        json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} })
    );
    assert_eq!(messages[1]["result"]["content"][0]["text"], "echo is disabled");

    let list = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(!names.contains(&"echo"), "{names:?}");
    let call = peer.request(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "x" } } }));
    assert_eq!(call["error"]["message"], "Unknown tool: echo");
}

#[test]
fn modern_clients_hear_of_tool_list_changes_on_a_subscription() {
    let spec = Spec::of(MODERN);
    let mut peer = Peer::spawn(FIXTURE);
    peer.send(json!({
        "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
        "params": { "_meta": modern_meta(json!({})), "notifications": { "toolsListChanged": true, "promptsListChanged": true } }
    }));
    let ack = peer.recv();
    spec.assert_valid("SubscriptionsAcknowledgedNotification", &ack);
    assert_eq!(
        ack,
        json!({
            "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" }, "notifications": { "toolsListChanged": true } }
        })
    );
    peer.send(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "toggle", "arguments": { "name": "explode", "enabled": false } }
    }));
    // The response and the notification race; either may come first.
    let mut messages = vec![peer.recv(), peer.recv()];
    messages.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(messages[1]["result"]["content"][0]["text"], "explode is disabled");
    let changed = messages.remove(0);
    spec.assert_valid("ToolListChangedNotification", &changed);
    assert_eq!(
        changed,
        json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" } } })
    );
    // Cancelled by its client, the stream ends unanswered, as a cancelled request does:
    // the closing result is for a stream the server ends itself.
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": "listen-1" } }));
    peer.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }));
    assert_eq!(peer.recv(), json!({ "jsonrpc": "2.0", "id": 2, "result": {} }));
    // Nor does the tool list's next change reach it.
    peer.send(json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "toggle", "arguments": { "name": "explode", "enabled": true } }
    }));
    assert_eq!(peer.recv()["result"]["content"][0]["text"], "explode is enabled");
    assert_eq!(peer.silent_for(Duration::from_millis(200)), None);
}

#[test]
fn a_panicking_tool_is_an_internal_error_and_the_server_goes_on() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    let boom = peer.request(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "explode" } }),
    );
    assert_result("2025-11-25", "CallToolResult", &boom);
    assert_eq!(
        boom["result"],
        json!({ "content": [{ "type": "text", "text": "internal error" }], "isError": true })
    );
    assert!(!boom.to_string().contains("secret"));
    let next = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "alive" } } }));
    assert_eq!(next["result"]["content"][0]["text"], "alive");
}

#[test]
fn a_tools_converted_error_is_masked_for_the_client_and_logged_for_the_operator() {
    let mut peer = Peer::spawn_logged(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    let failed = peer.request(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "read_config" } }),
    );
    assert_result("2025-11-25", "CallToolResult", &failed);
    assert_eq!(
        failed["result"],
        json!({ "content": [{ "type": "text", "text": "internal error" }], "isError": true })
    );
    assert!(!failed.to_string().contains("secret-dir"));
    let boom = peer.request(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "explode" } }),
    );
    assert_eq!(boom["result"]["content"][0]["text"], "internal error");
    let next = peer.request(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "alive" } } }));
    assert_eq!(next["result"]["content"][0]["text"], "alive");
    let logged = |log: &str, needle: &str| {
        log.lines()
            .any(|line| line.contains("ERROR") && line.contains(needle))
    };
    let log = peer.log_when(|log| logged(log, "the tool panicked"));
    assert!(logged(&log, "tool=\"read_config\""), "{log}");
    assert!(logged(&log, "No such file or directory"), "{log}");
    assert!(logged(&log, "the tool panicked: the secret is 42"), "{log}");
}

#[test]
fn a_tool_that_never_returns_is_stopped_by_its_time_limit_and_the_server_goes_on() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "hang" } }));
    let echo = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "meanwhile" } } }));
    assert_eq!(echo["result"]["content"][0]["text"], "meanwhile");
    let hung = peer.recv();
    assert_result("2025-11-25", "CallToolResult", &hung);
    assert_eq!(hung["id"], 1);
    assert_eq!(
        hung["result"],
        json!({ "content": [{ "type": "text", "text": "the tool `hang` did not finish within 300 ms and was stopped" }], "isError": true })
    );
}

#[test]
fn sigterm_finishes_work_in_flight_then_exits_cleanly() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "sleep", "arguments": { "ms": 400 } } }));
    // The call is in flight once the server has answered a request sent after it.
    let ping = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }));
    assert_eq!(ping["result"], json!({}));
    let pid = peer.child().id().to_string();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(status.success());
    let slept = peer.recv();
    assert_eq!(slept["id"], 1);
    assert_eq!(slept["result"]["content"][0]["text"], "slept 400 ms");
    let exit = peer.child().wait().unwrap();
    assert_eq!(exit.code(), Some(0));
}

#[test]
fn end_of_input_finishes_work_in_flight_then_exits_cleanly() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "sleep", "arguments": { "ms": 300 } } }));
    peer.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "block", "arguments": { "ms": 300 } } }));
    let (status, rest) = peer.finish();
    assert_eq!(status.code(), Some(0));
    let mut ids: Vec<i64> = rest.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, [1, 2]);
}

#[test]
fn a_closed_stdout_ends_the_server_without_a_panic() {
    // The client stops reading: the pipe the server writes to is closed.
    let mut child = std::process::Command::new(FIXTURE)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for id in 0..50 {
        let line = format!("{}\n", json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }));
        if stdin.write_all(line.as_bytes()).is_err() {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?} {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_oversized_message_is_refused_and_the_next_is_served() {
    let mut peer = Peer::spawn(FIXTURE); // limit: 64 KiB
    initialize(&mut peer, "2025-11-25");
    let huge = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "x".repeat(200_000) } } });
    let size = huge.to_string().len();
    peer.send(huge);
    assert_eq!(
        peer.recv(),
        json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32600, "message": format!("the message is {size} bytes long; this server accepts messages of up to 65536 bytes") } })
    );
    let next = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "small" } } }));
    assert_eq!(next["result"]["content"][0]["text"], "small");
}

#[test]
fn pagination_with_an_opaque_cursor() {
    // The fixture lists all its tools in one page; ask for a bad cursor.
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    let list = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "echo",
            "sleep",
            "block",
            "progress",
            "log",
            "toggle",
            "explode",
            "read_config",
            "hang",
            "ask_roots",
            "order_book",
            "ask_two",
            "roots_if_any",
            "needs_sign_in",
            "quiet_task",
            "staged"
        ]
    );
    assert!(list["result"].get("nextCursor").is_none());
    let bad = peer.request(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "cursor": "garbage!" } }),
    );
    assert_eq!(
        bad["error"],
        json!({ "code": -32602, "message": "Invalid cursor" })
    );
    assert!(peer.silent_for(Duration::from_millis(50)).is_none());
}

/// A server with neither prompts nor resources links none of their methods (nor completion):
/// the calculator answers each, well formed or not, in both eras, that it is not served.
#[test]
fn a_server_without_prompts_or_resources_says_it_serves_none_of_them() {
    let requests = [
        ("prompts/get", json!({ "name": "greet" }), "prompts"),
        ("prompts/get", json!({ "name": 7 }), "prompts"),
        ("resources/read", json!({ "uri": "file:///a" }), "resources"),
        ("resources/read", json!({ "uri": ["no"] }), "resources"),
        (
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "greet" }, "argument": { "name": "a", "value": "" } }),
            "prompts or resources",
        ),
    ];
    for modern in [true, false] {
        let mut peer = Peer::spawn(CALCULATOR);
        if !modern {
            initialize(&mut peer, "2025-06-18");
        }
        for (id, (method, mut params, what)) in (1..).zip(requests.clone()) {
            if modern {
                params["_meta"] = modern_meta(json!({}));
            }
            let answer =
                peer.request(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
            assert_eq!(answer["error"]["code"], -32601, "{answer}");
            assert_eq!(
                answer["error"]["message"],
                format!("method `{method}` is not served: this server has no {what}"),
                "{answer}"
            );
        }
    }
}
