//! Which protocol era serves a request: its own `_meta` revision (2026-07-28, stateless),
//! or the connection's `initialize` session (2024-11-05 to 2025-11-25).

use crate::engine::wire::connection::{Connection, LegacySession};
use crate::engine::wire::failure::Failure;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::messages::RequestMeta;
use crate::protocol::{ErrorCode, Implementation, LoggingLevel, ProtocolVersion};
use serde_json::{Value, json};
use std::sync::Arc;

/// The legacy revisions, newest first: what `initialize` can negotiate.
pub(crate) const LEGACY: [ProtocolVersion; 4] = [
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_03_26,
    ProtocolVersion::V2024_11_05,
];

/// How one request is to be served.
#[derive(Clone)]
pub(crate) enum Era {
    /// Stateless, with the request's own metadata.
    Modern(ModernMeta),
    /// In the connection's legacy session.
    Legacy(Arc<LegacySession>),
}

/// What a 2026-07-28 request says of its client in `_meta`.
#[derive(Clone)]
pub(crate) struct ModernMeta {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) client_capabilities: Option<Arc<Value>>,
    pub(crate) log_level: Option<LoggingLevel>,
}

/// What a request knows of its client, whichever era serves it.
pub(crate) struct Client {
    pub(crate) info: Option<Arc<Implementation>>,
    pub(crate) capabilities: Option<Arc<Value>>,
    pub(crate) log_level: Option<LoggingLevel>,
}

impl Era {
    pub(crate) fn version(&self) -> ProtocolVersion {
        match self {
            Era::Modern(meta) => meta.version,
            Era::Legacy(session) => session.version,
        }
    }

    pub(crate) fn is_modern(&self) -> bool {
        matches!(self, Era::Modern(_))
    }

    /// The capabilities the client declared, if it declared any.
    pub(crate) fn client_capabilities(&self) -> Option<&Value> {
        match self {
            Era::Modern(meta) => meta.client_capabilities.as_deref(),
            Era::Legacy(session) => session.client_capabilities.as_deref(),
        }
    }

    pub(crate) fn into_client(self) -> Client {
        match self {
            Era::Modern(m) => Client {
                info: m.client_info,
                capabilities: m.client_capabilities,
                log_level: m.log_level,
            },
            Era::Legacy(s) => Client {
                info: s.client_info.clone(),
                capabilities: s.client_capabilities.clone(),
                log_level: s.log_level,
            },
        }
    }
}

/// Every revision this server speaks, newest first.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    ProtocolVersion::ALL.iter().rev().map(|v| v.as_str()).collect()
}

/// Which era serves a request: its own `_meta` revision, else the connection's legacy
/// session; a request with neither is refused, naming the ways in. A refusal is marked as
/// made before dispatch.
pub(crate) fn era_of(
    conn: &Connection,
    method: &str,
    meta: Option<&RequestMeta<'_>>,
) -> Result<Era, Failure> {
    era(conn, method, meta).map_err(Failure::before_dispatch)
}

fn era(conn: &Connection, method: &str, meta: Option<&RequestMeta<'_>>) -> Result<Era, Failure> {
    let requested = meta.and_then(|m| m.protocol_version);
    let Some(requested) = requested else {
        if let Some(session) = conn.legacy() {
            return Ok(Era::Legacy(session));
        }
        if method == "ping" {
            // Legacy clients may ping before `initialize`.
            return Ok(Era::Legacy(Arc::new(LegacySession::pre_initialize())));
        }
        let method = clip(method, QUOTED_NAME_CHARS);
        return Err(Failure::invalid_params(format!(
            "`{method}` needs a protocol revision: send `initialize` first (revisions 2024-11-05 to 2025-11-25), or name the revision in `params._meta[\"io.modelcontextprotocol/protocolVersion\"]` (2026-07-28)"
        ))
        .with_data(json!({ "supported": supported_versions() })));
    };
    let requested_text: Option<String> = serde_json::from_str(requested.get()).ok();
    let version = requested_text.as_deref().and_then(ProtocolVersion::parse);
    match version {
        Some(version) if version.is_modern() => {}
        Some(version) => {
            if let Some(session) = conn.legacy().filter(|s| s.version == version) {
                return Ok(Era::Legacy(session));
            }
            return Err(Failure::invalid_params(format!(
                "protocol revision {version} is served after the `initialize` handshake; send `initialize`, or use revision 2026-07-28 per request"
            )));
        }
        None => {
            return Err(Failure::new(
                ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
            )
            .with_data(json!({
                "supported": supported_versions(),
                "requested": clip(requested_text.as_deref().unwrap_or(requested.get()), QUOTED_NAME_CHARS),
            })));
        }
    }
    let meta = meta.unwrap_or_else(|| unreachable!("a requested version implies `_meta`"));
    let Some(capabilities) = meta.client_capabilities else {
        return Err(Failure::invalid_params(
            "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is required in revision 2026-07-28 (send `{}` for none)",
        ));
    };
    let client_capabilities: Value = match serde_json::from_str(capabilities.get()) {
        Ok(value) => value,
        Err(error) if error.to_string().starts_with("recursion limit exceeded") => {
            return Err(Failure::invalid_params(
                "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` is nested too deeply",
            ));
        }
        Err(_) => Value::Null,
    };
    if !client_capabilities.is_object() {
        return Err(Failure::invalid_params(
            "`params._meta[\"io.modelcontextprotocol/clientCapabilities\"]` must be an object",
        ));
    }
    let log_level = match meta.log_level {
        None => None,
        Some(raw) => Some(serde_json::from_str::<LoggingLevel>(raw.get()).map_err(|_| {
            Failure::invalid_params(format!(
                "`params._meta[\"io.modelcontextprotocol/logLevel\"]` must be one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\"; received {}",
                raw.get()
            ))
        })?),
    };
    let client_info = meta
        .client_info
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .map(Arc::new);
    Ok(Era::Modern(ModernMeta {
        version: ProtocolVersion::V2026_07_28,
        client_info,
        client_capabilities: Some(Arc::new(client_capabilities)),
        log_level,
    }))
}
