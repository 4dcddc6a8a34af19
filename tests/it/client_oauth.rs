//! The client's OAuth 2.1 (feature `client-oauth`) against this crate's own resource server
//! (`Server::oauth`) and the loopback authorization server of the tests
//! (tests/it/support/oauth_as.rs), over real sockets: the whole flow in both eras, step-up
//! with the scopes held, refresh, concurrent refusals sharing one authorization, a user who
//! takes longer than the request timeout, and the refusals that must stop the client before
//! it sends anything (a declined authorization, a forged `state`, metadata for another
//! resource).

use crate::support::oauth_as::tools::{delete_note, whoami};
use crate::support::oauth_as::{AuthServer, SigningKey};
use mcp_toolkit::client::oauth::{
    AuthorizationError, AuthorizationHandler, AuthorizationRequest, Headless, OAuth,
};
use mcp_toolkit::client::{Client, ClientError};
use mcp_toolkit::oauth::ResourceServer;
use mcp_toolkit::{Server, tools};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const KEY: SigningKey = SigningKey::new("client-key", 7);
const REDIRECT: &str = "http://127.0.0.1:8765/callback";

/// An MCP server with OAuth on loopback: its endpoint's URL.
async fn serve(auth: &AuthServer, configure: impl FnOnce(ResourceServer) -> ResourceServer) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = configure(ResourceServer::new(&url).authorization_server(&auth.issuer));
    let router = Server::new("notes", "1.0.0")
        .tools(tools![whoami, delete_note])
        .oauth(resource)
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// The text `tool` answers `client` with.
async fn text(client: &Client, tool: &str, arguments: Value) -> String {
    let answer = client.call(tool, arguments).await.unwrap();
    answer.text().unwrap_or_default().to_owned()
}

/// A field of a logged request, as text.
fn field<'a>(request: &'a Value, name: &str) -> &'a str {
    request[name]
        .as_str()
        .unwrap_or_else(|| panic!("no `{name}` in {request}"))
}

#[tokio::test]
async fn a_server_that_asks_for_a_token_gets_one_by_the_whole_flow() {
    for version in ["2026-07-28", "2025-11-25"] {
        let auth = AuthServer::start(&[KEY]).await;
        let url = serve(&auth, |rs| rs.scopes_supported(["notes:read", "notes:write"])).await;
        let client = Client::http(&url)
            .protocol_version(version)
            .oauth(OAuth::new(REDIRECT, Headless).client_name("tests"))
            .connect()
            .await
            .unwrap();
        let names = crate::support::tool_names(&client).await;
        assert_eq!(names, ["whoami", "delete_note"], "{version}");
        assert_eq!(
            text(&client, "whoami", json!({})).await,
            "client-0 [notes:read notes:write]",
            "{version}"
        );
        assert_eq!(
            text(&client, "delete_note", json!({"id": 3})).await,
            "deleted note 3"
        );

        // One registration, as a native application with the redirect URI; one
        // authorization with PKCE, for the resource and every scope its metadata lists;
        // one code redeemed with the verifier.
        let registrations = auth.requests("register");
        assert_eq!(registrations.len(), 1, "{version}");
        assert_eq!(
            registrations[0],
            json!({
                "client_name": "tests", "redirect_uris": [REDIRECT],
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "none", "application_type": "native"
            })
        );
        let authorizations = auth.requests("authorize");
        assert_eq!(authorizations.len(), 1, "{version}");
        let authorization = &authorizations[0];
        assert_eq!(
            (
                field(authorization, "response_type"),
                field(authorization, "client_id"),
                field(authorization, "redirect_uri"),
                field(authorization, "code_challenge_method"),
                field(authorization, "resource"),
                field(authorization, "scope"),
            ),
            (
                "code",
                "client-0",
                REDIRECT,
                "S256",
                url.as_str(),
                "notes:read notes:write"
            )
        );
        assert_eq!(field(authorization, "code_challenge").len(), 43);
        assert_eq!(field(authorization, "state").len(), 43);
        let tokens = auth.requests("token");
        assert_eq!(tokens.len(), 1, "{version}");
        assert_eq!(field(&tokens[0], "grant_type"), "authorization_code");
        assert_eq!(field(&tokens[0], "resource"), url);
        assert_eq!(field(&tokens[0], "code_verifier").len(), 43);
        client.close().await;
    }
}

#[tokio::test]
async fn a_missing_scope_is_asked_for_with_the_scopes_held() {
    let auth = AuthServer::start(&[KEY]).await;
    // No scopes in the resource's metadata: the client asks for the application's.
    let url = serve(&auth, |rs| rs).await;
    let oauth = OAuth::new(REDIRECT, Headless).scopes(["notes:read"]);
    let client = Client::http(&url).oauth(oauth).connect().await.unwrap();
    assert_eq!(text(&client, "whoami", json!({})).await, "client-0 [notes:read]");
    // `delete_note` needs `notes:write`: a 403 names it, and the client asks again for both.
    assert_eq!(
        text(&client, "delete_note", json!({"id": 9})).await,
        "deleted note 9"
    );
    let scopes: Vec<String> = auth
        .requests("authorize")
        .iter()
        .map(|request| field(request, "scope").to_owned())
        .collect();
    assert_eq!(scopes, ["notes:read", "notes:read notes:write"]);
    // The identity registered the first time is used again.
    assert_eq!(auth.requests("register").len(), 1);
    assert_eq!(
        text(&client, "whoami", json!({})).await,
        "client-0 [notes:read notes:write]"
    );
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_without_the_user() {
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs).await;
    // Tokens that live 5 seconds are inside the 30-second margin: each request refreshes.
    auth.token_lifetime(5);
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let oauth = OAuth::new(REDIRECT, move |request: AuthorizationRequest| {
        counted.fetch_add(1, Ordering::SeqCst);
        async move { AuthorizationHandler::authorize(&Headless, request).await }
    });
    let client = Client::http(&url).oauth(oauth).connect().await.unwrap();
    for _ in 0..3 {
        client.call("whoami", json!({})).await.unwrap();
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1, "the user is asked once");
    let grants: Vec<String> = auth
        .requests("token")
        .iter()
        .map(|request| field(request, "grant_type").to_owned())
        .collect();
    assert_eq!(grants[0], "authorization_code");
    assert!(grants.len() >= 3, "{grants:?}");
    assert!(
        grants[1..].iter().all(|grant| grant == "refresh_token"),
        "{grants:?}"
    );
    for refresh in &auth.requests("token")[1..] {
        assert_eq!(field(refresh, "resource"), url);
        assert_eq!(field(refresh, "client_id"), "client-0");
    }
}

#[tokio::test]
async fn concurrent_refusals_share_one_authorization() {
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs).await;
    let client = Arc::new(
        Client::http(&url)
            .protocol_version("2026-07-28")
            .oauth(OAuth::new(REDIRECT, Headless))
            .connect()
            .await
            .unwrap(),
    );
    let calls: Vec<_> = (0..8)
        .map(|_| {
            let client = Arc::clone(&client);
            tokio::spawn(async move { client.call("whoami", json!({})).await })
        })
        .collect();
    for call in calls {
        assert_eq!(call.await.unwrap().unwrap().text(), Some("client-0 []"));
    }
    assert_eq!(auth.requests("authorize").len(), 1);
    assert_eq!(auth.requests("register").len(), 1);
}

#[tokio::test]
async fn time_the_user_takes_does_not_count_against_the_request() {
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs).await;
    let slow_user = |request: AuthorizationRequest| async move {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        AuthorizationHandler::authorize(&Headless, request).await
    };
    let client = Client::http(&url)
        .protocol_version("2026-07-28")
        .request_timeout(Duration::from_secs(1))
        .oauth(OAuth::new(REDIRECT, slow_user))
        .connect()
        .await
        .unwrap();
    assert_eq!(text(&client, "whoami", json!({})).await, "client-0 []");
}

/// The error of a client of `url` whose user comes back with `redirect(the real one)`.
async fn refused_with(url: &str, redirect: fn(String) -> Option<String>) -> AuthorizationError {
    let handler = move |request: AuthorizationRequest| async move {
        AuthorizationHandler::authorize(&Headless, request)
            .await
            .and_then(redirect)
    };
    let client = Client::http(url)
        .protocol_version("2026-07-28")
        .oauth(OAuth::new(REDIRECT, handler))
        .connect()
        .await
        .unwrap();
    match client.call("whoami", json!({})).await {
        Err(ClientError::Authorization(error)) => error,
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test]
async fn a_redirect_that_does_not_answer_the_request_is_not_redeemed() {
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs).await;
    assert!(matches!(
        refused_with(&url, |_| None).await,
        AuthorizationError::Declined
    ));
    let forged = refused_with(&url, |redirect| Some(redirect.replace("state=", "state=forged"))).await;
    assert!(
        matches!(&forged, AuthorizationError::Redirect { reason } if reason.contains("`state`")),
        "{forged}"
    );
    let elsewhere = refused_with(&url, |redirect| {
        Some(redirect.replace("iss=", "iss=https%3A%2F%2Fevil.example.com%26x%3D"))
    })
    .await;
    assert!(
        matches!(&elsewhere, AuthorizationError::IssuerMismatch { .. }),
        "{elsewhere}"
    );
    let denied = refused_with(&url, |redirect| {
        Some(redirect.replace("code=", "error=access_denied&code="))
    })
    .await;
    assert!(
        matches!(&denied, AuthorizationError::Denied { error, .. } if error == "access_denied"),
        "{denied}"
    );
    // No code was redeemed.
    assert_eq!(auth.requests("token").len(), 0);
}

#[tokio::test]
async fn metadata_for_another_resource_is_not_followed() {
    let auth = AuthServer::start(&[KEY]).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    // The server's metadata names another server as the resource (where nothing listens,
    // so the metadata URL its challenge names fails, and the client looks at the
    // well-known URL for its own endpoint).
    let resource = ResourceServer::new("http://127.0.0.1:1/mcp").authorization_server(&auth.issuer);
    let router = Server::new("notes", "1.0.0")
        .tools(tools![whoami])
        .oauth(resource)
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let error = Client::http(&url)
        .oauth(OAuth::new(REDIRECT, Headless))
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::Authorization(AuthorizationError::ResourceMismatch { resource, .. }) if resource == "http://127.0.0.1:1/mcp"),
        "{error}"
    );
    assert_eq!(auth.requests("register").len(), 0);
    assert_eq!(auth.requests("authorize").len(), 0);
}

#[tokio::test]
async fn a_client_acting_for_itself_uses_its_credentials() {
    use crate::support::oauth_as::{TOKEN_CLIENT_ID, TOKEN_CLIENT_SECRET};
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs.scopes_supported(["notes:read"])).await;
    let client = Client::http(&url)
        .oauth(OAuth::client_credentials(TOKEN_CLIENT_ID, TOKEN_CLIENT_SECRET))
        .connect()
        .await
        .unwrap();
    assert_eq!(
        text(&client, "whoami", json!({})).await,
        "interop-client [notes:read]"
    );
    // `delete_note` needs `notes:write`: a new token for both scopes, no user anywhere.
    assert_eq!(
        text(&client, "delete_note", json!({"id": 1})).await,
        "deleted note 1"
    );
    let tokens = auth.requests("token");
    let asked: Vec<(&str, &str, &str)> = tokens
        .iter()
        .map(|request| {
            (
                field(request, "grant_type"),
                field(request, "scope"),
                field(request, "resource"),
            )
        })
        .collect();
    assert_eq!(
        asked,
        [
            ("client_credentials", "notes:read", url.as_str()),
            ("client_credentials", "notes:read notes:write", url.as_str())
        ]
    );
    assert!(auth.requests("authorize").is_empty() && auth.requests("register").is_empty());
    // With a wrong secret the token endpoint's refusal is the error.
    let refused = Client::http(&url)
        .oauth(OAuth::client_credentials(TOKEN_CLIENT_ID, "wrong"))
        .connect()
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, ClientError::Authorization(AuthorizationError::Token { status: 401, error }) if error == "invalid_client"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_saved_authorization_is_used_again_by_the_next_run() {
    use mcp_toolkit::client::oauth::{SavedAuthorization, TokenFile, TokenStore};
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs.scopes_supported(["notes:read"])).await;
    let folder = std::env::temp_dir().join(format!("mcp-toolkit-token-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("token.json");
    let _ = std::fs::remove_file(&path);

    let asked = Arc::new(AtomicUsize::new(0));
    let counting = |asked: &Arc<AtomicUsize>| {
        let asked = Arc::clone(asked);
        move |request: AuthorizationRequest| {
            asked.fetch_add(1, Ordering::SeqCst);
            async move { AuthorizationHandler::authorize(&Headless, request).await }
        }
    };
    let first = Client::http(&url)
        .oauth(OAuth::new(REDIRECT, counting(&asked)).token_store(TokenFile::new(&path)))
        .connect()
        .await
        .unwrap();
    first.call("whoami", json!({})).await.unwrap();
    first.close().await;
    assert_eq!(asked.load(Ordering::SeqCst), 1);

    // The file holds the authorization, for the owner's eyes only; its Debug shows no token.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let saved: SavedAuthorization = TokenFile::new(&path).load().await.unwrap();
    assert_eq!(
        (saved.resource(), saved.issuer(), saved.scopes()),
        (url.as_str(), auth.issuer.as_str(), &["notes:read".to_owned()][..])
    );
    let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(file["client"]["client_id"], "client-0");
    assert_eq!(file["client"]["token_endpoint_auth_method"], "none");
    assert!(file["access_token"].as_str().unwrap().starts_with("eyJ"));
    assert!(file["refresh_token"].as_str().is_some());
    let debug = format!("{saved:?}");
    assert!(!debug.contains("eyJ") && !debug.contains("refresh-"), "{debug}");

    // The next run calls with the saved token: no user, no registration, no token request.
    let second = Client::http(&url)
        .oauth(OAuth::new(REDIRECT, counting(&asked)).token_store(TokenFile::new(&path)))
        .connect()
        .await
        .unwrap();
    assert_eq!(text(&second, "whoami", json!({})).await, "client-0 [notes:read]");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(
        (auth.requests("register").len(), auth.requests("token").len()),
        (1, 1)
    );

    // Another server never sees that token: a server that records what it is sent, and
    // refuses it all with a 401 naming no metadata (so that the client, finding none, ends
    // up at the default endpoints of 2025-03-26, which refuse too).
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let recorded = Arc::clone(&seen);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other = format!("http://{}/mcp", listener.local_addr().unwrap());
    let router = axum::Router::new().fallback(move |headers: axum::http::HeaderMap| {
        let recorded = Arc::clone(&recorded);
        async move {
            let authorization = headers
                .get("authorization")
                .map(|v| v.to_str().unwrap().to_owned());
            recorded.lock().unwrap().push(authorization);
            axum::http::StatusCode::UNAUTHORIZED
        }
    });
    tokio::spawn(async move { axum::serve(listener, router).await });
    let refused = Client::http(&other)
        .protocol_version("2026-07-28")
        .oauth(OAuth::new(REDIRECT, counting(&asked)).token_store(TokenFile::new(&path)))
        .connect()
        .await
        .unwrap()
        .call("whoami", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            ClientError::Authorization(AuthorizationError::Registration { status: 401, .. })
        ),
        "{refused}"
    );
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty() && seen.iter().all(Option::is_none), "{seen:?}");
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn the_browser_comes_back_to_a_loopback_listener() {
    use mcp_toolkit::client::oauth::Loopback;
    let auth = AuthServer::start(&[KEY]).await;
    let url = serve(&auth, |rs| rs).await;
    // The "browser": told the URL, it follows the authorization server's redirect to the
    // listener, and reads the page it answers.
    let (shown_in, mut shown) = tokio::sync::mpsc::unbounded_channel::<String>();
    let loopback = Loopback::bind(0, move |url| {
        shown_in.send(url.to_owned()).unwrap();
    })
    .await
    .unwrap();
    let redirect_uri = loopback.redirect_uri();
    assert!(redirect_uri.starts_with("http://127.0.0.1:") && redirect_uri.ends_with("/callback"));
    let browser = tokio::spawn(async move {
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let authorize = shown.recv().await.unwrap();
        let redirect = http.get(&authorize).send().await.unwrap();
        let location = redirect.headers()["location"].to_str().unwrap().to_owned();
        // A stray request first (a favicon, say) is no callback.
        let origin = location.split("/callback").next().unwrap().to_owned();
        assert_eq!(
            http.get(format!("{origin}/favicon.ico"))
                .send()
                .await
                .unwrap()
                .status(),
            404
        );
        let page = http.get(&location).send().await.unwrap();
        assert_eq!(page.status(), 200);
        page.text().await.unwrap()
    });
    let client = Client::http(&url)
        .oauth(OAuth::new(redirect_uri.clone(), loopback))
        .connect()
        .await
        .unwrap();
    assert_eq!(text(&client, "whoami", json!({})).await, "client-0 []");
    assert!(browser.await.unwrap().contains("You can close this window"));
    assert_eq!(
        auth.requests("register")[0]["redirect_uris"],
        json!([redirect_uri])
    );
}
