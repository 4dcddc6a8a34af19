//! What can be wrong with a resource server's configuration ([`ConfigError`]), and why a
//! token or a fetch was refused (crate-internal, logged, never sent to the client).

/// A [`ResourceServer`](super::ResourceServer) that cannot be served: reported by
/// [`Server::bind_http`](crate::Server::bind_http) and
/// [`Server::into_router`](crate::Server::into_router) as [`Error::OAuth`](crate::Error::OAuth),
/// before anything is served.
///
/// ```
/// use mcp_toolkit::oauth::{ConfigError, ResourceServer};
/// use mcp_toolkit::{Error, Server};
///
/// let rs = ResourceServer::new("https://mcp.example.com/mcp")
///     .authorization_server("http://auth.example.com"); // plain http, not loopback
/// let error = Server::new("notes", "1.0.0").oauth(rs).into_router().unwrap_err();
/// assert!(matches!(error, Error::OAuth(ConfigError::NotHttps { .. })));
/// assert_eq!(
///     error.to_string(),
///     "the authorization server `http://auth.example.com` must be an `https://` URL (plain `http://` is accepted on loopback hosts only)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A URL that is not an absolute `http(s)://host/...` URL.
    #[error("the {what} `{url}` is not an absolute `https://` URL: {why}")]
    InvalidUrl {
        /// Which URL: "resource", "authorization server", "JWKS URI", "introspection endpoint".
        what: &'static str,
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A plain `http://` URL on a host that is not loopback: tokens and keys would travel
    /// in the clear.
    #[error(
        "the {what} `{url}` must be an `https://` URL (plain `http://` is accepted on loopback hosts only)"
    )]
    NotHttps {
        /// Which URL.
        what: &'static str,
        /// The URL as given.
        url: String,
    },
    /// No authorization server was named: clients would not know where to get a token.
    #[error(
        "the resource server names no authorization server; set one with `ResourceServer::authorization_server`"
    )]
    NoAuthorizationServer,
    /// A scope that is empty or holds a space or a quote (scopes are space-separated tokens,
    /// RFC 6749 section 3.3).
    #[error("the scope `{0}` is not a scope token: it must be non-empty, without spaces, `\"` or `\\`")]
    InvalidScope(String),
}

/// Why a token was refused. Logged at debug level; the client only learns `invalid_token`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TokenError {
    #[error("the JWT is malformed or its signature does not verify: {0}")]
    Jwt(#[from] jsonwebtoken::errors::Error),
    #[error("the JWT's `alg` {0:?} is not accepted (asymmetric algorithms only)")]
    Algorithm(jsonwebtoken::Algorithm),
    #[error("the JWT's header is not base64url-encoded JSON")]
    Header,
    #[error("the JWT's header marks {0:?} critical (`crit`); this server understands no header extension")]
    Critical(Vec<String>),
    #[error("the JWT's `crit` is `{0}`; it must be a non-empty list of header names")]
    MalformedCrit(String),
    #[error(
        "the JWT's `typ` is `{0}`, a token of another kind; an access token's is `at+jwt`, `JWT` or none"
    )]
    Type(String),
    #[error("no key of the authorization server verifies the token (kid {0:?})")]
    UnknownKey(Option<String>),
    #[error("the authorization server's keys could not be had: {0}")]
    Keys(#[from] FetchError),
    #[error("the token names no subject (`sub` or `client_id`)")]
    NoSubject,
    #[error("the token is not a JWT and no introspection endpoint is configured")]
    NotAJwt,
    #[error("the introspection endpoint says the token is not active")]
    Inactive,
    #[error("the introspected token's {0} does not fit this resource server")]
    Introspected(&'static str),
}

/// Why fetching a document (metadata, keys, an introspection answer) failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FetchError {
    #[error("the URL `{0}` cannot be fetched: it is not an absolute http(s) URL")]
    Url(String),
    #[error("the URL `{0}` is plain `http://` on a host that is not loopback")]
    NotHttps(String),
    #[error("TLS could not be set up: {0}")]
    Tls(#[from] rustls::Error),
    #[error("the request failed: {0}")]
    Request(#[from] hyper_util::client::legacy::Error),
    #[error("no answer within {0:?}")]
    Timeout(std::time::Duration),
    #[error("the answer has status {0}")]
    Status(u16),
    #[error("the answer's body could not be read, or is longer than {0} bytes")]
    Body(usize),
    #[error("the answer is not the JSON expected: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the authorization server metadata names issuer `{found}`, not `{expected}`")]
    IssuerMismatch { expected: String, found: String },
    #[error("no key set could be had yet; trying again shortly")]
    Unavailable,
    #[error("no authorization server metadata names a `jwks_uri` (tried {0})")]
    NoJwksUri(String),
}
