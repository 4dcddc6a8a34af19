//! Per-caller visibility of prompts and resources over HTTP with bearer tokens: what a
//! caller may not see is neither listed nor usable (got, read, completed, watched), and
//! lists that depend on the caller say they are private.

use crate::support;

use mcp_toolkit::{Server, auth::Principal, prompt, prompts, resource, resources};
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::{Spec, modern_meta};

const MODERN: &str = "2026-07-28";

/// Says hello.
#[prompt]
fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Say hello to {name}.")
}

/// What an administrator may ask.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Task {
    /// Rotate the keys
    Rotate,
    /// Purge the caches
    Purge,
}

/// Administers the server.
#[prompt]
fn admin_task(
    /// What to do
    task: Task,
) -> String {
    match task {
        Task::Rotate => "Rotate the keys.".to_owned(),
        Task::Purge => "Purge the caches.".to_owned(),
    }
}

/// The handbook.
#[resource(uri = "docs://handbook", mime_type = "text/plain")]
fn handbook() -> &'static str {
    "the handbook"
}

/// A page of the docs.
#[resource(uri = "docs://pages/{page}", mime_type = "text/plain")]
fn page(
    /// The page
    page: String,
) -> String {
    format!("page {page}")
}

/// The secrets.
#[resource(uri = "internal://secrets", mime_type = "text/plain")]
fn secrets() -> &'static str {
    "the secrets"
}

/// An internal report.
#[resource(uri = "internal://reports/{kind}", mime_type = "text/plain")]
fn report(
    /// Which report
    kind: Task,
) -> String {
    let _ = kind;
    "a report".to_owned()
}

fn admin(caller: Option<&Principal>) -> bool {
    caller.is_some_and(|c| c.has_scope("admin"))
}

async fn start() -> (String, reqwest::Client, tokio::sync::oneshot::Sender<()>) {
    let server = Server::new("visibility", "1.0.0")
        .prompts(prompts![greet, admin_task])
        .resources(resources![handbook, page, secrets, report])
        .bearer_auth(|token| async move {
            match token.as_str() {
                "admin-token" => Some(Principal::new("root").with_scopes(["admin"])),
                "user-token" => Some(Principal::new("ada")),
                _ => None,
            }
        })
        .prompt_visibility(|prompt, caller| !prompt.name().starts_with("admin_") || admin(caller))
        .resource_visibility(|resource, caller| !resource.uri().starts_with("internal://") || admin(caller));
    let http = server.bind_http("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", http.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    (url, reqwest::Client::builder().no_proxy().build().unwrap(), stop)
}

/// A 2026-07-28 request as `token`'s holder; its answer.
async fn modern(client: &reqwest::Client, url: &str, token: &str, method: &str, mut params: Value) -> Value {
    params["_meta"] = modern_meta(json!({}));
    let mut request = client
        .post(url)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", method);
    for key in ["name", "uri"] {
        if let Some(target) = params.get(key).and_then(Value::as_str) {
            request = request.header("mcp-name", target);
        }
    }
    let response = request
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }))
        .send()
        .await
        .unwrap();
    let stream = response.headers()["content-type"] == "text/event-stream";
    let text = if stream {
        // A listen stream stays open: its first event.
        let mut response = response;
        let mut buffer = String::new();
        while !buffer.contains("\n\n") {
            let chunk = response.chunk().await.unwrap().expect("an event");
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        let data = buffer.lines().find_map(|l| l.strip_prefix("data: "));
        data.expect("an event with data").to_owned()
    } else {
        response.text().await.unwrap()
    };
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn listed(answer: &Value, key: &str, field: &str) -> Vec<String> {
    answer["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}: {answer}"))
        .iter()
        .map(|item| item[field].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn hidden_prompts_and_resources_are_unknown_to_the_caller() {
    let (url, client, stop) = start().await;
    let spec = Spec::of(MODERN);
    let ask = |token: &'static str, method: &'static str, params: Value| {
        let (client, url) = (client.clone(), url.clone());
        async move { modern(&client, &url, token, method, params).await }
    };

    // Lists: the user sees less, and every list that depends on the caller is private.
    let user_prompts = ask("user-token", "prompts/list", json!({})).await;
    spec.assert_valid("ListPromptsResult", &user_prompts["result"]);
    assert_eq!(listed(&user_prompts, "prompts", "name"), ["greet"]);
    assert_eq!(user_prompts["result"]["cacheScope"], "private");
    let admin_prompts = ask("admin-token", "prompts/list", json!({})).await;
    assert_eq!(listed(&admin_prompts, "prompts", "name"), ["greet", "admin_task"]);
    let user_resources = ask("user-token", "resources/list", json!({})).await;
    spec.assert_valid("ListResourcesResult", &user_resources["result"]);
    assert_eq!(listed(&user_resources, "resources", "uri"), ["docs://handbook"]);
    assert_eq!(user_resources["result"]["cacheScope"], "private");
    let user_templates = ask("user-token", "resources/templates/list", json!({})).await;
    assert_eq!(
        listed(&user_templates, "resourceTemplates", "uriTemplate"),
        ["docs://pages/{page}"]
    );
    let admin_templates = ask("admin-token", "resources/templates/list", json!({})).await;
    assert_eq!(
        listed(&admin_templates, "resourceTemplates", "uriTemplate"),
        ["docs://pages/{page}", "internal://reports/{kind}"]
    );

    // Using what is hidden: as if it did not exist.
    let get = ask(
        "user-token",
        "prompts/get",
        json!({ "name": "admin_task", "arguments": { "task": "rotate" } }),
    )
    .await;
    assert_eq!(get["error"]["message"], "Unknown prompt: admin_task");
    let got = ask(
        "admin-token",
        "prompts/get",
        json!({ "name": "admin_task", "arguments": { "task": "rotate" } }),
    )
    .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Rotate the keys."
    );
    for uri in ["internal://secrets", "internal://reports/purge"] {
        let read = ask("user-token", "resources/read", json!({ "uri": uri })).await;
        assert_eq!(read["error"]["code"], -32602, "{read}");
        assert_eq!(read["error"]["data"], json!({ "uri": uri }));
        let read = ask("admin-token", "resources/read", json!({ "uri": uri })).await;
        assert!(read["result"]["contents"].is_array(), "{read}");
    }
    let complete = |token, reference: Value, name: &str| {
        ask(
            token,
            "completion/complete",
            json!({ "ref": reference, "argument": { "name": name, "value": "" } }),
        )
    };
    let hidden = complete(
        "user-token",
        json!({ "type": "ref/prompt", "name": "admin_task" }),
        "task",
    )
    .await;
    assert_eq!(hidden["error"]["message"], "Unknown prompt: admin_task");
    let shown = complete(
        "admin-token",
        json!({ "type": "ref/prompt", "name": "admin_task" }),
        "task",
    )
    .await;
    assert_eq!(
        shown["result"]["completion"]["values"],
        json!(["rotate", "purge"])
    );
    let template = json!({ "type": "ref/resource", "uri": "internal://reports/{kind}" });
    let hidden = complete("user-token", template.clone(), "kind").await;
    assert!(
        hidden["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown resource template `internal://reports/{kind}`"),
        "{hidden}"
    );
    let shown = complete("admin-token", template, "kind").await;
    assert_eq!(
        shown["result"]["completion"]["values"],
        json!(["rotate", "purge"])
    );

    // Watching: a listen leaves out what the caller may not see.
    let listen = ask(
        "user-token",
        "subscriptions/listen",
        json!({ "notifications": { "resourceSubscriptions": ["docs://handbook", "internal://secrets"] } }),
    )
    .await;
    assert_eq!(
        listen["params"]["notifications"],
        json!({ "resourceSubscriptions": ["docs://handbook"] })
    );
    let _ = stop.send(());
}

#[tokio::test]
async fn a_legacy_session_may_not_subscribe_to_what_it_may_not_see() {
    let (url, client, stop) = start().await;
    let initialize = client
        .post(&url)
        .bearer_auth("user-token")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .json(&json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(initialize.status(), StatusCode::OK);
    let session = initialize.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let subscribe = |uri: &'static str| {
        client
            .post(&url)
            .bearer_auth("user-token")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "resources/subscribe", "params": { "uri": uri } }))
            .send()
    };
    let hidden: Value = subscribe("internal://secrets")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        hidden["error"],
        json!({ "code": -32002, "message": "Resource not found", "data": { "uri": "internal://secrets" } })
    );
    let shown: Value = subscribe("docs://handbook").await.unwrap().json().await.unwrap();
    assert_eq!(shown["result"], json!({}));
    let _ = stop.send(());
}
