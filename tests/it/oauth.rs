//! The OAuth 2.1 resource server (feature `oauth`) over real sockets: an authorization server
//! run by the test on loopback (tests/it/support/oauth_as.rs) serves its metadata, its keys and
//! introspection; the MCP server serves its Protected Resource Metadata, refuses with 401 and
//! 403 challenges, and checks JWTs and opaque tokens. Every JSON-RPC answer is checked
//! against the official schema.

use crate::support::{self, oauth_as};

use base64::Engine as _;
use mcp_toolkit::oauth::{ConfigError, ResourceServer};
use mcp_toolkit::{
    Context, Error, Server, Tool, ToolError, ask::Elicitation, tool, tool::ScopePolicy, tools,
};
use oauth_as::tools::{delete_note, whoami};
use oauth_as::{AuthServer, CLIENT_ID, CLIENT_SECRET, SigningKey, now};
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::{Spec, modern_meta};

const MODERN: &str = "2026-07-28";
const FIRST: SigningKey = SigningKey::new("key-1", 1);
const SECOND: SigningKey = SigningKey::new("key-2", 2);
const THIRD: SigningKey = SigningKey::new("key-3", 3);

/// An MCP server with OAuth on loopback, and a client for it.
struct Mcp {
    url: String,
    origin: String,
    client: reqwest::Client,
}

impl Mcp {
    /// Serves `whoami` and `delete_note` with `configure(canonical URI)` as its resource
    /// server.
    async fn start(
        auth: &AuthServer,
        policy: ScopePolicy,
        configure: impl FnOnce(ResourceServer) -> ResourceServer,
    ) -> Mcp {
        Mcp::serve(auth, policy, configure, tools![whoami, delete_note]).await
    }

    /// Serves `tools` with `configure(canonical URI)` as its resource server.
    async fn serve(
        auth: &AuthServer,
        policy: ScopePolicy,
        configure: impl FnOnce(ResourceServer) -> ResourceServer,
        tools: Vec<Tool>,
    ) -> Mcp {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let url = format!("{origin}/mcp");
        let resource = configure(
            ResourceServer::new(&url)
                .authorization_server(&auth.issuer)
                .scopes_supported(["notes:read", "notes:write"]),
        );
        let router = Server::new("notes", "1.0.0")
            .tools(tools)
            .oauth(resource)
            .scope_policy(policy)
            .into_router()
            .unwrap();
        tokio::spawn(async move { axum::serve(listener, router).await });
        Mcp {
            url,
            origin,
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
        }
    }

    /// A 2026-07-28 request, with `token` as its bearer token if any.
    fn request(&self, token: Option<&str>, method: &str, mut params: Value) -> reqwest::RequestBuilder {
        params["_meta"] = modern_meta(json!({}));
        let mut request = self
            .client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", method);
        if let Some(name) = params.get("name").and_then(Value::as_str) {
            request = request.header("mcp-name", name);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.json(&json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }))
    }

    /// Sends a request; its status, `WWW-Authenticate` (or "") and JSON body.
    async fn send(&self, token: Option<&str>, method: &str, params: Value) -> (StatusCode, String, Value) {
        let response = self.request(token, method, params).send().await.unwrap();
        let status = response.status();
        let challenge = response
            .headers()
            .get("www-authenticate")
            .map_or(String::new(), |v| v.to_str().unwrap().to_owned());
        let text = response.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        (status, challenge, body)
    }

    async fn call(&self, token: Option<&str>, tool: &str, arguments: Value) -> (StatusCode, String, Value) {
        self.send(
            token,
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )
        .await
    }

    fn metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.origin)
    }
}

fn text_of(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {answer}"))
}

#[tokio::test]
async fn the_metadata_is_served_at_both_paths_without_a_token() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs.resource_name("Notes")).await;
    let expected = json!({
        "resource": mcp.url,
        "authorization_servers": [auth.issuer],
        "bearer_methods_supported": ["header"],
        "scopes_supported": ["notes:read", "notes:write"],
        "resource_name": "Notes"
    });
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let response = mcp
            .client
            .get(format!("{}{path}", mcp.origin))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["content-type"], "application/json");
        assert_eq!(response.headers()["access-control-allow-origin"], "*");
        assert_eq!(response.json::<Value>().await.unwrap(), expected, "{path}");
    }
}

#[tokio::test]
async fn a_request_without_a_token_is_told_where_the_metadata_is() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let (status, challenge, body) = mcp.send(None, "tools/list", json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge,
        format!(
            r#"Bearer resource_metadata="{}", scope="notes:read notes:write""#,
            mcp.metadata_url()
        )
    );
    assert_eq!(
        body,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "a valid bearer token is required"}})
    );
    assert_eq!(auth.jwks_fetches(), 0, "no token, no keys needed");
}

#[tokio::test]
async fn a_valid_token_lets_in_and_the_keys_are_fetched_once() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let token = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read notes:write"));
    let spec = Spec::of(MODERN);
    for _ in 0..5 {
        let (status, challenge, answer) = mcp.call(Some(&token), "whoami", json!({})).await;
        assert_eq!((status, challenge.as_str()), (StatusCode::OK, ""));
        spec.assert_valid("CallToolResultResponse", &answer);
        assert_eq!(text_of(&answer), "ada [notes:read notes:write]");
    }
    let (status, _, answer) = mcp.call(Some(&token), "delete_note", json!({"id": 7})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text_of(&answer), "deleted note 7");
    assert_eq!(
        auth.jwks_fetches(),
        1,
        "the key set is kept, not fetched per request"
    );
}

#[tokio::test]
async fn tokens_that_do_not_fit_are_refused_as_invalid() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let claims = |change: &dyn Fn(&mut Value)| {
        let mut claims = auth.claims(&mcp.url, "ada", "notes:read");
        change(&mut claims);
        claims
    };
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let good = claims(&|_| {});
    let unsigned = format!(
        "{}.{}.",
        b64(&json!({"alg": "none", "typ": "JWT", "kid": FIRST.kid})),
        b64(&good)
    );
    // HS256 "signed" with the public key: the key confusion attack.
    let mut hs_header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    hs_header.kid = Some(FIRST.kid.to_owned());
    let confused = jsonwebtoken::encode(
        &hs_header,
        &good,
        &jsonwebtoken::EncodingKey::from_secret(&FIRST.public()),
    )
    .unwrap();
    let cases = [
        (
            "expired",
            auth.mint(&FIRST, &claims(&|c| c["exp"] = json!(now() - 3600))),
        ),
        (
            "not yet valid",
            auth.mint(&FIRST, &claims(&|c| c["nbf"] = json!(now() + 3600))),
        ),
        (
            "for another resource",
            auth.mint(&FIRST, &claims(&|c| c["aud"] = json!("http://127.0.0.1:1/mcp"))),
        ),
        (
            "from another issuer",
            auth.mint(&FIRST, &claims(&|c| c["iss"] = json!("http://127.0.0.1:1"))),
        ),
        (
            "without an audience",
            auth.mint(
                &FIRST,
                &claims(&|c| drop(c.as_object_mut().unwrap().remove("aud"))),
            ),
        ),
        ("signed by an unpublished key", auth.mint(&SECOND, &good)),
        ("alg none", unsigned),
        ("HS256 with the public key", confused),
        (
            "opaque, without introspection",
            "2YotnFZFEjr1zCsicMWpAA".to_owned(),
        ),
    ];
    for (case, token) in &cases {
        let (status, challenge, _) = mcp.send(Some(token), "tools/list", json!({})).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{case}");
        assert_eq!(
            challenge,
            format!(
                r#"Bearer resource_metadata="{}", error="invalid_token", scope="notes:read notes:write""#,
                mcp.metadata_url()
            ),
            "{case}"
        );
    }
    // A good token still works, and the key set was fetched once more at most, for the one
    // unknown key id.
    let (status, _, _) = mcp
        .send(Some(&auth.mint(&FIRST, &good)), "tools/list", json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(auth.jwks_fetches(), 2);
}

#[tokio::test]
async fn rotated_keys_are_fetched_again_once_for_an_unknown_key_id() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let first = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read"));
    assert_eq!(
        mcp.call(Some(&first), "whoami", json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(auth.jwks_fetches(), 1);

    auth.publish(&[SECOND]); // the authorization server rotates its key
    let second = auth.mint(&SECOND, &auth.claims(&mcp.url, "bob", "notes:read"));
    let (status, _, answer) = mcp.call(Some(&second), "whoami", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text_of(&answer), "bob [notes:read]");
    assert_eq!(auth.jwks_fetches(), 2, "fetched again for the new key id");

    // Another unknown key id within the minute: no fetch, refused.
    auth.publish(&[SECOND, THIRD]);
    let third = auth.mint(&THIRD, &auth.claims(&mcp.url, "cy", "notes:read"));
    for _ in 0..3 {
        assert_eq!(
            mcp.call(Some(&third), "whoami", json!({})).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        auth.jwks_fetches(),
        2,
        "at most one fetch a minute for unknown key ids"
    );
    // The old key is gone from the set held: its tokens no longer pass.
    assert_eq!(
        mcp.call(Some(&first), "whoami", json!({})).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_missing_scope_is_a_step_up_challenge() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let reader = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read"));

    let (status, _, list) = mcp.send(Some(&reader), "tools/list", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["whoami", "delete_note"], "listed, though not callable");

    let (status, challenge, body) = mcp.call(Some(&reader), "delete_note", json!({"id": 7})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        challenge,
        format!(
            r#"Bearer resource_metadata="{}", error="insufficient_scope", scope="notes:write""#,
            mcp.metadata_url()
        )
    );
    assert_eq!(
        body,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "calling the tool `delete_note` needs the scopes `notes:write`, which the token lacks; get a token with them (step-up authorization) and call again"}})
    );

    // The same in a 2025-11-25 session.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "tests", "version": "1"}}});
    let post = |body: &Value, session: Option<&str>| {
        let mut request = mcp
            .client
            .post(&mcp.url)
            .bearer_auth(&reader)
            .header("accept", "application/json, text/event-stream")
            .json(body);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.send()
    };
    let opened = post(&initialize, None).await.unwrap();
    assert_eq!(opened.status(), StatusCode::OK);
    let session = opened.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "delete_note", "arguments": {"id": 7}}});
    let refused = post(&call, Some(&session)).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(
        refused.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .contains(r#"error="insufficient_scope", scope="notes:write""#)
    );
    let who = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}});
    assert_eq!(post(&who, Some(&session)).await.unwrap().status(), StatusCode::OK);
}

#[tokio::test]
async fn with_the_hide_policy_a_tool_out_of_scope_is_not_there() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Hide, |rs| rs).await;
    let reader = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read"));
    let writer = auth.mint(&FIRST, &auth.claims(&mcp.url, "bob", "notes:read notes:write"));
    let names = |list: &Value| -> Vec<String> {
        list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, _, list) = mcp.send(Some(&reader), "tools/list", json!({})).await;
    assert_eq!(names(&list), ["whoami"]);
    let (_, _, list) = mcp.send(Some(&writer), "tools/list", json!({})).await;
    assert_eq!(names(&list), ["whoami", "delete_note"]);

    let (status, challenge, refused) = mcp.call(Some(&reader), "delete_note", json!({"id": 7})).await;
    assert_eq!((status, challenge.as_str()), (StatusCode::OK, ""));
    assert_eq!(refused["error"]["message"], "Unknown tool: delete_note");
    let (_, _, allowed) = mcp.call(Some(&writer), "delete_note", json!({"id": 7})).await;
    assert_eq!(text_of(&allowed), "deleted note 7");
}

#[tokio::test]
async fn opaque_tokens_are_introspected() {
    let auth = AuthServer::start(&[FIRST]).await;
    let introspect = format!("{}/introspect", auth.issuer);
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| {
        rs.introspection(&introspect, CLIENT_ID, CLIENT_SECRET)
    })
    .await;
    auth.opaque("active-token", json!({"active": true, "sub": "ada", "scope": "notes:read notes:write", "aud": mcp.url, "iss": auth.issuer, "exp": now() + 600}));
    auth.opaque(
        "other-resource",
        json!({"active": true, "sub": "ada", "aud": "https://elsewhere.example/mcp"}),
    );
    auth.opaque("revoked-token", json!({"active": false}));

    let (status, _, answer) = mcp.call(Some("active-token"), "whoami", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text_of(&answer), "ada [notes:read notes:write]");
    for token in ["revoked-token", "other-resource", "never-issued"] {
        let (status, challenge, _) = mcp.call(Some(token), "whoami", json!({})).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token}");
        assert!(challenge.contains(r#"error="invalid_token""#), "{token}");
    }
    assert_eq!(auth.introspection_calls(), 4);
    // A JWT is still checked locally.
    let jwt = auth.mint(&FIRST, &auth.claims(&mcp.url, "bob", "notes:read"));
    assert_eq!(mcp.call(Some(&jwt), "whoami", json!({})).await.0, StatusCode::OK);
    assert_eq!(auth.introspection_calls(), 4);
}

#[tokio::test]
async fn the_keys_are_fetched_when_serving_starts() {
    let auth = AuthServer::start(&[FIRST]).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let resource = ResourceServer::new(format!("http://127.0.0.1:{port}/mcp"))
        .authorization_server(&auth.issuer)
        .jwks_uri(format!("{}/jwks", auth.issuer));
    let http = Server::new("notes", "1.0.0")
        .tools(tools![whoami])
        .oauth(resource)
        .bind_http(("127.0.0.1", port))
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(http.run_until(async {
        stopped.await.ok();
    }));
    let deadline = std::time::Instant::now() + support::PATIENCE;
    while auth.jwks_fetches() == 0 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(auth.jwks_fetches(), 1, "fetched before any token came");
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}

#[test]
fn an_issuer_in_the_clear_is_refused_before_serving() {
    let resource =
        ResourceServer::new("https://mcp.example.com/mcp").authorization_server("http://auth.example.com");
    let error = Server::new("notes", "1.0.0")
        .oauth(resource)
        .into_router()
        .unwrap_err();
    assert!(matches!(
        &error,
        Error::OAuth(ConfigError::NotHttps { what: "authorization server", url }) if url == "http://auth.example.com"
    ));
}

/// The revision of the legacy sessions below.
const LEGACY: &str = "2025-11-25";

/// What `confirm` asks for.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirmation {
    /// Whether to go ahead
    confirm: bool,
}

/// Asks the user to confirm, and says what they answered.
#[tool]
async fn confirm(cx: Context) -> Result<&'static str, ToolError> {
    Ok(match cx.elicit::<Confirmation>("Go ahead?").await? {
        Elicitation::Accept(Confirmation { confirm: true }) => "confirmed",
        _ => "not confirmed",
    })
}

/// Disables a tool (so the tool list changes).
#[tool]
fn disable(
    /// The tool
    name: String,
    registry: mcp_toolkit::registry::ToolRegistry,
) -> bool {
    registry.set_enabled(&name, false)
}

impl Mcp {
    /// A POST in the legacy session `session` (or opening one) by the holder of `token`.
    fn legacy(&self, token: &str, session: Option<&str>, body: &Value) -> reqwest::RequestBuilder {
        self.in_session(reqwest::Method::POST, token, session)
            .header("accept", "application/json, text/event-stream")
            .json(body)
    }

    /// A request of `method` in the legacy session `session` by the holder of `token`.
    fn in_session(
        &self,
        method: reqwest::Method,
        token: &str,
        session: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut request = self.client.request(method, &self.url).bearer_auth(token);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", LEGACY);
        }
        request
    }

    /// Opens a legacy session for the holder of `token`, as a client that answers
    /// elicitations; its id.
    async fn open_session(&self, token: &str) -> String {
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": LEGACY, "capabilities": {"elicitation": {}}, "clientInfo": {"name": "tests", "version": "1"}}});
        let opened = self.legacy(token, None, &initialize).send().await.unwrap();
        assert_eq!(opened.status(), StatusCode::OK);
        let session = opened.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let sent = self
            .legacy(token, Some(&session), &initialized)
            .send()
            .await
            .unwrap();
        assert_eq!(sent.status(), StatusCode::ACCEPTED);
        session
    }
}

/// A response's status, content type and body, to compare whole.
async fn whole(response: reqwest::Response) -> (StatusCode, String, String) {
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map_or(String::new(), |v| v.to_str().unwrap().to_owned());
    (status, kind, response.text().await.unwrap())
}

/// An event stream read one message at a time.
struct Sse {
    response: reqwest::Response,
    buffer: String,
}

impl Sse {
    fn of(response: reqwest::Response) -> Sse {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Sse {
            response,
            buffer: String::new(),
        }
    }

    /// The next event's message; `None` when the stream ends.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                if let Some(data) = event.lines().find_map(|line| line.strip_prefix("data: ")) {
                    return Some(serde_json::from_str(data).unwrap());
                }
                continue;
            }
            let chunk = tokio::time::timeout(support::PATIENCE, self.response.chunk())
                .await
                .expect("an event in time")
                .unwrap()?;
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}

/// The MCP security best practices ("Session Hijacking"): a session is its opener's. Bob,
/// with a valid token of his own and Alice's session id, gets what a session that does not
/// exist gets, whatever he tries, and Alice's session goes on undisturbed.
#[tokio::test]
async fn a_legacy_session_is_only_its_openers() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::serve(
        &auth,
        ScopePolicy::Challenge,
        |rs| rs,
        tools![whoami, confirm, disable],
    )
    .await;
    let alice = auth.mint(&FIRST, &auth.claims(&mcp.url, "alice", "notes:read"));
    let bob = auth.mint(&FIRST, &auth.claims(&mcp.url, "bob", "notes:read"));
    let spec = Spec::of(LEGACY);
    let session = mcp.open_session(&alice).await;
    let bobs = mcp.open_session(&bob).await;
    let mut listening = Sse::of(
        mcp.in_session(reqwest::Method::GET, &alice, Some(&session))
            .header("accept", "text/event-stream")
            .send()
            .await
            .unwrap(),
    );

    // Alice is asked to confirm; her call waits for her answer.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "confirm", "arguments": {}}});
    let mut calling = Sse::of(mcp.legacy(&alice, Some(&session), &call).send().await.unwrap());
    let asked = calling.next().await.unwrap();
    spec.assert_valid("ElicitRequest", &asked);
    assert_eq!(asked["method"], "elicitation/create");
    let asked_id = asked["id"].clone();
    assert!(asked_id.is_string(), "not a counter: {asked_id}");

    // What a session that does not exist gets, for each method.
    let nowhere = "0123456789abcdef0123456789abcdef";
    let accept = json!({"jsonrpc": "2.0", "id": asked_id, "result": {"action": "accept", "content": {"confirm": true}}});
    let who = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}});
    let attempts = [
        ("answering her elicitation", reqwest::Method::POST, Some(&accept)),
        ("calling a tool", reqwest::Method::POST, Some(&who)),
        ("taking her GET stream", reqwest::Method::GET, None),
        ("ending her session", reqwest::Method::DELETE, None),
    ];
    for (attempt, method, body) in attempts {
        let send = |session: &str| {
            let request = mcp.in_session(method.clone(), &bob, Some(session));
            match body {
                Some(body) => request
                    .header("accept", "application/json, text/event-stream")
                    .json(body),
                None => request.header("accept", "text/event-stream"),
            }
            .send()
        };
        let unknown = whole(send(nowhere).await.unwrap()).await;
        assert_eq!(unknown.0, StatusCode::NOT_FOUND, "{attempt}: {unknown:?}");
        assert_eq!(whole(send(&session).await.unwrap()).await, unknown, "{attempt}");
    }
    // In his own session, Bob's answer answers nothing.
    let stray = mcp.legacy(&bob, Some(&bobs), &accept).send().await.unwrap();
    assert_eq!(stray.status(), StatusCode::ACCEPTED);

    // Alice's own answer completes her call.
    let decline = json!({"jsonrpc": "2.0", "id": asked_id, "result": {"action": "decline"}});
    let answered = mcp.legacy(&alice, Some(&session), &decline).send().await.unwrap();
    assert_eq!(answered.status(), StatusCode::ACCEPTED);
    let result = calling.next().await.unwrap();
    spec.assert_valid("JSONRPCResultResponse", &result);
    assert_eq!(
        result,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "not confirmed"}]}})
    );

    // Her session still serves her, and her GET stream is still hers.
    let (status, _, answer) = whole(mcp.legacy(&alice, Some(&session), &who).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(text_of(&answer), "alice [notes:read]");
    let change = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "disable", "arguments": {"name": "confirm"}}});
    let changed = mcp.legacy(&alice, Some(&session), &change).send().await.unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_eq!(
        listening.next().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}})
    );
    let ended = mcp
        .in_session(reqwest::Method::DELETE, &alice, Some(&session))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
}

/// The claims of a token for `mcp`, signed under `header` (with `alg` and `kid` added).
fn signed_under(auth: &AuthServer, mcp: &Mcp, mut header: Value) -> String {
    header["alg"] = json!("EdDSA");
    header["kid"] = json!(FIRST.kid);
    auth.mint_with_header(&FIRST, &header, &auth.claims(&mcp.url, "ada", "notes:read"))
}

/// RFC 7515, section 4.1.11: a header that marks an extension critical (`crit`) must be
/// understood; this server understands none, so any `crit` is refused, and so is a
/// malformed one.
#[tokio::test]
async fn a_token_with_a_critical_extension_is_refused() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let plain = signed_under(&auth, &mcp, json!({"typ": "at+jwt"}));
    let (status, _, answer) = mcp.call(Some(&plain), "whoami", json!({})).await;
    assert_eq!((status, text_of(&answer)), (StatusCode::OK, "ada [notes:read]"));
    let refused = format!(
        r#"Bearer resource_metadata="{}", error="invalid_token", scope="notes:read notes:write""#,
        mcp.metadata_url()
    );
    for header in [
        json!({"typ": "at+jwt", "crit": ["urn:example:bound"], "urn:example:bound": true}),
        json!({"crit": ["b64"], "b64": true}),
        json!({"crit": ["exp"]}),
        json!({"crit": []}),
        json!({"crit": "urn:example:bound", "urn:example:bound": true}),
        json!({"crit": null}),
        json!({"crit": [7]}),
    ] {
        let token = signed_under(&auth, &mcp, header.clone());
        let (status, challenge, _) = mcp.call(Some(&token), "whoami", json!({})).await;
        assert_eq!(
            (status, challenge.as_str()),
            (StatusCode::UNAUTHORIZED, refused.as_str()),
            "{header}"
        );
    }
}

/// RFC 8725, section 3.11: a JWT typed as another kind of token (a logout token, a
/// security event, a DPoP proof) is not an access token, however well signed.
#[tokio::test]
async fn a_token_typed_for_something_else_is_refused() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    for typ in [
        json!("at+jwt"),
        json!("AT+JWT"),
        json!("application/at+jwt"),
        json!("JWT"),
        json!("jwt"),
        json!("application/jwt"),
    ] {
        let token = signed_under(&auth, &mcp, json!({ "typ": typ }));
        let (status, _, answer) = mcp.call(Some(&token), "whoami", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{typ}");
        assert_eq!(text_of(&answer), "ada [notes:read]");
    }
    let untyped = signed_under(&auth, &mcp, json!({}));
    assert_eq!(
        mcp.call(Some(&untyped), "whoami", json!({})).await.0,
        StatusCode::OK
    );
    for typ in [
        "logout+jwt",
        "secevent+jwt",
        "dpop+jwt",
        "Logout+JWT",
        "application/secevent+jwt",
        "APPLICATION/DPOP+JWT",
        "token-introspection+jwt",
    ] {
        let token = signed_under(&auth, &mcp, json!({ "typ": typ }));
        let (status, challenge, _) = mcp.call(Some(&token), "whoami", json!({})).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{typ}");
        assert!(
            challenge.contains(r#"error="invalid_token""#),
            "{typ}: {challenge}"
        );
    }
}

/// RFC 9110, section 11.1: the scheme's name is case-insensitive.
#[tokio::test]
async fn the_bearer_scheme_is_named_in_any_case() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let token = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read"));
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let response = mcp
            .request(None, "tools/call", json!({"name": "whoami", "arguments": {}}))
            .header("authorization", format!("{scheme} {token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{scheme}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(text_of(&answer), "ada [notes:read]", "{scheme}");
    }
    // Another scheme carries no bearer token: a challenge without an error code.
    let basic = mcp
        .request(None, "tools/list", json!({}))
        .header("authorization", "Basic YWRhOnMzY3JldA==")
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        basic.headers()["www-authenticate"],
        format!(
            r#"Bearer resource_metadata="{}", scope="notes:read notes:write""#,
            mcp.metadata_url()
        )
        .as_str()
    );
}

/// RFC 6750, section 3.1: a request with two `Authorization` headers is malformed: 400
/// `invalid_request`, whichever of them would pass.
#[tokio::test]
async fn two_authorization_headers_are_a_bad_request() {
    let auth = AuthServer::start(&[FIRST]).await;
    let mcp = Mcp::start(&auth, ScopePolicy::Challenge, |rs| rs).await;
    let ada = auth.mint(&FIRST, &auth.claims(&mcp.url, "ada", "notes:read"));
    let bob = auth.mint(&FIRST, &auth.claims(&mcp.url, "bob", "notes:read"));
    for (first, second) in [(&ada, &bob), (&ada, &"forged".to_owned()), (&ada, &ada)] {
        let response = mcp
            .request(
                Some(first),
                "tools/call",
                json!({"name": "whoami", "arguments": {}}),
            )
            .header("authorization", format!("Bearer {second}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            response.headers()["www-authenticate"],
            format!(
                r#"Bearer resource_metadata="{}", error="invalid_request""#,
                mcp.metadata_url()
            )
            .as_str()
        );
        assert_eq!(
            response.json::<Value>().await.unwrap(),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "the request has more than one `Authorization` header; send one, with one bearer token"}})
        );
    }
    // One is fine.
    assert_eq!(mcp.call(Some(&ada), "whoami", json!({})).await.0, StatusCode::OK);
}
