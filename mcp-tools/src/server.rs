//! [`Server`]: a server's identity, its tools and state, and the transports that serve them.

use crate::context::StateMap;
use crate::engine::{Engine, Options};
use crate::error::DefinitionError;
use crate::protocol::ProtocolVersion;
use crate::registry::ToolRegistry;
use crate::tool::{Icon, Tool};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// An MCP server: its name and version, its tools, and how it serves them.
///
/// ```no_run
/// use mcp_tools::{tool, tools, Server};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: f64, b: f64) -> f64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> Result<(), mcp_tools::Error> {
///     Server::new("calculator", env!("CARGO_PKG_VERSION"))
///         .tools(tools![add])
///         .serve_stdio()
///         .await
/// }
/// ```
pub struct Server {
    info: ServerInfo,
    registry: ToolRegistry,
    state: StateMap,
    options: Options,
    problems: Vec<DefinitionError>,
}

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

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The tools given to the server break a rule.
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    /// A tool needs shared state the server was not given.
    #[error(
        "tool `{tool}` takes `State<{state}>`, but the server has no such state; give it with `Server::state`"
    )]
    MissingState {
        /// The tool.
        tool: String,
        /// The state's type.
        state: &'static str,
    },
    /// Reading or writing the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
}

impl Server {
    /// A server with this name and version (clients see them as `serverInfo`).
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                title: None,
                description: None,
                website_url: None,
                icons: Vec::new(),
                instructions: None,
            },
            registry: ToolRegistry::new(),
            state: StateMap::default(),
            options: Options::default(),
            problems: Vec::new(),
        }
    }

    /// Adds tools, usually `tools![...]`. A name already taken is reported when serving
    /// starts.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Server {
        for tool in tools {
            if let Err(problem) = self.registry.add(tool) {
                self.problems.push(problem);
            }
        }
        self
    }

    /// Adds shared state, which tools receive as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Server {
        self.state.insert(value);
        self
    }

    /// A display title.
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.info.title = Some(title.into());
        self
    }

    /// A description of the server (revision 2025-11-25 and later).
    pub fn description(mut self, description: impl Into<String>) -> Server {
        self.info.description = Some(description.into());
        self
    }

    /// The server's website (revision 2025-11-25 and later).
    pub fn website_url(mut self, url: impl Into<String>) -> Server {
        self.info.website_url = Some(url.into());
        self
    }

    /// An icon for the server.
    pub fn icon(mut self, icon: Icon) -> Server {
        self.info.icons.push(icon);
        self
    }

    /// Instructions for the model on using the server's tools together.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Splits `tools/list` into pages of this many tools (default: one page, since many
    /// clients never ask for a next page).
    pub fn page_size(mut self, tools_per_page: usize) -> Server {
        self.options.page_size = Some(tools_per_page.max(1));
        self
    }

    /// How long clients may cache the tool list (`ttlMs`, revision 2026-07-28; default one
    /// minute). A change is announced with `notifications/tools/list_changed` regardless.
    pub fn list_ttl(mut self, ttl: Duration) -> Server {
        self.options.list_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// The longest message accepted, in bytes (default 16 MiB). A longer one is refused
    /// with an error and the connection goes on.
    pub fn max_message_size(mut self, bytes: usize) -> Server {
        self.options.max_message_bytes = bytes.max(1024);
        self
    }

    /// A handle for adding, removing, enabling and disabling tools while serving; clients
    /// are told with `notifications/tools/list_changed`.
    pub fn registry(&self) -> ToolRegistry {
        self.registry.clone()
    }

    /// Checks the configuration and builds the engine.
    pub(crate) fn into_engine(self) -> Result<Arc<Engine>, Error> {
        if let Some(problem) = self.problems.into_iter().next() {
            return Err(problem.into());
        }
        for tool in self.registry.tools() {
            for state in tool.required_state() {
                if !self.state.contains(state) {
                    return Err(Error::MissingState {
                        tool: tool.name().to_owned(),
                        state: state.type_name(),
                    });
                }
            }
        }
        Ok(Arc::new(Engine::new(
            self.info,
            self.registry,
            self.state,
            self.options,
        )))
    }

    /// Serves one client over standard input and output, as MCP clients launch servers.
    /// Returns when the client closes standard input (after answering what was in flight)
    /// or standard output closes.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        let engine = self.into_engine()?;
        crate::transport::stdio::serve_stdio(engine).await
    }

    /// Serves one client over any byte stream pair (a socket, a pipe, an in-memory
    /// duplex), one JSON-RPC message per line.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), Error>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let engine = self.into_engine()?;
        crate::transport::stdio::serve_lines(engine, reader, writer).await
    }
}
