//! Bad input, as a matrix: every case is sent over stdio (to the fixture server, a process
//! driven over pipes) and over Streamable HTTP (the same tools served in-process on
//! 127.0.0.1:0), and must get its exact answer (JSON-RPC code and message, and over HTTP the
//! status); then the next good request on the same connection or session must still be
//! answered. Every message the server sends is checked against the official schema of the
//! revision in use, except the error responses with `"id": null` (the one deviation the
//! README documents), whose error objects are checked instead.
//!
//! Adding a case is one entry in [`cases`].

use crate::support;

use mcp_toolkit::server::Limits;
use mcp_toolkit::{Server, tools};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use support::tools::{echo, sleep};
use support::{Peer, Spec, initialize, modern_meta};

const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");
const MODERN: &str = "2026-07-28";
/// The fixture's message limit, and the HTTP server's here.
const LIMIT: usize = 64 * 1024;
const SUPPORTED: [&str; 5] = [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// What a connection (stdio) or session (HTTP) has been through before a case is sent.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Session {
    /// Nothing: no `initialize`, no session.
    Fresh,
    /// `initialize` with this revision, then `notifications/initialized`.
    Legacy(&'static str),
    /// 2026-07-28: stateless, the revision in every request's `_meta` (over HTTP with the
    /// headers that repeat the body).
    Modern,
}

use Session::{Fresh, Legacy, Modern};

const V0326: Session = Legacy("2025-03-26");
const V0618: Session = Legacy("2025-06-18");
const V1125: Session = Legacy("2025-11-25");

impl Session {
    /// The revision whose schema checks what the server sends.
    fn revision(self) -> &'static str {
        match self {
            Fresh => "2025-11-25",
            Legacy(revision) => revision,
            Modern => MODERN,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Transport {
    Stdio,
    Http,
}

/// What the server must answer.
#[derive(Clone, Debug)]
enum Answer {
    /// A JSON-RPC error response.
    Error {
        id: Value,
        code: i64,
        message: String,
        data: Option<Value>,
    },
    /// A `tools/call` result of one text block (the era's own shape).
    Call { id: Value, text: String, is_error: bool },
    /// A result in full, checked as the schema type named.
    Result {
        id: Value,
        result: Value,
        schema: &'static str,
    },
    /// A batch response holding these answers, in any order.
    Batch(Vec<Answer>),
    /// This exact text (for what `serde_json` cannot read back).
    Raw(String),
    /// Nothing at all (over HTTP: 202 and no body).
    Nothing,
}

fn err(id: impl Into<Value>, code: i64, message: impl Into<String>) -> Answer {
    Answer::Error {
        id: id.into(),
        code,
        message: message.into(),
        data: None,
    }
}

fn err_data(id: impl Into<Value>, code: i64, message: impl Into<String>, data: Value) -> Answer {
    Answer::Error {
        id: id.into(),
        code,
        message: message.into(),
        data: Some(data),
    }
}

fn text(id: impl Into<Value>, text: impl Into<String>) -> Answer {
    Answer::Call {
        id: id.into(),
        text: text.into(),
        is_error: false,
    }
}

fn tool_error(id: impl Into<Value>, text: impl Into<String>) -> Answer {
    Answer::Call {
        id: id.into(),
        text: text.into(),
        is_error: true,
    }
}

fn empty(id: impl Into<Value>) -> Answer {
    Answer::Result {
        id: id.into(),
        result: json!({}),
        schema: "EmptyResult",
    }
}

const NULL: Value = Value::Null;
const NOTHING: Answer = Answer::Nothing;

/// A message that cannot be read: `-32700`, no id.
fn parse_error(message: &str) -> Answer {
    err(NULL, -32700, format!("parse error: {message}"))
}

/// A message that is not a request: `-32600`, no id.
fn not_a_message(kind: &str) -> Answer {
    err(
        NULL,
        -32600,
        format!("a JSON-RPC message must be an object, not {kind}"),
    )
}

fn bad_id(id: &str) -> Answer {
    err(
        NULL,
        -32600,
        format!("the request id must be a string or an integer between -2^63 and 2^63-1, not {id}"),
    )
}

/// A request before any revision is known.
fn needs_revision(id: impl Into<Value>, method: &str) -> Answer {
    err_data(
        id,
        -32602,
        format!(
            "`{method}` needs a protocol revision: send `initialize` first (revisions 2024-11-05 to 2025-11-25), or name the revision in `params._meta[\"io.modelcontextprotocol/protocolVersion\"]` (2026-07-28)"
        ),
        json!({ "supported": SUPPORTED }),
    )
}

fn not_served(id: impl Into<Value>, method: &str, revision: &str) -> Answer {
    err(
        id,
        -32601,
        format!("method `{method}` is not served by this server in protocol revision {revision}"),
    )
}

fn batch_refused(revision: Option<&str>) -> Answer {
    let message = match revision {
        Some(revision) => {
            format!("JSON-RPC batches are not part of protocol revision {revision}; send one message at a time")
        }
        None => "JSON-RPC batches are allowed only after `initialize` negotiates revision 2025-03-26; send one message at a time".to_owned(),
    };
    err(NULL, -32600, message)
}

/// The refusal of a message over the limit, answering `id` (`NULL` when it was not found).
fn too_long(id: impl Into<Value>, bytes: usize) -> Answer {
    err(
        id,
        -32600,
        format!("the message is {bytes} bytes long; this server accepts messages of up to {LIMIT} bytes"),
    )
}

/// One line of the matrix.
#[derive(Clone)]
struct Case {
    name: &'static str,
    session: Session,
    send: Vec<u8>,
    answer: Answer,
    /// Sent on one transport only.
    only: Option<Transport>,
    /// HTTP's status, when the rule in `status` does not give it.
    status: Option<u16>,
    /// HTTP's answer and status, when they differ from stdio's.
    http: Option<(u16, Answer)>,
    /// HTTP headers set over the usual ones.
    headers: Vec<(&'static str, &'static str)>,
    /// A request sent first and left in flight, and what it gets once the case is answered.
    in_flight: Option<(Vec<u8>, Answer)>,
}

/// A case. `$META` in the bytes stands for a 2026-07-28 request's `_meta`.
fn case(name: &'static str, session: Session, send: impl AsRef<[u8]>, answer: Answer) -> Case {
    Case {
        name,
        session,
        send: with_meta(send.as_ref()),
        answer,
        only: None,
        status: None,
        http: None,
        headers: Vec::new(),
        in_flight: None,
    }
}

fn with_meta(bytes: &[u8]) -> Vec<u8> {
    const MARK: &[u8] = b"$META";
    let meta = modern_meta(json!({})).to_string();
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(MARK.len()).position(|w| w == MARK) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(meta.as_bytes());
        rest = &rest[at + MARK.len()..];
    }
    out.extend_from_slice(rest);
    out
}

impl Case {
    fn http_only(mut self) -> Case {
        self.only = Some(Transport::Http);
        self
    }

    fn status(mut self, status: u16) -> Case {
        self.status = Some(status);
        self
    }

    fn http(mut self, status: u16, answer: Answer) -> Case {
        self.http = Some((status, answer));
        self
    }

    fn header(mut self, name: &'static str, value: &'static str) -> Case {
        self.headers.push((name, value));
        self
    }

    fn in_flight(mut self, request: &str, answer: Answer) -> Case {
        self.in_flight = Some((with_meta(request.as_bytes()), answer));
        self
    }

    fn runs_over(&self, transport: Transport) -> bool {
        self.only.is_none_or(|only| only == transport)
    }

    /// HTTP's status and answer.
    fn over_http(&self) -> (u16, Answer) {
        match &self.http {
            Some(http) => http.clone(),
            None => (
                self.status.unwrap_or_else(|| status(&self.answer, self.session)),
                self.answer.clone(),
            ),
        }
    }
}

/// The HTTP status of an answer, as the README gives it: 202 for nothing, 400 for a message
/// that is not a valid request and for the 2026-07-28 version and header errors, 404 for a
/// 2026-07-28 unknown method, 200 for the rest.
fn status(answer: &Answer, session: Session) -> u16 {
    match answer {
        Answer::Nothing => 202,
        Answer::Error {
            code: -32700 | -32600 | -32020 | -32022,
            ..
        } => 400,
        Answer::Error { code: -32601, .. } if session == Modern => 404,
        _ => 200,
    }
}

/// A `tools/call` of `echo` whose line is exactly `bytes` long.
fn echo_of_size(bytes: usize) -> (Vec<u8>, String) {
    let head =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""#;
    let tail = r#""}}}"#;
    let text = "x".repeat(bytes - head.len() - tail.len());
    (format!("{head}{text}{tail}").into_bytes(), text)
}

fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

/// The matrix.
fn cases() -> Vec<Case> {
    let deep = nested("[", "", "]", 10_000);
    let deep_objects = nested(r#"{"a":"#, "1", "}", 10_000);
    let (at_limit, at_limit_text) = echo_of_size(LIMIT);
    let (over_limit, _) = echo_of_size(LIMIT + 1);
    let (megabyte, _) = echo_of_size(1 << 20);
    let id_last = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}}}},"id":"last"}}"#,
        "x".repeat(1 << 20)
    );
    let notification_mb = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{}","progress":1}}}}"#,
        "x".repeat(1 << 20)
    );
    let echo = |id: &str, rest: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo"{rest}}}}}"#)
    };
    let sleep = |args: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"sleep","arguments":{args}}}}}"#
        )
    };
    let unknown_argument = "argument `deep` is not accepted; the accepted arguments are `text`";
    let ms =
        |received: &str| format!("argument `ms`: expected an integer of at least 0, received {received}");
    let init = |version: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        )
    };
    let initialized = |version: &str| Answer::Result {
        id: json!(1),
        result: json!({
            "protocolVersion": version,
            "capabilities": { "tools": { "listChanged": true }, "logging": {} },
            "serverInfo": { "name": "fixture", "version": "1.0.0" }
        }),
        schema: "InitializeResult",
    };
    let sleeping = r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"sleep","arguments":{"ms":400}}}"#;
    let unsupported = |requested: &str| {
        err_data(
            1,
            -32022,
            "Unsupported protocol version",
            json!({ "supported": SUPPORTED, "requested": requested }),
        )
    };

    vec![
        // Bytes that are not JSON.
        case("invalid UTF-8 alone", Fresh, b"\xff\xfe", parse_error("the message is not valid UTF-8")),
        case("invalid UTF-8 in a string", V1125, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"\xff\"}}}", parse_error("the message is not valid UTF-8")),
        case("invalid UTF-8 in the method", Modern, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/l\xffist\",\"params\":{\"_meta\":$META}}", parse_error("the message is not valid UTF-8")),
        case("truncated JSON", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"pi"#, parse_error("EOF while parsing a string at line 1 column 36")),
        case("truncated after a member", V1125, r#"{"jsonrpc":"2.0","id":1,"#, parse_error("EOF while parsing a value at line 1 column 24")),
        case("a byte-order mark first", Fresh, b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", parse_error("expected value at line 1 column 1")),
        case("two messages on one line", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}"#, parse_error("trailing characters at line 1 column 41")),
        case("a raw tab in a string", V1125, echo("1", ",\"arguments\":{\"text\":\"a\tb\"}"), parse_error("control character (\\u0000-\\u001F) found while parsing a string at line 1 column 92")),
        case("single quotes", Fresh, "{'jsonrpc':'2.0'}", parse_error("key must be a string at line 1 column 2")),
        case("a blank line", V1125, "   ", NOTHING).http(400, parse_error("EOF while parsing a value at line 1 column 3")),
        case("an empty body", Fresh, "", parse_error("EOF while parsing a value at line 1 column 0")).http_only(),

        // JSON that is not an object.
        case("a number", Fresh, "42", not_a_message("a number")),
        case("a string", V1125, r#""ping""#, not_a_message("a string")),
        case("null", Modern, "null", not_a_message("null")),
        case("true", Fresh, "true", not_a_message("a boolean")),
        case("an array of numbers before initialize", Fresh, "[1,2,3]", batch_refused(None)),
        case("an array of numbers in 2025-03-26", V0326, "[1,2]", Answer::Batch(vec![not_a_message("a number"), not_a_message("a number")])),
        case("an empty object", Fresh, "{}", err(NULL, -32600, "`jsonrpc` is missing; it must be \"2.0\"")),

        // Batches.
        case("a batch in 2025-06-18", V0618, r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, batch_refused(Some("2025-06-18"))),
        case("a batch in 2025-11-25", V1125, r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, batch_refused(Some("2025-11-25"))),
        case("a batch before initialize", Fresh, r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, batch_refused(None)),
        case("a batch of 2026-07-28 requests", Modern, r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":$META}}]"#, batch_refused(None)),
        case("an empty batch before initialize", Fresh, "[]", batch_refused(None)),
        case("an empty batch in 2025-03-26", V0326, "[]", err(NULL, -32600, "an empty batch is not a request")),
        case("a batch of notifications only", V0326, r#"[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]"#, NOTHING),
        case("a batch of good and bad", V0326, r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},42,{"jsonrpc":"1.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#, Answer::Batch(vec![empty(1), not_a_message("a number"), err(2, -32600, r#"`jsonrpc` must be "2.0", not "1.0""#), not_served(3, "nope", "2025-03-26")])),
        case("a batch inside a batch", V0326, r#"[[{"jsonrpc":"2.0","id":1,"method":"ping"}]]"#, Answer::Batch(vec![not_a_message("an array")])),
        case("10,000 nested arrays in 2025-03-26", V0326, &deep, Answer::Batch(vec![not_a_message("an array")])),

        // `jsonrpc`.
        case("`jsonrpc` missing", V1125, r#"{"id":1,"method":"ping"}"#, err(1, -32600, r#"`jsonrpc` is missing; it must be "2.0""#)),
        case("`jsonrpc`: \"1.0\"", V1125, r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, err(1, -32600, r#"`jsonrpc` must be "2.0", not "1.0""#)),
        case("`jsonrpc`: 2", Modern, r#"{"jsonrpc":2,"id":1,"method":"tools/list","params":{"_meta":$META}}"#, err(1, -32600, r#"`jsonrpc` must be "2.0", not 2"#)),
        case("`jsonrpc`: null", V0618, r#"{"jsonrpc":null,"id":"a","method":"ping"}"#, err("a", -32600, r#"`jsonrpc` must be "2.0", not null"#)),
        case("`jsonrpc` twice", V1125, r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#, err(NULL, -32600, "invalid request: duplicate field `jsonrpc`")),

        // Ids of every JSON type.
        case("id: null", V1125, r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, bad_id("null")),
        case("id: 1.5", V1125, r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, bad_id("1.5")),
        case("id: 1e3", Modern, r#"{"jsonrpc":"2.0","id":1e3,"method":"tools/list","params":{"_meta":$META}}"#, bad_id("1e3")),
        case("id: 2^64", V1125, r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#, bad_id("18446744073709551616")),
        case("id: -2^63-1", V1125, r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}"#, bad_id("-9223372036854775809")),
        case("id: an object", Modern, r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list","params":{"_meta":$META}}"#, bad_id(r#"{"a":1}"#)),
        case("id: an array", V1125, r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, bad_id("[1]")),
        case("id: true", V1125, r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, bad_id("true")),
        case("id given twice", V1125, r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#, err(NULL, -32600, "invalid request: duplicate field `id`")),
        case("id: a string", V1125, r#"{"jsonrpc":"2.0","id":"req-1","method":"ping"}"#, empty("req-1")),
        case("id: an empty string", Modern, echo(r#""""#, r#","_meta":$META,"arguments":{"text":"e"}"#), text("", "e")),
        case("id: a negative integer", V1125, r#"{"jsonrpc":"2.0","id":-7,"method":"ping"}"#, empty(-7)),
        case("id: 0", V1125, r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#, empty(0)),
        case("id: 2^63-1", Modern, echo("9223372036854775807", r#","_meta":$META,"arguments":{"text":"max"}"#), text(i64::MAX, "max")),
        case("id: a lone surrogate while id 0 is in flight", V1125, echo(r#""\ud800""#, r#","arguments":{"text":"s"}"#), Answer::Raw(r#"{"jsonrpc":"2.0","id":"\ud800","result":{"content":[{"type":"text","text":"s"}]}}"#.to_owned()))
            .in_flight(r#"{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":400}}}"#, text(0, "slept 400 ms")),

        // Duplicate ids in flight.
        case("an id already in flight", V1125, echo(r#""x""#, r#","arguments":{"text":"dup"}"#), err("x", -32600, r#"request id "x" is already in use by a request in flight; use a new id"#))
            .in_flight(sleeping, text("x", "slept 400 ms")),
        case("an id already in flight, 2026-07-28", Modern, echo(r#""x""#, r#","_meta":$META,"arguments":{"text":"dup"}"#), err("x", -32600, r#"request id "x" is already in use by a request in flight; use a new id"#))
            .in_flight(&sleeping.replace(r#""name""#, r#""_meta":$META,"name""#), text("x", "slept 400 ms"))
            .http(200, text("x", "dup")), // each POST stands alone
        case("id \"1\" while id 1 is in flight", V1125, echo(r#""1""#, r#","arguments":{"text":"other"}"#), text("1", "other"))
            .in_flight(&sleep(r#"{"ms":400}"#), text(1, "slept 400 ms")),

        // Notifications with ids, and other messages that are not requests.
        case("notifications/initialized with an id", V1125, r#"{"jsonrpc":"2.0","id":5,"method":"notifications/initialized"}"#, not_served(5, "notifications/initialized", "2025-11-25")),
        case("notifications/initialized with an id, before initialize", Fresh, r#"{"jsonrpc":"2.0","id":5,"method":"notifications/initialized"}"#, needs_revision(5, "notifications/initialized")).status(400),
        case("notifications/cancelled with an id, 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":5,"method":"notifications/cancelled","params":{"_meta":$META,"requestId":1}}"#, not_served(5, "notifications/cancelled", MODERN)),
        case("a notification whose params are a string", V1125, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#, err(NULL, -32600, "`params` must be an object, not a string")),
        case("a notification of an unknown method", V1125, r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":{"a":1}}"#, NOTHING),
        case("a cancellation of no request", V1125, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}"#, NOTHING),
        case("a cancellation with a bad requestId", V1125, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}"#, NOTHING),
        case("a response from the client", V1125, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, NOTHING),

        // Methods.
        case("an unknown method", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"foo/bar"}"#, not_served(1, "foo/bar", "2025-11-25")),
        case("an unknown method, 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{"_meta":$META}}"#, not_served(1, "foo/bar", MODERN)),
        case("resources/list, which the server does not serve", V0618, r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, err(1, -32601, "method `resources/list` is not served: this server has no resources")),
        case("ping in 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":$META}}"#, not_served(1, "ping", MODERN)),
        case("`method`: 7", V1125, r#"{"jsonrpc":"2.0","id":1,"method":7}"#, err(1, -32600, "`method` must be a string, not 7")),
        case("`method` missing", V1125, r#"{"jsonrpc":"2.0","id":1}"#, err(1, -32600, "`method` is missing")),
        case("`params`: an array", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#, err(1, -32600, "`params` must be an object, not an array")),
        case("`params`: a string, tools/call", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"echo"}"#, err(1, -32600, "`params` must be an object, not a string")),

        // Before initialization.
        case("tools/list before initialize", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, needs_revision(1, "tools/list")).status(400),
        case("tools/call before initialize", Fresh, echo("1", r#","arguments":{"text":"t"}"#), needs_revision(1, "tools/call")).status(400),
        case("logging/setLevel before initialize", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#, needs_revision(1, "logging/setLevel")).status(400),
        case("resources/list before initialize", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, needs_revision(1, "resources/list")).status(400),
        case("server/discover without _meta", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#, needs_revision(1, "server/discover")).status(400),
        case("ping before initialize", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, empty(1)),
        case("initialize without params", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#, err(1, -32602, "invalid `initialize` params: missing field `protocolVersion`")),
        case("initialize twice", V1125, init("2025-11-25"), err(1, -32600, "the connection is already initialized with protocol revision 2025-11-25"))
            .http(200, initialized("2025-11-25")), // over HTTP `initialize` opens another session

        // tools/call params.
        case("tools/call without a name", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#, err(1, -32602, "invalid params: missing field `name`")),
        case("tools/call without a name, 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":$META}}"#, err(1, -32602, "invalid params: missing field `name`")),
        case("tools/call with a numeric name", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#, err(1, -32602, "invalid params: invalid type: integer `5`, expected a string")),
        case("tools/call with a null name, 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":$META,"name":null}}"#, err(1, -32602, "invalid params: invalid type: null, expected a string")),
        case("tools/call of an unknown tool", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#, err(1, -32602, "Unknown tool: nope")),
        case("arguments: a string", V1125, echo("1", r#","arguments":"text""#), tool_error(1, r#"the arguments must be a JSON object such as {"text": ...}; received the string "text""#)),
        case("arguments: an array", Modern, echo("1", r#","_meta":$META,"arguments":["t"]"#), tool_error(1, r#"the arguments must be a JSON object such as {"text": ...}; received an array"#)),
        case("arguments: a number", V0618, echo("1", r#","arguments":5"#), tool_error(1, r#"the arguments must be a JSON object such as {"text": ...}; received the number 5"#)),
        case("arguments: null", V1125, echo("1", r#","arguments":null"#), tool_error(1, "argument `text` is missing: expected a string")),
        case("arguments given twice", V1125, echo("1", r#","arguments":{"text":"a","text":"b"}"#), tool_error(1, "argument `text` is given twice; give it once")),
        case("arguments holding 1e400, params first", V1125, r#"{"jsonrpc":"2.0","id":1,"params":{"name":"echo","arguments":[1e400]},"method":"tools/call"}"#, err(1, -32602, "invalid params: number out of range")),
        case("arguments holding 1e400, method first", V1125, echo("1", r#","arguments":[1e400]"#), err(1, -32602, "invalid params: number out of range")),
        case("`name` twice, method first", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"echo"}}"#, err(1, -32602, "invalid params: duplicate field `name`")),

        // Deep nesting (serde_json stops recursing at 128 levels).
        case("10,000 nested arrays before initialize", Fresh, &deep, batch_refused(None)),
        case("10,000 nested arrays in 2025-11-25", V1125, &deep, batch_refused(Some("2025-11-25"))),
        case("10,000 nested objects", V1125, &deep_objects, err(NULL, -32600, r#"`jsonrpc` is missing; it must be "2.0""#)),
        case("10,000 nested arrays in unknown params", V1125, format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":{deep}}}}}"#), empty(1)),
        case("10,000 nested arrays as the arguments", V1125, echo("1", &format!(r#","arguments":{deep}"#)), err(1, -32602, "invalid params: recursion limit exceeded")),
        case("10,000 nested arrays as an argument", V1125, echo("1", &format!(r#","arguments":{{"text":{deep}}}"#)), tool_error(1, "argument `text`: expected a string, received an array")),
        case("120 nested arrays as an unknown argument", Modern, echo("1", &format!(r#","_meta":$META,"arguments":{{"text":"t","deep":{}}}"#, nested("[", "", "]", 120))), tool_error(1, unknown_argument)),
        case("10,000 nested arrays in clientCapabilities", Fresh, format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"x":{deep}}}}}}}}}"#), err(1, -32602, "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is nested too deeply"))
            .status(400)
            // This test's client derives the headers from a body it cannot read this deep.
            .http(400, err(1, -32020, "Header mismatch: the MCP-Protocol-Version header is required and must be '2026-07-28'")),

        // Size.
        case("a message of exactly the limit", V1125, at_limit, text(1, at_limit_text)),
        // The refusal answers the request when its id can be found: anywhere in a line,
        // which streams past; in what was read of a body, which is not read past the limit.
        case("a message one byte over the limit", V1125, over_limit, too_long(1, LIMIT + 1))
            .http(413, err(1, -32600, format!("the body is {} bytes long; this server accepts bodies of up to {LIMIT} bytes", LIMIT + 1))),
        case("a 1 MiB message", Modern, megabyte, too_long(1, 1 << 20))
            .http(413, err(1, -32600, format!("the body is {} bytes long; this server accepts bodies of up to {LIMIT} bytes", 1 << 20))),
        case("a 1 MiB message with its id last", V1125, &id_last, too_long("last", id_last.len()))
            .http(413, err(NULL, -32600, format!("the body is {} bytes long; this server accepts bodies of up to {LIMIT} bytes", id_last.len()))),
        case("a 1 MiB notification", V1125, &notification_mb, too_long(NULL, notification_mb.len()))
            .http(413, err(NULL, -32600, format!("the body is {} bytes long; this server accepts bodies of up to {LIMIT} bytes", notification_mb.len()))),
        case("a line ending in CRLF", V1125, echo("1", r#","arguments":{"text":"crlf"}"#) + "\r", text(1, "crlf")),

        // Numbers and strings in the wrong place.
        case("u64 argument: -1", V1125, sleep(r#"{"ms":-1}"#), tool_error(1, ms("the number -1"))),
        case("u64 argument: 1e400", V1125, sleep(r#"{"ms":1e400}"#), tool_error(1, "argument `ms`: number out of range")),
        case("u64 argument: 2^64", Modern, sleep(r#"{"ms":18446744073709551616}"#).replace(r#""name""#, r#""_meta":$META,"name""#), tool_error(1, ms("the number 1.8446744073709552e+19"))),
        case("u64 argument: 1.5", V1125, sleep(r#"{"ms":1.5}"#), tool_error(1, ms("the number 1.5"))),
        case("u64 argument: 1e2", V0618, sleep(r#"{"ms":1e2}"#), tool_error(1, ms("the number 100.0"))),
        case("u64 argument: a string", V1125, sleep(r#"{"ms":"100"}"#), tool_error(1, ms(r#"the string "100""#))),
        case("string argument: a number", V1125, echo("1", r#","arguments":{"text":5}"#), tool_error(1, "argument `text`: expected a string, received the number 5")),
        case("string argument: a boolean", Modern, echo("1", r#","_meta":$META,"arguments":{"text":true}"#), tool_error(1, "argument `text`: expected a string, received true")),

        // Unknown members, accepted.
        case("an unknown envelope member", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":{"a":[1,2]}}"#, empty(1)),
        case("an unknown envelope member, 2026-07-28", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","extra":[true],"params":{"_meta":$META,"name":"echo","arguments":{"text":"t"}}}"#, text(1, "t")),
        case("an unknown params member", V1125, echo("1", r#","arguments":{"text":"t"},"color":"red""#), text(1, "t")),
        case("an unknown params member named `uri`", V1125, echo("1", r#","arguments":{"text":"t"},"uri":5"#), text(1, "t")),
        case("an unknown params member named `uri`, 2026-07-28", Modern, echo("1", r#","_meta":$META,"arguments":{"text":"t"},"uri":5"#), text(1, "t")),
        case("unknown _meta keys", V1125, echo("1", r#","_meta":{"com.example/trace":"abc","progressToken":null},"arguments":{"text":"t"}"#), text(1, "t")),
        case("unknown _meta keys, 2026-07-28", Modern, echo("1", r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"com.example/x":{}},"com.example/trace":"abc"},"arguments":{"text":"t"}"#), text(1, "t")),
        case("`_meta`: a number", V1125, echo("1", r#","_meta":5,"arguments":{"text":"t"}"#), err(1, -32602, "invalid params: invalid type: integer `5`, expected struct RequestMeta")),
        case("logging/setLevel: an unknown level", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"loud"}}"#, err(1, -32602, "invalid params: unknown variant `loud`, expected one of `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`, `emergency`")),
        case("tools/list: a numeric cursor", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}}"#, err(1, -32602, "invalid params: invalid type: integer `5`, expected a string")),
        case("tools/list: a foreign cursor", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":$META,"cursor":"abc"}}"#, err(1, -32602, "Invalid cursor")),

        // Protocol versions.
        case("initialize with 1999-01-01", Fresh, init("1999-01-01"), initialized("2025-11-25")),
        case("initialize with 2026-07-28", Fresh, init(MODERN), initialized("2025-11-25")),
        case("initialize with a numeric version", Fresh, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":20250618}}"#, err(1, -32602, "invalid `initialize` params: invalid type: integer `20250618`, expected a string")),
        case("_meta revision 2099-01-01", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#, unsupported("2099-01-01")),
        case("_meta revision a number", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}}"#, unsupported("20260728")),
        case("_meta revision 2025-06-18 without initialize", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}}}"#, err(1, -32602, "protocol revision 2025-06-18 is served after the `initialize` handshake; send `initialize`, or use revision 2026-07-28 per request")).status(400),
        case("_meta without clientCapabilities", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#, err(1, -32602, "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is required in revision 2026-07-28 (send `{}` for none)")).status(400),
        case("clientCapabilities: a number", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":5}}}"#, err(1, -32602, "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` must be an object")).status(400),
        case("MCP-Protocol-Version header mismatch", Modern, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":$META}}"#, err(1, -32020, "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'"))
            .header("mcp-protocol-version", "2025-11-25").http_only(),
        case("Mcp-Name header mismatch", Modern, echo("1", r#","_meta":$META,"arguments":{"text":"t"}"#), err(1, -32020, "Header mismatch: Mcp-Name header value 'sleep' does not match body value 'echo'"))
            .header("mcp-name", "sleep").http_only(),
        case("MCP-Protocol-Version header another revision of the session's era", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, empty(1))
            .header("mcp-protocol-version", "2025-03-26").http_only(),
        case("MCP-Protocol-Version header unsupported", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, err(1, -32600, "the MCP-Protocol-Version header says 1999-01-01, a revision this server does not support; a session accepts 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"))
            .header("mcp-protocol-version", "1999-01-01").http_only(),
        case("MCP-Protocol-Version header 2026-07-28 in a session", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, err(1, -32600, "the MCP-Protocol-Version header says 2026-07-28, a revision without sessions, whose requests name it in `_meta`; a session accepts 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"))
            .header("mcp-protocol-version", MODERN).http_only(),
        case("an unknown session", V1125, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, err(NULL, -32600, "the session does not exist or has ended; send `initialize` without a session id to start a new one"))
            .header("mcp-session-id", "0123456789abcdef0123456789abcdef").status(404).http_only(),
    ]
}

// ---------------------------------------------------------------------------------------
// Checking what the server sends.

fn identity() -> Value {
    json!({ "io.modelcontextprotocol/serverInfo": { "name": "fixture", "version": "1.0.0" } })
}

/// The whole message an answer stands for, in a session's era.
fn expected(answer: &Answer, session: Session) -> Value {
    match answer {
        Answer::Error {
            id,
            code,
            message,
            data,
        } => {
            let mut error = json!({ "code": code, "message": message });
            if let Some(data) = data {
                error["data"] = data.clone();
            }
            json!({ "jsonrpc": "2.0", "id": id, "error": error })
        }
        Answer::Call { id, text, is_error } => {
            let mut result = json!({ "content": [{ "type": "text", "text": text }] });
            if *is_error {
                result["isError"] = json!(true);
            }
            if session == Modern {
                result["resultType"] = json!("complete");
                result["_meta"] = identity();
            }
            json!({ "jsonrpc": "2.0", "id": id, "result": result })
        }
        Answer::Result { id, result, .. } => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Answer::Batch(_) | Answer::Raw(_) | Answer::Nothing => unreachable!("not one message"),
    }
}

/// Asserts that a message is the answer expected, and valid in the session's revision.
fn check(answer: &Answer, session: Session, got: &Value) {
    let Answer::Batch(answers) = answer else {
        assert_eq!(*got, expected(answer, session));
        validate(answer, session, got);
        return;
    };
    let got = got
        .as_array()
        .unwrap_or_else(|| panic!("expected a batch response, got {got}"));
    assert_eq!(got.len(), answers.len(), "{got:?}");
    let mut left: Vec<&Value> = got.iter().collect();
    for answer in answers {
        let want = expected(answer, session);
        let at = left
            .iter()
            .position(|m| **m == want)
            .unwrap_or_else(|| panic!("{want} is not in the batch response {got:?}"));
        validate(answer, session, left.remove(at));
    }
    if got.iter().all(|m| !m["id"].is_null()) {
        Spec::of(session.revision()).assert_valid("JSONRPCBatchResponse", &Value::Array(got.clone()));
    }
}

fn validate(answer: &Answer, session: Session, message: &Value) {
    let revision = session.revision();
    let spec = Spec::of(revision);
    let response = |kind: &str| match kind {
        "result" if spec.defines("JSONRPCResultResponse") => "JSONRPCResultResponse",
        "error" if spec.defines("JSONRPCErrorResponse") => "JSONRPCErrorResponse",
        "error" if spec.defines("JSONRPCError") => "JSONRPCError",
        _ => "JSONRPCResponse",
    };
    if let Some(error) = message.get("error") {
        if message["id"].is_null() {
            // JSON-RPC answers an unreadable id with `null`, which the MCP schemas do not
            // model: the error object is what can be checked.
            let spec = if spec.defines("Error") {
                spec
            } else {
                Spec::of("2025-11-25")
            };
            spec.assert_valid("Error", error);
            return;
        }
        spec.assert_valid(response("error"), message);
        if session == Modern {
            match error["code"].as_i64() {
                Some(-32700) => spec.assert_valid("ParseError", error),
                Some(-32600) => spec.assert_valid("InvalidRequestError", error),
                Some(-32601) => spec.assert_valid("MethodNotFoundError", error),
                Some(-32602) => spec.assert_valid("InvalidParamsError", error),
                Some(-32020) => spec.assert_valid("HeaderMismatchError", message),
                Some(-32022) => spec.assert_valid("UnsupportedProtocolVersionError", message),
                _ => {}
            }
        }
        return;
    }
    spec.assert_valid(response("result"), message);
    match answer {
        Answer::Call { .. } if session == Modern => spec.assert_valid("CallToolResultResponse", message),
        Answer::Call { .. } => spec.assert_valid("CallToolResult", &message["result"]),
        Answer::Result { schema, .. } => spec.assert_valid(schema, &message["result"]),
        _ => panic!("an unexpected result: {message}"),
    }
}

/// The good request that follows every case, and its answer.
fn next_request(session: Session) -> (Value, Answer) {
    let mut params = json!({ "name": "echo", "arguments": { "text": "next" } });
    if next_session(session) == Modern {
        params["_meta"] = modern_meta(json!({}));
    }
    let request = json!({ "jsonrpc": "2.0", "id": "next", "method": "tools/call", "params": params });
    (request, text("next", "next"))
}

/// The era the follow-up is answered in.
fn next_session(session: Session) -> Session {
    match session {
        Legacy(_) => session,
        Fresh | Modern => Modern,
    }
}

// ---------------------------------------------------------------------------------------
// stdio: the fixture, a process per case.

fn over_stdio(case: &Case) {
    let mut peer = Peer::spawn(FIXTURE);
    if let Legacy(revision) = case.session {
        let init = initialize(&mut peer, revision);
        assert_eq!(init["result"]["protocolVersion"], revision);
    }
    if let Some((request, _)) = &case.in_flight {
        peer.send_bytes(request);
    }
    peer.send_bytes(&case.send);
    receive(&mut peer, &case.answer, case.session);
    if let Some((_, answer)) = &case.in_flight {
        receive(&mut peer, answer, case.session);
    }
    // The next good request is answered, and is the next thing the server says.
    let (request, answer) = next_request(case.session);
    let next = peer.request(request);
    check(&answer, next_session(case.session), &next);
    let (status, rest) = peer.finish();
    assert!(status.success(), "{status}");
    assert!(rest.is_empty(), "nothing more: {rest:?}");
}

fn receive(peer: &mut Peer, answer: &Answer, session: Session) {
    match answer {
        Answer::Nothing => {}
        Answer::Raw(line) => assert_eq!(peer.recv_line(), *line),
        answer => check(answer, session, &peer.recv()),
    }
}

// ---------------------------------------------------------------------------------------
// HTTP: the same tools, in-process.

struct Endpoint {
    url: String,
    client: reqwest::Client,
    stop: tokio::sync::oneshot::Sender<()>,
}

impl Endpoint {
    async fn start() -> Endpoint {
        let server = Server::new("fixture", "1.0.0")
            .limits(Limits::default().max_message_size(LIMIT))
            .tools(tools![echo, sleep]);
        let http = server.bind_http("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", http.local_addr());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(http.run_until(async move {
            let _ = stopped.await;
        }));
        Endpoint {
            url,
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            stop,
        }
    }

    /// A POST of `body` in a case's session, with the headers a good client sends and the
    /// case's own over them.
    fn post(
        &self,
        session: Session,
        session_id: Option<&str>,
        case: &Case,
        body: &[u8],
    ) -> reqwest::RequestBuilder {
        let mut headers: Vec<(&str, String)> = vec![
            ("content-type", "application/json".into()),
            ("accept", "application/json, text/event-stream".into()),
        ];
        if let (Legacy(revision), Some(id)) = (session, session_id) {
            headers.push(("mcp-session-id", id.to_owned()));
            headers.push(("mcp-protocol-version", revision.to_owned()));
        }
        if session == Modern {
            headers.extend(modern_headers(body));
        }
        for (name, value) in &case.headers {
            headers.retain(|(n, _)| n != name);
            headers.push((name, (*value).to_owned()));
        }
        let mut request = self.client.post(&self.url).body(body.to_vec());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        request
    }

    /// `initialize` for a legacy revision; returns the session id.
    async fn initialize(&self, revision: &str) -> String {
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .json(&json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": { "protocolVersion": revision, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
            }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let initialized = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", revision)
            .json(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .send()
            .await
            .unwrap();
        assert_eq!(initialized.status(), StatusCode::ACCEPTED);
        session
    }
}

/// The 2026-07-28 headers that repeat a body, as far as it can be read.
fn modern_headers(body: &[u8]) -> Vec<(&'static str, String)> {
    let mut headers = vec![("mcp-protocol-version", MODERN.to_owned())];
    let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(body) else {
        return headers;
    };
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    if let Some(version) = params["_meta"].get("io.modelcontextprotocol/protocolVersion") {
        headers[0].1 = version
            .as_str()
            .map_or_else(|| version.to_string(), str::to_owned);
    }
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        headers.push(("mcp-method", method.to_owned()));
        if let Some(name) = params["name"].as_str().filter(|_| method == "tools/call") {
            headers.push(("mcp-name", name.to_owned()));
        }
    }
    headers
}

async fn over_http(endpoint: Arc<Endpoint>, case: Case) {
    let session_id = match case.session {
        Legacy(revision) => Some(endpoint.initialize(revision).await),
        Fresh | Modern => None,
    };
    let session_id = session_id.as_deref();
    let in_flight = case.in_flight.as_ref().map(|(request, answer)| {
        let request = endpoint.post(case.session, session_id, &case, request).send();
        (tokio::spawn(request), answer)
    });
    if in_flight.is_some() {
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let (status, answer) = case.over_http();
    let response = endpoint
        .post(case.session, session_id, &case, &case.send)
        .send()
        .await
        .unwrap();
    expect(response, status, &answer, case.session).await;
    if let Some((request, answer)) = in_flight {
        let response = request.await.unwrap().unwrap();
        expect(response, 200, answer, case.session).await;
    }
    // The next good request in the same session (or, stateless, from the same client).
    let (request, answer) = next_request(case.session);
    let plain = Case {
        headers: Vec::new(),
        ..case.clone()
    };
    let session = next_session(case.session);
    let response = endpoint
        .post(session, session_id, &plain, request.to_string().as_bytes())
        .send()
        .await
        .unwrap();
    expect(response, 200, &answer, session).await;
}

async fn expect(response: reqwest::Response, status: u16, answer: &Answer, session: Session) {
    let got_status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = response.text().await.unwrap();
    assert_eq!(got_status, status, "the status, with the body {body}");
    match answer {
        Answer::Nothing => assert_eq!(body, "", "no body"),
        Answer::Raw(text) => assert_eq!(body, *text),
        answer => {
            assert_eq!(content_type.as_deref(), Some("application/json"));
            let value: Value =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
            check(answer, session, &value);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running the matrix.

/// Runs cases over a transport, each on its own, and fails naming every case that failed.
fn run(transport: Transport, cases: Vec<Case>) {
    assert!(!cases.is_empty(), "no case to run");
    let mut failed = Vec::new();
    match transport {
        Transport::Stdio => {
            for case in &cases {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| over_stdio(case)));
                if outcome.is_err() {
                    failed.push(case.name);
                }
            }
        }
        Transport::Http => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let endpoint = Arc::new(Endpoint::start().await);
                for case in &cases {
                    let outcome = tokio::spawn(over_http(Arc::clone(&endpoint), case.clone())).await;
                    if outcome.is_err() {
                        failed.push(case.name);
                    }
                }
                if let Ok(endpoint) = Arc::try_unwrap(endpoint) {
                    let _ = endpoint.stop.send(());
                }
            });
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases failed over {transport:?}: {failed:#?}",
        failed.len(),
        cases.len()
    );
}

fn matrix(transport: Transport) -> Vec<Case> {
    cases().into_iter().filter(|c| c.runs_over(transport)).collect()
}

#[test]
fn the_matrix_is_well_formed() {
    let all = cases();
    let mut names: Vec<&str> = all.iter().map(|c| c.name).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "case names are unique");
    let stdio = all.iter().filter(|c| c.runs_over(Transport::Stdio)).count();
    let http = all.iter().filter(|c| c.runs_over(Transport::Http)).count();
    assert!(stdio >= 60 && http >= 60, "{stdio} stdio and {http} HTTP cases");
}

#[test]
fn every_case_over_stdio() {
    run(Transport::Stdio, matrix(Transport::Stdio));
}

#[test]
fn every_case_over_http() {
    run(Transport::Http, matrix(Transport::Http));
}

/// A 100 MB line is skipped as it streams past: the server's memory stays far below it,
/// its answer names the size and the limit, and the next request is served.
#[test]
fn a_100_mb_line_is_refused_without_being_buffered() {
    const SIZE: usize = 100 * 1024 * 1024;
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    let pid = peer.child().id();
    let before = peak_memory(pid);
    let mut stdin = peer.take_stdin();
    let writer = std::thread::spawn(move || {
        let head =
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""#;
        let tail = br#""}}}"#;
        let chunk = vec![b'x'; 1 << 20];
        stdin.write_all(head).unwrap();
        let mut left = SIZE - head.len() - tail.len();
        while left > 0 {
            let n = left.min(chunk.len());
            stdin.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
        stdin.write_all(tail).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        stdin
    });
    let refused = peer.recv();
    peer.give_back_stdin(writer.join().unwrap());
    check(&too_long(1, SIZE), V1125, &refused);
    if let (Some(before), Some(after)) = (before, peak_memory(pid)) {
        assert!(
            after < 32 << 20 && after.saturating_sub(before) < 4 << 20,
            "peak RSS went from {before} to {after} bytes"
        );
    }
    let next = peer.request(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "small" } } }));
    check(&text(2, "small"), V1125, &next);
}

/// A process's peak resident memory (`VmHWM`), where `/proc` has it.
fn peak_memory(pid: u32) -> Option<usize> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// 10,000 nested arrays in a 2025-03-26 session once recursed through the batch handling
/// until the stack overflowed and the process aborted: an HTTP server dies for every
/// client, so this one runs the calculator as its own process.
#[test]
fn nested_batches_do_not_bring_an_http_server_down() {
    let server = support::HttpProcess::spawn(env!("CARGO_BIN_EXE_calculator"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let post = |session: Option<&str>, body: String| {
            let mut request = client
                .post(&server.url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .body(body);
            if let Some(session) = session {
                request = request.header("mcp-session-id", session);
            }
            request.send()
        };
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let response = post(None, init.to_owned()).await.expect("initialize is answered");
        let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let deep = post(Some(&session), nested("[", "", "]", 10_000)).await;
        let next = post(
            Some(&session),
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_owned(),
        )
        .await;
        (deep.map(|r| r.status()), next.map(|r| r.status()))
    });
    let (deep, next) = outcome;
    assert_eq!(deep.ok(), Some(StatusCode::OK), "the nested batch is answered");
    assert_eq!(next.ok(), Some(StatusCode::OK), "and the server goes on");
}

/// Values of the client's, a hundred kilobytes to a megabyte long, where an error would
/// quote them: the answer is still a proper error (or a tool's error result), and under
/// 2 KB whatever the client sent: each value is quoted to at most 200 characters. The notes
/// example, over pipes, in both eras; it serves on afterwards.
#[test]
fn an_error_quotes_at_most_a_little_of_a_huge_value() {
    const NOTES: &str = env!("CARGO_BIN_EXE_notes");
    let big = "a".repeat(100_000);
    let huge = "a".repeat(1_000_000);
    let reference =
        |reference: Value| json!({ "ref": reference, "argument": { "name": "id", "value": "1" } });
    let legacy: Vec<(&str, &str, Value)> = vec![
        (
            "a tool's name",
            "tools/call",
            json!({ "name": big, "arguments": {} }),
        ),
        (
            "an argument's name",
            "tools/call",
            json!({ "name": "add_note", "arguments": { "title": "t", "body": "b", &big: 1 } }),
        ),
        ("a resource's URI", "resources/read", json!({ "uri": big })),
        (
            "a result's id",
            "resources/read",
            json!({ "uri": format!("mcp-result://{big}/1") }),
        ),
        (
            "a subscription's URI",
            "resources/subscribe",
            json!({ "uri": big }),
        ),
        ("a log level", "logging/setLevel", json!({ "level": big })),
        ("a prompt's name", "prompts/get", json!({ "name": big })),
        ("a cursor", "tools/list", json!({ "cursor": big })),
        (
            "a skill's URI",
            "skills/get",
            json!({ "uri": format!("skill://{huge}") }),
        ),
        ("a method", &big, json!({})),
    ];
    let modern: Vec<(&str, &str, Value)> = vec![
        (
            "a tool's name",
            "tools/call",
            json!({ "name": big, "arguments": {} }),
        ),
        (
            "inputResponses",
            "tools/call",
            json!({ "name": "clear_notes", "arguments": {}, "inputResponses": big }),
        ),
        (
            "requestState",
            "tools/call",
            json!({ "name": "clear_notes", "arguments": {}, "requestState": big }),
        ),
        ("a resource's URI", "resources/read", json!({ "uri": big })),
        (
            "a result's id",
            "resources/read",
            json!({ "uri": format!("mcp-result://{big}/1") }),
        ),
        (
            "a result's page",
            "resources/read",
            json!({ "uri": format!("mcp-result://{}/{big}", "0".repeat(32)) }),
        ),
        ("a prompt's name", "prompts/get", json!({ "name": big })),
        ("a cursor", "prompts/list", json!({ "cursor": big })),
        ("a task's id", "tasks/get", json!({ "taskId": big })),
        (
            "a task's inputResponses",
            "tasks/update",
            json!({ "taskId": "t", "inputResponses": big }),
        ),
        (
            "a skill's URI",
            "skills/get",
            json!({ "uri": format!("skill://{huge}") }),
        ),
        ("a directory", "resources/directory/read", json!({ "uri": big })),
        (
            "a prompt to complete",
            "completion/complete",
            reference(json!({ "type": "ref/prompt", "name": big })),
        ),
        (
            "a template to complete",
            "completion/complete",
            reference(json!({ "type": "ref/resource", "uri": big })),
        ),
        (
            "a reference's type",
            "completion/complete",
            reference(json!({ "type": big })),
        ),
        (
            "notifications to listen to",
            "subscriptions/listen",
            json!({ "notifications": big }),
        ),
        ("a method", &big, json!({})),
        (
            "a revision",
            "tools/list",
            json!({ "_meta": { "io.modelcontextprotocol/protocolVersion": big } }),
        ),
    ];
    let capabilities = json!({
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {},
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        }
    });
    // Before `initialize` and without a revision in `_meta`: a method alone.
    let fresh = vec![("a method", big.as_str(), json!({}))];
    for (revision, cases) in [("2025-11-25", legacy), (MODERN, modern), ("", fresh)] {
        let mut peer = Peer::spawn(NOTES);
        if revision == "2025-11-25" {
            initialize(&mut peer, revision);
        }
        let spec = Spec::of(if revision.is_empty() {
            "2025-11-25"
        } else {
            revision
        });
        for (id, (what, method, mut params)) in cases.into_iter().enumerate() {
            if revision == MODERN && params.get("_meta").is_none() {
                params["_meta"] = modern_meta(capabilities.clone());
            }
            peer.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
            let line = peer.recv_line();
            let shown = || format!("{revision}, {what}: {}…", &line[..line.len().min(400)]);
            assert!(line.len() < 2048, "{} bytes: {}", line.len(), shown());
            let answer: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(answer["id"], id, "{}", shown());
            if let Some(error) = answer.get("error") {
                assert!(
                    error["code"].is_i64() && error["message"].is_string(),
                    "{}",
                    shown()
                );
                let kind = if spec.defines("JSONRPCErrorResponse") {
                    "JSONRPCErrorResponse"
                } else {
                    "JSONRPCError"
                };
                spec.assert_valid(kind, &answer);
            } else {
                assert_eq!(answer["result"]["isError"], true, "{}", shown());
            }
        }
        let mut request = json!({ "jsonrpc": "2.0", "id": "next", "method": "tools/list", "params": {} });
        if revision != "2025-11-25" {
            request["params"]["_meta"] = modern_meta(json!({}));
        }
        let listed = peer.request(request);
        assert!(listed["result"]["tools"].is_array(), "{revision}: {listed}");
    }
}
