//! What a [`Client`](super::Client) reads from the answers to `tools/list`,
//! `prompts/list`, `prompts/get`, `resources/list`, `resources/templates/list` and
//! `resources/read`: each read into the crate's own protocol types, in every revision, with
//! the JSON as it was sent beside it for assertions on the wire.

use super::ClientError;
use super::cache::ListKind;
use crate::content::{Annotations, ResourceContents};
use crate::prompt::{GetPromptResult, PromptArgument, PromptMessage};
use crate::resource::CacheScope;
use crate::tool::{Icon, ToolAnnotations};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// One item of a list method's answer, as the client reads it.
pub(super) trait Listed: Sized {
    /// The method that lists it.
    const METHOD: &'static str;
    /// The member of the result that holds the page's items.
    const KEY: &'static str;
    /// What an item is, for the error when one does not read.
    const WHAT: &'static str;
    /// The list as the client caches it, if it does.
    const KIND: Option<ListKind> = None;
    /// Reads one item; `Err` when it does not match the protocol's type.
    fn read(json: Value) -> Result<Self, serde_json::Error>;
}

/// Reads item `index` of a list (counted over every page); a mismatch names the method,
/// the type and the item.
pub(super) fn read_item<T: Listed>(index: usize, json: Value) -> Result<T, ClientError> {
    T::read(json).map_err(|source| ClientError::ResultMismatch {
        method: T::METHOD.to_owned(),
        expected: format!("{} (item {index} of `{}`)", T::WHAT, T::KEY),
        source,
    })
}

/// Reads `json` as `T` and keeps it beside.
fn read<T: DeserializeOwned>(json: Value) -> Result<(T, Value), serde_json::Error> {
    T::deserialize(&json).map(|wire| (wire, json))
}

/// A tool as [`Client::list_tools`](super::Client::list_tools) received it: its
/// definition in the client's revision, read into the crate's types, and the JSON as it
/// was sent ([`ListedTool::json`]).
///
/// What a revision does not send reads as `None` or empty: annotations came in 2025-03-26,
/// the title, the output schema and `_meta` in 2025-06-18, icons in 2025-11-25.
///
/// ```
/// use mcp_toolkit::{tool, tools, Json, Server, protocol::ProtocolVersion};
/// use serde_json::json;
///
/// /// Tells the weather in a city.
/// #[tool(
///     title = "Weather",
///     annotations(read_only),
///     icons("https://example.com/sun.svg"),
///     meta(team = "travel")
/// )]
/// fn weather(
///     /// The city
///     city: String,
/// ) -> Json<f64> {
///     Json(21.5)
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let server = || Server::new("travel", "1.0.0").tools(tools![weather]);
/// let tools = server().test_client()?.list_tools().await?;
/// let weather = &tools[0];
/// assert_eq!(weather.name(), "weather");
/// assert_eq!(weather.title(), Some("Weather"));
/// assert_eq!(weather.description(), Some("Tells the weather in a city."));
/// assert_eq!(weather.input_schema()["required"], json!(["city"]));
/// assert_eq!(weather.output_schema().unwrap()["type"], "number");
/// assert_eq!(weather.annotations().unwrap().read_only_hint, Some(true));
/// assert_eq!(weather.icons()[0].src, "https://example.com/sun.svg");
/// assert_eq!(weather.meta().unwrap()["team"], "travel");
/// assert_eq!(weather.json()["inputSchema"]["properties"]["city"]["description"], "The city");
///
/// // 2025-06-18 wraps an output schema that is not an object's as `{"result": ...}`.
/// let legacy = server().test_client_legacy(ProtocolVersion::V2025_06_18).await?;
/// let weather = legacy.list_tools().await?.remove(0);
/// assert_eq!(weather.output_schema().unwrap()["properties"]["result"]["type"], "number");
/// assert!(weather.icons().is_empty());
///
/// // 2024-11-05 has the name, the description and the input schema.
/// let oldest = server().test_client_legacy(ProtocolVersion::V2024_11_05).await?;
/// let weather = oldest.list_tools().await?.remove(0);
/// assert_eq!((weather.title(), weather.annotations(), weather.meta()), (None, None, None));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ListedTool {
    wire: WireTool,
    json: Value,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireTool {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    input_schema: Map<String, Value>,
    #[serde(default)]
    output_schema: Option<Value>,
    #[serde(default)]
    annotations: Option<ToolAnnotations>,
    #[serde(default)]
    icons: Vec<Icon>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl Listed for ListedTool {
    const METHOD: &'static str = "tools/list";
    const KEY: &'static str = "tools";
    const KIND: Option<ListKind> = Some(ListKind::Tools);
    const WHAT: &'static str = "a `Tool`";

    fn read(json: Value) -> Result<ListedTool, serde_json::Error> {
        read(json).map(|(wire, json)| ListedTool { wire, json })
    }
}

impl ListedTool {
    /// The name clients call it by.
    pub fn name(&self) -> &str {
        &self.wire.name
    }

    /// The display title (from 2025-06-18).
    pub fn title(&self) -> Option<&str> {
        self.wire.title.as_deref()
    }

    /// What the tool does, for the model.
    pub fn description(&self) -> Option<&str> {
        self.wire.description.as_deref()
    }

    /// The JSON Schema of the arguments.
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.wire.input_schema
    }

    /// The JSON Schema of the structured output, as the revision sends it (from
    /// 2025-06-18; in 2025-06-18 and 2025-11-25 a schema that is not an object's is wrapped
    /// as `{"result": ...}`).
    pub fn output_schema(&self) -> Option<&Value> {
        self.wire.output_schema.as_ref()
    }

    /// The behaviour hints (from 2025-03-26).
    pub fn annotations(&self) -> Option<&ToolAnnotations> {
        self.wire.annotations.as_ref()
    }

    /// The icons (from 2025-11-25).
    pub fn icons(&self) -> &[Icon] {
        &self.wire.icons
    }

    /// The definition's `_meta` (from 2025-06-18).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.wire.meta.as_ref()
    }

    /// The definition as it was sent, equal to [`Tool::definition`](crate::Tool::definition)
    /// in the client's revision.
    pub fn json(&self) -> &Value {
        &self.json
    }
}

/// A prompt as [`Client::list_prompts`](super::Client::list_prompts) received it:
/// its definition with its arguments, and the JSON as it was sent ([`ListedPrompt::json`]).
/// The title and `_meta` came in 2025-06-18, icons in 2025-11-25.
///
/// ```
/// use mcp_toolkit::{prompt, prompts, Server};
///
/// /// Asks the model to review code.
/// #[prompt(title = "Code review", meta(team = "dev"))]
/// fn review_code(
///     /// The code to review
///     code: String,
///     /// The language it is written in
///     language: Option<String>,
/// ) -> String {
///     format!("Review this {} code:\n\n{code}", language.as_deref().unwrap_or("source"))
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("dev", "1.0.0").prompts(prompts![review_code]).test_client()?;
/// let prompts = client.list_prompts().await?;
/// let review = &prompts[0];
/// assert_eq!(review.name(), "review_code");
/// assert_eq!(review.title(), Some("Code review"));
/// assert_eq!(review.description(), Some("Asks the model to review code."));
/// let arguments = review.arguments();
/// assert_eq!((arguments[0].name.as_str(), arguments[0].required), ("code", true));
/// assert_eq!(arguments[1].description.as_deref(), Some("The language it is written in"));
/// assert!(review.icons().is_empty());
/// assert_eq!(review.meta().unwrap()["team"], "dev");
/// assert_eq!(review.json()["arguments"][1]["required"], false);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ListedPrompt {
    wire: WirePrompt,
    json: Value,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct WirePrompt {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    arguments: Vec<PromptArgument>,
    #[serde(default)]
    icons: Vec<Icon>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl Listed for ListedPrompt {
    const METHOD: &'static str = "prompts/list";
    const KEY: &'static str = "prompts";
    const KIND: Option<ListKind> = Some(ListKind::Prompts);
    const WHAT: &'static str = "a `Prompt`";

    fn read(json: Value) -> Result<ListedPrompt, serde_json::Error> {
        read(json).map(|(wire, json)| ListedPrompt { wire, json })
    }
}

impl ListedPrompt {
    /// The name clients ask for.
    pub fn name(&self) -> &str {
        &self.wire.name
    }

    /// The display title (from 2025-06-18).
    pub fn title(&self) -> Option<&str> {
        self.wire.title.as_deref()
    }

    /// What the prompt is for.
    pub fn description(&self) -> Option<&str> {
        self.wire.description.as_deref()
    }

    /// The arguments it takes, in order; empty when it takes none.
    pub fn arguments(&self) -> &[PromptArgument] {
        &self.wire.arguments
    }

    /// The icons (from 2025-11-25).
    pub fn icons(&self) -> &[Icon] {
        &self.wire.icons
    }

    /// The definition's `_meta` (from 2025-06-18).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.wire.meta.as_ref()
    }

    /// The definition as it was sent.
    pub fn json(&self) -> &Value {
        &self.json
    }
}

/// A resource with a fixed URI as
/// [`Client::list_resources`](super::Client::list_resources) received it: its
/// definition, and the JSON as it was sent ([`ListedResource::json`]). The title, `_meta`
/// and the annotations' `lastModified` came in 2025-06-18, icons in 2025-11-25.
///
/// ```
/// use mcp_toolkit::content::Role;
/// use mcp_toolkit::{resource, resources, Server};
///
/// /// The project's README.
/// #[resource(uri = "docs://readme", mime_type = "text/markdown", size = 7, annotations(audience = ["user"]))]
/// fn readme() -> &'static str {
///     "# Notes"
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("docs", "1.0.0").resources(resources![readme]).test_client()?;
/// let resources = client.list_resources().await?;
/// let readme = &resources[0];
/// assert_eq!((readme.uri(), readme.name()), ("docs://readme", "readme"));
/// assert_eq!(readme.title(), Some("Readme"));
/// assert_eq!(readme.description(), Some("The project's README."));
/// assert_eq!((readme.mime_type(), readme.size()), (Some("text/markdown"), Some(7)));
/// assert_eq!(readme.annotations().unwrap().audience, Some(vec![Role::User]));
/// assert!(readme.icons().is_empty() && readme.meta().is_none());
/// assert_eq!(readme.json()["size"], 7);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ListedResource {
    wire: WireResource,
    json: Value,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireResource {
    uri: String,
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default)]
    annotations: Option<Annotations>,
    #[serde(default)]
    icons: Vec<Icon>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl Listed for ListedResource {
    const METHOD: &'static str = "resources/list";
    const KEY: &'static str = "resources";
    const KIND: Option<ListKind> = Some(ListKind::Resources);
    const WHAT: &'static str = "a `Resource`";

    fn read(json: Value) -> Result<ListedResource, serde_json::Error> {
        read(json).map(|(wire, json)| ListedResource { wire, json })
    }
}

impl ListedResource {
    /// The resource's URI.
    pub fn uri(&self) -> &str {
        &self.wire.uri
    }

    /// Its programmatic name.
    pub fn name(&self) -> &str {
        &self.wire.name
    }

    /// The display title (from 2025-06-18).
    pub fn title(&self) -> Option<&str> {
        self.wire.title.as_deref()
    }

    /// What the resource is.
    pub fn description(&self) -> Option<&str> {
        self.wire.description.as_deref()
    }

    /// The MIME type of its contents, when declared.
    pub fn mime_type(&self) -> Option<&str> {
        self.wire.mime_type.as_deref()
    }

    /// The length of its contents in bytes, when declared.
    pub fn size(&self) -> Option<u64> {
        self.wire.size
    }

    /// The hints about its contents: audience, priority, and `lastModified` from
    /// 2025-06-18.
    pub fn annotations(&self) -> Option<&Annotations> {
        self.wire.annotations.as_ref()
    }

    /// The icons (from 2025-11-25).
    pub fn icons(&self) -> &[Icon] {
        &self.wire.icons
    }

    /// The definition's `_meta` (from 2025-06-18).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.wire.meta.as_ref()
    }

    /// The definition as it was sent.
    pub fn json(&self) -> &Value {
        &self.json
    }
}

/// A resource template as
/// [`Client::list_resource_templates`](super::Client::list_resource_templates)
/// received it: its definition, and the JSON as it was sent
/// ([`ListedResourceTemplate::json`]). The title and `_meta` came in 2025-06-18, icons in
/// 2025-11-25.
///
/// ```
/// use mcp_toolkit::{resource, resources, Server};
///
/// /// A user's profile.
/// #[resource(uri = "users://{user_id}/profile", mime_type = "application/json")]
/// fn profile(user_id: u64) -> String {
///     format!(r#"{{"id": {user_id}}}"#)
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("users", "1.0.0").resources(resources![profile]).test_client()?;
/// let templates = client.list_resource_templates().await?;
/// let profile = &templates[0];
/// assert_eq!(profile.uri_template(), "users://{user_id}/profile");
/// assert_eq!((profile.name(), profile.title()), ("profile", Some("Profile")));
/// assert_eq!(profile.description(), Some("A user's profile."));
/// assert_eq!(profile.mime_type(), Some("application/json"));
/// assert!(profile.annotations().is_none() && profile.icons().is_empty() && profile.meta().is_none());
/// assert_eq!(profile.json()["uriTemplate"], "users://{user_id}/profile");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ListedResourceTemplate {
    wire: WireTemplate,
    json: Value,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireTemplate {
    uri_template: String,
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    annotations: Option<Annotations>,
    #[serde(default)]
    icons: Vec<Icon>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl Listed for ListedResourceTemplate {
    const METHOD: &'static str = "resources/templates/list";
    const KEY: &'static str = "resourceTemplates";
    const KIND: Option<ListKind> = Some(ListKind::ResourceTemplates);
    const WHAT: &'static str = "a `ResourceTemplate`";

    fn read(json: Value) -> Result<ListedResourceTemplate, serde_json::Error> {
        read(json).map(|(wire, json)| ListedResourceTemplate { wire, json })
    }
}

impl ListedResourceTemplate {
    /// The RFC 6570 URI template.
    pub fn uri_template(&self) -> &str {
        &self.wire.uri_template
    }

    /// Its programmatic name.
    pub fn name(&self) -> &str {
        &self.wire.name
    }

    /// The display title (from 2025-06-18).
    pub fn title(&self) -> Option<&str> {
        self.wire.title.as_deref()
    }

    /// What the resources it matches are.
    pub fn description(&self) -> Option<&str> {
        self.wire.description.as_deref()
    }

    /// The MIME type of their contents, when declared.
    pub fn mime_type(&self) -> Option<&str> {
        self.wire.mime_type.as_deref()
    }

    /// The hints about their contents: audience, priority, and `lastModified` from
    /// 2025-06-18.
    pub fn annotations(&self) -> Option<&Annotations> {
        self.wire.annotations.as_ref()
    }

    /// The icons (from 2025-11-25).
    pub fn icons(&self) -> &[Icon] {
        &self.wire.icons
    }

    /// The definition's `_meta` (from 2025-06-18).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.wire.meta.as_ref()
    }

    /// The definition as it was sent.
    pub fn json(&self) -> &Value {
        &self.json
    }
}

/// A filled-in prompt as [`Client::get_prompt`](super::Client::get_prompt)
/// received it: its messages as [`PromptMessage`]s, its description and `_meta`, and the
/// response as it was sent ([`PromptResponse::response`]).
///
/// ```
/// use mcp_toolkit::content::Role;
/// use mcp_toolkit::prompt::{GetPromptResult, PromptMessage};
/// use mcp_toolkit::{prompt, prompts, Server};
/// use serde_json::json;
///
/// /// Plans a trip.
/// #[prompt]
/// fn plan_trip(
///     /// Where to
///     city: String,
/// ) -> GetPromptResult {
///     GetPromptResult::new(vec![
///         PromptMessage::user(format!("Plan three days in {city}.")),
///         PromptMessage::assistant("Which season?"),
///     ])
///     .with_description("A trip to plan")
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let client = Server::new("travel", "1.0.0").prompts(prompts![plan_trip]).test_client()?;
/// let filled = client.get_prompt("plan_trip", json!({"city": "Lisbon"})).await?;
/// assert_eq!(filled.text(), Some("Plan three days in Lisbon."));
/// assert_eq!(filled.messages()[1], PromptMessage::assistant("Which season?"));
/// assert_eq!(filled.messages()[1].role, Role::Assistant);
/// assert_eq!(filled.description(), Some("A trip to plan"));
/// assert_eq!(filled.meta().unwrap()["io.modelcontextprotocol/serverInfo"]["name"], "travel");
/// assert_eq!(filled.response()["result"]["resultType"], "complete");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PromptResponse {
    result: GetPromptResult,
    response: Value,
}

impl PromptResponse {
    pub(super) fn new(result: GetPromptResult, response: Value) -> PromptResponse {
        PromptResponse { result, response }
    }

    /// The messages, in order.
    pub fn messages(&self) -> &[PromptMessage] {
        &self.result.messages
    }

    /// The text of the first message that is text, if there is one.
    pub fn text(&self) -> Option<&str> {
        self.result.messages.iter().find_map(|m| m.content.as_text())
    }

    /// What the filled-in prompt is, when the prompt said.
    pub fn description(&self) -> Option<&str> {
        self.result.description.as_deref()
    }

    /// The result's `_meta` (in 2026-07-28 it names the server:
    /// `io.modelcontextprotocol/serverInfo`).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.result.meta.as_ref()
    }

    /// The JSON-RPC response as the server wrote it, for assertions on the exact wire
    /// shape of the revision.
    pub fn response(&self) -> &Value {
        &self.response
    }
}

/// What [`Client::read_resource`](super::Client::read_resource) received: the
/// contents, text or base64 blobs, each with its URI and MIME type; in revision 2026-07-28
/// the cache hints; and the response as it was sent ([`ReadResponse::response`]).
///
/// ```
/// use mcp_toolkit::content::ResourceContents;
/// use mcp_toolkit::{resource, resources, resource::CacheScope, Server, protocol::ProtocolVersion};
///
/// /// The README.
/// #[resource(uri = "docs://readme", mime_type = "text/markdown", cache(ttl_ms = 60_000))]
/// fn readme() -> &'static str {
///     "# Notes"
/// }
///
/// /// The logo.
/// #[resource(uri = "docs://logo.png", mime_type = "image/png")]
/// fn logo() -> Vec<u8> {
///     vec![0x89, b'P', b'N', b'G']
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
/// let server = || Server::new("docs", "1.0.0").resources(resources![readme, logo]);
/// let client = server().test_client()?;
/// let read = client.read_resource("docs://readme").await?;
/// assert_eq!(read.text(), Some("# Notes"));
/// assert_eq!((read.ttl_ms(), read.cache_scope()), (Some(60_000), Some(CacheScope::Public)));
///
/// let logo = client.read_resource("docs://logo.png").await?;
/// assert_eq!(logo.text(), None);
/// match &logo.contents()[0] {
///     ResourceContents::Blob { uri, mime_type, blob } => {
///         assert_eq!((uri.as_str(), mime_type.as_deref()), ("docs://logo.png", Some("image/png")));
///         assert_eq!(blob, "iVBORw==");
///     }
///     other => panic!("expected a blob, got {other:?}"),
/// }
///
/// // The legacy revisions have no cache hints.
/// let legacy = server().test_client_legacy(ProtocolVersion::V2025_11_25).await?;
/// let read = legacy.read_resource("docs://readme").await?;
/// assert_eq!((read.ttl_ms(), read.cache_scope(), read.meta()), (None, None, None));
/// assert_eq!(read.response()["result"]["contents"][0]["mimeType"], "text/markdown");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReadResponse {
    wire: WireRead,
    response: Value,
}

/// A `ReadResourceResult` as it travels, in any revision.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WireRead {
    contents: Vec<ResourceContents>,
    #[serde(default)]
    ttl_ms: Option<u64>,
    #[serde(default)]
    cache_scope: Option<CacheScope>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

impl ReadResponse {
    pub(super) fn new(wire: WireRead, response: Value) -> ReadResponse {
        ReadResponse { wire, response }
    }

    /// The contents read: one for most resources, more when the resource gave more.
    pub fn contents(&self) -> &[ResourceContents] {
        &self.wire.contents
    }

    /// The text of the first text contents, if there is one.
    pub fn text(&self) -> Option<&str> {
        self.wire.contents.iter().find_map(|contents| match contents {
            ResourceContents::Text { text, .. } => Some(text.as_str()),
            ResourceContents::Blob { .. } => None,
        })
    }

    /// How long, in milliseconds, the client may keep what it read (`ttlMs`, revision
    /// 2026-07-28; `0` says to read again each time).
    pub fn ttl_ms(&self) -> Option<u64> {
        self.wire.ttl_ms
    }

    /// Who may share what was read (`cacheScope`, revision 2026-07-28).
    pub fn cache_scope(&self) -> Option<CacheScope> {
        self.wire.cache_scope
    }

    /// The result's `_meta` (in 2026-07-28 it names the server:
    /// `io.modelcontextprotocol/serverInfo`).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.wire.meta.as_ref()
    }

    /// The JSON-RPC response as the server wrote it, for assertions on the exact wire
    /// shape of the revision.
    pub fn response(&self) -> &Value {
        &self.response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_item_that_does_not_match_its_type_is_named_with_its_method() {
        let error = read_item::<ListedTool>(3, json!({ "name": "add" })).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the `tools/list` result does not read as a `Tool` (item 3 of `tools`): missing field `inputSchema`"
        );
        let error =
            read_item::<ListedResourceTemplate>(0, json!({ "uri": "a://b", "name": "b" })).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the `resources/templates/list` result does not read as a `ResourceTemplate` (item 0 of `resourceTemplates`): missing field `uriTemplate`"
        );
        let error = read_item::<ListedResource>(1, json!({ "uri": "a://b", "name": "b", "size": "big" }))
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the `resources/list` result does not read as a `Resource` (item 1 of `resources`): invalid type: string \"big\", expected u64"),
            "{error}"
        );
        assert!(
            matches!(error, ClientError::ResultMismatch { ref method, .. } if method == "resources/list")
        );
    }

    #[test]
    fn the_oldest_revisions_fields_are_enough_and_the_json_is_kept() {
        // 2024-11-05: a prompt argument may leave `required` out, which means `false`.
        let sent = json!({ "name": "greet", "arguments": [{ "name": "who" }], "unknown": 1 });
        let prompt = read_item::<ListedPrompt>(0, sent.clone()).unwrap();
        assert_eq!(prompt.arguments()[0].name, "who");
        assert!(!prompt.arguments()[0].required);
        assert_eq!((prompt.title(), prompt.description()), (None, None));
        assert_eq!(prompt.json(), &sent);

        let tool =
            read_item::<ListedTool>(0, json!({ "name": "t", "inputSchema": { "type": "object" } })).unwrap();
        assert_eq!(tool.input_schema()["type"], "object");
        assert!(tool.icons().is_empty() && tool.annotations().is_none());
    }
}
