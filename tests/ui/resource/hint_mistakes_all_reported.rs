use mcp_toolkit::resource;

/// A user's avatar.
#[resource(
    uri = "users://{id}/avatar.png",
    size = 2048,
    annotations(audience = ["user", "model", "user"], priority = -0.5, last_modified = "yesterday", colour = 1),
    cache(ttl_ms = "1m", scope = "everyone", ttl_ms = 5)
)]
fn avatar(id: u64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

fn main() {}
