//! Requests of the server's own to the client (`Context::send_request`), over real pipes:
//! in the `initialize` era they go out on stdout and the client's response, arriving on
//! stdin, is routed back to the call waiting on it. Responses to no request (an unknown id,
//! a second response, a response after the call ended) are logged and dropped, and nothing
//! else is disturbed. In revision 2026-07-28 a request becomes a question of the call's round.

use crate::support;

use serde_json::{Value, json};
use std::time::Duration;
use support::{Peer, Spec, modern_meta};

const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");
const REVISION: &str = "2025-11-25";

/// A fixture in a legacy session that declares the `roots` capability.
fn legacy_peer() -> Peer {
    let mut peer = Peer::spawn_logged(FIXTURE);
    let init = peer.request(json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": REVISION, "capabilities": { "roots": {} }, "clientInfo": { "name": "t", "version": "1" } }
    }));
    assert_eq!(init["result"]["protocolVersion"], REVISION);
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    peer
}

fn call_ask_roots(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "ask_roots", "arguments": {} } })
}

/// Asserts that the server still serves: a ping is answered at once.
fn still_serves(peer: &mut Peer, id: i64) {
    let pong = peer.request(json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }));
    assert_eq!(pong, json!({ "jsonrpc": "2.0", "id": id, "result": {} }));
}

#[test]
fn a_tool_asks_the_client_and_gets_its_answer() {
    let mut peer = legacy_peer();
    let spec = Spec::of(REVISION);
    peer.send(call_ask_roots(1));
    let asked = peer.recv();
    assert_eq!(
        asked,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "roots/list", "params": {} })
    );
    spec.assert_valid("ListRootsRequest", &asked);

    let roots = json!({ "roots": [{ "uri": "file:///home/ada/project", "name": "project" }] });
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "result": roots }));
    let answer = peer.recv();
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"],
        json!({ "content": [{ "type": "text", "text": format!("roots: {roots}") }] })
    );
    spec.assert_valid("CallToolResult", &answer["result"]);

    // The second request of the connection gets the next id; a refusal reaches the tool.
    peer.send(call_ask_roots(2));
    assert_eq!(peer.recv()["id"], 2);
    peer.send(json!({ "jsonrpc": "2.0", "id": 2, "error": { "code": -32601, "message": "roots are not supported" } }));
    let refused = peer.recv();
    assert_eq!(
        refused["result"],
        json!({ "content": [{ "type": "text", "text": "the client refused the request: roots are not supported (code -32601)" }], "isError": true })
    );
    still_serves(&mut peer, 3);
}

#[test]
fn responses_to_no_request_are_dropped_and_disturb_nothing() {
    let mut peer = legacy_peer();
    peer.send(call_ask_roots(1));
    assert_eq!(peer.recv()["method"], "roots/list");

    // An id the server never used: dropped; the call still waits for its own answer.
    peer.send(json!({ "jsonrpc": "2.0", "id": 99, "result": { "roots": [] } }));
    // An id in the server's number space but as a string: not the same id.
    peer.send(json!({ "jsonrpc": "2.0", "id": "1", "result": { "roots": [] } }));
    assert_eq!(peer.silent_for(Duration::from_millis(200)), None);
    still_serves(&mut peer, 2);

    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "result": { "roots": [] } }));
    let answer = peer.recv();
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], r#"roots: {"roots":[]}"#);

    // The same response again: answered already, so dropped.
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "result": { "roots": [{ "uri": "file:///late" }] } }));
    assert_eq!(peer.silent_for(Duration::from_millis(200)), None);
    still_serves(&mut peer, 3);

    // A call cancelled while it waits: its request is withdrawn, and the late answer dropped.
    peer.send(call_ask_roots(4));
    let asked = peer.recv();
    assert_eq!(asked["id"], 2);
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 4 } }));
    assert_eq!(peer.recv(), withdrawn(2));
    peer.send(json!({ "jsonrpc": "2.0", "id": 2, "result": { "roots": [] } }));
    assert_eq!(
        peer.silent_for(Duration::from_millis(200)),
        None,
        "a cancelled call is not answered"
    );
    still_serves(&mut peer, 5);

    let log = peer.log_when(|log| log.matches("dropped a response to no request").count() >= 4);
    assert_eq!(
        log.matches("dropped a response to no request").count(),
        4,
        "each stray response is logged once:\n{log}"
    );
    let (status, rest) = peer.finish();
    assert!(status.success(), "{status}");
    assert!(rest.is_empty(), "{rest:?}");
}

/// The server's notice that it no longer waits for the answer to its request `id`.
fn withdrawn(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id, "reason": "the call that asked has ended" } })
}

#[test]
fn a_client_that_never_answers_holds_the_call_only_until_it_is_cancelled_or_times_out() {
    let mut peer = legacy_peer();
    for id in 1..=3 {
        peer.send(call_ask_roots(id));
        assert_eq!(peer.recv()["method"], "roots/list");
    }
    for id in 1..=3 {
        peer.send(
            json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id } }),
        );
        assert_eq!(peer.recv(), withdrawn(id));
    }
    assert_eq!(peer.silent_for(Duration::from_millis(200)), None);
    still_serves(&mut peer, 4);

    // No answer and no cancellation: the tool's time limit (2 s in the fixture) ends the
    // call, and the request is withdrawn before the call's answer goes out.
    peer.send(call_ask_roots(5));
    assert_eq!(peer.recv()["id"], 4);
    let notice = peer.recv();
    assert_eq!(notice, withdrawn(4));
    Spec::of(REVISION).assert_valid("CancelledNotification", &notice);
    let stopped = peer.recv();
    assert_eq!(stopped["id"], 5);
    assert_eq!(
        stopped["result"],
        json!({ "content": [{ "type": "text", "text": "the tool `ask_roots` did not finish within 2 s and was stopped" }], "isError": true })
    );
    still_serves(&mut peer, 6);
    let (status, rest) = peer.finish();
    assert!(status.success(), "{status}");
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn in_revision_2026_07_28_a_request_becomes_a_question_of_the_calls_round() {
    let mut peer = Peer::spawn(FIXTURE);
    let spec = Spec::of("2026-07-28");
    let call = |extra: Value| {
        let mut params = json!({ "name": "ask_roots", "arguments": {}, "_meta": modern_meta(json!({})) });
        if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
            params.extend(extra);
        }
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params })
    };
    let asked = peer.request(call(json!({})));
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"],
        json!({ "roots_1": { "method": "roots/list", "params": {} } })
    );
    spec.assert_valid("InputRequiredResult", result);
    // Nothing went out but the response: the server sends no requests in this revision.
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);

    let roots = json!({ "roots": [{ "uri": "file:///srv" }] });
    let answered = peer.request(call(json!({
        "inputResponses": { "roots_1": roots },
        "requestState": result["requestState"],
    })));
    assert_eq!(
        answered["result"]["content"][0]["text"],
        format!("roots: {roots}")
    );
    assert_eq!(answered["result"]["resultType"], "complete");
    spec.assert_valid("CallToolResultResponse", &answered);
}
