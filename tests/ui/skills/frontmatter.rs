//! A `SKILL.md` without frontmatter, with frontmatter that lacks `description`, that is not
//! YAML or that is not a mapping: each reported at the path, naming its file.

fn main() {
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/frontmatter");
}
