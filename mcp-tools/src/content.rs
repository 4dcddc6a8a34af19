//! The content blocks a tool result carries: text, images, audio, links to resources and
//! embedded resources.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One block of a tool's unstructured result.
///
/// ```
/// use mcp_toolkit::Content;
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
// Shown at the crate's root, its one documented path.
#[doc(hidden)]
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
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let block = Content::text("3 files changed");
    /// assert_eq!(block.as_text(), Some("3 files changed"));
    /// assert_eq!(serde_json::to_value(&block).unwrap(), serde_json::json!({"type": "text", "text": "3 files changed"}));
    /// ```
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from raw bytes, which it base64-encodes.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let png = Content::image(&[0x89, b'P', b'N', b'G'], "image/png");
    /// assert_eq!(
    ///     serde_json::to_value(&png).unwrap(),
    ///     serde_json::json!({"type": "image", "data": "iVBORw==", "mimeType": "image/png"})
    /// );
    /// ```
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Image(ImageContent {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from data already base64-encoded (from an API, say). The data is
    /// taken as it is, not checked.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let from_api = Content::image_base64("iVBORw==", "image/png");
    /// assert_eq!(from_api, Content::image(&[0x89, b'P', b'N', b'G'], "image/png"));
    /// ```
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Image(ImageContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An audio block from data already base64-encoded. The data is taken as it is, not
    /// checked.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let clip = Content::audio_base64("UklGRg==", "audio/wav");
    /// assert_eq!(clip, Content::audio(b"RIFF", "audio/wav"));
    /// ```
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Audio(AudioContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An audio block from raw bytes, which it base64-encodes.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let clip = Content::audio(b"RIFF", "audio/wav");
    /// assert_eq!(
    ///     serde_json::to_value(&clip).unwrap(),
    ///     serde_json::json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
    /// );
    /// ```
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Audio(AudioContent {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// A link to a resource, by URI and name. Build a [`ResourceLink`] to give its title,
    /// MIME type or size too.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let link = Content::resource_link("file:///reports/q3.csv", "q3.csv");
    /// assert_eq!(
    ///     serde_json::to_value(&link).unwrap(),
    ///     serde_json::json!({"type": "resource_link", "uri": "file:///reports/q3.csv", "name": "q3.csv"})
    /// );
    /// ```
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink(ResourceLink::new(uri, name))
    }

    /// An embedded text resource: the contents of the resource at `uri`, sent in the result.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let readme = Content::embedded_text("file:///README.md", Some("text/markdown".into()), "# Notes");
    /// assert_eq!(
    ///     serde_json::to_value(&readme).unwrap(),
    ///     serde_json::json!({
    ///         "type": "resource",
    ///         "resource": {"uri": "file:///README.md", "mimeType": "text/markdown", "text": "# Notes"}
    ///     })
    /// );
    /// ```
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
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// let logo = Content::embedded_blob("file:///logo.png", None, &[0x89, b'P', b'N', b'G']);
    /// assert_eq!(
    ///     serde_json::to_value(&logo).unwrap(),
    ///     serde_json::json!({"type": "resource", "resource": {"uri": "file:///logo.png", "blob": "iVBORw=="}})
    /// );
    /// ```
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

    /// The text of a text block; `None` for any other block.
    ///
    /// ```
    /// use mcp_toolkit::Content;
    ///
    /// assert_eq!(Content::text("hello").as_text(), Some("hello"));
    /// assert_eq!(Content::image(b"", "image/png").as_text(), None);
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

/// Text for the model: the block [`Content::text`] makes, with room for annotations and
/// `_meta`.
///
/// ```
/// use mcp_toolkit::content::{Annotations, Content, Role, TextContent};
///
/// let mut note = TextContent::new("The build failed; see the log.");
/// let mut hints = Annotations::default();
/// hints.audience = Some(vec![Role::User]);
/// note.annotations = Some(hints);
/// let block = Content::from(note);
/// assert_eq!(block.as_text(), Some("The build failed; see the log."));
/// assert_eq!(serde_json::to_value(&block).unwrap()["annotations"]["audience"], serde_json::json!(["user"]));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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

impl TextContent {
    /// The text, with no annotations and no metadata (set the public fields for those).
    pub fn new(text: impl Into<String>) -> TextContent {
        TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// A base64-encoded image: the block [`Content::image`] makes.
///
/// ```
/// use mcp_toolkit::content::{Content, ImageContent};
///
/// let Content::Image(image) = Content::image(&[0x89, b'P', b'N', b'G'], "image/png") else { unreachable!() };
/// assert_eq!(image.data, "iVBORw==");
/// assert_eq!(image.mime_type, "image/png");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

/// Base64-encoded audio: the block [`Content::audio`] makes.
///
/// ```
/// use mcp_toolkit::content::{AudioContent, Content};
///
/// let Content::Audio(clip) = Content::audio(b"RIFF", "audio/wav") else { unreachable!() };
/// assert_eq!(clip.data, "UklGRg==");
/// assert_eq!(clip.mime_type, "audio/wav");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

/// A link to a resource the client can read, with what [`Content::resource_link`] leaves
/// out.
///
/// ```
/// use mcp_toolkit::content::{Content, ResourceLink};
///
/// let mut link = ResourceLink::new("file:///reports/q3.csv", "q3.csv");
/// link.title = Some("Third-quarter sales".into());
/// link.mime_type = Some("text/csv".into());
/// link.size = Some(48_213);
/// assert_eq!(
///     serde_json::to_value(Content::from(link)).unwrap(),
///     serde_json::json!({
///         "type": "resource_link", "uri": "file:///reports/q3.csv", "name": "q3.csv",
///         "title": "Third-quarter sales", "mimeType": "text/csv", "size": 48213
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

impl ResourceLink {
    /// A link to the resource at `uri`, called `name`; the other fields are `None` (set
    /// them for a title, a description, a MIME type, a size, annotations or metadata).
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> ResourceLink {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            meta: None,
        }
    }
}

/// A resource's contents, embedded in a result: the block [`Content::embedded_text`] and
/// [`Content::embedded_blob`] make.
///
/// ```
/// use mcp_toolkit::content::{Annotations, Content, EmbeddedResource, ResourceContents};
///
/// let mut page = EmbeddedResource::new(ResourceContents::Text {
///     uri: "https://example.com/".into(),
///     mime_type: Some("text/html".into()),
///     text: "<h1>Example</h1>".into(),
/// });
/// let mut annotations = Annotations::default();
/// annotations.priority = Some(0.2);
/// page.annotations = Some(annotations);
/// let json = serde_json::to_value(Content::from(page)).unwrap();
/// assert_eq!(json["type"], "resource");
/// assert_eq!(json["resource"]["text"], "<h1>Example</h1>");
/// assert_eq!(json["annotations"]["priority"], 0.2);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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

impl EmbeddedResource {
    /// The contents, with no annotations and no metadata (set the public fields for those).
    pub fn new(resource: ResourceContents) -> EmbeddedResource {
        EmbeddedResource {
            resource,
            annotations: None,
            meta: None,
        }
    }
}

/// The contents of a resource: text or a base64-encoded blob. On the wire the two are told
/// apart by their `text` or `blob` member.
///
/// ```
/// use mcp_toolkit::content::ResourceContents;
///
/// let read: ResourceContents =
///     serde_json::from_value(serde_json::json!({"uri": "file:///logo.png", "blob": "iVBORw=="})).unwrap();
/// match read {
///     ResourceContents::Blob { uri, mime_type, blob } => {
///         assert_eq!(uri, "file:///logo.png");
///         assert_eq!(mime_type, None);
///         assert_eq!(blob, "iVBORw==");
///     }
///     ResourceContents::Text { .. } => unreachable!("a `blob` member makes it binary"),
/// }
/// ```
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

/// Hints to the client about a content block: who it is for, how much it matters, when it
/// changed. Fields left `None` are not sent.
///
/// ```
/// use mcp_toolkit::content::{Annotations, Role};
///
/// let mut hints = Annotations::default();
/// hints.audience = Some(vec![Role::User, Role::Assistant]);
/// hints.priority = Some(1.0);
/// hints.last_modified = Some("2025-06-18T12:00:00Z".into());
/// assert_eq!(
///     serde_json::to_value(&hints).unwrap(),
///     serde_json::json!({"audience": ["user", "assistant"], "priority": 1.0, "lastModified": "2025-06-18T12:00:00Z"})
/// );
/// assert_eq!(serde_json::to_value(Annotations::default()).unwrap(), serde_json::json!({}));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
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

/// A party of the conversation, in [`Annotations::audience`].
///
/// ```
/// use mcp_toolkit::content::Role;
///
/// assert_eq!(serde_json::to_value(Role::User).unwrap(), "user");
/// assert_eq!(serde_json::from_value::<Role>("assistant".into()).unwrap(), Role::Assistant);
/// ```
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

// A block in the formats of model APIs, for programs that call a model directly
// (`GetPromptResult::to_openai_messages`, `CallToolResult::to_anthropic_block`, ...). What an
// API cannot carry in a message of that role goes as a note in words, never dropped.
impl Content {
    /// The block in words: its text, an embedded text resource's text, or what it is.
    pub(crate) fn model_text(&self) -> String {
        match self {
            Content::Text(text) => text.text.clone(),
            Content::Image(image) => format!("[an image, {}]", image.mime_type),
            Content::Audio(audio) => format!("[audio, {}]", audio.mime_type),
            Content::ResourceLink(link) => format!("[a resource: {}]", link.uri),
            Content::Resource(embedded) => match &embedded.resource {
                ResourceContents::Text { text, .. } => text.clone(),
                ResourceContents::Blob { uri, .. } => format!("[an embedded resource: {uri}]"),
            },
        }
    }

    /// The block as a part of an OpenAI chat message's `content`. Only a user message may
    /// carry images (`image_url` with a data URL) and WAV or MP3 audio (`input_audio`);
    /// everything else is a text part.
    pub(crate) fn openai_part(&self, role: Role) -> Value {
        match (self, role) {
            (Content::Image(image), Role::User) => serde_json::json!({
                "type": "image_url",
                "image_url": { "url": format!("data:{};base64,{}", image.mime_type, image.data) },
            }),
            (Content::Audio(audio), Role::User) if openai_audio_format(&audio.mime_type).is_some() => {
                serde_json::json!({
                    "type": "input_audio",
                    "input_audio": { "data": audio.data, "format": openai_audio_format(&audio.mime_type) },
                })
            }
            _ => serde_json::json!({ "type": "text", "text": self.model_text() }),
        }
    }

    /// The block as an Anthropic content block. A user message may carry images (base64
    /// `image`) and embedded PDFs or text resources (`document`); `documents` says whether
    /// the place allows documents (a `tool_result` does not take them here).
    pub(crate) fn anthropic_block(&self, role: Role, documents: bool) -> Value {
        match (self, role) {
            (Content::Image(image), Role::User) => serde_json::json!({
                "type": "image",
                "source": { "type": "base64", "media_type": image.mime_type, "data": image.data },
            }),
            (Content::Resource(embedded), Role::User) if documents => match &embedded.resource {
                ResourceContents::Text { uri, text, .. } => serde_json::json!({
                    "type": "document",
                    "source": { "type": "text", "media_type": "text/plain", "data": text },
                    "title": uri,
                }),
                ResourceContents::Blob {
                    uri,
                    mime_type: Some(mime),
                    blob,
                } if mime == "application/pdf" => {
                    serde_json::json!({
                        "type": "document",
                        "source": { "type": "base64", "media_type": mime, "data": blob },
                        "title": uri,
                    })
                }
                _ => serde_json::json!({ "type": "text", "text": self.model_text() }),
            },
            _ => serde_json::json!({ "type": "text", "text": self.model_text() }),
        }
    }
}

/// OpenAI's name for an audio MIME type it takes as input, if it takes it.
fn openai_audio_format(mime_type: &str) -> Option<&'static str> {
    match mime_type {
        "audio/wav" | "audio/x-wav" | "audio/wave" => Some("wav"),
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        _ => None,
    }
}
