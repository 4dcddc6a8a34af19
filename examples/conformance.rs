//! The server the official conformance suite (`@modelcontextprotocol/conformance`) tests:
//! it implements the `test_*` tools its tool scenarios call, with the fixture values they
//! expect. Run it with `--http 127.0.0.1:PORT` and point the suite at `/mcp`.
//!
//! The tools that ask (elicitation, sampling, roots) serve both eras with one body: in
//! 2025-11-25 the asks are requests sent while the call runs; in 2026-07-28 they end a
//! round with an `input_required` result, under the keys the scenarios expect.
//!
//! ```text
//! cargo run --bin conformance -- --http 127.0.0.1:3001
//! ```

mod common;

use mcp_toolkit::Json;
use mcp_toolkit::content::{ResourceContents, Role};
use mcp_toolkit::protocol::LoggingLevel;
use mcp_toolkit::{
    CallToolResult, Content, Context, Server, Tool, ToolError, ask::AskError, ask::Elicitation, prompt,
    prompt::PromptMessage, prompts, registry::PromptRegistry, registry::ResourceRegistry,
    registry::ToolRegistry, resource, resources, tool, tools,
};
use serde::{Deserialize, Serialize};
use std::future::IntoFuture;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A silent WAV file.
const SILENT_WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Returns a simple text response.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[tool]
fn test_image_content() -> Content {
    Content::image_base64(RED_PIXEL_PNG, "image/png")
}

/// Returns audio.
#[tool]
fn test_audio_content() -> Content {
    Content::audio_base64(SILENT_WAV, "audio/wav")
}

/// Returns an embedded resource.
#[tool]
fn test_embedded_resource() -> Content {
    Content::embedded_text(
        "test://embedded-resource",
        Some("text/plain".into()),
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource.
#[tool]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image_base64(RED_PIXEL_PNG, "image/png"),
        Content::embedded_text(
            "test://mixed-content-resource",
            Some("application/json".into()),
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Sends three log messages while it runs.
#[tool]
async fn test_tool_with_logging(cx: Context) -> &'static str {
    for (i, message) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.log(LoggingLevel::Info, message);
    }
    "Tool with logging executed successfully"
}

/// Logs at the level the request asked for (2026-07-28).
#[tool]
async fn test_logging_tool(cx: Context) -> &'static str {
    cx.info("Logging tool called");
    "Logged"
}

/// Always fails, as a tool error the model can read.
#[tool]
fn test_error_handling() -> CallToolResult {
    CallToolResult::error("This tool intentionally returns an error for testing")
}

/// Reports progress in three steps.
#[tool]
async fn test_tool_with_progress(cx: Context) -> &'static str {
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.report_progress(step, Some(100.0), Some(&format!("Completed step {step} of 100")));
    }
    "Progress test completed"
}

/// Changes the tool list, so subscribers hear `notifications/tools/list_changed`.
#[tool]
fn test_trigger_tool_change(registry: ToolRegistry) -> &'static str {
    let enabled = registry.get("test_simple_text").is_some();
    registry.set_enabled("test_simple_text", !enabled);
    registry.set_enabled("test_simple_text", true);
    "Tool list changed"
}

/// Changes the prompt list, so subscribers hear `notifications/prompts/list_changed`.
#[tool]
fn test_trigger_prompt_change(registry: PromptRegistry) -> &'static str {
    registry.set_enabled("test_simple_prompt", false);
    registry.set_enabled("test_simple_prompt", true);
    "Prompt list changed"
}

/// How many times `test://watched-resource` has changed.
static WATCHED_VERSION: AtomicU64 = AtomicU64::new(0);

/// Changes `test://watched-resource`, so its subscribers hear
/// `notifications/resources/updated`.
#[tool]
fn test_trigger_resource_update(resources: ResourceRegistry) -> &'static str {
    WATCHED_VERSION.fetch_add(1, Ordering::Relaxed);
    resources.notify_updated("test://watched-resource");
    "Resource updated"
}

// More text than its budget of 1 KiB: answered as its first page, a link to the whole result
// and a line saying how to read on. The deploy lane (tests/deploy) reads the other pages
// through the other instances, which find them in the shared task store.
/// A long report of numbered lines, answered in pages of at most 1 KiB.
#[tool(result_budget = 1024)]
fn long_report(
    /// How many lines (1 to 10,000; 100 when not given)
    lines: Option<u32>,
) -> Result<String, ToolError> {
    let lines = lines.unwrap_or(100);
    if !(1..=10_000).contains(&lines) {
        return Err(ToolError::new(format!("`lines` is {lines}; give 1 to 10,000")));
    }
    Ok((1..=lines)
        .map(|n| format!("line {n:05}: all systems nominal\n"))
        .collect())
}

// Its `region` is mirrored into the header `Mcp-Param-Region` (`x-mcp-header`), and
// `days` into `Mcp-Param-Days`: the scenario `http-custom-header-server-validation` calls it
// with headers that do and do not repeat the body, so it answers for any region and city.
/// Today's forecast.
#[tool]
async fn forecast(
    /// The region, also sent as the `Mcp-Param-Region` header
    #[header("Region")]
    region: String,
    city: String,
    /// How many days ahead, also sent as the `Mcp-Param-Days` header
    #[header("Days")]
    days: Option<u8>,
) -> String {
    match days {
        Some(days) => format!("{city} ({region}), in {days} days: sunny"),
        None => format!("{city} ({region}): sunny"),
    }
}

/// A tool built from data, whose input schema uses JSON Schema 2020-12 beyond what
/// parameters make (`$defs` with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`): the
/// scenario `json-schema-2020-12` checks that the listing keeps every keyword.
fn json_schema_2020_12_tool() -> Tool {
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": { "type": "string" },
            "email": { "type": "string" }
        },
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": { "properties": { "contactMethod": { "const": "phone" } }, "required": ["contactMethod"] },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false
    });
    let description = "Tool with JSON Schema 2020-12 features";
    Tool::from_json(
        "json_schema_2020_12_tool",
        description,
        schema,
        |arguments, _| async move { format!("received {}", serde_json::Value::Object(arguments)) },
    )
    .expect("the schema is an object schema")
}

// --- Tools that ask, for the 2025-11-25 scenarios (requests of the server's own) ----------

/// What the user did with a form, as the scenarios print it: `action=accept, content={..}`.
fn outcome<T: Serialize>(answer: &Elicitation<T>) -> String {
    match answer {
        Elicitation::Accept(content) => {
            let content = serde_json::to_string(content).unwrap_or_default();
            format!("action=accept, content={content}")
        }
        Elicitation::Decline => "action=decline, content={}".into(),
        Elicitation::Cancel => "action=cancel, content={}".into(),
    }
}

/// Asks the client's model to answer a prompt.
#[tool]
async fn test_sampling(
    cx: Context,
    /// The prompt to send to the LLM
    prompt: String,
) -> Result<String, ToolError> {
    let answer = cx.sample(prompt).max_tokens(100).await?;
    Ok(format!("LLM response: {}", answer.text().unwrap_or_default()))
}

/// The form of `test_elicitation`.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for a name and an email address.
#[tool]
async fn test_elicitation(
    cx: Context,
    /// The message to show the user
    message: String,
) -> Result<String, ToolError> {
    let answer = cx.elicit::<Contact>(message).await?;
    Ok(format!("User response: {}", outcome(&answer)))
}

/// A user's status.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// The form of `test_elicitation_sep1034_defaults`: a default for every kind of field.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
struct Profile {
    /// User name
    name: String,
    /// User age
    age: u32,
    /// User score
    score: f64,
    /// User status
    status: Status,
    /// Verification status
    verified: bool,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            name: "John Doe".into(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
        }
    }
}

/// Asks for a profile whose fields all have defaults (SEP-1034).
#[tool]
async fn test_elicitation_sep1034_defaults(cx: Context) -> Result<String, ToolError> {
    let answer = cx
        .elicit::<Profile>("Please review and update the form fields with defaults")
        .await?;
    Ok(format!("Elicitation completed: {}", outcome(&answer)))
}

/// Choices without labels.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Choices with labels, for one.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TitledOne {
    #[schemars(title = "First Option")]
    Value1,
    #[schemars(title = "Second Option")]
    Value2,
    #[schemars(title = "Third Option")]
    Value3,
}

/// Choices with labels, for several.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TitledMany {
    #[schemars(title = "First Choice")]
    Value1,
    #[schemars(title = "Second Choice")]
    Value2,
    #[schemars(title = "Third Choice")]
    Value3,
}

/// The choices of `legacyEnum`, labelled by the deprecated `enumNames` keyword, which the
/// form keeps when the type declares it.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// The form of `test_elicitation_sep1330_enums`: every kind of choice.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Choices {
    /// Select one option
    untitled_single: Untitled,
    /// Select one option with titles
    titled_single: TitledOne,
    /// Select one option (legacy)
    legacy_enum: Legacy,
    /// Select multiple options
    #[schemars(length(min = 1, max = 3))]
    untitled_multi: Vec<Untitled>,
    /// Select multiple options with titles
    #[schemars(length(min = 1, max = 3))]
    titled_multi: Vec<TitledMany>,
}

/// Asks for choices of every kind: one or several, with labels or without (SEP-1330).
#[tool]
async fn test_elicitation_sep1330_enums(cx: Context) -> Result<String, ToolError> {
    let answer = cx
        .elicit::<Choices>("Please select options from the enum fields")
        .await?;
    Ok(format!("Elicitation completed: {}", outcome(&answer)))
}

// --- Tools that ask, for the 2026-07-28 scenarios (input_required rounds) -----------------

/// A name.
#[derive(Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// A favorite color.
#[derive(Deserialize, schemars::JsonSchema)]
struct Color {
    color: String,
}

/// A yes or no.
#[derive(Deserialize, schemars::JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Any text.
#[derive(Deserialize, schemars::JsonSchema)]
struct Text {
    value: String,
}

/// Asks the user's name (key `user_name`), then greets them.
#[tool]
async fn test_input_required_result_elicitation(cx: Context) -> Result<String, ToolError> {
    let name = cx.elicit::<Name>("What is your name?").key("user_name").await?;
    Ok(match name {
        Elicitation::Accept(Name { name }) => format!("Hello, {name}!"),
        _ => "Hello, stranger!".into(),
    })
}

/// Asks the client's model a question (key `capital_question`).
#[tool]
async fn test_input_required_result_sampling(cx: Context) -> Result<String, ToolError> {
    let answer = cx
        .sample("What is the capital of France?")
        .max_tokens(100)
        .key("capital_question")
        .await?;
    Ok(format!("Sampling result: {}", answer.text().unwrap_or_default()))
}

/// Asks the client's roots (key `client_roots`), and lists them.
#[tool]
async fn test_input_required_result_list_roots(cx: Context) -> Result<String, ToolError> {
    let roots = cx.list_roots().key("client_roots").await?;
    let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("Found {} root(s): {}", roots.len(), uris.join(", ")))
}

/// Asks for a confirmation (key `confirm`); the answer comes back with the sealed state.
#[tool]
async fn test_input_required_result_request_state(cx: Context) -> Result<&'static str, ToolError> {
    let answer = cx.elicit::<Confirm>("Please confirm").key("confirm").await?;
    Ok(match answer {
        Elicitation::Accept(Confirm { ok: true }) => "state-ok: requestState validated",
        _ => "state-ok: not confirmed",
    })
}

/// Asks a form, the client's model and its roots, all in one round.
#[tool]
async fn test_input_required_result_multiple_inputs(cx: Context) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        cx.elicit::<Name>("What is your name?")
            .key("user_name")
            .into_future(),
        cx.sample("Generate a greeting")
            .max_tokens(50)
            .key("greeting")
            .into_future(),
        cx.list_roots().key("client_roots").into_future(),
    );
    let name = match name? {
        Elicitation::Accept(Name { name }) => name,
        _ => "stranger".into(),
    };
    let greeting = greeting?.text().unwrap_or_default();
    Ok(format!(
        "Name: {name}; Greeting: {greeting}; Roots: {}",
        roots?.len()
    ))
}

/// Asks the user's name (key `step1`), then, in a second round, a color (key `step2`).
#[tool]
async fn test_input_required_result_multi_round(cx: Context) -> Result<String, ToolError> {
    let Elicitation::Accept(Name { name }) = cx
        .elicit::<Name>("Step 1: What is your name?")
        .key("step1")
        .await?
    else {
        return Ok("No name given".into());
    };
    let Elicitation::Accept(Color { color }) = cx
        .elicit::<Color>("Step 2: What is your favorite color?")
        .key("step2")
        .await?
    else {
        return Ok(format!("No color given by {name}"));
    };
    Ok(format!("Multi-round complete for {name} who likes {color}"))
}

/// Asks for a confirmation (key `confirm`); a retry whose state was altered is refused.
#[tool]
async fn test_input_required_result_tampered_state(cx: Context) -> Result<&'static str, ToolError> {
    cx.elicit::<Confirm>("Please confirm").key("confirm").await?;
    Ok("integrity-ok: state verified")
}

/// `Some` answer, or `None` when the client cannot be asked.
fn unless_missing<T>(asked: Result<T, AskError>) -> Result<Option<T>, AskError> {
    match asked {
        Err(AskError::MissingCapability(_)) => Ok(None),
        asked => asked.map(Some),
    }
}

/// Asks a form and the client's model, each only if the client declared it can answer.
#[tool]
async fn test_input_required_result_capabilities(cx: Context) -> Result<String, ToolError> {
    let (text, sample) = tokio::join!(
        cx.elicit::<Text>("Elicitation input")
            .key("elicit_input")
            .into_future(),
        cx.sample("Sample request")
            .max_tokens(50)
            .key("sample_input")
            .into_future(),
    );
    let mut received = Vec::new();
    if let Some(text) = unless_missing(text)? {
        let value = match text {
            Elicitation::Accept(Text { value }) => value,
            _ => "none".into(),
        };
        received.push(format!("elicit_input={value}"));
    }
    if let Some(sample) = unless_missing(sample)? {
        received.push(format!("sample_input={}", sample.text().unwrap_or_default()));
    }
    Ok(match received.as_slice() {
        [] => "No supported capabilities declared".into(),
        received => format!("capabilities-ok: received {}", received.join(", ")),
    })
}

/// Needs sampling: a client that did not declare it gets -32021.
#[tool]
async fn test_missing_capability(cx: Context) -> Result<&'static str, ToolError> {
    cx.sample("Say yes").max_tokens(10).await?;
    Ok("Success")
}

/// Asks for a confirmation: its round ends with `input_required` on the call's own
/// response, never with a request of the server's.
#[tool]
async fn test_streaming_elicitation(cx: Context) -> Result<&'static str, ToolError> {
    cx.elicit::<Confirm>("Continue streaming?").key("confirm").await?;
    Ok("Streaming complete")
}

// --- Prompts --------------------------------------------------------------------------------

/// A prompt with no arguments.
#[prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt that fills in its two arguments.
#[prompt]
fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that embeds a resource.
#[prompt]
#[allow(non_snake_case)] // the suite names the argument `resourceUri`
fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    resourceUri: String,
) -> Vec<PromptMessage> {
    let resource = Content::embedded_text(
        resourceUri,
        Some("text/plain".into()),
        "Embedded resource content for testing.",
    );
    vec![
        PromptMessage::new(Role::User, resource),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image.
#[prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::new(Role::User, Content::image_base64(RED_PIXEL_PNG, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// What `test_input_required_result_prompt` asks.
#[derive(Deserialize, schemars::JsonSchema)]
struct PromptContext {
    context: String,
}

/// A prompt that asks the user for its context first (2026-07-28: an `input_required`
/// round of `prompts/get`).
#[prompt]
async fn test_input_required_result_prompt(cx: Context) -> Result<String, prompt::PromptError> {
    let asked = cx.elicit::<PromptContext>("What context should the prompt use?");
    match asked.key("user_context").await? {
        Elicitation::Accept(PromptContext { context }) => Ok(format!("Use this context: {context}")),
        Elicitation::Decline | Elicitation::Cancel => Ok("Use no particular context.".into()),
    }
}

// --- Resources ------------------------------------------------------------------------------

/// A static text resource.
#[resource(uri = "test://static-text", mime_type = "text/plain")]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource: a 1×1 red PNG.
#[resource(uri = "test://static-binary", mime_type = "image/png")]
fn static_binary() -> ResourceContents {
    ResourceContents::Blob {
        uri: "test://static-binary".into(),
        mime_type: Some("image/png".into()),
        blob: RED_PIXEL_PNG.into(),
    }
}

/// A resource to subscribe to: `test_trigger_resource_update` changes it.
#[resource(uri = "test://watched-resource", mime_type = "text/plain")]
fn watched_resource() -> String {
    let version = WATCHED_VERSION.load(Ordering::Relaxed);
    format!("Watched resource content, version {version}.")
}

/// A template whose `id` is put into the data.
#[resource(uri = "test://template/{id}/data", mime_type = "application/json")]
fn template_data(
    /// Which data
    id: String,
) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") }))
}

/// Greets someone: a tool that never runs as a task.
#[tool]
fn greet(
    /// Whom to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Works for `seconds` seconds, saying how far it got, then reports; a task for a client
/// that declares the tasks extension (unless it has nothing to wait for).
#[tool(task)]
async fn slow_compute(
    cx: Context,
    /// How long to work
    seconds: u64,
    /// What the result is labelled
    #[default(String::new())]
    label: String,
) -> String {
    for second in 0..seconds {
        cx.set_status(format!("{second} of {seconds} s"));
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    format!("computed {label} in {seconds} s")
}

/// Works a second, then fails as a tool fails (a result with `isError`); only ever a task.
#[tool(task = "required")]
async fn failing_job() -> Result<&'static str, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed: its input was not usable"))
}

/// Works briefly, then panics: the task fails with a JSON-RPC internal error.
#[tool(task)]
async fn protocol_error_job() -> &'static str {
    tokio::time::sleep(Duration::from_millis(200)).await;
    panic!("the job hit a bug")
}

/// Whether to go ahead.
#[derive(Deserialize, schemars::JsonSchema)]
struct Go {
    confirm: bool,
}

/// Looks the file up, then asks inside the task whether to delete it.
#[tool(task)]
async fn confirm_delete(
    cx: Context,
    /// The file to delete
    filename: String,
) -> Result<String, ToolError> {
    cx.set_status(format!("looking up {filename}"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = cx.elicit::<Go>(format!("Delete {filename}?")).await?;
    Ok(match answer {
        Elicitation::Accept(Go { confirm: true }) => format!("deleted {filename}"),
        _ => format!("kept {filename}"),
    })
}

/// A named entry, confirmed.
#[derive(Deserialize, schemars::JsonSchema)]
struct Entry {
    name: String,
    confirm: bool,
}

/// Gets ready, then asks two questions at once inside the task.
#[tool(task)]
async fn multi_input(cx: Context) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (first, second) = tokio::join!(
        cx.elicit::<Entry>("First entry?").key("first").into_future(),
        cx.elicit::<Entry>("Second entry?").key("second").into_future(),
    );
    let name = |entry: Elicitation<Entry>| match entry {
        Elicitation::Accept(Entry { name, confirm: true }) => name,
        _ => "(declined)".to_owned(),
    };
    Ok(format!("Got {} and {}", name(first?), name(second?)))
}

/// Asks the user's name as a round of the call itself (key `user_name`), then works on it
/// as a task: only ever a task.
#[tool(task = "required")]
async fn test_tool_with_task(cx: Context) -> Result<String, ToolError> {
    let name = match cx.elicit::<Name>("What is your name?").key("user_name").await? {
        Elicitation::Accept(Name { name }) => name,
        _ => "stranger".to_owned(),
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}! Your task is done."))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let mut tools = tools![
        test_simple_text,
        test_image_content,
        test_audio_content,
        test_embedded_resource,
        test_multiple_content_types,
        test_tool_with_logging,
        test_logging_tool,
        test_error_handling,
        test_tool_with_progress,
        test_trigger_tool_change,
        test_trigger_prompt_change,
        test_trigger_resource_update,
        test_sampling,
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_elicitation_sep1330_enums,
        test_input_required_result_elicitation,
        test_input_required_result_sampling,
        test_input_required_result_list_roots,
        test_input_required_result_request_state,
        test_input_required_result_multiple_inputs,
        test_input_required_result_multi_round,
        test_input_required_result_tampered_state,
        test_input_required_result_capabilities,
        test_missing_capability,
        test_streaming_elicitation,
        greet,
        slow_compute,
        failing_job,
        protocol_error_job,
        confirm_delete,
        multi_input,
        test_tool_with_task,
        forecast,
        long_report,
    ];
    tools.push(json_schema_2020_12_tool());
    let served = Server::new("mcp-toolkit-conformance", env!("CARGO_PKG_VERSION"))
        .tools(tools)
        .resources(resources![
            static_text,
            static_binary,
            watched_resource,
            template_data
        ])
        // A skill with a subfolder, for the skills extension's scenarios (SEP-2640), whose
        // `resources/directory/read` checks need a folder inside a skill.
        .skills(mcp_toolkit::skills!("examples/conformance-skills"))
        .prompts(prompts![
            test_simple_prompt,
            test_prompt_with_arguments,
            test_prompt_with_embedded_resource,
            test_prompt_with_image,
            test_input_required_result_prompt,
        ])
        .run()
        .await;
    common::exit(served)
}
