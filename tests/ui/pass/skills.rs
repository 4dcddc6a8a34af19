//! `skills!` embeds a folder of skills, nested folders included; the skills are served.
use mcp_toolkit::{Server, skills};

fn main() {
    let notes = skills!("../../../tmp/skills-examples/skills");
    assert_eq!(notes.len(), 1);
    let _server = Server::new("skills", "1.0.0")
        .skills(notes)
        .skills(skills!("../../../tmp/skills-examples/conformance-skills"));
}
