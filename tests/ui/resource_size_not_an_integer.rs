use mcp_toolkit::resource;

/// The logo.
#[resource(uri = "assets://logo.png", size = "2 KB")]
fn logo() -> Vec<u8> {
    Vec::new()
}

fn main() {}
