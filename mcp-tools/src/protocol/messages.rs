//! The params of the methods a tool server answers, borrowed from the request.

use super::arguments::RawArguments;
use super::types::{Implementation, LoggingLevel, RequestId};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The `_meta` keys of the 2026-07-28 revision.
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub(crate) const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The request `_meta` keys `RequestMeta` reads (its serde renames spell them out too).
pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

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

/// `tools/call`'s params as read: only well-formed JSON is required, so they can be read
/// in the envelope's pass; [`RawCall::check`] says what is wrong.
#[derive(Deserialize, Default)]
pub(crate) struct RawCall<'a> {
    #[serde(borrow, default, deserialize_with = "super::types::present")]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: RawArguments<'a>,
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<&'a RawValue>,
    /// Revision 2026-07-28: the answers to the questions of the call's last round.
    #[serde(rename = "inputResponses", borrow, default)]
    input_responses: Option<&'a RawValue>,
    /// Revision 2026-07-28: the state the last round handed the client.
    #[serde(rename = "requestState", borrow, default)]
    request_state: Option<&'a RawValue>,
}

impl<'a> RawCall<'a> {
    /// What a transport reads of the call before the engine does.
    pub(crate) fn head(&self) -> ParamsHead<'a> {
        ParamsHead {
            name: self.name,
            uri: None,
            task_id: None,
            meta: self.meta,
        }
    }

    /// The same call with another `_meta` (a middleware edited it).
    pub(crate) fn with_meta(self, meta: &'a RawValue) -> RawCall<'a> {
        RawCall {
            meta: Some(meta),
            ..self
        }
    }

    /// The arguments as read, for the HTTP transport's check of the headers that repeat
    /// them.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn arguments(&self) -> &RawArguments<'a> {
        &self.arguments
    }

    /// The call, once its name and `_meta` are known to be what they must.
    pub(crate) fn check(self) -> Result<CallToolParams<'a>, String> {
        let name = self.name.ok_or_else(|| "missing field `name`".to_owned())?;
        let name = match <&'a str>::deserialize(name) {
            Ok(name) => Cow::Borrowed(name),
            Err(_) => Cow::Owned(String::deserialize(name).map_err(|e| e.to_string())?),
        };
        let meta = match self.meta {
            Some(meta) => Option::<RequestMeta<'a>>::deserialize(meta).map_err(|e| e.to_string())?,
            None => None,
        };
        let request_state = match self.request_state {
            Some(state) => match <&'a str>::deserialize(state) {
                Ok(state) => Some(Cow::Borrowed(state)),
                Err(_) => Some(Cow::Owned(
                    String::deserialize(state).map_err(|_| "`requestState` must be a string".to_owned())?,
                )),
            },
            None => None,
        };
        Ok(CallToolParams {
            name,
            arguments: self.arguments,
            meta,
            input_responses: self.input_responses.filter(|raw| raw.get() != "null"),
            request_state,
        })
    }
}

/// `tools/call`.
pub(crate) struct CallToolParams<'a> {
    pub(crate) name: Cow<'a, str>,
    pub(crate) arguments: RawArguments<'a>,
    pub(crate) meta: Option<RequestMeta<'a>>,
    pub(crate) input_responses: Option<&'a RawValue>,
    pub(crate) request_state: Option<Cow<'a, str>>,
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
    #[serde(deserialize_with = "super::types::request_id_of")]
    pub(crate) request_id: RequestId,
}

/// `subscriptions/listen`.
#[derive(Deserialize)]
pub(crate) struct ListenParams {
    pub(crate) notifications: SubscriptionFilter,
}

impl ListenParams {
    /// Whether the client asked for the notifications a listen filter names
    /// (`toolsListChanged`, ...).
    pub(crate) fn asks_for(&self, filter: &str) -> bool {
        match filter {
            "toolsListChanged" => self.notifications.tools_list_changed == Some(true),
            "promptsListChanged" => self.notifications.prompts_list_changed == Some(true),
            "resourcesListChanged" => self.notifications.resources_list_changed == Some(true),
            _ => false,
        }
    }
}

/// What a `subscriptions/listen` asks to hear about.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SubscriptionFilter {
    #[serde(default)]
    pub(crate) tools_list_changed: Option<bool>,
    #[serde(default)]
    pub(crate) prompts_list_changed: Option<bool>,
    #[serde(default)]
    pub(crate) resources_list_changed: Option<bool>,
    /// The resource URIs to hear `notifications/resources/updated` for.
    #[serde(default)]
    pub(crate) resource_subscriptions: Option<Vec<String>>,
    /// The tasks to hear `notifications/tasks` for (the tasks extension).
    #[serde(default)]
    pub(crate) task_ids: Option<Vec<String>>,
}

/// `resources/subscribe` and `resources/unsubscribe` (up to 2025-11-25).
#[derive(Deserialize)]
pub(crate) struct SubscribeParams {
    pub(crate) uri: String,
}

/// What a transport reads of any request's params to route it and check its headers: the
/// members that name the target and the revision, read leniently (a member of the wrong
/// type, or given twice, is the engine's to report, with the request's id).
#[derive(Default, Clone, Copy)]
pub(crate) struct ParamsHead<'a> {
    pub(crate) name: Option<&'a RawValue>,
    pub(crate) uri: Option<&'a RawValue>,
    /// `tasks/get`, `tasks/update`, `tasks/cancel`: the task, which `Mcp-Name` repeats.
    pub(crate) task_id: Option<&'a RawValue>,
    pub(crate) meta: Option<&'a RawValue>,
}

impl<'a> ParamsHead<'a> {
    /// Reads the head of params sent as `raw` (an object); anything unreadable reads as no
    /// head.
    pub(crate) fn read(raw: &'a RawValue) -> ParamsHead<'a> {
        serde_json::from_str(raw.get()).unwrap_or_default()
    }

    /// The revision `_meta` names, if it is an object that names one.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn version(&self) -> Option<&'a RawValue> {
        ParamsHead::version_in(self.meta?)
    }

    /// The revision `meta` names, if it is an object that names one.
    pub(crate) fn version_in(meta: &RawValue) -> Option<&RawValue> {
        #[derive(Deserialize, Default)]
        struct Meta<'a> {
            #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow, default)]
            version: Option<&'a RawValue>,
        }
        serde_json::from_str::<Meta<'_>>(meta.get()).ok()?.version
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ParamsHead<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = ParamsHead<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("params")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut head = ParamsHead::default();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    match &*key {
                        "name" => head.name = Some(value),
                        "uri" => head.uri = Some(value),
                        "taskId" => head.task_id = Some(value),
                        "_meta" => head.meta = Some(value),
                        _ => {}
                    }
                }
                Ok(head)
            }
        }
        deserializer.deserialize_map(Members)
    }
}
