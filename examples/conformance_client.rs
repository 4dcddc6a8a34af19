//! The client the official conformance suite drives (`conformance client --command ..`):
//! it reads the scenario from `MCP_CONFORMANCE_SCENARIO`, the revision to speak from
//! `MCP_CONFORMANCE_PROTOCOL_VERSION`, the scenario's data from `MCP_CONFORMANCE_CONTEXT`,
//! and the server's URL from its last argument, and does what the scenario asks of a
//! client, with `mcp_toolkit::client` and nothing else.
//!
//! ```text
//! npx @modelcontextprotocol/conformance client --command target/debug/conformance_client --scenario tools_call
//! ```

use mcp_toolkit::client::oauth::{Headless, OAuth};
use mcp_toolkit::client::{Client, ClientError, ListedTool};
use serde_json::{Map, Value, json};
use std::process::ExitCode;

/// Accepts an elicitation, giving each field its default where the schema has one (the
/// scenario of SEP-1034), and a value of its type otherwise.
async fn accept(request: Value) -> Value {
    let mut content = Map::new();
    if let Some(properties) = request["requestedSchema"]["properties"].as_object() {
        for (name, schema) in properties {
            let value = match (schema.get("default"), schema["type"].as_str()) {
                (Some(default), _) => default.clone(),
                (None, Some("boolean")) => json!(true),
                (None, Some("integer" | "number")) => json!(1),
                _ => match schema["enum"].as_array().and_then(|values| values.first()) {
                    Some(first) => first.clone(),
                    None => json!("yes"),
                },
            };
            content.insert(name.clone(), value);
        }
    }
    json!({"action": "accept", "content": content})
}

/// Arguments for a tool the scenario gave none for: a value for each required property.
fn arguments_for(tool: &ListedTool) -> Value {
    let schema = tool.input_schema();
    let mut arguments = Map::new();
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = name.as_str() else { continue };
        let value = match schema["properties"][name]["type"].as_str() {
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            _ => json!("x"),
        };
        arguments.insert(name.to_owned(), value);
    }
    Value::Object(arguments)
}

/// How the client authorizes when a scenario's server asks: the suite's authorization
/// server approves without a user, so the authorization URL is followed headless; the
/// client's metadata document is the URL the suite expects, and a pre-registered client
/// (or, in the client credentials scenario, a machine client) comes from the scenario's
/// context.
fn oauth(scenario: &str, context: &Value) -> OAuth {
    let (Some(client_id), secret) = (context["client_id"].as_str(), context["client_secret"].as_str()) else {
        return user_oauth();
    };
    match (scenario, secret) {
        // A machine client: no user, its own credentials (SEP-1046).
        ("auth/client-credentials-basic", Some(secret)) => OAuth::client_credentials(client_id, secret),
        _ => user_oauth().client(client_id, secret.map(str::to_owned)),
    }
}

/// Authorization with a user (here, none: the redirect is followed headless).
fn user_oauth() -> OAuth {
    OAuth::new("http://localhost:3000/callback", Headless)
        .client_name("mcp-toolkit conformance client")
        .client_metadata_url("https://conformance-test.local/client-metadata.json")
}

async fn run(scenario: &str, url: &str, context: &Value) -> Result<(), ClientError> {
    let mut connector = Client::http(url)
        .on_elicit(accept)
        .oauth(oauth(scenario, context));
    if let Ok(version) = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION") {
        connector = connector.protocol_version(version);
    }
    let client = connector.connect().await?;
    match scenario {
        "json-schema-ref-no-deref" => {
            client.list_tools().await?;
        }
        "json-schema-2020-12-preservation" => {
            let tools = client.list_tools().await?;
            let focal = tools
                .iter()
                .find(|tool| tool.name() == "json_schema_2020_12_tool");
            let schema = focal.map(|tool| Value::Object(tool.input_schema().clone()));
            client
                .call("json_schema_echo", json!({ "schema": schema }))
                .await?;
        }
        "request-metadata" => {
            client.request("server/discover", Value::Null).await?;
            client.list_tools().await?;
        }
        "sep-2322-client-request-state" => {
            for tool in [
                "test_mrtr_echo_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ] {
                client.call(tool, json!({})).await?;
            }
        }
        "sep-2640-client-no-prefetch" => {
            // A host lists skills and reads none until a request calls for one.
            client.list_skills().await?;
        }
        "sep-2640-client-verify-digest"
        | "sep-2640-client-verify-size"
        | "sep-2640-client-verify-frontmatter" => {
            // Load each skill as a host does when it is called for: `SKILL.md` first, then
            // the files it points to; a file that does not match its listing stops it.
            for skill in client.list_skills().await? {
                client.read_skill_file(&skill, skill.uri()).await?;
                for file in skill.files().iter().filter(|file| file.uri != skill.uri()) {
                    client.read_skill_file(&skill, &file.uri).await?;
                }
            }
        }
        "http-standard-headers" => {
            if let Some(tool) = client.list_tools().await?.first() {
                client.call(tool.name(), arguments_for(tool)).await?;
            }
            if let Some(resource) = client.list_resources().await?.first() {
                client.read_resource(resource.uri()).await?;
            }
            if let Some(prompt) = client.list_prompts().await?.first() {
                client.get_prompt(prompt.name(), json!({})).await?;
            }
        }
        _ => {
            // The rest list the tools and call them: those the scenario names, with its
            // arguments, or every tool listed (the basic scenarios: the first).
            let tools = client.list_tools().await?;
            match context["toolCalls"].as_array() {
                Some(calls) => {
                    for call in calls {
                        let name = call["name"].as_str().unwrap_or_default();
                        if tools.iter().any(|tool| tool.name() == name) {
                            client.call(name, call["arguments"].clone()).await?;
                        }
                    }
                }
                None if matches!(scenario, "initialize" | "tools_call" | "tools-call") => {
                    if let Some(tool) = tools.first() {
                        client.call(tool.name(), json!({"a": 2, "b": 3})).await?;
                    }
                }
                None => {
                    for tool in &tools {
                        client.call(tool.name(), arguments_for(tool)).await?;
                    }
                }
            }
        }
    }
    client.close().await;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: conformance_client <server URL> (the scenario in MCP_CONFORMANCE_SCENARIO)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    match run(&scenario, &url, &context).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance_client: {scenario}: {e}");
            ExitCode::FAILURE
        }
    }
}
