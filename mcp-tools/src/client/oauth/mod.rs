//! OAuth 2.1 for [`Client::http`](super::Client::http), as the MCP authorization
//! specification asks of a client (feature `client-oauth`).
//!
//! A client given [`Connector::oauth`](super::Connector::oauth) sends its requests with the
//! token it holds. When the server refuses one (`401`, or `403` with
//! `error="insufficient_scope"`), the client goes down the stages and sends the request
//! again:
//!
//! 1. **Challenge**: the refusal's `WWW-Authenticate` names the scope wanted and where
//!    the resource's metadata is.
//! 2. **Discovery**: the server's Protected Resource Metadata (RFC 9728) names its
//!    authorization server; that server's metadata (RFC 8414 or OpenID Connect Discovery)
//!    gives its endpoints. The resource must be the server the client speaks to, the
//!    issuer the one asked for, every endpoint `https://` (or loopback), and PKCE's S256
//!    offered; otherwise the client stops, having sent nothing.
//! 3. **Identity**: the application's own registration ([`OAuth::client`]), else a client
//!    ID metadata document ([`OAuth::client_metadata_url`]) where the server takes one,
//!    else dynamic registration (RFC 7591); one identity per authorization server.
//! 4. **Authorization**: the [`AuthorizationHandler`] sends the user to the authorization
//!    URL (PKCE, `state`, `resource`) and hands back where they were redirected; `state`
//!    and `iss` (RFC 9207) are checked before the code is used.
//! 5. **Token**: the code is traded at the token endpoint with the method the server
//!    takes (`none`, `client_secret_basic`, `client_secret_post`).
//!
//! A client that acts for itself, with no user, skips the fourth stage:
//! [`OAuth::client_credentials`] asks the token endpoint directly (SEP-1046). What a client
//! got can outlive it in a [`TokenStore`] ([`OAuth::token_store`]).
//!
//! The scopes asked for are the challenge's, else all the resource's metadata lists, else
//! [`OAuth::scopes`], else none; `offline_access` is added when the authorization server
//! lists it, for a refresh token. A `403` for a missing scope asks again for the scopes
//! held and the new ones together. A token that expires is refreshed before it is used; a
//! `401` with one is answered by reading the metadata again (the server may have moved to
//! another authorization server, where the client registers anew and shows nothing of the
//! old one's) and by a refresh, else a new authorization. A request is authorized at most
//! three times before it fails with [`AuthorizationError::Refused`]; concurrent requests
//! share one authorization. The time a user spends authorizing does not count against
//! the request's [`request_timeout`](super::Connector::request_timeout).
//!
//! ```no_run
//! use mcp_toolkit::client::oauth::{AuthorizationRequest, OAuth};
//! use mcp_toolkit::client::{Client, ClientError};
//!
//! # async fn wait_for_redirect() -> Option<String> { None }
//! # async fn run() -> Result<(), ClientError> {
//! let oauth = OAuth::new("http://127.0.0.1:8765/callback", |request: AuthorizationRequest| async move {
//!     // Open the URL in the user's browser, then wait for the redirect to the callback
//!     // (a listener on 127.0.0.1:8765, say) and give back the URL it arrived at.
//!     eprintln!("Open {} to sign in", request.url());
//!     wait_for_redirect().await
//! })
//! .client_name("My agent");
//! let client = Client::http("https://mcp.example.com/mcp").oauth(oauth).connect().await?;
//! let tools = client.list_tools().await?;
//! # Ok(())
//! # }
//! ```

mod challenge;
mod discover;
mod fetch;
mod grant;
mod loopback;

pub use loopback::Loopback;

use super::net::HyperClient;
use super::{ClientError, lock};
use axum::body::Bytes;
use axum::http::{HeaderValue, Request, Uri, header};
use challenge::{Challenge, Kind};
use discover::Authority;
use fetch::Fetch;
use grant::{Attempt, Identity, Tokens};
use http_body_util::Full;
use hyper::body::Incoming;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// How many times one request is authorized before it fails.
const MAX_AUTHORIZATIONS: u32 = 3;

/// How long before its expiry a token is refreshed.
const EXPIRY_MARGIN: Duration = Duration::from_secs(30);

/// How a client authorizes: where the user is sent back to, who sends them, and who the
/// client is. Given to [`Connector::oauth`](super::Connector::oauth); the
/// [module](self) says what the client does with it.
#[derive(Clone)]
pub struct OAuth {
    /// Empty for the client credentials grant, which has no user to send back.
    redirect_uri: String,
    /// `None` for the client credentials grant.
    handler: Option<Arc<dyn ErasedHandler>>,
    client_name: String,
    metadata_url: Option<String>,
    registered: Option<(String, Option<String>)>,
    scopes: Vec<String>,
    store: Option<Arc<dyn ErasedStore>>,
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_name", &self.client_name)
            .field("client_metadata_url", &self.metadata_url)
            .field("client_id", &self.registered.as_ref().map(|(id, _)| id))
            .field("scopes", &self.scopes)
            .field("token_store", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// Authorization that sends the user back to `redirect_uri` (registered with the
    /// authorization server, or given in dynamic registration), with `handler` taking them
    /// to the authorization URL.
    pub fn new(redirect_uri: impl Into<String>, handler: impl AuthorizationHandler) -> OAuth {
        OAuth {
            redirect_uri: redirect_uri.into(),
            handler: Some(Arc::new(handler)),
            client_name: super::CLIENT_NAME.to_owned(),
            metadata_url: None,
            registered: None,
            scopes: Vec::new(),
            store: None,
        }
    }

    /// Authorization for a client that acts for itself, with no user: the client
    /// credentials grant (the OAuth client credentials extension, SEP-1046), with the
    /// client's id and secret from its registration (`client_secret_basic`, or
    /// `client_secret_post` where the server takes only that). A refusal is answered with a
    /// new token, for the scopes it names added to those held.
    ///
    /// ```no_run
    /// use mcp_toolkit::client::oauth::OAuth;
    /// use mcp_toolkit::client::{Client, ClientError};
    ///
    /// # async fn run() -> Result<(), ClientError> {
    /// let secret = std::env::var("REPORTS_CLIENT_SECRET").unwrap_or_default();
    /// let oauth = OAuth::client_credentials("nightly-reports", secret);
    /// let client = Client::http("https://mcp.example.com/mcp").oauth(oauth).connect().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn client_credentials(client_id: impl Into<String>, secret: impl Into<String>) -> OAuth {
        OAuth {
            redirect_uri: String::new(),
            handler: None,
            client_name: super::CLIENT_NAME.to_owned(),
            metadata_url: None,
            registered: Some((client_id.into(), Some(secret.into()))),
            scopes: Vec::new(),
            store: None,
        }
    }

    /// The name dynamic registration gives the client (`client_name`), which the
    /// authorization server may show the user (`mcp-toolkit-client` unless set).
    pub fn client_name(mut self, name: impl Into<String>) -> OAuth {
        self.client_name = name.into();
        self
    }

    /// The URL of the client's metadata document (an `https://` URL whose JSON names the
    /// client and its redirect URIs): where an authorization server takes such documents
    /// (`client_id_metadata_document_supported`), the URL is the client's id and no
    /// registration is needed.
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> OAuth {
        self.metadata_url = Some(url.into());
        self
    }

    /// A client registered with the authorization server beforehand: its id, and its
    /// secret if it is a confidential client (sent with `client_secret_basic`, or
    /// `client_secret_post` where the server takes only that).
    pub fn client(mut self, client_id: impl Into<String>, secret: Option<String>) -> OAuth {
        self.registered = Some((client_id.into(), secret));
        self
    }

    /// The scopes to ask for when neither the server's challenge nor its metadata names
    /// any.
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> OAuth {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Keeps what authorization gives (the token, the refresh token, the client's
    /// registration) in `store`, and starts from what it holds: a program started again
    /// uses its token, or refreshes it, instead of sending the user to authorize again.
    /// What was saved for another server is not used. Without a store, it lives as long
    /// as the client.
    ///
    /// ```no_run
    /// use mcp_toolkit::client::oauth::{Headless, OAuth, TokenFile};
    /// use mcp_toolkit::client::{Client, ClientError};
    ///
    /// # async fn run() -> Result<(), ClientError> {
    /// let oauth = OAuth::new("http://127.0.0.1:8765/callback", Headless)
    ///     .token_store(TokenFile::new("/home/ada/.config/my-agent/mcp-token.json"));
    /// let client = Client::http("https://mcp.example.com/mcp").oauth(oauth).connect().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn token_store(mut self, store: impl TokenStore) -> OAuth {
        self.store = Some(Arc::new(store));
        self
    }
}

/// What authorization gave a client for one server, as a [`TokenStore`] keeps it: the
/// token and its expiry, the refresh token, the scopes, and the client's identity at the
/// authorization server (with its secret, if it has one). It is serde-serializable; keep
/// it as you would a password. Its `Debug` shows no token or secret.
#[derive(Clone, Serialize, Deserialize)]
pub struct SavedAuthorization {
    resource: String,
    issuer: String,
    client: Identity,
    access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    /// When the token expires, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expires_at: Option<u64>,
    #[serde(default)]
    scopes: Vec<String>,
}

impl fmt::Debug for SavedAuthorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SavedAuthorization")
            .field("resource", &self.resource)
            .field("issuer", &self.issuer)
            .field("client_id", &self.client.client_id)
            .field("expires_at", &self.expires_at)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl SavedAuthorization {
    /// The server (the resource) it is for.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The authorization server that issued the token.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The scopes asked for.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }
}

/// Where a client keeps its [`SavedAuthorization`] between runs (see
/// [`OAuth::token_store`]). [`TokenFile`] keeps it in a file; a keychain or a database
/// would implement this.
pub trait TokenStore: Send + Sync + 'static {
    /// What was saved last, if anything.
    fn load(&self) -> impl Future<Output = Option<SavedAuthorization>> + Send;
    /// Keeps `saved`, in place of what was saved before. A failure is the store's to
    /// report; the client goes on with what it holds.
    fn save(&self, saved: SavedAuthorization) -> impl Future<Output = ()> + Send;
}

/// [`TokenStore`] as the client keeps it.
trait ErasedStore: Send + Sync {
    fn load_boxed(&self) -> Pin<Box<dyn Future<Output = Option<SavedAuthorization>> + Send + '_>>;
    fn save_boxed(&self, saved: SavedAuthorization) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

impl<S: TokenStore> ErasedStore for S {
    fn load_boxed(&self) -> Pin<Box<dyn Future<Output = Option<SavedAuthorization>> + Send + '_>> {
        Box::pin(self.load())
    }

    fn save_boxed(&self, saved: SavedAuthorization) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(self.save(saved))
    }
}

/// A [`TokenStore`] in a JSON file, readable and writable by its owner alone (on Unix),
/// written whole to a file beside it and then renamed over it, so a crash leaves the old
/// one or the new one. A file that is missing or unreadable is nothing saved.
#[derive(Debug, Clone)]
pub struct TokenFile {
    path: PathBuf,
}

impl TokenFile {
    /// A store in the file at `path` (its folder must exist).
    pub fn new(path: impl Into<PathBuf>) -> TokenFile {
        TokenFile { path: path.into() }
    }
}

impl TokenStore for TokenFile {
    async fn load(&self) -> Option<SavedAuthorization> {
        let path = self.path.clone();
        let bytes = tokio::task::spawn_blocking(move || std::fs::read(path))
            .await
            .ok()?
            .ok()?;
        serde_json::from_slice(&bytes)
            .inspect_err(|error| tracing::warn!(path = %self.path.display(), %error, "the token file is not a saved authorization"))
            .ok()
    }

    async fn save(&self, saved: SavedAuthorization) {
        let path = self.path.clone();
        let written =
            tokio::task::spawn_blocking(move || write_private(&path, &serde_json::to_vec_pretty(&saved)?))
                .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                tracing::warn!(path = %self.path.display(), %error, "the token file could not be written")
            }
            Err(error) => tracing::warn!(%error, "writing the token file stopped"),
        }
    }
}

/// Writes `bytes` to a file beside `path`, readable by its owner alone, and renames it
/// over `path`.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut staging = path.as_os_str().to_owned();
    staging.push(".new");
    let staging = PathBuf::from(staging);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&staging)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&staging, path)
}

/// Takes the user to the authorization server and back: the application's part of
/// authorization. It is given the URL to send the user to (in a browser, typically), and
/// returns where the authorization server sent them back: the redirect URI with its query
/// (`code`, `state`, `iss`), whole or just the query. `None` means the user did not come
/// back, and the request fails with [`AuthorizationError::Declined`].
///
/// A closure `Fn(AuthorizationRequest) -> impl Future<Output = Option<String>>` is one;
/// [`Loopback`] is one for a program on the user's machine (it waits for the browser on a
/// loopback port); [`Headless`] is one for authorization servers that need no user.
pub trait AuthorizationHandler: Send + Sync + 'static {
    /// Sends the user to `request.url()` and returns the redirect they came back with.
    fn authorize(&self, request: AuthorizationRequest) -> impl Future<Output = Option<String>> + Send;
}

impl<F, Fut> AuthorizationHandler for F
where
    F: Fn(AuthorizationRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Option<String>> + Send,
{
    fn authorize(&self, request: AuthorizationRequest) -> impl Future<Output = Option<String>> + Send {
        self(request)
    }
}

/// [`AuthorizationHandler`] as the client keeps it.
trait ErasedHandler: Send + Sync {
    fn authorize_boxed(
        &self,
        request: AuthorizationRequest,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + '_>>;
}

impl<H: AuthorizationHandler> ErasedHandler for H {
    fn authorize_boxed(
        &self,
        request: AuthorizationRequest,
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + '_>> {
        Box::pin(self.authorize(request))
    }
}

/// One authorization the user is asked for.
#[derive(Debug, Clone)]
pub struct AuthorizationRequest {
    url: String,
    redirect_uri: String,
    issuer: String,
    scopes: Vec<String>,
}

impl AuthorizationRequest {
    /// The URL to send the user to: the authorization endpoint with the request in its
    /// query.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where the authorization server will send the user back.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// The authorization server asked.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The scopes asked for (none: the server's default).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }
}

/// An [`AuthorizationHandler`] for authorization servers that approve without a user (test
/// servers, or a consent already given): it requests the authorization URL itself, without
/// following the redirect, and returns the redirect's `Location`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Headless;

impl AuthorizationHandler for Headless {
    async fn authorize(&self, request: AuthorizationRequest) -> Option<String> {
        let client = super::net::hyper_client().ok()?;
        let uri: Uri = request.url.parse().ok()?;
        let get = Request::get(uri).body(Full::<Bytes>::default()).ok()?;
        let response = tokio::time::timeout(Duration::from_secs(10), client.request(get))
            .await
            .ok()?
            .ok()?;
        if !response.status().is_redirection() {
            tracing::warn!(status = %response.status(), "the authorization endpoint did not redirect");
            return None;
        }
        let location = response.headers().get(header::LOCATION)?.to_str().ok()?;
        Some(location.to_owned())
    }
}

/// Why authorizing failed. The request that needed it fails with
/// [`ClientError::Authorization`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthorizationError {
    /// A document discovery needs was found nowhere.
    #[error("{what} was not found (tried {tried:?})")]
    Discovery {
        /// The document.
        what: &'static str,
        /// The URLs tried.
        tried: Vec<String>,
    },
    /// The resource's metadata is for another resource than the server: it is not used.
    #[error("the resource metadata names the resource {resource:?}, which is not the server {server:?}")]
    ResourceMismatch {
        /// The resource the metadata names.
        resource: String,
        /// The server's URL.
        server: String,
    },
    /// An authorization server named itself otherwise than it was asked for (in its
    /// metadata, or in the redirect's `iss`): nothing of it is used.
    #[error("the authorization server {expected:?} answered as {found:?}")]
    IssuerMismatch {
        /// The issuer asked.
        expected: String,
        /// The issuer it named.
        found: String,
    },
    /// A URL discovery gave is neither `https://` nor loopback.
    #[error("{url:?} is not an https URL (plain http is only for loopback)")]
    NotHttps {
        /// The URL.
        url: String,
    },
    /// The authorization server does not offer PKCE with S256.
    #[error("the authorization server {issuer:?} does not offer PKCE with S256")]
    NoPkce {
        /// The server.
        issuer: String,
    },
    /// The client has no identity at the authorization server: it takes neither client ID
    /// metadata documents (or none was given) nor dynamic registration, and no
    /// pre-registered client was given.
    #[error(
        "the client has no identity at {issuer:?}: give `OAuth::client`, or `OAuth::client_metadata_url` for a server that takes client ID metadata documents"
    )]
    NoClientIdentity {
        /// The authorization server.
        issuer: String,
    },
    /// Dynamic registration was refused.
    #[error("dynamic registration was refused with HTTP {status}: {error}")]
    Registration {
        /// The HTTP status.
        status: u16,
        /// The OAuth error.
        error: String,
    },
    /// The [`AuthorizationHandler`] gave no redirect.
    #[error("the user did not complete the authorization")]
    Declined,
    /// The authorization server refused (the redirect's `error`).
    #[error("the authorization was refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        /// The OAuth error code, such as `access_denied`.
        error: String,
        /// Its description.
        description: Option<String>,
    },
    /// The redirect does not answer the authorization request.
    #[error("the redirect cannot be used: {reason}")]
    Redirect {
        /// Why.
        reason: String,
    },
    /// The token endpoint refused.
    #[error("the token endpoint answered HTTP {status}: {error}")]
    Token {
        /// The HTTP status.
        status: u16,
        /// The OAuth error.
        error: String,
    },
    /// An authorization server could not be reached.
    #[error("{url} could not be reached: {reason}")]
    Unreachable {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The server still refused the request after it was authorized
    /// `MAX_AUTHORIZATIONS` (3) times.
    #[error("the server refused the request with HTTP {status} after {attempts} authorizations")]
    Refused {
        /// The last status.
        status: u16,
        /// How many authorizations were made.
        attempts: u32,
    },
}

/// The authorization of one server's requests: the token in use, and what was learned
/// getting it.
pub(super) struct Session {
    oauth: OAuth,
    server: Uri,
    fetch: Fetch,
    /// The `Authorization` value in use and when its token expires; read by every request.
    current: Mutex<Option<Current>>,
    /// Held while a token is got, so concurrent refusals share one authorization.
    grant: tokio::sync::Mutex<Grant>,
    /// Whether a user is authorizing, and how many authorizations ended: a request's time
    /// limit waits for the user.
    authorizing: watch::Sender<(bool, u64)>,
    /// Set once what the token store holds was taken up.
    restored: tokio::sync::OnceCell<()>,
}

#[derive(Clone)]
struct Current {
    header: HeaderValue,
    expires: Option<Instant>,
    /// Counts the tokens installed: a refusal of an older one is already answered.
    generation: u64,
}

#[derive(Default)]
struct Grant {
    authority: Option<Arc<Authority>>,
    /// The authorization server that issued the token held.
    issuer: Option<String>,
    /// The client's identity at each authorization server, by issuer.
    identities: HashMap<String, Identity>,
    refresh: Option<String>,
    /// The scopes asked for last.
    scopes: Vec<String>,
    generation: u64,
}

impl Session {
    pub(super) fn new(oauth: OAuth, server: Uri, client: HyperClient) -> Session {
        Session {
            oauth,
            server,
            fetch: Fetch { client },
            current: Mutex::new(None),
            grant: tokio::sync::Mutex::new(Grant::default()),
            authorizing: watch::channel((false, 0)).0,
            restored: tokio::sync::OnceCell::new(),
        }
    }

    /// Takes up what the token store holds for this server, the first time only.
    async fn restore(&self) {
        let Some(store) = &self.oauth.store else { return };
        self.restored
            .get_or_init(|| async {
                let Some(saved) = store.load_boxed().await else { return };
                if !discover::resource_covers(&saved.resource, &self.server) {
                    tracing::debug!(resource = %saved.resource, "the saved authorization is for another server");
                    return;
                }
                let Ok(header) = HeaderValue::try_from(format!("Bearer {}", saved.access_token)) else {
                    return;
                };
                let mut grant = self.grant.lock().await;
                grant.generation += 1;
                grant.refresh = saved.refresh_token;
                grant.scopes = saved.scopes;
                grant.identities.insert(saved.issuer.clone(), saved.client);
                grant.issuer = Some(saved.issuer);
                let unix_now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
                *lock(&self.current) = Some(Current {
                    header,
                    expires: saved
                        .expires_at
                        .map(|at| Instant::now() + Duration::from_secs(at.saturating_sub(unix_now))),
                    generation: grant.generation,
                });
            })
            .await;
    }

    /// Whether a user is authorizing now, and how many authorizations have ended.
    pub(super) fn authorizing(&self) -> watch::Receiver<(bool, u64)> {
        self.authorizing.subscribe()
    }

    /// Puts the token held, if any, on `request`.
    pub(super) fn add_token(&self, request: &mut Request<Full<Bytes>>) {
        if let Some(current) = lock(&self.current).as_ref() {
            request
                .headers_mut()
                .insert(header::AUTHORIZATION, current.header.clone());
        }
    }

    /// Sends `request` with the token, answering the refusals a new token may answer.
    pub(super) async fn send(
        &self,
        request: Request<Full<Bytes>>,
    ) -> Result<hyper::Response<Incoming>, ClientError> {
        self.restore().await;
        let mut authorizations = 0;
        loop {
            self.refresh_if_expiring().await;
            let used = lock(&self.current).clone();
            let mut attempt = copy(&request);
            if let Some(current) = &used {
                attempt
                    .headers_mut()
                    .insert(header::AUTHORIZATION, current.header.clone());
            }
            let response = self
                .fetch
                .client
                .request(attempt)
                .await
                .map_err(|e| super::net::request_failed(&self.server, &e))?;
            let Some(challenge) = Challenge::of(response.status(), response.headers()) else {
                return Ok(response);
            };
            if authorizations == MAX_AUTHORIZATIONS {
                return Err(AuthorizationError::Refused {
                    status: response.status().as_u16(),
                    attempts: authorizations,
                }
                .into());
            }
            authorizations += 1;
            drop(response);
            self.answer(&challenge, used.map(|current| current.generation))
                .await?;
        }
    }

    /// Gets a token that may answer `challenge`, unless one newer than `used` came meanwhile.
    async fn answer(&self, challenge: &Challenge, used: Option<u64>) -> Result<(), AuthorizationError> {
        let mut grant = self.grant.lock().await;
        if grant.generation > used.unwrap_or(0) {
            return Ok(());
        }
        let (authority, scopes) = match challenge.kind {
            Kind::Unauthorized => {
                // Read the metadata again: the server may have moved to another
                // authorization server, whose tokens the client must get anew.
                let authority = Arc::new(
                    discover::authority(&self.fetch, &self.server, challenge.resource_metadata.as_deref())
                        .await?,
                );
                if grant.issuer.as_deref() != Some(authority.server.issuer.as_str()) {
                    grant.refresh = None;
                }
                grant.authority = Some(Arc::clone(&authority));
                if let Some(refresh) = grant.refresh.take()
                    && let Some(identity) = grant.identities.get(&authority.server.issuer)
                {
                    match grant::refresh(&self.fetch, &authority, identity, &refresh).await {
                        Ok(tokens) => {
                            self.install(&mut grant, &authority, tokens).await;
                            return Ok(());
                        }
                        Err(error) => {
                            tracing::debug!(%error, "refreshing the token failed; authorizing again")
                        }
                    }
                }
                let scopes = self.scopes_for(challenge, &authority);
                (authority, scopes)
            }
            Kind::InsufficientScope => {
                let authority = match &grant.authority {
                    Some(authority) => Arc::clone(authority),
                    None => Arc::new(
                        discover::authority(
                            &self.fetch,
                            &self.server,
                            challenge.resource_metadata.as_deref(),
                        )
                        .await?,
                    ),
                };
                grant.authority = Some(Arc::clone(&authority));
                // Ask for what is held and what is missing together, so that the new token
                // does not lose what the old one could do.
                let mut scopes = grant.scopes.clone();
                for scope in self.scopes_for(challenge, &authority) {
                    if !scopes.contains(&scope) {
                        scopes.push(scope);
                    }
                }
                (authority, scopes)
            }
        };
        self.authorize(&mut grant, &authority, scopes).await
    }

    /// The scopes to ask for: the challenge's, else those the resource lists, else the
    /// application's; with `offline_access` where the authorization server lists it.
    fn scopes_for(&self, challenge: &Challenge, authority: &Authority) -> Vec<String> {
        let mut scopes = if !challenge.scopes.is_empty() {
            challenge.scopes.clone()
        } else if !authority.resource_scopes.is_empty() {
            authority.resource_scopes.clone()
        } else {
            self.oauth.scopes.clone()
        };
        let offline = "offline_access";
        if authority.server.scopes_supported.iter().any(|s| s == offline)
            && !scopes.iter().any(|s| s == offline)
        {
            scopes.push(offline.to_owned());
        }
        scopes
    }

    /// A new authorization: an identity, the user's visit, the token.
    async fn authorize(
        &self,
        grant: &mut Grant,
        authority: &Authority,
        scopes: Vec<String>,
    ) -> Result<(), AuthorizationError> {
        let issuer = authority.server.issuer.clone();
        let identity = match grant.identities.get(&issuer) {
            Some(identity) => identity.clone(),
            None => {
                let identity = grant::identity(&self.fetch, &self.oauth, authority).await?;
                grant.identities.insert(issuer.clone(), identity.clone());
                identity
            }
        };
        let Some(handler) = &self.oauth.handler else {
            let tokens = grant::client_credentials(&self.fetch, authority, &identity, &scopes).await?;
            grant.scopes = scopes;
            self.install(grant, authority, tokens).await;
            return Ok(());
        };
        let attempt = Attempt::new(&self.oauth, authority, &identity, &scopes);
        let request = AuthorizationRequest {
            url: attempt.url.clone(),
            redirect_uri: self.oauth.redirect_uri.clone(),
            issuer,
            scopes: scopes.clone(),
        };
        let redirect = {
            let _busy = Busy::start(&self.authorizing);
            handler.authorize_boxed(request).await
        };
        let redirect = redirect.ok_or(AuthorizationError::Declined)?;
        let code = attempt.code(&redirect, authority)?;
        let tokens = attempt
            .redeem(&self.fetch, &self.oauth, authority, &identity, &code)
            .await?;
        grant.scopes = scopes;
        self.install(grant, authority, tokens).await;
        Ok(())
    }

    /// Puts `tokens` from `authority`'s server in use, and saves them in the token store.
    async fn install(&self, grant: &mut Grant, authority: &Authority, tokens: Tokens) {
        grant.generation += 1;
        grant.refresh = tokens.refresh;
        grant.issuer = Some(authority.server.issuer.clone());
        let header = HeaderValue::try_from(format!("Bearer {}", tokens.access))
            .unwrap_or_else(|_| unreachable!("the token was checked to be visible ASCII"));
        *lock(&self.current) = Some(Current {
            header,
            expires: tokens.lifetime.map(|lifetime| Instant::now() + lifetime),
            generation: grant.generation,
        });
        let (Some(store), Some(client)) = (&self.oauth.store, grant.identities.get(&authority.server.issuer))
        else {
            return;
        };
        let saved = SavedAuthorization {
            resource: authority.resource.clone(),
            issuer: authority.server.issuer.clone(),
            client: client.clone(),
            access_token: tokens.access,
            refresh_token: grant.refresh.clone(),
            expires_at: tokens.lifetime.map(|lifetime| {
                (SystemTime::now() + lifetime)
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_secs()
            }),
            scopes: grant.scopes.clone(),
        };
        store.save_boxed(saved).await;
    }

    /// Refreshes a token about to expire, if it can be; if it cannot, the server's refusal
    /// will say what to do.
    async fn refresh_if_expiring(&self) {
        let expiring = lock(&self.current)
            .as_ref()
            .and_then(|current| current.expires)
            .is_some_and(|expires| expires <= Instant::now() + EXPIRY_MARGIN);
        if !expiring {
            return;
        }
        let mut grant = self.grant.lock().await;
        let still_expiring = lock(&self.current)
            .as_ref()
            .and_then(|current| current.expires)
            .is_some_and(|expires| expires <= Instant::now() + EXPIRY_MARGIN);
        let (Some(authority), Some(refresh), true) =
            (grant.authority.clone(), grant.refresh.take(), still_expiring)
        else {
            return;
        };
        let Some(identity) = grant.identities.get(&authority.server.issuer).cloned() else {
            return;
        };
        match grant::refresh(&self.fetch, &authority, &identity, &refresh).await {
            Ok(tokens) => self.install(&mut grant, &authority, tokens).await,
            Err(error) => tracing::debug!(%error, "refreshing the token before it expires failed"),
        }
    }
}

/// Marks a user's authorization in progress while it lives.
struct Busy<'a>(&'a watch::Sender<(bool, u64)>);

impl<'a> Busy<'a> {
    fn start(sender: &'a watch::Sender<(bool, u64)>) -> Busy<'a> {
        sender.send_modify(|(busy, _)| *busy = true);
        Busy(sender)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.send_modify(|(busy, ended)| {
            *busy = false;
            *ended += 1;
        });
    }
}

/// A copy of `request`, to send again.
fn copy(request: &Request<Full<Bytes>>) -> Request<Full<Bytes>> {
    let mut copy = Request::new(request.body().clone());
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.headers_mut() = request.headers().clone();
    copy
}
