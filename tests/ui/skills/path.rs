//! What `skills!` takes: a string, naming a folder that exists and holds a skill.

fn main() {
    let _ = mcp_toolkit::skills!(skills);
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/no-such-folder");
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/empty");
}
