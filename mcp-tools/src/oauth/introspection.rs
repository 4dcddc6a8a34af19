//! Opaque access tokens, checked by the authorization server's introspection endpoint (RFC
//! 7662) with the resource server's client credentials. An answer lets a token in when it
//! is `active`, and, for the members it has, its `iss` is the issuer, its `aud` names this
//! resource (RFC 8707) and its `exp` and `nbf` hold.

use super::error::TokenError;
use super::fetch::Fetcher;
use super::jwt::principal_of;
use crate::context::Principal;
use serde_json::Value;
use std::time::{SystemTime, UNIX_EPOCH};

/// The introspection endpoint and the credentials to call it with.
#[derive(Clone)]
pub(super) struct Introspection {
    pub(super) endpoint: String,
    pub(super) client_id: String,
    pub(super) secret: String,
}

impl std::fmt::Debug for Introspection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("secret", &"(hidden)")
            .finish()
    }
}

impl Introspection {
    /// Asks the endpoint about `token` and judges the answer.
    pub(super) async fn verify(
        &self,
        fetcher: &Fetcher,
        token: &str,
        issuer: &str,
        audience: &str,
        leeway_secs: u64,
    ) -> Result<Principal, TokenError> {
        let answer: Value = fetcher
            .post_form(
                &self.endpoint,
                (&self.client_id, &self.secret),
                &[("token", token), ("token_type_hint", "access_token")],
            )
            .await?;
        judge(answer, issuer, audience, leeway_secs, now())
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// An introspection answer judged at time `now` (seconds since the epoch).
fn judge(
    answer: Value,
    issuer: &str,
    audience: &str,
    leeway: u64,
    now: u64,
) -> Result<Principal, TokenError> {
    if answer.get("active") != Some(&Value::Bool(true)) {
        return Err(TokenError::Inactive);
    }
    if let Some(iss) = answer.get("iss")
        && iss.as_str() != Some(issuer)
    {
        return Err(TokenError::Introspected("`iss`"));
    }
    let names_us = match answer.get("aud") {
        None => true,
        Some(Value::String(aud)) => aud == audience,
        Some(Value::Array(list)) => list.iter().any(|a| a.as_str() == Some(audience)),
        Some(_) => false,
    };
    if !names_us {
        return Err(TokenError::Introspected("`aud`"));
    }
    if answer
        .get("exp")
        .and_then(Value::as_u64)
        .is_some_and(|exp| exp.saturating_add(leeway) <= now)
    {
        return Err(TokenError::Introspected("`exp`"));
    }
    if answer
        .get("nbf")
        .and_then(Value::as_u64)
        .is_some_and(|nbf| nbf > now.saturating_add(leeway))
    {
        return Err(TokenError::Introspected("`nbf`"));
    }
    principal_of(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ISS: &str = "https://auth.example.com";
    const AUD: &str = "https://mcp.example.com/mcp";

    fn judged(answer: Value) -> Result<Principal, TokenError> {
        judge(answer, ISS, AUD, 30, 1_000_000)
    }

    #[test]
    fn an_active_answer_for_this_resource_lets_in() {
        let ada = judged(json!({"active": true, "sub": "ada", "scope": "notes:read", "aud": [AUD], "iss": ISS, "exp": 1_000_100})).unwrap();
        assert_eq!(
            (ada.subject.as_str(), ada.scopes.as_slice()),
            ("ada", &["notes:read".to_owned()][..])
        );
        assert!(judged(json!({"active": true, "sub": "ada", "aud": AUD, "exp": 999_980})).is_ok()); // within the leeway
    }

    #[test]
    fn other_answers_keep_out() {
        assert!(matches!(
            judged(json!({"active": false})),
            Err(TokenError::Inactive)
        ));
        assert!(matches!(judged(json!({"sub": "ada"})), Err(TokenError::Inactive)));
        assert!(matches!(
            judged(json!({"active": "true", "sub": "ada"})),
            Err(TokenError::Inactive)
        ));
        for (answer, member) in [
            (
                json!({"active": true, "sub": "a", "iss": "https://other.example"}),
                "`iss`",
            ),
            (
                json!({"active": true, "sub": "a", "aud": "https://other.example/mcp"}),
                "`aud`",
            ),
            (json!({"active": true, "sub": "a", "aud": ["x", "y"]}), "`aud`"),
            (json!({"active": true, "sub": "a", "exp": 999_900}), "`exp`"),
            (json!({"active": true, "sub": "a", "nbf": 1_000_100}), "`nbf`"),
        ] {
            assert!(
                matches!(judged(answer), Err(TokenError::Introspected(m)) if m == member),
                "{member}"
            );
        }
    }
}
