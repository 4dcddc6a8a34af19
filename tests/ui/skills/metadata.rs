//! A `metadata` key under the reserved prefix `io.modelcontextprotocol/`, and `metadata`
//! that is not a mapping.

fn main() {
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/metadata");
}
