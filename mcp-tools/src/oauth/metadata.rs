//! The documents of discovery: the Protected Resource Metadata this server serves (RFC
//! 9728) and where it is served; where an authorization server's metadata (RFC 8414, or
//! OpenID Connect Discovery) is looked for; and the rule every configured URL follows.

use super::error::ConfigError;
pub(super) use crate::protocol::oauth::{PRM_SUFFIX, as_metadata_urls, is_loopback};
use crate::protocol::oauth::{origin, path_of};
use axum::http::Uri;
use serde_json::{Value, json};

/// `url` checked: an absolute `https://` URL, or `http://` on a loopback host; no fragment.
pub(super) fn checked_url(what: &'static str, url: &str) -> Result<Uri, ConfigError> {
    let invalid = |why| ConfigError::InvalidUrl {
        what,
        url: url.to_owned(),
        why,
    };
    if url.contains('#') {
        return Err(invalid("it has a fragment"));
    }
    let uri: Uri = url.parse().map_err(|_| invalid("it does not parse"))?;
    let Some(host) = uri.host() else {
        return Err(invalid("it names no host"));
    };
    match uri.scheme_str() {
        Some("https") => Ok(uri),
        Some("http") if is_loopback(host) => Ok(uri),
        Some("http") => Err(ConfigError::NotHttps {
            what,
            url: url.to_owned(),
        }),
        _ => Err(invalid("its scheme is not `https`")),
    }
}

/// Where this server's Protected Resource Metadata is: its absolute URL (named in
/// `WWW-Authenticate`, the path-suffixed form for the resource) and every path it is
/// served at (that form, the root form, and the form for the endpoint's own path when a
/// proxy maps it elsewhere).
pub(super) fn prm_location(resource: &Uri, endpoint_path: &str) -> (String, Vec<String>) {
    let suffixed = format!("{PRM_SUFFIX}{}", path_of(resource));
    let url = format!("{}{suffixed}", origin(resource));
    let own = format!("{PRM_SUFFIX}{}", endpoint_path.trim_end_matches('/'));
    let mut paths: Vec<String> = Vec::with_capacity(3);
    for path in [suffixed, PRM_SUFFIX.to_owned(), own] {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    (url, paths)
}

/// The Protected Resource Metadata document (RFC 9728, section 2).
pub(super) fn prm_document(resource: &str, issuer: &str, scopes: &[String], name: Option<&str>) -> Value {
    let mut document = json!({
        "resource": resource,
        "authorization_servers": [issuer],
        "bearer_methods_supported": ["header"],
    });
    if !scopes.is_empty() {
        document["scopes_supported"] = json!(scopes);
    }
    if let Some(name) = name {
        document["resource_name"] = json!(name);
    }
    document
}

/// Whether `scope` is a scope token (RFC 6749, section 3.3) that can also go in a quoted
/// `WWW-Authenticate` parameter.
pub(super) fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_https_except_on_loopback() {
        for ok in [
            "https://auth.example.com",
            "https://auth.example.com/tenant",
            "http://127.0.0.1:8080",
            "http://localhost/x",
            "http://[::1]:9000",
        ] {
            assert!(checked_url("issuer", ok).is_ok(), "{ok}");
        }
        assert_eq!(
            checked_url("issuer", "http://auth.example.com"),
            Err(ConfigError::NotHttps {
                what: "issuer",
                url: "http://auth.example.com".into()
            })
        );
        for bad in [
            "auth.example.com",
            "/path",
            "ftp://x.example",
            "https://x.example/#f",
        ] {
            assert!(
                matches!(checked_url("issuer", bad), Err(ConfigError::InvalidUrl { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn metadata_is_served_at_the_suffixed_and_the_root_path() {
        let resource: Uri = "https://mcp.example.com/public/mcp".parse().unwrap();
        let (url, paths) = prm_location(&resource, "/mcp");
        assert_eq!(
            url,
            "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"
        );
        assert_eq!(
            paths,
            [
                "/.well-known/oauth-protected-resource/public/mcp",
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp"
            ]
        );
        let root: Uri = "https://mcp.example.com/".parse().unwrap();
        assert_eq!(
            prm_location(&root, "/").1,
            ["/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn scope_tokens() {
        assert!(is_scope_token("notes:write"));
        for bad in ["", "a b", "a\"b", "a\\b", "é"] {
            assert!(!is_scope_token(bad), "{bad:?}");
        }
    }
}
