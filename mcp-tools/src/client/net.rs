//! The HTTP connections the client's HTTP parts share (the transport and, with
//! `client-oauth`, authorization): hyper-util's pooled client, with rustls on `ring` and the
//! Mozilla roots when `tls` is on. Below both, so neither names the other's internals.

use super::ClientError;
use axum::body::Bytes;
use axum::http::Uri;
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

#[cfg(feature = "tls")]
pub(super) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
pub(super) type Connector = HttpConnector;

/// The client's pool of HTTP connections.
pub(super) type HyperClient = hyper_util::client::legacy::Client<Connector, Full<Bytes>>;

/// The error of a request to `url` that got no answer.
pub(super) fn request_failed(url: &Uri, error: &hyper_util::client::legacy::Error) -> ClientError {
    ClientError::Closed {
        reason: format!("the request to {url} failed: {}", error_chain(error)),
    }
}

#[cfg(feature = "tls")]
pub(super) fn hyper_client() -> Result<HyperClient, ClientError> {
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
        .map_err(|e| ClientError::Closed {
            reason: format!("TLS could not be set up: {e}"),
        })?
        .https_or_http()
        .enable_http1()
        .build();
    Ok(hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector))
}

#[cfg(not(feature = "tls"))]
pub(super) fn hyper_client() -> Result<HyperClient, ClientError> {
    Ok(hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(HttpConnector::new()))
}

/// An error and its sources, one after another.
pub(super) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
