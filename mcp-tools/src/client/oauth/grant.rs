//! The third stage: a token. The client gets an identity at the authorization server
//! (pre-registered, a client ID metadata document, or dynamic registration, RFC 7591),
//! sends the user to the authorization endpoint with PKCE (S256), `state` and the resource
//! (RFC 8707), checks the redirect that comes back (`state`, and `iss` by RFC 9207), and
//! trades its code, or later a refresh token, at the token endpoint.

use super::discover::Authority;
use super::fetch::{Body, Fetch};
use super::{AuthorizationError, OAuth};
use crate::protocol::oauth::{basic_credentials, form, is_loopback};
use axum::http::Uri;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::Digest as _;
use std::time::Duration;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Method {
    /// A public client: its id in the form, no secret.
    #[serde(rename = "none")]
    None,
    /// `client_secret_basic`: the id and secret in `Authorization: Basic`.
    #[serde(rename = "client_secret_basic")]
    Basic,
    /// `client_secret_post`: the id and secret in the form.
    #[serde(rename = "client_secret_post")]
    Post,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::None => "none",
            Method::Basic => "client_secret_basic",
            Method::Post => "client_secret_post",
        }
    }

    fn named(name: &str) -> Option<Method> {
        [Method::None, Method::Basic, Method::Post]
            .into_iter()
            .find(|method| method.name() == name)
    }
}

/// Who the client is at one authorization server.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct Identity {
    pub(super) client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
    #[serde(rename = "token_endpoint_auth_method")]
    method: Method,
}

/// A token the server granted.
pub(super) struct Tokens {
    pub(super) access: String,
    pub(super) refresh: Option<String>,
    /// How long it lives from now (`expires_in`), if the server said.
    pub(super) lifetime: Option<Duration>,
}

/// The client's identity at `authority`'s server, by the first way that server allows:
/// the application's own registration, then its client ID metadata document, then dynamic
/// registration.
pub(super) async fn identity(
    fetch: &Fetch,
    oauth: &OAuth,
    authority: &Authority,
) -> Result<Identity, AuthorizationError> {
    let server = &authority.server;
    let methods = server
        .token_endpoint_auth_methods_supported
        .clone()
        .unwrap_or_else(|| vec![Method::Basic.name().to_owned()]);
    let supports = |method: Method| methods.iter().any(|m| m == method.name());
    if let Some((client_id, secret)) = &oauth.registered {
        let method = match secret {
            None => Method::None,
            Some(_) if !supports(Method::Basic) && supports(Method::Post) => Method::Post,
            Some(_) => Method::Basic,
        };
        return Ok(Identity {
            client_id: client_id.clone(),
            secret: secret.clone(),
            method,
        });
    }
    if let Some(url) = oauth
        .metadata_url
        .as_ref()
        .filter(|_| server.client_id_metadata_document_supported)
    {
        return Ok(Identity {
            client_id: url.clone(),
            secret: None,
            method: Method::None,
        });
    }
    let Some(endpoint) = &server.registration_endpoint else {
        return Err(AuthorizationError::NoClientIdentity {
            issuer: server.issuer.clone(),
        });
    };
    // A public client where the server takes one, as an application on the user's machine
    // is; otherwise the method the server names first that the client knows.
    let method = if supports(Method::None) {
        Method::None
    } else {
        methods
            .iter()
            .find_map(|name| Method::named(name))
            .unwrap_or(Method::Basic)
    };
    let mut request = json!({
        "client_name": oauth.client_name,
        "redirect_uris": [oauth.redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method.name(),
        "application_type": application_type(&oauth.redirect_uri),
    });
    if let Some(url) = &oauth.metadata_url {
        request["client_uri"] = json!(url);
    }
    let (status, answer) = fetch.post(endpoint, Body::Json(request), None).await?;
    let client_id = answer["client_id"].as_str().filter(|_| status.is_success());
    let Some(client_id) = client_id else {
        return Err(AuthorizationError::Registration {
            status: status.as_u16(),
            error: oauth_error(&answer),
        });
    };
    let secret = answer["client_secret"].as_str().map(str::to_owned);
    let method = answer["token_endpoint_auth_method"]
        .as_str()
        .and_then(Method::named)
        .unwrap_or(method);
    Ok(Identity {
        client_id: client_id.to_owned(),
        method: if secret.is_none() { Method::None } else { method },
        secret,
    })
}

/// `native` for a redirect to the user's own machine (loopback, or an application's own
/// scheme), `web` for one to a site (SEP-837).
fn application_type(redirect_uri: &str) -> &'static str {
    match redirect_uri.parse::<Uri>() {
        Ok(uri) if uri.scheme_str() == Some("https") && !uri.host().is_some_and(is_loopback) => "web",
        _ => "native",
    }
}

/// One authorization in progress: the secrets its redirect is checked against.
pub(super) struct Attempt {
    verifier: String,
    state: String,
    /// The URL the user is sent to.
    pub(super) url: String,
}

impl Attempt {
    /// The authorization request for `scopes` (none: no `scope` parameter at all).
    pub(super) fn new(
        oauth: &OAuth,
        authority: &Authority,
        identity: &Identity,
        scopes: &[String],
    ) -> Attempt {
        let verifier = random_token();
        let challenge = base64url(&sha2::Sha256::digest(verifier.as_bytes()));
        let state = random_token();
        let scope = scopes.join(" ");
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", identity.client_id.as_str()),
            ("redirect_uri", oauth.redirect_uri.as_str()),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
            ("resource", authority.resource.as_str()),
        ];
        if !scope.is_empty() {
            pairs.push(("scope", scope.as_str()));
        }
        let endpoint = &authority.server.authorization_endpoint;
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{separator}{}", form(pairs));
        Attempt { verifier, state, url }
    }

    /// The code in `redirect` (the URL the user came back to, or its query), once it is
    /// shown to answer this request, from the server asked.
    pub(super) fn code(&self, redirect: &str, authority: &Authority) -> Result<String, AuthorizationError> {
        let query = redirect.split_once('?').map_or(redirect, |(_, query)| query);
        let query = query.split_once('#').map_or(query, |(query, _)| query);
        let params: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let param = |name: &str| {
            params
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.as_str())
        };
        if param("state") != Some(self.state.as_str()) {
            return Err(AuthorizationError::Redirect {
                reason: "its `state` is not the one the client sent".to_owned(),
            });
        }
        // RFC 9207: the issuer named in the redirect is compared as a string with the one
        // asked; a server that promised to name itself must.
        let issuer = &authority.server.issuer;
        match param("iss") {
            Some(iss) if iss != issuer => {
                return Err(AuthorizationError::IssuerMismatch {
                    expected: issuer.clone(),
                    found: iss.to_owned(),
                });
            }
            None if authority.server.authorization_response_iss_parameter_supported => {
                return Err(AuthorizationError::Redirect {
                    reason: format!("it has no `iss`, which {issuer} promised to send"),
                });
            }
            _ => {}
        }
        if let Some(error) = param("error") {
            return Err(AuthorizationError::Denied {
                error: error.to_owned(),
                description: param("error_description").map(str::to_owned),
            });
        }
        param("code")
            .filter(|code| !code.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| AuthorizationError::Redirect {
                reason: "it has no `code`".to_owned(),
            })
    }

    /// Trades `code` for a token.
    pub(super) async fn redeem(
        &self,
        fetch: &Fetch,
        oauth: &OAuth,
        authority: &Authority,
        identity: &Identity,
        code: &str,
    ) -> Result<Tokens, AuthorizationError> {
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", oauth.redirect_uri.as_str()),
            ("code_verifier", self.verifier.as_str()),
            ("resource", authority.resource.as_str()),
        ];
        token_request(fetch, authority, identity, &form).await
    }
}

/// A token for the client itself (the client credentials grant), for `scopes`.
pub(super) async fn client_credentials(
    fetch: &Fetch,
    authority: &Authority,
    identity: &Identity,
    scopes: &[String],
) -> Result<Tokens, AuthorizationError> {
    let scope = scopes.join(" ");
    let mut form = vec![
        ("grant_type", "client_credentials"),
        ("resource", authority.resource.as_str()),
    ];
    if !scope.is_empty() {
        form.push(("scope", scope.as_str()));
    }
    token_request(fetch, authority, identity, &form).await
}

/// Trades a refresh token for a new token; the refresh token is kept if no new one comes.
pub(super) async fn refresh(
    fetch: &Fetch,
    authority: &Authority,
    identity: &Identity,
    refresh: &str,
) -> Result<Tokens, AuthorizationError> {
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh),
        ("resource", authority.resource.as_str()),
    ];
    let mut tokens = token_request(fetch, authority, identity, &form).await?;
    tokens.refresh.get_or_insert_with(|| refresh.to_owned());
    Ok(tokens)
}

async fn token_request(
    fetch: &Fetch,
    authority: &Authority,
    identity: &Identity,
    pairs: &[(&str, &str)],
) -> Result<Tokens, AuthorizationError> {
    let mut pairs = pairs.to_vec();
    pairs.push(("client_id", identity.client_id.as_str()));
    let mut authorization = None;
    match (identity.method, identity.secret.as_deref()) {
        (Method::Basic, Some(secret)) => authorization = Some(basic_credentials(&identity.client_id, secret)),
        (Method::Post, Some(secret)) => pairs.push(("client_secret", secret)),
        _ => {}
    }
    let endpoint = &authority.server.token_endpoint;
    let (status, answer) = fetch
        .post(endpoint, Body::Form(form(pairs)), authorization)
        .await?;
    let access = answer["access_token"]
        .as_str()
        .filter(|token| !token.is_empty() && token.bytes().all(|b| (0x20..0x7f).contains(&b)));
    let (Some(access), true) = (access, status.is_success()) else {
        return Err(AuthorizationError::Token {
            status: status.as_u16(),
            error: oauth_error(&answer),
        });
    };
    let token_type = answer["token_type"].as_str().unwrap_or_default();
    if !token_type.eq_ignore_ascii_case("bearer") {
        return Err(AuthorizationError::Token {
            status: status.as_u16(),
            error: format!("the token's type is {token_type:?}; this client uses `Bearer` tokens"),
        });
    }
    Ok(Tokens {
        access: access.to_owned(),
        refresh: answer["refresh_token"].as_str().map(str::to_owned),
        lifetime: answer["expires_in"].as_u64().map(Duration::from_secs),
    })
}

/// What an OAuth error answer says (`error`, `error_description`), or that it said nothing.
fn oauth_error(answer: &Value) -> String {
    match (answer["error"].as_str(), answer["error_description"].as_str()) {
        (Some(error), Some(description)) => format!("{error}: {description}"),
        (Some(error), None) => error.to_owned(),
        _ => "no OAuth error in the answer".to_owned(),
    }
}

/// 32 random bytes in base64url: a PKCE verifier (43 characters, RFC 7636) or a `state`.
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    base64url(&bytes)
}

fn base64url(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pkce_challenge_is_rfc_7636s() {
        // S256: base64url of the SHA-256 of the verifier, unpadded (the value computed
        // apart, with Python's hashlib and base64).
        let verifier = "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            base64url(&sha2::Sha256::digest(verifier.as_bytes())),
            "ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc"
        );
        let token = random_token();
        assert_eq!(token.len(), 43);
        assert_ne!(token, random_token());
    }

    #[test]
    fn a_redirect_to_the_users_machine_is_native() {
        assert_eq!(application_type("http://127.0.0.1:8765/callback"), "native");
        assert_eq!(application_type("com.example.app:/oauth"), "native");
        assert_eq!(application_type("https://localhost/cb"), "native");
        assert_eq!(application_type("https://app.example.com/cb"), "web");
    }
}
