//! The extension-points contract exactly as issue 36 shows it: a custom method in an
//! extension, and a middleware, on one server.
use mcp_toolkit::{extension::Extension, method, methods, middleware::Middleware, Json, Server, State, ToolError};

struct Notes {
    items: Vec<String>,
    trash: Vec<String>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Stats {
    notes: usize,
    trashed: usize,
}

/// How many notes there are, and how many are in the trash.
#[method(name = "notes/stats")]
async fn stats(notes: State<Notes>) -> Result<Json<Stats>, ToolError> {
    Ok(Json(Stats { notes: notes.items.len(), trashed: notes.trash.len() }))
}

/// Every hook left as the trait gives it: sees everything, changes nothing.
struct Audit;

impl Middleware for Audit {}

fn main() {
    let _ = Server::new("notes", "1.0.0")
        .state(Notes { items: Vec::new(), trash: Vec::new() })
        .extension(Extension::new("com.example/notes-stats").methods(methods![stats]))
        .middleware(Audit);
}
