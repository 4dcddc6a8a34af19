//! The second stage: who issues tokens for the server. The resource's Protected Resource
//! Metadata (RFC 9728), at the URL its challenge names or else at its well-known places,
//! names the authorization server; that server's metadata (RFC 8414, or OpenID Connect
//! Discovery) gives its endpoints. Each document is checked before anything in it is used:
//! the resource must be the server the client speaks to, the issuer must be the one asked
//! for, and every endpoint must be `https://` (or loopback).

use super::AuthorizationError;
use super::fetch::{Fetch, secure};
use crate::protocol::oauth::{PRM_SUFFIX, as_metadata_urls, is_secure, origin, path_of};
use axum::http::Uri;
use serde::Deserialize;

/// What the client knows of the server's authorization: the resource it names in every
/// authorization and token request, and the authorization server that issues its tokens.
#[derive(Debug, Clone)]
pub(super) struct Authority {
    /// The resource's identifier (RFC 8707's `resource`), as its metadata gives it.
    pub(super) resource: String,
    /// The scopes the resource's metadata lists (`scopes_supported`).
    pub(super) resource_scopes: Vec<String>,
    pub(super) server: ServerMetadata,
}

/// An authorization server's metadata: the members the client uses.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct ServerMetadata {
    pub(super) issuer: String,
    pub(super) authorization_endpoint: String,
    pub(super) token_endpoint: String,
    #[serde(default)]
    pub(super) registration_endpoint: Option<String>,
    #[serde(default)]
    pub(super) scopes_supported: Vec<String>,
    #[serde(default)]
    pub(super) code_challenge_methods_supported: Vec<String>,
    /// Absent means `client_secret_basic` alone (RFC 8414, section 2).
    #[serde(default)]
    pub(super) token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Whether the redirect carries `iss` (RFC 9207).
    #[serde(default)]
    pub(super) authorization_response_iss_parameter_supported: bool,
    /// Whether a URL may be the client's id (client ID metadata documents).
    #[serde(default)]
    pub(super) client_id_metadata_document_supported: bool,
}

/// The members of Protected Resource Metadata the client uses.
#[derive(Deserialize)]
struct ResourceMetadata {
    resource: String,
    #[serde(default)]
    authorization_servers: Vec<String>,
    #[serde(default)]
    scopes_supported: Vec<String>,
}

/// Finds the authority of the server at `server`, starting from the metadata URL its
/// challenge named, if any.
pub(super) async fn authority(
    fetch: &Fetch,
    server: &Uri,
    named: Option<&str>,
) -> Result<Authority, AuthorizationError> {
    let mut tried = Vec::new();
    let mut found = None;
    for url in resource_metadata_urls(server, named) {
        match fetch.get_json::<ResourceMetadata>(&url).await {
            Ok(Some(document)) => {
                found = Some(document);
                break;
            }
            Ok(None) => tried.push(url),
            // A URL that cannot be reached is one place the metadata is not.
            Err(error) => tried.push(format!("{url} ({error})")),
        }
    }
    let Some(metadata) = found else {
        return legacy_authority(fetch, server)
            .await?
            .ok_or(AuthorizationError::Discovery {
                what: "the server's Protected Resource Metadata",
                tried,
            });
    };
    if !resource_covers(&metadata.resource, server) {
        return Err(AuthorizationError::ResourceMismatch {
            resource: metadata.resource,
            server: server.to_string(),
        });
    }
    let Some(issuer) = metadata.authorization_servers.first() else {
        return Err(AuthorizationError::Discovery {
            what: "an authorization server in the resource's metadata",
            tried: vec![],
        });
    };
    let issuer_uri = secure(issuer)?;
    let mut tried = Vec::new();
    for url in as_metadata_urls(&issuer_uri) {
        let Some(server_metadata) = fetch.get_json::<ServerMetadata>(&url).await? else {
            tried.push(url);
            continue;
        };
        let server_metadata = checked(server_metadata, issuer)?;
        return Ok(Authority {
            resource: metadata.resource,
            resource_scopes: metadata.scopes_supported,
            server: server_metadata,
        });
    }
    Err(AuthorizationError::Discovery {
        what: "the authorization server's metadata",
        tried,
    })
}

/// `metadata`, if it may be used as `issuer`'s: RFC 8414, section 3.3, makes a document
/// for another issuer no document of this one, none of whose endpoints may be used; every
/// endpoint must be `https://` (or loopback); and PKCE's S256 must be offered.
fn checked(metadata: ServerMetadata, issuer: &str) -> Result<ServerMetadata, AuthorizationError> {
    if metadata.issuer != issuer {
        return Err(AuthorizationError::IssuerMismatch {
            expected: issuer.to_owned(),
            found: metadata.issuer,
        });
    }
    for endpoint in [
        Some(&metadata.authorization_endpoint),
        Some(&metadata.token_endpoint),
        metadata.registration_endpoint.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        secure(endpoint)?;
    }
    if !metadata
        .code_challenge_methods_supported
        .iter()
        .any(|m| m == "S256")
    {
        return Err(AuthorizationError::NoPkce {
            issuer: issuer.to_owned(),
        });
    }
    Ok(metadata)
}

/// The authority of a server of revision 2025-03-26, which has no resource metadata: the
/// server's origin is its authorization server, with metadata at the origin's well-known
/// URL or, failing that, the endpoints `/authorize`, `/token` and `/register` there.
async fn legacy_authority(fetch: &Fetch, server: &Uri) -> Result<Option<Authority>, AuthorizationError> {
    let origin = origin(server);
    let found = fetch
        .get_json::<ServerMetadata>(&format!("{origin}/.well-known/oauth-authorization-server"))
        .await;
    let metadata = match found {
        Ok(Some(metadata)) => checked(metadata, &origin)?,
        Err(_) => return Ok(None),
        Ok(None) => ServerMetadata {
            issuer: origin.clone(),
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            scopes_supported: Vec::new(),
            code_challenge_methods_supported: vec!["S256".to_owned()],
            token_endpoint_auth_methods_supported: None,
            authorization_response_iss_parameter_supported: false,
            client_id_metadata_document_supported: false,
        },
    };
    Ok(Some(Authority {
        resource: server.to_string(),
        resource_scopes: Vec::new(),
        server: metadata,
    }))
}

/// Where the resource's metadata may be, in the order tried: the URL the challenge named,
/// then the well-known URL for the endpoint's path, then the one for the origin.
fn resource_metadata_urls(server: &Uri, named: Option<&str>) -> Vec<String> {
    let origin = origin(server);
    let mut urls: Vec<String> = named
        .filter(|url| url.parse::<Uri>().is_ok_and(|uri| is_secure(&uri)))
        .map(str::to_owned)
        .into_iter()
        .collect();
    let path = path_of(server);
    if !path.is_empty() {
        urls.push(format!("{origin}{PRM_SUFFIX}{path}"));
    }
    urls.push(format!("{origin}{PRM_SUFFIX}"));
    urls.dedup();
    urls
}

/// Whether `resource` names the server at `server`: the same origin, and a path that is
/// the server's or one of its parents (metadata served for a whole host names the host).
pub(super) fn resource_covers(resource: &str, server: &Uri) -> bool {
    let Ok(resource) = resource.parse::<Uri>() else {
        return false;
    };
    let same_origin = resource
        .scheme_str()
        .zip(server.scheme_str())
        .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        && resource
            .host()
            .zip(server.host())
            .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        && resource.port_u16() == server.port_u16();
    if !same_origin || resource.query().is_some() {
        return false;
    }
    let (parent, path) = (path_of(&resource), path_of(server));
    path == parent
        || path
            .strip_prefix(parent)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_the_challenge_says_then_at_the_well_known_places() {
        let server: Uri = "http://localhost:3000/mcp".parse().unwrap();
        assert_eq!(
            resource_metadata_urls(&server, Some("http://localhost:3000/custom/prm.json")),
            [
                "http://localhost:3000/custom/prm.json",
                "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
                "http://localhost:3000/.well-known/oauth-protected-resource",
            ]
        );
        // A named URL that is not https is not fetched.
        assert_eq!(
            resource_metadata_urls(
                &"https://mcp.example.com/".parse().unwrap(),
                Some("http://evil.example.com/m")
            ),
            ["https://mcp.example.com/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn a_resource_covers_its_own_endpoint_and_those_below_it() {
        let server: Uri = "http://localhost:3000/tenant/mcp".parse().unwrap();
        for covering in [
            "http://localhost:3000/tenant/mcp",
            "http://localhost:3000/tenant/mcp/",
            "http://LOCALHOST:3000/tenant",
            "http://localhost:3000",
            "http://localhost:3000/",
        ] {
            assert!(resource_covers(covering, &server), "{covering}");
        }
        for other in [
            "https://evil.example.com/mcp",
            "https://localhost:3000/tenant/mcp",
            "http://localhost:3001/tenant/mcp",
            "http://localhost:3000/ten",
            "http://localhost:3000/tenant/mcp/more",
            "http://localhost:3000/tenant/mcp?x=1",
            "not a url",
        ] {
            assert!(!resource_covers(other, &server), "{other}");
        }
    }
}
