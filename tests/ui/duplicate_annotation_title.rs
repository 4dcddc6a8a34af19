use mcp_toolkit::tool;

/// Deletes a file.
#[tool(annotations(title = "Delete", destructive, title = "Remove"))]
fn delete(path: String) -> String {
    path
}

fn main() {}
