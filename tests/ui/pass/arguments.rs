//! A `Json<T>` parameter is the argument `T`, with `T`'s schema; a `#[default(..)]` whose
//! type does not serialize is used when the argument is left out, and not shown in the
//! schema.
use mcp_toolkit::{Context, Json, tool, tools};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Default)]
struct Units {
    miles: bool,
}

/// Measures the distance between two points.
#[tool]
fn distance(
    to: Json<Point>,
    from: Option<Json<Point>>,
    #[default(Units::default())] units: Units,
) -> f64 {
    let from = from.map_or(Point { x: 0.0, y: 0.0 }, |Json(point)| point);
    let distance = (to.0.x - from.x).hypot(to.0.y - from.y);
    if units.miles { distance / 1.609 } else { distance }
}

fn main() {
    let tools = tools![distance];
    let schema = tools[0].input_schema();
    let point = json!({
        "type": "object",
        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
        "required": ["x", "y"]
    });
    assert_eq!(schema["properties"]["to"], point, "{schema:#?}");
    assert_eq!(schema["required"], json!(["to"]));
    assert!(schema["properties"]["units"].get("default").is_none(), "{schema:#?}");

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let call = |arguments| runtime.block_on(tools[0].call(&Context::default(), arguments));
    let result = call(json!({"to": {"x": 3.0, "y": 4.0}, "units": {"miles": false}}));
    assert_eq!(result.content()[0].as_text(), Some("5"));
    // Left out, `units` is its default.
    let result = call(json!({"to": {"x": 6.0, "y": 8.0}, "from": {"x": 3.0, "y": 4.0}}));
    assert_eq!(result.content()[0].as_text(), Some("5"));
}
