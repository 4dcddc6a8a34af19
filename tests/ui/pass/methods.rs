//! Every form of `#[method]`: sync and async fns, arguments (optional, defaulted) and
//! injected parameters, each return type, a notification handler, and `methods![...]`.
use mcp_toolkit::extension::{Extension, Method};
use mcp_toolkit::{method, methods, Context, Json, Server, State, ToolError};
use serde_json::{json, Value};

struct Notes {
    items: Vec<String>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Stats {
    notes: usize,
    trashed: usize,
}

/// How many notes there are, and how many are in the trash.
#[method(name = "notes/stats")]
async fn stats(notes: State<Notes>) -> Result<Json<Stats>, ToolError> {
    Ok(Json(Stats { notes: notes.items.len(), trashed: 0 }))
}

/// Searches the notes.
#[method(name = "com.example/search")]
fn search(
    /// What to look for
    query: String,
    limit: Option<u32>,
    #[default(false)] exact: bool,
    notes: State<Notes>,
) -> Json<Value> {
    let _ = (limit, exact);
    Json(json!({ "hits": notes.items.iter().filter(|n| n.contains(&query)).count() }))
}

/// Answers as it is.
#[method(name = "com.example/raw")]
async fn raw(cx: Context) -> Value {
    json!({ "cancelled": cx.is_cancelled() })
}

/// Handles a notification.
#[method(name = "com.example/seen")]
fn seen(note: u32) {
    let _ = note;
}

/// Handles a notification, returning `()` by name.
#[method(name = "com.example/seen-all")]
async fn seen_all() -> () {}

fn main() {
    let list: Vec<Method> = methods![stats, search, raw, seen, seen_all];
    assert!(list[3].is_notification() && list[4].is_notification() && !list[0].is_notification());
    let _ = Server::new("notes", "1.0.0")
        .state(Notes { items: Vec::new() })
        .extension(Extension::new("com.example/notes").methods(list));
}
