//! The notes example over real pipes: state shared by its tools, structured output,
//! progress, and `restore_note` appearing and disappearing while it serves. Every message
//! is checked against the official schema of revision 2025-11-25.

mod support;

use serde_json::{Value, json};
use support::{Peer, Spec, initialize};

const NOTES: &str = env!("CARGO_BIN_EXE_notes");
const REVISION: &str = "2025-11-25";

fn call(peer: &mut Peer, id: u64, name: &str, arguments: Value) -> Value {
    let response = peer.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": name, "arguments": arguments }
    }));
    let spec = Spec::of(REVISION);
    spec.assert_valid("JSONRPCResultResponse", &response);
    spec.assert_valid("CallToolResult", &response["result"]);
    response["result"].clone()
}

fn tool_names(peer: &mut Peer, id: u64) -> Vec<String> {
    let list = peer.request(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list" }));
    Spec::of(REVISION).assert_valid("ListToolsResult", &list["result"]);
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Sends a call whose tool changes the tool list: the notification and the response may
/// come in either order.
fn call_announcing_a_change(peer: &mut Peer, id: u64, name: &str, arguments: Value) -> Value {
    peer.send(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": name, "arguments": arguments }
    }));
    let (first, second) = (peer.recv(), peer.recv());
    let (notification, response) = if first.get("id").is_some() {
        (second, first)
    } else {
        (first, second)
    };
    assert_eq!(
        notification,
        json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} })
    );
    Spec::of(REVISION).assert_valid("ToolListChangedNotification", &notification);
    assert_eq!(response["id"], id);
    Spec::of(REVISION).assert_valid("CallToolResult", &response["result"]);
    response["result"].clone()
}

#[test]
fn notes_are_added_found_deleted_and_restored_with_the_tool_list_following() {
    let mut peer = Peer::spawn(NOTES);
    initialize(&mut peer, REVISION);
    assert_eq!(
        tool_names(&mut peer, 1),
        ["add_note", "search_notes", "delete_note", "summarize_notes"]
    );

    let first = call(
        &mut peer,
        2,
        "add_note",
        json!({"title": "Rust traits", "body": "Traits define shared behaviour.", "tags": ["rust"]}),
    );
    assert_eq!(
        first["structuredContent"],
        json!({"id": 1, "title": "Rust traits", "body": "Traits define shared behaviour.", "tags": ["rust"]})
    );
    call(
        &mut peer,
        3,
        "add_note",
        json!({"title": "Groceries", "body": "eggs, rice, tea"}),
    );
    let empty = call(&mut peer, 4, "add_note", json!({"title": " ", "body": "x"}));
    assert_eq!(empty["isError"], true);
    assert_eq!(empty["content"][0]["text"], "`title` must not be empty");

    let found = call(&mut peer, 5, "search_notes", json!({"query": "SHARED behaviour"}));
    assert_eq!(found["structuredContent"]["total"], 1);
    assert_eq!(found["structuredContent"]["notes"][0]["id"], 1);
    let everything = call(&mut peer, 6, "search_notes", json!({"query": "", "limit": 1}));
    assert_eq!(everything["structuredContent"]["total"], 2);
    assert_eq!(everything["structuredContent"]["notes"][0]["title"], "Groceries");

    // Deleting offers `restore_note`; restoring the last note in the trash withdraws it.
    let deleted = call_announcing_a_change(&mut peer, 7, "delete_note", json!({"id": 1}));
    assert_eq!(
        deleted["content"][0]["text"],
        "moved note 1 (\"Rust traits\") to the trash"
    );
    assert_eq!(
        tool_names(&mut peer, 8),
        [
            "add_note",
            "search_notes",
            "delete_note",
            "summarize_notes",
            "restore_note"
        ]
    );
    let gone = call(&mut peer, 9, "search_notes", json!({"query": "traits"}));
    assert_eq!(gone["structuredContent"]["total"], 0);
    let restored = call_announcing_a_change(&mut peer, 10, "restore_note", json!({"id": 1}));
    assert_eq!(restored["structuredContent"]["title"], "Rust traits");
    assert_eq!(tool_names(&mut peer, 11).len(), 4);
    let missing = call(&mut peer, 12, "delete_note", json!({"id": 99}));
    assert_eq!(missing["isError"], true);
    assert_eq!(missing["content"][0]["text"], "there is no note 99");
}

#[test]
fn summarizing_reports_progress_note_by_note() {
    let mut peer = Peer::spawn(NOTES);
    initialize(&mut peer, REVISION);
    for (id, title) in [(1, "one"), (2, "two"), (3, "three")] {
        call(
            &mut peer,
            id,
            "add_note",
            json!({"title": title, "body": "a few words here", "tags": ["t"]}),
        );
    }
    peer.send(json!({
        "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "name": "summarize_notes", "_meta": { "progressToken": "sum" } }
    }));
    let mut progress = Vec::new();
    let result = loop {
        let message = peer.recv();
        if message.get("id").is_some() {
            break message;
        }
        Spec::of(REVISION).assert_valid("ProgressNotification", &message);
        progress.push((
            message["params"]["progress"].as_f64().unwrap(),
            message["params"]["message"].as_str().unwrap().to_owned(),
        ));
    };
    assert_eq!(
        progress,
        [
            (1.0, "one".to_owned()),
            (2.0, "two".to_owned()),
            (3.0, "three".to_owned())
        ]
    );
    assert_eq!(
        result["result"]["structuredContent"],
        json!({"notes": 3, "words": 12, "tags": {"t": 3}})
    );
}

#[test]
fn the_definitions_carry_annotations_and_output_schemas() {
    let mut peer = Peer::spawn(NOTES);
    initialize(&mut peer, REVISION);
    let list = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    let tools = list["result"]["tools"].as_array().unwrap();
    let by_name = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap().clone();
    assert_eq!(
        by_name("search_notes")["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(
        by_name("delete_note")["annotations"],
        json!({"destructiveHint": true, "idempotentHint": false, "openWorldHint": false})
    );
    assert_eq!(
        by_name("add_note")["outputSchema"]["required"],
        json!(["id", "title", "body", "tags"])
    );
    assert_eq!(
        by_name("search_notes")["inputSchema"]["properties"]["limit"]["default"],
        10
    );
}
