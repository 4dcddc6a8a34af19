use mcp_toolkit::tool;

/// Reads a file.
#[tool(annotations(read_only = "yes", idempotent))]
fn read(path: String) -> String {
    path
}

fn main() {}
