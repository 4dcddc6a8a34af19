//! Who may talk to the endpoint, before any JSON-RPC: `Host` and `Origin` against an
//! allow-list (DNS rebinding), an optional bearer token, and the `Accept` and
//! `Content-Type` a request must carry.

use super::app::HttpApp;
use super::response::refuse;
use crate::context::Principal;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::response::Response;
use std::sync::Arc;

/// Refuses an HTTP/1.1 request that has no `Host` header with 400, as RFC 9112 (3.2)
/// requires; HTTP/1.0 requests may omit it.
pub(super) async fn require_host(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if request.version() == Version::HTTP_11 && !request.headers().contains_key(header::HOST) {
        return refuse(
            StatusCode::BAD_REQUEST,
            "an HTTP/1.1 request must have a Host header (RFC 9112, section 3.2)",
        );
    }
    next.run(request).await
}

impl HttpApp {
    /// Host, Origin and bearer token; `Err` is the response that refuses the request.
    pub(super) async fn admit(&self, headers: &HeaderMap) -> Result<Option<Arc<Principal>>, Response> {
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
}

/// A POST's `Accept` and `Content-Type`: `Err` is the response that refuses it.
pub(super) fn check_post_headers(headers: &HeaderMap) -> Result<(), Response> {
    if !(accepts(headers, "application/json") && accepts(headers, "text/event-stream")) {
        return Err(refuse(
            StatusCode::NOT_ACCEPTABLE,
            "the Accept header must allow both `application/json` and `text/event-stream`",
        ));
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
        return Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (`Content-Type: application/json`)",
        ));
    }
    Ok(())
}

/// Whether `Accept` allows `mime` (no `Accept` allows anything).
pub(super) fn accepts(headers: &HeaderMap, mime: &str) -> bool {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let (kind, _) = mime.split_once('/').unwrap_or((mime, ""));
    accept.split(',').any(|range| {
        let range = range.split(';').next().unwrap_or("").trim();
        range == mime || range == "*/*" || range.strip_suffix("/*") == Some(kind)
    })
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
