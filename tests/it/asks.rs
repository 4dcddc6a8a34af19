//! Tools that ask (`Context::elicit`, `sample`, `list_roots`), one tool body in both eras,
//! over real pipes: in the `initialize` era the server's requests go out on stdout and the
//! answers come back on stdin; in revision 2026-07-28 a call ends its round with
//! `input_required` and a sealed `requestState`, and the client calls again with the
//! answers. Then, in process: sealed state shared by instances with one key ring, bound to
//! its caller, expiring; forms checked when a server starts.

use crate::support;

use mcp_toolkit::{Server, auth::Principal, seal::KeyRing, seal::SealKey, tools};
use serde_json::{Value, json};
use std::time::Duration;
use support::tools::{ask_two, order_book, roots_if_any};
use support::{Peer, Spec, initialize, modern_meta};

const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");
const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// Every capability an ask needs.
fn all_capabilities() -> Value {
    json!({ "elicitation": {}, "sampling": {}, "roots": {} })
}

/// A 2026-07-28 `tools/call` of `name` by a client with `capabilities`, with `extra`
/// params (`inputResponses`, `requestState`).
fn modern_call(id: i64, name: &str, arguments: Value, capabilities: Value, extra: Value) -> Value {
    let meta = modern_meta(json!({ "io.modelcontextprotocol/clientCapabilities": capabilities }));
    let mut params = json!({ "name": name, "arguments": arguments, "_meta": meta });
    if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
        params.extend(extra);
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
}

fn elicit_answer(street: &str) -> Value {
    json!({ "action": "accept", "content": { "street": street } })
}

fn model_answer(text: &str) -> Value {
    json!({ "role": "assistant", "model": "test-model", "content": { "type": "text", "text": text }, "stopReason": "endTurn" })
}

fn roots_answer() -> Value {
    json!({ "roots": [{ "uri": "file:///home/ada/books", "name": "books" }] })
}

/// The form `order_book` asks for, as the wire carries it.
fn shipping_form() -> Value {
    json!({
        "type": "object",
        "properties": {
            "street": { "type": "string", "description": "Street and number" },
            "express": { "type": "boolean", "description": "Express delivery", "default": false }
        },
        "required": ["street"]
    })
}

#[test]
fn a_modern_call_asks_round_by_round_and_completes() {
    let mut peer = Peer::spawn(FIXTURE);
    let spec = Spec::of(MODERN);
    let args = json!({ "title": "Dune" });
    let call = |id, extra| modern_call(id, "order_book", args.clone(), all_capabilities(), extra);

    // Round 1: the form.
    let first = peer.request(call(1, json!({})));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"],
        json!({ "elicit_1": { "method": "elicitation/create", "params": {
            "message": "Where should the book go?", "requestedSchema": shipping_form()
        } } })
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "fixture"
    );
    spec.assert_valid("InputRequiredResult", result);
    let state = result["requestState"]
        .as_str()
        .expect("a requestState")
        .to_owned();
    assert!(
        !state.contains("elicit"),
        "the state is sealed, not readable: {state}"
    );

    // Round 2: the tool runs again from the top; the form is answered, the model is asked.
    let second = peer.request(call(
        2,
        json!({ "inputResponses": { "elicit_1": elicit_answer("1 Main St") }, "requestState": state }),
    ));
    let result = &second["result"];
    assert_eq!(
        result["inputRequests"],
        json!({ "sample_2": { "method": "sampling/createMessage", "params": {
            "messages": [{ "role": "user", "content": { "type": "text", "text": "One line about Dune" } }],
            "maxTokens": 60
        } } })
    );
    spec.assert_valid("InputRequiredResult", result);
    let state2 = result["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state2, state);

    // Round 3: the roots; round 4: done. Earlier answers ride in the state, not the request.
    let third = peer.request(call(
        3,
        json!({ "inputResponses": { "sample_2": model_answer("A desert epic.") }, "requestState": state2 }),
    ));
    assert_eq!(
        third["result"]["inputRequests"],
        json!({ "roots_3": { "method": "roots/list", "params": {} } })
    );
    let last = peer.request(call(
        4,
        json!({ "inputResponses": { "roots_3": roots_answer() }, "requestState": third["result"]["requestState"] }),
    ));
    assert_eq!(
        last["result"]["content"],
        json!([{ "type": "text", "text": "Dune to 1 Main St (standard, 1 roots): A desert epic." }])
    );
    assert_eq!(last["result"]["resultType"], "complete");
    spec.assert_valid("CallToolResultResponse", &last);

    // A retry without the answer it was asked for is asked again, not refused.
    let again = peer.request(call(
        5,
        json!({ "inputResponses": { "wrong_key": roots_answer() } }),
    ));
    assert_eq!(again["result"]["resultType"], "input_required");
    assert!(again["result"]["inputRequests"]["elicit_1"].is_object());
}

#[test]
fn asks_made_together_are_one_round() {
    let mut peer = Peer::spawn(FIXTURE);
    let call = |id, extra| modern_call(id, "ask_two", json!({}), all_capabilities(), extra);
    let first = peer.request(call(1, json!({})));
    let requests = &first["result"]["inputRequests"];
    assert_eq!(
        requests.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["where", "roots"]
    );
    assert_eq!(requests["roots"]["method"], "roots/list");
    let done = peer.request(call(
        2,
        json!({
            "inputResponses": { "where": elicit_answer("Baker St"), "roots": roots_answer() },
            "requestState": first["result"]["requestState"]
        }),
    ));
    assert_eq!(done["result"]["content"][0]["text"], "Baker St, 1 roots");
}

#[test]
fn a_state_that_does_not_open_is_refused_with_one_message_and_the_server_serves_on() {
    let mut peer = Peer::spawn(FIXTURE);
    let args = json!({ "title": "Dune" });
    let first = peer.request(modern_call(
        1,
        "order_book",
        args.clone(),
        all_capabilities(),
        json!({}),
    ));
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let answers = json!({ "elicit_1": elicit_answer("1 Main St") });

    let refused = |id: i64, name: &str, arguments: Value, state: &str| {
        let extra = json!({ "inputResponses": answers, "requestState": state });
        modern_call(id, name, arguments, all_capabilities(), extra)
    };
    let cases = [
        (
            "tampered",
            refused(2, "order_book", args.clone(), &format!("{state}-TAMPERED")),
        ),
        (
            "truncated",
            refused(3, "order_book", args.clone(), &state[..state.len() - 2]),
        ),
        (
            "other arguments",
            refused(4, "order_book", json!({ "title": "Emma" }), &state),
        ),
        ("other tool", refused(5, "ask_two", json!({}), &state)),
        ("not base64", refused(6, "order_book", args.clone(), "%%%")),
    ];
    for (case, request) in cases {
        let id = request["id"].clone();
        let answer = peer.request(request);
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "invalid or expired requestState" } }),
            "{case}"
        );
    }
    // The same arguments written another way still match their state.
    let reordered = peer.request(refused(7, "order_book", json!({ "title": "Dune" }), &state));
    assert_eq!(
        reordered["result"]["inputRequests"]["sample_2"]["method"],
        "sampling/createMessage"
    );
    let pong = peer.request(json!({ "jsonrpc": "2.0", "id": 8, "method": "ping" }));
    assert_eq!(pong["result"], json!({}));
}

#[test]
fn an_undeclared_capability_is_never_asked() {
    let mut peer = Peer::spawn(FIXTURE);
    let spec = Spec::of(MODERN);
    // The tool lets the missing capability propagate: the protocol's error.
    let answer = peer.request(modern_call(
        1,
        "order_book",
        json!({ "title": "Dune" }),
        json!({}),
        json!({}),
    ));
    assert_eq!(
        answer,
        json!({ "jsonrpc": "2.0", "id": 1, "error": {
            "code": -32021,
            "message": "this request needs the client capability `elicitation.form`, which the client did not declare",
            "data": { "requiredCapabilities": { "elicitation": { "form": {} } } }
        } })
    );
    spec.assert_valid("MissingRequiredClientCapabilityError", &answer);
    // A client that declares URL elicitation only cannot be sent a form either.
    let url_only = json!({ "elicitation": { "url": {} }, "sampling": {}, "roots": {} });
    let answer = peer.request(modern_call(
        2,
        "order_book",
        json!({ "title": "Dune" }),
        url_only,
        json!({}),
    ));
    assert_eq!(answer["error"]["code"], -32021);
    // A tool that handles it does without.
    let answer = peer.request(modern_call(3, "roots_if_any", json!({}), json!({}), json!({})));
    assert_eq!(answer["result"]["content"][0]["text"], "no `roots`: no roots");

    // Legacy: an error result naming the capability; nothing is sent to the client.
    let mut legacy = Peer::spawn(FIXTURE);
    initialize(&mut legacy, LEGACY);
    let answer = legacy.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "order_book", "arguments": { "title": "Dune" } }
    }));
    assert_eq!(
        answer["result"],
        json!({ "content": [{ "type": "text", "text": "this request needs the client capability `elicitation.form`, which the client did not declare" }], "isError": true })
    );
}

/// A legacy session over pipes whose client declares every ask's capability.
fn legacy_peer(revision: &str) -> Peer {
    let mut peer = Peer::spawn_logged(FIXTURE);
    let init = peer.request(json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": revision, "capabilities": all_capabilities(), "clientInfo": { "name": "t", "version": "1" } }
    }));
    assert_eq!(init["result"]["protocolVersion"], revision);
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    peer
}

#[test]
fn a_legacy_call_asks_with_requests_of_the_servers_own() {
    let mut peer = legacy_peer(LEGACY);
    let spec = Spec::of(LEGACY);
    peer.send(json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": { "name": "order_book", "arguments": { "title": "Dune" } }
    }));
    let elicit = peer.recv();
    assert_eq!(
        elicit,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {
            "message": "Where should the book go?", "requestedSchema": shipping_form()
        } })
    );
    spec.assert_valid("ElicitRequest", &elicit);
    peer.send(json!({ "jsonrpc": "2.0", "id": 1, "result": { "action": "accept", "content": { "street": "1 Main St", "express": true } } }));

    let sample = peer.recv();
    assert_eq!(sample["method"], "sampling/createMessage");
    assert_eq!(sample["id"], 2);
    spec.assert_valid("CreateMessageRequest", &sample);
    peer.send(json!({ "jsonrpc": "2.0", "id": 2, "result": model_answer("A desert epic.") }));

    let roots = peer.recv();
    assert_eq!(
        roots,
        json!({ "jsonrpc": "2.0", "id": 3, "method": "roots/list", "params": {} })
    );
    // A roots change notice is taken in stride while the call waits.
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/roots/list_changed" }));
    peer.send(json!({ "jsonrpc": "2.0", "id": 3, "result": roots_answer() }));
    let done = peer.recv();
    assert_eq!(done["id"], 7);
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Dune to 1 Main St (express, 1 roots): A desert epic."
    );
    spec.assert_valid("CallToolResult", &done["result"]);
}

#[test]
fn legacy_answers_that_do_not_fit_reach_the_tool_as_errors() {
    let mut peer = legacy_peer(LEGACY);
    let call = |id: i64| json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "order_book", "arguments": { "title": "Dune" } } });
    // Content that does not fit the form: a message naming the field.
    peer.send(call(1));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": { "action": "accept", "content": { "street": 5 } } }));
    let answer = peer.recv();
    assert_eq!(
        answer["result"],
        json!({ "content": [{ "type": "text", "text": "the form's answer does not fit: field `street`: expected a string, received the number 5" }], "isError": true })
    );
    // Declined: the tool decides.
    peer.send(call(2));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": { "action": "decline" } }));
    assert_eq!(peer.recv()["result"]["content"][0]["text"], "not ordered");
    // An answer that is not an ElicitResult: the client's fault, said to the tool.
    peer.send(call(3));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": { "action": "maybe" } }));
    assert_eq!(
        peer.recv()["result"]["content"][0]["text"],
        "the client's answer to `elicitation/create` is not valid: `action`: unknown variant `maybe`, expected one of `accept`, `decline`, `cancel`"
    );
    // A client that never answers: the tool's time limit (2 s) ends the call and withdraws
    // the request.
    peer.send(call(4));
    let asked = peer.recv();
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(peer.recv()["method"], "notifications/cancelled");
    let stopped = peer.recv();
    assert_eq!(stopped["id"], 4);
    assert_eq!(stopped["result"]["isError"], true);
    let log = peer.log_when(|log| log.contains("is not valid"));
    assert!(
        log.contains("the client's answer to `elicitation/create` is not valid"),
        "{log}"
    );
}

#[test]
fn a_tool_that_needs_the_user_at_a_url_says_so_as_each_revision_can() {
    let url = "https://calendar.example/authorize?state=7";
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "needs_sign_in", "arguments": {} } });
    let as_result = json!({ "content": [{ "type": "text", "text": format!("Sign in to your calendar: {url}") }], "isError": true });

    // 2025-11-25, a client that opens URLs: the URL-required error.
    let mut peer = Peer::spawn(FIXTURE);
    let init = peer.request(json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": LEGACY, "capabilities": { "elicitation": { "url": {} } }, "clientInfo": { "name": "t", "version": "1" } }
    }));
    assert_eq!(init["result"]["protocolVersion"], LEGACY);
    let answer = peer.request(call.clone());
    let elicitation = &answer["error"]["data"]["elicitations"][0];
    assert_eq!(answer["error"]["code"], -32042);
    assert_eq!(answer["error"]["message"], "Sign in to your calendar");
    assert_eq!(
        (elicitation["mode"].clone(), elicitation["url"].clone()),
        (json!("url"), json!(url))
    );
    assert_eq!(elicitation["elicitationId"].as_str().map(str::len), Some(32));
    Spec::of(LEGACY).assert_valid("URLElicitationRequiredError", &answer);

    // A client that does not: an error result with the URL in it.
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, LEGACY);
    assert_eq!(peer.request(call.clone())["result"], as_result);

    // 2026-07-28: a round whose question is the URL.
    let mut peer = Peer::spawn(FIXTURE);
    let with_url = json!({ "elicitation": { "url": {} } });
    let answer = peer.request(modern_call(1, "needs_sign_in", json!({}), with_url, json!({})));
    assert_eq!(
        answer["result"]["inputRequests"],
        json!({ "url_required": { "method": "elicitation/create", "params": { "mode": "url", "message": "Sign in to your calendar", "url": url } } })
    );
    Spec::of(MODERN).assert_valid("InputRequiredResult", &answer["result"]);
    let answer = peer.request(modern_call(2, "needs_sign_in", json!({}), json!({}), json!({})));
    assert_eq!(answer["result"]["content"], as_result["content"]);
}

const NOTES: &str = env!("CARGO_BIN_EXE_notes");

/// What `clear_notes` asks when there are `count` notes.
fn confirm_clear(count: u64) -> Value {
    json!({ "elicit_1": { "method": "elicitation/create", "params": {
        "message": format!("Delete all {count} notes? This cannot be undone."),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "confirm": { "type": "boolean", "title": "Confirm", "description": "Go ahead?", "default": true }
            }
        }
    } } })
}

/// Adds a note to the notes server over 2026-07-28.
fn add_note(peer: &mut Peer, id: i64, title: &str) {
    let added = peer.request(modern_call(
        id,
        "add_note",
        json!({ "title": title, "body": "text" }),
        json!({}),
        json!({}),
    ));
    assert_eq!(added["result"]["isError"], Value::Null, "{added}");
}

/// How many notes the notes server holds.
fn count_notes(peer: &mut Peer, id: i64) -> u64 {
    let found = peer.request(modern_call(
        id,
        "search_notes",
        json!({ "query": "" }),
        json!({}),
        json!({}),
    ));
    found["result"]["structuredContent"]["total"]
        .as_u64()
        .unwrap_or_else(|| panic!("a count: {found}"))
}

#[test]
fn an_answer_is_taken_for_the_question_it_answers_only() {
    let mut peer = Peer::spawn(NOTES);
    let spec = Spec::of(MODERN);
    let yes = json!({ "action": "accept", "content": { "confirm": true } });
    let clear = |id, extra| modern_call(id, "clear_notes", json!({}), all_capabilities(), extra);
    add_note(&mut peer, 1, "one");
    let asked = peer.request(clear(2, json!({})));
    assert_eq!(asked["result"]["inputRequests"], confirm_clear(1));
    let state = asked["result"]["requestState"].clone();

    // The user agreed to delete one note; meanwhile a second was added. The answer to
    // "Delete all 1 notes?" is no answer to "Delete all 2 notes?": asked again.
    add_note(&mut peer, 3, "two");
    let retried = peer.request(clear(
        4,
        json!({ "inputResponses": { "elicit_1": yes }, "requestState": state }),
    ));
    assert_eq!(retried["result"]["resultType"], "input_required", "{retried}");
    assert_eq!(retried["result"]["inputRequests"], confirm_clear(2));
    spec.assert_valid("InputRequiredResult", &retried["result"]);
    assert_eq!(count_notes(&mut peer, 5), 2, "nothing deleted on a stale answer");

    // The new question answered: done.
    let done = peer.request(clear(
        6,
        json!({ "inputResponses": { "elicit_1": yes }, "requestState": retried["result"]["requestState"] }),
    ));
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "deleted 2 notes" }])
    );
    assert_eq!(count_notes(&mut peer, 7), 0);
}

#[test]
fn answers_without_a_state_are_taken_under_their_keys_and_strays_beside_a_state_are_not() {
    let mut peer = Peer::spawn(NOTES);
    let yes = json!({ "action": "accept", "content": { "confirm": true } });
    add_note(&mut peer, 1, "one");
    // A client that answers before it is asked (SEP-2322 lets it): with no state there is
    // no question to compare with, so the ask under the key takes the answer, checked as
    // any answer is; the keys nothing asks for are ignored.
    let first = peer.request(modern_call(
        2,
        "clear_notes",
        json!({}),
        all_capabilities(),
        json!({ "inputResponses": { "elicit_1": yes, "unasked": { "action": "accept" } } }),
    ));
    assert_eq!(
        first["result"]["content"],
        json!([{ "type": "text", "text": "deleted 1 notes" }]),
        "{first}"
    );
    assert_eq!(count_notes(&mut peer, 3), 0);

    // Beside a state, an answer under a key the state never asked does not slip in.
    add_note(&mut peer, 4, "two");
    let asked = peer.request(modern_call(
        5,
        "clear_notes",
        json!({}),
        all_capabilities(),
        json!({}),
    ));
    assert_eq!(asked["result"]["inputRequests"], confirm_clear(1));
    let state = asked["result"]["requestState"].clone();
    let done = peer.request(modern_call(
        6,
        "clear_notes",
        json!({}),
        all_capabilities(),
        json!({ "inputResponses": { "elicit_1": { "action": "decline" }, "elicit_2": yes }, "requestState": state }),
    ));
    assert_eq!(done["result"]["content"][0]["text"], "kept 1 notes");
    assert_eq!(count_notes(&mut peer, 7), 1);
}

#[test]
fn a_modern_answer_that_is_not_a_result_of_its_request_is_asked_again() {
    let mut peer = Peer::spawn_logged(FIXTURE);
    let spec = Spec::of(MODERN);
    let call = |id, extra| {
        modern_call(
            id,
            "order_book",
            json!({ "title": "Dune" }),
            all_capabilities(),
            extra,
        )
    };
    let first = peer.request(call(1, json!({})));
    let second = peer.request(call(
        2,
        json!({ "inputResponses": { "elicit_1": elicit_answer("1 Main St") }, "requestState": first["result"]["requestState"] }),
    ));
    let sample = second["result"]["inputRequests"].clone();
    assert_eq!(
        sample.as_object().map(|asked| asked.keys().collect::<Vec<_>>()),
        Some(vec![&"sample_2".to_owned()])
    );

    // A sampling answer from the `system` role is no CreateMessageResult: asked again.
    let mut system = model_answer("I am the system.");
    system["role"] = json!("system");
    let again = peer.request(call(
        3,
        json!({ "inputResponses": { "sample_2": system }, "requestState": second["result"]["requestState"] }),
    ));
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_eq!(again["result"]["inputRequests"], sample);
    spec.assert_valid("InputRequiredResult", &again["result"]);
    // Nor is one whose content block is not a content block.
    let mut odd = model_answer("x");
    odd["content"] = json!({ "type": "hologram" });
    let again = peer.request(call(
        4,
        json!({ "inputResponses": { "sample_2": odd }, "requestState": again["result"]["requestState"] }),
    ));
    assert_eq!(again["result"]["inputRequests"], sample);

    let roots = peer.request(call(
        5,
        json!({ "inputResponses": { "sample_2": model_answer("Sand.") }, "requestState": again["result"]["requestState"] }),
    ));
    let roots_asked = json!({ "roots_3": { "method": "roots/list", "params": {} } });
    assert_eq!(roots["result"]["inputRequests"], roots_asked);
    // A root whose name is a number: asked again.
    let numbered = json!({ "roots": [{ "uri": "file:///home/ada/books", "name": 5 }] });
    let again = peer.request(call(
        6,
        json!({ "inputResponses": { "roots_3": numbered }, "requestState": roots["result"]["requestState"] }),
    ));
    assert_eq!(again["result"]["inputRequests"], roots_asked);
    let done = peer.request(call(
        7,
        json!({ "inputResponses": { "roots_3": roots_answer() }, "requestState": again["result"]["requestState"] }),
    ));
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "Dune to 1 Main St (standard, 1 roots): Sand." }])
    );
    let pong = peer.request(json!({ "jsonrpc": "2.0", "id": 8, "method": "ping" }));
    assert_eq!(pong["result"], json!({}));
    assert!(!peer.log().contains("ERROR"), "{}", peer.log());
}

#[test]
fn a_legacy_answer_that_is_not_a_result_of_its_request_is_the_clients_fault() {
    let mut peer = legacy_peer(LEGACY);
    let call = |id: i64| json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "order_book", "arguments": { "title": "Dune" } } });
    let failed = |text: &str| json!({ "content": [{ "type": "text", "text": text }], "isError": true });

    peer.send(call(1));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": elicit_answer("1 Main St") }));
    let asked = peer.recv();
    assert_eq!(asked["method"], "sampling/createMessage");
    let mut system = model_answer("I am the system.");
    system["role"] = json!("system");
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": system }));
    let answer = peer.recv();
    assert_eq!(answer["id"], 1);
    assert_eq!(
        answer["result"],
        failed(
            "the client's answer to `sampling/createMessage` is not valid: `role`: unknown variant `system`, expected `user` or `assistant`"
        )
    );
    Spec::of(LEGACY).assert_valid("CallToolResult", &answer["result"]);

    peer.send(call(2));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": elicit_answer("1 Main St") }));
    let asked = peer.recv();
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": model_answer("Sand.") }));
    let asked = peer.recv();
    assert_eq!(asked["method"], "roots/list");
    let numbered = json!({ "roots": [{ "uri": "file:///home/ada/books", "name": 5 }] });
    peer.send(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": numbered }));
    assert_eq!(
        peer.recv()["result"],
        failed(
            "the client's answer to `roots/list` is not valid: `roots[0].name`: invalid type: integer `5`, expected a string"
        )
    );
    let log = peer.log_when(|log| log.matches("is not valid").count() >= 2);
    assert_eq!(log.matches("is not valid").count(), 2, "{log}");
    assert!(log.contains("WARN"), "{log}");
    assert!(
        !log.contains("ERROR"),
        "the client's fault, not the server's: {log}"
    );
}

#[test]
fn answers_to_no_question_are_not_sealed() {
    let mut peer = Peer::spawn(NOTES);
    let clear = |id, extra| modern_call(id, "clear_notes", json!({}), all_capabilities(), extra);
    let state_of = |answer: &Value| {
        answer["result"]["requestState"]
            .as_str()
            .unwrap_or_else(|| panic!("a state: {answer}"))
            .len()
    };
    // 10,000 answers under keys never asked (about 400 KB).
    let flood: serde_json::Map<String, Value> = (0..10_000)
        .map(|n| (format!("never_asked_{n}"), json!({ "action": "decline" })))
        .collect();
    add_note(&mut peer, 1, "one");
    let plain = peer.request(clear(2, json!({})));
    assert_eq!(plain["result"]["inputRequests"], confirm_clear(1));
    assert!(state_of(&plain) < 256, "{}", state_of(&plain));

    // Without a state: the same question, and a state of the same size.
    let flooded = peer.request(clear(3, json!({ "inputResponses": flood })));
    assert_eq!(flooded["result"]["inputRequests"], confirm_clear(1));
    assert_eq!(state_of(&flooded), state_of(&plain), "nothing unasked sealed");

    // With one: the same.
    let state = plain["result"]["requestState"].clone();
    let again = peer.request(clear(
        4,
        json!({ "inputResponses": flood, "requestState": state }),
    ));
    assert_eq!(again["result"]["inputRequests"], confirm_clear(1));
    assert_eq!(state_of(&again), state_of(&plain), "nothing unasked sealed");
    assert_eq!(count_notes(&mut peer, 5), 1);
}

// In process: instances, callers, expiry and forms.

fn book_server(keys: KeyRing) -> Server {
    Server::new("books", "1.0.0")
        .tools(tools![order_book, ask_two, roots_if_any])
        .request_state_keys(keys)
        .bearer_auth(|token| async move { Some(Principal::new(token)) })
}

async fn post(client: &reqwest::Client, url: &str, token: &str, body: &Value) -> (u16, Value) {
    let response = client
        .post(url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call")
        .header("mcp-name", body["params"]["name"].as_str().unwrap())
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_sharing_a_key_ring_share_rounds_and_a_state_opens_for_its_caller_only() {
    let shared = || KeyRing::new(SealKey::from_bytes([42; 32]));
    let mut urls = Vec::new();
    let mut stops = Vec::new();
    let servers = [
        book_server(shared()),
        // Rotated: a new key first, the shared one kept to open.
        book_server(KeyRing::new(SealKey::from_bytes([43; 32])).with_key(SealKey::from_bytes([42; 32]))),
        book_server(KeyRing::new(SealKey::from_bytes([7; 32]))),
    ];
    for server in servers {
        let http = server.bind_http("127.0.0.1:0").await.unwrap();
        urls.push(format!("http://{}/mcp", http.local_addr()));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        stops.push(stop);
        tokio::spawn(http.run_until(async {
            stopped.await.ok();
        }));
    }
    let client = reqwest::Client::new();
    let call = |extra| {
        modern_call(
            1,
            "order_book",
            json!({ "title": "Dune" }),
            all_capabilities(),
            extra,
        )
    };

    let (status, first) = post(&client, &urls[0], "ada", &call(json!({}))).await;
    assert_eq!(status, 200);
    let state = first["result"]["requestState"].clone();
    let retry =
        call(json!({ "inputResponses": { "elicit_1": elicit_answer("1 Main St") }, "requestState": state }));

    // Another instance with the key, and one that rotated to a new key, both go on.
    for url in &urls[..2] {
        let (status, next) = post(&client, url, "ada", &retry).await;
        assert_eq!(status, 200, "{next}");
        assert_eq!(
            next["result"]["inputRequests"]["sample_2"]["method"],
            "sampling/createMessage"
        );
    }
    // An instance without the key, and another caller, are refused alike.
    for (url, caller) in [(&urls[2], "ada"), (&urls[0], "bob")] {
        let (_, refused) = post(&client, url, caller, &retry).await;
        assert_eq!(
            refused["error"],
            json!({ "code": -32602, "message": "invalid or expired requestState" }),
            "{url} {caller}"
        );
    }
    // A missing capability is HTTP 400 in this revision.
    let bare = modern_call(1, "order_book", json!({ "title": "Dune" }), json!({}), json!({}));
    let (status, refused) = post(&client, &urls[0], "ada", &bare).await;
    assert_eq!((status, refused["error"]["code"].clone()), (400, json!(-32021)));
    for stop in stops {
        stop.send(()).ok();
    }
}

#[tokio::test]
async fn over_http_an_answer_is_taken_for_its_question_only() {
    let server = support::HttpProcess::spawn(NOTES);
    let client = reqwest::Client::new();
    let post = |body: Value| {
        let client = client.clone();
        let url = server.url.clone();
        async move { post(&client, &url, "anyone", &body).await }
    };
    let call = |id, name, arguments, extra| modern_call(id, name, arguments, all_capabilities(), extra);
    let yes = json!({ "action": "accept", "content": { "confirm": true } });
    let add = |id, title| {
        call(
            id,
            "add_note",
            json!({ "title": title, "body": "text" }),
            json!({}),
        )
    };

    assert_eq!(post(add(1, "one")).await.0, 200);
    let (_, asked) = post(call(2, "clear_notes", json!({}), json!({}))).await;
    assert_eq!(asked["result"]["inputRequests"], confirm_clear(1));
    assert_eq!(post(add(3, "two")).await.0, 200);
    let retry =
        json!({ "inputResponses": { "elicit_1": yes }, "requestState": asked["result"]["requestState"] });
    let (status, again) = post(call(4, "clear_notes", json!({}), retry)).await;
    assert_eq!(status, 200);
    assert_eq!(again["result"]["inputRequests"], confirm_clear(2), "{again}");
    assert_eq!(post(add(5, "three")).await.0, 200);
    // The answer to "Delete all 2 notes?" is no answer to "Delete all 3 notes?" either.
    let retry =
        json!({ "inputResponses": { "elicit_1": yes }, "requestState": again["result"]["requestState"] });
    let (_, again) = post(call(6, "clear_notes", json!({}), retry)).await;
    assert_eq!(again["result"]["inputRequests"], confirm_clear(3), "{again}");
    let retry =
        json!({ "inputResponses": { "elicit_1": yes }, "requestState": again["result"]["requestState"] });
    let (_, done) = post(call(7, "clear_notes", json!({}), retry)).await;
    assert_eq!(done["result"]["content"][0]["text"], "deleted 3 notes");
}

#[tokio::test]
async fn a_state_expires() {
    let client = book_server(KeyRing::new(SealKey::from_bytes([1; 32])))
        .request_state_ttl(Duration::from_millis(50))
        .test_client()
        .unwrap()
        .with_roots([("file:///srv", "srv")]);
    let params = json!({ "name": "roots_if_any", "arguments": {} });
    let first = client.request("tools/call", params.clone()).await.unwrap();
    assert_eq!(first["resultType"], "input_required");
    tokio::time::sleep(Duration::from_millis(120)).await;
    let mut late = params;
    late["inputResponses"] = json!({ "roots_1": roots_answer() });
    late["requestState"] = first["requestState"].clone();
    let refused = client.request("tools/call", late).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the server answered with JSON-RPC error -32602: invalid or expired requestState"
    );
}

#[tokio::test]
async fn the_test_client_answers_asks_in_both_eras() {
    let server = || Server::new("books", "1.0.0").tools(tools![order_book, ask_two]);
    let answer_all = |client: mcp_toolkit::testing::TestClient| {
        client
            .on_elicit(|request| async move {
                assert_eq!(request["message"], "Where should the book go?");
                elicit_answer("2 Elm St")
            })
            .on_sample(|_| async { model_answer("Sand.") })
            .with_roots([("file:///a", "a"), ("file:///b", "b")])
    };
    let modern = answer_all(server().test_client().unwrap());
    let result = modern
        .call("order_book", json!({ "title": "Dune" }))
        .await
        .unwrap();
    assert_eq!(result.text(), Some("Dune to 2 Elm St (standard, 2 roots): Sand."));
    assert_eq!(result.rounds(), 3);

    let legacy = server()
        .test_client_legacy(mcp_toolkit::protocol::ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    let legacy = answer_all(legacy);
    let result = legacy
        .call("order_book", json!({ "title": "Dune" }))
        .await
        .unwrap();
    assert_eq!(result.text(), Some("Dune to 2 Elm St (standard, 2 roots): Sand."));
    assert_eq!(result.rounds(), 0);
    // The server's requests are among the messages the call brought.
    let methods: Vec<&str> = result
        .notifications()
        .iter()
        .filter_map(|m| m["method"].as_str())
        .collect();
    assert_eq!(
        methods,
        ["elicitation/create", "sampling/createMessage", "roots/list"]
    );
}

/// A form with a nested struct: not one the protocol can carry.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // never decoded: the server refuses to start
struct Nested {
    /// Where
    address: Address,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Address {
    street: String,
}

/// Asks for a form it cannot send.
#[mcp_toolkit::tool]
async fn bad_form(cx: mcp_toolkit::Context) -> Result<String, mcp_toolkit::ToolError> {
    let _ = cx.elicit::<Nested>("where?").await?;
    Ok("asked".into())
}

#[test]
fn a_server_whose_tool_asks_for_a_form_it_cannot_send_does_not_start() {
    let error = Server::new("forms", "1.0.0")
        .tools(tools![bad_form])
        .test_client()
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with("tool `bad_form` asks for a form it cannot send: `it::asks::Nested` cannot be asked for as a form: field `address`"),
        "{message}"
    );
    let mcp_toolkit::testing::ClientError::Server(mcp_toolkit::Error::Definition(
        mcp_toolkit::registry::DefinitionError::NotAForm {
            tool,
            type_name,
            field,
            ..
        },
    )) = error
    else {
        panic!("not a form error: {error:?}");
    };
    assert_eq!(
        (tool.as_str(), type_name, field.as_deref()),
        ("bad_form", "it::asks::Nested", Some("address"))
    );
}

/// Looks a word up.
#[mcp_toolkit::tool]
fn lookup(word: String) -> String {
    word
}

/// Asks the client's model, offering it a tool.
#[mcp_toolkit::tool]
async fn sample_with_tools(cx: mcp_toolkit::Context) -> Result<String, mcp_toolkit::ToolError> {
    let answer = cx
        .sample("Define 'tarn'.")
        .system_prompt("Be brief.")
        .temperature(0.2)
        .stop_sequences(["\n\n"])
        .tools(tools![lookup])
        .max_tokens(40)
        .await?;
    Ok(format!(
        "{} ({}, {:?})",
        answer.text().unwrap_or_default(),
        answer.model,
        answer.stop_reason
    ))
}

#[tokio::test]
async fn sampling_offers_tools_only_to_a_client_that_declares_sampling_tools() {
    let client = Server::new("words", "1.0.0")
        .tools(tools![sample_with_tools])
        .test_client()
        .unwrap()
        .on_sample(|request| async move {
            assert_eq!(request["tools"][0]["name"], "lookup");
            assert_eq!(request["tools"][0]["inputSchema"]["required"], json!(["word"]));
            assert_eq!(
                (&request["systemPrompt"], &request["temperature"], &request["stopSequences"], &request["maxTokens"]),
                (&json!("Be brief."), &json!(0.2), &json!(["\n\n"]), &json!(40))
            );
            json!({ "role": "assistant", "model": "m1", "stopReason": "endTurn",
                    "content": [{ "type": "text", "text": "A mountain " }, { "type": "text", "text": "lake." }] })
        });
    let result = client.call("sample_with_tools", json!({})).await.unwrap();
    assert_eq!(result.text(), Some(r#"A mountain lake. (m1, Some("endTurn"))"#));

    // A client with sampling but not `sampling.tools` is not asked.
    let params = json!({
        "name": "sample_with_tools", "arguments": {},
        "_meta": { "io.modelcontextprotocol/clientCapabilities": { "sampling": {} } }
    });
    let refused = client.request("tools/call", params).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the server answered with JSON-RPC error -32021: this request needs the client capability `sampling.tools`, which the client did not declare"
    );
}
