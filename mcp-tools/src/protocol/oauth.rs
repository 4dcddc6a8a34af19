//! What both ends of OAuth discovery agree on, for the resource server (feature `oauth`)
//! and the client (feature `client-oauth`): where Protected Resource Metadata (RFC 9728)
//! and an authorization server's metadata (RFC 8414, OpenID Connect Discovery) are, which
//! hosts may be reached over plain `http://`, and the form encoding of OAuth's requests.

use axum::http::Uri;

/// The well-known suffix of Protected Resource Metadata (RFC 9728, section 3).
pub(crate) const PRM_SUFFIX: &str = "/.well-known/oauth-protected-resource";

/// Whether `host` (as a URI gives it, IPv6 in brackets) is a loopback name or address.
pub(crate) fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `uri` may carry OAuth: `https://`, or `http://` to a loopback host.
pub(crate) fn is_secure(uri: &Uri) -> bool {
    match (uri.scheme_str(), uri.host()) {
        (Some("https"), Some(_)) => true,
        (Some("http"), Some(host)) => is_loopback(host),
        _ => false,
    }
}

/// `scheme://authority` of `uri`.
pub(crate) fn origin(uri: &Uri) -> String {
    format!(
        "{}://{}",
        uri.scheme_str().unwrap_or("https"),
        uri.authority().map_or("", |a| a.as_str())
    )
}

/// The path of `uri` without a trailing `/` (empty for the root).
pub(crate) fn path_of(uri: &Uri) -> &str {
    uri.path().trim_end_matches('/')
}

/// Where an issuer's metadata may be, in the order tried: RFC 8414's
/// `oauth-authorization-server` (the well-known part inserted before the issuer's path),
/// then OpenID Connect Discovery's `openid-configuration`, inserted and then appended.
pub(crate) fn as_metadata_urls(issuer: &Uri) -> Vec<String> {
    let origin = origin(issuer);
    let path = path_of(issuer);
    let mut urls = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    urls
}

/// `pairs` as an `application/x-www-form-urlencoded` body or query.
pub(crate) fn form<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The `Authorization` value of HTTP Basic client authentication (RFC 6749, section
/// 2.3.1): the id and the secret, each form-encoded, joined by `:`, in base64.
pub(crate) fn basic_credentials(client_id: &str, secret: &str) -> String {
    use base64::Engine as _;
    let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
    let credentials = format!("{}:{}", encode(client_id), encode(secret));
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(credentials)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorization_server_metadata_is_looked_for_in_three_places() {
        let issuer: Uri = "https://auth.example.com/tenant1".parse().unwrap();
        assert_eq!(
            as_metadata_urls(&issuer),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
        let root: Uri = "https://auth.example.com".parse().unwrap();
        assert_eq!(as_metadata_urls(&root).len(), 2);
    }

    #[test]
    fn only_loopback_may_be_plain_http() {
        for (url, secure) in [
            ("https://auth.example.com/x", true),
            ("http://127.0.0.1:9/x", true),
            ("http://localhost:9/x", true),
            ("http://[::1]:9/x", true),
            ("http://auth.example.com/x", false),
            ("ftp://localhost/x", false),
        ] {
            assert_eq!(is_secure(&url.parse().unwrap()), secure, "{url}");
        }
    }

    #[test]
    fn basic_credentials_encode_each_part() {
        // RFC 6749's example client, and a secret that needs encoding.
        assert_eq!(
            basic_credentials("s6BhdRkqt3", "gX1fBat3bV"),
            "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"
        );
        assert_eq!(basic_credentials("a:b", "c d"), "Basic YSUzQWI6Yytk");
    }

    #[test]
    fn forms_are_encoded() {
        assert_eq!(
            form([("a b", "c&d=e/é"), ("x", "eyJ.x-y_z")]),
            "a+b=c%26d%3De%2F%C3%A9&x=eyJ.x-y_z"
        );
    }
}
