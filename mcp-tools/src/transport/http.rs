//! Streamable HTTP: one endpoint (default `/mcp`) serving both protocol eras, on axum.
//!
//! - **2026-07-28**: every POST stands alone. The `MCP-Protocol-Version`, `Mcp-Method` and
//!   `Mcp-Name` headers must match the body. A request runs on a connection of its own,
//!   cancelled if the client goes away. The answer is plain JSON, or an SSE stream when
//!   notifications come before it; `subscriptions/listen` keeps its stream open.
//! - **2025-03-26 to 2025-11-25**: `initialize` opens a session (`Mcp-Session-Id`, random);
//!   later POSTs carry it; GET opens the stream for unsolicited notifications; DELETE ends
//!   the session.
//!
//! Before any of that: `Host` and `Origin` are checked against an allow-list (DNS
//! rebinding), bodies are bounded, `Accept` and `Content-Type` are checked, and an optional
//! bearer-token hook decides who is calling.

// A refusal is the HTTP response itself; boxing it would only add an allocation.
#![allow(clippy::result_large_err)]

use crate::context::Principal;
use crate::engine::{Connection, Engine, Outbox, encode_error};
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{HEADER_MISMATCH, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";

/// Checks a bearer token: `Some(principal)` lets the request in.
pub(crate) type AuthHook =
    dyn Fn(String) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send>> + Send + Sync;

/// How the HTTP endpoint behaves; set through `Server`.
#[derive(Clone)]
pub(crate) struct HttpOptions {
    pub(crate) path: String,
    /// `Host` values accepted; `None`: the loopback names, unless the server listens on a
    /// non-loopback address, where any host is accepted.
    pub(crate) allowed_hosts: Option<Vec<String>>,
    /// `Origin` values accepted; `None`: loopback origins only. `"*"` accepts any.
    pub(crate) allowed_origins: Option<Vec<String>>,
    pub(crate) session_idle: Duration,
    pub(crate) auth: Option<Arc<AuthHook>>,
    /// The realm named in `WWW-Authenticate`.
    pub(crate) auth_realm: String,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            path: "/mcp".to_owned(),
            allowed_hosts: None,
            allowed_origins: None,
            session_idle: Duration::from_secs(30 * 60),
            auth: None,
            auth_realm: "mcp".to_owned(),
        }
    }
}

/// The state every request handler shares.
pub(crate) struct HttpApp {
    engine: Arc<Engine>,
    options: HttpOptions,
    /// Accept any `Host` (the server listens on a non-loopback address and no list was
    /// given).
    any_host: bool,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    shutdown: CancellationToken,
}

/// A legacy client's session.
struct Session {
    conn: Arc<Connection>,
    version: ProtocolVersion,
    last_used: Mutex<Instant>,
}

impl Session {
    fn close(&self) {
        self.conn.cancel_all();
        self.conn.set_unsolicited(None);
        // Ends subscriptions and the list-changed watcher.
        let conn = Arc::clone(&self.conn);
        tokio::spawn(async move { conn.close().await });
    }
}

/// The MCP endpoint as an axum router, and the handle that shuts it down.
pub(crate) fn router(engine: Arc<Engine>, options: HttpOptions, any_host: bool) -> (Router, Arc<HttpApp>) {
    let path = options.path.clone();
    let app = Arc::new(HttpApp {
        engine,
        options,
        any_host,
        sessions: Mutex::new(HashMap::new()),
        shutdown: CancellationToken::new(),
    });
    let endpoint = axum::routing::post(post).get(get).delete(delete);
    (
        Router::new().route(&path, endpoint).with_state(Arc::clone(&app)),
        app,
    )
}

impl HttpApp {
    /// Stops the streams that would otherwise stay open, so a graceful shutdown ends.
    pub(crate) fn shut_down(&self) {
        self.shutdown.cancel();
        let sessions: Vec<Arc<Session>> = self.sessions().drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.close();
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Host, Origin and bearer token; `Err` is the response that refuses the request.
    async fn admit(&self, headers: &HeaderMap) -> Result<Option<Arc<Principal>>, Response> {
        if !self.host_allowed(headers) {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "the Host header names a host this server does not serve",
            ));
        }
        if !self.origin_allowed(headers) {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "requests from this Origin are not allowed",
            ));
        }
        let Some(auth) = &self.options.auth else {
            return Ok(None);
        };
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim);
        let principal = match token {
            Some(token) if !token.is_empty() => auth(token.to_owned()).await,
            _ => None,
        };
        match principal {
            Some(principal) => Ok(Some(Arc::new(principal))),
            None => {
                let error = if token.is_some() {
                    ", error=\"invalid_token\""
                } else {
                    ""
                };
                let mut response = refuse(StatusCode::UNAUTHORIZED, "a valid bearer token is required");
                let challenge = format!("Bearer realm=\"{}\"{error}", self.options.auth_realm);
                if let Ok(value) = HeaderValue::from_str(&challenge) {
                    response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
                }
                Err(response)
            }
        }
    }

    fn host_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
            return true; // HTTP/1.0 without Host: nothing to rebind
        };
        match &self.options.allowed_hosts {
            Some(allowed) => allowed
                .iter()
                .any(|a| a == "*" || a.eq_ignore_ascii_case(host) || a.eq_ignore_ascii_case(hostname(host))),
            None => self.any_host || is_loopback_name(hostname(host)),
        }
    }

    fn origin_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN).and_then(|h| h.to_str().ok()) else {
            return true; // not a browser
        };
        match &self.options.allowed_origins {
            Some(allowed) => allowed.iter().any(|a| a == "*" || a.eq_ignore_ascii_case(origin)),
            None => origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && is_loopback_name(hostname(rest))
            }),
        }
    }

    /// How often `serve_http` looks for idle sessions: a quarter of the idle time, between
    /// 100 ms and a minute.
    pub(crate) fn sweep_period(&self) -> Duration {
        (self.options.session_idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60))
    }

    /// Closes sessions unused for longer than allowed. A session whose client still listens
    /// on its GET stream, or that has calls in flight, is in use.
    pub(crate) fn expire_sessions(&self) {
        let idle = self.options.session_idle;
        let expired: Vec<Arc<Session>> = {
            let mut sessions = self.sessions();
            let stale: Vec<String> = sessions
                .iter()
                .filter(|(_, s)| {
                    let unused = s
                        .last_used
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .elapsed();
                    unused > idle && !s.conn.is_busy()
                })
                .map(|(id, _)| id.clone())
                .collect();
            stale.iter().filter_map(|id| sessions.remove(id)).collect()
        };
        for session in expired {
            session.close();
        }
    }

    fn session(&self, headers: &HeaderMap) -> Result<Option<Arc<Session>>, Response> {
        let Some(id) = headers.get(SESSION_HEADER) else {
            return Ok(None);
        };
        let session = id.to_str().ok().and_then(|id| self.sessions().get(id).cloned());
        match session {
            Some(session) => {
                *session.last_used.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
                Ok(Some(session))
            }
            None => Err(refuse(
                StatusCode::NOT_FOUND,
                "the session does not exist or has ended; send `initialize` without a session id to start a new one",
            )),
        }
    }
}

/// The host part of a `Host` value or an origin's authority.
fn hostname(authority: &str) -> &str {
    let authority = authority.split('/').next().unwrap_or(authority);
    if authority.starts_with('[') {
        return authority.split_inclusive(']').next().unwrap_or(authority);
    }
    authority.rsplit_once(':').map_or(authority, |(host, _)| host)
}

fn is_loopback_name(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost") || host == "[::1]" || host.starts_with("127.")
}

/// A refusal before JSON-RPC: a status and a JSON-RPC error body with no id.
fn refuse(status: StatusCode, message: &str) -> Response {
    json_response(0, status, encode_error(None, INVALID_REQUEST, message))
}

/// A JSON response, recorded in the wire log under connection `conn` (0 for refusals made
/// before any connection exists).
fn json_response(conn: u64, status: StatusCode, body: Vec<u8>) -> Response {
    crate::wire_log::sent(conn, &body);
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn accepts(headers: &HeaderMap, mime: &str) -> bool {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return true; // no Accept: anything goes
    };
    let (kind, _) = mime.split_once('/').unwrap_or((mime, ""));
    accept.split(',').any(|range| {
        let range = range.split(';').next().unwrap_or("").trim();
        range == mime || range == "*/*" || range.strip_suffix("/*") == Some(kind)
    })
}

/// What the HTTP layer reads of a body to route it and check its headers.
#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<ProbeParams<'a>>,
}

/// Read leniently (a member of the wrong type, or given twice, is the engine's to report,
/// with the request's session and the status of any other params error).
#[derive(Default)]
struct ProbeParams<'a> {
    name: Option<&'a RawValue>,
    uri: Option<&'a RawValue>,
    meta: Option<&'a RawValue>,
}

impl<'de: 'a, 'a> Deserialize<'de> for ProbeParams<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = ProbeParams<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("params")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut params = ProbeParams::default();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    match &*key {
                        "name" => params.name = Some(value),
                        "uri" => params.uri = Some(value),
                        "_meta" => params.meta = Some(value),
                        _ => {}
                    }
                }
                Ok(params)
            }
        }
        deserializer.deserialize_map(Members)
    }
}

impl ProbeParams<'_> {
    /// The revision `_meta` names, if it is an object that names one.
    fn version(&self) -> Option<&RawValue> {
        let meta = serde_json::from_str::<ProbeMeta<'_>>(self.meta?.get()).ok()?;
        meta.version
    }
}

/// A member's text, when it is a string.
fn string_of(raw: Option<&RawValue>) -> Option<Cow<'_, str>> {
    serde_json::from_str(raw?.get()).ok()
}

#[derive(Deserialize, Default)]
struct ProbeMeta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow, default)]
    version: Option<&'a RawValue>,
}

async fn post(State(app): State<Arc<HttpApp>>, request: axum::extract::Request) -> Response {
    let (parts, body) = request.into_parts();
    let headers = parts.headers;
    // Known when the server was served with connect info, as `serve_http` does.
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let principal = match app.admit(&headers).await {
        Ok(principal) => principal,
        Err(refusal) => return refusal,
    };
    if !(accepts(&headers, "application/json") && accepts(&headers, "text/event-stream")) {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            "the Accept header must allow both `application/json` and `text/event-stream`",
        );
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
    if !json {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (`Content-Type: application/json`)",
        );
    }
    let limit = app.engine.options.max_message_bytes;
    let body = match axum::body::to_bytes(body, limit).await {
        Ok(body) => body,
        Err(_) => {
            // The size is known when the client declared it; a chunked body is not read to its
            // end to learn it.
            let declared = headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            let message = match declared {
                Some(bytes) => format!(
                    "the body is {bytes} bytes long; this server accepts bodies of up to {limit} bytes"
                ),
                None => format!("the body is longer than this server accepts ({limit} bytes)"),
            };
            return json_response(
                0,
                StatusCode::PAYLOAD_TOO_LARGE,
                encode_error(None, INVALID_REQUEST, &message),
            );
        }
    };
    let session = match app.session(&headers) {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };

    if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // A batch: only a 2025-03-26 session may send one; the engine says so otherwise.
        let conn = session
            .as_ref()
            .map_or_else(|| Arc::new(Connection::from_peer(peer)), |s| Arc::clone(&s.conn));
        return answer(&app, conn, &body, principal.as_ref(), Flow::Legacy).await;
    }
    let probe = match serde_json::from_slice::<Probe<'_>>(&body) {
        Ok(probe) => probe,
        Err(_) => {
            // Not JSON, or not a message: the engine words the error.
            let answered = answer(&app, Arc::new(Connection::new()), &body, None, Flow::Legacy).await;
            return with_status(answered, StatusCode::BAD_REQUEST);
        }
    };
    let params = probe.params.unwrap_or_default();
    let method = probe.method.as_deref().unwrap_or("");
    let modern_version = params.version();

    if let Some(version) = modern_version {
        if let Err(mismatch) = check_modern_headers(&headers, version, method, &params) {
            return json_response(
                0,
                StatusCode::BAD_REQUEST,
                encode_error(probe.id, HEADER_MISMATCH, &mismatch),
            );
        }
        if let Err(refusal) = app.engine.preflight(probe.id, method, body_params(&body)) {
            return json_response(0, StatusCode::BAD_REQUEST, refusal);
        }
        return answer(
            &app,
            Arc::new(Connection::from_peer(peer)),
            &body,
            principal.as_ref(),
            Flow::Modern,
        )
        .await;
    }
    if method == "initialize" && probe.id.is_some() {
        return initialize(&app, &body, principal.as_ref(), peer).await;
    }
    let Some(session) = session else {
        if probe.id.is_none() && probe.method.is_some() {
            return accepted(); // a notification outside any session concerns nothing
        }
        let answered = answer(&app, Arc::new(Connection::new()), &body, None, Flow::Legacy).await;
        if method == "ping" && probe.id.is_some() {
            return answered; // legacy clients may ping before `initialize`
        }
        // No revision and no session: the engine explains both ways in.
        return with_status(answered, StatusCode::BAD_REQUEST);
    };
    if session.version >= ProtocolVersion::V2025_06_18 {
        let sent = headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok());
        if sent != Some(session.version.as_str()) {
            let message = match sent {
                Some(sent) => format!(
                    "the MCP-Protocol-Version header says {sent}, but this session speaks {}",
                    session.version
                ),
                None => format!(
                    "the MCP-Protocol-Version header is required; this session speaks {}",
                    session.version
                ),
            };
            return json_response(
                0,
                StatusCode::BAD_REQUEST,
                encode_error(probe.id, INVALID_REQUEST, &message),
            );
        }
    }
    answer(
        &app,
        Arc::clone(&session.conn),
        &body,
        principal.as_ref(),
        Flow::Legacy,
    )
    .await
}

/// The params of a body already known to parse.
fn body_params(body: &[u8]) -> Option<&RawValue> {
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(borrow, default)]
        params: Option<&'a RawValue>,
    }
    serde_json::from_slice::<Params<'_>>(body)
        .ok()
        .and_then(|p| p.params)
}

/// 2026-07-28: the headers must repeat what the body says.
fn check_modern_headers(
    headers: &HeaderMap,
    version: &RawValue,
    method: &str,
    params: &ProbeParams<'_>,
) -> Result<(), String> {
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap_or("(not text)"));
    let body_version: Cow<'_, str> =
        serde_json::from_str(version.get()).unwrap_or(Cow::Borrowed(version.get()));
    let expect = |name: &str, label: &str, body: &str| -> Result<(), String> {
        match header(name) {
            None => Err(format!(
                "Header mismatch: the {label} header is required and must be '{body}'"
            )),
            Some(value) if value == body => Ok(()),
            Some(value) => Err(format!(
                "Header mismatch: {label} header value '{value}' does not match body value '{body}'"
            )),
        }
    };
    expect(VERSION_HEADER, "MCP-Protocol-Version", &body_version)?;
    expect(METHOD_HEADER, "Mcp-Method", method)?;
    let target = match method {
        "tools/call" | "prompts/get" => string_of(params.name),
        "resources/read" => string_of(params.uri),
        _ => None,
    };
    if let Some(target) = target {
        expect(NAME_HEADER, "Mcp-Name", &target)?;
    }
    Ok(())
}

async fn initialize(
    app: &Arc<HttpApp>,
    body: &Bytes,
    principal: Option<&Arc<Principal>>,
    peer: Option<IpAddr>,
) -> Response {
    app.expire_sessions();
    let conn = Arc::new(Connection::from_peer(peer));
    let response = answer(app, Arc::clone(&conn), body, principal, Flow::Legacy).await;
    let Some(session) = conn.legacy() else {
        return response; // refused: no session
    };
    let id = match new_session_id() {
        Ok(id) => id,
        Err(error) => {
            tracing::error!(%error, "no randomness for a session id");
            return json_response(
                0,
                StatusCode::INTERNAL_SERVER_ERROR,
                encode_error(None, INVALID_REQUEST, "internal error"),
            );
        }
    };
    app.sessions().insert(
        id.clone(),
        Arc::new(Session {
            conn,
            version: session.version,
            last_used: Mutex::new(Instant::now()),
        }),
    );
    let mut response = response;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(SESSION_HEADER, value);
    }
    response
}

/// 128 random bits from the operating system, as hex.
fn new_session_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether a client going away cancels its request: yes in 2026-07-28, no before.
#[derive(Clone, Copy, PartialEq)]
enum Flow {
    Modern,
    Legacy,
}

/// Cancels a modern request whose client went away before its answer.
struct CancelOnDrop {
    conn: Option<Arc<Connection>>,
}

impl CancelOnDrop {
    fn defuse(&mut self) {
        self.conn = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            conn.cancel_all();
            let conn2 = Arc::clone(&conn);
            tokio::spawn(async move { conn2.close().await });
        }
    }
}

/// Hands a body to the engine and turns what comes back into a response: 202 for nothing,
/// JSON for an answer alone, SSE when notifications come first.
async fn answer(
    app: &Arc<HttpApp>,
    conn: Arc<Connection>,
    body: &[u8],
    principal: Option<&Arc<Principal>>,
    flow: Flow,
) -> Response {
    crate::wire_log::received(conn.id(), body);
    let (out, mut responses, mut notifications) = Outbox::split();
    app.engine.handle(&conn, body, &out, principal);
    drop(out);
    let mut guard = CancelOnDrop {
        conn: (flow == Flow::Modern).then(|| Arc::clone(&conn)),
    };
    tokio::select! {
        biased;
        response = responses.recv() => match response {
            Some(response) => {
                guard.defuse();
                if let Ok(first) = notifications.try_recv() {
                    // Notifications were queued before the answer: keep their order.
                    let mut events = vec![first];
                    while let Ok(more) = notifications.try_recv() {
                        events.push(more);
                    }
                    events.push(response);
                    return sse(conn.id(), events, None, None, guard, Arc::clone(app));
                }
                let status = status_of(&response, flow);
                json_response(conn.id(), status, response)
            }
            None => {
                guard.defuse();
                accepted()
            }
        },
        note = notifications.recv() => match note {
            Some(note) => sse(conn.id(), vec![note], Some(notifications), Some(responses), guard, Arc::clone(app)),
            None => {
                guard.defuse();
                match responses.recv().await {
                    Some(response) => json_response(conn.id(), status_of(&response, flow), response),
                    None => accepted(),
                }
            }
        },
    }
}

/// 2026-07-28 maps an unknown method to 404 (so the body tells it from a missing
/// endpoint); other JSON-RPC errors travel with 200.
fn status_of(response: &[u8], flow: Flow) -> StatusCode {
    #[derive(Deserialize)]
    struct Code {
        error: Option<ErrorCode>,
    }
    #[derive(Deserialize)]
    struct ErrorCode {
        code: i32,
    }
    let code = serde_json::from_slice::<Code>(response)
        .ok()
        .and_then(|c| c.error)
        .map(|e| e.code);
    match code {
        Some(PARSE_ERROR | INVALID_REQUEST) => StatusCode::BAD_REQUEST,
        Some(METHOD_NOT_FOUND) if flow == Flow::Modern => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}

fn accepted() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

fn with_status(mut response: Response, status: StatusCode) -> Response {
    if response.status() == StatusCode::OK {
        *response.status_mut() = status;
    }
    response
}

/// An SSE response: `ready` events first, then notifications, until the answer (when
/// `responses` is given) or forever (a GET stream, a subscription) until the client, the
/// session or the server ends it.
fn sse(
    conn: u64,
    ready: Vec<Vec<u8>>,
    notifications: Option<mpsc::UnboundedReceiver<Vec<u8>>>,
    responses: Option<mpsc::UnboundedReceiver<Vec<u8>>>,
    guard: CancelOnDrop,
    app: Arc<HttpApp>,
) -> Response {
    struct Stream {
        ready: std::vec::IntoIter<Vec<u8>>,
        notifications: Option<mpsc::UnboundedReceiver<Vec<u8>>>,
        responses: Option<mpsc::UnboundedReceiver<Vec<u8>>>,
        finished: bool,
        _guard: CancelOnDrop,
        app: Arc<HttpApp>,
    }
    let ends_with_answer = responses.is_none() && notifications.is_none();
    let state = Stream {
        ready: ready.into_iter(),
        notifications,
        responses,
        finished: false,
        _guard: guard,
        app,
    };
    let stream = futures_util::stream::unfold(state, move |mut s| async move {
        if s.finished {
            return None;
        }
        if let Some(event) = s.ready.next() {
            if ends_with_answer && s.ready.len() == 0 {
                s.finished = true;
                s._guard.defuse();
            }
            return Some((
                Ok::<Bytes, std::convert::Infallible>(event_bytes(conn, &event)),
                s,
            ));
        }
        let keep_alive = tokio::time::sleep(Duration::from_secs(15));
        tokio::select! {
            biased;
            _ = s.app.shutdown.cancelled() => None,
            note = recv(&mut s.notifications) => match note {
                Some(note) => Some((Ok(event_bytes(conn, &note)), s)),
                None => {
                    s.notifications = None;
                    if s.responses.is_none() { None } else { Some((Ok(Bytes::new()), s)) }
                }
            },
            response = recv(&mut s.responses) => match response {
                Some(response) => {
                    // Anything the request sent before its answer goes first.
                    let mut bytes = Vec::new();
                    if let Some(notes) = &mut s.notifications {
                        while let Ok(note) = notes.try_recv() {
                            bytes.extend_from_slice(&event_bytes(conn, &note));
                        }
                    }
                    bytes.extend_from_slice(&event_bytes(conn, &response));
                    s.finished = true;
                    s._guard.defuse();
                    Some((Ok(Bytes::from(bytes)), s))
                }
                None => None,
            },
            _ = keep_alive => Some((Ok(Bytes::from_static(b": keep-alive\n\n")), s)),
        }
    });
    let mut response = Response::new(Body::from_stream(stream));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// Waits on a receiver that may be gone (then never completes).
async fn recv(receiver: &mut Option<mpsc::UnboundedReceiver<Vec<u8>>>) -> Option<Vec<u8>> {
    match receiver {
        Some(receiver) => receiver.recv().await,
        None => std::future::pending().await,
    }
}

fn event_bytes(conn: u64, message: &[u8]) -> Bytes {
    crate::wire_log::sent(conn, message);
    let mut event = Vec::with_capacity(message.len() + 24);
    event.extend_from_slice(b"event: message\ndata: ");
    event.extend_from_slice(message);
    event.extend_from_slice(b"\n\n");
    Bytes::from(event)
}

/// GET: a legacy session's stream for notifications that answer no request.
async fn get(State(app): State<Arc<HttpApp>>, headers: HeaderMap) -> Response {
    if let Err(refusal) = app.admit(&headers).await {
        return refusal;
    }
    let session = match app.session(&headers) {
        Ok(Some(session)) => session,
        Ok(None) => return method_not_allowed(),
        Err(refusal) => return refusal,
    };
    if !accepts(&headers, "text/event-stream") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            "the Accept header must allow `text/event-stream`",
        );
    }
    let (out, _responses, notifications) = Outbox::split();
    session.conn.set_unsolicited(Some(out));
    sse(
        session.conn.id(),
        Vec::new(),
        Some(notifications),
        None,
        CancelOnDrop { conn: None },
        app,
    )
}

/// DELETE: a legacy client ends its session.
async fn delete(State(app): State<Arc<HttpApp>>, headers: HeaderMap) -> Response {
    if let Err(refusal) = app.admit(&headers).await {
        return refusal;
    }
    let Some(id) = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()) else {
        return method_not_allowed();
    };
    let session = app.sessions().remove(id);
    match session {
        Some(session) => {
            session.close();
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NO_CONTENT;
            response
        }
        None => refuse(StatusCode::NOT_FOUND, "the session does not exist or has ended"),
    }
}

/// GET and DELETE without a session: revision 2026-07-28 serves POST only.
fn method_not_allowed() -> Response {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint takes POST; GET and DELETE need the `Mcp-Session-Id` of a session opened with `initialize`",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST, GET, DELETE"));
    response
}
