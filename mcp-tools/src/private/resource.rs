//! What `#[resource]` expands to: the builder that assembles a resource.

use crate::completion::{Complete, CompletionsBuilder};
use crate::content::Annotations;
use crate::context::StateKey;
use crate::prompt::work::{RequestArguments, Work};
use crate::resource::{CacheScope, Definition, HandlerFn, ReadOutput, Reader, Resource};
use crate::tool::Icon;
use crate::tool::param::{Kind, Param};
use mcp_toolkit_core::uri_template::Template;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

use super::prompt::Converter;

/// The work of one `resources/read`.
pub type ResourceInvocation = Work<ReadOutput>;

/// A resource's variables (a template's), all strings from the URI.
pub type ResourceArguments<'a> = RequestArguments<'a, ReadOutput>;

/// How a resource's return type converts.
pub type ResourceRet<R> = Converter<R, ReadOutput>;

/// Assembles a resource from what the macro read.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct ResourceBuilder {
    uri: &'static str,
    name: &'static str,
    description: Option<&'static str>,
    title: Option<&'static str>,
    mime_type: Option<&'static str>,
    size: Option<u64>,
    annotations: Option<Annotations>,
    cache: Option<(u64, CacheScope)>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    app: Option<crate::app::View>,
    app_meta: Option<Value>,
    completions: CompletionsBuilder,
    required_state: Vec<StateKey>,
    may_ask: bool,
}

impl ResourceBuilder {
    /// Starts a resource.
    pub fn new(uri: &'static str, name: &'static str, description: Option<&'static str>) -> ResourceBuilder {
        ResourceBuilder {
            uri,
            name,
            description,
            title: None,
            mime_type: None,
            size: None,
            annotations: None,
            cache: None,
            icons: Vec::new(),
            meta: None,
            app: None,
            app_meta: None,
            completions: CompletionsBuilder::default(),
            required_state: Vec::new(),
            may_ask: false,
        }
    }

    /// Gives the fn a context of its own (the caller, the server's services), as a
    /// parameter taken from the context does.
    pub(crate) fn with_context(mut self) -> ResourceBuilder {
        self.may_ask = true;
        self
    }

    /// Makes it an MCP Apps view (`app(..)`): served as `text/html;profile=mcp-app`, with
    /// `view` as `_meta.ui`. The macro has checked the URI and every origin.
    pub fn app(mut self, view: crate::app::View) -> ResourceBuilder {
        self.mime_type = Some(crate::app::MIME_TYPE);
        self.app_meta = Some(view.meta());
        self.app = Some(view);
        self
    }

    /// Sets the title.
    pub fn title(mut self, title: &'static str) -> ResourceBuilder {
        self.title = Some(title);
        self
    }

    /// Sets the MIME type of what it reads.
    pub fn mime_type(mut self, mime_type: &'static str) -> ResourceBuilder {
        self.mime_type = Some(mime_type);
        self
    }

    /// Sets the length of the contents in bytes (`size = ..`); a template's is dropped, as
    /// its resources differ.
    ///
    /// `#[resource]` calls it; `resources/list` then shows it:
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, protocol::ProtocolVersion};
    ///
    /// /// The logo.
    /// #[resource(uri = "assets://logo.png", size = 4)]
    /// fn logo() -> Vec<u8> {
    ///     vec![0x89, b'P', b'N', b'G']
    /// }
    ///
    /// assert_eq!(resources![logo][0].definition(ProtocolVersion::V2024_11_05)["size"], 4);
    /// ```
    pub fn size(mut self, size: u64) -> ResourceBuilder {
        self.size = Some(size);
        self
    }

    /// Sets the hints about the contents (`annotations(..)`).
    ///
    /// `#[resource]` calls it; the listings show the hints each revision has (`lastModified`
    /// from 2025-06-18):
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// A user's avatar.
    /// #[resource(uri = "users://{id}/avatar", annotations(audience = ["user"], last_modified = "2025-01-12T15:00:58Z"))]
    /// fn avatar(id: u64) -> Vec<u8> {
    ///     id.to_be_bytes().to_vec()
    /// }
    ///
    /// let avatar = &resources![avatar][0];
    /// assert_eq!(
    ///     avatar.definition(ProtocolVersion::V2025_06_18)["annotations"],
    ///     json!({"audience": ["user"], "lastModified": "2025-01-12T15:00:58Z"})
    /// );
    /// assert_eq!(
    ///     avatar.definition(ProtocolVersion::V2025_03_26)["annotations"],
    ///     json!({"audience": ["user"]})
    /// );
    /// ```
    pub fn annotations(mut self, annotations: Annotations) -> ResourceBuilder {
        self.annotations = Some(annotations);
        self
    }

    /// Sets the cache hints of its reads (`cache(ttl_ms = .., scope = "..")`).
    ///
    /// `#[resource]` calls it; a read in revision 2026-07-28 then carries them:
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, resource::CacheScope, Server};
    ///
    /// /// The license, which never changes.
    /// #[resource(uri = "docs://license", cache(ttl_ms = 86_400_000))]
    /// fn license() -> &'static str {
    ///     "MIT"
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("docs", "1.0.0").resources(resources![license]).test_client()?;
    /// let read = client.read_resource("docs://license").await?;
    /// assert_eq!((read.ttl_ms(), read.cache_scope()), (Some(86_400_000), Some(CacheScope::Public)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn cache(mut self, ttl_ms: u64, scope: CacheScope) -> ResourceBuilder {
        self.cache = Some((ttl_ms, scope));
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> ResourceBuilder {
        self.icons.push(icon);
        self
    }

    /// Adds a `_meta` entry.
    pub fn meta<V: Serialize + ?Sized>(mut self, key: &'static str, value: &V) -> ResourceBuilder {
        crate::tool::insert_meta(&mut self.meta, self.name, key, value);
        self
    }

    /// Adds a parameter: a template variable (a string from the URI), or one the framework
    /// fills in.
    pub fn param<T>(
        mut self,
        name: &'static str,
        _description: Option<&'static str>,
        param: Param<T>,
    ) -> ResourceBuilder {
        self.completions.param(name, &param);
        if let Kind::Injected { state, .. } = param.kind {
            self.may_ask = true;
            self.required_state.extend(state().into_keys());
        }
        self
    }

    /// Completes template variable `name` with `complete` (`#[complete(..)]` on its
    /// parameter), in place of the choices of its type, as a prompt's argument completes.
    ///
    /// `#[resource]` calls it; what it gives a client looks like this:
    ///
    /// ```
    /// use mcp_toolkit::{resource, resources, Server};
    /// use serde_json::{json, Map, Value};
    ///
    /// /// The repositories of an owner, for completing `repo`.
    /// fn repos(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
    ///     match given.get("owner").and_then(Value::as_str) {
    ///         Some("rust-lang") => vec!["rust".into(), "cargo".into(), "rustup".into()],
    ///         _ => Vec::new(),
    ///     }
    /// }
    ///
    /// /// A repository's README.
    /// #[resource(uri = "repo://{owner}/{repo}/readme", mime_type = "text/markdown")]
    /// fn readme(owner: String, #[complete(repos)] repo: String) -> String {
    ///     format!("# {owner}/{repo}")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("code", "1.0.0").resources(resources![readme]).test_client()?;
    /// let completed = client.request("completion/complete", json!({
    ///     "ref": {"type": "ref/resource", "uri": "repo://{owner}/{repo}/readme"},
    ///     "argument": {"name": "repo", "value": "ru"},
    ///     "context": {"arguments": {"owner": "rust-lang"}}
    /// })).await?;
    /// assert_eq!(
    ///     completed["completion"],
    ///     json!({"values": ["rust", "rustup"], "total": 2, "hasMore": false})
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn complete<M>(mut self, name: &'static str, complete: impl Complete<M>) -> ResourceBuilder {
        self.completions
            .complete(name, complete, &mut self.required_state);
        self
    }

    /// Finishes the resource.
    pub fn build(self, handler: HandlerFn) -> Resource {
        // Checked at compile time by `#[resource]`; a template that does not parse here is
        // served as a fixed URI, which then matches only itself.
        let template = Template::parse(self.uri).ok().filter(Template::is_template);
        let size = self.size.filter(|_| template.is_none());
        Resource {
            def: Arc::new(Definition {
                uri: self.uri.to_owned(),
                template,
                name: self.name.to_owned(),
                title: self.title.map(str::to_owned),
                description: self.description.map(str::to_owned),
                mime_type: self.mime_type.map(str::to_owned),
                size,
                annotations: self.annotations,
                cache: self.cache,
                icons: self.icons,
                meta: self.meta,
                app: self.app,
                app_meta: self.app_meta,
                completions: self.completions.build(),
                required_state: self.required_state,
                may_ask: self.may_ask,
            }),
            handler: Reader::Fn(handler),
        }
    }
}
