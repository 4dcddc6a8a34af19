//! MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): interactive views a host
//! renders for a tool, in a sandboxed iframe.
//!
//! A view is a resource with a `ui://` URI marked `app(..)`: it is served with the MIME type
//! [`MIME_TYPE`] and its [`View`] settings (the domains its Content Security Policy allows,
//! the permissions it asks for, whether it wants a border) as `_meta.ui`, on its
//! `resources/list` entry and on what `resources/read` answers. A tool marked
//! `app = "ui://..."` is linked to it: hosts that render apps show the tool's result in the
//! view; `visibility = "app"` keeps a tool the view calls out of the model's tool list.
//!
//! ```
//! use mcp_toolkit::app::{Audience, MIME_TYPE};
//! use mcp_toolkit::{resource, resources, tool, tools, protocol::ProtocolVersion, Server};
//! use serde_json::json;
//!
//! /// The board: every note as a card.
//! #[resource(uri = "ui://notes/board", app(csp(connect_domains = ["https://api.example.com"]), prefers_border))]
//! fn board() -> &'static str {
//!     "<!DOCTYPE html><html><body>...</body></html>"
//! }
//!
//! /// Lists the notes; shown on the board in hosts that render apps.
//! #[tool(app = "ui://notes/board")]
//! fn list_notes() -> &'static str {
//!     "no notes yet"
//! }
//!
//! /// Adds a note from the board; not offered to the model.
//! #[tool(app = "ui://notes/board", visibility = "app")]
//! fn board_add(title: String) -> String {
//!     format!("added {title}")
//! }
//!
//! let tools = tools![list_notes, board_add];
//! assert_eq!(tools[0].app(), Some("ui://notes/board"));
//! assert_eq!(tools[1].app_visibility(), Some(&[Audience::App][..]));
//! let listed = tools[1].definition(ProtocolVersion::V2025_11_25);
//! assert_eq!(listed["_meta"]["ui"], json!({"resourceUri": "ui://notes/board", "visibility": ["app"]}));
//!
//! let view = &resources![board][0];
//! assert_eq!(view.mime_type(), Some(MIME_TYPE));
//! assert_eq!(
//!     view.app().unwrap().meta(),
//!     json!({"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true})
//! );
//! # let _ = Server::new("notes", "1.0.0").tools(tools).resources(resources![board]);
//! ```

use crate::error::DefinitionError;
use serde_json::{Map, Value, json};

/// The extension's id, `io.modelcontextprotocol/ui`: a server with a view declares it (with
/// the MIME types it serves) in `initialize` and `server/discover`; a client that renders
/// views declares it in its capabilities.
pub const EXTENSION: &str = mcp_toolkit_core::app::EXTENSION;

/// The MIME type of a view, `text/html;profile=mcp-app`.
pub const MIME_TYPE: &str = mcp_toolkit_core::app::MIME_TYPE;

/// The flat `_meta` key older hosts read a tool's view from (`ui/resourceUri`), sent beside
/// `_meta.ui.resourceUri`.
pub(crate) const FLAT_RESOURCE_URI: &str = "ui/resourceUri";

/// A browser permission a view asks the host for; hosts may grant it (the iframe's `allow`),
/// and a view should not count on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Permission {
    /// The camera.
    Camera,
    /// The microphone.
    Microphone,
    /// The device's location.
    Geolocation,
    /// Writing to the clipboard.
    ClipboardWrite,
}

impl Permission {
    /// The key `_meta.ui.permissions` sends it under (`clipboardWrite`).
    pub fn key(self) -> &'static str {
        match self {
            Permission::Camera => "camera",
            Permission::Microphone => "microphone",
            Permission::Geolocation => "geolocation",
            Permission::ClipboardWrite => "clipboardWrite",
        }
    }
}

/// Who may see and call a tool linked to a view (`_meta.ui.visibility`); a tool says
/// nothing for both. Hosts keep a tool without [`Audience::Model`] out of the model's tool
/// list, and refuse a view's call of a tool without [`Audience::App`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// The model: the host lists the tool to it.
    Model,
    /// The server's views: they may call the tool through the host.
    App,
}

impl Audience {
    /// The word the protocol writes (`"model"`, `"app"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Model => "model",
            Audience::App => "app",
        }
    }
}

/// What a view declares to the host that renders it: the origins its Content Security
/// Policy allows, the permissions it asks for, a dedicated origin and whether it wants a
/// border. `#[resource(app(..))]` builds one; [`Resource::with_app`](crate::resource::Resource::with_app)
/// takes one made at run time.
///
/// An origin is `https://host` or `https://host:port` (also `http`, `wss`, `ws`), with no
/// path and no wildcard but a leading `*.`; anything else makes `with_app` refuse the view.
///
/// ```
/// use mcp_toolkit::app::{Permission, View};
/// use serde_json::json;
///
/// let view = View::new()
///     .connect_domains(["https://api.example.com", "wss://live.example.com"])
///     .resource_domains(["https://*.cdn.example.com"])
///     .permission(Permission::ClipboardWrite)
///     .prefers_border(false);
/// assert_eq!(
///     view.meta(),
///     json!({
///         "csp": {
///             "connectDomains": ["https://api.example.com", "wss://live.example.com"],
///             "resourceDomains": ["https://*.cdn.example.com"]
///         },
///         "permissions": {"clipboardWrite": {}},
///         "prefersBorder": false
///     })
/// );
/// assert_eq!(View::new().meta(), json!({}));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    connect_domains: Vec<String>,
    resource_domains: Vec<String>,
    frame_domains: Vec<String>,
    base_uri_domains: Vec<String>,
    permissions: Vec<Permission>,
    domain: Option<String>,
    prefers_border: Option<bool>,
}

impl View {
    /// A view that declares nothing: hosts apply their most restrictive policy (no network,
    /// no outside resources, no nested frames).
    pub fn new() -> View {
        View::default()
    }

    /// Adds origins the view may fetch from and open sockets to (CSP `connect-src`).
    pub fn connect_domains<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> View {
        self.connect_domains.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Adds origins the view may load scripts, styles, images, fonts and media from.
    pub fn resource_domains<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> View {
        self.resource_domains.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Adds origins the view may embed in frames of its own (CSP `frame-src`).
    pub fn frame_domains<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> View {
        self.frame_domains.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Adds origins the view's `<base href>` may point to (CSP `base-uri`).
    pub fn base_uri_domains<S: Into<String>>(mut self, origins: impl IntoIterator<Item = S>) -> View {
        self.base_uri_domains.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Asks for a browser permission (once, however often it is asked).
    pub fn permission(mut self, permission: Permission) -> View {
        if !self.permissions.contains(&permission) {
            self.permissions.push(permission);
        }
        self
    }

    /// Asks for a dedicated origin to run on, in the form the host documents (such as
    /// `a904794854a047f6.claudemcpcontent.com`).
    pub fn domain(mut self, domain: impl Into<String>) -> View {
        self.domain = Some(domain.into());
        self
    }

    /// Says whether the host should draw a border and background around the view (hosts'
    /// defaults differ, so saying is better).
    pub fn prefers_border(mut self, border: bool) -> View {
        self.prefers_border = Some(border);
        self
    }

    /// `_meta.ui` as the view's listing and its reads send it: only what was declared.
    pub fn meta(&self) -> Value {
        let mut ui = Map::new();
        let mut csp = Map::new();
        for (key, origins) in [
            ("connectDomains", &self.connect_domains),
            ("resourceDomains", &self.resource_domains),
            ("frameDomains", &self.frame_domains),
            ("baseUriDomains", &self.base_uri_domains),
        ] {
            if !origins.is_empty() {
                csp.insert(key.to_owned(), json!(origins));
            }
        }
        if !csp.is_empty() {
            ui.insert("csp".to_owned(), Value::Object(csp));
        }
        if !self.permissions.is_empty() {
            let asked = self.permissions.iter().map(|p| (p.key().to_owned(), json!({})));
            ui.insert("permissions".to_owned(), Value::Object(asked.collect()));
        }
        if let Some(domain) = &self.domain {
            ui.insert("domain".to_owned(), json!(domain));
        }
        if let Some(border) = self.prefers_border {
            ui.insert("prefersBorder".to_owned(), json!(border));
        }
        Value::Object(ui)
    }

    /// What is wrong with the view's settings, if anything: the first entry that is not an
    /// origin, or an empty domain.
    pub(crate) fn problem(&self) -> Option<String> {
        let origins = [
            ("connect_domains", &self.connect_domains),
            ("resource_domains", &self.resource_domains),
            ("frame_domains", &self.frame_domains),
            ("base_uri_domains", &self.base_uri_domains),
        ];
        for (directive, entries) in origins {
            for entry in entries {
                if let Err(error) = mcp_toolkit_core::app::check_origin(entry) {
                    return Some(format!("`{directive}`: {error}"));
                }
            }
        }
        match &self.domain {
            Some(domain) if domain.trim().is_empty() || domain.contains(char::is_whitespace) => {
                Some(format!("the domain `{domain}` is empty or has white space"))
            }
            _ => None,
        }
    }
}

/// Checks `uri` names a view, for the item `owner` describes.
pub(crate) fn check_uri(uri: &str, owner: impl FnOnce() -> String) -> Result<(), DefinitionError> {
    mcp_toolkit_core::app::check_view_uri(uri).map_err(|error| DefinitionError::InvalidView {
        owner: owner(),
        problem: format!("`{uri}`: {error}"),
    })
}

/// The `_meta` entries of a tool linked to a view: `ui` (`resourceUri`, `visibility`) and
/// the flat key older hosts read. Made once, when the link is set, so a server without views
/// links none of it.
pub(crate) fn tool_meta(uri: Option<&str>, visibility: Option<&[Audience]>) -> Map<String, Value> {
    let mut ui = Map::new();
    if let Some(uri) = uri {
        ui.insert("resourceUri".to_owned(), json!(uri));
    }
    if let Some(visibility) = visibility {
        let words: Vec<&str> = visibility.iter().map(|a| a.as_str()).collect();
        ui.insert("visibility".to_owned(), json!(words));
    }
    let mut meta = Map::new();
    meta.insert("ui".to_owned(), Value::Object(ui));
    if let Some(uri) = uri {
        meta.insert(FLAT_RESOURCE_URI.to_owned(), json!(uri));
    }
    meta
}

/// What `#[resource(uri = "ui://..", app(..))]` makes of its fn's name, for
/// `#[tool(app = board)]`, which links a tool to the view by name and so is checked at
/// compile time: naming anything else is an error there.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a view",
    label = "not a `#[resource(uri = \"ui://...\", app(..))]` fn",
    note = "`#[tool(app = ...)]` takes a view's URI (`app = \"ui://notes/board\"`) or the name of a fn marked `#[resource(uri = \"ui://...\", app)]`"
)]
pub trait ViewFn {
    /// The view's URI.
    const URI: &'static str;
}

/// What a view's fn (`#[resource(uri = "ui://..", app)]`) may return: its HTML as text, or
/// a `Result` of it. Anything else is a compile error at the fn's return type.
#[diagnostic::on_unimplemented(
    message = "a view's fn returns its HTML as text, not `{Self}`",
    label = "not text",
    note = "return `String`, `&'static str` or a `Result` of one: hosts render a view from the `text` of `resources/read`"
)]
pub trait ViewText {
    /// Names the trait in the macro's check, which says nothing more.
    #[doc(hidden)]
    const IS: () = ();
}

impl ViewText for String {}
impl ViewText for &'static str {}
impl<T: ViewText, E> ViewText for Result<T, E> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_views_problem_names_the_directive_and_the_entry() {
        let view = View::new()
            .connect_domains(["https://ok.example.com"])
            .frame_domains(["https://x.com/path"]);
        let problem = view.problem().unwrap();
        assert!(
            problem.starts_with("`frame_domains`: `https://x.com/path` has a path (`/path`);"),
            "{problem}"
        );
        assert_eq!(
            View::new().domain(" ").problem().unwrap(),
            "the domain ` ` is empty or has white space"
        );
        assert_eq!(View::new().connect_domains(["wss://a.b:443"]).problem(), None);
    }

    #[test]
    fn a_tools_meta_has_the_nested_and_the_flat_key() {
        assert_eq!(
            Value::Object(tool_meta(
                Some("ui://a/b"),
                Some(&[Audience::Model, Audience::App])
            )),
            json!({"ui": {"resourceUri": "ui://a/b", "visibility": ["model", "app"]}, "ui/resourceUri": "ui://a/b"})
        );
        assert_eq!(
            Value::Object(tool_meta(None, Some(&[Audience::App]))),
            json!({"ui": {"visibility": ["app"]}})
        );
    }
}
