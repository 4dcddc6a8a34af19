use mcp_toolkit::resource;

/// A user's avatar.
#[resource(uri = "users://{id}/avatar.png", mime_type = "image/png", size = 2048)]
fn avatar(id: u64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

fn main() {}
