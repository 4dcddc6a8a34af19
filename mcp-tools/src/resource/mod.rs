//! The resource model: a [`Resource`] is a fixed URI or an RFC 6570 template, and a
//! handler that reads it. `#[resource(uri = "..")]` builds one from a documented fn.

use crate::completion::{Completing, Completions, CompletionsBuilder};
use crate::content::{Annotations, ResourceContents};
use crate::context::{Context, FromContext, StateKey};
use crate::error::ToolError;
use crate::prompt::Work;
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::RawArguments;
use crate::result::Json;
use crate::tool::Icon;
use base64::Engine as _;
use mcp_toolkit_core::uri_template::{Template, Value as Matched};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fmt;
use std::sync::Arc;

/// The error a [`#[resource]`](macro@crate::resource) fn fails with, named for where it is
/// written: it is [`ToolError`], as every handler fails the same way. An `Err` answers
/// `resources/read` with a JSON-RPC error: [`ToolError::not_found`] says the URI names
/// nothing (`-32002` with the URI in `data`; `-32602` in revision 2026-07-28),
/// `ToolError::new(message)` sends its message, and anything else converted with `?` is
/// `internal error`, its detail logged.
///
/// ```
/// use mcp_toolkit::resource::ResourceError;
/// use mcp_toolkit::{resource, resources, Server};
///
/// /// A user's name.
/// #[resource(uri = "users://{id}/name")]
/// fn user_name(id: u64) -> Result<String, ResourceError> {
///     match id {
///         1 => Ok("Ada".to_owned()),
///         _ => Err(ResourceError::not_found(format!("there is no user {id}"))),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let client = Server::new("users", "1.0.0").resources(resources![user_name]).test_client()?;
/// assert_eq!(client.read_resource("users://1/name").await?.text(), Some("Ada"));
/// assert!(client.read_resource("users://2/name").await.is_err());
/// assert_eq!(client.last_response().unwrap()["error"]["data"]["uri"], "users://2/name");
/// # Ok(())
/// # }
/// ```
pub type ResourceError = ToolError;

/// A resource a server offers: a fixed URI (`docs://readme`), listed by `resources/list`,
/// or a URI template (`users://{user_id}/profile`), listed by `resources/templates/list`;
/// and how `resources/read` reads it. Made by `#[resource]`; cheap to clone.
#[derive(Clone)]
pub struct Resource {
    pub(crate) def: Arc<Definition>,
    pub(crate) handler: Reader,
}

/// How a resource is read: by its fn, or by handing out contents held in memory (a skill's
/// files).
#[derive(Clone)]
pub(crate) enum Reader {
    Fn(HandlerFn),
    Held(Arc<dyn Fn() -> ReadOutput + Send + Sync>),
}

#[derive(Clone)]
pub(crate) struct Definition {
    pub(crate) uri: String,
    /// The parsed template, for a URI with `{...}`.
    pub(crate) template: Option<Template>,
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) mime_type: Option<String>,
    /// The length of the contents in bytes; never a template's.
    pub(crate) size: Option<u64>,
    pub(crate) annotations: Option<Annotations>,
    /// The cache hints of a read (`ttlMs`, `cacheScope`), when declared.
    pub(crate) cache: Option<(u64, CacheScope)>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) meta: Option<Map<String, Value>>,
    /// What the resource declares as an MCP Apps view (`#[resource(app(..))]`), sent as
    /// `_meta.ui` on its listing and its reads.
    pub(crate) app: Option<crate::app::View>,
    /// `_meta.ui` of the view, made once when it is set.
    pub(crate) app_meta: Option<Value>,
    /// How each variable of a template completes: its choices (an enum's values), or a fn.
    pub(crate) completions: Completions,
    pub(crate) required_state: Vec<StateKey>,
    pub(crate) may_ask: bool,
}

pub(crate) type HandlerFn = fn(&Context, RawArguments<'_>) -> Work<ReadOutput>;

impl Resource {
    /// The URI, or the URI template.
    pub fn uri(&self) -> &str {
        &self.def.uri
    }

    /// The resource's name.
    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// Whether the URI is a template (has `{...}`).
    pub fn is_template(&self) -> bool {
        self.def.template.is_some()
    }

    /// The MIME type of what it reads, when declared.
    pub fn mime_type(&self) -> Option<&str> {
        self.def.mime_type.as_deref()
    }

    /// The length of the contents in bytes, when declared (`#[resource(size = ..)]`): what
    /// `resources/list` shows clients, to judge what a read costs. A template has none.
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources};
    ///
    /// /// The logo.
    /// #[resource(uri = "assets://logo.png", mime_type = "image/png", size = 4)]
    /// fn logo() -> Vec<u8> {
    ///     vec![0x89, b'P', b'N', b'G']
    /// }
    ///
    /// assert_eq!(resources![logo][0].size(), Some(4));
    /// ```
    pub fn size(&self) -> Option<u64> {
        self.def.size
    }

    /// The hints to the client about the contents, when declared
    /// (`#[resource(annotations(..))]`): who they are for, how much they matter, when they
    /// last changed. Listed with the resource or template.
    ///
    /// ```
    /// use mcp_toolkit::content::Role;
    /// use mcp_toolkit::{resource, resources};
    ///
    /// /// The changelog.
    /// #[resource(
    ///     uri = "docs://changelog",
    ///     annotations(audience = ["user"], priority = 0.3, last_modified = "2025-06-18T12:00:00Z")
    /// )]
    /// fn changelog() -> &'static str {
    ///     "## 1.0.0"
    /// }
    ///
    /// let resources = resources![changelog];
    /// let annotations = resources[0].annotations().unwrap();
    /// assert_eq!(annotations.audience, Some(vec![Role::User]));
    /// assert_eq!(annotations.priority, Some(0.3));
    /// assert_eq!(annotations.last_modified.as_deref(), Some("2025-06-18T12:00:00Z"));
    /// ```
    pub fn annotations(&self) -> Option<&Annotations> {
        self.def.annotations.as_ref()
    }

    /// How long, in milliseconds, a client may keep what a read gave before reading again,
    /// when declared (`#[resource(cache(ttl_ms = ..))]`): the `ttlMs` of its reads in
    /// revision 2026-07-28. Undeclared, reads say `0`: read again each time.
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, resource::CacheScope};
    ///
    /// /// The license, which never changes.
    /// #[resource(uri = "docs://license", cache(ttl_ms = 86_400_000))]
    /// fn license() -> &'static str {
    ///     "MIT"
    /// }
    ///
    /// /// The time.
    /// #[resource(uri = "clock://now")]
    /// fn now() -> String {
    ///     "12:00".into()
    /// }
    ///
    /// let resources = resources![license, now];
    /// assert_eq!(resources[0].ttl_ms(), Some(86_400_000));
    /// assert_eq!(resources[0].cache_scope(), Some(CacheScope::Public));
    /// assert_eq!(resources[1].ttl_ms(), None);
    /// ```
    pub fn ttl_ms(&self) -> Option<u64> {
        self.def.cache.map(|(ttl_ms, _)| ttl_ms)
    }

    /// Who may share what a read gave, when declared (`#[resource(cache(scope = ..))]`): the
    /// `cacheScope` of its reads in revision 2026-07-28, unless the caller is
    /// authenticated, whose reads are always `private`.
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, resource::CacheScope};
    ///
    /// /// The caller's inbox.
    /// #[resource(uri = "mail://inbox", cache(ttl_ms = 5_000, scope = "private"))]
    /// fn inbox() -> &'static str {
    ///     "no mail"
    /// }
    ///
    /// assert_eq!(resources![inbox][0].cache_scope(), Some(CacheScope::Private));
    /// ```
    pub fn cache_scope(&self) -> Option<CacheScope> {
        self.def.cache.map(|(_, scope)| scope)
    }

    /// The definition as `resources/list` (a fixed URI) or `resources/templates/list` (a
    /// template) shows it in a protocol revision.
    pub fn definition(&self, version: ProtocolVersion) -> Value {
        let def = &self.def;
        let key = if self.is_template() { "uriTemplate" } else { "uri" };
        let mut out = json!({ key: def.uri, "name": def.name });
        if version >= ProtocolVersion::V2025_06_18
            && let Some(title) = &def.title
        {
            out["title"] = json!(title);
        }
        if let Some(description) = &def.description {
            out["description"] = json!(description);
        }
        if let Some(mime_type) = &def.mime_type {
            out["mimeType"] = json!(mime_type);
        }
        if let Some(size) = def.size {
            out["size"] = json!(size);
        }
        if let Some(annotations) = &def.annotations {
            // `lastModified` came in 2025-06-18; hints left with nothing are left out.
            let mut annotations = json!(annotations);
            if version < ProtocolVersion::V2025_06_18
                && let Some(fields) = annotations.as_object_mut()
            {
                fields.remove("lastModified");
            }
            if annotations.as_object().is_some_and(|fields| !fields.is_empty()) {
                out["annotations"] = annotations;
            }
        }
        if version >= ProtocolVersion::V2025_11_25 && !def.icons.is_empty() {
            out["icons"] = json!(def.icons);
        }
        if version >= ProtocolVersion::V2025_06_18
            && let Some(meta) = &def.meta
        {
            out["_meta"] = json!(meta);
        }
        // A view's `ui` in every revision, as hosts that render views read it whatever they
        // negotiated.
        if let Some(ui) = &def.app_meta {
            out["_meta"]["ui"] = ui.clone();
        }
        out
    }

    /// The shared state the resource's parameters need.
    pub(crate) fn required_state(&self) -> &[StateKey] {
        &self.def.required_state
    }

    /// Whether a read can ask the client things.
    pub(crate) fn may_ask(&self) -> bool {
        self.def.may_ask
    }

    /// The names of the template's variables, in the order they appear; none for a fixed
    /// URI.
    pub(crate) fn variables(&self) -> impl Iterator<Item = &str> {
        self.def
            .template
            .iter()
            .flat_map(Template::variables)
            .map(|var| var.name.as_str())
    }

    /// Completes template variable `variable` from its partial `value`, given the other
    /// variables (`completion/complete`), as a prompt's argument completes: `None` when the
    /// URI has no such variable (a fixed URI has none).
    pub(crate) fn complete(
        &self,
        cx: &Context,
        variable: &str,
        value: &str,
        given: &Map<String, Value>,
    ) -> Option<Completing> {
        self.variables()
            .any(|name| name == variable)
            .then(|| self.def.completions.complete(cx, variable, value, given))
    }

    /// The variables of `uri` as this resource reads it, as a JSON object of strings (lists
    /// as arrays of strings): `{}` for its own fixed URI; `None` when `uri` is not this
    /// resource's. A variable the URI leaves out is left out.
    pub(crate) fn variables_of(&self, uri: &str) -> Option<String> {
        let Some(template) = &self.def.template else {
            return (uri == self.def.uri).then(|| "{}".to_owned());
        };
        let matched = template.match_uri(uri)?;
        let mut variables = Map::new();
        for (name, value) in matched {
            match value {
                Matched::String(text) => variables.insert(name, json!(text)),
                Matched::List(items) => variables.insert(name, json!(items)),
                Matched::Missing => None,
            };
        }
        Some(Value::Object(variables).to_string())
    }

    /// Starts a `resources/read` with the URI's variables.
    pub(crate) fn invoke(&self, cx: &Context, variables: RawArguments<'_>) -> Work<ReadOutput> {
        match &self.handler {
            Reader::Fn(handler) => handler(cx, variables),
            Reader::Held(read) => Work::now(|| Ok(read())),
        }
    }

    /// A resource at a fixed URI whose contents are held in memory, each read given by
    /// `read`: the files of a skill.
    pub(crate) fn held(
        uri: String,
        name: String,
        description: Option<String>,
        mime_type: &str,
        size: u64,
        read: impl Fn() -> ReadOutput + Send + Sync + 'static,
    ) -> Resource {
        Resource {
            def: Arc::new(Definition {
                uri,
                template: None,
                name,
                title: None,
                description,
                mime_type: Some(mime_type.to_owned()),
                size: Some(size),
                annotations: None,
                cache: None,
                icons: Vec::new(),
                meta: None,
                app: None,
                app_meta: None,
                completions: CompletionsBuilder::default().build(),
                required_state: Vec::new(),
                may_ask: false,
            }),
            handler: Reader::Held(Arc::new(read)),
        }
    }

    /// What the resource declares as an [MCP Apps](crate::app) view, if it is one
    /// (`#[resource(uri = "ui://..", app(..))]`).
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources};
    ///
    /// /// The board.
    /// #[resource(uri = "ui://notes/board", app(prefers_border))]
    /// fn board() -> &'static str { "<!DOCTYPE html><title>Board</title>" }
    ///
    /// let board = &resources![board][0];
    /// assert_eq!(board.app().unwrap().meta()["prefersBorder"], true);
    /// assert_eq!(board.mime_type(), Some("text/html;profile=mcp-app"));
    /// ```
    pub fn app(&self) -> Option<&crate::app::View> {
        self.def.app.as_ref()
    }

    /// Makes the resource an [MCP Apps](crate::app) view with these settings, replacing
    /// any it had: it is then served as `text/html;profile=mcp-app`, with the settings as
    /// `_meta.ui` on its listing and its reads. A URI that is not a fixed `ui://` one, or a
    /// CSP entry that is not an origin, is refused.
    ///
    /// ```
    /// use mcp_toolkit::app::View;
    /// use mcp_toolkit::{resource, resources};
    ///
    /// /// The chart.
    /// #[resource(uri = "ui://sales/chart")]
    /// fn chart() -> &'static str { "<!DOCTYPE html><title>Sales</title>" }
    ///
    /// let chart = resources![chart].remove(0);
    /// let view = chart.clone().with_app(View::new().connect_domains(["https://api.example.com"])).unwrap();
    /// assert_eq!(view.mime_type(), Some("text/html;profile=mcp-app"));
    /// assert_eq!(
    ///     chart.with_app(View::new().connect_domains(["https://api.example.com/v1"])).unwrap_err().to_string(),
    ///     "resource `ui://sales/chart`: `connect_domains`: `https://api.example.com/v1` has a path (`/v1`); a CSP entry is an origin: `https://host` or `https://host:port` (also `http`, `wss`, `ws`), no path, no wildcard but a leading `*.` (`https://*.example.com`)"
    /// );
    /// ```
    pub fn with_app(mut self, view: crate::app::View) -> Result<Resource, crate::error::DefinitionError> {
        let owner = || format!("resource `{}`", self.def.uri);
        crate::app::check_uri(&self.def.uri, owner)?;
        if let Some(problem) = view.problem() {
            return Err(crate::error::DefinitionError::InvalidView {
                owner: owner(),
                problem,
            });
        }
        let def = Arc::make_mut(&mut self.def);
        def.mime_type = Some(crate::app::MIME_TYPE.to_owned());
        def.app_meta = Some(view.meta());
        def.app = Some(view);
        Ok(self)
    }

    /// What a read gave, as the `contents` of `resources/read`'s answer for `uri`: a view's
    /// each carry its `_meta.ui`.
    pub(crate) fn contents_json(&self, uri: &str, output: ReadOutput) -> Value {
        let mut contents = json!(self.contents(uri, output));
        if let (Some(ui), Some(items)) = (&self.def.app_meta, contents.as_array_mut()) {
            for item in items {
                item["_meta"] = json!({ "ui": ui });
            }
        }
        contents
    }

    /// What a read gave, as the contents `resources/read` answers with for `uri`.
    pub(crate) fn contents(&self, uri: &str, output: ReadOutput) -> Vec<ResourceContents> {
        let mime = |default: &str| Some(self.def.mime_type.clone().unwrap_or_else(|| default.to_owned()));
        match output {
            ReadOutput::Text(text) => vec![ResourceContents::Text {
                uri: uri.to_owned(),
                mime_type: mime("text/plain"),
                text,
            }],
            ReadOutput::JsonText(text) => vec![ResourceContents::Text {
                uri: uri.to_owned(),
                mime_type: mime("application/json"),
                text,
            }],
            ReadOutput::Blob(bytes) => vec![ResourceContents::Blob {
                uri: uri.to_owned(),
                mime_type: mime("application/octet-stream"),
                blob: base64::engine::general_purpose::STANDARD.encode(bytes),
            }],
            ReadOutput::Contents(contents) => contents,
        }
    }
}

impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resource")
            .field("uri", &self.def.uri)
            .finish_non_exhaustive()
    }
}

/// Who may share a cached read (`cacheScope` in revision 2026-07-28), as HTTP's
/// `Cache-Control: public` and `private`: declared with `#[resource(cache(scope = ".."))]`.
///
/// ```
/// use mcp_toolkit::resource::CacheScope;
///
/// assert_eq!(serde_json::to_value(CacheScope::Private).unwrap(), "private");
/// assert_eq!(CacheScope::Public.as_str(), "public");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CacheScope {
    /// Holds nothing of the caller's: any client or shared cache may keep it and serve it
    /// to anyone.
    Public,
    /// Only the same caller's cache (the same authorization) may keep it.
    Private,
}

impl CacheScope {
    /// The scope as the protocol writes it: `"public"` or `"private"`.
    ///
    /// ```
    /// assert_eq!(mcp_toolkit::resource::CacheScope::Private.as_str(), "private");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// What a resource's fn gave, before the engine puts the URI and MIME type on it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutput {
    /// Text, with the resource's MIME type (`text/plain` when it declares none).
    Text(String),
    /// JSON text (`application/json` unless declared otherwise).
    JsonText(String),
    /// Bytes, sent base64-encoded.
    Blob(Vec<u8>),
    /// Contents made whole by the fn.
    Contents(Vec<ResourceContents>),
}

/// A type a `#[resource]` fn can return: text (`String`, `&'static str`), bytes
/// (`Vec<u8>`), [`Json<T>`], [`ResourceContents`] or a `Vec` of them, or a `Result` of
/// these (an `Err` is a JSON-RPC error, masked like a tool's when internal;
/// [`ToolError::not_found`] is the revision's resource-not-found error).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a resource",
    label = "not a resource's contents",
    note = "return text (`String`, `&'static str`), bytes (`Vec<u8>`), `Json<T>` where `T` derives `serde::Serialize`, `ResourceContents`, a `Vec<ResourceContents>`, or a `Result` of these"
)]
pub trait IntoReadResult {
    /// The contents read, or the error to answer with.
    fn into_read_result(self) -> Result<ReadOutput, ToolError>;
}

impl IntoReadResult for String {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        Ok(ReadOutput::Text(self))
    }
}

impl IntoReadResult for &'static str {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        Ok(ReadOutput::Text(self.to_owned()))
    }
}

impl IntoReadResult for Vec<u8> {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        Ok(ReadOutput::Blob(self))
    }
}

// Not recommended, so that a `Json<T>` whose `T` does not serialize is reported as the
// return type that does not convert, with the message's note, rather than as `T`'s missing
// `Serialize` with every type that has it.
#[diagnostic::do_not_recommend]
impl<T: Serialize> IntoReadResult for Json<T> {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        serde_json::to_string(&self.0)
            .map(ReadOutput::JsonText)
            .map_err(|error| ToolError::internal(format!("a resource's JSON did not serialize: {error}")))
    }
}

impl IntoReadResult for ResourceContents {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        Ok(ReadOutput::Contents(vec![self]))
    }
}

impl IntoReadResult for Vec<ResourceContents> {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        Ok(ReadOutput::Contents(self))
    }
}

impl<T: IntoReadResult, E: fmt::Display + 'static> IntoReadResult for Result<T, E> {
    fn into_read_result(self) -> Result<ReadOutput, ToolError> {
        match self {
            Ok(value) => value.into_read_result(),
            Err(error) => Err(ToolError::classify(&error)),
        }
    }
}

/// A `#[resource]` fn: what `resources![...]` takes. `#[resource]` implements it for each fn
/// it marks; there is nothing to implement or call by hand. A name in `resources![...]` that
/// is not a `#[resource]` fn is a compile error that names this trait.
///
/// ```
/// use mcp_toolkit::{resource, resources};
///
/// /// The README.
/// #[resource(uri = "docs://readme")]
/// fn readme() -> String {
///     "# Notes".to_owned()
/// }
///
/// assert_eq!(resources![readme][0].uri(), "docs://readme");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a resource",
    label = "not a `#[resource]` fn",
    note = "`resources![...]` takes the names of fns marked with `#[resource]`"
)]
pub trait ResourceFn {
    /// The resource's URI or URI template, checked at compile time.
    #[doc(hidden)]
    const URI: &'static str;
    /// Builds the resource.
    #[doc(hidden)]
    fn resource() -> Resource;
}

/// A type the server injects into a `#[resource]` fn: a parameter that is not a variable of
/// the resource's URI has such a type. Every [`FromContext`] type implements it ([`Context`],
/// [`State<T>`](crate::State), your own); there is nothing to implement. A parameter that
/// is neither is a compile error at its name that names this trait.
///
/// ```
/// use mcp_toolkit::resource::Injected;
/// use mcp_toolkit::{Context, State};
///
/// fn injected<T: Injected>() {}
/// injected::<Context>();
/// injected::<State<Vec<String>>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not injected, and the parameter is not a variable of the resource's URI",
    label = "not a variable of the URI, nor injected",
    note = "a `#[resource]` fn takes the variables of its URI (`{{name}}` in a template) and values the server injects (`Context`, `State<T>`, any `FromContext` type); add the variable to the URI, or remove the parameter"
)]
pub trait Injected {
    /// Generated code names it, `<T as Injected>::IS`, so that a type that is not injected
    /// fails this trait's own bound, reported with its message alone.
    #[doc(hidden)]
    const IS: () = ();
}

// Not recommended, so that the compiler reports `Injected` itself, with its message.
#[diagnostic::do_not_recommend]
impl<T: FromContext> Injected for T {}
