//! A text analysis tool server: the Rust twin of the FastMCP text analyzer.
//!
//! ```text
//! cargo run --bin text_analyzer
//! ```

mod common;

use mcp_toolkit::{Json, Server, tool, tools};

/// What the analyzer counts.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct TextStats {
    /// Characters (Unicode scalar values) in the text.
    characters: usize,
    /// Words: runs of non-whitespace characters.
    words: usize,
}

/// Count the characters and words of a text.
///
/// # Arguments
/// * `text` - The text to analyze
#[tool(
    name = "text_analyzer",
    annotations(read_only, idempotent, open_world = false)
)]
async fn analyze(text: String) -> Json<TextStats> {
    Json(TextStats {
        characters: text.chars().count(),
        words: text.split_whitespace().count(),
    })
}

// One thread for tasks is plenty: stdio serves one client, and its reader answers most
// calls on a thread of its own. It also starts faster and stays smaller than the
// multi-threaded runtime; a server for many HTTP clients would use that one.
#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let served = Server::new("text_analyzer", env!("CARGO_PKG_VERSION"))
        .title("Text Analyzer")
        .tools(tools![analyze])
        .run()
        .await;
    common::exit(served)
}
