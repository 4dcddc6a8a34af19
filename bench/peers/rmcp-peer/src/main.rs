//! The rmcp peer: `calculator` and `text_analyzer` on rmcp 3.9, written in its usual style
//! (`#[tool_router]`, `#[tool]`, `Parameters<T>`, `#[tool_handler] impl ServerHandler`).
//!
//! ```text
//! rmcp-peer stdio               # rmcp::transport::stdio(): blocking std streams
//! rmcp-peer pipes               # rmcp::transport::io::stdio_pipes(): non-blocking pipes
//! rmcp-peer --http 127.0.0.1:8080   # Streamable HTTP on /mcp, TCP_NODELAY on every socket
//! ```

#[path = "../../tools.rs"]
mod tools;

use axum::serve::ListenerExt;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

/// The four operations.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

impl From<Operation> for tools::Operation {
    fn from(operation: Operation) -> Self {
        match operation {
            Operation::Add => Self::Add,
            Operation::Subtract => Self::Subtract,
            Operation::Multiply => Self::Multiply,
            Operation::Divide => Self::Divide,
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CalculatorArgs {
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct TextAnalyzerArgs {
    /// The text to analyze
    text: String,
}

/// What the analyzer counts.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct TextStats {
    /// Characters (Unicode scalar values) in the text.
    characters: usize,
    /// Words: runs of non-whitespace characters.
    words: usize,
}

/// The server: its tool router is built once, when a session starts.
#[derive(Clone)]
struct Peer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Peer {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    /// Perform basic arithmetic on two numbers.
    #[tool(annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false))]
    async fn calculator(&self, Parameters(args): Parameters<CalculatorArgs>) -> Result<String, String> {
        tools::calculate(args.operation.into(), args.a, args.b)
            .map(|result| result.to_string())
            .map_err(String::from)
    }

    /// Count the characters and words of a text.
    #[tool(annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false))]
    async fn text_analyzer(&self, Parameters(args): Parameters<TextAnalyzerArgs>) -> Json<TextStats> {
        let (characters, words) = tools::analyze(&args.text);
        Json(TextStats { characters, words })
    }
}

#[tool_handler(router = self.tool_router, name = "rmcp-peer")]
impl ServerHandler for Peer {}

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] | ["stdio"] => {
            Peer::new()
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        ["pipes"] => {
            Peer::new()
                .serve(rmcp::transport::io::stdio_pipes())
                .await?
                .waiting()
                .await?;
        }
        ["--http", addr] => serve_http(addr, StreamableHttpServerConfig::default()).await?,
        ["--http-stateless", addr] => {
            // rmcp's fastest configuration: no sessions, plain JSON answers.
            let mut config = StreamableHttpServerConfig::default();
            config.legacy_session_mode = false;
            config.json_response = true;
            serve_http(addr, config).await?
        }
        _ => {
            eprintln!("usage: rmcp-peer [stdio | pipes | --http ADDR | --http-stateless ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}

/// Streamable HTTP on `/mcp` with `config` (rmcp's default keeps a session per
/// `initialize`), TCP_NODELAY set on every accepted socket.
async fn serve_http(addr: &str, config: StreamableHttpServerConfig) -> std::io::Result<()> {
    let service =
        StreamableHttpService::new(|| Ok(Peer::new()), LocalSessionManager::default().into(), config);
    let router = axum::Router::new().route_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            eprintln!("cannot set TCP_NODELAY: {error}");
        }
    });
    axum::serve(listener, router).await
}
