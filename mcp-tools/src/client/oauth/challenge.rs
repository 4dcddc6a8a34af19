//! The first stage: what a refusal asks for. A `401` (no token, or one no longer good) or a
//! `403` with `error="insufficient_scope"` carries a `Bearer` challenge in
//! `WWW-Authenticate` (RFC 6750, section 3) naming the scope wanted and, from RFC 9728,
//! where the resource's metadata is.

use axum::http::{HeaderMap, StatusCode, header};

/// Why the server refused a request, and what it said it wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Challenge {
    pub(super) kind: Kind,
    /// The scopes the challenge names (`scope`), in its order.
    pub(super) scopes: Vec<String>,
    /// Where the resource's metadata is (`resource_metadata`).
    pub(super) resource_metadata: Option<String>,
}

/// The two refusals a client can do something about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `401`: a token is needed (the first time, or again).
    Unauthorized,
    /// `403` with `insufficient_scope`: the token lacks a scope the request needs.
    InsufficientScope,
}

impl Challenge {
    /// The challenge of a response, if it is a refusal a new token may answer.
    pub(super) fn of(status: StatusCode, headers: &HeaderMap) -> Option<Challenge> {
        let params = headers
            .get_all(header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(bearer_params)
            .unwrap_or_default();
        let param = |name: &str| {
            params
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.clone())
        };
        let kind = match status {
            StatusCode::UNAUTHORIZED => Kind::Unauthorized,
            StatusCode::FORBIDDEN if param("error").as_deref() == Some("insufficient_scope") => {
                Kind::InsufficientScope
            }
            _ => return None,
        };
        Some(Challenge {
            kind,
            scopes: param("scope")
                .map(|scope| scope.split_ascii_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            resource_metadata: param("resource_metadata"),
        })
    }
}

/// The parameters of the `Bearer` challenge in one `WWW-Authenticate` value, which may hold
/// challenges of other schemes too (RFC 9110, section 11.6.1).
fn bearer_params(value: &str) -> Option<Vec<(String, String)>> {
    let mut rest = value;
    let mut in_bearer = false;
    let mut params = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return in_bearer.then_some(params);
        }
        let name_end = rest
            .find(|c: char| c == '=' || c == ',' || c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() {
            // The `=` padding of a token68: nothing to read.
            rest = &rest[1..];
            continue;
        }
        let after = rest[name_end..].trim_start_matches([' ', '\t']);
        let Some(value_start) = after.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
            // A token not followed by `=` begins a challenge: its scheme.
            if in_bearer {
                return Some(params);
            }
            in_bearer = name.eq_ignore_ascii_case("bearer");
            rest = after;
            continue;
        };
        let value_start = value_start.trim_start_matches([' ', '\t']);
        let (value, next) = match value_start.strip_prefix('"') {
            Some(quoted) => unquote(quoted),
            None => {
                let end = value_start
                    .find(|c: char| c == ',' || c.is_ascii_whitespace())
                    .unwrap_or(value_start.len());
                (value_start[..end].to_owned(), &value_start[end..])
            }
        };
        if in_bearer {
            params.push((name.to_owned(), value));
        }
        rest = next;
    }
}

/// A quoted string's value, from after its opening quote, and what follows its closing one.
fn unquote(text: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return (value, &text[at + 1..]),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            c => value.push(c),
        }
    }
    (value, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn challenge(status: u16, values: &[&str]) -> Option<Challenge> {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::WWW_AUTHENTICATE, HeaderValue::from_str(value).unwrap());
        }
        Challenge::of(StatusCode::from_u16(status).unwrap(), &headers)
    }

    #[test]
    fn a_401_names_the_metadata_and_the_scope() {
        assert_eq!(
            challenge(
                401,
                &[
                    r#"Bearer realm="mcp", scope="mcp:basic mcp:read", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#
                ]
            ),
            Some(Challenge {
                kind: Kind::Unauthorized,
                scopes: vec!["mcp:basic".into(), "mcp:read".into()],
                resource_metadata: Some("http://localhost:1/.well-known/oauth-protected-resource/mcp".into()),
            })
        );
    }

    #[test]
    fn a_401_without_a_challenge_still_asks_for_a_token() {
        assert_eq!(
            challenge(401, &[]),
            Some(Challenge {
                kind: Kind::Unauthorized,
                scopes: vec![],
                resource_metadata: None
            })
        );
    }

    #[test]
    fn only_an_insufficient_scope_403_is_a_challenge() {
        let step_up = challenge(
            403,
            &[r#"Bearer error="insufficient_scope", scope="mcp:write", error_description="needs \"write\"""#],
        )
        .unwrap();
        assert_eq!(
            (step_up.kind, step_up.scopes),
            (Kind::InsufficientScope, vec!["mcp:write".to_owned()])
        );
        assert_eq!(challenge(403, &[r#"Bearer error="invalid_token""#]), None);
        assert_eq!(challenge(403, &[]), None);
        assert_eq!(challenge(500, &["Bearer"]), None);
    }

    #[test]
    fn the_bearer_challenge_is_found_among_others() {
        let found = challenge(
            401,
            &[r#"Basic realm="x", charset="UTF-8", Bearer scope=files, error=invalid_token, DPoP algs="ES256""#],
        )
        .unwrap();
        assert_eq!(found.scopes, ["files"]);
        let found = challenge(
            401,
            &[r#"Basic realm="x""#, r#"bearer resource_metadata="https://a/b""#],
        )
        .unwrap();
        assert_eq!(found.resource_metadata.as_deref(), Some("https://a/b"));
        // Scheme names and parameter names are case-insensitive; a token68 is passed over.
        let found = challenge(401, &[r#"Negotiate abc==, BEARER SCOPE="a""#]).unwrap();
        assert_eq!(found.scopes, ["a"]);
    }
}
