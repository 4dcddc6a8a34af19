//! The endpoint's three methods. POST parses its body once ([`Incoming`]), reads from that
//! parse what routing needs (the method, the target, the revision, the session), and hands
//! the same parse to the engine; the status comes from what the engine says its answer was.

use super::admission::{Heads, SESSION_HEADER, accepts, check_post_headers, require_host};
use super::app::{HttpApp, HttpOptions, ResourceMetadata};
use super::mirror;
use super::response::{
    CancelOnDrop, Flow, accepted, answer_response, json_response, method_not_allowed, refuse, sse,
    with_status,
};
use super::sessions::{StartError, unknown_session};
use crate::context::Principal;
use crate::engine::{Connection, Engine, Incoming, Outbox, Settled, encode_error};
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::id_scan::IdScan;
use crate::protocol::{ErrorCode, ProtocolVersion};

use crate::protocol::messages::ParamsHead;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures_util::StreamExt;
use serde_json::value::RawValue;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The MCP endpoint as an axum router, and the handle that shuts it down: every path it
/// answers goes to [`handle`], as it does when the endpoint is served directly.
pub(crate) fn router(engine: Arc<Engine>, options: HttpOptions, any_host: bool) -> (Router, Arc<HttpApp>) {
    let app = Arc::new(HttpApp::new(engine, options, any_host));
    let endpoint = {
        let app = Arc::clone(&app);
        move |request: Request| {
            // Known when the router was served with connect info.
            let peer = request
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map(|info| info.0.ip());
            handle(Arc::clone(&app), peer, None, request)
        }
    };
    let mut router = Router::new().route(&app.options.settings.path, axum::routing::any(endpoint.clone()));
    if let Some(metadata) = &app.options.resource_metadata {
        for path in &metadata.paths {
            router = router.route(path, axum::routing::any(endpoint.clone()));
        }
    }
    (router, app)
}

/// One request to the server from `peer`: the `Host` rule, then the endpoint's methods on
/// its path and the Protected Resource Metadata on theirs; 404 anywhere else. `close`, when
/// the caller serves the connection, closes it: an event stream whose client stalls is
/// ended so.
pub(crate) async fn handle(
    app: Arc<HttpApp>,
    peer: Option<IpAddr>,
    close: Option<CancellationToken>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let heads = Heads::of(&parts.headers);
    if let Err(refusal) = require_host(parts.version, &heads) {
        return refusal;
    }
    let path = parts.uri.path();
    if path == app.options.settings.path {
        return match parts.method {
            Method::POST => post(&app, peer, close, &heads, body).await,
            Method::GET => get(&app, close, &heads).await,
            Method::DELETE => delete(&app, &heads).await,
            _ => method_not_allowed(),
        };
    }
    if let Some(metadata) = &app.options.resource_metadata
        && metadata.paths.iter().any(|p| p == path)
    {
        return match parts.method {
            Method::GET | Method::HEAD => resource_metadata(metadata),
            _ => {
                let mut response = with_status(Response::default(), StatusCode::METHOD_NOT_ALLOWED);
                response
                    .headers_mut()
                    .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
                response
            }
        };
    }
    with_status(Response::default(), StatusCode::NOT_FOUND)
}

/// GET of the Protected Resource Metadata (RFC 9728): public, so no token is asked for;
/// any origin may read it (a browser-based client discovers the authorization server so).
fn resource_metadata(metadata: &ResourceMetadata) -> Response {
    let mut response = Response::new(axum::body::Body::from(metadata.document.clone()));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    response
}

async fn post(
    app: &Arc<HttpApp>,
    peer: Option<IpAddr>,
    close: Option<CancellationToken>,
    heads: &Heads<'_>,
    body: axum::body::Body,
) -> Response {
    let principal = match app.admit(heads).await {
        Ok(principal) => principal,
        Err(refusal) => return refusal,
    };
    if let Err(refusal) = check_post_headers(heads) {
        return refusal;
    }
    let body = match read_body(app, heads, body).await {
        Ok(body) => body,
        Err(refusal) => return refusal,
    };
    let session = match app.sessions.of(heads.session, principal.as_deref()) {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    let incoming = Incoming::parse(&body);
    let principal = principal.as_ref();

    if incoming.is_batch() {
        // A batch: only a 2025-03-26 session may send one; the engine says so otherwise.
        if let Err(refusal) = app.check_scopes(&incoming, principal) {
            return refusal;
        }
        let conn = session
            .as_ref()
            .map_or_else(|| Arc::new(Connection::from_peer(peer)), |s| Arc::clone(&s.conn));
        return answer(app, conn, incoming, principal, Flow::Legacy, close).await;
    }
    let Some(envelope) = incoming.envelope() else {
        // Not JSON, or not a message: the engine words the error.
        let answered = answer(
            app,
            Arc::new(Connection::new()),
            incoming,
            None,
            Flow::Legacy,
            None,
        )
        .await;
        return with_status(answered, StatusCode::BAD_REQUEST);
    };
    let id = envelope.id;
    let method = incoming.method();
    let head = incoming.head();

    if let Some(version) = head.version() {
        let method = method.as_deref().unwrap_or("");
        if let Err(mismatch) = mirror::check_standard(heads, version, method, &head)
            .and_then(|()| check_param_headers(app, heads, &incoming, &head, principal))
        {
            return json_response(
                0,
                StatusCode::BAD_REQUEST,
                encode_error(id, ErrorCode::HEADER_MISMATCH, &mismatch, None),
            );
        }
        if let Err(refusal) = app.check_scopes(&incoming, principal) {
            return refusal;
        }
        let conn = connection(app, heads, peer);
        return answer(app, conn, incoming, principal, Flow::Modern, close).await;
    }
    if method.as_deref() == Some("initialize") && id.is_some() {
        return initialize(app, incoming, principal, connection(app, heads, peer)).await;
    }
    let Some(session) = session else {
        if id.is_none() && method.is_some() {
            return accepted(); // a notification outside any session concerns nothing
        }
        let ping = method.as_deref() == Some("ping") && id.is_some();
        let conn = Arc::new(Connection::from_peer(peer));
        let answered = answer(app, conn, incoming, None, Flow::Legacy, close).await;
        if ping {
            return answered; // legacy clients may ping before `initialize`
        }
        // No revision and no session: the engine explains both ways in.
        return with_status(answered, StatusCode::BAD_REQUEST);
    };
    if let Err(refusal) = check_session_version(heads, id) {
        return refusal;
    }
    if let Err(refusal) = app.check_scopes(&incoming, principal) {
        return refusal;
    }
    answer(
        app,
        Arc::clone(&session.conn),
        incoming,
        principal,
        Flow::Legacy,
        close,
    )
    .await
}

/// The body, within the server's limit on messages; `Err` refuses it with 413. A body
/// over the limit is not read further; the refusal answers the request it was when its
/// `id` is in what was read.
async fn read_body(app: &HttpApp, heads: &Heads<'_>, body: axum::body::Body) -> Result<Bytes, Response> {
    let limit = app.engine.options.limits.max_message_bytes;
    let mut frames = body.into_data_stream();
    // Most bodies come in one frame, kept as it is; more are gathered.
    let mut first: Option<Bytes> = None;
    let mut gathered: Vec<u8> = Vec::new();
    while let Some(frame) = frames.next().await {
        let frame = frame.map_err(|_| refuse(StatusCode::BAD_REQUEST, "the body could not be read"))?;
        let read = first.as_ref().map_or(gathered.len(), Bytes::len);
        if read + frame.len() > limit {
            let mut scan = IdScan::new();
            scan.feed(first.as_deref().unwrap_or(&gathered));
            scan.feed(&frame);
            return Err(too_large(heads, limit, scan.id()));
        }
        match first.take() {
            None if gathered.is_empty() => first = Some(frame),
            None => gathered.extend_from_slice(&frame),
            Some(earlier) => {
                gathered.reserve(earlier.len() + frame.len());
                gathered.extend_from_slice(&earlier);
                gathered.extend_from_slice(&frame);
            }
        }
    }
    Ok(first.unwrap_or_else(|| Bytes::from(gathered)))
}

/// The refusal of a body over the limit, answering the request `id` when it was found.
fn too_large(heads: &Heads<'_>, limit: usize, id: Option<&[u8]>) -> Response {
    // The size is known when the client declared it; a chunked body is not read to its end
    // to learn it.
    let declared = heads
        .content_length
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let message = match declared {
        Some(bytes) => {
            format!("the body is {bytes} bytes long; this server accepts bodies of up to {limit} bytes")
        }
        None => format!("the body is longer than this server accepts ({limit} bytes)"),
    };
    let id: Option<Box<RawValue>> = id.and_then(|id| serde_json::from_slice(id).ok());
    let mut response = json_response(
        0,
        StatusCode::PAYLOAD_TOO_LARGE,
        encode_error(id.as_deref(), ErrorCode::INVALID_REQUEST, &message, None),
    );
    // The rest of the body is not read: the connection cannot carry another request.
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A session's requests (POST, GET, DELETE) may name any revision of the `initialize` era
/// in `MCP-Protocol-Version`, not only the one negotiated: the transport spec asks for 400
/// only when the header is invalid or unsupported. The negotiated revision still governs
/// every answer of the session (the engine keeps it on the connection), so a request is
/// answered alike whichever of these it names. A missing header is what 2025-03-26 clients
/// send (that revision has no such header); the spec has the server assume 2025-03-26 then,
/// so it is accepted too.
fn check_session_version(heads: &Heads<'_>, id: Option<&RawValue>) -> Result<(), Response> {
    let Some(sent) = heads.version else {
        return Ok(());
    };
    if heads.doubled == Some("MCP-Protocol-Version") {
        return Err(json_response(
            0,
            StatusCode::BAD_REQUEST,
            encode_error(
                id,
                ErrorCode::INVALID_REQUEST,
                "the MCP-Protocol-Version header is sent more than once; send it once",
                None,
            ),
        ));
    }
    let sent = sent.to_str().unwrap_or("(not text)");
    let why = match ProtocolVersion::parse(sent) {
        Some(version) if !version.is_modern() => return Ok(()),
        Some(_) => "a revision without sessions, whose requests name it in `_meta`",
        None => "a revision this server does not support",
    };
    let accepted: Vec<&str> = ProtocolVersion::ALL
        .iter()
        .filter(|v| !v.is_modern())
        .map(|v| v.as_str())
        .collect();
    let message = format!(
        "the MCP-Protocol-Version header says {}, {why}; a session accepts {}",
        clip(sent, QUOTED_NAME_CHARS),
        accepted.join(", ")
    );
    Err(json_response(
        0,
        StatusCode::BAD_REQUEST,
        encode_error(id, ErrorCode::INVALID_REQUEST, &message, None),
    ))
}

/// 2026-07-28: a `tools/call` of a tool that mirrors arguments into headers must send
/// them. A tool the caller may not see, or does not exist, is left to the engine.
fn check_param_headers(
    app: &HttpApp,
    heads: &Heads<'_>,
    incoming: &Incoming<'_>,
    head: &ParamsHead<'_>,
    principal: Option<&Arc<Principal>>,
) -> Result<(), String> {
    let (Some(arguments), Some(headers)) = (incoming.call_arguments(), heads.all) else {
        return Ok(());
    };
    let Some(name) = mirror::string_of(head.name) else {
        return Ok(());
    };
    let tools = app.engine.tools.snapshot();
    match tools.get(&name) {
        Some(tool) if !tool.header_params().is_empty() && app.engine.tool_visible(tool, principal) => {
            mirror::check_params(headers, tool.header_params(), arguments)
        }
        _ => Ok(()),
    }
}

/// A new connection from `peer`, showing only the groups of tools the request's toolsets
/// header names (`Server::toolsets_header`), when the server reads one and it is sent.
fn connection(app: &HttpApp, heads: &Heads<'_>, peer: Option<IpAddr>) -> Arc<Connection> {
    let conn = Connection::from_peer(peer);
    if let (Some(name), Some(all)) = (&app.options.toolsets_header, heads.all) {
        let values: Vec<&str> = all.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect();
        if !values.is_empty() {
            conn.select_groups(&values.join(","));
        }
    }
    Arc::new(conn)
}

/// `initialize`: a new connection, which becomes a session when the engine accepts it.
async fn initialize(
    app: &Arc<HttpApp>,
    incoming: Incoming<'_>,
    principal: Option<&Arc<Principal>>,
    conn: Arc<Connection>,
) -> Response {
    app.sessions.expire();
    if app.sessions.is_full() {
        let id = incoming.envelope().and_then(|envelope| envelope.id);
        return sessions_full(app, id);
    }
    let mut response = answer(app, Arc::clone(&conn), incoming, principal, Flow::Legacy, None).await;
    if conn.legacy().is_none() {
        return response; // refused: no session
    }
    match app
        .sessions
        .start(Arc::clone(&conn), principal.map(|p| p.as_ref()))
    {
        Ok(id) => {
            if let Ok(value) = HeaderValue::from_str(&id) {
                response.headers_mut().insert(SESSION_HEADER, value);
            }
            response
        }
        Err(error) => {
            // The connection the engine started never becomes a session.
            tokio::spawn(async move { conn.close().await });
            match error {
                StartError::Full => sessions_full(app, None),
                StartError::NoRandomness(error) => {
                    tracing::error!(%error, "no randomness for a session id");
                    json_response(
                        0,
                        StatusCode::INTERNAL_SERVER_ERROR,
                        encode_error(None, ErrorCode::INVALID_REQUEST, "internal error", None),
                    )
                }
            }
        }
    }
}

/// The refusal of an `initialize` when as many sessions as allowed are open: 503, and when
/// to try again.
fn sessions_full(app: &HttpApp, id: Option<&RawValue>) -> Response {
    let max = app.options.settings.max_sessions;
    tracing::warn!(max, "refused a session: the server has as many open as it keeps");
    let message = format!(
        "this server has {max} sessions open, as many as it keeps; try again later, or use protocol revision 2026-07-28, which needs no session"
    );
    let mut response = json_response(
        0,
        StatusCode::SERVICE_UNAVAILABLE,
        encode_error(id, ErrorCode::INVALID_REQUEST, &message, None),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(app.sessions.retry_after()));
    response
}

/// Hands a parsed body to the engine and turns what comes back into a response: 202 for
/// nothing, JSON for an answer alone, SSE when notifications (or requests of the server's
/// own) come first. `close` closes the connection, when the caller serves it.
async fn answer(
    app: &Arc<HttpApp>,
    conn: Arc<Connection>,
    incoming: Incoming<'_>,
    principal: Option<&Arc<Principal>>,
    flow: Flow,
    close: Option<CancellationToken>,
) -> Response {
    crate::wire_log::received(conn.id(), incoming.text());
    // What ends the answer's stream if its client stalls: the connection, or the stream
    // alone when the connection is not ours to close.
    let ended = close.unwrap_or_default();
    let (out, exchange) = Outbox::exchange(app.engine.options.limits.stream_backlog, Some(ended.clone()));
    app.engine.serve(&conn, incoming, &out, principal);
    drop(out);
    let (first, mut queue) = match exchange.settle() {
        // Answered at once, and by the response alone: plain JSON.
        Settled::Response(answer) => return answer_response(conn.id(), answer, flow),
        Settled::Queue(first, queue) => (first, queue),
    };
    // Dropped with this future when the client goes away before the answer.
    let mut guard = CancelOnDrop {
        conn: (flow == Flow::Modern).then(|| Arc::clone(&conn)),
    };
    let first = match first {
        Some(first) => Some(first),
        None => queue.recv().await,
    };
    match first {
        // The answer alone: plain JSON.
        Some(first) if first.response => {
            guard.defuse();
            answer_response(conn.id(), first, flow)
        }
        // Notifications (or requests of the server's own) come first: an event stream.
        Some(first) => sse(
            conn.id(),
            vec![first],
            Some(queue),
            true,
            guard,
            app.shutdown.clone(),
            ended,
        ),
        None => {
            guard.defuse();
            accepted()
        }
    }
}

/// GET: a legacy session's stream for notifications that answer no request.
async fn get(app: &HttpApp, close: Option<CancellationToken>, heads: &Heads<'_>) -> Response {
    let principal = match app.admit(heads).await {
        Ok(principal) => principal,
        Err(refusal) => return refusal,
    };
    let session = match app.sessions.of(heads.session, principal.as_deref()) {
        Ok(Some(session)) => session,
        Ok(None) => return method_not_allowed(),
        Err(refusal) => return refusal,
    };
    if let Err(refusal) = check_session_version(heads, None) {
        return refusal;
    }
    if !accepts(heads, b"text/event-stream") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            "the Accept header must allow `text/event-stream`",
        );
    }
    let ended = close.unwrap_or_default();
    let (out, queue) = Outbox::bounded(app.engine.options.limits.stream_backlog, Some(ended.clone()));
    session.conn.set_unsolicited(Some(out));
    sse(
        session.conn.id(),
        Vec::new(),
        Some(queue),
        false,
        CancelOnDrop { conn: None },
        app.shutdown.clone(),
        ended,
    )
}

/// DELETE: a legacy client ends its session.
async fn delete(app: &HttpApp, heads: &Heads<'_>) -> Response {
    let principal = match app.admit(heads).await {
        Ok(principal) => principal,
        Err(refusal) => return refusal,
    };
    let Some(id) = heads.session.and_then(|v| v.to_str().ok()) else {
        return method_not_allowed();
    };
    if let Err(refusal) = check_session_version(heads, None) {
        return refusal;
    }
    if app.sessions.end(id, principal.as_deref()) {
        let mut response = Response::new(axum::body::Body::empty());
        *response.status_mut() = StatusCode::NO_CONTENT;
        response
    } else {
        unknown_session()
    }
}
