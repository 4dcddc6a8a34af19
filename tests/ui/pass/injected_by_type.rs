//! Injected parameters are recognised by type, whatever they are called or however the type
//! is spelled.
use mcp_toolkit::{Context, State, tool, tools};

type Ctx = mcp_toolkit::Context;
type Shared = State<u32>;

mod nested {
    pub use mcp_toolkit::Context as RequestContext;
}

/// Uses the context under three spellings.
#[tool]
async fn spelled(x: Ctx, y: nested::RequestContext, z: Context, n: Shared, word: String) -> String {
    let _ = (x, y, z);
    format!("{word}{}", *n)
}

fn main() {
    let tools = tools![spelled];
    let properties = tools[0].input_schema()["properties"].as_object().unwrap();
    assert_eq!(properties.keys().collect::<Vec<_>>(), ["word"]);
}
