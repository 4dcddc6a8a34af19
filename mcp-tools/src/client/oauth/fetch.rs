//! The exchanges of authorization, over the client's own HTTP connections: GETs of metadata,
//! POSTs of registrations and token requests. Each has a time limit and a bound on what it
//! reads, and goes only to `https://` (or loopback) URLs.

use super::AuthorizationError;
use crate::client::net::HyperClient;
use crate::protocol::oauth::is_secure;
use axum::body::Bytes;
use axum::http::{Method, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full, Limited};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::time::Duration;

/// How long one exchange may take.
const TIME_LIMIT: Duration = Duration::from_secs(10);

/// The longest body read: metadata and tokens are a few kilobytes.
const MAX_BODY: usize = 1 << 20;

/// The client's HTTP connections, for authorization.
pub(super) struct Fetch {
    pub(super) client: HyperClient,
}

/// A body POSTed.
pub(super) enum Body {
    /// `application/x-www-form-urlencoded`: a token request.
    Form(String),
    /// `application/json`: a registration.
    Json(Value),
}

impl Fetch {
    /// GETs `url` and reads it as a `T`; `None` when the server has no such document (any
    /// status but success, or a body that is not one).
    pub(super) async fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
    ) -> Result<Option<T>, AuthorizationError> {
        let request = Request::builder()
            .method(Method::GET)
            .uri(secure(url)?)
            .header(header::ACCEPT, "application/json")
            .body(Full::default())
            .map_err(|_| AuthorizationError::NotHttps { url: url.to_owned() })?;
        let (status, body) = self.exchange(url, request).await?;
        if !status.is_success() {
            return Ok(None);
        }
        Ok(serde_json::from_slice(&body).ok())
    }

    /// POSTs `body` to `url`, with `authorization` if given, and gives the status and the
    /// JSON answer (`null` if the answer is not JSON).
    pub(super) async fn post(
        &self,
        url: &str,
        body: Body,
        authorization: Option<String>,
    ) -> Result<(StatusCode, Value), AuthorizationError> {
        let (content_type, bytes) = match body {
            Body::Form(form) => ("application/x-www-form-urlencoded", Bytes::from(form)),
            Body::Json(json) => ("application/json", Bytes::from(json.to_string())),
        };
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(secure(url)?)
            .header(header::ACCEPT, "application/json")
            .header(header::CONTENT_TYPE, content_type);
        if let Some(authorization) = authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        let request = request
            .body(Full::new(bytes))
            .map_err(|_| AuthorizationError::NotHttps { url: url.to_owned() })?;
        let (status, body) = self.exchange(url, request).await?;
        Ok((status, serde_json::from_slice(&body).unwrap_or(Value::Null)))
    }

    async fn exchange(
        &self,
        url: &str,
        request: Request<Full<Bytes>>,
    ) -> Result<(StatusCode, Bytes), AuthorizationError> {
        let unreachable = |reason: String| AuthorizationError::Unreachable {
            url: url.to_owned(),
            reason,
        };
        let work = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| unreachable(crate::client::net::error_chain(&e)))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), MAX_BODY)
                .collect()
                .await
                .map_err(|e| unreachable(format!("reading the answer failed: {e}")))?
                .to_bytes();
            Ok((status, body))
        };
        tokio::time::timeout(TIME_LIMIT, work)
            .await
            .map_err(|_| unreachable(format!("no answer within {TIME_LIMIT:?}")))?
    }
}

/// `url` parsed, if OAuth may be carried to it.
pub(super) fn secure(url: &str) -> Result<Uri, AuthorizationError> {
    url.parse::<Uri>()
        .ok()
        .filter(is_secure)
        .ok_or_else(|| AuthorizationError::NotHttps { url: url.to_owned() })
}
