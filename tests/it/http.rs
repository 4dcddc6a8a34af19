//! Streamable HTTP over real sockets on 127.0.0.1, in both eras: headers, sessions,
//! Host/Origin, body size, Accept, auth, SSE, list changes, scaling across instances and
//! graceful shutdown. Every JSON-RPC message is checked against the official schema.

use crate::support;

use mcp_toolkit::server::{HttpSettings, Limits};
use mcp_toolkit::{
    Context, Json, Server, auth::Principal, registry::ToolRegistry, server::RateLimit, tool, tools,
};
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use support::tools::{ask_roots, echo, sleep};
use support::{Spec, modern_meta};

const MODERN: &str = "2026-07-28";

/// Reports progress in steps.
#[tool]
async fn progress(
    /// How many steps
    steps: u32,
    cx: Context,
) -> String {
    for step in 1..=steps {
        cx.report_progress(f64::from(step), Some(f64::from(steps)), None);
        tokio::task::yield_now().await;
    }
    "done".to_owned()
}

/// Says who is calling.
#[tool]
fn whoami(cx: Context) -> String {
    cx.principal().map_or("nobody".to_owned(), |p| p.subject.clone())
}

/// An administrator's tool.
#[tool(name = "admin.reset")]
fn admin_reset() -> &'static str {
    "reset"
}

/// Disables a tool.
#[tool]
fn disable(
    /// The tool
    name: String,
    registry: ToolRegistry,
) -> bool {
    registry.set_enabled(&name, false)
}

/// What `words` counts.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct WordCount {
    /// Words: runs of non-whitespace characters.
    words: usize,
}

/// Counts the words of a text (structured output from 2025-06-18 on).
#[tool]
fn words(
    /// Any text
    text: String,
) -> Json<WordCount> {
    Json(WordCount {
        words: text.split_whitespace().count(),
    })
}

fn server() -> Server {
    Server::new("web", "2.0.0").tools(tools![echo, sleep, progress, whoami, admin_reset, disable])
}

/// A running server and a client for it.
struct Endpoint {
    url: String,
    client: reqwest::Client,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<Result<(), mcp_toolkit::Error>>,
}

impl Endpoint {
    async fn start(server: Server) -> Endpoint {
        let http = server.bind_http("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = http.local_addr();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(http.run_until(async move {
            let _ = stopped.await;
        }));
        Endpoint {
            url: format!("http://{addr}/mcp"),
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            stop: Some(stop),
            done,
        }
    }

    async fn stop(mut self) -> Result<(), mcp_toolkit::Error> {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(support::PATIENCE, &mut self.done)
            .await
            .expect("shut down in time")
            .unwrap()
    }

    fn post(&self) -> reqwest::RequestBuilder {
        self.post_from(&self.client)
    }

    /// A POST sent by another client (from another address, say).
    fn post_from(&self, client: &reqwest::Client) -> reqwest::RequestBuilder {
        client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
    }

    /// A 2026-07-28 request with the headers that must match its body.
    fn modern(&self, id: Value, method: &str, params: Value) -> reqwest::RequestBuilder {
        self.modern_from(&self.client, id, method, params)
    }

    fn modern_from(
        &self,
        client: &reqwest::Client,
        id: Value,
        method: &str,
        mut params: Value,
    ) -> reqwest::RequestBuilder {
        params["_meta"] = modern_meta(params.get("_meta").cloned().unwrap_or(json!({})));
        let mut request = self
            .post_from(client)
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", method);
        if let Some(name) = params.get("name").and_then(Value::as_str) {
            request = request.header("mcp-name", name);
        }
        request.json(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
    }

    /// `initialize` for a legacy revision; returns the session id.
    async fn initialize(&self, revision: &str) -> String {
        self.initialize_from(&self.client, revision).await
    }

    async fn initialize_from(&self, client: &reqwest::Client, revision: &str) -> String {
        let response = self
            .post_from(client)
            .json(&json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": { "protocolVersion": revision, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
            }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let body: Value = response.json().await.unwrap();
        Spec::of(revision).assert_valid("InitializeResult", &body["result"]);
        let initialized = self
            .legacy_from(client, &session, revision)
            .json(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .send()
            .await
            .unwrap();
        assert_eq!(initialized.status(), StatusCode::ACCEPTED);
        session
    }

    /// Opens a legacy session's GET stream; returns it once the server has accepted it.
    async fn listen(&self, session: &str, revision: &str) -> reqwest::Response {
        let stream = self
            .client
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", revision)
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), StatusCode::OK);
        stream
    }

    fn legacy(&self, session: &str, revision: &str) -> reqwest::RequestBuilder {
        self.legacy_from(&self.client, session, revision)
    }

    fn legacy_from(
        &self,
        client: &reqwest::Client,
        session: &str,
        revision: &str,
    ) -> reqwest::RequestBuilder {
        self.post_from(client)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", revision)
    }
}

/// POSTs a chunked body of `bytes` bytes over a raw socket; returns the response's head and
/// body as text.
async fn chunked_post(url: &str, bytes: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let authority = url.trim_start_matches("http://").split('/').next().unwrap();
    let mut socket = tokio::net::TcpStream::connect(authority).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n{bytes:x}\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    // The server may answer and close before it has all of it.
    let _ = socket.write_all(&vec![b' '; bytes]).await;
    let _ = socket.write_all(b"\r\n0\r\n\r\n").await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(support::PATIENCE, socket.read_to_end(&mut response)).await;
    String::from_utf8_lossy(&response).into_owned()
}

async fn json_of(response: reqwest::Response) -> (StatusCode, HeaderMap, Value) {
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, headers, value)
}

/// The `data:` payloads of an SSE body, read until the stream ends or `count` arrive.
async fn events(response: reqwest::Response, count: usize) -> Vec<Value> {
    let mut events = Events::of(response);
    let mut found = Vec::new();
    while found.len() < count {
        match events.next().await {
            Some(event) => found.push(event),
            None => break,
        }
    }
    found
}

/// An SSE body read one event at a time, as they arrive.
struct Events {
    response: reqwest::Response,
    buffer: String,
    ready: std::collections::VecDeque<Value>,
}

impl Events {
    fn of(response: reqwest::Response) -> Events {
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events {
            response,
            buffer: String::new(),
            ready: Default::default(),
        }
    }

    /// The next event's `data:` payload; `None` when the stream ends.
    async fn next(&mut self) -> Option<Value> {
        while self.ready.is_empty() {
            let chunk = tokio::time::timeout(support::PATIENCE, self.response.chunk())
                .await
                .expect("an event in time")
                .unwrap()?;
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            while let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                for line in event.lines() {
                    if let Some(data) = line.strip_prefix("data: ") {
                        self.ready.push_back(serde_json::from_str(data).unwrap());
                    }
                }
            }
        }
        self.ready.pop_front()
    }
}

#[tokio::test]
async fn modern_requests_stand_alone() {
    let endpoint = Endpoint::start(server()).await;
    let spec = Spec::of(MODERN);
    let (status, headers, discover) = json_of(
        endpoint
            .modern(json!(1), "server/discover", json!({}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/json");
    assert!(
        headers.get("mcp-session-id").is_none(),
        "no sessions in 2026-07-28"
    );
    spec.assert_valid("DiscoverResultResponse", &discover);

    let (_, _, list) = json_of(
        endpoint
            .modern(json!(2), "tools/list", json!({}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    spec.assert_valid("ListToolsResultResponse", &list);
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 6);
    assert_eq!(list["result"]["cacheScope"], "public");

    let (status, _, call) = json_of(
        endpoint
            .modern(
                json!("c"),
                "tools/call",
                json!({ "name": "echo", "arguments": { "text": "hi" } }),
            )
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    spec.assert_valid("CallToolResultResponse", &call);
    assert_eq!(
        call,
        json!({
            "jsonrpc": "2.0", "id": "c",
            "result": { "resultType": "complete", "content": [{ "type": "text", "text": "hi" }], "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "web", "version": "2.0.0" } } }
        })
    );
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn modern_headers_must_match_the_body() {
    let endpoint = Endpoint::start(server()).await;
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "echo", "arguments": { "text": "x" } }
    });
    let cases = [
        (
            vec![("mcp-method", "tools/call"), ("mcp-name", "echo")],
            "Header mismatch: the MCP-Protocol-Version header is required and must be '2026-07-28'",
        ),
        (
            vec![
                ("mcp-protocol-version", "2025-11-25"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'",
        ),
        (
            vec![("mcp-protocol-version", MODERN), ("mcp-name", "echo")],
            "Header mismatch: the Mcp-Method header is required and must be 'tools/call'",
        ),
        (
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/list"),
                ("mcp-name", "echo"),
            ],
            "Header mismatch: Mcp-Method header value 'tools/list' does not match body value 'tools/call'",
        ),
        (
            vec![("mcp-protocol-version", MODERN), ("mcp-method", "tools/call")],
            "Header mismatch: the Mcp-Name header is required and must be 'echo'",
        ),
        (
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
                ("mcp-name", "foo"),
            ],
            "Header mismatch: Mcp-Name header value 'foo' does not match body value 'echo'",
        ),
    ];
    for (headers, message) in cases {
        let mut request = endpoint.post().json(&body);
        for (name, value) in &headers {
            request = request.header(*name, *value);
        }
        let (status, _, error) = json_of(request.send().await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{headers:?}");
        Spec::of(MODERN).assert_valid("HeaderMismatchError", &error);
        assert_eq!(
            error,
            json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32020, "message": message } })
        );
    }

    // An unsupported revision: 400 with the modern error, so clients can tell the era.
    let unsupported = endpoint
        .post()
        .header("mcp-protocol-version", "1900-01-01")
        .header("mcp-method", "tools/list")
        .json(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "_meta": { "io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } }));
    let (status, _, error) = json_of(unsupported.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    Spec::of(MODERN).assert_valid("UnsupportedProtocolVersionError", &error);
    assert_eq!(error["error"]["data"]["requested"], "1900-01-01");

    // Missing client capabilities: 400 with -32602.
    let mut meta = modern_meta(json!({}));
    meta.as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let missing = endpoint
        .post()
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/list")
        .json(&json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": { "_meta": meta } }));
    let (status, _, error) = json_of(missing.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"]["code"], -32602);

    // An unknown method: 404, and the body says it is JSON-RPC's "method not found".
    let (status, _, error) = json_of(
        endpoint
            .modern(json!(4), "prompts/list", json!({}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["error"]["code"], -32601);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn legacy_sessions() {
    let endpoint = Endpoint::start(server()).await;
    let revision = "2025-11-25";
    let session = endpoint.initialize(revision).await;
    assert_eq!(session.len(), 32);
    assert!(session.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(
        session,
        endpoint.initialize(revision).await,
        "every session gets its own id"
    );

    let (status, _, list) = json_of(
        endpoint
            .legacy(&session, revision)
            .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    Spec::of(revision).assert_valid("JSONRPCResultResponse", &list);
    Spec::of(revision).assert_valid("ListToolsResult", &list["result"]);

    // Missing session: 400. Unknown session: 404. No version header: what 2025-03-26
    // clients send, accepted and answered as the session's revision.
    let (status, _, _) = json_of(
        endpoint
            .post()
            .json(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, _) = json_of(
        endpoint
            .legacy("0000", revision)
            .json(&json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, unversioned) = json_of(
        endpoint
            .post()
            .header("mcp-session-id", &session)
            .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(unversioned, list);

    // Several POST streams of one session at once.
    let slow = endpoint
        .legacy(&session, revision)
        .json(&json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": { "name": "sleep", "arguments": { "ms": 300 } } }))
        .send();
    let fast = endpoint
        .legacy(&session, revision)
        .json(&json!({ "jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "quick" } } }))
        .send();
    let (slow, fast) = tokio::join!(slow, fast);
    assert_eq!(
        json_of(fast.unwrap()).await.2["result"]["content"][0]["text"],
        "quick"
    );
    assert_eq!(
        json_of(slow.unwrap()).await.2["result"]["content"][0]["text"],
        "slept 300 ms"
    );

    // DELETE ends the session.
    let deleted = endpoint
        .client
        .delete(&endpoint.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let (status, _, _) = json_of(
        endpoint
            .legacy(&session, revision)
            .json(&json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/list" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    endpoint.stop().await.unwrap();
}

/// A session's requests may name any revision of the `initialize` era in
/// `MCP-Protocol-Version` (or none: 2025-03-26); the revision negotiated by `initialize`
/// still shapes every answer. An invalid or unsupported one is refused with 400, on POST,
/// GET and DELETE alike, in every legacy revision.
#[tokio::test]
async fn a_session_accepts_any_revision_of_its_era_in_the_header() {
    let endpoint = Endpoint::start(Server::new("web", "2.0.0").tools(tools![words])).await;
    let call = |id: u32| json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "words", "arguments": { "text": "two words" } } });
    let send = |session: &str, header: Option<&str>, body: Value| {
        let mut request = endpoint.post().header("mcp-session-id", session);
        if let Some(header) = header {
            request = request.header("mcp-protocol-version", header);
        }
        request.json(&body).send()
    };
    let accepted = [
        None,
        Some("2024-11-05"),
        Some("2025-03-26"),
        Some("2025-06-18"),
        Some("2025-11-25"),
    ];

    // A 2025-11-25 session: structured output, whatever revision the header names (the
    // conformance suite 0.1.16 sends 2025-03-26 in `server-sse-multiple-streams`).
    let newer = endpoint.initialize("2025-11-25").await;
    for (id, header) in (1..).zip(accepted) {
        let (status, headers, answer) = json_of(send(&newer, header, call(id)).await.unwrap()).await;
        assert_eq!(
            (status, &headers["content-type"]),
            (StatusCode::OK, &"application/json".parse().unwrap()),
            "{header:?}"
        );
        Spec::of("2025-11-25").assert_valid("JSONRPCResultResponse", &answer);
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": id, "result": {
                "content": [{ "type": "text", "text": "{\"words\":2}" }],
                "structuredContent": { "words": 2 }
            } }),
            "{header:?}"
        );
    }

    // A 2025-03-26 session: text only, even when the header names a revision that has
    // structured output.
    let older = endpoint.initialize("2025-03-26").await;
    for (id, header) in (1..).zip(accepted) {
        let (status, _, answer) = json_of(send(&older, header, call(id)).await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{header:?}");
        Spec::of("2025-03-26").assert_valid("JSONRPCResponse", &answer);
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": id, "result": {
                "content": [{ "type": "text", "text": "{\"words\":2}" }]
            } }),
            "{header:?}"
        );
    }

    // Invalid or unsupported: 400 with a JSON-RPC error, in either session. 2026-07-28 is
    // supported, but has no sessions: its requests name their revision in `_meta`.
    let accepts = "a session accepts 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25";
    let refused = |sent: &str, why: &str, id: Value| {
        json!({ "jsonrpc": "2.0", "id": id, "error": {
            "code": -32600,
            "message": format!("the MCP-Protocol-Version header says {sent}, {why}; {accepts}")
        } })
    };
    let unsupported = "a revision this server does not support";
    let sessionless = "a revision without sessions, whose requests name it in `_meta`";
    for session in [&newer, &older] {
        for (sent, why) in [
            ("1900-01-01", unsupported),
            ("2025-11-26", unsupported),
            ("latest", unsupported),
            (MODERN, sessionless),
        ] {
            let (status, headers, error) = json_of(send(session, Some(sent), call(7)).await.unwrap()).await;
            assert_eq!(
                (status, &headers["content-type"]),
                (StatusCode::BAD_REQUEST, &"application/json".parse().unwrap()),
                "{sent}"
            );
            Spec::of("2025-11-25").assert_valid("JSONRPCErrorResponse", &error);
            assert_eq!(error, refused(sent, why, json!(7)));
        }
    }
    // A notification too (no id to answer).
    let (status, _, error) = json_of(
        send(&newer, Some("1900-01-01"), json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progressToken": 1, "progress": 1 } }))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error, refused("1900-01-01", unsupported, Value::Null));

    // GET: the same rule; an older revision opens the stream.
    let get = |header: &str| {
        endpoint
            .client
            .get(&endpoint.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &newer)
            .header("mcp-protocol-version", header)
            .send()
    };
    let (status, _, error) = json_of(get("1900-01-01").await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error, refused("1900-01-01", unsupported, Value::Null));
    let stream = get("2025-03-26").await.unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    drop(stream);

    // DELETE: an unsupported revision leaves the session open; a supported one ends it.
    let delete = |header: &str| {
        endpoint
            .client
            .delete(&endpoint.url)
            .header("mcp-session-id", &newer)
            .header("mcp-protocol-version", header)
            .send()
    };
    let (status, _, error) = json_of(delete("1900-01-01").await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error, refused("1900-01-01", unsupported, Value::Null));
    let (status, _, _) = json_of(send(&newer, Some("2025-11-25"), call(8)).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "the session is still open");
    let deleted = delete("2025-06-18").await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(deleted.text().await.unwrap(), "");
    let (status, _, _) = json_of(send(&newer, Some("2025-11-25"), call(9)).await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn legacy_list_changes_arrive_on_the_get_stream() {
    let mut server = server();
    let registry = server.tool_registry();
    let endpoint = Endpoint::start(server).await;
    let revision = "2025-06-18";
    let session = endpoint.initialize(revision).await;
    let stream = endpoint.listen(&session, revision).await;
    // The GET stream is registered once its response head is sent; change the tools now.
    assert!(registry.set_enabled("echo", false));
    let received = events(stream, 1).await;
    Spec::of(revision).assert_valid("ToolListChangedNotification", &received[0]);
    assert_eq!(
        received[0],
        json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} })
    );

    // GET without a session is not part of 2026-07-28.
    let get = endpoint
        .client
        .get(&endpoint.url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn modern_list_changes_arrive_on_a_subscription_stream() {
    let endpoint = Endpoint::start(server()).await;
    let spec = Spec::of(MODERN);
    let listen = endpoint
        .modern(
            json!("listen-1"),
            "subscriptions/listen",
            json!({ "notifications": { "toolsListChanged": true } }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(listen.status(), StatusCode::OK);
    let mut listen = listen;
    // Read the acknowledgement, then cause a change with another request.
    let mut buffer = String::new();
    while !buffer.contains("\n\n") {
        buffer.push_str(std::str::from_utf8(&listen.chunk().await.unwrap().unwrap()).unwrap());
    }
    let ack: Value =
        serde_json::from_str(buffer.lines().find_map(|l| l.strip_prefix("data: ")).unwrap()).unwrap();
    spec.assert_valid("SubscriptionsAcknowledgedNotification", &ack);
    let (_, _, disabled) = json_of(
        endpoint
            .modern(
                json!(2),
                "tools/call",
                json!({ "name": "disable", "arguments": { "name": "echo" } }),
            )
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(disabled["result"]["content"][0]["text"], "true");
    let changed = events(listen, 1).await;
    spec.assert_valid("ToolListChangedNotification", &changed[0]);
    assert_eq!(
        changed[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-1"
    );
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn progress_turns_the_answer_into_an_sse_stream() {
    let endpoint = Endpoint::start(server()).await;
    for revision in ["2025-11-25", MODERN] {
        let params =
            json!({ "name": "progress", "arguments": { "steps": 2 }, "_meta": { "progressToken": 9 } });
        let response = if revision == MODERN {
            endpoint.modern(json!(1), "tools/call", params)
        } else {
            let session = endpoint.initialize(revision).await;
            endpoint
                .legacy(&session, revision)
                .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }))
        };
        let received = events(response.send().await.unwrap(), 3).await;
        assert_eq!(received.len(), 3);
        for (step, note) in received[..2].iter().enumerate() {
            Spec::of(revision).assert_valid("ProgressNotification", note);
            assert_eq!(note["params"]["progress"], json!((step + 1) as f64));
            assert_eq!(note["params"]["progressToken"], 9);
        }
        assert_eq!(received[2]["id"], 1);
        assert_eq!(received[2]["result"]["content"][0]["text"], "done");
    }
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn safe_by_default() {
    let endpoint = Endpoint::start(server()).await;
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": modern_meta(json!({})) } });
    let modern = || {
        endpoint
            .post()
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "tools/list")
    };

    let rebinding = modern()
        .header("host", "attacker.example:80")
        .json(&call)
        .send()
        .await
        .unwrap();
    assert_eq!(rebinding.status(), StatusCode::FORBIDDEN);
    let foreign = modern()
        .header("origin", "https://attacker.example")
        .json(&call)
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    let local = modern()
        .header("origin", "http://localhost:3000")
        .json(&call)
        .send()
        .await
        .unwrap();
    assert_eq!(local.status(), StatusCode::OK);

    let huge = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "x".repeat(17 * 1024 * 1024) } } });
    let huge_bytes = serde_json::to_vec(&huge).unwrap().len();
    let (status, _, error) = json_of(modern().json(&huge).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        error["error"]["message"],
        format!("the body is {huge_bytes} bytes long; this server accepts bodies of up to 16777216 bytes")
    );
    assert_eq!(error["id"], 1, "the id was read before the limit");
    // A chunked body declares no size: it is read only up to the limit.
    let chunked = chunked_post(&endpoint.url, 17 * 1024 * 1024).await;
    assert!(chunked.starts_with("HTTP/1.1 413"), "{chunked}");
    assert!(
        chunked.contains("the body is longer than this server accepts (16777216 bytes)"),
        "{chunked}"
    );

    let only_json = endpoint
        .client
        .post(&endpoint.url)
        .header("content-type", "application/json")
        .header("accept", "application/json")
        .json(&call)
        .send()
        .await
        .unwrap();
    assert_eq!(only_json.status(), StatusCode::NOT_ACCEPTABLE);
    let text = endpoint
        .client
        .post(&endpoint.url)
        .header("content-type", "text/plain")
        .header("accept", "application/json, text/event-stream")
        .body(call.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(text.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, _, error) = json_of(endpoint.post().body("{oops").send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"]["code"], -32700);
    let notification = endpoint.post().json(
        &json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } }),
    );
    assert_eq!(notification.send().await.unwrap().status(), StatusCode::ACCEPTED);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn bearer_tokens_and_tool_visibility() {
    let server = server()
        .bearer_auth(|token| async move {
            match token.as_str() {
                "admin-token" => Some(Principal::new("root").with_scopes(["admin"])),
                "user-token" => Some(Principal::new("ada")),
                _ => None,
            }
        })
        .tool_visibility(|tool, caller| {
            !tool.name().starts_with("admin.") || caller.is_some_and(|c| c.has_scope("admin"))
        });
    let endpoint = Endpoint::start(server).await;
    let list = || endpoint.modern(json!(1), "tools/list", json!({}));

    let anonymous = list().send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.headers()["www-authenticate"], "Bearer realm=\"mcp\"");
    let wrong = list().bearer_auth("guess").send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong.headers()["www-authenticate"],
        "Bearer realm=\"mcp\", error=\"invalid_token\""
    );

    let names = |list: &Value| -> Vec<String> {
        list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, _, user) = json_of(list().bearer_auth("user-token").send().await.unwrap()).await;
    assert!(!names(&user).contains(&"admin.reset".to_owned()));
    assert_eq!(user["result"]["cacheScope"], "private");
    let (_, _, admin) = json_of(list().bearer_auth("admin-token").send().await.unwrap()).await;
    assert!(names(&admin).contains(&"admin.reset".to_owned()));

    let call = |token: &str| {
        endpoint
            .modern(json!(2), "tools/call", json!({ "name": "admin.reset" }))
            .bearer_auth(token.to_owned())
            .send()
    };
    let (_, _, refused) = json_of(call("user-token").await.unwrap()).await;
    assert_eq!(refused["error"]["message"], "Unknown tool: admin.reset");
    let (_, _, allowed) = json_of(call("admin-token").await.unwrap()).await;
    assert_eq!(allowed["result"]["content"][0]["text"], "reset");

    let (_, _, who) = json_of(
        endpoint
            .modern(json!(3), "tools/call", json!({ "name": "whoami" }))
            .bearer_auth("user-token")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(who["result"]["content"][0]["text"], "ada");
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn each_client_has_its_own_rate_limit_within_the_servers() {
    let server = server().limits(
        Limits::default()
            .client_rate_limit(RateLimit::per_minute(2))
            .rate_limit(RateLimit::per_minute(5)),
    );
    let endpoint = Endpoint::start(server).await;
    // Loopback addresses other than 127.0.0.1 stand in for other machines.
    let from = |last: u8| {
        let address = IpAddr::from([127, 0, 0, last]);
        reqwest::Client::builder()
            .no_proxy()
            .local_address(address)
            .build()
            .unwrap()
    };
    let echo = json!({ "name": "echo", "arguments": { "text": "hi" } });
    let modern_echo = |client: &reqwest::Client, id: u64| {
        endpoint
            .modern_from(client, json!(id), "tools/call", echo.clone())
            .send()
    };
    let text = |call: &Value| call["result"]["content"][0]["text"].as_str().unwrap().to_owned();

    let first = from(1);
    for id in 1..=2 {
        let (status, _, call) = json_of(modern_echo(&first, id).await.unwrap()).await;
        assert_eq!((status, text(&call)), (StatusCode::OK, "hi".to_owned()));
    }
    let (status, _, refused) = json_of(modern_echo(&first, 3).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    Spec::of(MODERN).assert_valid("CallToolResultResponse", &refused);
    assert_eq!(refused["result"]["isError"], true);
    assert!(
        text(&refused)
            .starts_with("too many calls from this client: the limit is 2 calls per minute; try again in "),
        "{refused}"
    );
    // Other requests are not counted.
    let list = endpoint.modern_from(&first, json!(4), "tools/list", json!({}));
    let (_, _, list) = json_of(list.send().await.unwrap()).await;
    assert!(list["result"]["tools"].is_array(), "{list}");

    // A second client, in a legacy session, has a bucket of its own.
    let second = from(2);
    let session = endpoint.initialize_from(&second, "2025-11-25").await;
    let legacy_echo = |id: u64| {
        let call = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": echo });
        endpoint
            .legacy_from(&second, &session, "2025-11-25")
            .json(&call)
            .send()
    };
    for id in 1..=2 {
        let (_, _, call) = json_of(legacy_echo(id).await.unwrap()).await;
        assert_eq!(text(&call), "hi", "{call}");
    }
    let (_, _, refused) = json_of(legacy_echo(3).await.unwrap()).await;
    Spec::of("2025-11-25").assert_valid("CallToolResult", &refused["result"]);
    assert!(
        text(&refused).starts_with("too many calls from this client"),
        "{refused}"
    );

    // Four of the server's five calls are spent; a third client gets the last one.
    let third = from(3);
    let (_, _, call) = json_of(modern_echo(&third, 1).await.unwrap()).await;
    assert_eq!(text(&call), "hi");
    let (_, _, refused) = json_of(modern_echo(&third, 2).await.unwrap()).await;
    assert!(
        text(&refused).starts_with("too many calls: this server takes 5 calls per minute; try again in "),
        "{refused}"
    );
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn idle_sessions_end_on_their_own_and_listening_ones_do_not() {
    let endpoint = Endpoint::start(
        server().http(HttpSettings::default().session_idle_timeout(Duration::from_millis(200))),
    )
    .await;
    let revision = "2025-11-25";
    let idle = endpoint.initialize(revision).await;
    let listening = endpoint.initialize(revision).await;
    let stream = endpoint.listen(&listening, revision).await;
    let ping = |session: &str| {
        let ping = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });
        endpoint.legacy(session, revision).json(&ping).send()
    };
    // No session opens meanwhile: the server's own sweep ends the idle one.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(ping(&idle).await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(ping(&listening).await.unwrap().status(), StatusCode::OK);
    // Once its client stops listening, the session is idle like any other.
    drop(stream);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(ping(&listening).await.unwrap().status(), StatusCode::NOT_FOUND);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn two_instances_answer_one_client_with_no_shared_state() {
    let a = Endpoint::start(server()).await;
    let b = Endpoint::start(server()).await;
    assert_ne!(a.url, b.url);
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let steps = [
        (&a, "server/discover", json!({})),
        (&b, "tools/list", json!({})),
        (
            &a,
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "from a" } }),
        ),
        (
            &b,
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "from b" } }),
        ),
    ];
    for (id, (endpoint, method, params)) in steps.into_iter().enumerate() {
        let request = endpoint.modern(json!(id), method, params).build().unwrap();
        let (status, _, response) = json_of(client.execute(request).await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{method} on {}", endpoint.url);
        assert_eq!(response["id"], id);
        assert_eq!(response["result"]["resultType"], "complete");
    }
    a.stop().await.unwrap();
    b.stop().await.unwrap();
}

#[tokio::test]
async fn graceful_shutdown_finishes_requests_in_flight() {
    let endpoint = Endpoint::start(server()).await;
    let slow = endpoint
        .modern(
            json!(1),
            "tools/call",
            json!({ "name": "sleep", "arguments": { "ms": 400 } }),
        )
        .send();
    let slow = tokio::spawn(slow);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let url = endpoint.url.clone();
    endpoint.stop().await.unwrap();
    let (status, _, response) = json_of(slow.await.unwrap().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(response["result"]["content"][0]["text"], "slept 400 ms");
    // And nothing listens any more.
    assert!(reqwest::Client::new().post(url).send().await.is_err());
}

#[test]
fn the_example_servers_serve_http_with_a_flag() {
    let server = support::HttpProcess::spawn(env!("CARGO_BIN_EXE_calculator"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let result = runtime.block_on(async {
        let response = reqwest::Client::builder()
            .no_proxy()
            .build()
            .unwrap()
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "tools/call")
            .header("mcp-name", "calculator")
            .json(&json!({
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": { "_meta": modern_meta(json!({})), "name": "calculator", "arguments": { "operation": "multiply", "a": 3, "b": 4 } }
            }))
            .send()
            .await
            .expect("the calculator answers over HTTP");
        json_of(response).await.2
    });
    assert_eq!(result["result"]["content"][0]["text"], "12");
}

#[tokio::test]
async fn a_tool_asks_the_client_on_the_calls_event_stream_and_the_answer_comes_in_a_post() {
    let endpoint = Endpoint::start(Server::new("web", "2.0.0").tools(tools![ask_roots])).await;
    let revision = "2025-11-25";
    let spec = Spec::of(revision);
    let session = endpoint.initialize(revision).await;
    let post = |message: Value| endpoint.legacy(&session, revision).json(&message).send();

    let call = post(json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": "ask_roots", "arguments": {} } }))
        .await
        .unwrap();
    assert_eq!(call.status(), StatusCode::OK);
    let mut stream = Events::of(call);
    let asked = stream.next().await.unwrap();
    // The request's id is 128 random bits, not a counter another client could guess.
    let id = asked["id"]
        .as_str()
        .unwrap_or_else(|| panic!("not a string id: {asked}"));
    assert!(
        id.len() == 32
            && id
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{id}"
    );
    assert_eq!(
        asked,
        json!({ "jsonrpc": "2.0", "id": id, "method": "roots/list", "params": {} })
    );
    spec.assert_valid("ListRootsRequest", &asked);

    // A response to no request of the server's is taken (202) and dropped.
    let stray = post(json!({ "jsonrpc": "2.0", "id": 42, "result": { "roots": [] } }))
        .await
        .unwrap();
    assert_eq!(stray.status(), StatusCode::ACCEPTED);
    assert_eq!(stray.text().await.unwrap(), "");

    // Without authentication every client is the same anonymous principal: an answer sent
    // from another address, in the session, is taken.
    let elsewhere = reqwest::Client::builder()
        .no_proxy()
        .local_address(IpAddr::from([127, 0, 0, 2]))
        .build()
        .unwrap();
    let roots = json!({ "roots": [{ "uri": "file:///srv/app" }] });
    let answered = endpoint
        .legacy_from(&elsewhere, &session, revision)
        .json(&json!({ "jsonrpc": "2.0", "id": id, "result": roots }))
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), StatusCode::ACCEPTED);
    let result = stream.next().await.unwrap();
    assert_eq!(
        result,
        json!({ "jsonrpc": "2.0", "id": 7, "result": { "content": [{ "type": "text", "text": format!("roots: {roots}") }] } })
    );
    spec.assert_valid("JSONRPCResultResponse", &result);
    assert_eq!(
        stream.next().await,
        None,
        "the stream ends with the call's answer"
    );

    // The same answer again: the call is over, so it is dropped; the session serves on.
    let again = post(json!({ "jsonrpc": "2.0", "id": id, "result": roots }))
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::ACCEPTED);
    let ping = post(json!({ "jsonrpc": "2.0", "id": 8, "method": "ping" }))
        .await
        .unwrap();
    assert_eq!(
        json_of(ping).await.2,
        json!({ "jsonrpc": "2.0", "id": 8, "result": {} })
    );
    endpoint.stop().await.unwrap();
}

/// Sends `request` as it is over a fresh connection; returns the response's head and body.
async fn raw_exchange(url: &str, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let authority = url.trim_start_matches("http://").split('/').next().unwrap();
    let mut socket = tokio::net::TcpStream::connect(authority).await.unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(support::PATIENCE, socket.read_to_end(&mut response)).await;
    String::from_utf8_lossy(&response).into_owned()
}

#[tokio::test]
async fn an_http_1_1_request_without_host_is_refused() {
    let endpoint = Endpoint::start(server()).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = |version: &str, host: &str| {
        format!(
            "POST /mcp HTTP/{version}\r\n{host}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let without = raw_exchange(&endpoint.url, &request("1.1", "")).await;
    assert!(without.starts_with("HTTP/1.1 400"), "{without}");
    assert!(
        without.contains("an HTTP/1.1 request must have a Host header (RFC 9112, section 3.2)"),
        "{without}"
    );
    // HTTP/1.0 has no such rule; with a Host, 1.1 is served.
    let old = raw_exchange(&endpoint.url, &request("1.0", "")).await;
    assert!(
        old.starts_with("HTTP/1.0 200") || old.starts_with("HTTP/1.1 200"),
        "{old}"
    );
    let with = raw_exchange(&endpoint.url, &request("1.1", "Host: localhost\r\n")).await;
    assert!(with.starts_with("HTTP/1.1 200"), "{with}");
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn connections_slow_to_send_a_head_or_left_idle_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limit = Duration::from_millis(300);
    let endpoint = Endpoint::start(server().http(HttpSettings::default().request_head_timeout(limit))).await;
    let authority = endpoint
        .url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let closed_after = |request: &'static [u8]| {
        let authority = authority.clone();
        async move {
            let mut socket = tokio::net::TcpStream::connect(&authority).await.unwrap();
            let started = std::time::Instant::now();
            socket.write_all(request).await.unwrap();
            let mut received = Vec::new();
            tokio::time::timeout(support::PATIENCE, socket.read_to_end(&mut received))
                .await
                .expect("the server closes the connection")
                .unwrap();
            (started.elapsed(), String::from_utf8_lossy(&received).into_owned())
        }
    };
    // Half a head, then nothing.
    let (after, received) = closed_after(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty").await;
    assert!(after >= limit, "closed after {after:?}");
    assert!(!received.contains(" 200 "), "{received}");
    // A whole request is answered; the kept-alive connection then closes once idle.
    let (after, received) = closed_after(b"GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
    assert!(received.starts_with("HTTP/1.1 404"), "{received}");
    assert!(after >= limit, "closed after {after:?}");
    // Meanwhile, and after, the server serves as before.
    let listed = endpoint
        .modern(json!(1), "tools/list", json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), StatusCode::OK);
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn sessions_beyond_the_limit_are_refused_with_503_and_the_others_go_on() {
    let endpoint = Endpoint::start(server().http(HttpSettings::default().max_sessions(2))).await;
    let first = endpoint.initialize("2025-11-25").await;
    let second = endpoint.initialize("2025-06-18").await;
    let refused = endpoint
        .post()
        .json(&json!({
            "jsonrpc": "2.0", "id": "third", "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
        }))
        .send()
        .await
        .unwrap();
    let (status, headers, body) = json_of(refused).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(headers.get("mcp-session-id").is_none());
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1, "{retry}");
    assert_eq!(body["id"], "third");
    assert_eq!(
        body["error"]["message"],
        "this server has 2 sessions open, as many as it keeps; try again later, or use protocol revision 2026-07-28, which needs no session"
    );
    // The open sessions are not disturbed, and requests without a session still go in.
    for (session, revision) in [(&first, "2025-11-25"), (&second, "2025-06-18")] {
        let ping = endpoint
            .legacy(session, revision)
            .json(&json!({ "jsonrpc": "2.0", "id": 5, "method": "ping" }))
            .send()
            .await
            .unwrap();
        assert_eq!(ping.status(), StatusCode::OK);
    }
    let modern = endpoint
        .modern(json!(6), "tools/list", json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(modern.status(), StatusCode::OK);
    // Once a session ends, there is room again.
    let ended = endpoint
        .client
        .delete(&endpoint.url)
        .header("mcp-session-id", &first)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    endpoint.initialize("2025-11-25").await;
    endpoint.stop().await.unwrap();
}

#[tokio::test]
async fn listen_streams_beyond_the_limit_are_refused_until_one_ends() {
    let endpoint = Endpoint::start(server().limits(Limits::default().max_listen_streams(1))).await;
    let listen = |id: &str| {
        endpoint.modern(
            json!(id),
            "subscriptions/listen",
            json!({ "notifications": { "toolsListChanged": true } }),
        )
    };
    let open = listen("first").send().await.unwrap();
    assert_eq!(open.status(), StatusCode::OK);
    let (status, headers, body) = json_of(listen("second").send().await.unwrap()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(headers.contains_key("retry-after"));
    assert_eq!(
        body,
        json!({
            "jsonrpc": "2.0", "id": "second",
            "error": { "code": -32000, "message": "this server has 1 listen streams open, as many as it keeps; try again later" }
        })
    );
    // Other requests are served meanwhile.
    let list = endpoint
        .modern(json!(3), "tools/list", json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), StatusCode::OK);
    // The client closes its stream: the slot is free again (the server notices the close
    // on its next write or poll, so allow it a moment).
    drop(open);
    let deadline = std::time::Instant::now() + support::PATIENCE;
    loop {
        let again = listen("third").send().await.unwrap();
        if again.status() == StatusCode::OK {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the slot was never freed");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    endpoint.stop().await.unwrap();
}

// Scaling out: what `Server::run` takes from the environment, in processes.

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// An example server run as a process with `--http` on a free port and these environment
/// variables; killed when dropped.
struct Instance {
    child: std::process::Child,
    url: String,
}

impl Instance {
    fn spawn(binary: &str, vars: &[(&str, &str)]) -> Instance {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = std::process::Command::new(binary)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .env_remove("MCP_TOOLKIT_REQUEST_STATE_KEYS")
            .env_remove("MCP_TOOLKIT_INSTANCE")
            .envs(vars.iter().copied())
            .stdin(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let mut instance = Instance {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        let deadline = std::time::Instant::now() + support::PATIENCE;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = instance.child.try_wait() {
                panic!("{binary} stopped before serving: {status}");
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{binary} is not listening on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        instance
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs a 2026-07-28 `tools/call` to `url`; the HTTP status and the JSON-RPC answer.
async fn call_at(client: &reqwest::Client, url: &str, name: &str, extra: Value) -> (StatusCode, Value) {
    let capabilities = json!({ "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} } });
    let mut params = json!({ "name": name, "arguments": {}, "_meta": modern_meta(capabilities) });
    if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
        params.extend(extra);
    }
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }))
        .send()
        .await
        .unwrap();
    let (status, _, answer) = json_of(response).await;
    (status, answer)
}

#[tokio::test]
async fn processes_given_one_key_ring_by_the_environment_share_the_rounds_of_a_call() {
    // Two keys, the first sealing: what a deployment in the middle of a rotation runs with.
    let keys = "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=, KSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSk=";
    let a = Instance::spawn(CONFORMANCE, &[("MCP_TOOLKIT_REQUEST_STATE_KEYS", keys)]);
    let b = Instance::spawn(CONFORMANCE, &[("MCP_TOOLKIT_REQUEST_STATE_KEYS", keys)]);
    let stranger = Instance::spawn(CONFORMANCE, &[]); // a random key of its own
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let spec = Spec::of(MODERN);
    let tool = "test_input_required_result_multi_round";
    let answer = |key: &str, content: Value| json!({ key: { "action": "accept", "content": content } });

    let (status, first) = call_at(&client, &a.url, tool, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    spec.assert_valid("InputRequiredResult", &first["result"]);
    let retry = json!({ "inputResponses": answer("step1", json!({ "name": "Ada" })), "requestState": first["result"]["requestState"] });

    // Sealed by `a`, opened by `b`, which seals the next round.
    let (status, second) = call_at(&client, &b.url, tool, retry.clone()).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert_eq!(
        second["result"]["inputRequests"]["step2"]["params"]["message"],
        "Step 2: What is your favorite color?"
    );
    let (_, refused) = call_at(&client, &stranger.url, tool, retry).await;
    assert_eq!(
        refused["error"],
        json!({ "code": -32602, "message": "invalid or expired requestState" })
    );

    // Sealed by `b`, opened by `a`, which completes the call.
    let last = json!({ "inputResponses": answer("step2", json!({ "color": "teal" })), "requestState": second["result"]["requestState"] });
    let (status, done) = call_at(&client, &a.url, tool, last).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    spec.assert_valid("CallToolResult", &done["result"]);
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "Multi-round complete for Ada who likes teal" }])
    );
}

#[tokio::test]
async fn a_process_named_by_the_environment_starts_its_session_ids_with_its_name() {
    let named = Instance::spawn(CONFORMANCE, &[("MCP_TOOLKIT_INSTANCE", "mcp-7")]);
    let plain = Instance::spawn(CONFORMANCE, &[]);
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let initialize = |url: String| {
        client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .json(&json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
            }))
            .send()
    };
    let session_of =
        |response: &reqwest::Response| response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let is_hex_128 =
        |text: &str| text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));

    let id = session_of(&initialize(named.url.clone()).await.unwrap());
    let random = id.strip_prefix("mcp-7.").unwrap_or_else(|| panic!("{id}"));
    assert!(is_hex_128(random), "{id}");
    let id = session_of(&initialize(plain.url.clone()).await.unwrap());
    assert!(is_hex_128(&id), "{id}");

    // The session is the instance's: another instance does not know it (the spec's 404).
    let elsewhere = client
        .post(&plain.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", format!("mcp-7.{random}"))
        .header("mcp-protocol-version", "2025-11-25")
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }))
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
}

#[test]
fn a_malformed_key_ring_or_instance_name_in_the_environment_stops_the_server_before_it_serves() {
    let cases = [
        (
            "MCP_TOOLKIT_REQUEST_STATE_KEYS",
            "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=,c2hvcnQ=",
            "error: `MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring: key 2 of the list: a seal key is 32 bytes; this one is 5; \
             expected base64 keys of 32 bytes separated by commas, the key that seals first (`openssl rand -base64 32` makes one)\n",
        ),
        (
            "MCP_TOOLKIT_REQUEST_STATE_KEYS",
            "",
            "error: `MCP_TOOLKIT_REQUEST_STATE_KEYS` is not a key ring: a key ring needs at least one key; the list is empty; \
             expected base64 keys of 32 bytes separated by commas, the key that seals first (`openssl rand -base64 32` makes one)\n",
        ),
        (
            "MCP_TOOLKIT_INSTANCE",
            "pod.7",
            "error: `MCP_TOOLKIT_INSTANCE`: the instance name `pod.7` cannot start session ids; a name is 1 to 63 of `A-Z`, `a-z`, `0-9`, `-` and `_`\n",
        ),
    ];
    for (var, value, said) in cases {
        // Port 0: were the value taken, the server would serve; it must stop first.
        let output = std::process::Command::new(CONFORMANCE)
            .args(["--http", "127.0.0.1:0"])
            .env(var, value)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{var}={value:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), said, "{var}={value:?}");
        assert!(output.stdout.is_empty());
    }
}
