//! The content blocks a tool result carries: text, images, audio, links to resources and
//! embedded resources.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One block of a tool's unstructured result.
///
/// ```
/// use mcp_tools::Content;
///
/// let blocks = vec![
///     Content::text("Here is the chart:"),
///     Content::image(&[0x89, b'P', b'N', b'G'], "image/png"),
///     Content::resource_link("file:///reports/q3.csv", "q3.csv"),
/// ];
/// let json = serde_json::to_value(&blocks).unwrap();
/// assert_eq!(json[0], serde_json::json!({"type": "text", "text": "Here is the chart:"}));
/// assert_eq!(json[1]["data"], "iVBORw==");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text for the model.
    Text(TextContent),
    /// A base64-encoded image.
    Image(ImageContent),
    /// Base64-encoded audio (from protocol revision 2025-03-26).
    Audio(AudioContent),
    /// A link to a resource the client can read (from 2025-06-18).
    ResourceLink(ResourceLink),
    /// The contents of a resource, embedded.
    #[serde(rename = "resource")]
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from raw bytes, which it base64-encodes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Image(ImageContent {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from data already base64-encoded (from an API, say).
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Image(ImageContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An audio block from data already base64-encoded.
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Audio(AudioContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An audio block from raw bytes, which it base64-encodes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Audio(AudioContent {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// A link to a resource, by URI and name.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink(ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            meta: None,
        })
    }

    /// An embedded text resource.
    pub fn embedded_text(
        uri: impl Into<String>,
        mime_type: Option<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Text {
                uri: uri.into(),
                mime_type,
                text: text.into(),
            },
            annotations: None,
            meta: None,
        })
    }

    /// An embedded binary resource, which it base64-encodes.
    pub fn embedded_blob(uri: impl Into<String>, mime_type: Option<String>, bytes: &[u8]) -> Content {
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Blob {
                uri: uri.into(),
                mime_type,
                blob: base64::engine::general_purpose::STANDARD.encode(bytes),
            },
            annotations: None,
            meta: None,
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

/// Text for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extra metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A base64-encoded image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageContent {
    /// The base64-encoded bytes.
    pub data: String,
    /// The image's MIME type, such as `image/png`.
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extra metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// Base64-encoded audio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AudioContent {
    /// The base64-encoded bytes.
    pub data: String,
    /// The audio's MIME type, such as `audio/wav`.
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extra metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A link to a resource the client can read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extra metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A resource's contents, embedded in a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extra metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The contents of a resource: text or a base64-encoded blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text contents.
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary contents.
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The base64-encoded bytes.
        blob: String,
    },
}

/// Hints to the client about a content block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the content is for: `"user"`, `"assistant"` or both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// How important it is, from 0 (optional) to 1 (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When the content last changed, as ISO 8601 (from 2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// A party of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human.
    User,
    /// The model.
    Assistant,
}

impl From<TextContent> for Content {
    fn from(c: TextContent) -> Self {
        Content::Text(c)
    }
}

impl From<ImageContent> for Content {
    fn from(c: ImageContent) -> Self {
        Content::Image(c)
    }
}

impl From<AudioContent> for Content {
    fn from(c: AudioContent) -> Self {
        Content::Audio(c)
    }
}

impl From<ResourceLink> for Content {
    fn from(c: ResourceLink) -> Self {
        Content::ResourceLink(c)
    }
}

impl From<EmbeddedResource> for Content {
    fn from(c: EmbeddedResource) -> Self {
        Content::Resource(c)
    }
}
