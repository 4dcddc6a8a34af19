//! Encoding responses and notifications, shaped for the protocol revision they go to.
//!
//! Modern results (2026-07-28) carry `resultType` and the server's identity in `_meta`;
//! legacy ones carry only what their revision defines.

use crate::content::Content;
use crate::engine::wire::era::supported_versions;
use crate::engine::wire::failure::Failure;
use crate::engine::wire::outbox::{ErrorInfo, Outbox};
use crate::engine::wire::rounds::InputRequest;
use crate::prompt::GetPromptResult;
use crate::protocol::jsonrpc::{self, ErrorObject};
use crate::protocol::messages::{META_SERVER_INFO, META_SUBSCRIPTION_ID};
use crate::protocol::{ErrorCode, ProtocolVersion, RequestId};
use crate::result::CallToolResult;
use crate::tool::Icon;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;

/// Who the server says it is.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) website_url: Option<String>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) instructions: Option<String>,
}

impl ServerInfo {
    /// A server known by its name and version only.
    pub(crate) fn new(name: String, version: String) -> ServerInfo {
        ServerInfo {
            name,
            version,
            title: None,
            description: None,
            website_url: None,
            icons: Vec::new(),
            instructions: None,
        }
    }

    /// `serverInfo` as a revision defines it.
    pub(crate) fn implementation(&self, version: ProtocolVersion) -> Value {
        let mut info = json!({ "name": self.name, "version": self.version });
        if version >= ProtocolVersion::V2025_06_18
            && let Some(title) = &self.title
        {
            info["title"] = json!(title);
        }
        if version >= ProtocolVersion::V2025_11_25 {
            if let Some(description) = &self.description {
                info["description"] = json!(description);
            }
            if let Some(url) = &self.website_url {
                info["websiteUrl"] = json!(url);
            }
            if !self.icons.is_empty() {
                info["icons"] = json!(self.icons);
            }
        }
        info
    }
}

/// The capabilities this server declares, in every era.
pub(crate) fn error(id: Option<&RawValue>, code: ErrorCode, message: &str, data: Option<Value>) -> Vec<u8> {
    let mut out = Vec::with_capacity(96 + message.len());
    jsonrpc::write_error(&mut out, id, &ErrorObject { code, message, data });
    out
}

pub(crate) fn empty_result(id: &RawValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(48);
    jsonrpc::write_result(&mut out, id, &json!({}));
    out
}

/// A request of the server's own: `{"jsonrpc":"2.0","id":<id>,"method":..,"params":..}`.
pub(crate) fn request(id: &RequestId, method: &str, params: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    let _ = serde_json::to_writer(
        &mut out,
        &json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }),
    );
    out
}

pub(crate) fn notification<T: Serialize + ?Sized>(method: &str, params: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    jsonrpc::write_notification(&mut out, method, params);
    out
}

/// `"_meta":{"io.modelcontextprotocol/serverInfo":...}` entries, for modern results.
struct Identity<'a>(&'a RawValue);

impl Serialize for Identity<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(META_SERVER_INFO, self.0)?;
        map.end()
    }
}

pub(crate) fn discover(
    id: &RawValue,
    info: &ServerInfo,
    capabilities: Value,
    ttl_ms: u64,
    identity: &RawValue,
) -> Vec<u8> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Discover<'a> {
        result_type: &'static str,
        supported_versions: Vec<&'static str>,
        capabilities: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<&'a str>,
        ttl_ms: u64,
        cache_scope: &'static str,
        #[serde(rename = "_meta")]
        meta: Identity<'a>,
    }
    let mut out = Vec::with_capacity(512);
    jsonrpc::write_result(
        &mut out,
        id,
        &Discover {
            result_type: "complete",
            supported_versions: supported_versions(),
            capabilities,
            instructions: info.instructions.as_deref(),
            ttl_ms,
            cache_scope: "public",
            meta: Identity(identity),
        },
    );
    out
}

pub(crate) fn initialize_result(
    id: &RawValue,
    info: &ServerInfo,
    version: ProtocolVersion,
    capabilities: Value,
) -> Vec<u8> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Initialize<'a> {
        protocol_version: &'static str,
        capabilities: Value,
        server_info: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<&'a str>,
    }
    let mut out = Vec::with_capacity(512);
    jsonrpc::write_result(
        &mut out,
        id,
        &Initialize {
            protocol_version: version.as_str(),
            capabilities,
            server_info: info.implementation(version),
            instructions: info.instructions.as_deref(),
        },
    );
    out
}

/// A list result (`tools/list`, ...) around a page already encoded, its items under `key`.
pub(crate) fn list_result(
    id: &RawValue,
    key: &str,
    page: &str,
    next: Option<&str>,
    modern: Option<&RawValue>,
    ttl_ms: u64,
    cache_scope: &str,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(page.len() + 256);
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(b",\"result\":{");
    if modern.is_some() {
        out.extend_from_slice(b"\"resultType\":\"complete\",");
    }
    let _ = serde_json::to_writer(&mut out, key);
    out.push(b':');
    out.extend_from_slice(page.as_bytes());
    if let Some(next) = next {
        out.extend_from_slice(b",\"nextCursor\":");
        let _ = serde_json::to_writer(&mut out, next);
    }
    if let Some(identity) = modern {
        out.extend_from_slice(
            format!(",\"ttlMs\":{ttl_ms},\"cacheScope\":\"{cache_scope}\",\"_meta\":").as_bytes(),
        );
        let _ = serde_json::to_writer(&mut out, &Identity(identity));
    }
    out.extend_from_slice(b"}}");
    out
}

/// A `tools/call` result as `version` defines it.
pub(crate) fn call_result(
    id: &RawValue,
    result: &CallToolResult,
    version: ProtocolVersion,
    wraps: bool,
    modern: Option<&RawValue>,
) -> Vec<u8> {
    if result.is_error() {
        crate::engine::wire::telemetry::tool_failed();
    }
    let mut out = Vec::with_capacity(
        128 + result
            .content()
            .iter()
            .map(|c| c.as_text().map_or(64, str::len))
            .sum::<usize>(),
    );
    jsonrpc::write_result(
        &mut out,
        id,
        &VersionedResult {
            result,
            version,
            wraps,
            modern,
        },
    );
    out
}

/// A tool's result as a `tasks/get` inlines it: as a `tools/call` of revision 2026-07-28
/// would have answered it.
pub(crate) fn call_result_value(result: &CallToolResult, wraps: bool, identity: &RawValue) -> Value {
    serde_json::to_value(VersionedResult {
        result,
        version: ProtocolVersion::V2026_07_28,
        wraps,
        modern: Some(identity),
    })
    .unwrap_or_default()
}

/// Marks `result` (an object) as a complete result of revision 2026-07-28: `resultType` and
/// the server's identity in `_meta`, beside what `_meta` holds already.
pub(crate) fn mark_complete(result: &mut Value, identity: &RawValue) {
    let Value::Object(members) = result else {
        return;
    };
    members.insert("resultType".into(), json!("complete"));
    let identity: Value = serde_json::from_str(identity.get()).unwrap_or(Value::Null);
    match members.get_mut("_meta") {
        Some(Value::Object(meta)) => {
            meta.insert(META_SERVER_INFO.into(), identity);
        }
        _ => {
            members.insert("_meta".into(), json!({ META_SERVER_INFO: identity }));
        }
    }
}

/// A response whose result is `result`.
pub(crate) fn result<T: Serialize + ?Sized>(id: &RawValue, result: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    jsonrpc::write_result(&mut out, id, result);
    out
}

struct VersionedResult<'a> {
    result: &'a CallToolResult,
    version: ProtocolVersion,
    wraps: bool,
    modern: Option<&'a RawValue>,
}

impl Serialize for VersionedResult<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = self.result;
        let mut map = serializer.serialize_map(None)?;
        if self.modern.is_some() {
            map.serialize_entry("resultType", "complete")?;
        }
        map.serialize_entry("content", &VersionedContent(r.content(), self.version))?;
        if let (true, Some(structured)) = (self.version.has_structured_output(), r.structured_content()) {
            let is_object = structured.get().starts_with('{');
            if self.wraps || (self.version.structured_output_must_be_object() && !is_object) {
                map.serialize_entry("structuredContent", &Wrapped(structured))?;
            } else {
                map.serialize_entry("structuredContent", structured)?;
            }
        }
        if r.is_error() {
            map.serialize_entry("isError", &true)?;
        }
        match (self.modern, r.meta()) {
            (Some(identity), meta) => map.serialize_entry("_meta", &MergedMeta(identity, meta))?,
            (None, Some(meta)) if self.version >= ProtocolVersion::V2025_06_18 => {
                map.serialize_entry("_meta", meta)?
            }
            (None, _) => {}
        }
        map.end()
    }
}

/// `{"result": <value>}`, for revisions that need structured output to be an object.
struct Wrapped<'a>(&'a RawValue);

impl Serialize for Wrapped<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("result", self.0)?;
        map.end()
    }
}

struct MergedMeta<'a>(&'a RawValue, Option<&'a serde_json::Map<String, Value>>);

impl Serialize for MergedMeta<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(META_SERVER_INFO, self.0)?;
        for (key, value) in self.1.into_iter().flatten() {
            if key != META_SERVER_INFO {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// Content blocks, with those a revision does not know turned into text.
struct VersionedContent<'a>(&'a [Content], ProtocolVersion);

impl Serialize for VersionedContent<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for block in self.0 {
            seq.serialize_element(&versioned(block, self.1))?;
        }
        seq.end()
    }
}

/// A content block as a revision can carry it: audio, which 2024-11-05 lacks, and a
/// resource link, which revisions before 2025-06-18 lack, become text saying what they were.
fn versioned(block: &Content, version: ProtocolVersion) -> Cow<'_, Content> {
    match (block, version) {
        (Content::Audio(audio), ProtocolVersion::V2024_11_05) => Cow::Owned(Content::text(format!(
            "[audio of type {} omitted: this protocol revision cannot carry audio]",
            audio.mime_type
        ))),
        (Content::ResourceLink(link), v) if v < ProtocolVersion::V2025_06_18 => {
            Cow::Owned(Content::text(format!("{}: {}", link.name, link.uri)))
        }
        _ => Cow::Borrowed(block),
    }
}

/// A `prompts/get` result: its messages with their content as the revision carries it;
/// `resultType` and the server's identity in `_meta` in revision 2026-07-28.
pub(crate) fn prompt_result(
    id: &RawValue,
    result: &GetPromptResult,
    version: ProtocolVersion,
    modern: Option<&RawValue>,
) -> Vec<u8> {
    let messages: Vec<Value> = result
        .messages
        .iter()
        .map(|message| json!({ "role": message.role, "content": versioned(&message.content, version) }))
        .collect();
    let mut body = serde_json::Map::new();
    if modern.is_some() {
        body.insert("resultType".into(), json!("complete"));
    }
    if let Some(description) = &result.description {
        body.insert("description".into(), json!(description));
    }
    body.insert("messages".into(), Value::Array(messages));
    let mut meta = match &result.meta {
        Some(meta) if version >= ProtocolVersion::V2025_06_18 => meta.clone(),
        _ => serde_json::Map::new(),
    };
    if let Some(identity) = modern {
        meta.insert(
            META_SERVER_INFO.into(),
            serde_json::from_str(identity.get()).unwrap_or(Value::Null),
        );
    }
    if !meta.is_empty() {
        body.insert("_meta".into(), Value::Object(meta));
    }
    let mut out = Vec::with_capacity(256);
    jsonrpc::write_result(&mut out, id, &body);
    out
}

pub(crate) fn listen_closed(id: &RawValue, subscription: &Value, identity: &RawValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(160);
    jsonrpc::write_result(
        &mut out,
        id,
        &json!({
            "resultType": "complete",
            "_meta": { META_SUBSCRIPTION_ID: subscription, META_SERVER_INFO: identity },
        }),
    );
    out
}

/// Sends a failure as an error response, tagged for the transport.
pub(crate) fn respond_failure(out: &Outbox, id: Option<&RawValue>, failure: Failure) {
    crate::engine::wire::telemetry::failed(failure.code, &failure.message);
    let info = ErrorInfo {
        code: failure.code,
        before_dispatch: failure.before_dispatch,
    };
    out.respond_error(error(id, failure.code, &failure.message, failure.data), info);
}

/// An `input_required` result (2026-07-28): the round's questions by key, and its sealed
/// state.
pub(crate) fn input_required(
    id: &RawValue,
    asked: &[InputRequest],
    state: &str,
    identity: &RawValue,
) -> Vec<u8> {
    let requests: serde_json::Map<String, Value> = asked
        .iter()
        .map(|request| {
            let body = json!({ "method": request.method, "params": request.params });
            (request.key.clone(), body)
        })
        .collect();
    let mut out = Vec::with_capacity(256);
    jsonrpc::write_result(
        &mut out,
        id,
        &json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": state,
            "_meta": { META_SERVER_INFO: identity },
        }),
    );
    out
}
