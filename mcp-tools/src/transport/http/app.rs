//! The state every HTTP handler shares, and how the endpoint is configured.

use super::sessions::Sessions;
use crate::context::Principal;
use crate::engine::Engine;
use crate::tool::ScopePolicy;
use axum::body::Bytes;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Checks a bearer token: `Some(principal)` lets the request in.
pub(crate) type AuthHook =
    dyn Fn(String) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send>> + Send + Sync;

/// Where an OAuth resource server's Protected Resource Metadata (RFC 9728) is, and what it
/// says; made by the `oauth` module, served and named in challenges here.
#[cfg_attr(not(feature = "oauth"), allow(dead_code))]
pub(crate) struct ResourceMetadata {
    /// Its absolute URL, named in `WWW-Authenticate` as `resource_metadata`.
    pub(crate) url: String,
    /// The paths it is served at.
    pub(crate) paths: Vec<String>,
    /// The document, encoded once.
    pub(crate) document: Bytes,
    /// The `scope` of the 401 challenge (the scopes supported), if any.
    pub(crate) scope: Option<String>,
}

/// How the HTTP endpoint behaves; set through `Server`.
#[derive(Clone)]
pub(crate) struct HttpOptions {
    pub(crate) path: String,
    /// `Host` values accepted; `None`: the loopback names, unless the server listens on a
    /// non-loopback address, where any host is accepted.
    pub(crate) allowed_hosts: Option<Vec<String>>,
    /// `Origin` values accepted; `None`: loopback origins only. `"*"` accepts any.
    pub(crate) allowed_origins: Option<Vec<String>>,
    pub(crate) session_idle: Duration,
    /// How long a connection may take to send a request's head, from when the server is
    /// ready for it (so also how long a kept-alive connection may stay idle).
    pub(crate) request_head_timeout: Duration,
    /// How many legacy sessions may be open at once.
    pub(crate) max_sessions: usize,
    pub(crate) auth: Option<Arc<AuthHook>>,
    /// The realm named in `WWW-Authenticate`.
    pub(crate) auth_realm: String,
    /// The Protected Resource Metadata, when the server is an OAuth resource server: served
    /// without a token, and named in challenges instead of the realm.
    pub(crate) resource_metadata: Option<Arc<ResourceMetadata>>,
    /// What a caller whose token lacks a tool's scopes gets.
    pub(crate) scope_policy: ScopePolicy,
    /// The instance's name, put first in the session ids it issues (checked by whoever
    /// sets it: 1 to 63 of `A-Z a-z 0-9 - _`).
    pub(crate) instance: Option<String>,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            path: "/mcp".to_owned(),
            allowed_hosts: None,
            allowed_origins: None,
            session_idle: Duration::from_secs(30 * 60),
            request_head_timeout: Duration::from_secs(30),
            max_sessions: 10_000,
            auth: None,
            auth_realm: "mcp".to_owned(),
            resource_metadata: None,
            scope_policy: ScopePolicy::default(),
            instance: None,
        }
    }
}

/// The state every request handler shares.
pub(crate) struct HttpApp {
    pub(super) engine: Arc<Engine>,
    pub(super) options: HttpOptions,
    /// Accept any `Host` (the server listens on a non-loopback address and no list was
    /// given).
    pub(super) any_host: bool,
    pub(super) sessions: Sessions,
    /// Cancelled at shutdown: ends the streams that would otherwise stay open.
    pub(super) shutdown: CancellationToken,
}

impl HttpApp {
    /// The path MCP is served on (`/mcp` unless configured).
    pub(crate) fn path(&self) -> &str {
        &self.options.path
    }

    pub(crate) fn new(engine: Arc<Engine>, options: HttpOptions, any_host: bool) -> HttpApp {
        HttpApp {
            engine,
            sessions: Sessions::new(
                options.session_idle,
                options.max_sessions,
                options.instance.clone(),
            ),
            any_host,
            shutdown: CancellationToken::new(),
            options,
        }
    }

    /// Stops the streams that would otherwise stay open, so a graceful shutdown ends.
    pub(crate) fn shut_down(&self) {
        self.shutdown.cancel();
        self.sessions.end_all();
    }
}
