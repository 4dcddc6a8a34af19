use mcp_toolkit::resource;

/// A board that asks for what no host grants, and for the camera twice.
#[resource(
    uri = "ui://notes/board",
    app(permissions(camera, clipboard_read, clipboardWrite, camera, "microphone"))
)]
fn board() -> &'static str {
    "<!DOCTYPE html>"
}

fn main() {}
