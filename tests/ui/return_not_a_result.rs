use mcp_toolkit::tool;

struct Report {
    lines: usize,
}

/// Reports on a text.
#[tool]
fn report(text: String) -> Report {
    Report { lines: text.lines().count() }
}

fn main() {}
