//! `Server` in process, over an in-memory byte stream: pagination, tools changed while
//! serving, and the checks made before serving starts.

use crate::support;

use mcp_toolkit::server::Limits;
use mcp_toolkit::{Error, Server, State, Tool, tool, tools};
use serde_json::{Value, json};
use support::Duplex as Client;
use support::Spec;

/// One.
#[tool]
fn one() -> u8 {
    1
}
/// Two.
#[tool]
fn two() -> u8 {
    2
}
/// Three.
#[tool]
fn three() -> u8 {
    3
}
/// Four.
#[tool]
fn four() -> u8 {
    4
}
/// Five.
#[tool]
fn five() -> u8 {
    5
}

fn names(result: &Value) -> Vec<String> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn tools_list_pages_follow_the_cursor() {
    let server = Server::new("pages", "1")
        .limits(Limits::default().page_size(2))
        .tools(tools![one, two, three, four, five]);
    let (mut client, _task) = Client::serve(server);
    let meta = support::modern_meta(json!({}));
    let mut cursor: Option<Value> = None;
    let mut pages = Vec::new();
    for id in 0..5 {
        let mut params = json!({ "_meta": meta });
        if let Some(cursor) = &cursor {
            params["cursor"] = cursor.clone();
        }
        let response = client
            .request(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params }))
            .await;
        Spec::of("2026-07-28").assert_valid("ListToolsResultResponse", &response);
        pages.push(names(&response["result"]));
        cursor = response["result"].get("nextCursor").cloned();
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(pages, [vec!["one", "two"], vec!["three", "four"], vec!["five"]]);
}

#[tokio::test]
async fn tools_added_and_removed_while_serving_are_announced() {
    let mut server = Server::new("live", "1").tools(tools![one]);
    let registry = server.tool_registry();
    let (mut client, _task) = Client::serve(server);
    let init = client
        .request(json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
        }))
        .await;
    assert_eq!(
        init["result"]["capabilities"]["tools"],
        json!({ "listChanged": true })
    );

    registry.add(tools![two].remove(0)).unwrap();
    assert_eq!(
        client.recv().await,
        json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} })
    );
    let list = client
        .request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }))
        .await;
    assert_eq!(names(&list["result"]), ["one", "two"]);

    assert!(registry.remove("one").is_some());
    assert_eq!(client.recv().await["method"], "notifications/tools/list_changed");
    let list = client
        .request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }))
        .await;
    assert_eq!(names(&list["result"]), ["two"]);

    // No change, no notification: the next message is the answer to the next request.
    assert!(!registry.set_enabled("nothing", false));
    assert!(registry.add(tools![two].remove(0)).is_err());
    let ping = client
        .request(json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" }))
        .await;
    assert_eq!(ping["id"], 3);
}

#[tokio::test]
async fn runtime_tools_are_served_like_macro_tools() {
    let greet = Tool::from_json(
        "greet",
        "Greets someone.",
        json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }),
        |args, _cx| async move { format!("Hello, {}!", args["name"].as_str().unwrap_or("stranger")) },
    )
    .unwrap();
    let (mut client, _task) = Client::serve(Server::new("dynamic", "1").tools([greet]));
    let call = client
        .request(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "_meta": support::modern_meta(json!({})), "name": "greet", "arguments": { "name": "Ada" } }
        }))
        .await;
    Spec::of("2026-07-28").assert_valid("CallToolResultResponse", &call);
    assert_eq!(
        call["result"]["content"],
        json!([{ "type": "text", "text": "Hello, Ada!" }])
    );
}

struct Config {
    greeting: String,
}

/// Greets with the configured greeting.
#[tool]
fn configured(config: State<Config>) -> String {
    config.greeting.clone()
}

#[tokio::test]
async fn a_tool_without_its_state_stops_the_server_before_it_serves() {
    let (_, server_end) = tokio::io::duplex(1024);
    let (read, write) = tokio::io::split(server_end);
    let error = Server::new("s", "1")
        .tools(tools![configured])
        .serve_io(read, write)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::MissingState { .. }));
    assert_eq!(
        error.to_string(),
        "`configured` needs `State<it::server::Config>`, but the server has no such state (it holds none); give it with `Server::state`"
    );
    // The message names what the server does hold, so a wrong type is easy to see.
    let (_, server_end) = tokio::io::duplex(1024);
    let (read, write) = tokio::io::split(server_end);
    let error = Server::new("s", "1")
        .tools(tools![configured])
        .state(7_u32)
        .state(String::from("not a Config"))
        .serve_io(read, write)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "`configured` needs `State<it::server::Config>`, but the server has no such state (it holds `State<u32>` and `State<alloc::string::String>`); give it with `Server::state`"
    );

    let server = Server::new("s", "1")
        .state(Config {
            greeting: "hi".into(),
        })
        .tools(tools![configured]);
    let (mut client, _task) = Client::serve(server);
    let call = client
        .request(json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "_meta": support::modern_meta(json!({})), "name": "configured" }
        }))
        .await;
    assert_eq!(call["result"]["content"][0]["text"], "hi");
}

#[tokio::test]
async fn two_tools_with_one_name_stop_the_server_before_it_serves() {
    let (_, server_end) = tokio::io::duplex(1024);
    let (read, write) = tokio::io::split(server_end);
    let renamed = tools![two].remove(0).with_name("one").unwrap();
    let error = Server::new("s", "1")
        .tools(tools![one])
        .tools([renamed])
        .serve_io(read, write)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "duplicate tool name `one`: every tool of a server needs its own name"
    );
}

#[tokio::test]
async fn the_connection_ends_cleanly_when_the_client_goes() {
    let (client, task) = Client::serve(Server::new("s", "1").tools(tools![one]));
    drop(client);
    task.await.unwrap().unwrap();
}
