use mcp_toolkit::tool;

struct Point {
    x: f64,
}

struct Report;

#[tool(name = "bad name!", colour = "red", task = "always")]
fn measure(point: Point, label: &str) -> Report {
    let _ = (point.x, label);
    Report
}

fn main() {}
