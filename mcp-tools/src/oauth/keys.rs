//! The authorization server's signing keys (its JWKS), fetched once and kept: found through
//! its metadata (RFC 8414, or OpenID Connect Discovery) unless a `jwks_uri` was configured.
//!
//! When they are fetched again: when a token names a key id the set lacks, at most once a
//! minute ([`REFETCH_EVERY`]), so a stream of tokens with made-up ids cannot make the server
//! hammer the authorization server; when the set is an hour old ([`MAX_AGE`]), on the next
//! token; and, while no set could be had yet, at most every ten seconds. Never per request.

use super::error::FetchError;
use super::fetch::Fetcher;
use super::metadata::as_metadata_urls;
use axum::http::Uri;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// The least time between two fetches made because a token named an unknown key.
pub(super) const REFETCH_EVERY: Duration = Duration::from_secs(60);
/// How old a key set may get before the next token fetches it again.
const MAX_AGE: Duration = Duration::from_secs(60 * 60);
/// How long to wait after a failed fetch before trying again.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(10);

/// The signature algorithms accepted: asymmetric only. HMAC (`HS*`) is never accepted, so a
/// public key can never serve as a shared secret, and `none` is not an algorithm at all.
pub(super) const ACCEPTED: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// One verification key of the set, and the algorithms it may verify.
pub(super) struct Key {
    pub(super) kid: Option<String>,
    pub(super) algorithms: Vec<Algorithm>,
    pub(super) key: DecodingKey,
}

/// The keys as last fetched.
pub(super) struct KeySet {
    pub(super) keys: Vec<Key>,
}

impl KeySet {
    fn has(&self, kid: &str) -> bool {
        self.keys.iter().any(|k| k.kid.as_deref() == Some(kid))
    }

    /// The keys that may verify a token signed with `alg` naming key `kid`: the key of that
    /// id, or, for a token naming none, every key of the algorithm.
    pub(super) fn candidates(&self, kid: Option<&str>, alg: Algorithm) -> impl Iterator<Item = &Key> {
        self.keys
            .iter()
            .filter(move |key| key.algorithms.contains(&alg) && (kid.is_none() || key.kid.as_deref() == kid))
    }
}

/// Where the keys come from.
pub(super) enum Source {
    /// A configured `jwks_uri`.
    Jwks(String),
    /// The issuer's metadata names it.
    Discover { issuer: String, uri: Uri },
}

#[derive(Default)]
struct FetchState {
    /// The `jwks_uri` metadata named, once found.
    jwks_uri: Option<String>,
    attempted_at: Option<Instant>,
    refetched_at: Option<Instant>,
}

/// The key set, and the rules for fetching it again.
pub(super) struct KeyCache {
    source: Source,
    fetcher: Arc<Fetcher>,
    /// The set, and when it was fetched.
    current: RwLock<Option<(Arc<KeySet>, Instant)>>,
    fetching: tokio::sync::Mutex<FetchState>,
}

impl KeyCache {
    pub(super) fn new(source: Source, fetcher: Arc<Fetcher>) -> KeyCache {
        KeyCache {
            source,
            fetcher,
            current: RwLock::new(None),
            fetching: tokio::sync::Mutex::new(FetchState::default()),
        }
    }

    fn current(&self) -> Option<(Arc<KeySet>, Instant)> {
        self.current.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The key set to verify a token naming `kid` with: the one held, fetched again when the
    /// rules above allow and call for it.
    pub(super) async fn keys(&self, kid: Option<&str>) -> Result<Arc<KeySet>, FetchError> {
        if let Some((set, loaded_at)) = self.current()
            && kid.is_none_or(|kid| set.has(kid))
            && loaded_at.elapsed() < MAX_AGE
        {
            return Ok(set);
        }
        let mut state = self.fetching.lock().await;
        let now = Instant::now();
        let held = self.current().map(|(set, _)| set);
        let recently = |at: Option<Instant>, within: Duration| at.is_some_and(|at| now - at < within);
        let fetch = match &held {
            None => !recently(state.attempted_at, RETRY_AFTER_FAILURE),
            Some(set) => {
                let stale = self.current().is_none_or(|(_, at)| now - at >= MAX_AGE)
                    && !recently(state.attempted_at, RETRY_AFTER_FAILURE);
                let unknown =
                    kid.is_some_and(|kid| !set.has(kid)) && !recently(state.refetched_at, REFETCH_EVERY);
                if unknown {
                    state.refetched_at = Some(now);
                }
                stale || unknown
            }
        };
        if fetch {
            state.attempted_at = Some(now);
            match self.fetch(&mut state).await {
                Ok(set) => {
                    let set = Arc::new(set);
                    *self.current.write().unwrap_or_else(|e| e.into_inner()) =
                        Some((Arc::clone(&set), Instant::now()));
                    return Ok(set);
                }
                Err(error) => {
                    tracing::warn!(%error, "could not fetch the authorization server's keys");
                    state.jwks_uri = None; // found again next time, in case it moved
                    if held.is_none() {
                        return Err(error);
                    }
                }
            }
        }
        held.ok_or(FetchError::Unavailable)
    }

    /// Fetches the key set, finding the `jwks_uri` first when it must.
    async fn fetch(&self, state: &mut FetchState) -> Result<KeySet, FetchError> {
        let jwks_uri = match (&self.source, &state.jwks_uri) {
            (Source::Jwks(uri), _) => uri.clone(),
            (Source::Discover { .. }, Some(found)) => found.clone(),
            (Source::Discover { issuer, uri }, None) => {
                let found = self.discover(issuer, uri).await?;
                state.jwks_uri = Some(found.clone());
                found
            }
        };
        let raw: RawKeySet = self.fetcher.get_json(&jwks_uri).await?;
        let keys: Vec<Key> = raw.keys.into_iter().filter_map(usable).collect();
        tracing::debug!(
            jwks_uri,
            keys = keys.len(),
            "fetched the authorization server's keys"
        );
        Ok(KeySet { keys })
    }

    /// The `jwks_uri` of the issuer's metadata, from the first of its well-known URLs that
    /// answers.
    async fn discover(&self, issuer: &str, uri: &Uri) -> Result<String, FetchError> {
        let urls = as_metadata_urls(uri);
        for url in &urls {
            match self.fetcher.get_json::<AsMetadata>(url).await {
                Ok(metadata) if metadata.issuer != issuer => {
                    return Err(FetchError::IssuerMismatch {
                        expected: issuer.to_owned(),
                        found: metadata.issuer,
                    });
                }
                Ok(AsMetadata {
                    jwks_uri: Some(jwks_uri),
                    ..
                }) => return Ok(jwks_uri),
                Ok(_) => {}
                Err(error) => tracing::debug!(url, %error, "no authorization server metadata here"),
            }
        }
        Err(FetchError::NoJwksUri(urls.join(", ")))
    }
}

#[derive(Deserialize)]
struct RawKeySet {
    keys: Vec<Value>,
}

/// Authorization server metadata, the members used.
#[derive(Deserialize)]
struct AsMetadata {
    issuer: String,
    jwks_uri: Option<String>,
}

/// A key of the set as a verification key, unless it is not one this server uses: one it
/// cannot read, an encryption key, a symmetric (`oct`) key, or one whose `alg` is not
/// accepted.
fn usable(raw: Value) -> Option<Key> {
    let jwk: Jwk = serde_json::from_value(raw).ok()?;
    if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
        return None;
    }
    let family: &[Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &ACCEPTED[..6],
        AlgorithmParameters::EllipticCurve(params) => match params.curve {
            EllipticCurve::P256 => &[Algorithm::ES256],
            EllipticCurve::P384 => &[Algorithm::ES384],
            _ => &[],
        },
        AlgorithmParameters::OctetKeyPair(params) => match params.curve {
            EllipticCurve::Ed25519 => &[Algorithm::EdDSA],
            _ => &[],
        },
        _ => &[],
    };
    let algorithms: Vec<Algorithm> = match jwk.common.key_algorithm {
        Some(named) => Algorithm::try_from(named)
            .ok()
            .filter(|alg| family.contains(alg))
            .into_iter()
            .collect(),
        None => family.to_vec(),
    };
    if algorithms.is_empty() {
        return None;
    }
    let key = DecodingKey::from_jwk(&jwk).ok()?;
    Some(Key {
        kid: jwk.common.key_id,
        algorithms,
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_asymmetric_signing_keys_are_kept() {
        let ed = usable(json!({"kty": "OKP", "crv": "Ed25519", "kid": "a", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"})).unwrap();
        assert_eq!(ed.algorithms, [Algorithm::EdDSA]);
        assert_eq!(ed.kid.as_deref(), Some("a"));
        let rsa = json!({"kty": "RSA", "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw", "e": "AQAB"});
        assert_eq!(usable(rsa.clone()).unwrap().algorithms, &ACCEPTED[..6]);
        let mut rs256 = rsa.clone();
        rs256["alg"] = json!("RS256");
        assert_eq!(usable(rs256).unwrap().algorithms, [Algorithm::RS256]);
        let mut encryption = rsa.clone();
        encryption["use"] = json!("enc");
        assert!(usable(encryption).is_none());
        let mut mismatched = rsa;
        mismatched["alg"] = json!("ES256");
        assert!(usable(mismatched).is_none());
        assert!(usable(json!({"kty": "oct", "k": "c2VjcmV0"})).is_none());
        assert!(usable(json!({"kty": "oct", "k": "c2VjcmV0", "alg": "HS256"})).is_none());
        assert!(usable(json!({"kty": "weird"})).is_none());
    }
}
