//! An OAuth 2.1 resource server for Streamable HTTP, as the MCP authorization spec
//! (2025-11-25, 2026-07-28) describes it (feature `oauth`).
//!
//! Describe the server with a [`ResourceServer`] and give it to
//! [`Server::oauth`](crate::Server::oauth). The HTTP endpoint then:
//!
//! - serves its **Protected Resource Metadata** (RFC 9728) without a token, at
//!   `/.well-known/oauth-protected-resource` and at the form suffixed with the endpoint's
//!   path (`/.well-known/oauth-protected-resource/mcp`), naming the authorization server,
//!   the scopes supported and the canonical resource URI;
//! - answers a request without a valid token with **401** and
//!   `WWW-Authenticate: Bearer resource_metadata="<that URL>"` (with `scope="..."` when
//!   scopes are supported, and `error="invalid_token"` first when a token was sent and
//!   refused), reading the `Bearer` scheme's name in any case, and answers **400** with
//!   `error="invalid_request"` a request with two `Authorization` headers;
//! - checks **JWT access tokens** itself: signed by a key of the authorization server's
//!   JWKS (found through its metadata, RFC 8414 or OpenID Connect Discovery, unless
//!   configured with [`ResourceServer::jwks_uri`]) with an asymmetric algorithm (RS256/384/
//!   512, PS256/384/512, ES256/384, EdDSA; never `none` nor HMAC), `iss` the issuer, `aud`
//!   naming the canonical resource URI (RFC 8707), `exp` and `nbf` within the leeway; no
//!   `crit` in the header (no critical extension is understood, RFC 7515) and no `typ` of
//!   another kind of JWT (`logout+jwt`, `dpop+jwt`, ...; `at+jwt`, `JWT` or none, RFC 8725).
//!   The key set is fetched when the server starts and kept; a token naming a key id the set
//!   lacks fetches it again at most once a minute, and it is refreshed when an hour old;
//! - checks **opaque tokens** at the authorization server's introspection endpoint (RFC
//!   7662) when [`ResourceServer::introspection`] is configured;
//! - makes the token's subject and scopes (`scope`, space-separated, or `scp`) the
//!   [`Principal`] tools see, and enforces each tool's scopes
//!   (`#[tool(scopes("notes:write"))]`) as the [`ScopePolicy`](crate::tool::ScopePolicy) says:
//!   **403** with `error="insufficient_scope"` (step-up), or the tool hidden;
//! - binds each legacy session (2025-03-26 to 2025-11-25) to the subject whose token opened
//!   it: a request naming it with another subject's token gets the 404 of an unknown
//!   session.
//!
//! Production URLs must be `https://`; plain `http://` is accepted for loopback hosts only
//! (tests, local development), and anything else is refused with a [`ConfigError`] before
//! the server starts. Certificates are checked against the Mozilla roots (`webpki-roots`).
//!
//! ```no_run
//! use mcp_toolkit::oauth::ResourceServer;
//! use mcp_toolkit::server::HttpSettings;
//! use mcp_toolkit::{tool, tools, Context, Server};
//!
//! /// Deletes a note.
//! #[tool(scopes("notes:write"))]
//! fn delete_note(cx: Context, id: u32) -> String {
//!     let who = cx.principal().map_or("nobody", |p| p.subject.as_str());
//!     format!("{who} deleted note {id}")
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), mcp_toolkit::Error> {
//!     let resource = ResourceServer::new("https://mcp.example.com/mcp")
//!         .authorization_server("https://auth.example.com")
//!         .scopes_supported(["notes:read", "notes:write"]);
//!     Server::new("notes", "1.0.0")
//!         .tools(tools![delete_note])
//!         .oauth(resource)
//!         .http(HttpSettings::default().allowed_hosts(["mcp.example.com"]))
//!         .serve_http("0.0.0.0:8080")
//!         .await
//! }
//! ```

mod error;
mod fetch;
mod introspection;
mod jwt;
mod keys;
mod metadata;

pub use error::ConfigError;

use crate::context::Principal;
use error::TokenError;
use fetch::Fetcher;
use introspection::Introspection;
use jwt::JwtRules;
use keys::{KeyCache, Source};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// How this server stands as an OAuth 2.1 resource server: its canonical URI, the
/// authorization server that issues its tokens, and how tokens are checked. Give it to
/// [`Server::oauth`](crate::Server::oauth); the [module docs](self) say what the endpoint
/// then does.
///
/// ```
/// use mcp_toolkit::oauth::ResourceServer;
/// use std::time::Duration;
///
/// let resource = ResourceServer::new("https://mcp.example.com/mcp")
///     .authorization_server("https://auth.example.com")
///     .scopes_supported(["notes:read", "notes:write"])
///     .leeway(Duration::from_secs(30));
/// let server = mcp_toolkit::Server::new("notes", "1.0.0").oauth(resource);
/// ```
#[derive(Debug, Clone)]
pub struct ResourceServer {
    resource: String,
    issuer: Option<String>,
    scopes_supported: Vec<String>,
    jwks_uri: Option<String>,
    introspection: Option<Introspection>,
    leeway: Duration,
    resource_name: Option<String>,
}

impl ResourceServer {
    /// A resource server known by its canonical URI (RFC 8707): the URL clients reach the
    /// MCP endpoint at, such as `https://mcp.example.com/mcp`. Tokens must name it in their
    /// audience (`aud`). Behind a proxy, it is the URL the clients see.
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp");
    /// ```
    pub fn new(canonical_uri: impl Into<String>) -> ResourceServer {
        ResourceServer {
            resource: canonical_uri.into(),
            issuer: None,
            scopes_supported: Vec::new(),
            jwks_uri: None,
            introspection: None,
            leeway: Duration::from_secs(30),
            resource_name: None,
        }
    }

    /// The authorization server that issues this server's tokens, by its issuer URL (such
    /// as `https://auth.example.com`): named in the metadata, compared exactly with each
    /// token's `iss`, and where the keys are found. Required; a second call replaces the
    /// first.
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com");
    /// ```
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> ResourceServer {
        self.issuer = Some(issuer.into());
        self
    }

    /// The scopes the metadata lists as `scopes_supported`, and the 401 challenge names in
    /// `scope`: what a client asks for at first (more can be asked for later, on a 403).
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .scopes_supported(["notes:read"]);
    /// ```
    pub fn scopes_supported<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> ResourceServer {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Where the authorization server's key set is, when its metadata should not be asked
    /// (by default the `jwks_uri` of its RFC 8414 or OpenID Connect metadata is used).
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .jwks_uri("https://auth.example.com/keys");
    /// ```
    pub fn jwks_uri(mut self, uri: impl Into<String>) -> ResourceServer {
        self.jwks_uri = Some(uri.into());
        self
    }

    /// Checks tokens that are not JWTs (opaque tokens) at the authorization server's
    /// introspection endpoint (RFC 7662), authenticating with this client's credentials
    /// (HTTP Basic). An answer lets the token in when it is `active` and its `iss`, `aud`,
    /// `exp` and `nbf`, where present, fit. JWTs are still checked locally, unless the key
    /// set cannot be had.
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .introspection("https://auth.example.com/introspect", "mcp-server", "s3cret");
    /// ```
    pub fn introspection(
        mut self,
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> ResourceServer {
        self.introspection = Some(Introspection {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            secret: client_secret.into(),
        });
        self
    }

    /// How far `exp` and `nbf` may be off, for clocks that differ (default 30 seconds).
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .leeway(std::time::Duration::from_secs(5));
    /// ```
    pub fn leeway(mut self, leeway: Duration) -> ResourceServer {
        self.leeway = leeway;
        self
    }

    /// A human-readable name for the metadata's `resource_name`.
    ///
    /// ```
    /// let resource = mcp_toolkit::oauth::ResourceServer::new("https://mcp.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .resource_name("Notes");
    /// ```
    pub fn resource_name(mut self, name: impl Into<String>) -> ResourceServer {
        self.resource_name = Some(name.into());
        self
    }

    /// Checks the configuration and makes what the endpoint serves with: the checker of
    /// tokens and the metadata. `endpoint_path` is the endpoint's own path (`/mcp`).
    pub(crate) fn build(&self, endpoint_path: &str) -> Result<Protection, ConfigError> {
        let resource = metadata::checked_url("resource", &self.resource)?;
        let issuer = self.issuer.as_deref().ok_or(ConfigError::NoAuthorizationServer)?;
        let issuer_uri = metadata::checked_url("authorization server", issuer)?;
        if let Some(jwks_uri) = &self.jwks_uri {
            metadata::checked_url("JWKS URI", jwks_uri)?;
        }
        if let Some(introspection) = &self.introspection {
            metadata::checked_url("introspection endpoint", &introspection.endpoint)?;
        }
        if let Some(bad) = self
            .scopes_supported
            .iter()
            .find(|s| !metadata::is_scope_token(s))
        {
            return Err(ConfigError::InvalidScope(bad.clone()));
        }
        let fetcher = Arc::new(Fetcher::default());
        let source = match &self.jwks_uri {
            Some(uri) => Source::Jwks(uri.clone()),
            None => Source::Discover {
                issuer: issuer.to_owned(),
                uri: issuer_uri,
            },
        };
        let (metadata_url, metadata_paths) = metadata::prm_location(&resource, endpoint_path);
        let document = metadata::prm_document(
            &self.resource,
            issuer,
            &self.scopes_supported,
            self.resource_name.as_deref(),
        );
        Ok(Protection {
            guard: Arc::new(Guard {
                keys: KeyCache::new(source, Arc::clone(&fetcher)),
                fetcher,
                introspection: self.introspection.clone(),
                rules: JwtRules {
                    issuer: issuer.to_owned(),
                    audience: self.resource.clone(),
                    leeway_secs: self.leeway.as_secs(),
                },
            }),
            metadata_url,
            metadata_paths,
            document,
            scope: (!self.scopes_supported.is_empty()).then(|| self.scopes_supported.join(" ")),
        })
    }
}

/// A checked [`ResourceServer`]: what the HTTP endpoint serves with.
pub(crate) struct Protection {
    pub(crate) guard: Arc<Guard>,
    /// The metadata's absolute URL, for `WWW-Authenticate`.
    pub(crate) metadata_url: String,
    /// The paths the metadata is served at.
    pub(crate) metadata_paths: Vec<String>,
    pub(crate) document: Value,
    /// `scope` of the 401 challenge.
    pub(crate) scope: Option<String>,
}

/// Checks bearer tokens.
pub(crate) struct Guard {
    keys: KeyCache,
    fetcher: Arc<Fetcher>,
    introspection: Option<Introspection>,
    rules: JwtRules,
}

impl Guard {
    /// Who `token` stands for, or `None` to refuse it (the reason is logged).
    pub(crate) async fn principal(&self, token: &str) -> Option<Principal> {
        match self.verify(token).await {
            Ok(principal) => Some(principal),
            Err(error) => {
                tracing::debug!(%error, "refused a bearer token");
                None
            }
        }
    }

    async fn verify(&self, token: &str) -> Result<Principal, TokenError> {
        if jwt::is_jwt(token) {
            match (
                jwt::verify(token, &self.keys, &self.rules).await,
                &self.introspection,
            ) {
                (Err(TokenError::Keys(error)), Some(introspection)) => {
                    tracing::debug!(%error, "no keys to check a JWT with; introspecting it");
                    self.introspect(introspection, token).await
                }
                (verified, _) => verified,
            }
        } else {
            match &self.introspection {
                Some(introspection) => self.introspect(introspection, token).await,
                None => Err(TokenError::NotAJwt),
            }
        }
    }

    async fn introspect(&self, introspection: &Introspection, token: &str) -> Result<Principal, TokenError> {
        let rules = &self.rules;
        introspection
            .verify(
                &self.fetcher,
                token,
                &rules.issuer,
                &rules.audience,
                rules.leeway_secs,
            )
            .await
    }

    /// Fetches the key set ahead of the first token.
    pub(crate) async fn warm_up(&self) {
        if let Err(error) = self.keys.keys(None).await {
            tracing::debug!(%error, "the key set will be fetched again on the first token");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_resource_server_serves_its_metadata() {
        let protection = ResourceServer::new("https://mcp.example.com/mcp")
            .authorization_server("https://auth.example.com")
            .scopes_supported(["notes:read", "notes:write"])
            .resource_name("Notes")
            .build("/mcp")
            .unwrap();
        assert_eq!(
            protection.document,
            json!({
                "resource": "https://mcp.example.com/mcp",
                "authorization_servers": ["https://auth.example.com"],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["notes:read", "notes:write"],
                "resource_name": "Notes"
            })
        );
        assert_eq!(
            protection.metadata_url,
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(protection.scope.as_deref(), Some("notes:read notes:write"));
    }

    #[test]
    fn a_bad_configuration_is_refused_before_serving() {
        let base = || {
            ResourceServer::new("https://mcp.example.com/mcp")
                .authorization_server("https://auth.example.com")
        };
        let refused = |rs: ResourceServer| rs.build("/mcp").err().unwrap();
        assert_eq!(
            refused(ResourceServer::new("https://mcp.example.com/mcp")),
            ConfigError::NoAuthorizationServer
        );
        assert!(matches!(
            refused(base().authorization_server("http://auth.example.com")),
            ConfigError::NotHttps {
                what: "authorization server",
                ..
            }
        ));
        assert!(matches!(
            refused(base().jwks_uri("http://keys.example.com")),
            ConfigError::NotHttps { what: "JWKS URI", .. }
        ));
        assert!(matches!(
            refused(base().introspection("http://auth.example.com/introspect", "id", "secret")),
            ConfigError::NotHttps {
                what: "introspection endpoint",
                ..
            }
        ));
        assert!(matches!(
            refused(ResourceServer::new("mcp.example.com").authorization_server("https://auth.example.com")),
            ConfigError::InvalidUrl { what: "resource", .. }
        ));
        assert_eq!(
            refused(base().scopes_supported(["a b"])),
            ConfigError::InvalidScope("a b".into())
        );
        assert!(
            base()
                .authorization_server("http://127.0.0.1:9000")
                .build("/mcp")
                .is_ok()
        );
    }

    #[test]
    fn the_secret_stays_out_of_debug_output() {
        let rs = ResourceServer::new("https://mcp.example.com/mcp").introspection(
            "https://a.example/i",
            "id",
            "s3cret",
        );
        let shown = format!("{rs:?}");
        assert!(shown.contains("(hidden)") && !shown.contains("s3cret"), "{shown}");
    }
}
