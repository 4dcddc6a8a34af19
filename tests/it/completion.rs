//! `completion/complete` for prompt arguments (`ref/prompt`) and resource template variables
//! (`ref/resource`) through the real engine, in 2026-07-28 and in a 2025-11-25 session: an
//! enum argument completes from its values with no code, one with `#[complete(fn)]` from its
//! fn (which sees the arguments already given); candidates that start with the value come
//! first, then those that contain it, ignoring case; at most 100 values, with `total` and
//! `hasMore`; unknown prompts, templates, arguments and variables, and fixed URIs, are
//! `-32602`; a server with neither prompts nor resources `-32601`. Every result is checked
//! against the official schema, every request's params against 2025-11-25's.

use crate::support;

use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{
    Server, prompt, prompts, resource, resources, testing::ClientError, testing::TestClient, tool, tools,
};
use serde_json::{Map, Value, json};
use support::Spec;

/// A season, completed from its values.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Season {
    Spring,
    Summer,
    Autumn,
    Winter,
}

/// Cities of the country given already, or of every country.
fn cities(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
    let portugal = ["Lisbon", "Porto", "Braga", "Coimbra"];
    let spain = ["Madrid", "Barcelona", "Seville", "Bilbao"];
    let all: Vec<&str> = match given.get("country").and_then(Value::as_str) {
        Some("Portugal") => portugal.to_vec(),
        Some("Spain") => spain.to_vec(),
        _ => portugal.iter().chain(&spain).copied().collect(),
    };
    all.into_iter().map(str::to_owned).collect()
}

/// 250 codes, more than one answer holds.
fn codes(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
    (0..250).map(|i| format!("code-{i:03}")).collect()
}

/// Plans a trip.
#[prompt]
fn plan_trip(
    /// The country to visit
    country: String,
    /// The city to start in
    #[complete(cities)]
    city: String,
    /// When to go
    season: Season,
    /// Whether the season is flexible
    flexible: Option<bool>,
) -> String {
    let _ = (season, flexible);
    format!("Plan a trip to {city}, {country}.")
}

/// Looks a code up.
#[prompt]
fn look_up(#[complete(codes)] code: String, note: Option<String>) -> String {
    format!("{code} {}", note.unwrap_or_default())
}

/// Adds.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn server() -> Server {
    Server::new("trips", "1.0.0").prompts(prompts![plan_trip, look_up])
}

async fn clients() -> Vec<TestClient> {
    vec![
        server().test_client().unwrap(),
        server()
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap(),
    ]
}

/// `completion/complete` of `argument` of `prompt` at `value`, given `arguments`; the
/// `completion` of the result, which is checked against the client's revision's schema.
async fn complete(client: &TestClient, prompt: &str, argument: &str, value: &str, arguments: Value) -> Value {
    completed(client, request(prompt, argument, value, arguments)).await
}

/// The `completion` of the result of `completion/complete` with `params`, checked against
/// the client's revision's schema.
async fn completed(client: &TestClient, params: Value) -> Value {
    Spec::of("2025-11-25").assert_valid("CompleteRequestParams", &params);
    let result = client
        .request("completion/complete", params.clone())
        .await
        .unwrap_or_else(|e| panic!("{params}: {e}"));
    Spec::of(client.protocol_version().as_str()).assert_valid("CompleteResult", &result);
    if client.protocol_version() == ProtocolVersion::V2026_07_28 {
        assert_eq!(result["resultType"], "complete");
    } else {
        assert!(result.get("resultType").is_none(), "{result}");
    }
    result["completion"].clone()
}

fn request(prompt: &str, argument: &str, value: &str, arguments: Value) -> Value {
    json!({
        "ref": { "type": "ref/prompt", "name": prompt },
        "argument": { "name": argument, "value": value },
        "context": { "arguments": arguments }
    })
}

/// The JSON-RPC error `completion/complete` answers with.
async fn refused(client: &TestClient, params: Value) -> (i64, String) {
    Spec::of("2025-11-25").assert_valid("CompleteRequestParams", &params);
    match client.request("completion/complete", params).await.unwrap_err() {
        ClientError::Rpc { code, message, .. } => (code.get(), message),
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn an_enum_argument_completes_from_its_values_in_declaration_order() {
    for client in clients().await {
        let all = complete(&client, "plan_trip", "season", "", json!({})).await;
        assert_eq!(
            all,
            json!({ "values": ["spring", "summer", "autumn", "winter"], "total": 4, "hasMore": false }),
            "{}",
            client.protocol_version()
        );
        // Those that start with the value first, then those that contain it; any case.
        let u = complete(&client, "plan_trip", "season", "U", json!({})).await;
        assert_eq!(
            u,
            json!({ "values": ["summer", "autumn"], "total": 2, "hasMore": false })
        );
        let s = complete(&client, "plan_trip", "season", "S", json!({})).await;
        assert_eq!(s["values"], json!(["spring", "summer"]));
        let er = complete(&client, "plan_trip", "season", "ER", json!({})).await;
        assert_eq!(er["values"], json!(["summer", "winter"]));
        let none = complete(&client, "plan_trip", "season", "x", json!({})).await;
        assert_eq!(none, json!({ "values": [], "total": 0, "hasMore": false }));
    }
}

#[tokio::test]
async fn a_complete_fn_sees_the_arguments_already_given() {
    for client in clients().await {
        let portugal = complete(&client, "plan_trip", "city", "", json!({ "country": "Portugal" })).await;
        assert_eq!(
            portugal,
            json!({ "values": ["Lisbon", "Porto", "Braga", "Coimbra"], "total": 4, "hasMore": false }),
            "{}",
            client.protocol_version()
        );
        let spain = complete(&client, "plan_trip", "city", "b", json!({ "country": "Spain" })).await;
        assert_eq!(
            spain,
            json!({ "values": ["Barcelona", "Bilbao"], "total": 2, "hasMore": false })
        );
        // The fn's candidates are filtered by the value: prefix first, then contains.
        let o = complete(&client, "plan_trip", "city", "o", json!({})).await;
        assert_eq!(
            o,
            json!({ "values": ["Lisbon", "Porto", "Coimbra", "Barcelona", "Bilbao"], "total": 5, "hasMore": false })
        );
        let o = complete(
            &client,
            "plan_trip",
            "city",
            "Co",
            json!({ "country": "Portugal" }),
        )
        .await;
        assert_eq!(o["values"], json!(["Coimbra"]));
    }
}

#[tokio::test]
async fn at_most_100_values_are_sent_with_the_total() {
    for client in clients().await {
        let all = complete(&client, "look_up", "code", "", json!({})).await;
        let expected: Vec<String> = (0..100).map(|i| format!("code-{i:03}")).collect();
        assert_eq!(
            all,
            json!({ "values": expected, "total": 250, "hasMore": true }),
            "{}",
            client.protocol_version()
        );
        let twos = complete(&client, "look_up", "code", "code-2", json!({})).await;
        assert_eq!(twos["total"], 50);
        assert_eq!(twos["hasMore"], false);
        assert_eq!(twos["values"][0], "code-200");
    }
}

#[tokio::test]
async fn an_argument_without_values_completes_to_none() {
    for client in clients().await {
        let country = complete(&client, "plan_trip", "country", "Port", json!({})).await;
        assert_eq!(country, json!({ "values": [], "total": 0, "hasMore": false }));
        let note = complete(&client, "look_up", "note", "", json!({})).await;
        assert_eq!(note["values"], json!([]));
    }
}

#[tokio::test]
async fn unknown_prompts_and_arguments_are_invalid_params() {
    for client in clients().await {
        assert_eq!(
            refused(&client, request("plan_holiday", "city", "", json!({}))).await,
            (-32602, "Unknown prompt: plan_holiday".to_owned()),
            "{}",
            client.protocol_version()
        );
        assert_eq!(
            refused(&client, request("plan_trip", "town", "", json!({}))).await,
            (-32602, "the prompt `plan_trip` has no argument `town`".to_owned())
        );
    }
}

#[tokio::test]
async fn a_server_without_prompts_or_resources_does_not_serve_completion() {
    let server = || Server::new("calc", "1.0.0").tools(tools![add]);
    let clients = [
        server().test_client().unwrap(),
        server()
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap(),
    ];
    for client in clients {
        assert_eq!(
            refused(&client, request("plan_trip", "city", "", json!({}))).await,
            (
                -32601,
                "method `completion/complete` is not served: this server has no prompts or resources"
                    .to_owned()
            ),
            "{}",
            client.protocol_version()
        );
    }
}

/// A kind of post, completed from its values.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum PostKind {
    Article,
    Note,
    Photo,
    Poll,
}

/// The members of the team given already, or of every team.
fn members(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
    let core = ["ada", "alan", "grace"];
    let web = ["tim", "brendan", "ada-b"];
    let all: Vec<&str> = match given.get("team").and_then(Value::as_str) {
        Some("core") => core.to_vec(),
        Some("web") => web.to_vec(),
        _ => core.iter().chain(&web).copied().collect(),
    };
    all.into_iter().map(str::to_owned).collect()
}

/// A member's posts.
#[resource(
    uri = "teams://{team}/members/{member}/posts{?kind}",
    mime_type = "text/plain"
)]
fn posts(team: String, #[complete(members)] member: String, kind: Option<PostKind>) -> String {
    let _ = kind;
    format!("{member} of {team}")
}

/// 250 issues, more than one answer holds.
fn issue_numbers(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
    (1..=250).map(|i| i.to_string()).collect()
}

/// An issue.
#[resource(uri = "issues://{number}")]
fn issue(#[complete(issue_numbers)] number: u32) -> String {
    number.to_string()
}

/// The README.
#[resource(uri = "docs://readme")]
fn readme() -> String {
    "# Teams".to_owned()
}

const POSTS: &str = "teams://{team}/members/{member}/posts{?kind}";

/// A server with resources and no prompts.
fn resource_server() -> Server {
    Server::new("teams", "1.0.0").resources(resources![readme, posts, issue])
}

async fn resource_clients(server: impl Fn() -> Server) -> Vec<TestClient> {
    vec![
        server().test_client().unwrap(),
        server()
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap(),
    ]
}

/// `completion/complete`'s params for `variable` of the template `uri` at `value`.
fn template_request(uri: &str, variable: &str, value: &str, arguments: Value) -> Value {
    json!({
        "ref": { "type": "ref/resource", "uri": uri },
        "argument": { "name": variable, "value": value },
        "context": { "arguments": arguments }
    })
}

#[tokio::test]
async fn an_enum_variable_completes_from_its_values_on_a_server_without_prompts() {
    for client in resource_clients(resource_server).await {
        let version = client.protocol_version();
        let all = completed(&client, template_request(POSTS, "kind", "", json!({}))).await;
        assert_eq!(
            all,
            json!({ "values": ["article", "note", "photo", "poll"], "total": 4, "hasMore": false }),
            "{version}"
        );
        let p = completed(&client, template_request(POSTS, "kind", "P", json!({}))).await;
        assert_eq!(
            p,
            json!({ "values": ["photo", "poll"], "total": 2, "hasMore": false })
        );
        let o = completed(&client, template_request(POSTS, "kind", "o", json!({}))).await;
        assert_eq!(o["values"], json!(["note", "photo", "poll"]));
        // A variable without an enum type or a fn has no candidates.
        let team = completed(&client, template_request(POSTS, "team", "co", json!({}))).await;
        assert_eq!(team, json!({ "values": [], "total": 0, "hasMore": false }));
    }
}

#[tokio::test]
async fn a_variables_complete_fn_sees_the_variables_already_given() {
    for client in resource_clients(resource_server).await {
        let version = client.protocol_version();
        let core = completed(
            &client,
            template_request(POSTS, "member", "", json!({ "team": "core" })),
        )
        .await;
        assert_eq!(
            core,
            json!({ "values": ["ada", "alan", "grace"], "total": 3, "hasMore": false }),
            "{version}"
        );
        let web = completed(
            &client,
            template_request(POSTS, "member", "A", json!({ "team": "web" })),
        )
        .await;
        assert_eq!(
            web,
            json!({ "values": ["ada-b", "brendan"], "total": 2, "hasMore": false })
        );
        // Without context, every member; prefixes first, then the rest that contain it.
        let without = json!({
            "ref": { "type": "ref/resource", "uri": POSTS },
            "argument": { "name": "member", "value": "a" }
        });
        assert_eq!(
            completed(&client, without).await["values"],
            json!(["ada", "alan", "ada-b", "grace", "brendan"])
        );
        // At most 100 values, with the total.
        let numbers = completed(
            &client,
            template_request("issues://{number}", "number", "1", json!({})),
        )
        .await;
        // 111 start with `1` (1, 10 to 19, 100 to 199), 22 more contain it (21, 201, ...).
        assert_eq!(numbers["total"], 111 + 22);
        assert_eq!(numbers["hasMore"], true);
        assert_eq!(numbers["values"].as_array().unwrap().len(), 100);
        assert_eq!(numbers["values"][0], "1");
        assert_eq!(numbers["values"][99], "188");
    }
}

#[tokio::test]
async fn unknown_templates_fixed_uris_and_unknown_variables_are_invalid_params() {
    for client in resource_clients(resource_server).await {
        let version = client.protocol_version();
        assert_eq!(
            refused(&client, template_request("teams://{team}/members", "team", "", json!({}))).await,
            (
                -32602,
                "unknown resource template `teams://{team}/members`; expected one of `teams://{team}/members/{member}/posts{?kind}`, `issues://{number}`".to_owned()
            ),
            "{version}"
        );
        // A URI read from a template is not its name; the template is suggested.
        assert_eq!(
            refused(&client, template_request("issues://7", "number", "", json!({}))).await,
            (
                -32602,
                "unknown resource template `issues://7`; did you mean `issues://{number}`? `ref/resource` names a template as `resources/templates/list` lists it".to_owned()
            )
        );
        assert_eq!(
            refused(&client, template_request("docs://readme", "lang", "", json!({}))).await,
            (
                -32602,
                "the resource `docs://readme` has no variables: its URI is fixed; completion is for the variables of resource templates (URIs with `{...}`)".to_owned()
            )
        );
        assert_eq!(
            refused(&client, template_request(POSTS, "user", "", json!({}))).await,
            (
                -32602,
                "the resource template `teams://{team}/members/{member}/posts{?kind}` has no variable `user`; its variables are `team`, `member`, `kind`".to_owned()
            )
        );
        // No prompts here: a prompt is unknown.
        assert_eq!(
            refused(&client, request("plan_trip", "city", "", json!({}))).await,
            (-32602, "Unknown prompt: plan_trip".to_owned())
        );
    }
}

#[tokio::test]
async fn only_enabled_templates_complete() {
    let mut server = resource_server();
    let registry = server.resource_registry();
    let client = server.test_client().unwrap();
    assert!(registry.set_enabled("issues://{number}", false));
    assert_eq!(
        refused(&client, template_request("issues://{number}", "number", "", json!({}))).await,
        (
            -32602,
            "unknown resource template `issues://{number}`; expected one of `teams://{team}/members/{member}/posts{?kind}`".to_owned()
        )
    );
    assert!(registry.set_enabled("issues://{number}", true));
    let numbers = completed(
        &client,
        template_request("issues://{number}", "number", "250", json!({})),
    )
    .await;
    assert_eq!(numbers["values"], json!(["250"]));
}

#[tokio::test]
async fn prompts_and_templates_complete_on_one_server() {
    let both = || {
        Server::new("both", "1.0.0")
            .prompts(prompts![plan_trip])
            .resources(resources![readme, posts])
    };
    for client in resource_clients(both).await {
        let season = complete(&client, "plan_trip", "season", "w", json!({})).await;
        assert_eq!(
            season["values"],
            json!(["winter"]),
            "{}",
            client.protocol_version()
        );
        let kind = completed(&client, template_request(POSTS, "kind", "a", json!({}))).await;
        assert_eq!(kind["values"], json!(["article"]));
    }
    // A server with prompts and only fixed resources has no templates to complete.
    let fixed = Server::new("docs", "1.0.0")
        .prompts(prompts![look_up])
        .resources(resources![readme]);
    let client = fixed.test_client().unwrap();
    assert_eq!(
        refused(&client, template_request(POSTS, "kind", "", json!({}))).await,
        (
            -32602,
            format!("unknown resource template `{POSTS}`; this server has no resource templates")
        )
    );
}

/// The members of each team: the server's state.
struct Directory {
    teams: Vec<(&'static str, Vec<&'static str>)>,
}

/// The members of the team given already, looked up in the server's state after a wait (as
/// a database would make it wait): an `async` completion fn with injected values.
async fn directory_members(
    directory: mcp_toolkit::State<Directory>,
    cx: mcp_toolkit::Context,
    typed: mcp_toolkit::completion::Partial,
) -> Result<Vec<String>, mcp_toolkit::ToolError> {
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    if typed.value() == "boom" {
        return Err(mcp_toolkit::ToolError::internal(
            "the directory is down at db-7.internal",
        ));
    }
    // The context is the request's: it knows the revision the client speaks.
    assert!(cx.protocol_version().is_some());
    let team = typed.argument("team").unwrap_or_default();
    let members = directory.teams.iter().find(|(name, _)| *name == team);
    Ok(members.map_or_else(Vec::new, |(_, members)| {
        members.iter().map(|m| (*m).to_owned()).collect()
    }))
}

/// Messages a member of a team.
#[prompt]
fn message_member(team: String, #[complete(directory_members)] member: String) -> String {
    format!("Write to {member} of {team}.")
}

fn directory_server() -> Server {
    Server::new("directory", "1.0.0").prompts(prompts![message_member])
}

fn directory() -> Directory {
    Directory {
        teams: vec![("core", vec!["Ana", "Bruno", "Carla"]), ("docs", vec!["Dora"])],
    }
}

#[tokio::test]
async fn a_complete_fn_may_be_async_and_take_the_servers_state() {
    let clients = vec![
        directory_server().state(directory()).test_client().unwrap(),
        directory_server()
            .state(directory())
            .test_client_legacy(ProtocolVersion::V2025_11_25)
            .await
            .unwrap(),
    ];
    for client in &clients {
        let core = complete(client, "message_member", "member", "a", json!({"team": "core"})).await;
        assert_eq!(
            core,
            json!({"values": ["Ana", "Carla"], "total": 2, "hasMore": false})
        );
        let docs = complete(client, "message_member", "member", "", json!({"team": "docs"})).await;
        assert_eq!(docs["values"], json!(["Dora"]));

        // A completion fn's internal error is the completion's, its detail logged only.
        let (code, message) = refused(client, request("message_member", "member", "boom", json!({}))).await;
        assert_eq!((code, message.as_str()), (-32603, "internal error"));
    }
}

#[test]
fn a_server_without_the_state_a_complete_fn_takes_does_not_start() {
    let error = directory_server().test_client().unwrap_err();
    assert!(
        matches!(&error, mcp_toolkit::testing::ClientError::Server(mcp_toolkit::Error::MissingState { needed_by, state, .. }) if needed_by == "message_member" && state.ends_with("Directory")),
        "{error}"
    );
}
