// Parameter types that are not arguments.
// One module per mistake; one compile reports them all.

mod param_not_an_argument {
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
}

mod param_optional_not_an_argument {
    use mcp_toolkit::tool;

    struct Point {
        x: f64,
        y: f64,
    }

    /// Measures the distance from the origin, or from a given point.
    #[tool]
    fn distance(x: f64, y: f64, from: Option<Point>) -> f64 {
        let (fx, fy) = from.map_or((0.0, 0.0), |p| (p.x, p.y));
        (x - fx).hypot(y - fy)
    }
}

mod param_json_without_schema {
    use mcp_toolkit::{Json, tool};

    #[derive(serde::Deserialize)]
    struct Point {
        x: f64,
        y: f64,
    }

    /// Measures the distance from the origin.
    #[tool]
    fn distance(point: Json<Point>) -> f64 {
        point.0.x.hypot(point.0.y)
    }
}

mod param_json_not_deserializable {
    use mcp_toolkit::{Json, tool};

    #[derive(schemars::JsonSchema)]
    struct Point {
        x: f64,
        y: f64,
    }

    /// Measures the distance from the origin.
    #[tool]
    fn distance(point: Json<Point>) -> f64 {
        point.0.x.hypot(point.0.y)
    }
}

fn main() {}
