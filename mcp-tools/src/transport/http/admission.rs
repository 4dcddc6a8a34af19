//! Who may talk to the endpoint, before any JSON-RPC: `Host` and `Origin` against an
//! allow-list (DNS rebinding), an optional bearer token, the scopes a tool call needs, and
//! the `Accept` and `Content-Type` a request must carry.

use super::app::HttpApp;
use super::response::{json_response, refuse};
use crate::context::Principal;
use crate::engine::{Incoming, encode_error};
use crate::protocol::ErrorCode;
use crate::tool::ScopePolicy;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Version, header};
use axum::response::Response;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::Arc;

// Names made once: a name given as text is parsed again at every comparison.
pub(super) const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
pub(super) const VERSION_HEADER: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(super) const METHOD_HEADER: HeaderName = HeaderName::from_static("mcp-method");
pub(super) const NAME_HEADER: HeaderName = HeaderName::from_static("mcp-name");

/// The request headers the endpoint reads, found in one pass over the request's. A
/// look-up by name hashes the name and probes the map; a POST made six, about 950
/// instructions, where one pass comparing names costs a fraction of that. Each is the
/// header's first value, as a look-up by name gives.
#[derive(Default, Clone, Copy)]
pub(super) struct Heads<'a> {
    pub(super) host: Option<&'a HeaderValue>,
    pub(super) origin: Option<&'a HeaderValue>,
    pub(super) authorization: Option<&'a HeaderValue>,
    /// Whether the request has more than one `Authorization` header.
    pub(super) authorizations: bool,
    pub(super) accept: Option<&'a HeaderValue>,
    pub(super) content_type: Option<&'a HeaderValue>,
    pub(super) content_length: Option<&'a HeaderValue>,
    /// `Mcp-Session-Id`.
    pub(super) session: Option<&'a HeaderValue>,
    /// `MCP-Protocol-Version`.
    pub(super) version: Option<&'a HeaderValue>,
    /// `Mcp-Method`.
    pub(super) method: Option<&'a HeaderValue>,
    /// `Mcp-Name`.
    pub(super) name: Option<&'a HeaderValue>,
    /// The first of `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` the request sends
    /// more than once: a request names one revision, one method and one target.
    pub(super) doubled: Option<&'static str>,
    /// All of them, for the few read by a name known only at run time (`Mcp-Param-*`).
    pub(super) all: Option<&'a HeaderMap>,
}

impl<'a> Heads<'a> {
    pub(super) fn of(headers: &'a HeaderMap) -> Heads<'a> {
        let mut heads = Heads {
            all: Some(headers),
            ..Heads::default()
        };
        for (name, value) in headers {
            let slot = if *name == header::HOST {
                &mut heads.host
            } else if *name == header::ORIGIN {
                &mut heads.origin
            } else if *name == header::AUTHORIZATION {
                heads.authorizations |= heads.authorization.is_some();
                &mut heads.authorization
            } else if *name == header::ACCEPT {
                &mut heads.accept
            } else if *name == header::CONTENT_TYPE {
                &mut heads.content_type
            } else if *name == header::CONTENT_LENGTH {
                &mut heads.content_length
            } else if *name == SESSION_HEADER {
                &mut heads.session
            } else if *name == VERSION_HEADER {
                heads.doubled = heads.doubled.or(heads.version.and(Some("MCP-Protocol-Version")));
                &mut heads.version
            } else if *name == METHOD_HEADER {
                heads.doubled = heads.doubled.or(heads.method.and(Some("Mcp-Method")));
                &mut heads.method
            } else if *name == NAME_HEADER {
                heads.doubled = heads.doubled.or(heads.name.and(Some("Mcp-Name")));
                &mut heads.name
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        heads
    }
}

/// The token of an `Authorization` value of the `Bearer` scheme, whose name is
/// case-insensitive (RFC 9110, section 11.1); `None` for another scheme.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Refuses an HTTP/1.1 request that has no `Host` header with 400, as RFC 9112 (3.2)
/// requires; HTTP/1.0 requests may omit it.
pub(super) fn require_host(version: Version, heads: &Heads<'_>) -> Result<(), Response> {
    if version == Version::HTTP_11 && heads.host.is_none() {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "an HTTP/1.1 request must have a Host header (RFC 9112, section 3.2)",
        ));
    }
    Ok(())
}

impl HttpApp {
    /// Host, Origin and bearer token; `Err` is the response that refuses the request.
    pub(super) async fn admit(&self, heads: &Heads<'_>) -> Result<Option<Arc<Principal>>, Response> {
        if !self.host_allowed(heads) {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "the Host header names a host this server does not serve",
            ));
        }
        if !self.origin_allowed(heads) {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "requests from this Origin are not allowed",
            ));
        }
        let Some(auth) = &self.options.auth else {
            return Ok(None);
        };
        if heads.authorizations {
            // RFC 6750, section 3.1: a malformed request.
            let mut response = refuse(
                StatusCode::BAD_REQUEST,
                "the request has more than one `Authorization` header; send one, with one bearer token",
            );
            self.challenge(&mut response, Some("invalid_request"), None);
            return Err(response);
        }
        let token = heads
            .authorization
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_token);
        let principal = match token {
            Some(token) if !token.is_empty() => auth(token.to_owned()).await,
            _ => None,
        };
        match principal {
            Some(principal) => Ok(Some(Arc::new(principal))),
            None => {
                let error = token.is_some().then_some("invalid_token");
                let scope = self
                    .options
                    .resource_metadata
                    .as_ref()
                    .and_then(|metadata| metadata.scope.as_deref());
                let mut response = refuse(StatusCode::UNAUTHORIZED, "a valid bearer token is required");
                self.challenge(&mut response, error, scope);
                Err(response)
            }
        }
    }

    /// Sets `WWW-Authenticate` (RFC 6750, section 3): the metadata's URL (RFC 9728) when the
    /// server is an OAuth resource server, else the realm; then the error and the scopes.
    fn challenge(&self, response: &mut Response, error: Option<&str>, scope: Option<&str>) {
        let mut challenge = match &self.options.resource_metadata {
            Some(metadata) => format!("Bearer resource_metadata=\"{}\"", metadata.url),
            None => format!("Bearer realm=\"{}\"", self.options.auth_realm),
        };
        if let Some(error) = error {
            challenge.push_str(&format!(", error=\"{error}\""));
        }
        if let Some(scope) = scope {
            challenge.push_str(&format!(", scope=\"{scope}\""));
        }
        match HeaderValue::from_str(&challenge) {
            Ok(value) => {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
            }
            Err(_) => tracing::warn!(
                challenge,
                "a WWW-Authenticate challenge is not a valid header value"
            ),
        }
    }

    /// With [`ScopePolicy::Challenge`], refuses a `tools/call` (or a batch holding one) of a
    /// tool whose scopes the caller's token lacks: 403 with `error="insufficient_scope"` and
    /// the tool's scopes, so the client can step up and call again. A caller who may not see
    /// the tool at all is left to the engine (an unknown tool), and so is every call where
    /// the transport established no caller.
    pub(super) fn check_scopes(
        &self,
        incoming: &Incoming<'_>,
        caller: Option<&Arc<Principal>>,
    ) -> Result<(), Response> {
        let Some(principal) = caller else {
            return Ok(());
        };
        if self.options.scope_policy != ScopePolicy::Challenge {
            return Ok(());
        }
        let tools = self.engine.tools.snapshot();
        let lacking = |name: &str| {
            tools
                .get(name)
                .filter(|tool| self.engine.tool_visible(tool, caller) && !tool.allows(principal))
                .map(|tool| tool.scopes().join(" "))
        };
        let refusal = |id: Option<&RawValue>, name: &str, scopes: String| {
            let message = format!(
                "calling the tool `{name}` needs the scopes `{scopes}`, which the token lacks; get a token with them (step-up authorization) and call again"
            );
            let mut response = json_response(
                0,
                StatusCode::FORBIDDEN,
                encode_error(id, ErrorCode::INVALID_REQUEST, &message, None),
            );
            self.challenge(&mut response, Some("insufficient_scope"), Some(&scopes));
            response
        };
        if incoming.is_batch() {
            // Only 2025-03-26 sessions send batches: read again, leniently, for the calls.
            let Ok(batch) = serde_json::from_slice::<Vec<Value>>(incoming.text()) else {
                return Ok(());
            };
            let searching = self.engine.search.is_some();
            for call in batch.iter().filter(|m| m["method"] == "tools/call") {
                let params = &call["params"];
                let called = match params["name"].as_str() {
                    Some(crate::discovery::CALL_TOOL) if searching => params["arguments"]["name"].as_str(),
                    name => name,
                };
                if let Some(name) = called
                    && let Some(scopes) = lacking(name)
                {
                    return Err(refusal(None, name, scopes));
                }
            }
            return Ok(());
        }
        if incoming.method().as_deref() != Some("tools/call") {
            return Ok(());
        }
        let mut name: Option<Cow<'_, str>> = incoming
            .head()
            .name
            .and_then(|raw| serde_json::from_str(raw.get()).ok());
        // Tool search's `call_tool` needs the scopes of the tool it calls.
        if self.engine.search.is_some() && name.as_deref() == Some(crate::discovery::CALL_TOOL) {
            name = incoming
                .call_arguments()
                .and_then(|arguments| arguments.get("name"))
                .and_then(|raw| serde_json::from_str(raw.get()).ok());
        }
        match name {
            Some(name) => match lacking(&name) {
                Some(scopes) => Err(refusal(incoming.envelope().and_then(|e| e.id), &name, scopes)),
                None => Ok(()),
            },
            None => Ok(()),
        }
    }

    fn host_allowed(&self, heads: &Heads<'_>) -> bool {
        let Some(host) = heads.host.and_then(|h| h.to_str().ok()) else {
            return true; // HTTP/1.0 without Host: nothing to rebind
        };
        match &self.options.settings.allowed_hosts {
            Some(allowed) => allowed
                .iter()
                .any(|a| a == "*" || a.eq_ignore_ascii_case(host) || a.eq_ignore_ascii_case(hostname(host))),
            None => self.any_host || is_loopback_name(hostname(host)),
        }
    }

    fn origin_allowed(&self, heads: &Heads<'_>) -> bool {
        let Some(origin) = heads.origin.and_then(|h| h.to_str().ok()) else {
            return true; // not a browser
        };
        match &self.options.settings.allowed_origins {
            Some(allowed) => allowed.iter().any(|a| a == "*" || a.eq_ignore_ascii_case(origin)),
            None => origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && is_loopback_name(hostname(rest))
            }),
        }
    }
}

/// A POST's `Accept` and `Content-Type`: `Err` is the response that refuses it.
pub(super) fn check_post_headers(heads: &Heads<'_>) -> Result<(), Response> {
    // One pass over `Accept` for both types.
    let (mut json, mut events) = (true, true);
    if let Some(accept) = heads.accept {
        (json, events) = (false, false);
        for range in media_ranges(accept.as_bytes()) {
            json |= covers(range, b"application/json");
            events |= covers(range, b"text/event-stream");
        }
    }
    if !(json && events) {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            "the Accept header must allow both `application/json` and `text/event-stream`",
        ));
    }
    let json = heads.content_type.is_some_and(|v| {
        let essence = v.as_bytes().split(|&b| b == b';').next().unwrap_or_default();
        essence.trim_ascii().eq_ignore_ascii_case(b"application/json")
    });
    if !json {
        return Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (`Content-Type: application/json`)",
        ));
    }
    Ok(())
}

/// Whether `Accept` allows `mime` (no `Accept` allows anything).
pub(super) fn accepts(heads: &Heads<'_>, mime: &[u8]) -> bool {
    heads
        .accept
        .is_none_or(|accept| media_ranges(accept.as_bytes()).any(|range| covers(range, mime)))
}

/// The media ranges of an `Accept` value, without their parameters. Read as bytes: a value
/// that is not text matches nothing.
fn media_ranges(accept: &[u8]) -> impl Iterator<Item = &[u8]> {
    // memchr finds the separators a word at a time; a split on a closure tests each byte.
    let mut rest = Some(accept);
    std::iter::from_fn(move || {
        let text = rest?;
        let (range, after) = match memchr::memchr(b',', text) {
            Some(comma) => (&text[..comma], Some(&text[comma + 1..])),
            None => (text, None),
        };
        rest = after;
        let essence = memchr::memchr(b';', range).map_or(range, |semicolon| &range[..semicolon]);
        Some(essence.trim_ascii())
    })
}

/// Whether a media range (`type/subtype`, `type/*` or `*/*`) covers `mime`.
fn covers(range: &[u8], mime: &[u8]) -> bool {
    range == mime
        || range == b"*/*"
        || range
            .strip_suffix(b"/*")
            .and_then(|kind| mime.strip_prefix(kind))
            .is_some_and(|rest| rest.first() == Some(&b'/'))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn with_accept(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(value));
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers
    }

    #[test]
    fn one_pass_finds_the_first_value_of_each_header_read() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("localhost:8080"));
        headers.append(SESSION_HEADER, HeaderValue::from_static("first"));
        headers.append(SESSION_HEADER, HeaderValue::from_static("second"));
        headers.insert("x-other", HeaderValue::from_static("ignored"));
        headers.insert("mcp-name", HeaderValue::from_static("add"));
        headers.insert(VERSION_HEADER, HeaderValue::from_static("2026-07-28"));
        let heads = Heads::of(&headers);
        assert_eq!(heads.host, headers.get(header::HOST));
        assert_eq!(heads.session, Some(&HeaderValue::from_static("first")));
        assert_eq!(heads.session, headers.get(SESSION_HEADER));
        assert_eq!(heads.name, Some(&HeaderValue::from_static("add")));
        assert_eq!(heads.version, Some(&HeaderValue::from_static("2026-07-28")));
        let absent = [
            heads.origin,
            heads.authorization,
            heads.accept,
            heads.content_type,
        ];
        assert!(absent.iter().all(Option::is_none));
        assert!(heads.content_length.is_none() && heads.method.is_none());
        assert!(!heads.authorizations);
        headers.append(header::AUTHORIZATION, HeaderValue::from_static("Bearer a"));
        assert!(!Heads::of(&headers).authorizations);
        headers.append(header::AUTHORIZATION, HeaderValue::from_static("Bearer b"));
        let twice = Heads::of(&headers);
        assert!(twice.authorizations);
        assert_eq!(twice.authorization, Some(&HeaderValue::from_static("Bearer a")));
        assert_eq!(twice.doubled, None);
        for (name, label) in [
            ("mcp-name", "Mcp-Name"),
            ("mcp-method", "Mcp-Method"),
            ("mcp-protocol-version", "MCP-Protocol-Version"),
        ] {
            let mut doubled = headers.clone();
            doubled.append(name, HeaderValue::from_static("again"));
            doubled.append(name, HeaderValue::from_static("and again"));
            assert_eq!(Heads::of(&doubled).doubled, Some(label), "{name}");
        }
    }

    #[test]
    fn the_bearer_scheme_is_named_in_any_case() {
        for value in ["Bearer t0k", "bearer t0k", "BEARER t0k", "bEaReR   t0k "] {
            assert_eq!(bearer_token(value), Some("t0k"), "{value}");
        }
        for value in ["Basic dXNlcg==", "Bearer", "Bearert0k", "Beare t0k", ""] {
            assert_eq!(bearer_token(value), None, "{value}");
        }
    }

    #[test]
    fn accept_ranges_cover_their_types_and_nothing_else() {
        assert!(covers(b"application/json", b"application/json"));
        assert!(covers(b"*/*", b"text/event-stream"));
        assert!(covers(b"text/*", b"text/event-stream"));
        assert!(!covers(b"text/*", b"application/json"));
        // A type that merely starts like another is not covered by its wildcard.
        assert!(!covers(b"app/*", b"application/json"));
        assert!(!covers(b"application/json5", b"application/json"));
        let ranges = |accept: &'static str| media_ranges(accept.as_bytes()).collect::<Vec<_>>();
        assert_eq!(
            ranges(" text/html;q=0.5,application/json , */*;q=0.1,"),
            [&b"text/html"[..], b"application/json", b"*/*", b""]
        );
        assert_eq!(ranges(""), [&b""[..]]);
        let both = "application/json;q=0.9 , text/event-stream";
        let accepts = |headers: &HeaderMap, mime: &[u8]| accepts(&Heads::of(headers), mime);
        assert!(accepts(&with_accept(both), b"text/event-stream"));
        assert!(accepts(&HeaderMap::new(), b"application/json"));
        assert!(!accepts(&with_accept("text/html"), b"application/json"));
    }

    #[test]
    fn a_post_must_accept_both_answers_and_send_json() {
        let check_post_headers = |headers: &HeaderMap| check_post_headers(&Heads::of(headers));
        assert!(check_post_headers(&with_accept("application/json, text/event-stream")).is_ok());
        assert!(check_post_headers(&with_accept("*/*")).is_ok());
        let refused = check_post_headers(&with_accept("application/json")).unwrap_err();
        assert_eq!(refused.status(), StatusCode::NOT_ACCEPTABLE);
        let mut form = with_accept("*/*");
        form.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert_eq!(
            check_post_headers(&form).unwrap_err().status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        form.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("Application/JSON; charset=utf-8"),
        );
        assert!(check_post_headers(&form).is_ok());
    }
}
