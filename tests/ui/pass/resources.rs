use mcp_toolkit::{Context, Json, State, ToolError, resource, resources};

struct Db;

/// The project's README.
#[resource(uri = "docs://readme", mime_type = "text/markdown", title = "README", icons("https://x/a.png"), meta(cost = 1))]
async fn readme() -> String {
    String::new()
}

/// A user's profile.
#[resource(uri = "users://{user_id}/profile{?fields,lang}", mime_type = "application/json")]
async fn profile(
    user_id: u64,
    fields: Option<String>,
    #[default("en".to_owned())] lang: String,
    _cx: Context,
    _db: State<Db>,
) -> Result<Json<Vec<String>>, ToolError> {
    Ok(Json(vec![user_id.to_string(), fields.unwrap_or_default(), lang]))
}

/// A file.
#[resource(uri = r"file:///{+path}", name = "file")]
fn read_file(path: String) -> Vec<u8> {
    path.into_bytes()
}

fn main() {
    let resources = resources![readme, profile, read_file];
    assert_eq!(resources.len(), 3);
}
