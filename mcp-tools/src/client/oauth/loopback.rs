//! The redirect's end on the user's machine: a listener on a loopback port (RFC 8252,
//! section 7.3), which takes the one request the browser makes after authorization and
//! hands its URL to the client.

use super::{AuthorizationHandler, AuthorizationRequest};
use axum::body::Bytes;
use http_body_util::Full;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Mutex, mpsc};

/// The path the browser is sent back to.
const CALLBACK_PATH: &str = "/callback";

/// How long the listener waits for the user to come back.
const WAIT: Duration = Duration::from_secs(300);

/// The page the browser shows once it is back.
const DONE_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Authorized</title><p>You can close this window and go back to the application.";

/// An [`AuthorizationHandler`] for a program on the user's machine: it shows the
/// authorization URL (with the function given, which may print it or open a browser) and
/// waits, on `127.0.0.1`, for the browser to be sent back to
/// [`redirect_uri`](Loopback::redirect_uri), up to five minutes.
///
/// ```no_run
/// use mcp_toolkit::client::oauth::{Loopback, OAuth};
/// use mcp_toolkit::client::{Client, ClientError};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // Any free port: dynamic registration gives the server the redirect URI.
/// let loopback = Loopback::bind(0, |url| eprintln!("Open {url} to sign in")).await?;
/// let oauth = OAuth::new(loopback.redirect_uri(), loopback);
/// let client = Client::http("https://mcp.example.com/mcp").oauth(oauth).connect().await?;
/// # Ok(())
/// # }
/// ```
pub struct Loopback {
    listener: Mutex<TcpListener>,
    redirect_uri: String,
    show: Box<dyn Fn(&str) + Send + Sync>,
}

impl fmt::Debug for Loopback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loopback")
            .field("redirect_uri", &self.redirect_uri)
            .finish_non_exhaustive()
    }
}

impl Loopback {
    /// Listens on `127.0.0.1:port` (`0`: a free port), with `show` to give the user the
    /// authorization URL.
    pub async fn bind(port: u16, show: impl Fn(&str) + Send + Sync + 'static) -> std::io::Result<Loopback> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        Ok(Loopback {
            listener: Mutex::new(listener),
            redirect_uri: format!("http://127.0.0.1:{port}{CALLBACK_PATH}"),
            show: Box::new(show),
        })
    }

    /// Where the authorization server is to send the browser back.
    pub fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    /// The URL of the first request for the callback path, answered with a page that
    /// says the user may go back to the application; other requests get a 404.
    async fn callback(&self) -> Option<String> {
        let listener = self.listener.lock().await;
        let (found_in, mut found) = mpsc::channel::<String>(1);
        let found_in = Arc::new(found_in);
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => accepted.ok()?,
                url = found.recv() => return url,
            };
            let found_in = Arc::clone(&found_in);
            let redirect_uri = self.redirect_uri.clone();
            let service =
                hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let found_in = Arc::clone(&found_in);
                    let redirect_uri = redirect_uri.clone();
                    async move {
                        let uri = request.uri();
                        let response = if uri.path() == CALLBACK_PATH {
                            let query = uri.query().map(|query| format!("?{query}")).unwrap_or_default();
                            let _ = found_in.try_send(format!("{redirect_uri}{query}"));
                            hyper::Response::builder()
                                .header("content-type", "text/html; charset=utf-8")
                                .body(Full::new(Bytes::from_static(DONE_PAGE.as_bytes())))
                        } else {
                            hyper::Response::builder()
                                .status(404)
                                .body(Full::new(Bytes::new()))
                        };
                        response.map_err(|e| e.to_string())
                    }
                });
            tokio::spawn(async move {
                let connection = hyper::server::conn::http1::Builder::new()
                    .keep_alive(false)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let _ = tokio::time::timeout(Duration::from_secs(10), connection).await;
            });
        }
    }
}

impl AuthorizationHandler for Loopback {
    async fn authorize(&self, request: AuthorizationRequest) -> Option<String> {
        (self.show)(request.url());
        let url = tokio::time::timeout(WAIT, self.callback()).await.ok()?;
        if url.is_none() {
            tracing::warn!("the loopback listener for the authorization redirect failed");
        }
        url
    }
}
