//! The rules of MCP Apps (the `io.modelcontextprotocol/ui` extension): what a view's URI
//! is, what a CSP entry is, the permissions a view may ask for and who may see a tool linked
//! to a view. `#[resource(app(..))]` and `#[tool(app = "..")]` check them at compile time,
//! `Resource::with_app` and `Tool::with_app` at run time.

use std::fmt;

/// The extension's id, declared in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type a view is served with.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The scheme every view's URI has.
pub const SCHEME: &str = "ui://";

/// The permissions a view may ask for: how `#[resource(app(permissions(..)))]` writes each,
/// and the key `_meta.ui.permissions` sends it under.
pub const PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// Who may see a tool linked to a view, as `visibility = ".."` writes it.
pub const AUDIENCES: [&str; 2] = ["model", "app"];

/// The schemes a CSP entry may have.
const ORIGIN_SCHEMES: [&str; 4] = ["https", "http", "wss", "ws"];

/// Why a URI cannot name a view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewUriError {
    /// It does not start with `ui://`.
    NotUi,
    /// Nothing follows `ui://`.
    Empty,
    /// It is a template (`{..}`).
    Template,
}

impl fmt::Display for ViewUriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewUriError::NotUi => f.write_str("a view's URI starts with `ui://`, such as `ui://notes/board`"),
            ViewUriError::Empty => f.write_str("a view's URI names something after `ui://`, such as `ui://notes/board`"),
            ViewUriError::Template => f.write_str(
                "a view's URI is fixed, not a template: hosts read it before any call, so it has no `{..}` variables",
            ),
        }
    }
}

/// Checks that `uri` can name a view: `ui://` and something after it, no template.
pub fn check_view_uri(uri: &str) -> Result<(), ViewUriError> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return Err(ViewUriError::NotUi);
    };
    if rest.is_empty() {
        return Err(ViewUriError::Empty);
    }
    if uri.contains('{') || uri.contains('}') {
        return Err(ViewUriError::Template);
    }
    Ok(())
}

/// Why a CSP entry is not an origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginError(String);

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; a CSP entry is an origin: `https://host` or `https://host:port` (also `http`, `wss`, `ws`), no path, no wildcard but a leading `*.` (`https://*.example.com`)",
            self.0
        )
    }
}

/// Checks that `entry` is an origin a CSP directive can allow: a scheme of
/// `https`/`http`/`wss`/`ws`, a host (its first label may be `*`), an optional port, and
/// nothing after.
pub fn check_origin(entry: &str) -> Result<(), OriginError> {
    let problem = |what: String| Err(OriginError(what));
    let Some((scheme, rest)) = entry.split_once("://") else {
        return problem(format!("`{entry}` has no scheme"));
    };
    if !ORIGIN_SCHEMES.contains(&scheme) {
        return problem(format!("`{entry}` has the scheme `{scheme}`"));
    }
    if let Some(at) = rest.find(['/', '?', '#']) {
        return problem(format!("`{entry}` has a path (`{}`)", &rest[at..]));
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    if let Some(port) = port
        && !matches!(port.parse::<u16>(), Ok(1..))
    {
        return problem(format!("`{entry}` has the port `{port}`, not 1 to 65535"));
    }
    let bare = host.strip_prefix("*.").unwrap_or(host);
    if bare.is_empty() {
        return problem(format!("`{entry}` has no host"));
    }
    for label in bare.split('.') {
        if label.is_empty() {
            return problem(format!("`{entry}` has an empty label in its host"));
        }
        if label.contains('*') {
            return problem(format!("`{entry}` has a wildcard that is not a leading `*.`"));
        }
        if let Some(bad) = label.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-')) {
            return problem(format!("`{entry}` has the character `{bad}` in its host"));
        }
    }
    Ok(())
}

/// The `_meta.ui.permissions` key of a permission as `permissions(..)` writes it, if it is
/// one.
pub fn permission_key(written: &str) -> Option<&'static str> {
    PERMISSIONS
        .iter()
        .find(|(name, _)| *name == written)
        .map(|(_, key)| *key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_uri_is_ui_and_fixed() {
        assert_eq!(check_view_uri("ui://notes/board"), Ok(()));
        assert_eq!(check_view_uri("notes://board"), Err(ViewUriError::NotUi));
        assert_eq!(check_view_uri("ui://"), Err(ViewUriError::Empty));
        assert_eq!(check_view_uri("ui://notes/{id}"), Err(ViewUriError::Template));
    }

    #[test]
    fn origins_are_scheme_host_and_port_only() {
        for good in [
            "https://api.example.com",
            "https://api.example.com:8443",
            "wss://realtime.example.com",
            "http://127.0.0.1:3000",
            "https://*.example.com",
            "https://localhost",
        ] {
            assert_eq!(check_origin(good), Ok(()), "{good}");
        }
        let said = |entry: &str| check_origin(entry).unwrap_err().0;
        assert_eq!(said("api.example.com"), "`api.example.com` has no scheme");
        assert_eq!(
            said("ftp://example.com"),
            "`ftp://example.com` has the scheme `ftp`"
        );
        assert_eq!(
            said("https://example.com/api"),
            "`https://example.com/api` has a path (`/api`)"
        );
        assert_eq!(
            said("https://example.com/"),
            "`https://example.com/` has a path (`/`)"
        );
        assert_eq!(
            said("https://example.com:0"),
            "`https://example.com:0` has the port `0`, not 1 to 65535"
        );
        assert_eq!(
            said("https://example.com:http"),
            "`https://example.com:http` has the port `http`, not 1 to 65535"
        );
        assert_eq!(
            said("https://api.*.com"),
            "`https://api.*.com` has a wildcard that is not a leading `*.`"
        );
        assert_eq!(
            said("https://*"),
            "`https://*` has a wildcard that is not a leading `*.`"
        );
        assert_eq!(said("https://"), "`https://` has no host");
        assert_eq!(
            said("https://a..b"),
            "`https://a..b` has an empty label in its host"
        );
        assert_eq!(
            said("https://ex ample.com"),
            "`https://ex ample.com` has the character ` ` in its host"
        );
        assert!(
            check_origin("https://a/b")
                .unwrap_err()
                .to_string()
                .ends_with("(`https://*.example.com`)")
        );
    }

    #[test]
    fn permissions_have_their_wire_keys() {
        assert_eq!(permission_key("clipboard_write"), Some("clipboardWrite"));
        assert_eq!(permission_key("camera"), Some("camera"));
        assert_eq!(permission_key("clipboardWrite"), None);
    }
}
