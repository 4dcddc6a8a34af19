use mcp_toolkit::resource;

/// A user's post.
#[resource(uri = "users://{user_id}/posts/{post}")]
fn post(user_id: String) -> String {
    user_id
}

fn main() {}
