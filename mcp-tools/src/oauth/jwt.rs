//! JWT access tokens (RFC 9068): the signature by a key of the authorization server's set,
//! an accepted algorithm, `iss`, `aud` (RFC 8707: this resource), `exp` and `nbf` within a
//! leeway; and the principal the claims describe.

use super::error::TokenError;
use super::keys::{ACCEPTED, KeyCache};
use crate::context::Principal;
use base64::Engine as _;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Validation, decode, decode_header};
use serde_json::Value;

/// What a JWT must say to be let in.
pub(super) struct JwtRules {
    pub(super) issuer: String,
    pub(super) audience: String,
    pub(super) leeway_secs: u64,
}

/// Whether `token` has the shape of a JWT: three dot-separated parts, the first a JSON
/// object. Anything else is an opaque token (for introspection).
pub(super) fn is_jwt(token: &str) -> bool {
    let mut parts = token.split('.');
    let (Some(header), Some(_), Some(_), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header.trim_end_matches('='))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .is_some_and(|header| header.is_object())
}

/// Verifies a JWT and says who it stands for.
pub(super) async fn verify(token: &str, keys: &KeyCache, rules: &JwtRules) -> Result<Principal, TokenError> {
    let header = decode_header(token)?;
    if !ACCEPTED.contains(&header.alg) {
        return Err(TokenError::Algorithm(header.alg));
    }
    let mut validation = Validation::new(header.alg);
    validation.leeway = rules.leeway_secs;
    validation.validate_nbf = true;
    validation.set_issuer(&[&rules.issuer]);
    validation.set_audience(&[&rules.audience]);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    let kid = header.kid.as_deref();
    let set = keys.keys(kid).await?;
    let mut last = None;
    for key in set.candidates(kid, header.alg) {
        match decode::<Value>(token, &key.key, &validation) {
            Ok(data) => return principal_of(data.claims),
            // A token naming no key is tried against each key of its algorithm.
            Err(error) if matches!(error.kind(), ErrorKind::InvalidSignature) => last = Some(error),
            Err(error) => return Err(error.into()),
        }
    }
    Err(last.map_or_else(|| TokenError::UnknownKey(header.kid.clone()), TokenError::from))
}

/// The principal of a token's claims (a JWT's, or an introspection answer's): the subject
/// (`sub`, else `client_id` for a client acting on its own behalf), the scopes (`scope`,
/// space-separated, else `scp`, a list or a string), and every claim.
pub(super) fn principal_of(claims: Value) -> Result<Principal, TokenError> {
    let subject = ["sub", "client_id"]
        .iter()
        .find_map(|name| {
            claims
                .get(*name)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        })
        .ok_or(TokenError::NoSubject)?
        .to_owned();
    let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(scope)), _) | (None, Some(Value::String(scope))) => {
            scope.split_whitespace().map(str::to_owned).collect()
        }
        (None, Some(Value::Array(list))) => {
            list.iter().filter_map(Value::as_str).map(str::to_owned).collect()
        }
        _ => Vec::new(),
    };
    Ok(Principal::new(subject).with_scopes(scopes).with_claims(claims))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn jwts_are_told_from_opaque_tokens() {
        // {"alg":"none"}.{}.
        assert!(is_jwt("eyJhbGciOiJub25lIn0.e30."));
        assert!(is_jwt("eyJhbGciOiJFZERTQSJ9.e30.c2ln"));
        for opaque in [
            "2YotnFZFEjr1zCsicMWpAA",
            "a.b.c",
            "e30.e30",
            "e30.e30.e30.e30",
            "W10.e30.e30",
            "",
        ] {
            assert!(!is_jwt(opaque), "{opaque}");
        }
    }

    #[test]
    fn the_principal_comes_from_sub_and_scope_or_scp() {
        let ada = principal_of(json!({"sub": "ada", "scope": "notes:read  notes:write"})).unwrap();
        assert_eq!(ada.subject, "ada");
        assert_eq!(ada.scopes, ["notes:read", "notes:write"]);
        assert_eq!(ada.claims["sub"], "ada");
        let bot = principal_of(json!({"client_id": "bot", "scp": ["a", "b"]})).unwrap();
        assert_eq!(
            (bot.subject.as_str(), bot.scopes.as_slice()),
            ("bot", &["a".to_owned(), "b".to_owned()][..])
        );
        let one = principal_of(json!({"sub": "x", "scp": "a b"})).unwrap();
        assert_eq!(one.scopes, ["a", "b"]);
        assert!(principal_of(json!({"sub": "x"})).unwrap().scopes.is_empty());
        assert!(matches!(
            principal_of(json!({"scope": "a"})),
            Err(TokenError::NoSubject)
        ));
        assert!(matches!(
            principal_of(json!({"sub": ""})),
            Err(TokenError::NoSubject)
        ));
    }
}
