//! JWT access tokens (RFC 9068): the signature by a key of the authorization server's set,
//! an accepted algorithm, `iss`, `aud` (RFC 8707: this resource), `exp` and `nbf` within a
//! leeway, no critical extension (`crit`) and no type of another kind of token (`typ`); and
//! the principal the claims describe.

use super::error::TokenError;
use super::keys::{ACCEPTED, KeyCache};
use crate::context::Principal;
use base64::Engine as _;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Header, Validation, decode};
use serde_json::{Map, Value};

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
    let header = header_of(token)?;
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

/// A JWT's header, refused when it marks an extension critical or types the token as
/// another kind of JWT. The JWT library keeps only the members it knows, so the header is
/// read here.
fn header_of(token: &str) -> Result<Header, TokenError> {
    let encoded = token.split('.').next().unwrap_or_default();
    let fields = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(encoded.trim_end_matches('='))
        .ok()
        .and_then(|json| serde_json::from_slice::<Map<String, Value>>(&json).ok())
        .ok_or(TokenError::Header)?;
    // RFC 7515, section 4.1.11: the extensions `crit` names must be understood, and none
    // is here; a `crit` that is not a list of names is malformed.
    if let Some(crit) = fields.get("crit") {
        let names = crit
            .as_array()
            .filter(|names| !names.is_empty())
            .and_then(|names| {
                names
                    .iter()
                    .map(|name| name.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
            });
        return Err(match names {
            Some(names) => TokenError::Critical(names),
            None => TokenError::MalformedCrit(crit.to_string()),
        });
    }
    if let Some(typ) = fields.get("typ")
        && !typ.as_str().is_some_and(is_access_token_type)
    {
        return Err(TokenError::Type(typ.to_string()));
    }
    serde_json::from_value(Value::Object(fields)).map_err(|error| TokenError::Jwt(error.into()))
}

/// Whether a `typ` may be an access token's (RFC 8725, section 3.11): `at+jwt` (RFC 9068),
/// or a type that names no kind of JWT (`JWT`, as most servers write); any other `+jwt`
/// (`logout+jwt`, `secevent+jwt`, `dpop+jwt`) is a token for something else. Media types
/// are compared without case, with or without their `application/` prefix.
fn is_access_token_type(typ: &str) -> bool {
    let typ = typ.as_bytes();
    let subtype = match typ.split_at_checked(12) {
        Some((prefix, subtype)) if prefix.eq_ignore_ascii_case(b"application/") => subtype,
        _ => typ,
    };
    let names_a_jwt = subtype
        .len()
        .checked_sub(4)
        .is_some_and(|suffix| subtype[suffix..].eq_ignore_ascii_case(b"+jwt"));
    !names_a_jwt || subtype.eq_ignore_ascii_case(b"at+jwt")
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
    fn a_header_marking_an_extension_critical_or_another_type_is_refused() {
        let b64 = |header: Value| {
            let header = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(header.to_string());
            format!("{header}.e30.c2ln")
        };
        let header = header_of(&b64(json!({"alg": "EdDSA", "typ": "at+jwt", "kid": "k"}))).unwrap();
        assert_eq!(header.kid.as_deref(), Some("k"));
        assert!(matches!(
            header_of(&b64(json!({"alg": "EdDSA", "crit": ["exp", "b64"]}))),
            Err(TokenError::Critical(names)) if names == ["exp", "b64"]
        ));
        for crit in [json!([]), json!("b64"), json!(null), json!([1]), json!({})] {
            assert!(
                matches!(
                    header_of(&b64(json!({"alg": "EdDSA", "crit": crit}))),
                    Err(TokenError::MalformedCrit(_))
                ),
                "{crit}"
            );
        }
        assert!(matches!(
            header_of(&b64(json!({"alg": "EdDSA", "typ": 3}))),
            Err(TokenError::Type(typ)) if typ == "3"
        ));
        assert!(matches!(
            header_of("bm90IGpzb24.e30.c2ln"),
            Err(TokenError::Header)
        ));
    }

    #[test]
    fn only_types_of_other_jwts_are_refused() {
        for typ in [
            "at+jwt",
            "AT+JWT",
            "application/at+jwt",
            "Application/At+Jwt",
            "JWT",
            "jwt",
            "application/jwt",
            "JOSE",
            "+jw",
            "xéjwt",
        ] {
            assert!(is_access_token_type(typ), "{typ}");
        }
        for typ in [
            "logout+jwt",
            "secevent+jwt",
            "dpop+jwt",
            "application/dpop+jwt",
            "APPLICATION/LOGOUT+JWT",
            "+jwt",
            "x+JWT",
            "ü+jwt",
        ] {
            assert!(!is_access_token_type(typ), "{typ}");
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
