//! Every setting of a view, a view's fn returning a `Result`, a tool linked to a view by
//! its fn's name (checked at compile time), and both audiences.
use mcp_toolkit::resource::ResourceError;
use mcp_toolkit::{resource, resources, tool, tools, Server};

/// The map: where the user is.
#[resource(
    uri = "ui://maps/where",
    title = "Where am I",
    app(
        csp(
            connect_domains = ["https://api.example.com", "wss://live.example.com:8443"],
            resource_domains = ["https://*.tiles.example.com"],
            frame_domains = ["https://video.example.com"],
            base_uri_domains = ["https://cdn.example.com"]
        ),
        permissions(camera, microphone, geolocation, clipboard_write),
        domain = "a904794854a047f6.claudemcpcontent.com",
        prefers_border = false
    )
)]
async fn map() -> Result<String, ResourceError> {
    Ok("<!DOCTYPE html><title>Map</title>".to_owned())
}

/// A view with nothing declared: the host's strictest policy.
#[resource(uri = "ui://maps/plain", app)]
fn plain() -> String {
    "<!DOCTYPE html><title>Plain</title>".to_owned()
}

/// Finds the user; shown on the map.
#[tool(app = map, visibility = ["model", "app"])]
fn locate() -> &'static str {
    "52.52, 13.40"
}

/// Recenters the map; only the map calls it.
#[tool(app = crate::plain, visibility = ["app"])]
fn recenter(lat: f64, lon: f64) -> String {
    format!("{lat}, {lon}")
}

fn main() {
    let _server: Server = Server::new("maps", "1.0.0")
        .tools(tools![locate, recenter])
        .resources(resources![map, plain]);
}
