//! The notes example over real pipes: state shared by its tools, structured output,
//! progress, and `restore_note` appearing and disappearing while it serves. Every message
//! is checked against the official schema of revision 2025-11-25.
//!
//! Then its tools that ask the client (`clear_notes` a form, `suggest_title` the client's
//! model, `export_notes` the roots), each over stdio and Streamable HTTP in both eras: in
//! 2025-11-25 the server's requests are answered on the wire, with a response of the same
//! id; in 2026-07-28 the call ends with `input_required` and is sent again with
//! `inputResponses` and the `requestState`. What the server sends is checked against the
//! schema of the era. A client's hostile roots (escaped separators, dot segments, a file,
//! a symlink at `notes.md`) are checked on the file system of a temporary folder: nothing
//! is written outside the shared folder, and a symlink's target is left as it was. A form
//! answer of 10 MB comes back cut in the error.
//!
//! Then its prompts (`review_note`, `digest`) over the same four wires: `prompts/list`,
//! `prompts/get` with arguments as strings, and the JSON-RPC errors of bad arguments and of
//! an unknown note, each checked against the schema of the era.
//!
//! Then its resources over the same four wires: `resources/list` (`notes://all`),
//! `resources/templates/list` (`notes://{id}`), reads of the Markdown list and of one note,
//! and the errors of an unknown note, a bad id and an unknown URI. And what subscribers
//! hear when a tool changes notes: in 2025-11-25, after `resources/subscribe`,
//! `notifications/resources/updated` on stdout or the session's GET stream, until
//! `resources/unsubscribe`; in 2026-07-28, on a `subscriptions/listen` naming the URIs,
//! the acknowledgement of those a resource has, then their updates tagged with its id.

use crate::support;

use serde_json::{Value, json};
use std::path::PathBuf;
use support::{HttpProcess, Peer, Spec, initialize, modern_meta};

const NOTES: &str = env!("CARGO_BIN_EXE_notes");
const REVISION: &str = "2025-11-25";
pub(super) const MODERN: &str = "2026-07-28";

/// The tools the server starts with.
const TOOLS: [&str; 11] = [
    "add_note",
    "search_notes",
    "delete_note",
    "summarize_notes",
    "clear_notes",
    "suggest_title",
    "export_notes",
    "archive_notes",
    "export_markdown",
    "list_notes",
    "board_add",
];

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
    assert_eq!(tool_names(&mut peer, 1), TOOLS);

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
    assert_eq!(tool_names(&mut peer, 8), [&TOOLS[..], &["restore_note"]].concat());
    let gone = call(&mut peer, 9, "search_notes", json!({"query": "traits"}));
    assert_eq!(gone["structuredContent"]["total"], 0);
    let restored = call_announcing_a_change(&mut peer, 10, "restore_note", json!({"id": 1}));
    assert_eq!(restored["structuredContent"]["title"], "Rust traits");
    assert_eq!(tool_names(&mut peer, 11), TOOLS);
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
    assert_eq!(
        by_name("clear_notes")["annotations"],
        json!({"destructiveHint": true, "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(
        by_name("suggest_title")["annotations"],
        json!({"readOnlyHint": true, "openWorldHint": false})
    );
    assert_eq!(
        by_name("export_notes")["annotations"],
        json!({"destructiveHint": true, "idempotentHint": true, "openWorldHint": false})
    );
}

// ---- Tools that ask, over both transports in both eras ----------------------------------

/// Every capability the notes server's asks need.
fn all_capabilities() -> Value {
    json!({ "elicitation": {}, "sampling": {}, "roots": {} })
}

/// What a call asked the client, in order: each request's method and params.
pub(super) type Asked = Vec<(String, Value)>;

/// The end of a call: what it asked, its final JSON-RPC response, and the HTTP status of
/// that response (`None` over stdio).
pub(super) struct Called {
    pub(super) asked: Asked,
    pub(super) response: Value,
    pub(super) status: Option<u16>,
}

impl Called {
    /// The result's one text, for a call that has a result.
    pub(super) fn text(&self) -> &str {
        let result = &self.response["result"];
        assert_eq!(result["content"].as_array().map(Vec::len), Some(1), "{result}");
        result["content"][0]["text"].as_str().unwrap()
    }

    pub(super) fn is_error(&self) -> bool {
        self.response["result"]["isError"] == true
    }
}

/// A client of the notes server over one transport in one era, with the capabilities it
/// declares. It answers each ask of the server's with `answer(method, params)`.
pub(super) trait Wire {
    /// Which transport and era, for failure messages.
    fn label(&self) -> &'static str;

    fn call(&mut self, name: &str, arguments: Value, answer: &mut dyn FnMut(&str, &Value) -> Value)
    -> Called;

    /// Sends one request that asks nothing of the client (`prompts/list`, `resources/read`,
    /// ...) and returns its response.
    fn request(&mut self, method: &str, params: Value) -> Value;

    /// The next notification the server sends that belongs to no call: on stdout, kept
    /// while a call was waiting for its response; over HTTP, on the session's GET stream
    /// (2025-11-25) or on the open `subscriptions/listen` (2026-07-28).
    fn notification(&mut self) -> Value;

    /// What the server has written to stderr so far, once `done` holds of it or after the
    /// suite's patience (a server of `logged_wires`).
    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String;

    /// A call whose tool must ask nothing.
    fn call_plain(&mut self, name: &str, arguments: Value) -> Called {
        let label = self.label();
        self.call(name, arguments, &mut |method, _| {
            panic!("{label}: `{name}` asked `{method}`")
        })
    }
}

/// The schema type of a request the server sends.
fn request_type(method: &str) -> &'static str {
    match method {
        "elicitation/create" => "ElicitRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "roots/list" => "ListRootsRequest",
        other => panic!("the server asked the unexpected `{other}`"),
    }
}

/// Checks a legacy call's final response against the 2025-11-25 schema.
fn check_legacy_response(response: &Value) {
    let spec = Spec::of(REVISION);
    spec.assert_valid("JSONRPCResultResponse", response);
    spec.assert_valid("CallToolResult", &response["result"]);
}

fn legacy_call(id: u64, name: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": name, "arguments": arguments }
    })
}

/// If `message` is a request of the server's: checks it, records it and returns the
/// response to send (with its id).
fn answer_legacy_request(
    message: &Value,
    asked: &mut Asked,
    answer: &mut dyn FnMut(&str, &Value) -> Value,
) -> Option<Value> {
    let method = message.get("method")?.as_str()?;
    message.get("id")?;
    Spec::of(REVISION).assert_valid(request_type(method), message);
    let params = message["params"].clone();
    let result = answer(method, &params);
    asked.push((method.to_owned(), params));
    Some(json!({ "jsonrpc": "2.0", "id": message["id"], "result": result }))
}

/// The notes server over its stdin and stdout, where notifications that belong to no call
/// (a subscribed resource's updates) may come between a request and its response: those
/// are kept, in order, for `notification`.
struct Stdio {
    peer: Peer,
    heard: std::collections::VecDeque<Value>,
}

impl Stdio {
    fn spawn() -> Stdio {
        Stdio::spawn_logging(None)
    }

    /// With `RUST_LOG=rust_log` and stderr kept, when given.
    fn spawn_logging(rust_log: Option<&str>) -> Stdio {
        Stdio {
            peer: rust_log.map_or_else(|| Peer::spawn(NOTES), |log| Peer::spawn_with_log(NOTES, log)),
            heard: Default::default(),
        }
    }

    /// The next message with an id (a response, or a request of the server's); the
    /// notifications before it are kept.
    fn recv(&mut self) -> Value {
        loop {
            let message = self.peer.recv();
            if message.get("id").is_some() {
                return message;
            }
            self.heard.push_back(message);
        }
    }

    /// Sends a request and returns its response, which must be the next message with an id.
    fn request(&mut self, request: Value) -> Value {
        let id = request["id"].clone();
        self.peer.send(request);
        let response = self.recv();
        assert_eq!(
            response["id"], id,
            "expected the response to {id}, got {response}"
        );
        response
    }

    /// The next notification: the first one kept, else the next message, which must be one.
    fn notification(&mut self) -> Value {
        if let Some(kept) = self.heard.pop_front() {
            return kept;
        }
        let message = self.peer.recv();
        assert!(
            message.get("id").is_none(),
            "expected a notification, got {message}"
        );
        message
    }
}

/// 2025-11-25 over stdio: the server's requests arrive on stdout, the answers go to stdin.
struct LegacyStdio {
    stdio: Stdio,
    next_id: u64,
}

impl LegacyStdio {
    fn start(capabilities: Value) -> LegacyStdio {
        LegacyStdio::start_logging(capabilities, None)
    }

    fn start_logging(capabilities: Value, rust_log: Option<&str>) -> LegacyStdio {
        let mut stdio = Stdio::spawn_logging(rust_log);
        let init = stdio.request(json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": REVISION, "capabilities": capabilities, "clientInfo": { "name": "tests", "version": "1.0.0" } }
        }));
        assert_eq!(init["result"]["protocolVersion"], REVISION);
        stdio
            .peer
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        LegacyStdio { stdio, next_id: 1 }
    }
}

impl Wire for LegacyStdio {
    fn label(&self) -> &'static str {
        "2025-11-25 over stdio"
    }

    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String {
        self.stdio.peer.log_when(done)
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.stdio
            .request(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
    }

    fn notification(&mut self) -> Value {
        self.stdio.notification()
    }

    fn call(
        &mut self,
        name: &str,
        arguments: Value,
        answer: &mut dyn FnMut(&str, &Value) -> Value,
    ) -> Called {
        let id = self.next_id;
        self.next_id += 1;
        self.stdio.peer.send(legacy_call(id, name, arguments));
        let mut asked = Vec::new();
        loop {
            let message = self.stdio.recv();
            if let Some(reply) = answer_legacy_request(&message, &mut asked, answer) {
                self.stdio.peer.send(reply);
            } else if message.get("id") == Some(&json!(id)) {
                check_legacy_response(&message);
                return Called {
                    asked,
                    response: message,
                    status: None,
                };
            } else {
                panic!("unexpected message during the call: {message}");
            }
        }
    }
}

/// The notes server serving Streamable HTTP, and a runtime to talk to it from a sync test.
struct Http {
    server: HttpProcess,
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
    /// Once opened, the stream of messages that answer no request: a 2025-11-25 session's
    /// GET stream, or a 2026-07-28 `subscriptions/listen`.
    stream: Option<Body>,
}

impl Http {
    fn start() -> Http {
        Http::start_logging(None)
    }

    /// With `RUST_LOG=rust_log` and stderr kept, when given.
    fn start_logging(rust_log: Option<&str>) -> Http {
        Http {
            server: rust_log.map_or_else(
                || HttpProcess::spawn(NOTES),
                |log| HttpProcess::spawn_with_log(NOTES, log),
            ),
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            stream: None,
        }
    }

    fn post(&self, headers: &[(&str, &str)], message: &Value) -> reqwest::Response {
        let request = self
            .client
            .post(&self.server.url)
            .header("content-type", "application/json")
            .json(message);
        self.send(request, headers)
    }

    /// Opens a legacy session's GET stream, where what belongs to no request arrives.
    fn open_get_stream(&mut self, headers: &[(&str, &str)]) {
        let response = self.send(self.client.get(&self.server.url), headers);
        self.keep_open(response);
    }

    /// Keeps a response that stays open as the stream `stream_notification` reads.
    fn keep_open(&mut self, response: reqwest::Response) {
        assert_eq!(response.status(), 200);
        self.stream = Some(Body::of(response, &self.runtime));
    }

    fn send(&self, mut request: reqwest::RequestBuilder, headers: &[(&str, &str)]) -> reqwest::Response {
        request = request.header("accept", "application/json, text/event-stream");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let send = request.send();
        self.runtime
            .block_on(async { tokio::time::timeout(support::PATIENCE, send).await })
            .expect("an answer in time")
            .unwrap()
    }

    /// The next message on the open stream, which must be a notification.
    fn stream_notification(&mut self) -> Value {
        let stream = self.stream.as_mut().expect("a stream is open");
        let message = stream.next(&self.runtime).expect("the stream stays open");
        assert!(
            message.get("id").is_none(),
            "expected a notification, got {message}"
        );
        message
    }

    /// POSTs a 2026-07-28 request, with the headers that name it.
    fn post_modern(&self, request: &Value) -> reqwest::Response {
        let mut headers = vec![
            ("mcp-protocol-version", MODERN),
            ("mcp-method", request["method"].as_str().unwrap()),
        ];
        // Only the methods that name what they act on carry `Mcp-Name`: the tool's or the
        // prompt's name, the resource's URI.
        let params = &request["params"];
        if let Some(name) = params["name"].as_str().or(params["uri"].as_str()) {
            headers.push(("mcp-name", name));
        }
        self.post(&headers, request)
    }
}

/// A response's messages as they arrive: one JSON body, or the events of an SSE stream.
enum Body {
    Json(Option<Value>),
    Events {
        response: reqwest::Response,
        buffer: String,
        ready: std::collections::VecDeque<Value>,
    },
}

impl Body {
    fn of(response: reqwest::Response, runtime: &tokio::runtime::Runtime) -> Body {
        let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
        if content_type.starts_with("text/event-stream") {
            return Body::Events {
                response,
                buffer: String::new(),
                ready: Default::default(),
            };
        }
        assert!(content_type.starts_with("application/json"), "{content_type}");
        let text = runtime.block_on(response.text()).unwrap();
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        Body::Json(Some(value))
    }

    /// The next message; `None` when the body ends.
    fn next(&mut self, runtime: &tokio::runtime::Runtime) -> Option<Value> {
        match self {
            Body::Json(value) => value.take(),
            Body::Events {
                response,
                buffer,
                ready,
            } => {
                while ready.is_empty() {
                    let chunk = runtime
                        .block_on(async { tokio::time::timeout(support::PATIENCE, response.chunk()).await })
                        .expect("an event in time")
                        .unwrap()?;
                    buffer.push_str(std::str::from_utf8(&chunk).unwrap());
                    while let Some(end) = buffer.find("\n\n") {
                        let event: String = buffer.drain(..end + 2).collect();
                        for line in event.lines() {
                            if let Some(data) = line.strip_prefix("data: ") {
                                ready.push_back(serde_json::from_str(data).unwrap());
                            }
                        }
                    }
                }
                ready.pop_front()
            }
        }
    }
}

/// 2025-11-25 over HTTP: the server's requests arrive on the call's event stream, the
/// answers go in POSTs of their own.
struct LegacyHttp {
    http: Http,
    session: String,
    next_id: u64,
}

impl LegacyHttp {
    fn start(capabilities: Value) -> LegacyHttp {
        LegacyHttp::start_logging(capabilities, None)
    }

    fn start_logging(capabilities: Value, rust_log: Option<&str>) -> LegacyHttp {
        let http = Http::start_logging(rust_log);
        let init = http.post(
            &[],
            &json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": { "protocolVersion": REVISION, "capabilities": capabilities, "clientInfo": { "name": "tests", "version": "1.0.0" } }
            }),
        );
        assert_eq!(init.status(), 200);
        let session = init.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let mut wire = LegacyHttp {
            http,
            session,
            next_id: 1,
        };
        let initialized = wire.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        assert_eq!(initialized.status(), 202);
        // As the official clients do: a stream for what belongs to no request.
        let session = wire.session.clone();
        wire.http
            .open_get_stream(&[("mcp-session-id", &session), ("mcp-protocol-version", REVISION)]);
        wire
    }

    fn post(&self, message: &Value) -> reqwest::Response {
        let headers = [
            ("mcp-session-id", self.session.as_str()),
            ("mcp-protocol-version", REVISION),
        ];
        self.http.post(&headers, message)
    }
}

impl Wire for LegacyHttp {
    fn label(&self) -> &'static str {
        "2025-11-25 over HTTP"
    }

    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String {
        http_log_when(&self.http.server, done)
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let response = self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        assert_eq!(response.status(), 200);
        let mut body = Body::of(response, &self.http.runtime);
        let message = body.next(&self.http.runtime).expect("a response");
        assert_eq!(message["id"], id, "{message}");
        message
    }

    fn notification(&mut self) -> Value {
        self.http.stream_notification()
    }

    fn call(
        &mut self,
        name: &str,
        arguments: Value,
        answer: &mut dyn FnMut(&str, &Value) -> Value,
    ) -> Called {
        let id = self.next_id;
        self.next_id += 1;
        let response = self.post(&legacy_call(id, name, arguments));
        let status = response.status().as_u16();
        assert_eq!(status, 200);
        let mut body = Body::of(response, &self.http.runtime);
        let mut asked = Vec::new();
        loop {
            let message = body
                .next(&self.http.runtime)
                .expect("the call's answer before its stream ends");
            if let Some(reply) = answer_legacy_request(&message, &mut asked, answer) {
                assert_eq!(self.post(&reply).status(), 202);
            } else if message.get("id") == Some(&json!(id)) {
                check_legacy_response(&message);
                return Called {
                    asked,
                    response: message,
                    status: Some(status),
                };
            } else {
                panic!("unexpected message during the call: {message}");
            }
        }
    }
}

/// Moves 2026-07-28 requests and their responses, and the notifications of a request that
/// stays open.
trait Link {
    fn label(&self) -> &'static str;
    /// Sends a request; returns its response and, over HTTP, the status.
    fn request(&mut self, request: &Value) -> (Value, Option<u16>);
    /// Sends a request that stays open (`subscriptions/listen`): what it carries comes from
    /// `notification`.
    fn open(&mut self, request: &Value);
    /// The next notification of the open request.
    fn notification(&mut self) -> Value;
    /// What the server has written to stderr, once `done` holds of it.
    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String;
}

impl Link for Stdio {
    fn label(&self) -> &'static str {
        "2026-07-28 over stdio"
    }

    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String {
        self.peer.log_when(done)
    }

    fn request(&mut self, request: &Value) -> (Value, Option<u16>) {
        (Stdio::request(self, request.clone()), None)
    }

    fn open(&mut self, request: &Value) {
        self.peer.send(request.clone());
    }

    fn notification(&mut self) -> Value {
        Stdio::notification(self)
    }
}

impl Link for Http {
    fn label(&self) -> &'static str {
        "2026-07-28 over HTTP"
    }

    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String {
        http_log_when(&self.server, done)
    }

    fn request(&mut self, request: &Value) -> (Value, Option<u16>) {
        let response = self.post_modern(request);
        let status = response.status().as_u16();
        let mut body = Body::of(response, &self.runtime);
        loop {
            let message = body.next(&self.runtime).expect("a response before the body ends");
            if message.get("id") == request.get("id") {
                return (message, Some(status));
            }
        }
    }

    fn open(&mut self, request: &Value) {
        let response = self.post_modern(request);
        self.keep_open(response);
    }

    fn notification(&mut self) -> Value {
        self.stream_notification()
    }
}

/// 2026-07-28: every call stands alone, with the client's capabilities in `_meta`; a call
/// that asks ends with `input_required` and is sent again with the answers.
struct Modern<L> {
    link: L,
    capabilities: Value,
    next_id: u64,
}

impl<L: Link> Modern<L> {
    fn new(link: L, capabilities: Value) -> Modern<L> {
        Modern {
            link,
            capabilities,
            next_id: 1,
        }
    }

    /// `params._meta` of a request, with the client's capabilities.
    fn meta(&self) -> Value {
        modern_meta(json!({ "io.modelcontextprotocol/clientCapabilities": self.capabilities }))
    }

    /// Opens a `subscriptions/listen` for `notifications` (a `SubscriptionFilter`); returns
    /// its id and the acknowledgement, checked against the schema.
    fn listen(&mut self, notifications: Value) -> (u64, Value) {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({
            "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": { "notifications": notifications, "_meta": self.meta() }
        });
        Spec::of(MODERN).assert_valid("SubscriptionsListenRequest", &request);
        self.link.open(&request);
        let acknowledged = self.link.notification();
        Spec::of(MODERN).assert_valid("SubscriptionsAcknowledgedNotification", &acknowledged);
        (id, acknowledged)
    }
}

impl<L: Link> Wire for Modern<L> {
    fn label(&self) -> &'static str {
        self.link.label()
    }

    fn log_when(&self, done: &dyn Fn(&str) -> bool) -> String {
        self.link.log_when(done)
    }

    fn request(&mut self, method: &str, mut params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        params["_meta"] = self.meta();
        let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        // A custom method (an extension's) has no type in the schema.
        if !method.starts_with("notes/") {
            Spec::of(MODERN).assert_valid(client_request_types(method).0, &request);
        }
        self.link.request(&request).0
    }

    fn notification(&mut self) -> Value {
        self.link.notification()
    }

    fn call(
        &mut self,
        name: &str,
        arguments: Value,
        answer: &mut dyn FnMut(&str, &Value) -> Value,
    ) -> Called {
        let spec = Spec::of(MODERN);
        let mut params = json!({ "name": name, "arguments": arguments, "_meta": self.meta() });
        let mut asked = Vec::new();
        for _round in 0..5 {
            let id = self.next_id;
            self.next_id += 1;
            let request = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params });
            spec.assert_valid("CallToolRequest", &request);
            let (response, status) = self.link.request(&request);
            if response.get("error").is_some() {
                spec.assert_valid("JSONRPCErrorResponse", &response);
                return Called {
                    asked,
                    response,
                    status,
                };
            }
            spec.assert_valid("CallToolResultResponse", &response);
            assert_eq!(status.unwrap_or(200), 200);
            let result = &response["result"];
            if result["resultType"] != "input_required" {
                assert_eq!(result["resultType"], "complete");
                spec.assert_valid("CallToolResult", result);
                return Called {
                    asked,
                    response,
                    status,
                };
            }
            spec.assert_valid("InputRequiredResult", result);
            let mut responses = serde_json::Map::new();
            for (key, request) in result["inputRequests"].as_object().unwrap() {
                spec.assert_valid("InputRequest", request);
                let method = request["method"].as_str().unwrap();
                let asked_params = request.get("params").cloned().unwrap_or(json!({}));
                responses.insert(key.clone(), answer(method, &asked_params));
                asked.push((method.to_owned(), asked_params));
            }
            params["inputResponses"] = Value::Object(responses);
            params["requestState"] = result["requestState"].clone();
            assert!(params["requestState"].is_string(), "{result}");
        }
        panic!("`{name}` still asked after five rounds");
    }
}

/// The notes server in each transport and era, each with a client that declares
/// `capabilities`.
pub(super) fn wires(capabilities: Value) -> Vec<Box<dyn Wire>> {
    vec![
        Box::new(LegacyStdio::start(capabilities.clone())),
        Box::new(LegacyHttp::start(capabilities.clone())),
        Box::new(Modern::new(Stdio::spawn(), capabilities.clone())),
        Box::new(Modern::new(Http::start(), capabilities)),
    ]
}

/// The same, each server logging with `RUST_LOG=rust_log` (its stderr kept, for
/// `Wire::log_when`).
pub(super) fn logged_wires(capabilities: Value, rust_log: &str) -> Vec<Box<dyn Wire>> {
    vec![
        Box::new(LegacyStdio::start_logging(capabilities.clone(), Some(rust_log))),
        Box::new(LegacyHttp::start_logging(capabilities.clone(), Some(rust_log))),
        Box::new(Modern::new(
            Stdio::spawn_logging(Some(rust_log)),
            capabilities.clone(),
        )),
        Box::new(Modern::new(Http::start_logging(Some(rust_log)), capabilities)),
    ]
}

/// An HTTP server's log once `done` holds of it, or after the suite's patience.
fn http_log_when(server: &HttpProcess, done: &dyn Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let log = server.log();
        if done(&log) || std::time::Instant::now() > deadline {
            return log;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Adds a note; returns its id.
pub(super) fn add(wire: &mut dyn Wire, title: &str, body: &str, tags: &[&str]) -> u64 {
    let added = wire.call_plain("add_note", json!({ "title": title, "body": body, "tags": tags }));
    added.response["result"]["structuredContent"]["id"]
        .as_u64()
        .unwrap()
}

fn count_notes(wire: &mut dyn Wire) -> u64 {
    let found = wire.call_plain("search_notes", json!({ "query": "" }));
    found.response["result"]["structuredContent"]["total"]
        .as_u64()
        .unwrap()
}

/// Sends a request that asks nothing of the client (a prompt's, a resource's) and checks
/// its answer against the schema of the wire's era: a result of the method's type, or an
/// error.
pub(super) fn client_request(wire: &mut dyn Wire, method: &str, params: Value) -> Value {
    let label = wire.label();
    let modern = label.starts_with(MODERN);
    let spec = Spec::of(if modern { MODERN } else { REVISION });
    let (request_type, result_type) = client_request_types(method);
    if !modern {
        // A 2026-07-28 request is checked as it is sent, with its `_meta`.
        let request = json!({ "jsonrpc": "2.0", "id": 0, "method": method, "params": params });
        spec.assert_valid(request_type, &request);
    }
    let response = wire.request(method, params);
    if response.get("error").is_some() {
        spec.assert_valid("JSONRPCErrorResponse", &response);
        return response;
    }
    if modern {
        spec.assert_valid(&format!("{result_type}Response"), &response);
        assert_eq!(response["result"]["resultType"], "complete", "{label}");
    } else {
        spec.assert_valid("JSONRPCResultResponse", &response);
    }
    spec.assert_valid(result_type, &response["result"]);
    response
}

/// The error of a request that must fail (`client_request`).
fn refused(wire: &mut dyn Wire, method: &str, params: Value) -> Value {
    let label = wire.label();
    let response = client_request(wire, method, params);
    let error = &response["error"];
    assert!(error.is_object(), "{label}: {response}");
    error.clone()
}

/// The schema types of a request that asks nothing of the client, and of its result.
fn client_request_types(method: &str) -> (&'static str, &'static str) {
    match method {
        "tools/list" => ("ListToolsRequest", "ListToolsResult"),
        "prompts/list" => ("ListPromptsRequest", "ListPromptsResult"),
        "prompts/get" => ("GetPromptRequest", "GetPromptResult"),
        "resources/list" => ("ListResourcesRequest", "ListResourcesResult"),
        "resources/templates/list" => ("ListResourceTemplatesRequest", "ListResourceTemplatesResult"),
        "resources/read" => ("ReadResourceRequest", "ReadResourceResult"),
        "resources/subscribe" => ("SubscribeRequest", "EmptyResult"),
        "resources/unsubscribe" => ("UnsubscribeRequest", "EmptyResult"),
        "server/discover" => ("DiscoverRequest", "DiscoverResult"),
        other => panic!("not a request these tests send: `{other}`"),
    }
}

/// The form `clear_notes` asks for.
fn confirm_form(count: u64) -> Value {
    json!({
        "message": format!("Delete all {count} notes? This cannot be undone."),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "confirm": { "type": "boolean", "title": "Confirm", "description": "Go ahead?", "default": true }
            }
        }
    })
}

#[test]
fn clearing_notes_asks_the_user_and_deletes_only_on_yes() {
    for mut wire in wires(all_capabilities()) {
        let wire = wire.as_mut();
        let label = wire.label();
        let empty = wire.call_plain("clear_notes", json!({}));
        assert_eq!(empty.text(), "there are no notes to delete", "{label}");

        add(wire, "one", "first", &[]);
        add(wire, "two", "second", &["t"]);
        let answers = [
            (json!({ "action": "decline" }), "kept 2 notes"),
            (json!({ "action": "cancel" }), "kept 2 notes"),
            (
                json!({ "action": "accept", "content": { "confirm": false } }),
                "kept 2 notes",
            ),
            (
                json!({ "action": "accept", "content": { "confirm": true } }),
                "deleted 2 notes",
            ),
        ];
        for (reply, said) in answers {
            let called = wire.call("clear_notes", json!({}), &mut |_, _| reply.clone());
            assert_eq!(
                called.asked,
                [("elicitation/create".to_owned(), confirm_form(2))],
                "{label}"
            );
            assert!(!called.is_error(), "{label}: {}", called.response);
            assert_eq!(called.text(), said, "{label}");
        }
        // An accept that does not carry `confirm: true` is no yes, though the box is
        // shown ticked: a client that fills in no defaults and leaves untouched fields
        // out sends one when the user accepts an unticked box.
        add(wire, "three", "third", &[]);
        add(wire, "four", "fourth", &[]);
        let mut unsaid = vec![
            json!({ "action": "accept" }),
            json!({ "action": "accept", "content": {} }),
        ];
        // The 2026-07-28 schema has no `null` content for an input response; a legacy
        // answer is the client's own result, and some send it.
        if !label.starts_with(MODERN) {
            unsaid.push(json!({ "action": "accept", "content": null }));
        }
        for reply in unsaid {
            let called = wire.call("clear_notes", json!({}), &mut |_, _| reply.clone());
            assert_eq!(called.asked.len(), 1, "{label}: {reply}");
            assert!(!called.is_error(), "{label}: {reply}: {}", called.response);
            assert_eq!(called.text(), "kept 2 notes", "{label}: {reply}");
            assert_eq!(count_notes(wire), 2, "{label}: {reply}");
        }
        let called = wire.call(
            "clear_notes",
            json!({}),
            &mut |_, _| json!({ "action": "accept", "content": { "confirm": true } }),
        );
        assert_eq!(called.text(), "deleted 2 notes", "{label}: {}", called.response);
        assert_eq!(count_notes(wire), 0, "{label}");
    }
}

#[test]
fn suggesting_a_title_asks_the_clients_model() {
    let body = "Each value has one owner.\nBorrowing lends it.";
    let expected_request = json!({
        "messages": [{
            "role": "user",
            "content": { "type": "text", "text": format!("Suggest a title of at most six words for this note:\n\n{body}") }
        }],
        "maxTokens": 30,
        "systemPrompt": "You name notes. Answer with the title only."
    });
    for mut wire in wires(all_capabilities()) {
        let wire = wire.as_mut();
        let label = wire.label();
        let id = add(wire, "draft", body, &[]);
        let called = wire.call("suggest_title", json!({ "id": id }), &mut |_, _| {
            json!({ "role": "assistant", "model": "test-model", "content": { "type": "text", "text": "  Ownership in Rust\n" } })
        });
        assert_eq!(
            called.asked,
            [("sampling/createMessage".to_owned(), expected_request.clone())],
            "{label}"
        );
        assert!(!called.is_error(), "{label}: {}", called.response);
        assert_eq!(
            called.text(),
            format!("suggested title for note {id}: Ownership in Rust"),
            "{label}"
        );

        // An answer with no text is an error the model can read.
        let imaged = wire.call("suggest_title", json!({ "id": id }), &mut |_, _| {
            json!({ "role": "assistant", "model": "test-model", "content": { "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png" } })
        });
        assert!(imaged.is_error(), "{label}");
        assert_eq!(
            imaged.text(),
            "the model gave no text to take a title from",
            "{label}"
        );

        // An unknown note is refused before anything is asked.
        let unknown = wire.call_plain("suggest_title", json!({ "id": 99 }));
        assert!(unknown.is_error(), "{label}");
        assert_eq!(unknown.text(), "there is no note 99", "{label}");
    }
}

/// A fresh, empty directory under the system's temporary one; removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("notes-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn exporting_writes_notes_md_into_the_first_folder_the_client_shares() {
    for (at, mut wire) in wires(all_capabilities()).into_iter().enumerate() {
        let wire = wire.as_mut();
        let label = wire.label();
        let folder = TempDir::new(&format!("export-{at}"));
        add(
            wire,
            "Rust traits",
            "Traits define\nshared behaviour.",
            &["rust", "lang"],
        );
        add(wire, "Groceries", "eggs, rice, tea", &[]);

        // The first root is not a local folder: the second one is used.
        let roots = json!({ "roots": [
            { "uri": "https://example.com/notes", "name": "web" },
            { "uri": format!("file://{}", folder.0.display()), "name": "exports" }
        ] });
        let called = wire.call("export_notes", json!({}), &mut |_, _| roots.clone());
        assert_eq!(called.asked, [("roots/list".to_owned(), json!({}))], "{label}");
        let file = folder.0.join("notes.md");
        assert!(!called.is_error(), "{label}: {}", called.response);
        assert_eq!(
            called.text(),
            format!("exported 2 notes to {}", file.display()),
            "{label}"
        );
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "# Notes\n\n- Rust traits: Traits define shared behaviour. (tags: rust, lang)\n- Groceries: eggs, rice, tea\n",
            "{label}"
        );

        // No file:// root: nothing to write to.
        let web = json!({ "roots": [{ "uri": "https://example.com/notes" }] });
        let refused = wire.call("export_notes", json!({}), &mut |_, _| web.clone());
        assert!(refused.is_error(), "{label}");
        assert_eq!(
            refused.text(),
            "the client shares no file:// root to export to; share a folder with the server",
            "{label}"
        );
    }
}

/// Every file, folder and symlink below `dir` (a file with its contents, a symlink with
/// its target), sorted: what a test compares before and after.
fn tree(dir: &std::path::Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            found.push((path, format!("-> {}", target.display())));
        } else if kind.is_dir() {
            found.push((path.clone(), "(folder)".to_owned()));
            found.extend(tree(&path));
        } else {
            let contents = std::fs::read_to_string(&path).unwrap();
            found.push((path, contents));
        }
    }
    found.sort();
    found
}

#[cfg(unix)]
#[test]
fn exporting_never_writes_outside_the_shared_folder() {
    for (at, mut wire) in wires(all_capabilities()).into_iter().enumerate() {
        let wire = wire.as_mut();
        let label = wire.label();
        let base = TempDir::new(&format!("escape-{at}"));
        let shared = base.0.join("shared");
        let outside = base.0.join("outside");
        std::fs::create_dir_all(shared.join("inner")).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("keep.txt"), "keep me").unwrap();
        std::fs::write(shared.join("file.txt"), "a file").unwrap();
        add(wire, "one", "first", &[]);
        let before = tree(&base.0);

        // Each names one folder that is not what it seems to a careless decoder; read as
        // separators, the escapes lead to `outside`, and the dots to `base`.
        let uri = |below: &str| format!("file://{}/{below}", base.0.display());
        let separator = |escape: &str| {
            format!(
                "the root's URI has `{escape}` inside a path segment; an escaped `/`, `\\` or NUL would be read as a separator or an end, so the root is refused"
            )
        };
        let dots = "the root's URI has a `..` segment; a root must name its folder without `.` or `..`";
        let hostile = [
            (uri("shared%2F..%2Foutside"), separator("%2F")),
            (uri("shared/inner%2f..%2f..%2foutside"), separator("%2F")),
            (uri("shared%5C..%5Coutside"), separator("%5C")),
            (uri("shared/notes.md%00"), separator("%00")),
            (uri("shared/.."), dots.to_owned()),
            (uri("shared/%2E%2E"), dots.to_owned()),
            (
                uri("shared/file.txt"),
                "the root is not a directory; share a folder".to_owned(),
            ),
        ];
        for (root, reason) in hostile {
            let roots = json!({ "roots": [{ "uri": root, "name": "notes" }] });
            let called = wire.call("export_notes", json!({}), &mut |_, _| roots.clone());
            assert!(called.is_error(), "{label}: {root}: {}", called.response);
            assert_eq!(
                called.text(),
                format!("the first file:// root cannot be exported to: {reason}"),
                "{label}: {root}"
            );
            assert_eq!(tree(&base.0), before, "{label}: {root} wrote");
        }

        // A symlink at `notes.md` to a file outside: replaced by the export, not followed.
        let keep = outside.join("keep.txt");
        let file = shared.join("notes.md");
        std::os::unix::fs::symlink(&keep, &file).unwrap();
        let roots = json!({ "roots": [{ "uri": uri("shared") }] });
        let called = wire.call("export_notes", json!({}), &mut |_, _| roots.clone());
        assert!(!called.is_error(), "{label}: {}", called.response);
        assert_eq!(
            called.text(),
            format!("exported 1 notes to {}", file.display()),
            "{label}"
        );
        let mut expected = before.clone();
        expected.push((file.clone(), "# Notes\n\n- one: first\n".to_owned()));
        expected.sort();
        assert_eq!(tree(&base.0), expected, "{label}");
        assert_eq!(std::fs::read_to_string(&keep).unwrap(), "keep me", "{label}");
    }
}

#[test]
fn a_long_form_answer_is_cut_in_the_error_the_tool_gets() {
    // 10 MB where a boolean belongs: the error quotes 40 characters of it, and says it
    // was cut.
    let long = "a".repeat(10 * 1024 * 1024);
    let reply = json!({ "action": "accept", "content": { "confirm": long } });
    let mut wire = LegacyStdio::start(all_capabilities());
    add(&mut wire, "one", "first", &[]);
    let called = wire.call("clear_notes", json!({}), &mut |_, _| reply.clone());
    assert!(called.is_error(), "{}", called.response);
    assert_eq!(
        called.text(),
        format!(
            "the form's answer does not fit: field `confirm`: expected a boolean, received the string \"{}\"…",
            "a".repeat(40)
        )
    );
    // The server serves on, and kept the note.
    assert_eq!(count_notes(&mut wire), 1);
}

#[test]
fn a_client_without_the_capability_is_not_asked() {
    // Sampling and roots, but no forms.
    let capabilities = json!({ "sampling": {}, "roots": {} });
    let message =
        "this request needs the client capability `elicitation.form`, which the client did not declare";
    for mut wire in wires(capabilities) {
        let wire = wire.as_mut();
        let label = wire.label();
        add(wire, "one", "first", &[]);
        let called = wire.call_plain("clear_notes", json!({}));
        if label.starts_with(REVISION) {
            assert_eq!(
                called.response["result"],
                json!({ "content": [{ "type": "text", "text": message }], "isError": true }),
                "{label}"
            );
        } else {
            let error = &called.response["error"];
            Spec::of(MODERN).assert_valid("MissingRequiredClientCapabilityError", &called.response);
            assert_eq!(error["code"], -32021, "{label}");
            assert_eq!(error["message"], message, "{label}");
            assert_eq!(
                error["data"]["requiredCapabilities"],
                json!({ "elicitation": { "form": {} } }),
                "{label}"
            );
            if label.ends_with("HTTP") {
                assert_eq!(called.status, Some(400), "{label}");
            }
        }
        assert_eq!(count_notes(wire), 1, "{label}: nothing was deleted");
    }
}

// ---- Prompts, over both transports in both eras -----------------------------------------

/// The messages of a `prompts/get` that must succeed.
fn get_prompt(wire: &mut dyn Wire, name: &str, arguments: Value) -> Value {
    let label = wire.label();
    let response = client_request(
        wire,
        "prompts/get",
        json!({ "name": name, "arguments": arguments }),
    );
    let result = &response["result"];
    assert!(result.get("description").is_none(), "{label}: {response}");
    result["messages"].clone()
}

/// The code and message of a `prompts/get` that must fail.
fn refused_prompt(wire: &mut dyn Wire, name: &str, arguments: Value) -> (i64, String) {
    let error = refused(
        wire,
        "prompts/get",
        json!({ "name": name, "arguments": arguments }),
    );
    (
        error["code"].as_i64().unwrap(),
        error["message"].as_str().unwrap().to_owned(),
    )
}

fn user(text: &str) -> Value {
    json!({ "role": "user", "content": { "type": "text", "text": text } })
}

/// What `digest` says, around the list of notes.
fn digest_messages(listed: &str) -> Value {
    json!([
        user(&format!(
            "Write a short digest of my latest notes, oldest first: what they are about, grouped by \
             topic, and anything in them that needs doing.\n\n{listed}"
        )),
        { "role": "assistant", "content": { "type": "text", "text": "Here is your digest:" } }
    ])
}

#[test]
fn prompts_are_listed_and_filled_in_from_the_notes() {
    let definitions = json!([
        {
            "name": "review_note",
            "title": "Review Note",
            "description": "Ask for a review of a note: what works, and what to change.",
            "arguments": [
                { "name": "id", "description": "The note's id", "required": true },
                {
                    "name": "focus",
                    "description": "What to look at: `clarity`, `brevity` or `tone`; everything when not given",
                    "required": false
                }
            ]
        },
        {
            "name": "digest",
            "title": "Digest",
            "description": "Start a digest of the latest notes: they are listed for the model, which sums them up.",
            "arguments": [
                { "name": "limit", "description": "How many of the latest notes to include", "required": false }
            ]
        }
    ]);
    for mut wire in wires(json!({})) {
        let wire = wire.as_mut();
        let label = wire.label();
        let list = client_request(wire, "prompts/list", json!({}));
        assert_eq!(list["result"]["prompts"], definitions, "{label}");
        assert!(list["result"].get("nextCursor").is_none(), "{label}");

        // No arguments at all: `limit` takes its default.
        let empty = client_request(wire, "prompts/get", json!({ "name": "digest" }));
        assert_eq!(
            empty["result"]["messages"],
            digest_messages("(there are no notes yet)"),
            "{label}"
        );

        add(wire, "Rust traits", "Traits define\nshared behaviour.", &["rust"]);
        let groceries = add(wire, "Groceries", "eggs, rice, tea", &[]);
        add(wire, "Call Ana", "About the trip in May.", &["todo"]);

        // Arguments arrive as strings and are parsed into the parameters' types.
        assert_eq!(
            get_prompt(
                wire,
                "review_note",
                json!({ "id": groceries.to_string(), "focus": "tone" })
            ),
            json!([user(
                "Review this note for tone: say how it sounds, and suggest rewording where it sounds wrong.\n\n\
                 # Groceries\n\neggs, rice, tea"
            )]),
            "{label}"
        );
        assert_eq!(
            get_prompt(wire, "review_note", json!({ "id": "1" })),
            json!([user(
                "Review this note: say what works, and suggest what to change.\n\n\
                 # Rust traits\n\nTraits define\nshared behaviour."
            )]),
            "{label}"
        );
        assert_eq!(
            get_prompt(wire, "digest", json!({ "limit": "2" })),
            digest_messages("- Groceries: eggs, rice, tea\n- Call Ana: About the trip in May. (tags: todo)"),
            "{label}"
        );
        assert_eq!(
            get_prompt(wire, "digest", json!({})),
            digest_messages(
                "- Rust traits: Traits define shared behaviour. (tags: rust)\n\
                 - Groceries: eggs, rice, tea\n\
                 - Call Ana: About the trip in May. (tags: todo)"
            ),
            "{label}"
        );

        // Arguments that do not fit: -32602, naming each.
        assert_eq!(
            refused_prompt(wire, "review_note", json!({ "id": "x" })),
            (
                -32602,
                "argument `id`: expected an integer of at least 0, received the string \"x\"".to_owned()
            ),
            "{label}"
        );
        assert_eq!(
            refused_prompt(wire, "review_note", json!({ "id": "1", "focus": "volume" })),
            (
                -32602,
                "argument `focus`: expected one of \"clarity\", \"brevity\", \"tone\", received the string \"volume\""
                    .to_owned()
            ),
            "{label}"
        );
        // A note that is not there: the prompt's fn says so, and the client gets -32602
        // with its message.
        assert_eq!(
            refused_prompt(wire, "review_note", json!({ "id": "99" })),
            (-32602, "there is no note 99".to_owned()),
            "{label}"
        );
        // The server serves on.
        assert_eq!(count_notes(wire), 3, "{label}");
    }
}

// ---- Resources, over both transports in both eras ---------------------------------------

/// The contents of a `resources/read` that must succeed.
fn read(wire: &mut dyn Wire, uri: &str) -> Value {
    let label = wire.label();
    let response = client_request(wire, "resources/read", json!({ "uri": uri }));
    let result = &response["result"];
    assert!(result.is_object(), "{label}: {response}");
    result["contents"].clone()
}

/// What `notes://{id}` reads for a note: its JSON, as `add_note` gave it.
fn note_contents(uri: &str, note: &str) -> Value {
    json!([{ "uri": uri, "mimeType": "application/json", "text": note }])
}

#[test]
fn resources_read_every_note_as_markdown_and_one_note_as_json() {
    let resources = json!([{
        "uri": "notes://all",
        "name": "all_notes",
        "title": "All Notes",
        "description": "Every note as a Markdown list, oldest first, one line per note: what `export_notes` writes to `notes.md`.",
        "mimeType": "text/markdown",
        "annotations": { "audience": ["user"] }
    }, {
        // The board of MCP Apps (tests/it/apps.rs checks it).
        "uri": "ui://notes/board",
        "name": "board",
        "title": "Board",
        "description": "The notes board: every note as a card, and a box to add one.",
        "mimeType": "text/html;profile=mcp-app",
        "_meta": { "ui": { "csp": { "connectDomains": ["https://api.example.com"] }, "prefersBorder": true } }
    }]);
    let templates = json!([{
        "uriTemplate": "notes://{id}",
        "name": "note",
        "title": "Note",
        "description": "One note, with its title, text and tags.",
        "mimeType": "application/json"
    }, {
        // `export_markdown` has a result budget: the pages of its long answers.
        "uriTemplate": "mcp-result://{id}/{page}",
        "name": "result_page",
        "title": "Result page",
        "description": "A page of a tool result too large to answer with at once: the answer gave its id and how many pages it has. The contents are the page's text, then (unless it is the last) the next page's URI as text/uri-list.",
        "mimeType": "text/plain"
    }]);
    for mut wire in wires(json!({})) {
        let wire = wire.as_mut();
        let label = wire.label();
        let list = client_request(wire, "resources/list", json!({}));
        // The notes skill's files follow (tests/it/skills.rs checks them).
        let listed = list["result"]["resources"].as_array().unwrap();
        let (own, skill): (Vec<Value>, Vec<Value>) = listed
            .iter()
            .cloned()
            .partition(|r| !r["uri"].as_str().unwrap().starts_with("skill://"));
        assert_eq!(json!(own), resources, "{label}");
        assert_eq!(skill.len(), 2, "{label}");
        assert!(list["result"].get("nextCursor").is_none(), "{label}");
        let list = client_request(wire, "resources/templates/list", json!({}));
        assert_eq!(list["result"]["resourceTemplates"], templates, "{label}");

        let markdown =
            |text: &str| json!([{ "uri": "notes://all", "mimeType": "text/markdown", "text": text }]);
        assert_eq!(read(wire, "notes://all"), markdown("# Notes\n\n"), "{label}");
        add(
            wire,
            "Rust traits",
            "Traits define\nshared behaviour.",
            &["rust", "lang"],
        );
        let groceries = add(wire, "Groceries", "eggs, rice, tea", &[]);
        assert_eq!(
            read(wire, "notes://all"),
            markdown(
                "# Notes\n\n- Rust traits: Traits define shared behaviour. (tags: rust, lang)\n\
                 - Groceries: eggs, rice, tea\n"
            ),
            "{label}"
        );
        assert_eq!(
            read(wire, "notes://1"),
            note_contents(
                "notes://1",
                r#"{"id":1,"title":"Rust traits","body":"Traits define\nshared behaviour.","tags":["rust","lang"]}"#
            ),
            "{label}"
        );
        let uri = format!("notes://{groceries}");
        assert_eq!(
            read(wire, &uri),
            note_contents(
                &uri,
                &format!(r#"{{"id":{groceries},"title":"Groceries","body":"eggs, rice, tea","tags":[]}}"#)
            ),
            "{label}"
        );

        // An unknown note: the resource's fn says it is not found, and the client gets the
        // revision's resource-not-found error with the fn's message and the URI.
        let code = if label.starts_with(MODERN) { -32602 } else { -32002 };
        assert_eq!(
            refused(wire, "resources/read", json!({ "uri": "notes://99" })),
            json!({ "code": code, "message": "there is no note 99", "data": { "uri": "notes://99" } }),
            "{label}"
        );
        // An id that is not one: -32602, naming the variable.
        assert_eq!(
            refused(wire, "resources/read", json!({ "uri": "notes://first" })),
            json!({
                "code": -32602,
                "message": "argument `id`: expected an integer of at least 0, received the string \"first\""
            }),
            "{label}"
        );
        // A URI no resource has: resource not found, with the URI (-32602 since 2026-07-28).
        let not_found = if label.starts_with(MODERN) {
            json!({ "code": -32602, "message": "Resource not found: todo://1", "data": { "uri": "todo://1" } })
        } else {
            json!({ "code": -32002, "message": "Resource not found", "data": { "uri": "todo://1" } })
        };
        assert_eq!(
            refused(wire, "resources/read", json!({ "uri": "todo://1" })),
            not_found,
            "{label}"
        );
    }
}

/// `notifications/resources/updated` for `uri`, as a 2025-11-25 session hears it.
fn updated(uri: &str) -> Value {
    json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": uri } })
}

/// Sends `resources/subscribe` or `resources/unsubscribe` for `uri`, which must succeed.
fn watch(wire: &mut dyn Wire, method: &str, uri: &str) {
    let label = wire.label();
    let response = client_request(wire, method, json!({ "uri": uri }));
    assert_eq!(response["result"], json!({}), "{label}: {method} {uri}");
}

/// Accepts `clear_notes`' question.
fn confirm(_: &str, _: &Value) -> Value {
    json!({ "action": "accept", "content": { "confirm": true } })
}

#[test]
fn legacy_subscribers_hear_of_the_notes_that_changed_until_they_unsubscribe() {
    let legacy = [
        Box::new(LegacyStdio::start(all_capabilities())) as Box<dyn Wire>,
        Box::new(LegacyHttp::start(all_capabilities())),
    ];
    for mut wire in legacy {
        let wire = wire.as_mut();
        let label = wire.label();
        watch(wire, "resources/subscribe", "notes://all");
        let first = add(wire, "one", "first", &[]);
        let heard = wire.notification();
        Spec::of(REVISION).assert_valid("ResourceUpdatedNotification", &heard);
        assert_eq!(heard, updated("notes://all"), "{label}");

        // Watching one note, and no longer the list: clearing announces the list first,
        // then each note; only the note is heard.
        watch(wire, "resources/subscribe", &format!("notes://{first}"));
        watch(wire, "resources/unsubscribe", "notes://all");
        let cleared = wire.call("clear_notes", json!({}), &mut confirm);
        assert_eq!(cleared.text(), "deleted 1 notes", "{label}");
        assert_eq!(
            wire.notification(),
            updated(&format!("notes://{first}")),
            "{label}"
        );

        // A URI no resource has cannot be subscribed to, nor one whose read says not found.
        assert_eq!(
            refused(wire, "resources/subscribe", json!({ "uri": "todo://1" })),
            json!({ "code": -32002, "message": "Resource not found", "data": { "uri": "todo://1" } }),
            "{label}"
        );
        assert_eq!(
            refused(wire, "resources/subscribe", json!({ "uri": "notes://999" })),
            json!({ "code": -32002, "message": "there is no note 999", "data": { "uri": "notes://999" } }),
            "{label}"
        );
    }
}

/// Over one 2026-07-28 link: a `subscriptions/listen` for resource updates, acknowledged
/// with the URIs a resource has (not a note that is not there), then the updates of those,
/// tagged with its id.
fn listen_for_updates<L: Link>(mut wire: Modern<L>) {
    let label = wire.label();
    let first = add(&mut wire, "one", "first", &[]);
    let note = format!("notes://{first}");
    let (id, acknowledged) =
        wire.listen(json!({ "resourceSubscriptions": ["notes://all", note, "todo://1", "notes://999"] }));
    let tag = json!({ "io.modelcontextprotocol/subscriptionId": id });
    assert_eq!(
        acknowledged,
        json!({
            "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": { "_meta": tag, "notifications": { "resourceSubscriptions": ["notes://all", note] } }
        }),
        "{label}"
    );
    let updated = |uri: &str| {
        json!({
            "jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": { "uri": uri, "_meta": tag }
        })
    };

    // A new note changes the list only (no one watches the new note).
    add(&mut wire, "two", "second", &[]);
    let heard = wire.notification();
    Spec::of(MODERN).assert_valid("ResourceUpdatedNotification", &heard);
    assert_eq!(heard, updated("notes://all"), "{label}");
    // Deleting the first changes the list and the note; the tool list's change is not
    // heard, as it was not asked for.
    let deleted = wire.call_plain("delete_note", json!({ "id": first }));
    assert!(!deleted.is_error(), "{label}: {}", deleted.response);
    assert_eq!(wire.notification(), updated("notes://all"), "{label}");
    assert_eq!(wire.notification(), updated(&note), "{label}");
}

#[test]
fn listeners_hear_of_the_notes_that_changed_tagged_with_their_subscription() {
    listen_for_updates(Modern::new(Stdio::spawn(), json!({})));
    listen_for_updates(Modern::new(Http::start(), json!({})));
}

#[test]
fn archive_notes_runs_as_a_task_that_says_how_far_it_got() {
    let tasks = json!({ "io.modelcontextprotocol/clientCapabilities": { "extensions": { "io.modelcontextprotocol/tasks": {} } } });
    let mut peer = Peer::spawn(NOTES);
    for (id, title) in [(1, "Milk"), (2, "Eggs"), (3, "Bread")] {
        let added = peer.request(json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "_meta": modern_meta(json!({})), "name": "add_note", "arguments": { "title": title, "body": "buy" } }
        }));
        assert_eq!(added["result"]["isError"], Value::Null, "{added}");
    }
    let created = peer.request(json!({
        "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "_meta": modern_meta(tasks.clone()), "name": "archive_notes", "arguments": {} }
    }));
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task = created["result"]["taskId"].as_str().unwrap().to_owned();
    let mut statuses: Vec<String> = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let done = loop {
        let got = peer.request(json!({
            "jsonrpc": "2.0", "id": 5, "method": "tasks/get",
            "params": { "_meta": modern_meta(tasks.clone()), "taskId": task }
        }));
        let result = got["result"].clone();
        if let Some(message) = result["statusMessage"].as_str()
            && statuses.last().map(String::as_str) != Some(message)
        {
            statuses.push(message.to_owned());
        }
        if result["status"] == "completed" {
            break result;
        }
        assert_eq!(result["status"], "working", "{got}");
        assert!(std::time::Instant::now() < deadline, "the archive never finished");
        std::thread::sleep(std::time::Duration::from_millis(40));
    };
    assert_eq!(done["result"]["structuredContent"]["notes"], 3);
    assert_eq!(
        done["result"]["structuredContent"]["markdown"],
        "- Milk: buy\n- Eggs: buy\n- Bread: buy\n"
    );
    assert!(
        statuses.iter().any(|s| s == "archived 1 of 3 notes"),
        "{statuses:?}"
    );
    // Without the extension, the same tool answers with its result.
    let plain = peer.request(json!({
        "jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "archive_notes", "arguments": {} }
    }));
    assert_eq!(plain["result"]["structuredContent"]["notes"], 3, "{plain}");
}
