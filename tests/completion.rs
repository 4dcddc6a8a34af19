//! `completion/complete` for prompt arguments through the real engine, in 2026-07-28 and in
//! a 2025-11-25 session: an enum argument completes from its values with no code, one with
//! `#[complete(fn)]` from its fn (which sees the arguments already given); candidates that
//! start with the value come first, then those that contain it, ignoring case; at most 100
//! values, with `total` and `hasMore`; unknown prompts and arguments are `-32602`, a server
//! without prompts `-32601`. Every result is checked against the official schema.

mod support;

use mcp_tools::protocol::ProtocolVersion;
use mcp_tools::{ClientError, Server, TestClient, prompt, prompts, tool, tools};
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
    let result = client
        .request("completion/complete", request(prompt, argument, value, arguments))
        .await
        .unwrap_or_else(|e| panic!("{prompt}.{argument} at {value:?}: {e}"));
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
async fn refused(client: &TestClient, params: Value) -> (i32, String) {
    match client.request("completion/complete", params).await.unwrap_err() {
        ClientError::Rpc { code, message, .. } => (code, message),
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
async fn a_server_without_prompts_does_not_serve_completion() {
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
                "method `completion/complete` is not served: this server has no prompts".to_owned()
            ),
            "{}",
            client.protocol_version()
        );
    }
}
