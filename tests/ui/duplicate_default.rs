use mcp_toolkit::tool;

/// Repeats a text.
#[tool]
fn repeat(
    text: String,
    #[default(2)]
    #[default(3)]
    times: usize,
) -> String {
    text.repeat(times)
}

fn main() {}
