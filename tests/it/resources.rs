//! Resources and resource templates (`#[resource]`, `resources![...]`, `resources/list`,
//! `resources/templates/list`, `resources/read`) through the real engine in every
//! revision (and a resource fn's "not found" through the notes example over stdio and HTTP
//! in each): definitions, fixed URIs before templates, variables decoded from the URI and
//! parsed into the parameters, each return type, path traversal refused, a resource not
//! found; every answer checked against the official schema. Sizes and annotations in the
//! definitions of every revision; the cache hints of reads in 2026-07-28 (declared, the
//! default of reading again, and `private` for an authenticated caller over HTTP), also over
//! the notes example's real pipes. Subscriptions
//! (`resources/subscribe` up to 2025-11-25, `resourceSubscriptions` of
//! `subscriptions/listen` in 2026-07-28) over the conformance server's real pipes.

use crate::support;

use mcp_toolkit::content::{ResourceContents, Role};
use mcp_toolkit::protocol::{ErrorCode, ProtocolVersion};
use mcp_toolkit::resource::CacheScope;
use mcp_toolkit::testing::{ClientError, ListedResource, ListedResourceTemplate, TestClient};
use mcp_toolkit::{Json, Server, ToolError, auth::Principal, resource, resources};
use serde_json::{Value, json};
use std::time::Duration;
use support::{Peer, Spec, initialize, modern_meta};

/// The conformance server: `test://watched-resource` changes at each call of
/// `test_trigger_resource_update`.
const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// The notes example: `notes://all` is for the user, and changes at every tool call.
const NOTES: &str = env!("CARGO_BIN_EXE_notes");

const README: &str = "# Demo\n\nA demo server.";

/// The project's README.
#[resource(
    uri = "docs://readme",
    mime_type = "text/markdown",
    size = 22,
    annotations(audience = ["user", "assistant"], priority = 0.8, last_modified = "2025-01-12T15:00:58Z")
)]
async fn readme() -> String {
    README.to_owned()
}

/// The logo.
#[resource(uri = "docs://logo.png", mime_type = "image/png", cache(ttl_ms = 86_400_000))]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Profile {
    id: u64,
    name: String,
}

/// A user's profile.
#[resource(
    uri = "users://{user_id}/profile",
    mime_type = "application/json",
    annotations(audience = ["assistant"], priority = 0.5),
    cache(ttl_ms = 5_000, scope = "private")
)]
async fn profile(
    /// The user's id
    user_id: u64,
) -> Result<Json<Profile>, ToolError> {
    match user_id {
        7 => Ok(Json(Profile {
            id: 7,
            name: "Ada".into(),
        })),
        _ => Err(ToolError::new(format!("there is no user {user_id}"))),
    }
}

/// A note by its title.
#[resource(uri = "notes://{title}")]
fn note(title: String) -> String {
    format!("the note titled {title}")
}

/// The README again, under a fixed URI that a template would also match.
#[resource(uri = "notes://pinned")]
fn pinned() -> Vec<ResourceContents> {
    vec![ResourceContents::Text {
        uri: "notes://pinned".into(),
        mime_type: Some("text/plain".into()),
        text: "pinned".into(),
    }]
}

fn server() -> Server {
    Server::new("docs", "1.0.0").resources(resources![readme, logo, profile, note, pinned])
}

/// A client of every revision.
async fn clients() -> Vec<TestClient> {
    let mut clients = vec![server().test_client().unwrap()];
    for version in [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ] {
        clients.push(server().test_client_legacy(version).await.unwrap());
    }
    clients
}

fn valid(client: &TestClient, name: &str) {
    let spec = Spec::of(client.protocol_version().as_str());
    spec.assert_valid(name, &client.last_response().expect("an answer")["result"]);
}

#[tokio::test]
async fn fixed_resources_and_templates_are_listed_apart() {
    for client in clients().await {
        let resources = client.list_resources().await.unwrap();
        valid(&client, "ListResourcesResult");
        let uris: Vec<&str> = resources.iter().map(ListedResource::uri).collect();
        assert_eq!(uris, ["docs://readme", "docs://logo.png", "notes://pinned"]);
        // Titles are derived from the names, in the revisions that have them.
        let titled = client.protocol_version() >= ProtocolVersion::V2025_06_18;
        let with_title = |mut definition: Value, title: &str| {
            if titled {
                definition["title"] = json!(title);
            }
            definition
        };
        // `lastModified` came in 2025-06-18.
        let mut annotations = json!({ "audience": ["user", "assistant"], "priority": 0.8 });
        if titled {
            annotations["lastModified"] = json!("2025-01-12T15:00:58Z");
        }
        assert_eq!(
            resources[0].json(),
            &with_title(
                json!({
                    "uri": "docs://readme", "name": "readme", "description": "The project's README.",
                    "mimeType": "text/markdown", "size": 22, "annotations": annotations
                }),
                "Readme"
            )
        );
        let readme = &resources[0];
        assert_eq!(readme.size(), Some(README.len() as u64));
        assert_eq!(readme.title(), titled.then_some("Readme"));
        assert_eq!(
            (readme.name(), readme.mime_type()),
            ("readme", Some("text/markdown"))
        );
        let hints = readme.annotations().expect("the README's annotations");
        assert_eq!(hints.audience, Some(vec![Role::User, Role::Assistant]));
        assert_eq!(hints.priority, Some(0.8));
        assert_eq!(
            hints.last_modified.as_deref(),
            titled.then_some("2025-01-12T15:00:58Z")
        );
        let templates = client.list_resource_templates().await.unwrap();
        valid(&client, "ListResourceTemplatesResult");
        let uri_templates: Vec<&str> = templates
            .iter()
            .map(ListedResourceTemplate::uri_template)
            .collect();
        assert_eq!(uri_templates, ["users://{user_id}/profile", "notes://{title}"]);
        assert_eq!(templates[0].mime_type(), Some("application/json"));
        assert_eq!(
            templates[0].annotations().and_then(|a| a.audience.clone()),
            Some(vec![Role::Assistant])
        );
        assert_eq!(templates[1].description(), Some("A note by its title."));
        assert_eq!(
            templates
                .iter()
                .map(ListedResourceTemplate::json)
                .collect::<Vec<_>>(),
            [
                &with_title(
                    json!({
                        "uriTemplate": "users://{user_id}/profile", "name": "profile", "description": "A user's profile.",
                        "mimeType": "application/json", "annotations": { "audience": ["assistant"], "priority": 0.5 }
                    }),
                    "Profile"
                ),
                &with_title(
                    json!({ "uriTemplate": "notes://{title}", "name": "note", "description": "A note by its title." }),
                    "Note"
                ),
            ]
        );
    }
}

#[tokio::test]
async fn reads_give_each_kind_of_contents() {
    for client in clients().await {
        let readme = client.read_resource("docs://readme").await.unwrap();
        valid(&client, "ReadResourceResult");
        assert_eq!(
            readme.response()["result"]["contents"],
            json!([{ "uri": "docs://readme", "mimeType": "text/markdown", "text": "# Demo\n\nA demo server." }])
        );
        assert_eq!(
            readme.contents(),
            [ResourceContents::Text {
                uri: "docs://readme".into(),
                mime_type: Some("text/markdown".into()),
                text: README.into()
            }]
        );
        let logo = client.read_resource("docs://logo.png").await.unwrap();
        assert_eq!(
            logo.contents(),
            [ResourceContents::Blob {
                uri: "docs://logo.png".into(),
                mime_type: Some("image/png".into()),
                blob: "iVBORw==".into()
            }]
        );
        assert_eq!(logo.text(), None);
        let profile = client.read_resource("users://7/profile").await.unwrap();
        valid(&client, "ReadResourceResult");
        assert_eq!(
            profile.response()["result"]["contents"],
            json!([{ "uri": "users://7/profile", "mimeType": "application/json", "text": r#"{"id":7,"name":"Ada"}"# }])
        );
        assert_eq!(profile.text(), Some(r#"{"id":7,"name":"Ada"}"#));
        // Percent-escapes are decoded; a fixed URI wins over a template that matches it.
        let note = client.read_resource("notes://tide%20pools").await.unwrap();
        assert_eq!(note.text(), Some("the note titled tide pools"));
        let pinned = client.read_resource("notes://pinned").await.unwrap();
        assert_eq!(pinned.text(), Some("pinned"));
    }
}

/// In 2026-07-28 a read says how long it may be kept and who may share it: what the
/// resource declares, else `ttlMs: 0` (read again) and `public`. Earlier revisions have no
/// such hints.
#[tokio::test]
async fn reads_carry_the_cache_hints_their_resource_declares() {
    let modern = server().test_client().unwrap();
    for (uri, ttl_ms, scope) in [
        ("docs://readme", 0, CacheScope::Public),
        ("docs://logo.png", 86_400_000, CacheScope::Public),
        ("users://7/profile", 5_000, CacheScope::Private),
        ("notes://tide", 0, CacheScope::Public),
    ] {
        let read = modern.read_resource(uri).await.unwrap();
        valid(&modern, "ReadResourceResult");
        assert_eq!(
            (read.ttl_ms(), read.cache_scope()),
            (Some(ttl_ms), Some(scope)),
            "{uri}"
        );
        let result = &read.response()["result"];
        assert_eq!(
            (&result["resultType"], &result["ttlMs"], &result["cacheScope"]),
            (&json!("complete"), &json!(ttl_ms), &json!(scope.as_str())),
            "{uri}"
        );
    }
    for version in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_11_25] {
        let legacy = server().test_client_legacy(version).await.unwrap();
        let read = legacy.read_resource("docs://logo.png").await.unwrap();
        valid(&legacy, "ReadResourceResult");
        assert_eq!(
            (read.ttl_ms(), read.cache_scope(), read.meta()),
            (None, None, None)
        );
        let keys: Vec<&String> = read.response()["result"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["contents"], "{version:?}");
    }
}

/// The notes example over its real pipes: `notes://all` is annotated for the user in every
/// revision, and its reads, whose contents change with every tool call, say to read again.
#[test]
fn the_notes_resources_are_annotated_and_read_again_over_stdio() {
    let definition = json!({
        "uri": "notes://all",
        "name": "all_notes",
        "title": "All Notes",
        "description": "Every note as a Markdown list, oldest first, one line per note: what `export_notes` writes to `notes.md`.",
        "mimeType": "text/markdown",
        "annotations": { "audience": ["user"] }
    });
    let mut modern = Peer::spawn(NOTES);
    let list = modern.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "resources/list",
        "params": { "_meta": modern_meta(json!({})) }
    }));
    let spec = Spec::of("2026-07-28");
    spec.assert_valid("ListResourcesResult", &list["result"]);
    // The board (tests/it/apps.rs checks it), then the notes skill's files
    // (tests/it/skills.rs checks them).
    assert_eq!(list["result"]["resources"][0], definition);
    assert_eq!(list["result"]["resources"][1]["uri"], "ui://notes/board");
    assert_eq!(
        list["result"]["resources"][2]["uri"],
        "skill://notes-workflow/SKILL.md"
    );
    let read = modern.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": { "_meta": modern_meta(json!({})), "uri": "notes://all" }
    }));
    spec.assert_valid("ReadResourceResult", &read["result"]);
    let mut result = read["result"].clone();
    let meta = result
        .as_object_mut()
        .unwrap()
        .remove("_meta")
        .expect("the server's identity");
    assert_eq!(meta["io.modelcontextprotocol/serverInfo"]["name"], "notes");
    assert_eq!(
        result,
        json!({
            "resultType": "complete",
            "contents": [{ "uri": "notes://all", "mimeType": "text/markdown", "text": "# Notes\n\n" }],
            "ttlMs": 0,
            "cacheScope": "public"
        })
    );

    let mut legacy = Peer::spawn(NOTES);
    initialize(&mut legacy, "2024-11-05");
    let list = legacy.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "resources/list" }));
    let spec = Spec::of("2024-11-05");
    spec.assert_valid("ListResourcesResult", &list["result"]);
    let mut old = definition.clone();
    old.as_object_mut().unwrap().remove("title");
    assert_eq!(list["result"]["resources"][0], old);
    assert_eq!(list["result"]["resources"][1]["uri"], "ui://notes/board");
    assert_eq!(
        list["result"]["resources"][2]["uri"],
        "skill://notes-workflow/SKILL.md"
    );
    let read = legacy.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": { "uri": "notes://all" }
    }));
    spec.assert_valid("ReadResourceResult", &read["result"]);
    assert_eq!(
        read["result"],
        json!({ "contents": [{ "uri": "notes://all", "mimeType": "text/markdown", "text": "# Notes\n\n" }] })
    );
}

/// Over HTTP with a bearer token, what a caller reads may be its own: every read it makes
/// is `private`, whatever the resource declares, with the resource's own `ttlMs`.
#[tokio::test]
async fn an_authenticated_callers_reads_are_private() {
    let server = server()
        .bearer_auth(|token| async move { (token.as_str() == "ada-token").then(|| Principal::new("ada")) });
    let http = server.bind_http("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", http.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let spec = Spec::of("2026-07-28");
    for (uri, ttl_ms) in [
        ("docs://readme", 0),
        ("docs://logo.png", 86_400_000),
        ("users://7/profile", 5_000),
    ] {
        let response = client
            .post(&url)
            .bearer_auth("ada-token")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "resources/read")
            .header("mcp-name", uri)
            .json(&json!({
                "jsonrpc": "2.0", "id": 1, "method": "resources/read",
                "params": { "_meta": modern_meta(json!({})), "uri": uri }
            }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::OK, "{uri}");
        let answer: Value = response.json().await.unwrap();
        spec.assert_valid("ReadResourceResult", &answer["result"]);
        assert_eq!(answer["result"]["ttlMs"], ttl_ms, "{uri}: {answer}");
        assert_eq!(answer["result"]["cacheScope"], "private", "{uri}: {answer}");
    }
    let _ = stop.send(());
}

async fn refused(client: &TestClient, uri: &str) -> (i64, String, Option<Value>) {
    match client.read_resource(uri).await.unwrap_err() {
        ClientError::Rpc { code, message, data } => (code.get(), message, data),
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn bad_variables_unknown_uris_and_traversal_are_errors() {
    let modern = server().test_client().unwrap();
    assert_eq!(
        refused(&modern, "users://seven/profile").await,
        (
            -32602,
            "argument `user_id`: expected an integer of at least 0, received the string \"seven\"".into(),
            None
        )
    );
    assert_eq!(
        refused(&modern, "users://8/profile").await,
        (-32603, "there is no user 8".into(), None)
    );
    for uri in [
        "users://../profile",
        "users://a%2Fb/profile",
        "users://a/b/profile",
        "nothing://here",
    ] {
        assert_eq!(
            refused(&modern, uri).await,
            (
                -32602,
                format!("Resource not found: {uri}"),
                Some(json!({ "uri": uri }))
            ),
            "{uri}"
        );
    }
    let legacy = server()
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    assert_eq!(
        refused(&legacy, "nothing://here").await,
        (
            -32002,
            "Resource not found".into(),
            Some(json!({ "uri": "nothing://here" }))
        )
    );
    // A server given no resources does not serve them.
    let plain = Server::new("plain", "1.0.0").test_client().unwrap();
    assert!(matches!(
        plain.list_resources().await,
        Err(ClientError::Rpc {
            code: ErrorCode::METHOD_NOT_FOUND,
            ..
        })
    ));
}

/// Calls `test_trigger_resource_update` (legacy era) and returns what the server wrote
/// before its answer, and the answer.
fn trigger_update(peer: &mut Peer, id: u64) -> Vec<Value> {
    peer.send(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "test_trigger_resource_update", "arguments": {} }
    }));
    let mut before = Vec::new();
    loop {
        let message = peer.recv();
        if message["id"] == json!(id) {
            assert_eq!(message["result"]["content"][0]["text"], "Resource updated");
            return before;
        }
        before.push(message);
    }
}

#[test]
fn legacy_sessions_hear_the_updates_of_what_they_subscribed_to_until_they_unsubscribe() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let init = initialize(&mut peer, "2025-11-25");
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({ "listChanged": true, "subscribe": true })
    );
    // Not subscribed: an update is not announced.
    assert_eq!(trigger_update(&mut peer, 1), Vec::<Value>::new());
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);

    let subscribed = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
        "params": { "uri": "test://watched-resource" }
    }));
    assert_eq!(subscribed, json!({ "jsonrpc": "2.0", "id": 2, "result": {} }));
    Spec::of("2025-11-25").assert_valid("EmptyResult", &subscribed["result"]);
    // Subscribing twice is one subscription: one notification per update.
    peer.request(json!({
        "jsonrpc": "2.0", "id": 3, "method": "resources/subscribe",
        "params": { "uri": "test://watched-resource" }
    }));
    let mut heard = trigger_update(&mut peer, 4);
    // The notification goes out on the session's own stream; it may follow the answer.
    if heard.is_empty() {
        heard.push(peer.recv());
    }
    let updated = json!({
        "jsonrpc": "2.0", "method": "notifications/resources/updated",
        "params": { "uri": "test://watched-resource" }
    });
    assert_eq!(heard, vec![updated.clone()]);
    Spec::of("2025-11-25").assert_valid("ResourceUpdatedNotification", &updated);
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);
    let read = peer.request(json!({
        "jsonrpc": "2.0", "id": 5, "method": "resources/read",
        "params": { "uri": "test://watched-resource" }
    }));
    assert!(
        read["result"]["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Watched resource content, version ")
    );

    let unsubscribed = peer.request(json!({
        "jsonrpc": "2.0", "id": 6, "method": "resources/unsubscribe",
        "params": { "uri": "test://watched-resource" }
    }));
    assert_eq!(unsubscribed, json!({ "jsonrpc": "2.0", "id": 6, "result": {} }));
    assert_eq!(trigger_update(&mut peer, 7), Vec::<Value>::new());
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);
    // Unsubscribing from what is not subscribed is no error.
    let again = peer.request(json!({
        "jsonrpc": "2.0", "id": 8, "method": "resources/unsubscribe",
        "params": { "uri": "test://watched-resource" }
    }));
    assert_eq!(again["result"], json!({}));
}

#[test]
fn subscribing_to_what_no_resource_is_or_without_a_uri_is_refused() {
    let mut peer = Peer::spawn(CONFORMANCE);
    initialize(&mut peer, "2025-06-18");
    let unknown = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
        "params": { "uri": "test://no-such-resource" }
    }));
    assert_eq!(
        unknown["error"],
        json!({ "code": -32002, "message": "Resource not found", "data": { "uri": "test://no-such-resource" } })
    );
    // A URI a template matches names a resource.
    let templated = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
        "params": { "uri": "test://template/42/data" }
    }));
    assert_eq!(templated["result"], json!({}));
    let missing = peer.request(json!({
        "jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": {}
    }));
    assert_eq!(missing["error"]["code"], -32602);
    assert_eq!(missing["error"]["message"], "invalid params: missing field `uri`");
    // The server goes on serving.
    let ping = peer.request(json!({ "jsonrpc": "2.0", "id": 4, "method": "ping" }));
    assert_eq!(ping["result"], json!({}));
}

#[test]
fn modern_listen_streams_carry_the_updates_of_the_uris_they_name() {
    let mut peer = Peer::spawn(CONFORMANCE);
    peer.send(json!({
        "jsonrpc": "2.0", "id": "watch", "method": "subscriptions/listen",
        "params": {
            "_meta": modern_meta(json!({})),
            "notifications": {
                "resourceSubscriptions": ["test://watched-resource", "test://no-such-resource"]
            }
        }
    }));
    let acknowledged = peer.recv();
    assert_eq!(
        acknowledged,
        json!({
            "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {
                "_meta": { "io.modelcontextprotocol/subscriptionId": "watch" },
                // What names no resource is left out.
                "notifications": { "resourceSubscriptions": ["test://watched-resource"] }
            }
        })
    );
    let spec = Spec::of("2026-07-28");
    spec.assert_valid("SubscriptionsAcknowledgedNotification", &acknowledged);
    // A second stream that watches nothing hears nothing of it.
    peer.send(json!({
        "jsonrpc": "2.0", "id": "tools", "method": "subscriptions/listen",
        "params": { "_meta": modern_meta(json!({})), "notifications": { "toolsListChanged": true } }
    }));
    assert_eq!(
        peer.recv()["params"]["notifications"],
        json!({ "toolsListChanged": true })
    );

    peer.send(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "test_trigger_resource_update", "arguments": {} }
    }));
    let mut messages = [peer.recv(), peer.recv()];
    messages.sort_by_key(|m| m.get("id").is_some());
    let updated = json!({
        "jsonrpc": "2.0", "method": "notifications/resources/updated",
        "params": {
            "_meta": { "io.modelcontextprotocol/subscriptionId": "watch" },
            "uri": "test://watched-resource"
        }
    });
    assert_eq!(messages[0], updated);
    spec.assert_valid("ResourceUpdatedNotification", &updated);
    assert_eq!(messages[1]["id"], 1);
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);

    // Cancelled, the stream ends unanswered, and updates are no longer sent.
    peer.send(json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": "watch" }
    }));
    peer.send(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "test_trigger_resource_update", "arguments": {} }
    }));
    assert_eq!(peer.recv()["id"], 2);
    assert_eq!(peer.silent_for(Duration::from_millis(100)), None);
    // `resources/subscribe` is not a method of 2026-07-28.
    let old = peer.request(json!({
        "jsonrpc": "2.0", "id": 3, "method": "resources/subscribe",
        "params": { "_meta": modern_meta(json!({})), "uri": "test://watched-resource" }
    }));
    assert_eq!(old["error"]["code"], -32601);
}

#[test]
fn a_stream_may_not_watch_more_than_the_limit() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let uris: Vec<String> = (0..1025).map(|i| format!("test://template/{i}/data")).collect();
    let refused = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": { "_meta": modern_meta(json!({})), "notifications": { "resourceSubscriptions": uris } }
    }));
    assert_eq!(refused["error"]["code"], -32602);
    assert_eq!(
        refused["error"]["message"],
        "`resourceSubscriptions` names 1025 URIs; a stream may watch at most 1024"
    );
    // Legacy sessions: the same limit, one subscription at a time.
    let mut legacy = Peer::spawn(CONFORMANCE);
    initialize(&mut legacy, "2025-11-25");
    for (i, uri) in uris.iter().enumerate() {
        legacy.send(json!({
            "jsonrpc": "2.0", "id": i, "method": "resources/subscribe", "params": { "uri": uri }
        }));
    }
    let answers: Vec<Value> = (0..uris.len()).map(|_| legacy.recv()).collect();
    assert!(answers[..1024].iter().all(|a| a["result"] == json!({})));
    assert_eq!(
        answers[1024]["error"]["message"],
        "this session watches 1024 resources, the most it may; unsubscribe from one first"
    );
}

/// What a client of the notes example sends and reads in one revision, over stdio or HTTP.
trait Revision {
    /// Sends a request with params (to which a 2026-07-28 request adds its `_meta`) and
    /// returns its response.
    fn request(&mut self, method: &str, params: Value) -> Value;
}

/// The notes example over its pipes, initialized (up to 2025-11-25) in `revision`.
struct NotesStdio {
    peer: Peer,
    revision: &'static str,
    next_id: u64,
}

impl NotesStdio {
    fn start(revision: &'static str) -> NotesStdio {
        let mut peer = Peer::spawn(NOTES);
        if revision != "2026-07-28" {
            initialize(&mut peer, revision);
        }
        NotesStdio {
            peer,
            revision,
            next_id: 1,
        }
    }
}

impl Revision for NotesStdio {
    fn request(&mut self, method: &str, mut params: Value) -> Value {
        if self.revision == "2026-07-28" {
            params["_meta"] = modern_meta(json!({}));
        }
        self.next_id += 1;
        self.peer
            .request(json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params }))
    }
}

/// The notes example serving Streamable HTTP, in a session of `revision` (none in
/// 2026-07-28).
struct NotesHttp {
    server: support::HttpProcess,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    revision: &'static str,
    session: Option<String>,
    next_id: u64,
}

impl NotesHttp {
    fn start(revision: &'static str) -> NotesHttp {
        let mut http = NotesHttp {
            server: support::HttpProcess::spawn(NOTES),
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            revision,
            session: None,
            next_id: 1,
        };
        if revision != "2026-07-28" {
            let (init, session) = http.post(&json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": { "protocolVersion": revision, "capabilities": {}, "clientInfo": { "name": "tests", "version": "1.0.0" } }
            }));
            assert_eq!(init["result"]["protocolVersion"], revision, "{init}");
            http.session = session;
            http.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        }
        http
    }

    /// POSTs `message`; returns the response to it (`null` for a notification) and the
    /// session id the server gave.
    fn post(&self, message: &Value) -> (Value, Option<String>) {
        let mut request = self
            .client
            .post(&self.server.url)
            .header("accept", "application/json, text/event-stream")
            .json(message);
        if message["method"] != "initialize" {
            request = request.header("mcp-protocol-version", self.revision);
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        if self.revision == "2026-07-28" {
            let params = &message["params"];
            request = request.header("mcp-method", message["method"].as_str().unwrap());
            if let Some(name) = params["name"].as_str().or(params["uri"].as_str()) {
                request = request.header("mcp-name", name);
            }
        }
        self.runtime.block_on(async {
            let response = tokio::time::timeout(support::PATIENCE, request.send())
                .await
                .expect("an answer in time")
                .unwrap();
            let session = response
                .headers()
                .get("mcp-session-id")
                .map(|id| id.to_str().unwrap().to_owned());
            let text = response.text().await.unwrap();
            // One JSON body, or the events of a stream that ends with the response.
            let response = match serde_json::from_str(&text) {
                Ok(json) => json,
                Err(_) => text
                    .lines()
                    .filter_map(|line| line.strip_prefix("data: "))
                    .filter_map(|data| serde_json::from_str::<Value>(data).ok())
                    .find(|message| message.get("id").is_some())
                    .unwrap_or(Value::Null),
            };
            (response, session)
        })
    }
}

impl Revision for NotesHttp {
    fn request(&mut self, method: &str, mut params: Value) -> Value {
        if self.revision == "2026-07-28" {
            params["_meta"] = modern_meta(json!({}));
        }
        self.next_id += 1;
        self.post(&json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params }))
            .0
    }
}

#[test]
fn a_note_that_is_not_there_is_not_found_in_every_revision_over_stdio_and_http() {
    let revisions = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ];
    for revision in revisions {
        let spec = Spec::of(revision);
        let error_type = if spec.defines("JSONRPCErrorResponse") {
            "JSONRPCErrorResponse"
        } else {
            "JSONRPCError"
        };
        let wires: [(&str, Box<dyn Revision>); 2] = [
            ("stdio", Box::new(NotesStdio::start(revision))),
            ("HTTP", Box::new(NotesHttp::start(revision))),
        ];
        for (transport, mut wire) in wires {
            let label = format!("{revision} over {transport}");
            let modern = revision == "2026-07-28";
            // `resources/read`: the revision's resource-not-found error, with the fn's
            // message and the URI.
            let read = wire.request("resources/read", json!({ "uri": "notes://999" }));
            spec.assert_valid(error_type, &read);
            assert_eq!(
                read["error"],
                json!({
                    "code": if modern { -32602 } else { -32002 },
                    "message": "there is no note 999",
                    "data": { "uri": "notes://999" }
                }),
                "{label}"
            );
            // A subscription to it is refused the same way (2026-07-28: left out of a listen).
            if !modern {
                let subscribed = wire.request("resources/subscribe", json!({ "uri": "notes://999" }));
                spec.assert_valid(error_type, &subscribed);
                assert_eq!(subscribed["error"], read["error"], "{label}");
            }
            // `prompts/get` of a note that is not there: invalid params, not a failure.
            let prompt = wire.request(
                "prompts/get",
                json!({ "name": "review_note", "arguments": { "id": "999" } }),
            );
            spec.assert_valid(error_type, &prompt);
            assert_eq!(
                prompt["error"],
                json!({ "code": -32602, "message": "there is no note 999" }),
                "{label}"
            );
            // The server serves on.
            let all = wire.request("resources/read", json!({ "uri": "notes://all" }));
            assert_eq!(all["result"]["contents"][0]["text"], "# Notes\n\n", "{label}");
        }
    }
}

/// A user's settings, from a store that takes its time: the read waits before it answers.
#[resource(uri = "users://{user_id}/settings")]
async fn settings(
    /// The user's id
    user_id: u64,
) -> Result<String, ToolError> {
    tokio::task::yield_now().await;
    match user_id {
        7 => Ok("dark".into()),
        _ => Err(ToolError::not_found(format!("user {user_id} has no settings"))),
    }
}

#[tokio::test]
async fn a_read_that_waits_refuses_a_subscription_to_what_it_does_not_find() {
    let server = || Server::new("users", "1.0.0").resources(resources![settings]);
    let legacy = server()
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    let spec = Spec::of("2025-11-25");
    match legacy
        .request("resources/subscribe", json!({ "uri": "users://8/settings" }))
        .await
    {
        Err(ClientError::Rpc { code, message, data }) => assert_eq!(
            (code.get(), message.as_str(), data),
            (
                -32002,
                "user 8 has no settings",
                Some(json!({ "uri": "users://8/settings" }))
            )
        ),
        other => panic!("expected not found, got {other:?}"),
    }
    spec.assert_valid("JSONRPCErrorResponse", &legacy.last_response().unwrap());
    let subscribed = legacy
        .request("resources/subscribe", json!({ "uri": "users://7/settings" }))
        .await
        .unwrap();
    assert_eq!(subscribed, json!({}));
    let modern = server().test_client().unwrap();
    assert_eq!(
        refused(&modern, "users://8/settings").await,
        (
            -32602,
            "user 8 has no settings".into(),
            Some(json!({ "uri": "users://8/settings" }))
        )
    );
}
