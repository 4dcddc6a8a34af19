use mcp_toolkit::tool;

struct Point {
    x: f64,
    y: f64,
}

/// Measures the distance from the origin.
#[tool]
fn distance(
    /// The point
    point: Point,
) -> f64 {
    point.x.hypot(point.y)
}

fn main() {}
