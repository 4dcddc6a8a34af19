//! Resources and resource templates (`#[resource]`, `resources![...]`, `resources/list`,
//! `resources/templates/list`, `resources/read`) through the real engine in every
//! revision: definitions, fixed URIs before templates, variables decoded from the URI and
//! parsed into the parameters, each return type, path traversal refused, a resource not
//! found; every answer checked against the official schema.

mod support;

use mcp_tools::content::ResourceContents;
use mcp_tools::protocol::ProtocolVersion;
use mcp_tools::{ClientError, Json, Server, TestClient, ToolError, resource, resources};
use serde_json::{Value, json};
use support::Spec;

/// The project's README.
#[resource(uri = "docs://readme", mime_type = "text/markdown")]
async fn readme() -> String {
    "# Demo\n\nA demo server.".to_owned()
}

/// The logo.
#[resource(uri = "docs://logo.png", mime_type = "image/png")]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Profile {
    id: u64,
    name: String,
}

/// A user's profile.
#[resource(uri = "users://{user_id}/profile", mime_type = "application/json")]
async fn profile(
    /// The user's id
    user_id: u64,
) -> Result<Json<Profile>, ToolError> {
    match user_id {
        7 => Ok(Json(Profile {
            id: 7,
            name: "Ada".into(),
        })),
        _ => Err(ToolError::new(format!("there is no user {user_id}"))),
    }
}

/// A note by its title.
#[resource(uri = "notes://{title}")]
fn note(title: String) -> String {
    format!("the note titled {title}")
}

/// The README again, under a fixed URI that a template would also match.
#[resource(uri = "notes://pinned")]
fn pinned() -> Vec<ResourceContents> {
    vec![ResourceContents::Text {
        uri: "notes://pinned".into(),
        mime_type: Some("text/plain".into()),
        text: "pinned".into(),
    }]
}

fn server() -> Server {
    Server::new("docs", "1.0.0").resources(resources![readme, logo, profile, note, pinned])
}

async fn clients() -> Vec<TestClient> {
    let mut clients = vec![server().test_client().unwrap()];
    for version in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_11_25] {
        clients.push(server().test_client_legacy(version).await.unwrap());
    }
    clients
}

fn valid(client: &TestClient, name: &str) {
    let spec = Spec::of(client.protocol_version().as_str());
    spec.assert_valid(name, &client.last_response().expect("an answer")["result"]);
}

#[tokio::test]
async fn fixed_resources_and_templates_are_listed_apart() {
    for client in clients().await {
        let resources = client.list_resources().await.unwrap();
        valid(&client, "ListResourcesResult");
        let uris: Vec<&str> = resources.iter().map(|r| r["uri"].as_str().unwrap()).collect();
        assert_eq!(uris, ["docs://readme", "docs://logo.png", "notes://pinned"]);
        // Titles are derived from the names, in the revisions that have them.
        let titled = client.protocol_version() >= ProtocolVersion::V2025_06_18;
        let with_title = |mut definition: Value, title: &str| {
            if titled {
                definition["title"] = json!(title);
            }
            definition
        };
        assert_eq!(
            resources[0],
            with_title(
                json!({ "uri": "docs://readme", "name": "readme", "description": "The project's README.", "mimeType": "text/markdown" }),
                "Readme"
            )
        );
        let templates = client.list_resource_templates().await.unwrap();
        valid(&client, "ListResourceTemplatesResult");
        assert_eq!(
            templates,
            [
                with_title(
                    json!({ "uriTemplate": "users://{user_id}/profile", "name": "profile", "description": "A user's profile.", "mimeType": "application/json" }),
                    "Profile"
                ),
                with_title(
                    json!({ "uriTemplate": "notes://{title}", "name": "note", "description": "A note by its title." }),
                    "Note"
                ),
            ]
        );
    }
}

#[tokio::test]
async fn reads_give_each_kind_of_contents() {
    for client in clients().await {
        let readme = client.read_resource("docs://readme").await.unwrap();
        valid(&client, "ReadResourceResult");
        assert_eq!(
            readme["contents"],
            json!([{ "uri": "docs://readme", "mimeType": "text/markdown", "text": "# Demo\n\nA demo server." }])
        );
        let logo = client.read_resource("docs://logo.png").await.unwrap();
        assert_eq!(
            logo["contents"],
            json!([{ "uri": "docs://logo.png", "mimeType": "image/png", "blob": "iVBORw==" }])
        );
        let profile = client.read_resource("users://7/profile").await.unwrap();
        valid(&client, "ReadResourceResult");
        assert_eq!(
            profile["contents"],
            json!([{ "uri": "users://7/profile", "mimeType": "application/json", "text": r#"{"id":7,"name":"Ada"}"# }])
        );
        // Percent-escapes are decoded; a fixed URI wins over a template that matches it.
        let note = client.read_resource("notes://tide%20pools").await.unwrap();
        assert_eq!(note["contents"][0]["text"], "the note titled tide pools");
        let pinned = client.read_resource("notes://pinned").await.unwrap();
        assert_eq!(pinned["contents"][0]["text"], "pinned");
    }
}

async fn refused(client: &TestClient, uri: &str) -> (i32, String, Option<Value>) {
    match client.read_resource(uri).await.unwrap_err() {
        ClientError::Rpc { code, message, data } => (code, message, data),
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn bad_variables_unknown_uris_and_traversal_are_errors() {
    let modern = server().test_client().unwrap();
    assert_eq!(
        refused(&modern, "users://seven/profile").await,
        (
            -32602,
            "argument `user_id`: expected an integer of at least 0, received the string \"seven\"".into(),
            None
        )
    );
    assert_eq!(
        refused(&modern, "users://8/profile").await,
        (-32603, "there is no user 8".into(), None)
    );
    for uri in [
        "users://../profile",
        "users://a%2Fb/profile",
        "users://a/b/profile",
        "nothing://here",
    ] {
        assert_eq!(
            refused(&modern, uri).await,
            (
                -32602,
                format!("Resource not found: {uri}"),
                Some(json!({ "uri": uri }))
            ),
            "{uri}"
        );
    }
    let legacy = server()
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    assert_eq!(
        refused(&legacy, "nothing://here").await,
        (
            -32002,
            "Resource not found".into(),
            Some(json!({ "uri": "nothing://here" }))
        )
    );
    // A server given no resources does not serve them.
    let plain = Server::new("plain", "1.0.0").test_client().unwrap();
    assert!(matches!(
        plain.list_resources().await,
        Err(ClientError::Rpc { code: -32601, .. })
    ));
}
