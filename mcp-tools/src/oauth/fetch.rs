//! The resource server's HTTP client: GETs JSON documents (metadata, key sets) and POSTs
//! introspection forms, over hyper-util's client with rustls (the `ring` provider and the
//! Mozilla roots of `webpki-roots`). Plain `http://` only to loopback hosts; every exchange
//! has a time limit and a bound on the body.

use super::error::FetchError;
use crate::protocol::oauth::is_secure;
use axum::body::Bytes;
use axum::http::{Method, Request, Uri, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::de::DeserializeOwned;
use std::sync::OnceLock;
use std::time::Duration;

/// How long one exchange may take.
const TIME_LIMIT: Duration = Duration::from_secs(10);
/// The longest body read: key sets and metadata are a few kilobytes.
const MAX_BODY: usize = 1 << 20;

type HttpsClient = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

/// The client, built on first use (loading the roots once).
#[derive(Default)]
pub(super) struct Fetcher {
    client: OnceLock<HttpsClient>,
}

impl Fetcher {
    fn client(&self) -> Result<&HttpsClient, FetchError> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())?
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(TokioExecutor::new()).build(connector);
        Ok(self.client.get_or_init(|| client))
    }

    /// GETs `url` and reads its JSON.
    pub(super) async fn get_json<T: DeserializeOwned>(&self, url: &str) -> Result<T, FetchError> {
        let request = Request::builder()
            .method(Method::GET)
            .uri(checked(url)?)
            .header(header::ACCEPT, "application/json")
            .body(Full::default())
            .map_err(|_| FetchError::Url(url.to_owned()))?;
        self.exchange(request).await
    }

    /// POSTs `form` (`application/x-www-form-urlencoded`) to `url` with HTTP Basic client
    /// authentication (RFC 6749, section 2.3.1), and reads the JSON answer.
    pub(super) async fn post_form<T: DeserializeOwned>(
        &self,
        url: &str,
        (client_id, secret): (&str, &str),
        form: &[(&str, &str)],
    ) -> Result<T, FetchError> {
        let request = Request::builder()
            .method(Method::POST)
            .uri(checked(url)?)
            .header(header::ACCEPT, "application/json")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(
                header::AUTHORIZATION,
                crate::protocol::oauth::basic_credentials(client_id, secret),
            )
            .body(Full::new(Bytes::from(crate::protocol::oauth::form(
                form.iter().copied(),
            ))))
            .map_err(|_| FetchError::Url(url.to_owned()))?;
        self.exchange(request).await
    }

    async fn exchange<T: DeserializeOwned>(&self, request: Request<Full<Bytes>>) -> Result<T, FetchError> {
        let client = self.client()?;
        let work = async {
            let response = client.request(request).await?;
            let status = response.status();
            if !status.is_success() {
                return Err(FetchError::Status(status.as_u16()));
            }
            let body = Limited::new(response.into_body(), MAX_BODY)
                .collect()
                .await
                .map_err(|_| FetchError::Body(MAX_BODY))?
                .to_bytes();
            Ok(serde_json::from_slice(&body)?)
        };
        tokio::time::timeout(TIME_LIMIT, work)
            .await
            .map_err(|_| FetchError::Timeout(TIME_LIMIT))?
    }
}

/// `url` parsed, if it may be fetched: `https://`, or `http://` to a loopback host.
fn checked(url: &str) -> Result<Uri, FetchError> {
    let uri: Uri = url.parse().map_err(|_| FetchError::Url(url.to_owned()))?;
    match uri.scheme_str() {
        _ if is_secure(&uri) => Ok(uri),
        Some("http") if uri.host().is_some() => Err(FetchError::NotHttps(url.to_owned())),
        _ => Err(FetchError::Url(url.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_may_be_plain_http() {
        assert!(checked("http://127.0.0.1:9/jwks").is_ok());
        assert!(checked("https://auth.example.com/jwks").is_ok());
        assert!(matches!(
            checked("http://auth.example.com/jwks"),
            Err(FetchError::NotHttps(_))
        ));
        assert!(matches!(checked("file:///etc/passwd"), Err(FetchError::Url(_))));
    }
}
