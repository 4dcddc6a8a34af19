//! MCP Apps (`io.modelcontextprotocol/ui`): views served with their MIME type and `_meta.ui`
//! on the list and on every read, tools linked to them, the extension declared in both
//! eras, the client's declaration read per request, the start-time check of every link, and
//! tool search leaving the views' own tools to the views. The notes example's board over
//! real pipes and a real socket; the official clients and a real browser are the interop
//! and apps lanes' (tests/interop, tests/apps).

use crate::support::{self, Duplex, HttpProcess, Peer, Spec, initialize, modern_meta};
use mcp_toolkit::app::{Audience, Permission, View};
use mcp_toolkit::client::Client;
use mcp_toolkit::discovery::ToolSearch;
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::testing::ClientError;
use mcp_toolkit::{Context, Error, Server, Tool, resource, resources, tool, tools};
use serde_json::{Value, json};

const MIME: &str = "text/html;profile=mcp-app";
const BOARD: &str = "ui://notes/board";

fn board_ui() -> Value {
    json!({"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true})
}

/// The entry of `name` in a `tools/list` result.
fn listed<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["result"]["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("`{name}` is not listed: {list}"))
}

/// The schema's name of a successful answer: `JSONRPCResultResponse` from 2025-11-25 on.
fn result_response(revision: &str) -> &'static str {
    if Spec::of(revision).defines("JSONRPCResultResponse") {
        "JSONRPCResultResponse"
    } else {
        "JSONRPCResponse"
    }
}

/// What every revision shows of the board and its tools, over one connection.
fn assert_board(peer: &mut Peer, revision: &str, meta: Option<Value>) {
    let spec = Spec::of(revision);
    let response = result_response(revision);
    let params = |extra: Value| match &meta {
        Some(meta) => {
            let mut params = extra;
            params["_meta"] = meta.clone();
            params
        }
        None => extra,
    };
    let tools = peer
        .request(json!({"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": params(json!({}))}));
    spec.assert_valid(response, &tools);
    assert_eq!(
        listed(&tools, "list_notes")["_meta"],
        json!({"ui": {"resourceUri": BOARD}, "ui/resourceUri": BOARD}),
        "{revision}"
    );
    assert_eq!(
        listed(&tools, "board_add")["_meta"],
        json!({"ui": {"resourceUri": BOARD, "visibility": ["app"]}, "ui/resourceUri": BOARD}),
        "{revision}"
    );
    assert_eq!(listed(&tools, "add_note").get("_meta"), None, "{revision}");

    let resources = peer.request(
        json!({"jsonrpc": "2.0", "id": 12, "method": "resources/list", "params": params(json!({}))}),
    );
    spec.assert_valid(response, &resources);
    let board = resources["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == BOARD)
        .unwrap_or_else(|| panic!("the board is not listed: {resources}"));
    assert_eq!(board["mimeType"], MIME, "{revision}");
    assert_eq!(board["_meta"]["ui"], board_ui(), "{revision}");

    let read = peer.request(json!({"jsonrpc": "2.0", "id": 13, "method": "resources/read",
        "params": params(json!({"uri": BOARD}))}));
    spec.assert_valid(response, &read);
    let contents = read["result"]["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 1, "{read}");
    assert_eq!(contents[0]["uri"], BOARD);
    assert_eq!(contents[0]["mimeType"], MIME);
    assert_eq!(contents[0]["_meta"], json!({"ui": board_ui()}), "{revision}");
    let html = contents[0]["text"].as_str().unwrap();
    assert!(html.to_ascii_lowercase().starts_with("<!doctype html>"), "{html}");
    assert_eq!(html, include_str!("../../examples/notes/board.html"));
}

/// The notes example over real pipes, in every revision: the extension in `initialize`
/// (2024-11-05 to 2025-11-25) and `server/discover` (2026-07-28), the board listed and read
/// with its MIME type and `_meta.ui`, its tools linked; every message valid by the schema.
#[test]
fn the_notes_board_is_declared_listed_read_and_linked_in_every_revision() {
    let declared = json!({"io.modelcontextprotocol/ui": {"mimeTypes": [MIME]}});
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut peer = Peer::spawn(env!("CARGO_BIN_EXE_notes"));
        let init = initialize(&mut peer, revision);
        Spec::of(revision).assert_valid(result_response(revision), &init);
        assert_eq!(
            init["result"]["capabilities"]["extensions"], declared,
            "{revision}"
        );
        assert_board(&mut peer, revision, None);
    }
    let mut modern = Peer::spawn(env!("CARGO_BIN_EXE_notes"));
    let discover = modern.request(json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": modern_meta(json!({}))}}));
    Spec::of("2026-07-28").assert_valid("JSONRPCResultResponse", &discover);
    let extensions = &discover["result"]["capabilities"]["extensions"];
    assert_eq!(
        extensions["io.modelcontextprotocol/ui"],
        declared["io.modelcontextprotocol/ui"]
    );
    assert_board(&mut modern, "2026-07-28", Some(modern_meta(json!({}))));
}

/// What the board calls: `board_add` adds a note and answers every note for the board
/// (`structuredContent.notes`) and a list in text; `list_notes` then lists it, and a blank
/// title is refused with what is accepted.
#[test]
fn board_add_adds_a_card_that_list_notes_then_lists() {
    let mut peer = Peer::spawn(env!("CARGO_BIN_EXE_notes"));
    initialize(&mut peer, "2025-11-25");
    let call = |peer: &mut Peer, id: u64, name: &str, arguments: Value| {
        peer.request(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}))
    };
    let empty = call(&mut peer, 1, "list_notes", json!({}));
    assert_eq!(
        empty["result"]["structuredContent"],
        json!({"notes": []}),
        "{empty}"
    );
    assert_eq!(empty["result"]["content"][0]["text"], "0 notes");
    let added = call(&mut peer, 2, "board_add", json!({"title": "  buy milk "}));
    Spec::of("2025-11-25").assert_valid("JSONRPCResultResponse", &added);
    assert_eq!(
        added["result"]["structuredContent"],
        json!({"notes": [{"id": 1, "title": "buy milk", "body": "", "tags": []}]})
    );
    assert_eq!(
        added["result"]["content"][0]["text"],
        "added note #1; 1 note\n- #1 buy milk"
    );
    call(
        &mut peer,
        3,
        "add_note",
        json!({"title": "call Ada", "body": "about the board"}),
    );
    let listed = call(&mut peer, 4, "list_notes", json!({}));
    let titles: Vec<&str> = listed["result"]["structuredContent"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|note| note["title"].as_str())
        .collect();
    assert_eq!(titles, ["buy milk", "call Ada"]);
    assert_eq!(
        listed["result"]["content"][0]["text"],
        "2 notes\n- #1 buy milk\n- #2 call Ada"
    );
    let blank = call(&mut peer, 5, "board_add", json!({"title": "   "}));
    assert_eq!(blank["result"]["isError"], true, "{blank}");
    assert_eq!(blank["result"]["content"][0]["text"], "`title` must not be empty");
}

/// The same over Streamable HTTP, through this crate's client on a real socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_is_served_over_http() {
    let server = HttpProcess::spawn(env!("CARGO_BIN_EXE_notes"));
    let client = Client::http(&server.url).connect().await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let list_notes = tools.iter().find(|t| t.name() == "list_notes").unwrap();
    assert_eq!(list_notes.meta().unwrap()["ui"]["resourceUri"], BOARD);
    let read = client.read_resource(BOARD).await.unwrap();
    let content = &read.response()["result"]["contents"][0];
    assert_eq!(content["mimeType"], MIME);
    assert_eq!(content["_meta"]["ui"], board_ui());
    let added = client
        .call("board_add", json!({"title": "over http"}))
        .await
        .unwrap();
    assert_eq!(
        added.structured_content().unwrap()["notes"][0]["title"],
        "over http"
    );
}

/// Tells whether the client renders apps.
#[tool]
fn renders(cx: Context) -> bool {
    cx.client_supports_apps()
}

/// `Context::client_supports_apps` reads the client's declaration: from `initialize` in a
/// legacy session, from the request's own `_meta` in 2026-07-28; a declaration without the
/// app MIME type, or none, is `false`.
#[tokio::test]
async fn a_tool_reads_whether_its_client_renders_apps_in_both_eras() {
    let declares = |mime: &str| json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": [mime]}}});
    for (capabilities, expected) in [
        (declares(MIME), "true"),
        (declares("text/html"), "false"),
        (json!({}), "false"),
    ] {
        let (mut legacy, _task) = Duplex::serve(Server::new("apps", "1.0.0").tools(tools![renders]));
        legacy
            .request(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": capabilities.clone(),
                "clientInfo": {"name": "host", "version": "1"}}}),
            )
            .await;
        legacy
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        let called = legacy
            .request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "renders", "arguments": {}}}))
            .await;
        assert_eq!(called["result"]["content"][0]["text"], expected, "{capabilities}");

        let (mut modern, _task) = Duplex::serve(Server::new("apps", "1.0.0").tools(tools![renders]));
        let meta = modern_meta(json!({"io.modelcontextprotocol/clientCapabilities": capabilities}));
        let called = modern
            .request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "renders", "arguments": {}, "_meta": meta}}))
            .await;
        assert_eq!(called["result"]["content"][0]["text"], expected, "{called}");
    }
}

/// A chart that is only a resource.
#[resource(uri = "ui://sales/chart")]
fn chart() -> &'static str {
    "<!DOCTYPE html><title>Sales</title>"
}

/// The markdown of the sales.
#[resource(uri = "docs://sales")]
fn sales_doc() -> &'static str {
    "# Sales"
}

/// Charts the sales.
#[tool(app = "ui://sales/chart")]
fn chart_sales() -> &'static str {
    "sales: up"
}

/// A server whose tools link to views it does not serve, or to a resource that is no view,
/// does not start; every such link is named with the tool and the URI.
#[test]
fn a_link_to_a_view_the_server_does_not_serve_stops_it_naming_tool_and_uri() {
    let linked_to_doc = Tool::from_json(
        "doc",
        "Reads the sales doc.",
        json!({"type": "object"}),
        |_, _| async { "# Sales" },
    )
    .unwrap()
    .with_app("ui://sales/doc")
    .unwrap();
    let error = Server::new("sales", "1.0.0")
        .tools(tools![chart_sales])
        .tools([linked_to_doc])
        .resources(resources![chart, sales_doc])
        .test_client()
        .unwrap_err();
    let ClientError::Server(Error::Definitions(problems)) = error else {
        panic!("both links are named at once: {error}")
    };
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "tool `chart_sales` is linked to `ui://sales/chart`, which is a resource but not a view; mark it `#[resource(uri = \"ui://sales/chart\", app)]` (or `Resource::with_app`) so it is served as `text/html;profile=mcp-app`",
            "tool `doc` is linked to the view `ui://sales/doc`, which the server does not serve; add a resource `#[resource(uri = \"ui://sales/doc\", app)]` to `Server::resources`, or link the tool to a view it serves",
        ]
    );
    // Made a view at run time, the chart serves the link.
    let chart = resources![chart]
        .remove(0)
        .with_app(View::new().permission(Permission::ClipboardWrite))
        .unwrap();
    assert!(
        Server::new("sales", "1.0.0")
            .tools(tools![chart_sales])
            .resources([chart])
            .test_client()
            .is_ok()
    );
}

/// A view made at run time (`Resource::with_app`) is served as one of the macro's is, and a
/// server without a view declares no extension.
#[tokio::test]
async fn a_view_made_at_run_time_is_served_and_only_a_server_with_views_declares_apps() {
    let view = View::new()
        .connect_domains(["https://api.example.com"])
        .permission(Permission::Camera)
        .prefers_border(false);
    let chart = resources![chart].remove(0).with_app(view).unwrap();
    let client = Server::new("sales", "1.0.0")
        .resources([chart])
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    let read = client.read_resource("ui://sales/chart").await.unwrap();
    let content = &read.response()["result"]["contents"][0];
    assert_eq!(content["mimeType"], MIME);
    assert_eq!(
        content["_meta"]["ui"],
        json!({"csp": {"connectDomains": ["https://api.example.com"]}, "permissions": {"camera": {}}, "prefersBorder": false})
    );
    assert_eq!(
        client.server_info()["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        json!({"mimeTypes": [MIME]})
    );
    let plain = Server::new("plain", "1.0.0")
        .resources(resources![sales_doc])
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    assert_eq!(plain.server_info()["capabilities"].get("extensions"), None);
    // Not a `ui://` resource: refused, saying what a view's URI is.
    let error = resources![sales_doc].remove(0).with_app(View::new()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "resource `docs://sales`: `docs://sales`: a view's URI starts with `ui://`, such as `ui://notes/board`"
    );
}

/// The board of a shop, and its tools.
#[resource(uri = "ui://shop/cart", app)]
fn cart() -> &'static str {
    "<!DOCTYPE html><title>Cart</title>"
}

/// Adds an item to the shopping cart.
#[tool(app = cart, visibility = "app")]
fn cart_add_item(item: String) -> String {
    format!("added {item} to the cart")
}

/// Shows the shopping cart and its items.
#[tool(app = cart)]
fn show_cart() -> &'static str {
    "the cart is empty"
}

/// Tool search is the model's: it never offers a tool only the views call, and `call_tool`
/// does not call one; the view still calls it with `tools/call`.
#[tokio::test]
async fn search_leaves_the_tools_only_views_call_to_the_views() {
    let client = Server::new("shop", "1.0.0")
        .tools(tools![cart_add_item, show_cart])
        .resources(resources![cart])
        .tool_search(ToolSearch::bm25())
        .test_client()
        .unwrap();
    let found = client
        .call(
            "search_tools",
            json!({"query": "add an item to the shopping cart"}),
        )
        .await
        .unwrap();
    assert_eq!(support::found(&found), ["show_cart"]);
    let through_search = client
        .call(
            "call_tool",
            json!({"name": "cart_add_item", "arguments": {"item": "tea"}}),
        )
        .await
        .unwrap();
    assert!(through_search.is_error(), "{:?}", through_search.text());
    let direct = client
        .call("cart_add_item", json!({"item": "tea"}))
        .await
        .unwrap();
    assert_eq!(direct.text(), Some("added tea to the cart"));
    assert_eq!(
        tools![cart_add_item][0].app_visibility(),
        Some(&[Audience::App][..])
    );
}

/// Builds the report; a task.
#[tool(task)]
async fn report(cx: Context) -> String {
    // Long enough not to finish in place, so the call becomes a task.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    format!("apps: {}", cx.client_supports_apps())
}

/// A client that renders views declares it beside the tasks extension, in every request of
/// 2026-07-28: a task's tool reads both.
#[tokio::test]
async fn a_client_declares_apps_beside_tasks() {
    let client = Server::new("reports", "1.0.0")
        .tools(tools![renders, report])
        .test_client()
        .unwrap()
        .with_apps()
        .with_tasks();
    assert_eq!(
        client.call("renders", json!({})).await.unwrap().text(),
        Some("true")
    );
    let task = client.call("report", json!({})).await.unwrap();
    assert!(task.task_id().is_some(), "{:?}", task.response());
    assert_eq!(task.text(), Some("apps: true"));
}
