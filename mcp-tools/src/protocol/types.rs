//! Small value types shared by every protocol revision.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A JSON-RPC request id: a string or an integer (MCP forbids `null`).
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
/// `notifications/progress` about it.
pub type ProgressToken = RequestId;

/// The severity of a log message, as syslog orders them (RFC 5424).
///
/// ```
/// use mcp_tools::protocol::LoggingLevel;
/// assert!(LoggingLevel::Error > LoggingLevel::Warning);
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

/// The name and version of an MCP implementation, as a client or server reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Implementation {
    /// The programmatic name.
    pub name: String,
    /// The version.
    pub version: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// A protocol revision this framework speaks.
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
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest revision.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The revision's date string, as it travels in messages.
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
    /// use mcp_tools::protocol::ProtocolVersion;
    /// assert_eq!(ProtocolVersion::parse("2025-06-18"), Some(ProtocolVersion::V2025_06_18));
    /// assert_eq!(ProtocolVersion::parse("2023-01-01"), None);
    /// ```
    pub fn parse(text: &str) -> Option<ProtocolVersion> {
        ProtocolVersion::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// Whether this is a stateless revision (no `initialize` handshake).
    pub const fn is_modern(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }

    /// Whether tool results may carry `structuredContent` and tools an `outputSchema`.
    pub const fn has_structured_output(self) -> bool {
        matches!(
            self,
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 | ProtocolVersion::V2026_07_28
        )
    }

    /// Whether `structuredContent` and `outputSchema` must be JSON objects (they may be any
    /// JSON from 2026-07-28 on).
    pub const fn structured_output_must_be_object(self) -> bool {
        matches!(self, ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
