use mcp_toolkit::resource;

/// A board whose policy names what is not an origin.
#[resource(
    uri = "ui://notes/board",
    app(
        csp(
            connect_domains = ["https://api.example.com/v1", "api.example.com", "https://api.*.com"],
            resource_domains = ["ftp://files.example.com", 3],
            script_domains = ["https://cdn.example.com"],
            frame_domains = "https://video.example.com:99999"
        ),
        domain = "",
        prefers_border = "yes",
        border
    )
)]
fn board() -> &'static str {
    "<!DOCTYPE html>"
}

fn main() {}
