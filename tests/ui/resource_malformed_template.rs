use mcp_toolkit::resource;

/// A user's profile.
#[resource(uri = "users://{user id}/profile{?}")]
fn profile(user_id: String) -> String {
    user_id
}

fn main() {}
