//! Small value types shared by every protocol revision.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::fmt;

/// A JSON-RPC request id: a string or an integer (MCP forbids `null`). A tool reads its
/// call's id with [`Context::request_id`](crate::Context::request_id).
///
/// ```
/// use mcp_toolkit::protocol::RequestId;
/// use serde_json::json;
///
/// let number: RequestId = serde_json::from_value(json!(7)).unwrap();
/// let string: RequestId = serde_json::from_value(json!("req-7")).unwrap();
/// assert_eq!(number, RequestId::Number(7));
/// assert_eq!(string, RequestId::String("req-7".into()));
/// assert_eq!(number.to_string(), "7");
/// assert_eq!(string.to_string(), "\"req-7\""); // quoted, as in the message
/// assert!(serde_json::from_value::<RequestId>(json!(null)).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The token a client puts in a request's `_meta.progressToken` to receive
/// `notifications/progress` about it; like a request id, a string or an integer. Tools do
/// not handle it: [`Context::report_progress`](crate::Context::report_progress) sends it.
///
/// ```
/// use mcp_toolkit::protocol::{ProgressToken, RequestId};
///
/// let token: ProgressToken = serde_json::from_str(r#""upload-1""#).unwrap();
/// assert_eq!(token, RequestId::String("upload-1".into()));
/// ```
pub type ProgressToken = RequestId;

/// The severity of a log message, as syslog orders them (RFC 5424): `Debug` is the least
/// severe, `Emergency` the most. A client that asks for a level receives that level and
/// the more severe ones ([`Context::log`](crate::Context::log)).
///
/// ```
/// use mcp_toolkit::protocol::LoggingLevel;
///
/// assert!(LoggingLevel::Error > LoggingLevel::Warning);
/// assert!(LoggingLevel::Debug < LoggingLevel::Info);
/// assert_eq!(serde_json::to_value(LoggingLevel::Warning).unwrap(), "warning");
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Detailed debugging information.
    Debug,
    /// Informational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// The name and version of an MCP implementation, as a client or server reports it. A tool
/// reads the client's with [`Context::client_info`](crate::Context::client_info).
///
/// ```
/// use mcp_toolkit::protocol::Implementation;
/// use serde_json::json;
///
/// let client: Implementation =
///     serde_json::from_value(json!({"name": "claude-ai", "version": "0.1.0"})).unwrap();
/// assert_eq!(client.name, "claude-ai");
/// assert_eq!(client.title, None);
/// assert_eq!(serde_json::to_value(&client).unwrap(), json!({"name": "claude-ai", "version": "0.1.0"}));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Implementation {
    /// The programmatic name.
    pub name: String,
    /// The version.
    pub version: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// A protocol revision this framework speaks. Revisions compare by date; a tool reads its
/// call's with [`Context::protocol_version`](crate::Context::protocol_version).
///
/// ```
/// use mcp_toolkit::protocol::ProtocolVersion;
///
/// let version = ProtocolVersion::V2025_06_18;
/// assert_eq!(version.to_string(), "2025-06-18");
/// assert!(version < ProtocolVersion::LATEST);
/// assert!(version.has_structured_output() && !version.is_modern());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2024-11-05`, the first revision.
    V2024_11_05,
    /// `2025-03-26`: Streamable HTTP, annotations, audio, batching.
    V2025_03_26,
    /// `2025-06-18`: structured output, titles, resource links.
    V2025_06_18,
    /// `2025-11-25`: icons; the last revision with the `initialize` handshake.
    V2025_11_25,
    /// `2026-07-28`: stateless, discovered with `server/discover`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every revision, oldest first.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// let dates: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
    /// assert_eq!(dates, ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
    /// ```
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest revision.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::LATEST, ProtocolVersion::V2026_07_28);
    /// assert_eq!(ProtocolVersion::ALL.last(), Some(&ProtocolVersion::LATEST));
    /// ```
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The revision's date string, as it travels in messages. `Display` writes the same.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::V2025_03_26.as_str(), "2025-03-26");
    /// assert_eq!(ProtocolVersion::V2025_03_26.to_string(), "2025-03-26");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a revision's date string; `None` for revisions this framework does not speak.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    /// assert_eq!(ProtocolVersion::parse("2025-06-18"), Some(ProtocolVersion::V2025_06_18));
    /// assert_eq!(ProtocolVersion::parse("2023-01-01"), None);
    /// ```
    pub fn parse(text: &str) -> Option<ProtocolVersion> {
        ProtocolVersion::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// Whether this is a stateless revision (no `initialize` handshake).
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// assert!(ProtocolVersion::V2026_07_28.is_modern());
    /// assert!(!ProtocolVersion::V2025_11_25.is_modern());
    /// ```
    pub const fn is_modern(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }

    /// Whether tool results may carry `structuredContent` and tools an `outputSchema`
    /// (from 2025-06-18 on). Older clients get only the text of a [`Json<T>`](crate::Json)
    /// result.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// assert!(ProtocolVersion::V2025_06_18.has_structured_output());
    /// assert!(!ProtocolVersion::V2025_03_26.has_structured_output());
    /// ```
    pub const fn has_structured_output(self) -> bool {
        matches!(
            self,
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 | ProtocolVersion::V2026_07_28
        )
    }

    /// Whether `structuredContent` and `outputSchema` must be JSON objects (they may be any
    /// JSON from 2026-07-28 on). Where they must, other values are sent wrapped as
    /// `{"result": ...}`.
    ///
    /// ```
    /// use mcp_toolkit::protocol::ProtocolVersion;
    ///
    /// assert!(ProtocolVersion::V2025_11_25.structured_output_must_be_object());
    /// assert!(!ProtocolVersion::V2026_07_28.structured_output_must_be_object());
    /// assert!(!ProtocolVersion::V2024_11_05.structured_output_must_be_object()); // it has none
    /// ```
    pub const fn structured_output_must_be_object(self) -> bool {
        matches!(self, ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25)
    }
}

/// The revision's text, so that APIs taking a revision as text (such as
/// [`Connector::protocol_version`](crate::client::Connector::protocol_version)) take a
/// `ProtocolVersion` too.
impl AsRef<str> for ProtocolVersion {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an `id` is one JSON-RPC allows here: a string, or an integer that fits 64 bits.
pub(crate) fn valid_id(raw: &RawValue) -> bool {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'"') => true,
        Some(b'-' | b'0'..=b'9') => text.parse::<i64>().is_ok(),
        _ => false,
    }
}

/// Parses a request id from a `notifications/cancelled`.
pub(crate) fn request_id_of<'de, D: Deserializer<'de>>(deserializer: D) -> Result<RequestId, D::Error> {
    let raw = <&RawValue>::deserialize(deserializer)?;
    if !valid_id(raw) {
        return Err(de::Error::custom("not a request id"));
    }
    serde_json::from_str(raw.get()).map_err(de::Error::custom)
}

/// `Some` for a member that is present, even when it is `null` (which `Option` alone would
/// fold into absence).
pub(crate) fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}
