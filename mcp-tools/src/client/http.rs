//! A server over Streamable HTTP ([`Client::http`](super::Client::http)): each request is a
//! POST whose answer is one JSON message or an SSE stream of the request's notifications
//! (and, in legacy sessions, the server's own requests) ending with its response.
//!
//! Each request runs in a task of its own that hands what it reads to the request's
//! [`Waiting`], as the stdio pipe's reader does; the task stops, dropping the stream, when
//! the client stops waiting. Revision 2026-07-28 requests carry `MCP-Protocol-Version`,
//! `Mcp-Method` and `Mcp-Name`, repeating the body; a legacy session carries its
//! `Mcp-Session-Id` and, from 2025-06-18, its revision. Bodies and SSE events are read up
//! to the client's size limit.

use super::message::Members;
use super::net::{HyperClient, error_chain, hyper_client, request_failed};
use super::ring::Ring;
use super::stdio::{Delivered, Notes, Waiting};
use super::{Answers, ClientError, lock};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, oneshot};

/// How many times one request's event stream is taken up again before the client gives up.
const MAX_RESUMPTIONS: u32 = 8;

/// How long to wait before taking a stream up again when the server named no `retry`.
const DEFAULT_RETRY: std::time::Duration = std::time::Duration::from_secs(1);

/// How many times in a row the session's own stream may fail to be taken up again before
/// the server is taken as gone.
const MAX_RECONNECTIONS: u32 = 3;

/// Why a legacy session is over when the server no longer knows it.
const SESSION_ENDED: &str = "the server ended the session (404 for its `Mcp-Session-Id`)";

/// How many characters of a body that is no message an error quotes.
const QUOTED_BODY_CHARS: usize = 300;

/// The client's end of a Streamable HTTP endpoint.
pub(crate) struct Http {
    url: Uri,
    client: HyperClient,
    /// `Authorization`, when the client was given a token.
    authorization: Option<HeaderValue>,
    /// The legacy session's id, once `initialize` gave one.
    session: Mutex<Option<HeaderValue>>,
    /// The revision the requests name in `MCP-Protocol-Version`, once settled.
    version: Mutex<Option<&'static str>>,
    answers: Mutex<Answers>,
    feed: broadcast::Sender<Value>,
    limit: usize,
    /// The task reading the session's own stream, if one is open.
    listener: Mutex<Option<tokio::task::AbortHandle>>,
    /// Cancelled once the server is known to be gone, with why.
    gone: tokio_util::sync::CancellationToken,
    gone_reason: Mutex<Option<String>>,
    /// OAuth, when the client was given it: every request goes through it.
    #[cfg(feature = "client-oauth")]
    oauth: Option<super::oauth::Session>,
}

impl Drop for Http {
    fn drop(&mut self) {
        if let Some(listener) = lock(&self.listener).take() {
            listener.abort();
        }
    }
}

impl Http {
    /// A client of the endpoint at `url`.
    pub(super) fn new(
        url: &str,
        token: Option<&str>,
        #[cfg(feature = "client-oauth")] oauth: Option<super::oauth::OAuth>,
        answers: Answers,
        limit: usize,
    ) -> Result<Arc<Http>, ClientError> {
        let bad_url = |why: &str| ClientError::Url {
            url: crate::protocol::arguments::clip(url, 200).into_owned(),
            reason: why.to_owned(),
        };
        let uri: Uri = url.parse().map_err(|_| bad_url("it is not a URL"))?;
        match uri.scheme_str() {
            Some("http") => {}
            #[cfg(feature = "tls")]
            Some("https") => {}
            #[cfg(not(feature = "tls"))]
            Some("https") => return Err(bad_url("`https` needs the crate's `tls` feature")),
            _ => return Err(bad_url("its scheme is not `http` or `https`")),
        }
        if uri.host().is_none() {
            return Err(bad_url("it names no host"));
        }
        let authorization = match token {
            Some(token) => {
                Some(
                    HeaderValue::try_from(format!("Bearer {token}")).map_err(|_| ClientError::Url {
                        url: "(the bearer token)".to_owned(),
                        reason: "a bearer token must be visible ASCII".to_owned(),
                    })?,
                )
            }
            None => None,
        };
        let client = hyper_client()?;
        Ok(Arc::new(Http {
            #[cfg(feature = "client-oauth")]
            oauth: oauth.map(|oauth| super::oauth::Session::new(oauth, uri.clone(), client.clone())),
            url: uri,
            client,
            authorization,
            session: Mutex::new(None),
            version: Mutex::new(None),
            answers: Mutex::new(answers),
            feed: broadcast::channel(super::stdio::FEED_BACKLOG).0,
            limit,
            listener: Mutex::new(None),
            gone: tokio_util::sync::CancellationToken::new(),
            gone_reason: Mutex::new(None),
        }))
    }

    /// Whether a user is authorizing now, and how many authorizations have ended (see
    /// [`oauth`](super::oauth)).
    #[cfg(feature = "client-oauth")]
    pub(super) fn authorizing(&self) -> Option<tokio::sync::watch::Receiver<(bool, u64)>> {
        self.oauth.as_ref().map(super::oauth::Session::authorizing)
    }

    /// The revision to name in `MCP-Protocol-Version` from now on.
    pub(super) fn set_version(&self, version: &'static str) {
        *lock(&self.version) = Some(version);
    }

    /// The handlers that answer the server's requests from now on.
    pub(super) fn set_answers(&self, answers: Answers) {
        *lock(&self.answers) = answers;
    }

    /// The notifications that belong to no request.
    pub(super) fn feed(&self) -> broadcast::Receiver<Value> {
        self.feed.subscribe()
    }

    /// POSTs request `id` and gives what will come back for it; its notifications go to
    /// `live` as they arrive, if given.
    pub(super) fn open(
        self: &Arc<Http>,
        message: &Value,
        headers: &[(String, String)],
        live: Option<Arc<Ring>>,
    ) -> Waiting {
        let (mut answer_in, answer) = oneshot::channel();
        let http = Arc::clone(self);
        let mut request = self.request(message);
        for (name, value) in headers {
            if let (Ok(name), Ok(value)) = (
                axum::http::HeaderName::try_from(name.as_str()),
                HeaderValue::try_from(value.as_str()),
            ) {
                request.headers_mut().append(name, value);
            }
        }
        let initialize = message["method"] == "initialize";
        tokio::spawn(async move {
            tokio::select! {
                () = answer_in.closed() => {}
                outcome = http.exchange(request, initialize, live) => {
                    let _ = answer_in.send(outcome);
                }
            }
        });
        Waiting { answer }
    }

    /// POSTs a notification, or the answer to a request of the server's, and waits for the
    /// server to take it.
    pub(super) async fn post(&self, message: &Value) -> Result<(), ClientError> {
        let response = self.send(self.request(message)).await?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let body = read_body(response.into_body(), self.limit)
            .await
            .unwrap_or_default();
        Err(ClientError::Http {
            status: status.as_u16(),
            body: quoted(&body),
        })
    }

    /// POSTs a message without waiting (a cancellation, an answer): a failure is logged.
    pub(super) fn post_later(self: &Arc<Http>, message: &Value) {
        let http = Arc::clone(self);
        let message = message.clone();
        tokio::spawn(async move {
            if let Err(e) = http.post(&message).await {
                tracing::warn!(error = %e, "posting a message to the server failed");
            }
        });
    }

    /// Opens the stream of a legacy session on which the server sends what belongs to no
    /// request (`GET`): its own requests made outside any call (sampling, say), answered
    /// from the handlers, and notifications, to the feed. A server that offers no such
    /// stream (405) is left at that. The stream lives while the client does: when it ends,
    /// it is taken up again after the pause the server asked for; a server that no longer
    /// knows the session (404), or cannot be reached [`MAX_RECONNECTIONS`] times in a row,
    /// is gone, and what waits on [`closed`](Http::closed) hears so.
    pub(super) async fn listen(self: &Arc<Http>) {
        let request = self.stream_request(None);
        let Ok(response) = self.send(request).await else {
            return;
        };
        if !response.status().is_success() || !is_event_stream(response.headers()) {
            return;
        }
        let weak = Arc::downgrade(self);
        let limit = self.limit;
        let task = tokio::spawn(async move {
            let mut body = response.into_body();
            let mut events = Events::new(limit);
            let mut failures = 0;
            loop {
                while let Some(Ok(frame)) = body.frame().await {
                    let Ok(chunk) = frame.into_data() else { continue };
                    let Ok(found) = events.feed(&chunk) else { return };
                    let Some(http) = weak.upgrade() else { return };
                    for data in found {
                        http.heard(&data);
                    }
                }
                tokio::time::sleep(events.retry.unwrap_or(DEFAULT_RETRY)).await;
                let Some(http) = weak.upgrade() else { return };
                let request = http.stream_request(events.last_id.as_deref());
                match http.send(request).await {
                    Ok(response) if response.status().is_success() && is_event_stream(response.headers()) => {
                        body = response.into_body();
                        events.restart();
                        failures = 0;
                    }
                    Ok(response) if response.status() == StatusCode::NOT_FOUND => {
                        return http.gone(SESSION_ENDED.to_owned());
                    }
                    // The server offers the stream no more; the session may go on.
                    Ok(_) => return,
                    Err(error) => {
                        failures += 1;
                        if failures == MAX_RECONNECTIONS {
                            return http.gone(format!("the session's event stream ended, and then: {error}"));
                        }
                    }
                }
            }
        });
        *lock(&self.listener) = Some(task.abort_handle());
    }

    /// One event of the session's own stream: a request of the server's, answered, or a
    /// notification, to the feed.
    fn heard(self: &Arc<Http>, data: &[u8]) {
        let Ok(message @ Value::Object(_)) = serde_json::from_slice::<Value>(data) else {
            return;
        };
        let members = Members::of(&message);
        match (members.method, members.id) {
            (Some(method), Some(id)) => self.ask(method, id.clone(), &message),
            (Some(_), None) => {
                let _ = self.feed.send(message);
            }
            (None, _) => {}
        }
    }

    /// Marks the server gone, for `reason` (the first reason stays).
    fn gone(&self, reason: String) {
        lock(&self.gone_reason).get_or_insert(reason);
        self.gone.cancel();
    }

    /// Completes, with why, once the server is known to be gone: its session ended, or
    /// its session's stream could not be taken up again.
    pub(super) async fn closed(&self) -> String {
        self.gone.cancelled().await;
        lock(&self.gone_reason).clone().unwrap_or_default()
    }

    /// Ends the legacy session, if there is one (`DELETE`, as the transport asks).
    pub(super) async fn end_session(&self) {
        if let Some(listener) = lock(&self.listener).take() {
            listener.abort();
        }
        let Some(session) = lock(&self.session).take() else {
            return;
        };
        let mut request = Request::builder().method(Method::DELETE).uri(self.url.clone());
        if let Some(authorization) = &self.authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        #[cfg_attr(not(feature = "client-oauth"), allow(unused_mut))]
        let mut request = request
            .header("mcp-session-id", session)
            .body(Full::default())
            .unwrap_or_else(|_| unreachable!("the URL and the headers were checked"));
        // With the token held, if any: closing is no reason to send the user to authorize.
        #[cfg(feature = "client-oauth")]
        if let Some(oauth) = &self.oauth {
            oauth.add_token(&mut request);
        }
        let _ = self.client.request(request).await;
    }

    /// The POST of one message, with the headers its era asks for.
    fn request(&self, message: &Value) -> Request<Full<Bytes>> {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.url.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if let Some(authorization) = &self.authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        if let Some(session) = lock(&self.session).as_ref() {
            request = request.header("mcp-session-id", session);
        }
        let version = lock(&self.version).or_else(|| {
            // The probe and `initialize` go before the revision is settled.
            message["params"]["_meta"][crate::protocol::messages::META_PROTOCOL_VERSION]
                .as_str()
                .map(|_| "2026-07-28")
        });
        if let Some(version) = version {
            request = request.header("mcp-protocol-version", version);
        }
        let method = message["method"]
            .as_str()
            .filter(|_| version == Some("2026-07-28"));
        if let Some(method) = method {
            request = request.header("mcp-method", header_value(method));
            let params = &message["params"];
            let target = match method {
                "tools/call" | "prompts/get" => params["name"].as_str(),
                "resources/read" => params["uri"].as_str(),
                "tasks/get" | "tasks/update" | "tasks/cancel" => params["taskId"].as_str(),
                _ => None,
            };
            if let Some(target) = target {
                request = request.header("mcp-name", header_value(target));
            }
        }
        request
            .body(Full::new(Bytes::from(
                serde_json::to_vec(message).unwrap_or_default(),
            )))
            .unwrap_or_else(|_| unreachable!("the URL and the headers were checked"))
    }

    /// Sends `request`: through OAuth, when the client has it, which may authorize and send
    /// it again.
    async fn send(&self, request: Request<Full<Bytes>>) -> Result<hyper::Response<Incoming>, ClientError> {
        #[cfg(feature = "client-oauth")]
        if let Some(oauth) = &self.oauth {
            return oauth.send(request).await;
        }
        self.client
            .request(request)
            .await
            .map_err(|e| request_failed(&self.url, &e))
    }

    /// Sends one request and reads its answer: the response, after handing the request's
    /// notifications to `notes` and answering the server's requests.
    async fn exchange(
        self: &Arc<Http>,
        request: Request<Full<Bytes>>,
        initialize: bool,
        live: Option<Arc<Ring>>,
    ) -> Result<Delivered, ClientError> {
        let response = self.send(request).await?;
        let status = response.status();
        // A session begins with the answer to `initialize`; an id on any other answer (a
        // legacy server's refusal of the probe, say) names no session of the client's.
        let session = response.headers().get("mcp-session-id");
        if let Some(session) = session.filter(|_| initialize && status.is_success()) {
            *lock(&self.session) = Some(session.clone());
        }
        let streamed = is_event_stream(response.headers());
        if status == StatusCode::NOT_FOUND && lock(&self.session).is_some() {
            self.gone(SESSION_ENDED.to_owned());
            return Err(ClientError::Closed {
                reason: SESSION_ENDED.to_owned(),
            });
        }
        if streamed && status.is_success() {
            return self.read_stream(response.into_body(), Notes::new(live)).await;
        }
        let body = read_body(response.into_body(), self.limit).await?;
        // An error answered as a JSON-RPC message (400 for a refused revision, say) reads as
        // one; any other body is the HTTP error it is.
        match serde_json::from_slice::<Value>(&body) {
            Ok(message) if message.get("result").is_some() || message.get("error").is_some() => {
                Ok(Delivered {
                    notes: Vec::new(),
                    response: message,
                })
            }
            _ if status.is_success() => Err(ClientError::InvalidResponse(format!(
                "a {status} answer to a request is no JSON-RPC response: {}",
                quoted(&body)
            ))),
            _ => Err(ClientError::Http {
                status: status.as_u16(),
                body: quoted(&body),
            }),
        }
    }

    /// Reads an SSE answer until its response.
    async fn read_stream(
        self: &Arc<Http>,
        mut body: Incoming,
        mut notes: Notes,
    ) -> Result<Delivered, ClientError> {
        let mut events = Events::new(self.limit);
        let mut resumptions = 0;
        loop {
            let frame = body.frame().await;
            let ended = match frame {
                None => "the server ended the request's event stream before its response".to_owned(),
                Some(Err(e)) => format!("reading the request's event stream failed: {}", error_chain(&e)),
                Some(Ok(frame)) => {
                    let Ok(chunk) = frame.into_data() else { continue };
                    for data in events.feed(&chunk)? {
                        if let Some(response) = self.sort_event(&data, &mut notes) {
                            let notes = notes.into_kept();
                            return Ok(Delivered { notes, response });
                        }
                    }
                    continue;
                }
            };
            // A stream that ends after naming its last event can be taken up again (SEP-1699):
            // after the pause the server asked for, `GET` with `Last-Event-ID`.
            let Some(last_id) = events.last_id.clone() else {
                return Err(ClientError::Closed { reason: ended });
            };
            resumptions += 1;
            if resumptions > MAX_RESUMPTIONS {
                return Err(ClientError::Closed {
                    reason: format!("{ended}, {MAX_RESUMPTIONS} times"),
                });
            }
            tokio::time::sleep(events.retry.unwrap_or(DEFAULT_RETRY)).await;
            body = self.resume(&last_id).await?;
            events.restart();
        }
    }

    /// One event of a request's stream: its response, or `None` once it is handed on.
    fn sort_event(self: &Arc<Http>, data: &[u8], notes: &mut Notes) -> Option<Value> {
        if data.is_empty() {
            // A priming event: an id to resume from, no message.
            return None;
        }
        let Ok(message @ Value::Object(_)) = serde_json::from_slice::<Value>(data) else {
            tracing::warn!(event = %quoted(data), "the server sent an event that is no JSON-RPC message");
            return None;
        };
        let members = Members::of(&message);
        match (members.method, members.id) {
            (Some(method), Some(id)) => self.ask(method, id.clone(), &message),
            (Some(_), None) => notes.push(message),
            (None, _) => return Some(message),
        }
        None
    }

    /// A `GET` of an event stream: the session's own, or a request's taken up again after
    /// event `last_id`.
    fn stream_request(&self, last_id: Option<&str>) -> Request<Full<Bytes>> {
        let mut request = Request::builder()
            .method(Method::GET)
            .uri(self.url.clone())
            .header(header::ACCEPT, "text/event-stream");
        if let Some(last_id) = last_id {
            request = request.header("last-event-id", header_value(last_id));
        }
        if let Some(authorization) = &self.authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        if let Some(session) = lock(&self.session).as_ref() {
            request = request.header("mcp-session-id", session);
        }
        if let Some(version) = *lock(&self.version) {
            request = request.header("mcp-protocol-version", version);
        }
        request
            .body(Full::default())
            .unwrap_or_else(|_| unreachable!("the URL and the headers were checked"))
    }

    /// Takes up a request's stream again after event `last_id`.
    async fn resume(&self, last_id: &str) -> Result<Incoming, ClientError> {
        let request = self.stream_request(Some(last_id));
        let response = self.send(request).await?;
        if !response.status().is_success() || !is_event_stream(response.headers()) {
            return Err(ClientError::Http {
                status: response.status().as_u16(),
                body: "taking up the request's event stream again was refused".to_owned(),
            });
        }
        Ok(response.into_body())
    }

    /// A request of the server's own, in a legacy session: answered from the handlers and
    /// POSTed back, in a task of its own.
    fn ask(self: &Arc<Http>, method: &str, id: Value, message: &Value) {
        let answers = lock(&self.answers).clone();
        let method = method.to_owned();
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let http = Arc::clone(self);
        tokio::spawn(async move {
            let answer = answers.respond(&method, id, params).await;
            if let Err(e) = http.post(&answer).await {
                tracing::warn!(error = %e, "answering the server's request failed");
            }
        });
    }
}

/// A header's value for `text` (see [`encoded`](super::params::encoded)).
fn header_value(text: &str) -> HeaderValue {
    HeaderValue::try_from(super::params::encoded(text))
        .unwrap_or_else(|_| unreachable!("an encoded value is visible ASCII"))
}

fn is_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim_start().starts_with("text/event-stream"))
}

/// A whole body, refused past `limit` bytes.
async fn read_body(body: Incoming, limit: usize) -> Result<Bytes, ClientError> {
    match http_body_util::Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(ClientError::TooLarge {
            bytes: limit + 1,
            limit,
        }),
        Err(e) => Err(ClientError::Closed {
            reason: format!("reading the answer failed: {e}"),
        }),
    }
}

/// A body as an error quotes it.
fn quoted(body: &[u8]) -> String {
    crate::protocol::arguments::clip(&String::from_utf8_lossy(body), QUOTED_BODY_CHARS).into_owned()
}

/// The events of an SSE stream, from chunks as they come: the `data` of each (lines
/// joined with `\n`), other fields and comments passed over. An event longer than the
/// limit fails the stream rather than growing without bound.
struct Events {
    /// The last event id the stream named (`id:`), to resume from.
    last_id: Option<String>,
    /// The pause the stream asked for before a reconnection (`retry:`).
    retry: Option<std::time::Duration>,
    /// The line being read.
    line: Vec<u8>,
    /// The event being read: its data so far.
    data: Vec<u8>,
    has_data: bool,
    limit: usize,
}

impl Events {
    fn new(limit: usize) -> Events {
        Events {
            last_id: None,
            retry: None,
            line: Vec::new(),
            data: Vec::new(),
            has_data: false,
            limit,
        }
    }

    /// A new stream begins: what was half read of the last one is dropped; the last id and
    /// the pause stay.
    fn restart(&mut self) {
        self.line.clear();
        self.data.clear();
        self.has_data = false;
    }

    /// The events `chunk` completes.
    fn feed(&mut self, chunk: &[u8]) -> Result<Vec<Vec<u8>>, ClientError> {
        let mut events = Vec::new();
        for &byte in chunk {
            if byte != b'\n' {
                self.line.push(byte);
                if self.line.len() + self.data.len() > self.limit {
                    return Err(ClientError::TooLarge {
                        bytes: self.line.len() + self.data.len(),
                        limit: self.limit,
                    });
                }
                continue;
            }
            if self.line.last() == Some(&b'\r') {
                self.line.pop();
            }
            if self.line.is_empty() {
                if self.has_data {
                    events.push(std::mem::take(&mut self.data));
                    self.has_data = false;
                }
                continue;
            }
            let line = std::mem::take(&mut self.line);
            if let Some(value) = line.strip_prefix(b"data:") {
                let value = value.strip_prefix(b" ").unwrap_or(value);
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            if let Some(value) = line.strip_prefix(b"id:") {
                let value = value.strip_prefix(b" ").unwrap_or(value);
                // An id with a NUL is ignored, as the SSE specification says.
                if !value.contains(&0) {
                    self.last_id = Some(String::from_utf8_lossy(value).into_owned());
                }
            } else if let Some(value) = line.strip_prefix(b"retry:") {
                let value = value.strip_prefix(b" ").unwrap_or(value);
                if let Some(ms) = std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<u64>().ok())
                {
                    self.retry = Some(std::time::Duration::from_millis(ms.min(60_000)));
                }
            }
            // `event:` and `:` comments carry nothing the client needs.
            self.line = line;
            self.line.clear();
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_found_whatever_the_chunks() {
        let stream =
            b": comment\nevent: message\ndata: {\"a\":1}\n\ndata: x\r\ndata: y\r\n\r\nid: 7\nretry: 250\n\n";
        for size in 1..stream.len() {
            let mut events = Events::new(1024);
            let mut found = Vec::new();
            for chunk in stream.chunks(size) {
                found.extend(events.feed(chunk).unwrap());
            }
            assert_eq!(
                found,
                [b"{\"a\":1}".to_vec(), b"x\ny".to_vec()],
                "chunks of {size}"
            );
        }
    }

    #[test]
    fn an_event_over_the_limit_fails_the_stream() {
        let mut events = Events::new(8);
        assert!(matches!(
            events.feed(b"data: 0123456789\n\n"),
            Err(ClientError::TooLarge { limit: 8, .. })
        ));
    }
}
