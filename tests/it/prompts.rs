//! Prompts (`#[prompt]`, `prompts![...]`, `prompts/list`, `prompts/get`) through the real
//! engine in every revision: definitions, arguments parsed from strings, each return
//! type, errors as JSON-RPC errors, a prompt that asks (rounds in 2026-07-28, requests
//! before), changes announced; every answer checked against the official schema.

use crate::support;

use mcp_toolkit::content::Role;
use mcp_toolkit::protocol::{ErrorCode, ProtocolVersion};
use mcp_toolkit::{
    Content, Context, Server, State, ToolError, ask::Elicitation, prompt, prompt::GetPromptResult,
    prompt::PromptMessage, prompts, testing::ClientError, testing::ListedPrompt, testing::TestClient,
};
use serde_json::{Value, json};
use support::Spec;

/// Asks the model to review code.
#[prompt(title = "Code review")]
fn review_code(
    /// The code to review
    code: String,
    /// The language it is written in
    language: Option<String>,
) -> String {
    format!(
        "Review this {} code:\n\n{code}",
        language.as_deref().unwrap_or("source")
    )
}

/// Plans a trip of some days.
#[prompt]
async fn plan_trip(
    /// Where to
    city: String,
    /// How many days
    days: u32,
    /// Whether to include museums
    #[default(true)]
    museums: bool,
) -> Vec<PromptMessage> {
    let museums = if museums { "with" } else { "without" };
    vec![
        PromptMessage::user(format!("Plan {days} days in {city}, {museums} museums.")),
        PromptMessage::assistant("Which season?"),
    ]
}

/// Shows a chart.
#[prompt]
fn show_chart() -> GetPromptResult {
    GetPromptResult::new(vec![PromptMessage::new(
        Role::User,
        Content::image_base64("iVBORw0KGgo=", "image/png"),
    )])
    .with_description("A chart to discuss")
}

/// Greets the user by the name the server was given.
#[prompt]
fn greet(name: State<String>) -> String {
    format!("Say hello to {}.", *name)
}

/// Fails as it is told, or with an internal error.
#[prompt]
fn failing(
    /// `told` or anything else
    how: String,
) -> Result<String, ToolError> {
    match how.as_str() {
        "told" => Err(ToolError::new("there is nothing to review yet")),
        _ => Err(ToolError::internal(
            "the template store at /srv/templates is gone",
        )),
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Topic {
    /// What to write about
    topic: String,
}

/// Asks the user what to write about.
#[prompt]
async fn write_post(cx: Context) -> Result<String, ToolError> {
    match cx.elicit::<Topic>("What should the post be about?").await? {
        Elicitation::Accept(Topic { topic }) => Ok(format!("Write a post about {topic}.")),
        Elicitation::Decline | Elicitation::Cancel => Ok("Write a post about anything.".into()),
    }
}

fn server() -> Server {
    Server::new("prompts", "1.0.0")
        .prompts(prompts![
            review_code,
            plan_trip,
            show_chart,
            greet,
            failing,
            write_post
        ])
        .state("Ada".to_owned())
}

/// A client of every revision.
async fn clients() -> Vec<TestClient> {
    let mut clients = vec![server().test_client().unwrap()];
    for version in [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ] {
        clients.push(server().test_client_legacy(version).await.unwrap());
    }
    clients
}

/// Validates the last answer of `client` against its revision's schema.
fn valid(client: &TestClient, name: &str) {
    let spec = Spec::of(client.protocol_version().as_str());
    let response = client.last_response().expect("an answer");
    spec.assert_valid(name, &response["result"]);
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments_in_every_revision() {
    for client in clients().await {
        let prompts = client.list_prompts().await.unwrap();
        valid(&client, "ListPromptsResult");
        let names: Vec<&str> = prompts.iter().map(ListedPrompt::name).collect();
        assert_eq!(
            names,
            [
                "review_code",
                "plan_trip",
                "show_chart",
                "greet",
                "failing",
                "write_post"
            ]
        );
        let mut review = json!({
            "name": "review_code",
            "description": "Asks the model to review code.",
            "arguments": [
                { "name": "code", "description": "The code to review", "required": true },
                { "name": "language", "description": "The language it is written in", "required": false }
            ]
        });
        let titled = client.protocol_version() >= ProtocolVersion::V2025_06_18;
        if titled {
            review["title"] = json!("Code review");
        }
        assert_eq!(prompts[0].json(), &review, "{}", client.protocol_version());
        assert_eq!(prompts[0].title(), titled.then_some("Code review"));
        assert_eq!(prompts[0].description(), Some("Asks the model to review code."));
        let museums = &prompts[1].arguments()[2];
        assert_eq!(
            (
                museums.name.as_str(),
                museums.description.as_deref(),
                museums.required
            ),
            ("museums", Some("Whether to include museums"), false)
        );
        assert_eq!(
            prompts[1].json()["arguments"][2],
            json!({ "name": "museums", "description": "Whether to include museums", "required": false })
        );
        // Injected parameters are not arguments.
        assert!(prompts[3].arguments().is_empty());
        assert!(prompts[3].json().get("arguments").is_none());
    }
}

#[tokio::test]
async fn arguments_arrive_as_strings_and_are_parsed_into_the_parameters() {
    for client in clients().await {
        let filled = client
            .get_prompt(
                "review_code",
                json!({ "code": "fn main() {}", "language": "Rust" }),
            )
            .await
            .unwrap();
        valid(&client, "GetPromptResult");
        assert_eq!(
            filled.response()["result"]["messages"],
            json!([{ "role": "user", "content": { "type": "text", "text": "Review this Rust code:\n\nfn main() {}" } }])
        );
        assert_eq!(
            filled.messages(),
            [PromptMessage::user("Review this Rust code:\n\nfn main() {}")]
        );
        let trip = client
            .get_prompt("plan_trip", json!({ "city": "Lisbon", "days": "3" }))
            .await
            .unwrap();
        assert_eq!(
            trip.messages(),
            [
                PromptMessage::user("Plan 3 days in Lisbon, with museums."),
                PromptMessage::assistant("Which season?")
            ]
        );
        assert_eq!(trip.description(), None);
        let chart = client.get_prompt("show_chart", json!({})).await.unwrap();
        valid(&client, "GetPromptResult");
        assert_eq!(chart.description(), Some("A chart to discuss"));
        assert_eq!(
            chart.messages(),
            [PromptMessage::new(
                Role::User,
                Content::image_base64("iVBORw0KGgo=", "image/png")
            )]
        );
        assert_eq!(chart.text(), None);
        assert_eq!(
            chart.response()["result"]["messages"][0]["content"]["mimeType"],
            "image/png"
        );
        let greeting = client.get_prompt("greet", json!({})).await.unwrap();
        assert_eq!(greeting.text(), Some("Say hello to Ada."));
        // 2026-07-28 names the server in the result's `_meta`.
        let named = greeting
            .meta()
            .map(|meta| meta["io.modelcontextprotocol/serverInfo"]["name"].clone());
        let modern = client.protocol_version().is_modern();
        assert_eq!(named, modern.then(|| json!("prompts")));
    }
}

/// The JSON-RPC error a `prompts/get` answers with.
async fn refused(client: &TestClient, name: &str, arguments: Value) -> (i64, String) {
    match client.get_prompt(name, arguments).await.unwrap_err() {
        ClientError::Rpc { code, message, .. } => (code.get(), message),
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn bad_arguments_unknown_prompts_and_failing_prompts_are_json_rpc_errors() {
    let client = server().test_client().unwrap();
    assert_eq!(
        refused(&client, "plan_trip", json!({ "city": "Lisbon", "days": "three" })).await,
        (
            -32602,
            "argument `days`: expected an integer of at least 0, received the string \"three\"".into()
        )
    );
    assert_eq!(
        refused(&client, "plan_trip", json!({ "days": "3", "mood": "calm" })).await,
        (
            -32602,
            "2 problems with the arguments:\nargument `city` is missing: expected a string\nargument `mood` is not accepted; the accepted arguments are `city`, `days`, `museums`".into()
        )
    );
    assert_eq!(
        refused(&client, "nothing", json!({})).await,
        (-32602, "Unknown prompt: nothing".into())
    );
    assert_eq!(
        refused(&client, "failing", json!({ "how": "told" })).await,
        (-32603, "there is nothing to review yet".into())
    );
    assert_eq!(
        refused(&client, "failing", json!({ "how": "other" })).await,
        (-32603, "internal error".into())
    );
    // The server serves on.
    assert!(client.get_prompt("show_chart", json!({})).await.is_ok());
}

#[tokio::test]
async fn a_prompt_asks_in_rounds_in_2026_07_28_and_with_requests_before() {
    let answer = |client: TestClient| {
        client.on_elicit(|request| async move {
            assert_eq!(request["message"], "What should the post be about?");
            json!({ "action": "accept", "content": { "topic": "tide pools" } })
        })
    };
    let modern = answer(server().test_client().unwrap());
    let post = modern.get_prompt("write_post", json!({})).await.unwrap();
    assert_eq!(post.text(), Some("Write a post about tide pools."));
    assert_eq!(post.response()["result"]["resultType"], "complete");
    valid(&modern, "GetPromptResult");

    let legacy = answer(
        server()
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap(),
    );
    let post = legacy.get_prompt("write_post", json!({})).await.unwrap();
    assert_eq!(post.text(), Some("Write a post about tide pools."));

    // A client that cannot answer: -32021 in 2026-07-28.
    let bare = server().test_client().unwrap();
    let (code, message) = refused(&bare, "write_post", json!({})).await;
    assert_eq!(code, -32021);
    assert_eq!(
        message,
        "this request needs the client capability `elicitation.form`, which the client did not declare"
    );
    let error = bare.last_response().unwrap();
    assert_eq!(
        error["error"]["data"],
        json!({ "requiredCapabilities": { "elicitation": { "form": {} } } })
    );
}

#[tokio::test]
async fn prompts_are_served_only_by_a_server_given_some_and_changes_are_announced() {
    let plain = Server::new("tools only", "1.0.0").test_client().unwrap();
    let discover = plain.request("server/discover", json!(null)).await.unwrap();
    assert!(discover["capabilities"].get("prompts").is_none());
    assert!(matches!(
        plain.list_prompts().await,
        Err(ClientError::Rpc {
            code: ErrorCode::METHOD_NOT_FOUND,
            ..
        })
    ));

    let mut server = server();
    let registry = server.prompt_registry();
    let client = server
        .test_client_legacy(ProtocolVersion::V2025_11_25)
        .await
        .unwrap();
    let discover = Server::new("p", "1").prompts(prompts![]).test_client().unwrap();
    let capabilities =
        discover.request("server/discover", json!(null)).await.unwrap()["capabilities"].clone();
    assert_eq!(capabilities["prompts"], json!({ "listChanged": true }));

    registry.set_enabled("failing", false);
    assert_eq!(client.list_prompts().await.unwrap().len(), 5);
    assert!(matches!(
        client.get_prompt("failing", json!({ "how": "told" })).await,
        Err(ClientError::Rpc {
            code: ErrorCode::INVALID_PARAMS,
            ..
        })
    ));
}
