use mcp_toolkit::{Context, resource};

/// A user's profile.
#[resource(uri = "users://{user_id}/profile")]
fn profile(user_id: String, lang: String, _cx: Context) -> String {
    user_id + &lang
}

fn main() {}
