//! An OAuth authorization server on loopback, for the tests and the OAuth fixture: it serves
//! its metadata (RFC 8414), its key set (JWKS) and an introspection endpoint (RFC 7662),
//! mints Ed25519-signed JWT access tokens with keys made from fixed seeds, and counts how
//! often its key set is fetched. For the client's tests it also registers clients (RFC
//! 7591), authorizes without a user (a redirect with the code, `state` and `iss`), and
//! redeems codes (PKCE S256 checked) and refresh tokens, recording each exchange.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// The client the MCP server introspects as.
pub const CLIENT_ID: &str = "mcp-server";
pub const CLIENT_SECRET: &str = "introspection secret";
/// The client that gets tokens at the token endpoint (client credentials grant).
pub const TOKEN_CLIENT_ID: &str = "interop-client";
pub const TOKEN_CLIENT_SECRET: &str = "interop-secret";

/// A signing key: its id and the seed of its Ed25519 key pair.
#[derive(Clone, Copy)]
pub struct SigningKey {
    pub kid: &'static str,
    seed: [u8; 32],
}

impl SigningKey {
    pub const fn new(kid: &'static str, byte: u8) -> SigningKey {
        SigningKey {
            kid,
            seed: [byte; 32],
        }
    }

    /// The raw public key.
    pub fn public(&self) -> [u8; 32] {
        ed25519_dalek::SigningKey::from_bytes(&self.seed)
            .verifying_key()
            .to_bytes()
    }

    /// The private key as PKCS#8 DER (RFC 8410): a fixed prefix, then the seed.
    fn pkcs8(&self) -> Vec<u8> {
        let mut der = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
        ];
        der.extend_from_slice(&self.seed);
        der
    }

    fn jwk(&self) -> Value {
        json!({"kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": self.kid, "x": base64url(&self.public())})
    }
}

struct AsState {
    issuer: String,
    published: Mutex<Vec<SigningKey>>,
    jwks_fetches: AtomicUsize,
    introspection_calls: AtomicUsize,
    /// Opaque tokens and what introspection answers for them.
    opaque: Mutex<HashMap<String, Value>>,
    /// Codes not yet redeemed, and refresh tokens: what each grants.
    grants: Mutex<HashMap<String, Granted>>,
    /// Registered clients' ids.
    clients: Mutex<Vec<String>>,
    /// Every registration, authorization and token request, in order.
    log: Mutex<Vec<Value>>,
    /// How long the tokens minted for codes and refresh tokens live (`expires_in`).
    lifetime: std::sync::atomic::AtomicU64,
    counter: AtomicUsize,
}

/// What a code or a refresh token grants, and to whom.
#[derive(Clone)]
struct Granted {
    client_id: String,
    scope: String,
    resource: String,
    /// For a code: the PKCE challenge and the redirect URI it was issued for.
    challenge: Option<String>,
    redirect_uri: Option<String>,
}

/// A running authorization server.
pub struct AuthServer {
    pub issuer: String,
    state: Arc<AsState>,
}

impl AuthServer {
    /// Serves on a free loopback port, publishing `keys`.
    pub async fn start(keys: &[SigningKey]) -> AuthServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(AsState {
            issuer: issuer.clone(),
            published: Mutex::new(keys.to_vec()),
            jwks_fetches: AtomicUsize::new(0),
            introspection_calls: AtomicUsize::new(0),
            opaque: Mutex::new(HashMap::new()),
            grants: Mutex::new(HashMap::new()),
            clients: Mutex::new(Vec::new()),
            log: Mutex::new(Vec::new()),
            lifetime: std::sync::atomic::AtomicU64::new(3600),
            counter: AtomicUsize::new(0),
        });
        let router = Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(metadata),
            )
            .route("/jwks", axum::routing::get(jwks))
            .route("/introspect", axum::routing::post(introspect))
            .route("/token", axum::routing::post(token))
            .route("/authorize", axum::routing::get(authorize))
            .route("/register", axum::routing::post(register))
            .with_state(Arc::clone(&state));
        tokio::spawn(async move { axum::serve(listener, router).await });
        AuthServer { issuer, state }
    }

    /// Publishes these keys instead of those before (a key rotation).
    pub fn publish(&self, keys: &[SigningKey]) {
        *self.state.published.lock().unwrap() = keys.to_vec();
    }

    /// How often the key set was fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.state.jwks_fetches.load(Ordering::SeqCst)
    }

    /// How often the introspection endpoint was called.
    pub fn introspection_calls(&self) -> usize {
        self.state.introspection_calls.load(Ordering::SeqCst)
    }

    /// The registrations, authorizations and token requests of `kind` (`register`,
    /// `authorize`, `token`) made so far: each the request's JSON body, query or form.
    pub fn requests(&self, kind: &str) -> Vec<Value> {
        self.state
            .log
            .lock()
            .unwrap()
            .iter()
            .filter(|entry| entry["kind"] == kind)
            .map(|entry| entry["request"].clone())
            .collect()
    }

    /// Makes the tokens minted from now on live `seconds`.
    pub fn token_lifetime(&self, seconds: u64) {
        self.state.lifetime.store(seconds, Ordering::SeqCst);
    }

    /// Makes introspection answer `answer` for `token`.
    pub fn opaque(&self, token: &str, answer: Value) {
        self.state.opaque.lock().unwrap().insert(token.to_owned(), answer);
    }

    /// The usual claims of an access token for `audience`, valid for an hour.
    pub fn claims(&self, audience: &str, subject: &str, scope: &str) -> Value {
        let now = now();
        json!({"iss": self.issuer, "aud": audience, "sub": subject, "scope": scope, "iat": now, "exp": now + 3600})
    }

    /// A JWT of `claims` signed (EdDSA) with `key`, naming it.
    pub fn mint(&self, key: &SigningKey, claims: &Value) -> String {
        mint(key, claims)
    }

    /// A JWT of `claims` signed (EdDSA) with `key` under a header of the test's own, as it
    /// is (`alg` and `kid` are not added): for headers the JWT library cannot write, such as
    /// `crit`.
    pub fn mint_with_header(&self, key: &SigningKey, header: &Value, claims: &Value) -> String {
        use ed25519_dalek::Signer as _;
        let signed = format!(
            "{}.{}",
            base64url(header.to_string().as_bytes()),
            base64url(claims.to_string().as_bytes())
        );
        let signature = ed25519_dalek::SigningKey::from_bytes(&key.seed).sign(signed.as_bytes());
        format!("{signed}.{}", base64url(&signature.to_bytes()))
    }
}

fn mint(key: &SigningKey, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(key.kid.to_owned());
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&key.pkcs8())).unwrap()
}

/// The token endpoint: the client credentials grant (client_secret_basic), and codes and
/// refresh tokens of registered clients (public: their id in the form). Each answer is a JWT
/// for the `resource` asked for (RFC 8707) with the scope granted, signed with the first key
/// published.
async fn token(State(state): State<Arc<AsState>>, headers: HeaderMap, body: Bytes) -> Response {
    let form = form_of(&body);
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let logged: serde_json::Map<String, Value> = form.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    state
        .log
        .lock()
        .unwrap()
        .push(json!({"kind": "token", "request": logged}));
    let refuse =
        |status: StatusCode, error: &str| (status, json_response(&json!({"error": error}))).into_response();
    let (client_id, scope, resource, refresh) = match field("grant_type").as_deref() {
        Some("client_credentials") => {
            let expected = format!(
                "Basic {}",
                base64_standard(format!("{TOKEN_CLIENT_ID}:{TOKEN_CLIENT_SECRET}").as_bytes())
            );
            if headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
                return refuse(StatusCode::UNAUTHORIZED, "invalid_client");
            }
            (
                TOKEN_CLIENT_ID.to_owned(),
                field("scope").unwrap_or_default(),
                field("resource").unwrap_or_default(),
                false,
            )
        }
        Some(grant_type @ ("authorization_code" | "refresh_token")) => {
            let key = if grant_type == "authorization_code" {
                field("code")
            } else {
                field("refresh_token")
            };
            let Some(granted) = key.and_then(|key| state.grants.lock().unwrap().remove(&key)) else {
                return refuse(StatusCode::BAD_REQUEST, "invalid_grant");
            };
            if field("client_id").as_deref() != Some(granted.client_id.as_str()) {
                return refuse(StatusCode::UNAUTHORIZED, "invalid_client");
            }
            if let Some(challenge) = &granted.challenge {
                use sha2::Digest as _;
                let verifier = field("code_verifier").unwrap_or_default();
                if base64url(&sha2::Sha256::digest(verifier.as_bytes())) != *challenge
                    || field("redirect_uri") != granted.redirect_uri
                {
                    return refuse(StatusCode::BAD_REQUEST, "invalid_grant");
                }
            }
            let resource = field("resource").unwrap_or(granted.resource);
            (granted.client_id, granted.scope, resource, true)
        }
        _ => return refuse(StatusCode::BAD_REQUEST, "unsupported_grant_type"),
    };
    let Some(key) = state.published.lock().unwrap().first().copied() else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no key").into_response();
    };
    let now = now();
    let lifetime = state.lifetime.load(Ordering::SeqCst);
    let claims = json!({
        "iss": state.issuer, "aud": resource, "sub": client_id,
        "client_id": client_id, "scope": scope, "iat": now, "exp": now + lifetime
    });
    let mut answer = json!({
        "access_token": mint(&key, &claims), "token_type": "Bearer", "expires_in": lifetime, "scope": scope
    });
    if refresh {
        let token = format!("refresh-{}", state.counter.fetch_add(1, Ordering::SeqCst));
        let granted = Granted {
            client_id,
            scope,
            resource,
            challenge: None,
            redirect_uri: None,
        };
        state.grants.lock().unwrap().insert(token.clone(), granted);
        answer["refresh_token"] = json!(token);
    }
    json_response(&answer)
}

/// The authorization endpoint, approving at once: a registered client with a PKCE S256
/// challenge is sent back to its redirect URI with a code, its `state` and `iss`; anything
/// else gets a 400.
async fn authorize(State(state): State<Arc<AsState>>, uri: axum::http::Uri) -> Response {
    let query = form_of(uri.query().unwrap_or_default().as_bytes());
    let field = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let logged: serde_json::Map<String, Value> = query.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    state
        .log
        .lock()
        .unwrap()
        .push(json!({"kind": "authorize", "request": logged}));
    let client_id = field("client_id").unwrap_or_default();
    let (Some(redirect_uri), Some(challenge), Some("S256"), true) = (
        field("redirect_uri"),
        field("code_challenge"),
        field("code_challenge_method").as_deref(),
        state.clients.lock().unwrap().contains(&client_id),
    ) else {
        return (
            StatusCode::BAD_REQUEST,
            "not an authorization request this server grants",
        )
            .into_response();
    };
    let code = format!("code-{}", state.counter.fetch_add(1, Ordering::SeqCst));
    let granted = Granted {
        client_id,
        scope: field("scope").unwrap_or_default(),
        resource: field("resource").unwrap_or_default(),
        challenge: Some(challenge),
        redirect_uri: Some(redirect_uri.clone()),
    };
    state.grants.lock().unwrap().insert(code.clone(), granted);
    let encode = |text: &str| {
        text.replace('%', "%25")
            .replace('&', "%26")
            .replace('+', "%2B")
            .replace(' ', "%20")
    };
    let location = format!(
        "{redirect_uri}?code={code}&state={}&iss={}",
        encode(&field("state").unwrap_or_default()),
        encode(&state.issuer)
    );
    (StatusCode::FOUND, [(header::LOCATION, location)]).into_response()
}

/// Dynamic client registration (RFC 7591): every client is public.
async fn register(State(state): State<Arc<AsState>>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    state
        .log
        .lock()
        .unwrap()
        .push(json!({"kind": "register", "request": request}));
    let client_id = format!("client-{}", state.counter.fetch_add(1, Ordering::SeqCst));
    state.clients.lock().unwrap().push(client_id.clone());
    let answer = json!({
        "client_id": client_id,
        "redirect_uris": request["redirect_uris"],
        "token_endpoint_auth_method": "none",
    });
    (StatusCode::CREATED, json_response(&answer)).into_response()
}

/// The pairs of an `application/x-www-form-urlencoded` body, decoded.
fn form_of(body: &[u8]) -> Vec<(String, String)> {
    let decode = |text: &str| {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                    i += 2;
                }
                byte => out.push(byte),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    String::from_utf8_lossy(body)
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

/// Seconds since the epoch.
pub fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// Base64url without padding.
pub fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn json_response(value: &Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], value.to_string()).into_response()
}

async fn metadata(State(state): State<Arc<AsState>>) -> Response {
    let issuer = &state.issuer;
    json_response(&json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "introspection_endpoint": format!("{issuer}/introspect"),
        "registration_endpoint": format!("{issuer}/register"),
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic"],
        "authorization_response_iss_parameter_supported": true,
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"]
    }))
}

async fn jwks(State(state): State<Arc<AsState>>) -> Response {
    state.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    let keys: Vec<Value> = state
        .published
        .lock()
        .unwrap()
        .iter()
        .map(SigningKey::jwk)
        .collect();
    json_response(&json!({ "keys": keys }))
}

/// RFC 7662: the caller authenticates with HTTP Basic; unknown tokens are inactive.
async fn introspect(State(state): State<Arc<AsState>>, headers: HeaderMap, body: Bytes) -> Response {
    state.introspection_calls.fetch_add(1, Ordering::SeqCst);
    let expected = format!(
        "Basic {}",
        base64_standard(format!("{}:{}", CLIENT_ID, CLIENT_SECRET.replace(' ', "+")).as_bytes())
    );
    if headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return (StatusCode::UNAUTHORIZED, "client authentication failed").into_response();
    }
    let form = form_of(&body);
    let token = form
        .iter()
        .find(|(k, _)| k == "token")
        .map_or("", |(_, v)| v.as_str());
    let answer = state.opaque.lock().unwrap().get(token).cloned();
    json_response(&answer.unwrap_or_else(|| json!({"active": false})))
}

fn base64_standard(bytes: &[u8]) -> String {
    let mut out = base64url(bytes).replace('-', "+").replace('_', "/");
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

/// The tools the OAuth tests and the fixture serve: `whoami` for any token, `delete_note`
/// for a token with `notes:write`.
pub mod tools {
    use mcp_toolkit::{Context, tool};

    /// Says who is calling and what their token allows.
    #[tool]
    pub fn whoami(cx: Context) -> String {
        match cx.principal() {
            Some(p) => format!("{} [{}]", p.subject, p.scopes.join(" ")),
            None => "nobody".to_owned(),
        }
    }

    /// Deletes a note.
    #[tool(scopes("notes:write"))]
    pub fn delete_note(
        /// The note
        id: u32,
    ) -> String {
        format!("deleted note {id}")
    }
}
