//! The params of the methods a tool server answers, borrowed from the request.

use super::types::{Implementation, LoggingLevel, RequestId};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The `_meta` keys of the 2026-07-28 revision.
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub(crate) const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// A request's `_meta`: the per-request metadata of 2026-07-28, and the `progressToken`
/// of every revision.
#[derive(Deserialize, Default)]
pub(crate) struct RequestMeta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow, default)]
    pub(crate) protocol_version: Option<&'a RawValue>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", borrow, default)]
    pub(crate) client_capabilities: Option<&'a RawValue>,
    #[serde(rename = "io.modelcontextprotocol/clientInfo", borrow, default)]
    pub(crate) client_info: Option<&'a RawValue>,
    #[serde(rename = "io.modelcontextprotocol/logLevel", borrow, default)]
    pub(crate) log_level: Option<&'a RawValue>,
    #[serde(rename = "progressToken", borrow, default)]
    pub(crate) progress_token: Option<&'a RawValue>,
}

/// Params that carry only `_meta` (every method's params, read for the era).
#[derive(Deserialize, Default)]
pub(crate) struct MetaOnly<'a> {
    #[serde(rename = "_meta", borrow, default)]
    pub(crate) meta: Option<RequestMeta<'a>>,
}

/// `tools/call`.
#[derive(Deserialize)]
pub(crate) struct CallToolParams<'a> {
    #[serde(borrow)]
    pub(crate) name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(crate) arguments: Option<&'a RawValue>,
    #[serde(rename = "_meta", borrow, default)]
    pub(crate) meta: Option<RequestMeta<'a>>,
}

/// `tools/list`.
#[derive(Deserialize, Default)]
pub(crate) struct ListToolsParams<'a> {
    #[serde(borrow, default)]
    pub(crate) cursor: Option<Cow<'a, str>>,
    #[serde(rename = "_meta", borrow, default)]
    pub(crate) meta: Option<RequestMeta<'a>>,
}

/// Params that carry a request `_meta`.
pub(crate) trait WithMeta<'a> {
    /// Takes the `_meta` out.
    fn take_meta(&mut self) -> Option<RequestMeta<'a>>;
}

impl<'a> WithMeta<'a> for CallToolParams<'a> {
    fn take_meta(&mut self) -> Option<RequestMeta<'a>> {
        self.meta.take()
    }
}

impl<'a> WithMeta<'a> for ListToolsParams<'a> {
    fn take_meta(&mut self) -> Option<RequestMeta<'a>> {
        self.meta.take()
    }
}

impl<'a> WithMeta<'a> for MetaOnly<'a> {
    fn take_meta(&mut self) -> Option<RequestMeta<'a>> {
        self.meta.take()
    }
}

/// `initialize`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeParams {
    pub(crate) protocol_version: String,
    #[serde(default)]
    pub(crate) capabilities: Option<serde_json::Value>,
    #[serde(default)]
    pub(crate) client_info: Option<Implementation>,
}

/// `logging/setLevel`.
#[derive(Deserialize)]
pub(crate) struct SetLevelParams {
    pub(crate) level: LoggingLevel,
}

/// `notifications/cancelled`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CancelledParams {
    #[serde(deserialize_with = "super::jsonrpc::request_id_of")]
    pub(crate) request_id: RequestId,
}

/// `subscriptions/listen`.
#[derive(Deserialize)]
pub(crate) struct ListenParams {
    pub(crate) notifications: SubscriptionFilter,
}

/// What a `subscriptions/listen` asks to hear about.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SubscriptionFilter {
    #[serde(default)]
    pub(crate) tools_list_changed: Option<bool>,
}
