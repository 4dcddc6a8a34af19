// Every mistake of one `#[method]` arrives in one compile: a tool's key, a core name, a
// parameter that borrows, a generic fn.

use mcp_toolkit::{method, Json};

/// Everything wrong at once.
#[method(name = "tools/list", task)]
fn everything<T>(text: &str, value: T) -> Json<u8> {
    let _ = (text, value);
    Json(1)
}

fn main() {}
