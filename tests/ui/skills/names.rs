//! A name that breaks the naming rule, a folder not named as its skill, and a file whose name
//! cannot be a `skill://` URI segment.

fn main() {
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/names");
}
