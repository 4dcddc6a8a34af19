//! The code of the issue that specified MCP Apps, verbatim in shape: `todo!()` bodies
//! included, the view read with `include_str!`, and the server built as one expression.
use mcp_toolkit::{resource, resources, tool, tools, Server, ToolError};

/// The notes board: every note as a card, and a box to add one.
#[resource(uri = "ui://notes/board", app(csp(connect_domains = ["https://api.example.com"]), prefers_border))]
fn board() -> &'static str { include_str!("board.html") }

/// Lists the notes; shown on the board in hosts that render apps.
#[tool(app = "ui://notes/board")]
async fn list_notes() -> Result<String, ToolError> { todo!() }

/// Adds a note from the board; not offered to the model.
#[tool(app = "ui://notes/board", visibility = "app")]
async fn board_add(title: String) -> Result<String, ToolError> { todo!() }

fn main() {
    let _server: Server = Server::new("notes", "1.0.0")
        .tools(tools![list_notes, board_add])
        .resources(resources![board]);
}
